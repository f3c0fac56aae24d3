"""The introduction's display numbers and tables, from its
:class:`~analysis.chapters.ChapterResults` (``analysis.chapters.intro``)."""

from __future__ import annotations

import matplotlib.pyplot as plt

from analysis.data.load import CLAIM_STATUSES
from analysis.page.formatting import percent, times
from analysis.page.names import gpu_short_name, model_name
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure
from analysis.page.tables import markdown_table


def prose_numbers(E) -> dict[str, float]:
    """Results rescaled for the summary's sentences (percentages, millions and billions of
    dollars), glued under these names by :func:`analysis.page.notebook.glue_values`."""
    return {
        "electricity_share_of_capex_pct": E["electricity_share_of_capex_frac"] * 100,
        "cluster_annual_electricity_musd": E["cluster_annual_electricity_usd"] / 1e6,
        "capex_busd": E["capex_usd"] / 1e9,
        "llama3_effective_training_time_pct": E["llama3_effective_training_time_frac"] * 100,
    }


def status_markdown(E) -> str:
    """How many seed claims and how many checked report figures have each status (a status that
    does not apply to report figures shows a dash)."""
    rows = [(s.replace("_", " "), str(int(E[f"claims_{s}_count"])),
             str(int(E[f"facts_{s}_count"])) if f"facts_{s}_count" in E else "—") for s in CLAIM_STATUSES]
    return markdown_table(["Status", "Seed claims", "Report figures"], rows)


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    need, low, best = R["gb200_breakeven_speedup"], R["slowest_gb200_vs_h100_throughput_ratio"], \
        R["fastest_gb200_vs_h100_throughput_ratio"]
    return (f"{gpu_short_name(R.names['gb200'])} pays off against {gpu_short_name(R.names['h100'])} if it trains at least "
            f"{times(need)} faster per GPU (the TCO ratio at {percent(R['utilization_pct'] / 100)} utilization); NVIDIA's "
            f"published speed-ups reach {times(best)} on {model_name(R.names['fastest_model'])} but {times(low)} on "
            f"{model_name(R.names['slowest_model'])} ({'below' if low < need else 'above'} the bar), and once failures "
            f"and repairs are priced in the bar rises to {times(R['gb200_breakeven_speedup_with_downtime'])}.")


ANSWER = ["h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "utilization_pct", "gb200_breakeven_speedup", "llama31_405b_bf16_usd_per_million_tokens", "cluster_facility_mw", "llama3_effective_training_time_frac"]
ANSWER_MORE = "Below: the short version for a 100,000-GPU cluster, then what each chapter answers."


def verdict_figure(benchmarks, E):
    """The book's answer in one chart: GB200 NVL72 over H100 per-GPU throughput on each model
    NVIDIA publishes both for (the benchmarks chapter's results), against the speed-up GB200
    needs at the book's TCO, and with failures and repairs priced in (this chapter's results)."""
    prefix, suffix = "gb200_vs_h100_", "_throughput_ratio"
    keys = sorted((k for k in benchmarks.quantities if k.startswith(prefix) and k.endswith(suffix)),
                  key=lambda k: benchmarks[k])
    labels = []
    for key in keys:
        model, precision = key[len(prefix):-len(suffix)].rsplit("_", 1)
        labels.append(f"{model_name(model)}, {precision.upper()}")
    ratios = [benchmarks[k] for k in keys]
    need, with_downtime = E["gb200_breakeven_speedup"], E["gb200_breakeven_speedup_with_downtime"]
    fig, ax = new_figure("GB200 NVL72 against H100: faster enough?", "GB200 / H100 tokens/s per GPU (x)", "",
                         figsize=(7.0, 2.6 + 0.75 * len(keys)))
    y = range(len(keys))
    ax.barh(list(y), ratios, 0.45, color=[PALETTE["green"] if r >= need else PALETTE["vermillion"] for r in ratios])
    for i, (label, r) in enumerate(zip(labels, ratios, strict=True)):
        ax.text(0.02, i - 0.3, f"{label}: {r:.2f}x", va="bottom", ha="left", in_layout=False)
    ax.axvline(need, color=PALETTE["black"], ls="--", lw=1.2, label=f"break-even at the book's TCO, {need:.2f}x")
    ax.axvline(with_downtime, color=PALETTE["black"], ls=":", lw=1.2,
               label=f"with failures and repairs, {with_downtime:.2f}x")
    ax.set_yticks([])
    ax.set_ylim(len(keys) - 0.5, -0.95)
    ax.set_xlim(0, max(max(ratios), with_downtime) * 1.12)
    ax.grid(axis="y", visible=False)
    legend_above(ax)
    add_source(fig, "NVIDIA's published throughput (benchmarks chapter); TCO and downtime chapters of this book.")
    plt.setp(ax.get_xticklabels(), visible=True)
    return fig
