"""Generated appendix pages: Assumptions (every parameter, from its one definition, with the
value this build used) and Sources (``data/sources.csv``)."""

from __future__ import annotations

from analysis.data import load_table
from analysis.notebook import format_value
from analysis.sections import SECTIONS


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def assumptions_page(values_by_section: dict[str, dict]) -> str:
    """Markdown for the Assumptions appendix. ``values_by_section`` holds this build's values."""
    out = ["# Assumptions", "",
           "Every parameter of the book, generated from its single definition in "
           "`analysis/defaults.py`. *Basis* says how the default follows from its source: "
           "**cited** (printed in the source), **derived** (arithmetic on cited figures), "
           "**calibrated** (chosen so the model reproduces a published total) or **assumption**. "
           "Values in bold differ from the default in this build.", ""]
    for section in SECTIONS:
        if not section.params:
            continue
        out += [f"## {section.title}", "",
                "| Parameter | This build | Default | Unit | Valid range | Basis | Source | Justification |",
                "|---|---|---|---|---|---|---|---|"]
        values = values_by_section.get(section.name, {})
        for p in section.params:
            value = values.get(p.name, p.default)
            shown = format_value(value) if value == p.default else f"**{format_value(value)}**"
            source = f"{{ref}}`{p.source} <src-{p.source}>`" if p.source else "—"
            out.append(f"| `{p.name}` | {shown} | {format_value(p.default)} | {_cell(p.unit)} | "
                       f"{_cell(p.describe_range())} | {p.basis} | {source} | {_cell(p.why)} |")
        out.append("")
    return "\n".join(out)


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
