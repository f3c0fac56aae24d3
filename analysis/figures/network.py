"""Figures and reader tables of the network chapter, drawn from its ChapterResults
(:mod:`analysis.chapters.network`)."""

from __future__ import annotations

import textwrap

from analysis.data.load import load_table
from analysis.page.formatting import money, number, percent
from analysis.page.names import source_link
from analysis.page.notebook import format_quantity
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure
from analysis.page.tables import markdown_table


def _design_labels(ax, table, y_offset: float, values=None) -> None:
    """Each design's name written above its bars, left-aligned (a phone has no room for a column of
    two-line tick labels beside the bars), with ``values`` (one text per design) after it: nothing
    beside a bar to crowd the next design's name."""
    ax.set_yticks([])
    for i, label in enumerate(table["label"]):
        text = " ".join(str(label).split()) + (f": {values[i]}" if values is not None else "")
        ax.text(0, i + y_offset, textwrap.fill(text, 48), va="bottom", ha="left", in_layout=False)


def options_capex(C, P):
    """Stacked horizontal bars: network capex (USD millions) of each design option split into
    switches, optics and the rest (NIC difference, copper, front-end and storage share), labelled
    with its IT power and tiers; each design's name above its bar, the legend under the chart."""
    table = C.tables["options"].reset_index(drop=True)
    parts = (("switches", table["switches_usd"], PALETTE["blue"]), ("optics", table["optics_usd"], PALETTE["orange"]),
             ("NICs, copper, front end and storage", table["capex_usd"] - table["switches_usd"] - table["optics_usd"],
              PALETTE["sky"]))
    fig, ax = new_figure("Network capex and power of each design", "Network capex, million USD", "",
                         figsize=(7.0, 2.0 + 1.45 * len(table)))
    left = 0 * table["capex_usd"]
    for name, values, colour in parts:
        ax.barh(table.index, values / 1e6, 0.3, left=left / 1e6, color=colour, label=name)
        left = left + values
    values = [f"{money(r.capex_usd)}, {r.it_mw:.1f} MW, {r.tiers:.0f} tiers" for r in table.itertuples()]
    _design_labels(ax, table, -0.19, values)
    ax.set_ylim(len(table) - 0.6, -1.0)
    ax.grid(axis="y", visible=False)
    ax.set_xlim(0, table["capex_usd"].max() / 1e6 * 1.05)  # the axis ends at the largest design
    legend_above(ax, ncols=2)
    add_source(fig, f"book's fluid folded-Clos model at {P.gpus:,} GPUs; prices and powers from "
                    "data/network_components.csv (vendor datasheets, a public cost sheet, one vendor blog, "
                    "SemiAnalysis 2024).")
    return fig


def options_failures(C, P):
    """Bars: mean minutes to the first failure of each option, NIC-to-leaf links only and every
    link; each design's name above its bars, the legend under the chart."""
    table = C.tables["options"].reset_index(drop=True)
    fig, ax = new_figure("Mean time to the first link failure", "Minutes", "",
                         figsize=(7.0, 2.0 + 0.85 * len(table)))
    y = range(len(table))
    ax.barh([i - 0.1 for i in y], table["first_failure_minutes"], 0.2, color=PALETTE["blue"],
            label="NIC-to-leaf links (SemiAnalysis's count)")
    ax.barh([i + 0.1 for i in y], table["all_links_first_failure_minutes"], 0.2, color=PALETTE["orange"],
            label="every backend link at the same MTTF")
    _design_labels(ax, table, -0.24)
    ax.set_ylim(len(table) - 0.6, -0.9)
    ax.grid(axis="y", visible=False)
    ax.set_xlim(0, table[["first_failure_minutes", "all_links_first_failure_minutes"]].max().max() * 1.15)
    legend_above(ax)
    add_source(fig, f"link MTTF {P.link_mttf_years:g} years (B27), {P.alt_link_mttf_years:g} years for twin-port "
                    "links (B28); exponential lifetimes.")
    return fig


def options_table(C) -> str:
    """Markdown: each option's counts, capex, power and first failure."""
    rows = [(r.label, f"{r.tiers:.0f}", f"{r.switches:,.0f}", f"{r.transceivers:,.0f}", f"{r.copper_frac:.0%}",
             format_quantity(r.capex_usd, "USD"), f"{r.cluster_capex_change_usd / 1e6:+,.0f}M",
             f"{r.it_mw:.1f}", f"{r.facility_mw_change:+.1f}", f"{r.first_failure_minutes:.1f}")
            for r in C.tables["options"].itertuples()]
    return markdown_table(["Design", "Tiers", "Switches", "Transceivers", "Copper", "Capex", "Capex vs this design, USD",
                           "IT MW", "Facility MW vs this design", "First failure, min"], rows, "lrrrrrrrrr",
                          columns=OPTIONS_COLUMNS, name="options_table", title="each design's counts, capex, power and first failure")


# What the prose compares across designs (capital and facility power against this design); tiers,
# copper and IT power are in the full table.
OPTIONS_COLUMNS = ["Design", "Switches", "Transceivers", "Capex", "Capex vs this design, USD", "Facility MW vs this design",
                   "First failure, min"]


def components_table() -> str:
    """Markdown: the sourced prices and powers (``data/network_components.csv``)."""
    components = load_table("network_components")
    def num(v, fmt):
        return "—" if v != v else fmt.format(v)
    rows = [(r.name, f"{r.ports_400g:.0f}", num(r.power_w, "{:,g}") + ("" if r.power_w_high != r.power_w_high
                                                                    else num(r.power_w_high, "-{:,g}")),
             num(r.price_usd, "${:,.0f}") + ("" if r.price_usd_high != r.price_usd_high else num(r.price_usd_high, "-{:,.0f}")),
             source_link(r.source_id))
            for r in components.itertuples()]
    return markdown_table(["Part", "400G ports", "Power, W", "Price, USD", "Source"], rows, "lrrrl")


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number."""
    return (f"The network is {percent(R['network_capex_share_of_cluster_frac'])} of the cluster's capex "
            f"({money(R['network_capex_usd'])} for this chapter's InfiniBand design) and "
            f"{number(R['network_it_mw'])} MW of its IT power.")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["network_switches_count", "network_transceivers_count", "network_capex_usd", "network_capex_share_of_cluster_frac", "network_it_mw"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
