"""Figures and tables of the opex chapter, drawn from its ChapterResults (:mod:`analysis.chapters.opex`)."""

from __future__ import annotations

import numpy as np

from analysis.page.formatting import money, times
from analysis.page.names import source_link
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure
from analysis.page.tables import markdown_table

LABELS = {"h100": "H100", "gb200": "GB200 NVL72"}


def items_table(E) -> str:
    """Markdown: opex items per GPU-month for both systems, with the totals."""
    items = E.tables["items"]
    rows = [[item, f"{r['h100']:,.1f}", f"{r['gb200']:,.1f}"] for item, r in items.iterrows()]
    rows.append(["**total**", f"**{E['h100_opex_usd_per_gpu_month']:,.1f}**",
                 f"**{E['gb200_opex_usd_per_gpu_month']:,.1f}**"])
    return markdown_table(["Item, USD per GPU-month", "H100", "GB200 NVL72"], rows, "lrr")


def breakdown(E):
    """Stacked bars of each system's opex per GPU-month, item by item."""
    items = E.tables["items"]
    fig, ax = new_figure("Opex per GPU-month, item by item", "", "USD per GPU-month", figsize=(6.5, 4.2))
    names = [LABELS[s] for s in items.columns]
    bottom = np.zeros(len(names))
    colours = [PALETTE["orange"], PALETTE["blue"], PALETTE["green"], PALETTE["purple"]]
    for (item, values), colour in zip(items.iterrows(), colours, strict=True):
        values = values.to_numpy()
        ax.bar(names, values, bottom=bottom, color=colour, width=0.55, label=item)
        for x, (v, b) in enumerate(zip(values, bottom, strict=True)):
            if v > 15:  # too thin a layer for a label
                ax.text(x, b + v / 2, f"${v:,.0f}", ha="center", va="center", fontsize=9, color="white")
        bottom += values
    for x, total in enumerate(bottom):
        ax.text(x, total, f"${total:,.0f}", ha="center", va="bottom", fontsize=9, fontweight="bold")
    ax.set_ylim(0, bottom.max() * 1.12)
    ax.grid(axis="x", visible=False)
    legend_above(ax, ncols=2)
    add_source(fig, "power: SemiAnalysis build-ups (C02) and the NVL72 rack; datacenter: CBRE wholesale rents; "
               "maintenance: support-contract share (assumption); data/cost_anchors.csv.")
    return fig


def vs_tariff(E, tariff_usd_per_kwh: float):
    """Opex per GPU-month against the tariff, per system and PUE, with this build's tariff marked."""
    frame = E.tables["vs_tariff"]
    fig, ax = new_figure("Opex per GPU-month against electricity tariff", "Tariff (USD per kWh)", "USD per GPU-month")
    styles = dict(zip(sorted(frame["pue"].unique()), (":", "-", "--"), strict=False))
    colours = {"h100": PALETTE["blue"], "gb200": PALETTE["vermillion"]}
    for (system, pue), line in frame.groupby(["system", "pue"], sort=False):
        ax.plot(line["tariff_usd_per_kwh"], line["usd_per_gpu_month"], ls=styles[pue], color=colours[system],
                label=f"{LABELS[system].split()[0]}, PUE {pue:.2f}")
    ax.axvline(tariff_usd_per_kwh, color=PALETTE["black"], lw=0.8, ls=":")
    ax.set_ylim(bottom=0)
    legend_above(ax, ncols=2)
    add_source(fig, "opex model of this chapter; PUE values from SemiAnalysis 2024 (C05: Google <1.10, "
               "industry 1.55) and this build.")
    return fig


ANCHOR_ITEMS = {"datacenter_usd_per_kw_month": "datacenter, per kW-month",
                "maintenance_frac_per_year": "maintenance, of capex a year", "cost_of_capital": "cost of debt, a year"}


def anchors_table(E) -> str:
    """Markdown: the public figures (data/cost_anchors.csv) in the chapter's ``anchors`` table."""
    def value(r) -> str:
        if r.param == "datacenter_usd_per_kw_month":
            fmt = lambda v: f"${v:,.2f}".replace(".00", "")  # noqa: E731
        else:
            fmt = lambda v: f"{v * 100:.3g} %"  # noqa: E731
        return fmt(r.value) if np.isnan(r.value_high) else f"{fmt(r.value)}-{fmt(r.value_high)}"
    rows = [[ANCHOR_ITEMS[r.param], value(r), r.period, r.what, r.confidence, source_link(r.source_id)]
            for r in E.tables["anchors"].itertuples()]
    return markdown_table(["Item", "Value", "Period", "What", "Confidence", "Source"], rows, "lrllll")


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number."""
    return (f"A GB200 NVL72 GPU costs {times(R['gb200_to_h100_opex_ratio'])} an H100's to run "
            f"({money(R['gb200_opex_usd_per_gpu_month'])} against {money(R['h100_opex_usd_per_gpu_month'])} "
            "a GPU-month, power, space and maintenance), less than its capex ratio.")


ANSWER = ["h100_opex_usd_per_gpu_month", "gb200_opex_usd_per_gpu_month", "gb200_to_h100_opex_ratio"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
