"""Figure and tables of the scenarios chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (``analysis.chapters.scenarios``)."""

from __future__ import annotations

from analysis.page.formatting import money
from analysis.page.names import gpu_short_name, reader_text
from analysis.page.notebook import format_quantity
from analysis.page.plots import compare_figure
from analysis.page.tables import markdown_table


def _value(v) -> str:
    """A parameter value as the scenario file states it (the frame holds whole numbers as floats)."""
    return f"{v:,.10g}" if isinstance(v, (int, float)) else str(v)


def files_markdown(E) -> str:
    """One row per scenario: its name, file, the parameters it changes and why."""
    changes = E.tables["changes"]
    rows = []
    for s in E.tables["files"].itertuples():
        mine = changes[changes["scenario"] == s.scenario]
        changed = ", ".join(f"`{c.parameter}` = {_value(c.value)}" for c in mine.itertuples()) or "none"
        rows.append((s.scenario, f"`{s.file}`", changed, reader_text(s.description)))
    return markdown_table(["Scenario", "File", "Changes", "Why"], rows)


def names(E) -> list[str]:
    """The scenarios' names, the report's defaults first."""
    return list(E.tables["files"]["scenario"])


def results_markdown(E) -> str:
    """One row per headline result, one column per scenario."""
    table, shown = E.tables["scenarios"], names(E)
    rows = [(r["label"], *(format_quantity(r[n], r["unit"]) for n in shown)) for _, r in table.iterrows()]
    return markdown_table(["Result", *shown], rows)


def compare(E):
    """Each scenario's headline results as ratios to the first scenario's."""
    return compare_figure(E.tables["scenarios"], names(E))


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"The shipped scenarios move the {gpu_short_name(R.names['h100'])} TCO from "
            f"{money(R['cheap_power_texas__h100_tco_usd_per_gpu_hour'])} (cheap Texas power) to "
            f"{money(R['neocloud_buyer__h100_tco_usd_per_gpu_hour'])} per GPU-hour (a neocloud buyer), against "
            f"{money(R['report_defaults__h100_tco_usd_per_gpu_hour'])} at the report's defaults.")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["report_defaults__h100_tco_usd_per_gpu_hour", "cheap_power_texas__h100_tco_usd_per_gpu_hour",
          "expensive_power_california__h100_tco_usd_per_gpu_hour", "neocloud_buyer__h100_tco_usd_per_gpu_hour"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
