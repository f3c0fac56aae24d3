"""Generated pages: Assumptions (every parameter, from its one definition, with the value this
build used), Sources (``data/sources.csv``, author–year), Report facts (``data/report_facts.csv``,
one anchored entry per fact), Data (every table's schema), the landing page ``index.html``, the
build stamp (commit and date) in every page's footer, and the what-if panels' grid scripts; the
Data page and the grids are cached (:func:`cached_text`) by what they are made from."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import yaml

from analysis.chapters.registry import SECTIONS, all_params
from analysis.data import cache
from analysis.data.load import load_table, table_path
from analysis.data.schemas import DEPENDS, SCHEMAS
from analysis.page.formatting import count, format_quantity, humanize, param_value, percent, plain, plural, unit_label
from analysis.page.names import author, clean_note, fact_anchor, fact_label, gpu_name, source_label, source_link
from analysis.page.repository import book_repository, repository_url
from analysis.page.tables import interactive_table, markdown_cell
from analysis.page.whatif import PANELS, base_values, grid_script

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def markdown_literal(text: str) -> str:
    """``text`` shown as typed: every ASCII punctuation character backslash-escaped, so a
    user-supplied string can open no HTML tag, link, role or emphasis."""
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", " ".join(str(text).split()))


def human_date(date) -> str:
    """'2026-11-30' -> '30 November 2026'; '2024-07' -> 'July 2024'; '2026' -> '2026'; '' -> ''."""
    if not isinstance(date, str) or not date.strip():
        return ""
    parts = date.strip().split("-")
    if len(parts) == 3:
        return f"{int(parts[2])} {MONTHS[int(parts[1]) - 1]} {parts[0]}"
    if len(parts) == 2:
        return f"{MONTHS[int(parts[1]) - 1]} {parts[0]}"
    return parts[0]


def _param_text(p, value) -> str:
    """A parameter's value for readers: GPU names for GPU ids, code for other choices, the value
    and its unit for numbers (fractions also as a percentage)."""
    if isinstance(value, str):
        return f"{gpu_name(value)} (`{value}`)" if p.choices_from in ("gpus", "gpus_with_fp8") else f"`{value}`"
    if p.unit.startswith("fraction"):
        return f"{param_value(value, p.unit)} {p.unit[len('fraction'):].strip()}".strip()
    return f"{param_value(value, p.unit)} {unit_label(p.unit)}".strip()


def assumptions_page(values_by_section: dict[str, dict], scenario: str | None = None) -> str:
    """Markdown for the Assumptions appendix: every parameter once, with this build's value, its
    unit, range, basis, source and the chapters that use it."""

    shown = (f"This build shows the scenario **{markdown_literal(scenario)}**." if scenario
             else "This build shows the defaults.")
    out = ["# Assumptions", "", shown, "",
           "Every parameter of the book, generated from its single definition in "
           "`analysis/params/defaults.py`. *Basis* says how the default follows from its source: "
           "**cited** (printed in the source), **derived** (arithmetic on cited figures), "
           "**calibrated** (chosen so the model reproduces a published total) or **assumption**. "
           "Values in bold differ from the default in this build; the code name under each "
           "description is what `python -m analysis run ... -p NAME VALUE` and scenario files use.", "",
           "| Parameter | Value | Source | Justification |", "|---|---|---|---|"]
    for name, p in all_params().items():
        users = [s for s in SECTIONS if name in s.param_map]
        value = next((values_by_section[s.name][name] for s in users if s.name in values_by_section), p.default)
        shown_value = _param_text(p, value) if value == p.default else f"**{_param_text(p, value)}**"
        if value != p.default:
            shown_value += f" (default {_param_text(p, p.default)})"
        source = source_link(p.source) if p.source else "—"
        if p.fact:
            source += f" ({fact_link_md(p.fact)})"
        used_by = ", ".join(f"{{ref}}`{s.name} <chapter-{s.name}>`" for s in users)
        out.append(f"| {markdown_cell(p.description)}<br>`{name}` | {markdown_cell(shown_value)}<br>"
                   f"<small>{markdown_cell(p.describe_range())}</small> | *{p.basis}*: {source}<br>"
                   f"<small>used by {used_by}</small> | {_code_names(markdown_cell(p.why))} |")
    return "\n".join(out) + "\n"


_CODE_NAME = re.compile(r"(?<![`\w])((?:data/)?[A-Za-z][\w.]*_[\w.]*\w|analysis(?:\.\w+)+)(?![`\w])")


def _code_names(text: str) -> str:
    """Code names in a parameter's justification (other parameters, functions, data files) as
    code, which a table may break anywhere: an analyst reads them, and a long name no longer
    widens the column."""
    parts = text.split("`")
    return "`".join(part if i % 2 else _CODE_NAME.sub(r"`\1`", part) for i, part in enumerate(parts))


def fact_link_md(fact_id: str) -> str:
    """The fact's short label linked to its entry on the Report facts page."""
    return f"{{ref}}`{fact_label(fact_id)} <{fact_anchor(fact_id)}>`"


def _url_md(url: str) -> str:
    """A link to ``url``. myst-parser escapes a link's address once more than it should, so an
    address with '&' (a query string) would reach readers as '&amp;amp;': those go in as HTML."""
    if "&" in url:
        return f'<a class="reference external" href="{html.escape(url)}">{html.escape(url)}</a>'
    return f"<{url}>"


# A name a source's title quotes from a repository: a word with _ or * in it (llama31_405b,
# results/*/gpt3), a file (MODEL_CARD.md) or an owner/repository pair (meta-llama/Llama-3.1-8B);
# not a unit or a list of chips (400Gb/s, H100/H200).
_WORD = re.compile(r"[\w.*/-]+")
_NAMED = re.compile(r".*[_*].*|.*[A-Za-z]\.[a-z]{2,4}|[A-Za-z-]{3,}/[\w.-]+")


def code_names(title: str) -> str:
    """``title`` with the file, folder and repository names it quotes as inline code: shown as
    published, in code type, not read as prose (and a ``*`` in a path is not emphasis)."""
    def code(m):
        name = m.group(0).rstrip(".")
        return f"`{name}`{m.group(0)[len(name):]}" if _NAMED.fullmatch(name) else m.group(0)
    return _WORD.sub(code, title)


def sources_page() -> str:
    """Markdown for the Sources appendix: author–year entries, sorted, one anchored entry each,
    with the date each source was read (``accessed`` in data/sources.csv; blank when unknown)."""
    sources = load_table("sources")
    out = ["# Sources", "", "Every data row and parameter of the book cites one of these works, listed "
           "by author and year. *Read* is the date the book's authors read the copy the numbers come "
           "from; it is left out where the data does not record it. Machine-readable: "
           "{download}`sources.csv <data/sources.csv>`.", ""]
    entries = []
    for s in sources.itertuples():
        who = author(s.publisher)
        year = re.match(r"\d{4}", str(s.date))
        entries.append(((who.lower(), year.group(0) if year else "", s.title.lower()), s, who))
    for _, s, who in sorted(entries, key=lambda e: e[0]):
        published = human_date(s.date)
        url = _url_md(s.url) if isinstance(s.url, str) and s.url.strip() else "Not published."
        read = human_date(s.accessed) if isinstance(s.accessed, str) else ""
        kind = {"vendor-doc": "vendor documentation", "model-card": "model card"}.get(s.kind, s.kind)
        line = f"{markdown_cell(who)} ({published}). *{markdown_cell(code_names(s.title))}*. {kind.capitalize()}. {url}"
        if read:
            line += f" Read {read}."
        out += [f"(src-{s.source_id})=", line, ""]
    return "\n".join(out)


def facts_page() -> str:
    """Markdown for the Report facts appendix: every figure the book takes from the reports
    (``data/report_facts.csv``), one anchored entry each, so a chapter can link a fact by its
    short label (:func:`analysis.page.names.fact_link`)."""
    facts = load_table("report_facts")
    out = ["(report-facts)=", "# Report facts", "",
           "Every number the book takes from a published report, with a short label. The letter names "
           "the report: **A** is SemiAnalysis's *H100 vs GB200 NVL72 Training Benchmarks* (2025), **B** "
           "its *100,000 H100 Clusters* (2024) and **C** its *AI Datacenter Energy Dilemma* (2024); the "
           "number orders the facts within it. *Verbatim* facts are printed in the report, *derived* "
           "ones follow from its numbers by arithmetic, and *digest* ones come from a secondary summary "
           "of it. The {ref}`claims ledger <chapter-claims>` checks the ones the book recomputes. "
           "See also the {ref}`glossary <glossary>`.", ""]
    for letter, title in (("A", "A: H100 vs GB200 NVL72 Training Benchmarks (SemiAnalysis, 2025)"),
                          ("B", "B: 100,000 H100 Clusters (SemiAnalysis, 2024)"),
                          ("C", "C: AI Datacenter Energy Dilemma (SemiAnalysis, 2024)")):
        part = facts[facts["fact_id"].str.startswith(letter)]
        if not len(part):
            continue
        out += [f"## {title}", ""]
        for f in part.itertuples():
            value = format_quantity(f.value, f.unit)
            if f.value_high == f.value_high:  # not NaN
                value += f" to {format_quantity(f.value_high, f.unit)}"
            note = clean_note(f.note)
            note = f" {markdown_cell(note[0].upper() + note[1:])}{'' if note.endswith('.') else '.'}" if note else ""
            out += [f"({fact_anchor(f.fact_id)})=",
                    f"**{fact_label(f.fact_id)}** {markdown_cell(f.quantity[0].upper() + f.quantity[1:])}: "
                    f"**{markdown_cell(value)}** ({f.confidence}; {source_link(f.source_id)}).{note}", ""]
    return "\n".join(out)


def _check_text(check) -> str:
    stats = {k: v for k, v in (check.statistics or {}).items() if v is not None}
    if "allowed_values" in stats:
        values = list(stats["allowed_values"])
        return "one of " + ", ".join(f"`{v}`" for v in values[:8]) + (" …" if len(values) > 8 else "")
    if "min_value" in stats and "max_value" in stats:
        low, high = stats["min_value"], stats["max_value"]
        if 0 < low <= 1e-6:  # a guard against zero, not a bound anyone reads as a number
            return f"above 0, at most {plain(high)}"
        return f"{plain(low)} to {plain(high)}"
    if "pattern" in stats:
        return f"matches `{stats['pattern']}`"
    return check.error or check.name


def data_page() -> str:
    """Markdown for the Data appendix: every table in ``data/`` with its schema and a download."""

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
                f"{plural(rows, 'row')}. References: {refs}. {{download}}`Download {name}.csv <data/{name}.csv>`", "",
                "| Column | Type | Required | Checks |", "|---|---|---|---|"]
        for column, spec in schema.columns.items():
            checks = "; ".join(_check_text(c) for c in spec.checks if "referenced table" not in str(c.statistics))
            if any("referenced table" in str(c.statistics) for c in spec.checks):
                checks = (checks + "; " if checks else "") + "a key of the referenced table"
            unique = "; unique" if spec.unique else ""
            kind = {"string[python]": "text", "float64": "number", "Int64": "integer"}.get(str(spec.dtype), str(spec.dtype))
            out.append(f"| `{column}` | {kind} | {'no' if spec.nullable else 'yes'} | "
                       f"{markdown_cell(checks + unique)} |")
        for check in schema.checks:
            out.append(f"| (row) | | | {markdown_cell(humanize(check.error or check.name))} |")
        out.append("")
        if name in BROWSABLE:
            out += [f":::{{dropdown}} Browse the {rows:,} rows of {name} (sort by a column, filter by text)",
                    "", BROWSABLE[name](), "", ":::", ""]
    return "\n".join(out)


def _benchmarks_table() -> str:
    """The benchmark rows as a sortable, filterable table, in reader-facing names and formats."""

    models = load_table("models").set_index("model_id")["name"] if "name" in load_table("models") else {}
    return str(interactive_table(load_table("benchmarks"), {
        "model_id": ("Model", lambda m: models.get(m, m) if hasattr(models, "get") else m),
        "gpu_id": ("GPU", gpu_name), "precision": ("Precision", str.upper), "gpus": ("GPUs", count),
        "software": "Software", "date": "Date", "mfu_reported": ("MFU reported", percent),
        "tokens_per_s_per_gpu_reported": ("Tokens/s per GPU reported", lambda v: f"{v:,.0f}"),
        "source_id": ("Source", source_label)}, table_id="browse-benchmarks"))


BROWSABLE = {"benchmarks": _benchmarks_table}


def build_stamp(root: Path) -> dict[str, str]:
    """The commit and date a build shows in its footer: ``git`` HEAD's short hash and its commit
    date, so two builds of the same commit are byte-identical (never the wall clock). Outside a
    git checkout (a copied tree) both are 'unknown'. A tree with uncommitted changes says so."""
    def git(*args):
        proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
        return proc.stdout.strip() if proc.returncode == 0 else ""

    commit = git("rev-parse", "--short=12", "HEAD") if git("rev-parse", "--show-toplevel") == str(root) else ""
    if not commit:
        return {"commit": "unknown", "date": "unknown", "dirty": ""}
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "analysis", "notebooks", "book", "data",
                "_config.yml", "_toc.yml", "requirements.txt")
    return {"commit": commit, "date": human_date(git("log", "-1", "--format=%cs", "HEAD")),
            "dirty": ", with local changes" if dirty else ""}


# Files of the repository the site serves at its root (copied by stage_front_matter), so every
# page can link to them: (file in the repository, name on the site, link text).
SITE_FILES = (("LICENSE", "LICENSE.txt", "LICENSE"), ("data/LICENSE", "data-LICENSE.txt", "data/LICENSE"),
              ("CITATION.cff", "CITATION.cff", "CITATION.cff"))


def _root_link(site_name: str, text: str, root: str | None) -> str:
    """A link to a file at the site's root. The footer is one HTML string on pages at every depth,
    so without ``root`` (the path from the page to the site's root) the link carries
    ``data-root-path`` and book.js completes it from the page's ``data-content_root``."""
    if root is None:
        return f'<a class="book-root-link" href="{site_name}" data-root-path="{site_name}">{html.escape(text)}</a>'
    return f'<a href="{root}{site_name}">{html.escape(text)}</a>'


def footer_html(stamp: dict[str, str], repository: str = "", root: str | None = None) -> str:
    """The footer line of every page: the build's one date (its commit's), licence, links to
    LICENSE, CITATION.cff, the code repository and its issue tracker (when the build knows the
    repository: :func:`book_repository`) and 'Cite this book'. ``root`` as in :func:`_root_link`."""
    links = ", ".join(_root_link(site, text, root) for _, site, text in SITE_FILES)
    code = ""
    if repository:
        url = html.escape(repository, quote=True)
        code = (f' The code: <a href="{url}">{html.escape(repository)}</a> '
                f'(<a href="{url}/issues">issues</a>).')
    cite = _root_link("book/cite.html", "Cite this book", root)
    return (f'<p class="book-stamp">Built from commit <code>{html.escape(stamp["commit"])}</code> '
            f'({html.escape(stamp["date"])}){html.escape(stamp["dirty"])}. Code MIT, text and data '
            f'CC-BY-4.0 with attribution to their sources ({links}).{code} {cite}.</p>')


def stamp_config(config_path: Path, stamp: dict[str, str], repository: str = "") -> None:
    """Put the build stamp into a staged ``_config.yml`` (``html.extra_footer``) and, when the
    repository is known, its URL (``repository.url``) and Jupyter Book's repository and issue
    buttons; with none, the buttons stay off (Jupyter Book's default URL is its own repository)."""

    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    repository = repository or repository_url(config)
    if repository:
        config.setdefault("repository", {})["url"] = repository
        config.setdefault("html", {}).update(use_repository_button=True, use_issues_button=True)
    config.setdefault("html", {})["extra_footer"] = footer_html(stamp, repository)
    config_path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")


def landing_html(title: str, stamp: dict[str, str], repository: str = "") -> str:
    """The site's front door, ``index.html``: what the book is, in one paragraph, and every chapter
    with the question it answers (from :mod:`analysis.chapters.registry`), linked."""
    chapters = "\n".join(
        f'<li><a href="book/generated/{s.name}.html">{html.escape(s.title)}</a>: {html.escape(s.question)}</li>'
        for s in SECTIONS if s.name != "intro")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="icon" href="_static/favicon.svg" type="image/svg+xml">
<style>
body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.55;
       max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #222; }}
h1 {{ font-size: 1.9rem; line-height: 1.25; }}
a {{ color: #0060a0; }}
.start {{ display: inline-block; margin: 0.5rem 0 1rem; padding: 0.5rem 1rem; background: #0072B2;
          color: #fff; border-radius: 4px; text-decoration: none; }}
li {{ margin: 0.35rem 0; }}
footer {{ margin-top: 2.5rem; font-size: 0.85rem; color: #555; border-top: 1px solid #ddd; padding-top: 0.75rem; }}
</style>
</head>
<body>
<main>
<h1>{html.escape(title)}</h1>
<p>What does it cost, in dollars, joules and lost hours, to train a large model on a cluster of
NVIDIA H100 or GB200 NVL72 GPUs, and why? This open book rebuilds the published figures, chiefly
SemiAnalysis's reports on 100,000-GPU clusters and on H100 against GB200 training, from cited data
and small tested functions, corrects the second-hand claims that got them wrong, and lets you rerun
every chapter with your own prices, power and utilisation.</p>
<p><a class="start" href="book/generated/intro.html">Start with the introduction</a></p>
<h2>Chapters</h2>
<ul>
{chapters}
</ul>
<h2>Reference</h2>
<ul>
<li><a href="book/glossary.html">Glossary</a>: PUE, MFU, goodput, NVL72 and the book's other terms.</li>
<li><a href="book/generated/assumptions.html">Assumptions</a>, <a href="book/generated/sources.html">Sources</a>,
<a href="book/generated/facts.html">Report facts</a> and <a href="book/generated/data_tables.html">Data</a>.</li>
<li><a href="book/rerun.html">Rerun the book with your own numbers</a>.</li>
<li><a href="book/cite.html">Cite this book</a> (licence, BibTeX).</li>
</ul>
</main>
<footer>{footer_html(stamp, repository, root="")}</footer>
</body>
</html>
"""


def stage_front_matter(src: Path, root: Path) -> None:
    """In a staged book source ``src``: the build stamp and the repository (:func:`book_repository`)
    in ``_config.yml`` (footer, buttons), and the landing page as ``book/extra/index.html`` (copied
    to the site's root by Sphinx)."""
    stamp = build_stamp(root)
    config = yaml.safe_load((src / "_config.yml").read_text(encoding="utf-8"))
    repository = book_repository(config, root)
    stamp_config(src / "_config.yml", stamp, repository)
    extra = src / "book" / "extra"
    extra.mkdir(parents=True, exist_ok=True)
    (extra / "index.html").write_text(landing_html(config.get("title", ""), stamp, repository), encoding="utf-8")
    for name, site_name, _ in SITE_FILES:  # served at the site's root, linked from every footer
        if (root / name).is_file():
            shutil.copyfile(root / name, extra / site_name)


def cached_text(cache_root: Path, name: str, inputs: dict, make) -> str:
    """``make()``, a generated page or script, cached as ``pages/<name>-<key>`` (:mod:`analysis.data.cache`)
    by ``inputs``, what it is made from."""

    files = cache.read(cache_root / "pages", name, inputs, f"page {name}")
    if files is None:
        files = {"text": make().encode("utf-8")}
        cache.write(cache_root / "pages", name, inputs, files)
    return files["text"].decode("utf-8")


def whatif_scripts(values: dict[str, dict], inputs: dict, cache_root: Path) -> dict[str, str]:
    """Each what-if panel's grid script (:func:`analysis.page.whatif.grid_script`) at this build's
    parameters ``values``, cached by the parameters it is computed from and ``inputs`` (the
    package and the data)."""

    flat = {k: v for s in values.values() for k, v in s.items()}
    return {p.name: cached_text(cache_root, f"whatif-{p.name}", {**inputs, "panel": p.name, "values": base_values(p, flat)},
                                lambda p=p: grid_script(p, flat)) for p in PANELS.values()}

