"""What a chapter notebook calls: resolve its parameters, show them, set the figure style, then
publish the chapter's results for the prose and the book.

    P, upstream = start("cluster", globals())
    R = chapter.compute(P, upstream)
    publish(R, P)
    ...
    save(R)

``P`` holds the validated parameter values (``P.gpus``); ``upstream`` the results of the chapters
it needs; ``R`` is the chapter's :class:`analysis.chapters.ChapterResults`, whose every quantity
:func:`publish` glues for ``{glue:text}``. Values come from the notebook's namespace, where papermill
injects overrides, and otherwise from the one definition in :mod:`analysis.params.defaults`.
"""

from __future__ import annotations

import difflib
import functools
import os
from pathlib import Path

from analysis.chapters import ChapterResults, compute_section, tracked_parameters
from analysis.chapters.ledger import difference_rel
from analysis.chapters.registry import SECTIONS, get_section, in_order, resolve_section
from analysis.chapters.results import load_results
from analysis.data import provenance
from analysis.data.load import load_table, row
from analysis.errors import ExecutionError, clip
from analysis.page.formatting import format_quantity as fq
from analysis.page.formatting import money, plain, unit_label
from analysis.page.names import fact_link, reader_text
from analysis.page.plots import apply_style, finalize
from analysis.page.tables import markdown_cell, markdown_table, reader_label, table_csv  # noqa: F401 (markdown_table: for notebooks)
from analysis.params.parameters import ParameterError


def format_value(value) -> str:
    if isinstance(value, str):
        return f"`{value}`"

    if isinstance(value, int):
        return f"{value:,}"
    return plain(value)


def parameter_table(section_name: str, values: dict) -> str:
    """Markdown: the parameters a section ran with, changed ones listed first and in bold, the
    full table folded in a dropdown (descriptions and sources are in the Assumptions appendix)."""
    section = get_section(section_name)
    rows, changed = [], []
    for p in section.params:
        value = values[p.name]
        if value != p.default:
            changed.append(f"`{p.name}` = **{format_value(value)}** {unit_label(p.unit)} (default {format_value(p.default)})")
            shown = f"**{format_value(value)}** (changed)"
        else:
            shown = format_value(value)
        rows.append(f"| {markdown_cell(p.description)} (`{p.name}`) | {shown} | {markdown_cell(unit_label(p.unit))} | {format_value(p.default)} |")
    summary = (f"{len(changed)} parameter(s) differ from the defaults: " + "; ".join(changed) + "."
               if changed else "All parameters are at their defaults.")
    return "\n".join([
        f"**Parameters this chapter ran with.** {summary} Rerun with "
        f"`python -m analysis run {section_name} -p NAME VALUE`; each parameter's justification and "
        "source is in the {doc}`Assumptions <assumptions>` appendix.", "",
        ":::{admonition} " + f"All {len(section.params)} parameters of this chapter",
        ":class: dropdown", "",
        "| Parameter (name) | Value | Unit | Default |", "|---|---|---|---|", *rows, ":::"])


def start(section_name: str, namespace: dict, show_parameters: bool = True):
    """``(P, upstream)``: the section's parameters validated from ``namespace`` (its parameters cell,
    generated from :mod:`analysis.params.defaults`, and papermill's injected cell after it; any not
    there take their default) and the results of the sections it needs (for
    ``chapters.<name>.compute``); styles the figures. With ``show_parameters`` it displays the
    parameter table here; otherwise call :func:`show_parameters` where the chapter wants it.

    A plain value in ``namespace`` that is not one of the chapter's parameters was injected by
    someone (a misspelt ``papermill -p``, another chapter's parameter): refused before any output,
    so papermill exits non-zero (:func:`refuse_foreign_names`). Outside the build the chapter writes
    its results beside papermill's output notebook when papermill injected its path
    (``--inject-output-path``), else into ``_build/run``; never into the published book."""
    section = get_section(section_name)
    refuse_foreign_names(section, namespace)
    given = {p.name: namespace[p.name] for p in section.params if p.name in namespace}
    values = resolve_section(section, given)
    if "ANALYSIS_RESULTS_DIR" not in os.environ:  # not the build: the notebook's own output folder
        use_results_dir(_output_folder(namespace.get("PAPERMILL_OUTPUT_PATH")))
    apply_style()
    upstream = {need: _upstream(need, given) for need in section.needs}
    if show_parameters:
        _display_parameters(section_name, values)
    provenance.begin()  # this kernel computes one chapter: record what each of its results reads
    return tracked_parameters(section, values), upstream


# Names a kernel holds that nobody injected: IPython's own, and papermill's paths (--inject-paths).
KERNEL_NAMES = frozenset({"In", "Out", "get_ipython", "exit", "quit", "open", "PAPERMILL_INPUT_PATH",
                          "PAPERMILL_OUTPUT_PATH"})
# What papermill's Python translator writes into its injected cell: plain values only.
PLAIN_VALUES = (type(None), bool, int, float, str, list, dict)


def foreign_names(section, namespace: dict) -> list[str]:
    """The plain values in ``namespace`` that ``section`` does not take as parameters and that its
    notebook does not assign itself (a chapter rerun in a live JupyterLab kernel still holds its
    own ``upstream``): names someone injected."""
    own = _names_assigned(REPO_ROOT / section.notebook)
    return sorted(name for name, value in namespace.items()
                  if isinstance(value, PLAIN_VALUES) and not name.startswith("_") and name not in KERNEL_NAMES
                  and name not in section.param_map and name not in own)


def refuse_foreign_names(section, namespace: dict) -> None:
    """Raise a :class:`ParameterError` naming each of :func:`foreign_names`: a misspelt name with
    the chapter's nearest parameters, another chapter's parameter with the chapters it belongs to."""
    names = foreign_names(section, namespace)
    if not names:
        return
    involved = {s.name for s in in_order([section.name])}
    said = []
    for name in names:
        shown = name if len(name) <= 80 else clip(name)[1:-1]
        users = [s.name for s in SECTIONS if name in s.param_map]
        if users:
            why = f"a parameter of {', '.join(users)}, not of {section.name}"
            if involved & set(users):
                why += (f"; for the chapters {section.name} reads, `python -m analysis run {section.name} "
                        f"-p {name} VALUE` sets it")
        else:
            near = difflib.get_close_matches(name, list(section.param_map), n=3)
            why = "not a parameter of any chapter" + (f"; did you mean {', '.join(near)}?" if near else "")
        said.append(f"'{shown}' ({why})")
    raise ParameterError(
        f"chapter '{section.name}' does not take {'; '.join(said)}. `python -m analysis params {section.name}` "
        "and `papermill --help-notebook` list its parameters.")


@functools.cache
def _names_assigned_cached(path: str, mtime: float) -> frozenset[str]:
    import ast

    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    names |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
              for a in n.names}
    return frozenset(names)


def _names_assigned(path: Path) -> frozenset[str]:
    """Every name a notebook's own code assigns (nothing where its file is not beside the package)."""
    try:
        return _names_assigned_cached(str(path), path.stat().st_mtime)
    except (OSError, SyntaxError):
        return frozenset()


def _output_folder(output_path) -> Path | None:
    """The folder of papermill's output notebook, where papermill injected its path and it is a
    local file; else None (``_build/run``)."""
    if not isinstance(output_path, str) or not output_path or "://" in output_path or output_path == "-":
        return None
    return Path(output_path).expanduser().resolve().parent


REPO_ROOT = Path(__file__).resolve().parents[2]
RUN_DIR = REPO_ROOT / "_build" / "run"  # where `python -m analysis run` writes, and a notebook run on its own
_OUTSIDE_FOLDER: Path | None = None  # where a notebook run outside the build writes (start() sets it)


def results_dir() -> Path:
    """Where this chapter's results go: ``$ANALYSIS_RESULTS_DIR`` inside the build (or ``run
    --notebook``); outside it, the folder :func:`start` chose (beside papermill's output notebook),
    else ``_build/run``. Never ``_build/results``: that is the published book's, and only the
    build's swap changes it."""
    if "ANALYSIS_RESULTS_DIR" in os.environ:
        return Path(os.environ["ANALYSIS_RESULTS_DIR"])
    return _OUTSIDE_FOLDER or RUN_DIR


def use_results_dir(folder: Path | None) -> None:
    """Where this process's chapter writes when no build set ``$ANALYSIS_RESULTS_DIR`` (None:
    ``_build/run``)."""
    global _OUTSIDE_FOLDER
    _OUTSIDE_FOLDER = None if folder is None else Path(folder)


def save(R: ChapterResults) -> None:
    """Write the chapter's results JSON and its CSV twin into :func:`results_dir`: a notebook's last
    cell. Returns nothing, so the cell prints nothing."""
    R.save(results_dir())


def publish(R: ChapterResults, P) -> None:
    """Record on ``R`` the parameters its chapter ran with (``P``; the results file keeps them)
    and glue every quantity under its key for ``{glue:text}``. A whole count is an int
    (:func:`analysis.chapters.results.as_number`), so the prose reads "11 reproduced", not "11.0"."""
    from myst_nb import glue as myst_glue

    R.parameters = P.as_dict()
    for key, q in R.quantities.items():
        myst_glue(key, q.value, display=False)


def offer_table(R: ChapterResults, name: str, table, title: str) -> None:
    """Write ``table`` (a DataFrame) as ``<results dir>/<section>__<name>.csv`` and show a
    download link: the data behind a chapter's table or figure, for readers to reuse."""
    from IPython.display import Markdown, display

    if not name.replace("_", "").isalnum():
        raise ExecutionError(f"table name {name!r} must be letters, digits and underscores")
    folder = results_dir()
    folder.mkdir(parents=True, exist_ok=True)
    filename = f"{R.section}__{name}.csv"
    table.to_csv(folder / filename, index=False, float_format="%.6g", lineterminator="\n")
    display(Markdown(f"{{download}}`Download the data: {title} (CSV) <data/{filename}>`"))


def show_table(R: ChapterResults, table) -> None:
    """Display a reader table (:func:`analysis.page.tables.markdown_table`). A folded one (key rows
    or columns shown, the whole table in a ``<details>``) is also written whole, every row and
    column as the page shows them, to ``<results dir>/<section>__<name>.csv``, and a download
    link follows it: the full table for readers who want it outside the page."""
    from IPython.display import Markdown, display

    text = str(table)
    if getattr(table, "folded", False) and getattr(table, "name", ""):
        if not table.name.replace("_", "").isalnum():
            raise ExecutionError(f"table name {table.name!r} must be letters, digits and underscores")
        folder = results_dir()
        folder.mkdir(parents=True, exist_ok=True)
        filename = f"{R.section}__{table.name}.csv"
        (folder / filename).write_text(table_csv(table), encoding="utf-8")
        text += f"\n\n{{download}}`Download the full table: {table.title or table.name} (CSV) <data/{filename}>`"
    display(Markdown(text))


def _upstream(need: str, given: dict):
    """The results of a section this chapter needs: inside the build (``ANALYSIS_RESULTS_DIR`` set)
    the results file it wrote, which must be there; outside it (papermill, JupyterLab) the section
    computed here with this chapter's parameters (:func:`analysis.chapters.compute_section`, as
    ``python -m analysis run`` does), never the published book's results, made with other inputs."""
    if "ANALYSIS_RESULTS_DIR" in os.environ:
        return ChapterResults.from_json(load_results(need, results_dir()))
    return compute_section(need, given)


def _display_parameters(section_name: str, values: dict) -> None:
    """Display the parameter table and the results download link of a chapter."""
    from IPython.display import Markdown, display

    if get_section(section_name).params:
        display(Markdown(parameter_table(section_name, values)))
    if section_name != "intro":
        display(Markdown(f"{{download}}`Download this chapter's results (CSV) <data/{section_name}__results.csv>`"))


def show_parameters(P, R) -> None:
    """Display the parameter table of ``R``'s chapter (see :func:`start`)."""
    _display_parameters(R.section, P.as_dict())


def _md_row(*cells) -> str:
    """One Markdown table row, cells escaped (see :mod:`analysis.page.tables`)."""
    return "| " + " | ".join(markdown_cell(c) for c in cells) + " |"


def comparison_table(R, pairs) -> str:
    """Markdown table setting book results against the report's printed values.
    ``pairs`` is a list of ``(results key, fact id)``; report values come from report_facts.csv."""
    lines = ["| Quantity | This book | Report | Difference | Fact |", "|---|---|---|---|---|"]
    for key, fact_id in pairs:
        res, f = R.quantities[key], row("report_facts", fact_id)
        report = format_quantity(f["value"], f["unit"])
        if f["value_high"] == f["value_high"]:  # a range; the difference is from its nearer end, as in the ledger
            report += f" to {format_quantity(f['value_high'], f['unit'])}"
        difference = difference_rel(res.value, f["value"], f["value_high"])
        lines.append(_md_row(reader_text(reader_label(res.label)), format_quantity(res.value, res.unit), report,
                             f"{difference * 100:+.1f} %" if difference == difference else "—",
                             f"{fact_link(fact_id)} ({f['confidence']})"))
    return "\n".join(lines)


def claims_table(section_name: str, R) -> str:
    """Markdown table of the seed claims this chapter settles, checked against its results: the
    claim, its status beside it, the seed's and the original's values, the book's, and why (the
    claim's label, as the ledger files it, closes the row)."""
    claims = load_table("claims")
    claims = claims[claims["section"] == section_name]
    lines = ["| Claim | Status | Seed says | Original source | This book | Why |", "|---|---|---|---|---|---|"]
    for c in claims.itertuples():
        original = "—"
        if isinstance(c.fact_id, str):
            f = row("report_facts", c.fact_id)
            original = f"{format_quantity(f['value'], f['unit'])} ({fact_link(c.fact_id)})"
        book = "—"
        if isinstance(c.results_key, str) and c.results_key in R:
            book = format_quantity(R[c.results_key], R.unit(c.results_key))
        seed = c.seed_value if isinstance(c.seed_value, str) else "—"
        lines.append(_md_row(reader_text(c.claim), f"**{c.status.replace('_', ' ')}**", reader_text(seed), original, book,
                             f"{reader_text(c.explanation)} (claim {c.claim_id} of the ledger)"))
    return "\n".join(lines)


def glue_facts(*fact_ids: str) -> None:
    """Glue report facts for the prose as ``fact_<ID>`` (and ``fact_<ID>_high`` for ranges)."""
    for fact_id in fact_ids:
        f = row("report_facts", fact_id)
        glue(f"fact_{fact_id}", float(f["value"]), display=False)
        if f["value_high"] == f["value_high"]:  # not NaN
            glue(f"fact_{fact_id}_high", float(f["value_high"]), display=False)


def glue_values(values: dict) -> None:
    """Glue each of ``values`` under its name, for ``{glue:text}`` (numbers a figures module
    rescaled for the prose, e.g. ``analysis.figures.intro.prose_numbers``)."""
    for key, value in values.items():
        glue(key, value, display=False)


def chapters_table() -> str:
    """Markdown table of the chapters and the question each answers."""
    lines = ["| Chapter | What it answers |", "|---|---|"]
    for s in SECTIONS:
        if s.name != "intro":
            lines.append(f"| {{ref}}`chapter-{s.name}` | {s.question} |")
    return "\n".join(lines)


def glue(key: str, value, display: bool = False):
    """myst-nb's glue, with numpy scalars turned into plain Python numbers so ``{glue:text}``
    format specs (``:.1f``) apply; figures and other objects pass through."""
    import numbers

    from myst_nb import glue as myst_glue

    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = int(value)
    elif isinstance(value, numbers.Real):
        value = float(value)
        if value.is_integer() and abs(value) < 1e15:  # a whole number reads "5", not "5.0"
            value = int(value)
    return myst_glue(key, value, display=display)


def glue_money(R, *keys: str) -> None:
    """Glue each result as ``<key>_money``, in dollars as :func:`analysis.page.formatting.money` writes
    them for readers ('$54,170', '$54.4M'): no more digits than the estimate holds."""
    for key in keys:
        glue(f"{key}_money", money(R[key]), display=False)


def glue_figure(key: str, fig) -> None:
    """Glue a figure for a ``{glue:figure}`` directive and close it, so it is shown once, where
    the prose places it with its caption, not again at the end of the cell."""
    import matplotlib.pyplot as plt

    glue(key, finalize(fig), display=False)
    plt.close(fig)


def format_quantity(value: float, unit: str) -> str:
    """A number with its unit, for readers ($125M, 1,402 W, 5.98 × 10²⁶ FLOP, 35 %): see
    :func:`analysis.page.formatting.format_quantity`, the book's one number-formatting layer."""
    return fq(value, unit)


def glue_seed_numbers(*number_ids: str) -> None:
    """Glue the seeds' own numbers (``data/seed_numbers.csv``) as ``seed_<ID>`` (and ``_2``)."""
    for number_id in number_ids:
        s = row("seed_numbers", number_id)
        glue(f"seed_{number_id}", float(s["value"]))
        if s["value_2"] == s["value_2"]:  # not NaN
            glue(f"seed_{number_id}_2", float(s["value_2"]))


def seed_vs_source_table(claim_ids) -> str:
    """Markdown table: what the seed says, what the original source says, and their ratio."""
    claims = load_table("claims").set_index("claim_id")
    seeds = load_table("seed_numbers")
    lines = ["| Claim | Quantity | Seed says | Original source | Seed / original |", "|---|---|---|---|---|"]
    for claim_id in claim_ids:
        fact_id = claims.loc[claim_id, "fact_id"]
        f = row("report_facts", fact_id)
        original = format_quantity(f["value"], f["unit"])
        if f["value_high"] == f["value_high"]:
            original += f" to {format_quantity(f['value_high'], f['unit'])}"
        for s in seeds[seeds["claim_id"] == claim_id].itertuples():
            said = format_quantity(s.value, s.unit)
            if s.value_2 == s.value_2:
                said += f" to {format_quantity(s.value_2, s.unit)}"
            lines.append(_md_row(claim_id, s.quantity, said, f"{original} ({fact_link(fact_id)})", f"{s.value / f['value']:.2g}x"))
    return "\n".join(lines)


def bands_table(frame, draws: int) -> str:
    """Markdown: a band frame (:func:`analysis.chapters.bands.band_frame`) for readers."""
    rows = [(r["label"], *(format_quantity(r[c], r["unit"]) for c in ("point", "p10", "p50", "p90")))
            for _, r in frame.iterrows()]
    return (markdown_table(["Result", "Point estimate", "P10", "P50", "P90"], rows)
            + f"\n\n{draws:,} seeded draws; ranges and their sources in the "
            "{ref}`uncertainty chapter <chapter-uncertainty>`.")
