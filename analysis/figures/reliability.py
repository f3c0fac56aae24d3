"""Figures, tables and prose fragments of the reliability chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (``analysis.chapters.reliability``)."""

from __future__ import annotations

import textwrap
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator

from analysis.chapters.reliability import largest_loss
from analysis.page.formatting import count, number, percent
from analysis.page.names import gpu_short_name, model_name, source_link
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure
from analysis.page.tables import markdown_table
from analysis.units import MINUTES_PER_HOUR

CATEGORY_COLOURS = {"GPU": PALETTE["vermillion"], "Host": PALETTE["orange"], "Network": PALETTE["blue"],
                    "Dependency": PALETTE["green"], "Unplanned maintenance": PALETTE["purple"],
                    "Unknown": PALETTE["black"]}


def plain_log_ticks(*axes) -> None:
    """Label log axes 0.1, 1, 10, 1,000 rather than powers of ten."""
    for axis in axes:
        axis.set_major_formatter(lambda v, _: f"{v:,.10g}")


def mtbf_to_gpus(x, gpu_mtbf_hours: float):
    """Job MTBF (h) <-> GPUs in the job at a per-GPU MTBF: the map is its own inverse (matplotlib
    also probes 0, which maps to infinity)."""
    with np.errstate(divide="ignore", over="ignore"):
        return gpu_mtbf_hours / np.asarray(x, dtype=float)


def misprinted_component(E) -> str:
    """The cause whose printed share does not match its count."""
    causes = E.tables["causes"]
    return str(causes.loc[(causes["pct_from_counts"] - causes["pct_printed"]).abs() > 0.05, "component"].iloc[0])


def causes(E):
    """Horizontal bars of Llama 3's interruptions by cause, coloured by category."""
    order = E.tables["causes"].sort_values("count")
    counts = E.tables["categories"].set_index("category")["interruptions"]
    fig, ax = new_figure(f"Llama 3 405B: what stopped the job in {E['llama3_snapshot_days']:.0f} days",
                         "Unexpected interruptions (count)", "", figsize=(7.0, 8.5))
    ax.barh(order["component"], order["count"], color=order["category"].map(CATEGORY_COLOURS))
    for y, n in enumerate(order["count"]):
        ax.annotate(f"{n}", (n, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=8)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in CATEGORY_COLOURS.values()]
    labels = [f"{k}: {int(counts.get(k, 0))}" for k in CATEGORY_COLOURS]
    legend_above(ax, ncols=2, handles=handles, labels=labels, title="Category: interruptions", alignment="left")
    ax.set_xlim(0, order["count"].max() * 1.15)
    ax.grid(axis="y", visible=False)
    add_source(fig, "Meta, The Llama 3 Herd of Models (2024), Table 5, via glennklockwood.com; "
                    "data/llama3_interruptions.csv.")
    return fig


def categories_table(E) -> str:
    """Markdown: interruptions, rate and per-GPU MTBF by category, with the all-cause total in bold."""
    rows = [(r.category, f"{r.interruptions:.0f}", f"{r.per_million_gpu_hours:.2f}", f"{r.gpu_mtbf_years:,.1f}")
            for r in E.tables["categories"].itertuples()]
    rows[-1] = tuple(f"**{cell}**" for cell in rows[-1])
    return markdown_table(["Category", "Interruptions", "per million GPU-hours", "per-GPU MTBF (years)"], rows)


# Measured job failures on the MTBF figure: a colour per source (Kokolis et al. green like their
# band, Llama 3 blue like its line, others from the rest), a marker per kind of row.
SOURCE_COLOURS = {"kokolis_2024": PALETTE["green"], "meta_llama3_2024": PALETTE["blue"]}
OTHER_COLOURS = (PALETTE["orange"], PALETTE["black"], PALETTE["sky"], PALETTE["yellow"])
KIND_MARKERS = {"measured": ("o", "measured"), "counted": ("o", "counted"), "projected": ("s", "projected")}


def failure_model_text(E) -> str:
    """The failure model this build used, in words."""
    return str(E.tables["failure_model"]["description"].iloc[0])


def job_mtbf(E):
    """Job MTBF against job size on log-log axes: the per-GPU projections (lines), the measured
    job-level MTTFs by cluster (points; hollow squares are projections, triangles upper bounds)
    and the power-law fit to the measured points (dashed)."""
    t, measured = E.tables["job_mtbf_by_size"], E.tables["measured_job_failures"]
    fig, ax = new_figure("Mean time between job failures against job size", "GPUs in the job (log scale)",
                         "Job MTBF, hours (log scale)", figsize=(7.0, 11.0))
    ax.plot(t["gpus"], t["h100_all_causes_hours"], color=PALETTE["blue"], lw=2,
            label="per-GPU projection: H100, Llama 3 all causes")
    ax.plot(t["gpus"], t["h100_gpu_class_hours"], color=PALETTE["sky"], label="H100, Llama 3 GPU-class causes only")
    ax.fill_between(t["gpus"], t["a100_rsc1_hours"], t["a100_rsc2_hours"], color=PALETTE["green"], alpha=0.15,
                    label="A100, Kokolis et al. node rates, RSC-1 to RSC-2")
    ax.plot(t["gpus"], t["gb200_hours"], color=PALETTE["vermillion"], lw=2, label="GB200 NVL72, with assumed NVLink faults")
    ax.plot(t["gpus"], t["links_only_hours"], color=PALETTE["black"], ls="--", lw=1,
            label=f"SA 2024: links only, {E['backend_link_mttf_years']:g}-year MTTF")
    ax.plot(t["gpus"], t["measured_fit_hours"], color=PALETTE["purple"], ls="--", lw=2,
            label=f"fit to measured jobs: MTTF ~ GPUs^-{E['job_mttf_fit_exponent']:.2f}")
    others = [s for s in measured["source_id"].unique() if s not in SOURCE_COLOURS]
    colours = {**dict(zip(others, OTHER_COLOURS, strict=False)), **SOURCE_COLOURS}
    for (cluster, kind, relation), rows in measured.groupby(["cluster", "kind", "relation"], sort=False):
        marker, word = ("v", "at most") if relation == "up_to" else KIND_MARKERS[kind]
        colour = colours.get(rows["source_id"].iloc[0], PALETTE["black"])
        ax.plot(rows["job_gpus"], rows["mttf_hours"], marker, ms=7, color=colour,
                mfc="white" if kind == "projected" else colour, mew=1.5,
                label=f"{cluster} ({rows['accelerator'].iloc[0]}), {word}")
    projected, kokolis = E["per_gpu_job_mtbf_1024_gpus_hours"], E["kokolis_1024_gpus_job_mttf_hours"]
    x = 1024 / 1.2  # just left of the 1,024-GPU points, so the arrow does not hide them
    ax.annotate("", (x, kokolis), (x, projected), arrowprops={"arrowstyle": "->", "color": PALETTE["black"]})
    ax.annotate(f"{E['measured_vs_projected_failure_rate_1024_gpus_ratio']:.1f}x", (x, (projected * kokolis) ** 0.5),
                xytext=(-4, 0), textcoords="offset points", fontsize=8, va="center", ha="right")
    ax.axvline(E["gpus"], color=PALETTE["vermillion"], lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    plain_log_ticks(ax.xaxis, ax.yaxis)
    legend_above(ax)
    add_source(fig, "Meta 2024 (Llama 3 Table 5); Kokolis et al. 2024 (Fig. 7 and node rates, "
                    f"{E['kokolis_gpus_per_node']:.0f} GPUs per node); OPT-175B chronicles; SemiAnalysis 2024 (B27); "
                    "GB200 NVLink fault rate is an assumption (parameter); data/job_failures.csv.")
    return fig


def measured_table(E) -> str:
    """Markdown: the measured (and projected) job MTTFs beside the per-GPU projection and the fit,
    with each row's source."""
    what = {("measured", "equals"): "measured MTTF", ("counted", "equals"): "counted: days / interruptions",
            ("counted", "up_to"): "counted: at most", ("projected", "equals"): "projected by the authors"}
    rows = [[r.cluster, r.accelerator, f"{r.job_gpus:,}", what[(r.kind, r.relation)] + (" (fitted)" if r.in_fit == "true" else ""),
             number(r.mttf_hours), number(r.per_gpu_projection_hours), number(r.fit_hours),  # the book's precision
             source_link(r.source_id) + (f" via {source_link(r.read_via)}"
                                                              if isinstance(r.read_via, str) else "")]
            for r in E.tables["measured_job_failures"].itertuples()]
    return markdown_table(["Cluster", "GPU", "Job GPUs", "What", "MTTF (h)", "Per-GPU projection (h)", "Fit (h)",
                           "Source"], rows, align="lllrrrrl")


def intervals(E):
    """Daly's (solid) and Young's (dashed) intervals against job MTBF for three write times; the
    top axis converts the MTBF into a job size."""
    t = E.tables["interval_by_mtbf"]
    fig, ax = new_figure("Optimal compute time between checkpoints", "Job MTBF, hours (log scale)",
                         "Checkpoint interval, minutes (log scale)", figsize=(7.0, 6.4))
    for (label, curve), colour in zip(t.groupby("write_time", sort=False),
                                      (PALETTE["blue"], PALETTE["orange"], PALETTE["vermillion"]), strict=True):
        ax.plot(curve["job_mtbf_hours"], curve["daly_minutes"], color=colour, lw=2, label=f"Daly, {label}")
        ax.plot(curve["job_mtbf_hours"], curve["young_minutes"], color=colour, lw=1, ls="--")
    ax.plot([], [], color="grey", ls="--", lw=1, label="Young (same write times)")
    cluster_mtbf = E["cluster_job_mtbf_minutes"] / MINUTES_PER_HOUR
    for row, (m, name) in enumerate(((E["llama3_job_mtbf_hours"], f"Llama 3, {E['llama3_gpus'] / 1000:,.0f}k GPUs"),
                                     (cluster_mtbf, f"{E['gpus'] / 1000:,.0f}k GPUs"))):
        ax.axvline(m, color=PALETTE["black"], lw=0.8, ls=":")
        # one row each, below the top: at a phone's text size the two names are wider than the lines' gap
        ax.annotate(name, (m, ax.get_ylim()[1]), xytext=(3, -6 - 24 * row), textcoords="offset points", va="top")
    ax.set_xscale("log")
    ax.set_yscale("log")
    # the legend under the chart: at a phone's text size it would cover the lines
    ax.legend(loc="upper left", bbox_to_anchor=(-0.2, -0.2))
    convert = partial(mtbf_to_gpus, gpu_mtbf_hours=E["llama3_gpu_mtbf_hours"])
    top = ax.secondary_xaxis("top", functions=(convert, convert))
    top.set_xlabel("GPUs in the job at Llama 3's per-GPU rate")
    top.xaxis.set_major_locator(FixedLocator([1e3, 1e4, 1e5, 1e6]))  # the sizes in the chart, no more
    plain_log_ticks(ax.xaxis, ax.yaxis, top.xaxis)
    add_source(fig, "Young 1974; Daly 2006 (interval = MTBF once the write takes 2 MTBF or more); write times: "
                    "parameter, Llama 3 checkpoint size and storage, PyTorch DCP blog.")
    return fig


def time_shares_table(E) -> str:
    """Markdown: share of wall-clock time in each state, per case, in percent."""
    t = E.tables["time_shares"].set_index("state")
    rows = [(state, *(f"{v * 100:.1f} %" for v in shares)) for state, shares in t.iterrows()]
    return markdown_table(["Share of wall-clock time", *t.columns], rows)


def largest_losses(E) -> tuple[str, str]:
    """The largest non-training state at the cluster size: persistent checkpoints, in-memory recovery."""
    return largest_loss(E, 1), largest_loss(E, 2)


def recovery_budget_text(E) -> str:
    """How long detection plus restart may take for Llama 3 to meet Meta's bound, in words."""
    budget = E["llama3_max_recovery_minutes"]
    return (f"stays under {budget:.1f} minutes" if budget > 0
            else "is out of reach even with instant recovery, so it cannot be met")


def llama3_goodput(E):
    """Histogram of the simulated Llama 3 runs' effective training time."""
    fig, ax = new_figure("Effective training time of simulated Llama 3 runs", "Effective training time ratio (%)",
                         "Simulated runs", figsize=(7.0, 3.6))
    ax.hist(E.tables["llama3_simulated_runs"]["effective_training_time_frac"] * 100, bins=40, color=PALETTE["sky"],
            edgecolor="white")
    ax.axvline(E["llama3_expected_goodput_frac"] * 100, color=PALETTE["blue"], lw=1.5, label="analytic expectation")
    ax.axvline(E["llama3_published_effective_training_time_frac"] * 100, color=PALETTE["vermillion"], lw=1.5, ls="--",
               label="Meta: more than this")
    ax.legend(fontsize=8, loc="upper left")
    add_source(fig, f"{E['goodput_trials']:,.0f} runs (seed {E['goodput_seed']:.0f}); Llama 3 counts (Meta 2024); "
                    "write, detection and restart times are assumptions (parameters).")
    return fig


def goodput_by_size(E):
    """Goodput against job size: by checkpoint interval (left, with Monte Carlo dots) and by
    restart time (right)."""
    t, published = E.tables["goodput_by_size"], E["llama3_published_effective_training_time_frac"] * 100
    fig = plt.figure(figsize=(7.0, 9.5), layout="constrained")  # one column: legible at the book's width
    left, right = fig.subplots(2, 1, sharex=True)
    left_lines = (("daly_interval_frac", "Daly optimum at each size", PALETTE["blue"], "-"),
                  ("llama3_interval_frac", f"fixed at Llama 3's optimum ({E['daly_interval_minutes']:.1f} min)",
                   PALETTE["orange"], "-"),
                  ("sa_interval_frac", f"fixed at SA's {E['checkpoint_interval_steps']:.0f} steps "
                                       f"({E['sa_checkpoint_interval_minutes']:.1f} min)", PALETTE["green"], "-"),
                  ("in_memory_frac", "in-memory recovery (one step lost, copy pause)", PALETTE["purple"], "--"))
    right_lines = [("instant_restart_frac", "instant restart (detection only)", PALETTE["sky"], "-"),
                   ("daly_interval_frac", f"restart {E['restart_minutes']:g} min (this build)", PALETTE["blue"], "-")]
    if E["llama3_max_restart_minutes"] > 0:  # the longest restart that still meets Meta's bound, when there is one
        right_lines.append(("max_restart_frac", f"restart {E['llama3_max_restart_minutes']:.1f} min "
                                                f"(Llama 3 at {published:.0f}%)", PALETTE["vermillion"], "-"))
    for ax, lines in ((left, left_lines), (right, right_lines)):
        for column, label, colour, style in lines:
            ax.plot(t["gpus"], t[column] * 100, color=colour, lw=2, ls=style, label=label)
    for r in E.tables["goodput_simulated"].itertuples():
        mid = r.mean * 100
        left.errorbar([r.gpus], [mid], yerr=[[max(mid - r.p5 * 100, 0.0)], [max(r.p95 * 100 - mid, 0.0)]], fmt="o",
                      color=PALETTE["black"], ms=4, capsize=3)
    left.set_title(f"By checkpoint interval (recovery {E['recovery_minutes']:g} min)", loc="left")
    right.set_title(f"By restart time (detection {E['failure_detection_minutes']:g} min)", loc="left")
    for ax in (left, right):
        ax.axhline(published, color=PALETTE["black"], lw=0.8, ls=":")
        ax.axvline(E["gpus"], color=PALETTE["vermillion"], lw=0.8, ls=":")
        ax.set_xscale("log")
        plain_log_ticks(ax.xaxis)
        ax.set_ylabel("Goodput (%)")
        ax.legend(loc="lower left")
        ax.set_ylim(top=101)
        ax.tick_params(labelbottom=True)
    right.set_xlabel("GPUs in the job (log scale)")
    fig.suptitle(textwrap.fill(f"Goodput against job size ({failure_model_text(E)})", 48), x=0.01, ha="left",
                 fontweight="bold")
    add_source(fig, "analytic expectation (lines) and Monte Carlo (dots, 5th-95th percentile) of this chapter; the "
                    f"dotted horizontal line is Meta's {published:.0f} %.")
    return fig


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"Meta's {model_name(R.names['run_model'])} job ({count(R['llama3_gpus'])} "
            f"{gpu_short_name(R.names['gpu'])}) is interrupted {number(R['llama3_unexpected_interruptions_per_day'])} "
            f"times a day and still trains {percent(R['llama3_effective_training_time_frac'])} of the time "
            f"(Monte Carlo mean) when it checkpoints every {number(R['daly_interval_minutes'])} minutes.")


ANSWER = ["llama3_unexpected_interruptions_per_day", "llama3_job_mtbf_hours", "llama3_gpu_mtbf_years", "llama3_effective_training_time_frac", "daly_interval_minutes"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
