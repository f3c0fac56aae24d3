"""Figures of the capex chapter, drawn from its ChapterResults (:mod:`analysis.chapters.capex`)."""

from __future__ import annotations

import numpy as np

from analysis.page.formatting import money, times
from analysis.page.names import gpu_short_name
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure


def build_up(E):
    """Stacked bars: each system's capex per GPU as the server (or rack) and what all-in adds."""
    frame = E.tables["build_up"]
    systems = frame.drop_duplicates("system")
    fig, ax = new_figure("Capex build-up per GPU, typical hyperscaler", "", "USD per GPU", figsize=(6.5, 4.0))
    labels = [f"{label} (per GPU)" for label in systems["label"]]
    bottom = np.zeros(len(labels))
    for layer, colour in zip(frame["layer"].unique(), (PALETTE["blue"], PALETTE["sky"]), strict=True):
        values = frame[frame["layer"] == layer]["usd_per_gpu"].to_numpy()
        ax.bar(labels, values, bottom=bottom, color=colour, label=layer, width=0.55)
        for x, (v, b) in enumerate(zip(values, bottom, strict=True)):
            ax.text(x, b + v / 2, money(v), ha="center", va="center", fontsize=9, color="white")
        bottom += values
    for x, total in enumerate(bottom):  # the book's precision, as the chapter's box prints it ($54,170)
        ax.text(x, total, money(total), ha="center", va="bottom", fontsize=9, fontweight="bold")
    ax.yaxis.set_major_formatter(lambda v, _: f"${v / 1000:,.0f}k")
    ax.set_ylim(0, bottom.max() * 1.12)  # room for the totals
    legend_above(ax, ncols=2)
    add_source(fig, "SemiAnalysis 2025 hyperscaler prices (A03, A04, A06, A07), divided by GPUs per system.")
    return fig


def charge_vs_life(E):
    """The H100 capital charge per GPU-hour against useful life, one curve per cost of capital, with
    this build's point."""
    frame = E.tables["charge_vs_life"]
    fig, ax = new_figure("H100 capital charge against useful life", "Useful life (years)", "USD per GPU-hour")
    colours = (PALETTE["black"], PALETTE["sky"], PALETTE["blue"], PALETTE["vermillion"])
    for (k, curve), colour in zip(frame.groupby("rate_multiple", sort=True), colours, strict=True):
        rate = curve["cost_of_capital"].iloc[0]
        ax.plot(curve["useful_life_years"], curve["usd_per_gpu_hour"], color=colour,
                label=f"cost of capital {rate:.1%}" + (" (this build)" if k == 1 else ""))
    ax.plot([E["useful_life_years"]], [E["h100_capex_usd_per_gpu_hour"]], "o", color=PALETTE["blue"])
    ax.set_ylim(bottom=0)
    ax.legend()
    add_source(fig, "H100 all-in capex per GPU from SemiAnalysis 2025 (A04 / 8); capital recovery factor; "
               "utilization as in this build.")
    return fig


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"A {gpu_short_name(R.names['gb200'])} GPU costs {times(R['gb200_to_h100_capex_ratio'])} an "
            f"{gpu_short_name(R.names['h100'])}'s to buy all-in ({money(R['gb200_capex_usd_per_gpu'])} against "
            f"{money(R['h100_capex_usd_per_gpu'])}), the larger part of the speed-up "
            f"{gpu_short_name(R.names['gb200']).split()[0]} must deliver.")


ANSWER = ["h100_capex_usd_per_gpu", "gb200_capex_usd_per_gpu", "gb200_to_h100_capex_ratio", "h100_capex_usd_per_gpu_hour", "gb200_capex_usd_per_gpu_hour"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
