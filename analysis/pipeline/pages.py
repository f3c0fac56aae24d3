"""Generated appendix pages: Assumptions (every parameter, from its one definition, with the
value this build used) and Sources (``data/sources.csv``)."""

from __future__ import annotations

import re

from analysis.data import load_table
from analysis.notebook import format_value
from analysis.sections import SECTIONS


def markdown_literal(text: str) -> str:
    """``text`` shown as typed: every ASCII punctuation character backslash-escaped, so a
    user-supplied string can open no HTML tag, link, role or emphasis."""
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", " ".join(str(text).split()))


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def assumptions_page(values_by_section: dict[str, dict], scenario: str | None = None) -> str:
    """Markdown for the Assumptions appendix: every parameter once, with this build's value, its
    unit, range, basis, source and the chapters that use it."""
    from analysis.sections import all_params

    shown = (f"This build shows the scenario **{markdown_literal(scenario)}**." if scenario
             else "This build shows the defaults.")
    out = ["# Assumptions", "", shown, "",
           "Every parameter of the book, generated from its single definition in "
           "`analysis/defaults.py`. *Basis* says how the default follows from its source: "
           "**cited** (printed in the source), **derived** (arithmetic on cited figures), "
           "**calibrated** (chosen so the model reproduces a published total) or **assumption**. "
           "Values in bold differ from the default in this build.", "",
           "| Parameter | This build | Default | Unit | Valid range | Basis | Source | Used by | Justification |",
           "|---|---|---|---|---|---|---|---|---|"]
    for name, p in all_params().items():
        users = [s for s in SECTIONS if name in s.param_map]
        value = next((values_by_section[s.name][name] for s in users if s.name in values_by_section), p.default)
        shown_value = format_value(value) if value == p.default else f"**{format_value(value)}**"
        source = f"{{ref}}`{p.source} <src-{p.source}>`" if p.source else "—"
        if p.fact:
            source += f" ({p.fact})"
        used_by = ", ".join(f"{{ref}}`{s.name} <chapter-{s.name}>`" for s in users)
        out.append(f"| `{name}` | {shown_value} | {format_value(p.default)} | {_cell(p.unit)} | "
                   f"{_cell(p.describe_range())} | {p.basis} | {source} | {used_by} | {_cell(p.why)} |")
    return "\n".join(out) + "\n"


def sources_page() -> str:
    """Markdown for the Sources appendix, one anchored entry per source."""
    out = ["# Sources", "", "Every data row and parameter cites one of these (`data/sources.csv`). "
           "Accessed dates are when the stored copy was read.", ""]
    for s in load_table("sources").itertuples():
        url = f"[{s.url}]({s.url})" if isinstance(s.url, str) else "not public"
        note = f" {s.note}" if isinstance(s.note, str) else ""
        out += [f"(src-{s.source_id})=", f"## `{s.source_id}`", "",
                f"{s.publisher}, *{s.title}*, {s.date}. {url} (accessed {s.accessed}; {s.kind}).{note}", ""]
    return "\n".join(out)


def _check_text(check) -> str:
    stats = {k: v for k, v in (check.statistics or {}).items() if v is not None}
    if "allowed_values" in stats:
        values = list(stats["allowed_values"])
        return "one of " + ", ".join(f"`{v}`" for v in values[:8]) + (" …" if len(values) > 8 else "")
    if "min_value" in stats and "max_value" in stats:
        return f"{stats['min_value']:,g} to {stats['max_value']:,g}"
    if "pattern" in stats:
        return f"matches `{stats['pattern']}`"
    return check.error or check.name


def data_page() -> str:
    """Markdown for the Data appendix: every table in ``data/`` with its schema and a download."""
    from analysis.data import load_table, table_path
    from analysis.schemas import DEPENDS, SCHEMAS

    out = ["# Data", "", "Every table the book reads, with the schema it is validated against at load time "
           "(pandera; a bad row stops the build with its file, line and column). `data/README.md` in the "
           "repository documents each table in prose. Foreign keys (`source_id`, `gpu_id`, ...) must exist "
           "in the table named.", ""]
    for name, factory in SCHEMAS.items():
        if not table_path(name).is_file():
            continue
        schema = factory(lambda *args: ["(see the referenced table)"])
        rows = len(load_table(name))
        refs = ", ".join(f"`{d}`" for d in DEPENDS.get(name, ())) or "none"
        out += [f"## `{name}`", "",
                f"{rows:,} rows. References: {refs}. {{download}}`Download {name}.csv <data/{name}.csv>`", "",
                "| Column | Type | Required | Checks |", "|---|---|---|---|"]
        for column, spec in schema.columns.items():
            checks = "; ".join(_check_text(c) for c in spec.checks if "referenced table" not in str(c.statistics))
            if any("referenced table" in str(c.statistics) for c in spec.checks):
                checks = (checks + "; " if checks else "") + "a key of the referenced table"
            unique = "; unique" if spec.unique else ""
            kind = {"string[python]": "text", "float64": "number", "Int64": "integer"}.get(str(spec.dtype), str(spec.dtype))
            out.append(f"| `{column}` | {kind} | {'no' if spec.nullable else 'yes'} | "
                       f"{_cell(checks + unique)} |")
        for check in schema.checks:
            out.append(f"| (row) | | | {_cell(check.error or check.name)} |")
        out.append("")
    return "\n".join(out)
