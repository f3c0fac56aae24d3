"""Figures and tables of the opex chapter, drawn from its ChapterResults (:mod:`analysis.chapters.opex`)."""

from __future__ import annotations

import numpy as np

from analysis.page.formatting import money, percent, times
from analysis.page.names import gpu_short_name, source_link
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
    fig, ax = new_figure("The book's opex per GPU-month, item by item", "", "USD per GPU-month", figsize=(6.5, 4.2))
    names = [LABELS[s] for s in items.columns]
    bottom = np.zeros(len(names))
    colours = [PALETTE["orange"], PALETTE["blue"], PALETTE["green"], PALETTE["purple"]]
    thin = 0.15 * items.sum().max()  # a layer thinner than this has no room for its label (its value is in the table)
    for (item, values), colour in zip(items.iterrows(), colours, strict=True):
        values = values.to_numpy()
        ax.bar(names, values, bottom=bottom, color=colour, width=0.55, label=item)
        for x, (v, b) in enumerate(zip(values, bottom, strict=True)):
            if v > thin:
                ax.text(x, b + v / 2, f"${v:,.0f}", ha="center", va="center", fontsize=9, color="white")
        bottom += values
    for x, total in enumerate(bottom):
        ax.text(x, total, f"${total:,.0f}", ha="center", va="bottom", fontsize=9, fontweight="bold")
    ax.set_ylim(0, bottom.max() * 1.12)
    ax.grid(axis="x", visible=False)
    legend_above(ax, ncols=2)
    add_source(fig, "power: SemiAnalysis build-ups (C02) and the NVL72 rack; datacenter: CBRE wholesale rents; "
               "maintenance: failed parts, labour and spares at Llama 3's fault rates; data/cost_anchors.csv.")
    return fig


MAINTENANCE_BARS = {"parts": "built from its parts", "earlier default": "the earlier {pct} of capex",
                    "support contract": "a support contract at list"}


def maintenance_table(E) -> str:
    """Markdown: maintenance per GPU-month, item by item for both systems, with the total of the
    parts basis, the support contract and the earlier default beside it."""
    frame = E.tables["maintenance"].pivot(index="item", columns="system", values="usd_per_gpu_month")
    order = [*(i for i in E.tables["maintenance"]["item"].drop_duplicates())]
    earlier = percent(E["earlier_default_maintenance_pct_per_year"] / 100, 1)
    names = {"total, parts": "**total, built from its parts**", "support contract": "instead: a vendor's support contract at list",
             "earlier default": f"before: {earlier} of all-in capex a year"}
    rows = [[names.get(item, item), *(money(frame.loc[item, s]) for s in LABELS)] for item in order]
    return markdown_table(["Maintenance, USD per GPU-month", *LABELS.values()], rows, "lrr")


def maintenance_build_up(E):
    """Stacked bars of each system's maintenance built from its parts, beside the earlier default (a
    share of capex) and a support contract at list price, per GPU-month."""
    frame = E.tables["maintenance"]
    fig, ax = new_figure("Maintenance per GPU-month: parts, before, and a contract", "USD per GPU-month", "",
                         figsize=(7.0, 4.6))
    colours = {"GPUs replaced": PALETTE["blue"], "other parts": PALETTE["sky"], "labour": PALETTE["orange"],
               "spares pool": PALETTE["green"]}
    y, labels = 0, []
    for system, label in LABELS.items():
        rows = frame[frame["system"] == system].set_index("item")["usd_per_gpu_month"]
        left = 0.0
        for item, colour in colours.items():
            ax.barh(y, rows[item], left=left, color=colour, height=0.6, label=item if system == "h100" else None)
            left += rows[item]
        ax.text(left, y, f" ${left:,.0f}", va="center", fontsize=9)
        labels.append(f"{label}, {MAINTENANCE_BARS['parts']}")
        for basis, colour in (("earlier default", "grey"), ("support contract", PALETTE["purple"])):
            y += 1
            value = rows[basis]
            ax.barh(y, value, color=colour, height=0.6, alpha=0.85)
            ax.text(value, y, f" ${value:,.0f}", va="center", fontsize=9)
            labels.append(f"{label}, " + MAINTENANCE_BARS[basis].format(
                pct=percent(E["earlier_default_maintenance_pct_per_year"] / 100, 1)))
        y += 1.5
    ax.set_yticks([0, 1, 2, 3.5, 4.5, 5.5], labels)
    ax.invert_yaxis()
    ax.set_xlim(0, frame["usd_per_gpu_month"].max() * 1.2)
    ax.grid(axis="y", visible=False)
    legend_above(ax, ncols=2)
    add_source(fig, "Llama 3's fault rates (Meta); Crusoe's swap share; part prices from Raymond James and "
               "SemiAnalysis via Epoch AI; QTS remote-hands rates; DGX support at list (a blog); data/cost_anchors.csv.")
    return fig


def vs_tariff(E, tariff_usd_per_kwh: float):
    """Opex per GPU-month against the tariff, per system and PUE, with this build's tariff marked."""
    frame = E.tables["vs_tariff"]
    fig, ax = new_figure("The book's opex per GPU-month against the tariff", "Tariff (USD per kWh)", "USD per GPU-month")
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
                "gpu_share_of_server_price": "a replacement GPU's price", "gpu_swap_share": "GPU fault cases, by outcome",
                "warranty_years": "OEM warranty", "swap_person_hours": "crew per swap",
                "technician_usd_per_hour": "technician, per hour", "spares_restock_days": "restocking a spare",
                "support_frac_per_year": "support contract, of the price a year", "cost_of_capital": "cost of debt, a year"}
# How an anchor's value reads, by its unit in data/cost_anchors.csv (fractions as percentages).
_USD_UNITS = ("USD per kW-month", "USD per GPU", "USD per hour")


def _anchor_number(unit: str, v: float) -> str:
    if unit in _USD_UNITS:
        return f"${v:,.0f}"
    if unit.startswith("fraction") or unit.startswith("share"):
        return f"{v * 100:.3g} %"
    return f"{v:g}"


def anchors_table(E) -> str:
    """Markdown: the public figures (data/cost_anchors.csv) in the chapter's ``anchors`` table,
    each source named by author and year and linked to the Sources appendix."""
    def value(r) -> str:
        shown = _anchor_number(r.unit, r.value)
        if not np.isnan(r.value_high):
            shown = f"{shown} to {_anchor_number(r.unit, r.value_high)}"
        counted = r.unit not in _USD_UNITS and not r.unit.startswith(("fraction", "share"))
        return f"{shown} {r.unit}" if counted else shown
    rows = [[ANCHOR_ITEMS[r.param], value(r), r.period, r.what, r.confidence, source_link(r.source_id)]
            for r in E.tables["anchors"].itertuples()]
    return markdown_table(["Item", "Value", "Period", "What", "Confidence", "Source"], rows, "lrllll")


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"A {gpu_short_name(R.names['gb200'])} GPU costs {times(R['gb200_to_h100_opex_ratio'])} an "
            f"{gpu_short_name(R.names['h100'])}'s to run ({money(R['gb200_opex_usd_per_gpu_month'])} against "
            f"{money(R['h100_opex_usd_per_gpu_month'])} a GPU-month: power at the average draw, "
            f"{percent(R['load_factor_frac'])} of rated, space and maintenance), less than its capex ratio.")


ANSWER = ["h100_opex_usd_per_gpu_month", "gb200_opex_usd_per_gpu_month", "gb200_to_h100_opex_ratio"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
