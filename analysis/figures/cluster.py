"""Figures of the cluster chapter, drawn from its ChapterResults (:mod:`analysis.chapters.cluster`)."""

from __future__ import annotations

import textwrap

from matplotlib.ticker import MaxNLocator

from analysis.page import notebook  # notebook.glue, looked up when called (tests replace it)
from analysis.page.formatting import count, flop, money, number, percent
from analysis.page.names import gpu_name, gpu_short_name
from analysis.page.plots import PALETTE, add_source, new_figure


def eflops_by_size(C, P):
    """Peak (dashed) and sustained (solid) EFLOP/s against cluster size, FP8 and BF16, with GPT-4's
    A100 cluster peak and the chapter's cluster size marked."""
    table = C.tables["compute_by_cluster_size"]
    mfu = {"fp8": P.mfu_fp8, "bf16": P.mfu_bf16}
    fig, ax = new_figure("Peak and sustained compute against cluster size", "GPUs in the cluster (log scale)",
                         "EFLOP/s (log scale)")
    for dtype, colour in (("fp8", PALETTE["blue"]), ("bf16", PALETTE["orange"])):
        ax.plot(table["gpus"], table[f"{dtype}_peak_eflops"], ls="--", color=colour, label=f"{dtype.upper()} peak")
        ax.plot(table["gpus"], table[f"{dtype}_sustained_eflops"], color=colour,
                label=f"{dtype.upper()} sustained at {mfu[dtype]:.0%} MFU")
    gpt4 = C["gpt4_cluster_peak_bf16_eflops"]
    ax.axhline(gpt4, color=PALETTE["black"], lw=0.8)
    ax.annotate("GPT-4's A100 cluster, BF16 peak", (table["gpus"].iloc[0], gpt4), xytext=(0, 4),
                textcoords="offset points", fontsize=8)
    ax.axvline(P.gpus, color=PALETTE["vermillion"], lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.legend(fontsize=8)
    add_source(fig, f"dense peaks of the {gpu_name(P.gpu)} from data/gpus.csv; MFU assumptions from SemiAnalysis 2024 (B11).")
    return fig


def power_build_up(C, P):
    """Two stacked bars of one GPU's watts, chip to meter: SemiAnalysis's component build-up (B14)
    and the book's IT-power parameter, each times the PUE; the top axis scales to the cluster."""
    table = C.tables["power_build_up"]
    parts = (("chip_w", "GPU chip (TDP)", PALETTE["blue"]), ("rest_of_it_w", "Rest of IT: server, network, storage",
                                                             PALETTE["sky"]),
             ("facility_overhead_w", f"Facility overhead (PUE {P.pue:.2f})", PALETTE["orange"]))
    fig, ax = new_figure("One GPU's rated power, chip to meter", "Watts per GPU", "",
                         figsize=(7.0, 4.9))
    for i, build in table.iterrows():
        left = 0.0
        for column, name, colour in parts:
            ax.barh(i, build[column], left=left, color=colour, edgecolor="white", label=name if i == 0 else None)
            ax.text(left + build[column] / 2, i, f"{build[column]:,.0f}", ha="center", va="center")
            left += build[column]
        ax.text(left + 20, i, f"{left:,.0f} W", va="center", fontweight="bold")
    ax.set_yticks(range(len(table)), [textwrap.fill(str(label).replace("h100_it_w_per_gpu", "IT power per GPU"), 16) for label in table["build_up"]])
    ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    ax.set_xlim(0, table[[p[0] for p in parts]].sum(axis=1).max() * 1.15)
    megawatts = ax.secondary_xaxis("top", functions=(lambda w: w * P.gpus / 1e6, lambda mw: mw * 1e6 / P.gpus))
    megawatts.set_xlabel(f"Megawatts for {P.gpus:,} GPUs")
    megawatts.xaxis.set_major_locator(MaxNLocator(nbins=5, prune="upper"))  # the last would sit on the edge
    legend = ax.legend(loc="upper center", bbox_to_anchor=(0.35, -0.34), ncol=1)
    fig.subplots_adjust(left=0.3, right=0.95, top=0.8, bottom=0.42)
    add_source(fig, "SemiAnalysis 2024: component build-up (B14) and DGX H100 all-in IT (C02); PUE parameter "
                    "(IDC's cloud average); TDP from data/gpus.csv. Rated power: energy counts the average draw.",
               below=legend)
    return fig


def first_failure_by_size(C, P):
    """Mean minutes to the first link failure against cluster size, for both link designs."""
    table = C.tables["compute_by_cluster_size"]
    fig, ax = new_figure("Mean time to the first link failure", "GPUs in the cluster (log scale)",
                         "Minutes (log scale)")
    ax.plot(table["gpus"], table["first_failure_minutes"], color=PALETTE["blue"],
            label=f"{C['links_per_gpu']:g} link/GPU, {C['backend_link_mttf_years']:g}-year MTTF")
    ax.plot(table["gpus"], table["first_failure_alt_design_minutes"], color=PALETTE["orange"],
            label=f"{C['alt_links_per_gpu']:g} link/GPU, {C['alt_link_mttf_years']:g}-year MTTF")
    ax.axhline(60, color=PALETTE["black"], lw=0.8, ls=":")
    ax.annotate("one hour", (table["gpus"].iloc[-1], 60), xytext=(-40, 4), textcoords="offset points", fontsize=8)
    ax.axvline(P.gpus, color=PALETTE["vermillion"], lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.legend(fontsize=8)
    add_source(fig, "SemiAnalysis 2024 link MTTF assumptions (B27, B28); exponential lifetimes.")
    return fig


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"A {count(R['cluster_gpus_count'])}-{gpu_short_name(R.names['gpu'])} cluster peaks at "
            f"{number(R['peak_fp8_eflops'])} EFLOP/s in dense FP8, needs {number(R['cluster_facility_mw'])} MW at the "
            f"meter (rated; it draws {percent(R['load_factor_frac'])} of that on average) and costs {money(R['capex_usd'])}; "
            f"with SemiAnalysis's link lifetimes its first link fails {number(R['first_failure_minutes'])} minutes after "
            "a start, on average.")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["peak_fp8_eflops", "cluster_facility_mw", "cluster_annual_energy_twh", "capex_usd", "first_failure_minutes"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."


def glue_flops(C) -> None:
    """Glue the prose's FLOP counts written for people ('2.15 × 10²⁵'), not in e-notation."""
    notebook.glue("gpt4_train_flop_text", flop(C["gpt4_train_flop"], ""), display=False)
    notebook.glue("run_flop_text", flop(C["run_flop"], "", digits=2), display=False)
