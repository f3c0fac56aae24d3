"""Figures and tables of the TCO chapter, drawn from its ChapterResults (:mod:`analysis.chapters.tco`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator, NullFormatter

from analysis.data.load import fact
from analysis.page.formatting import money, percent, times
from analysis.page.names import gpu_name, gpu_short_name, source_label, source_link
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure
from analysis.page.tables import folded, interactive_table, markdown_table

SYSTEMS = {"h100": "H100", "gb200": "GB200 NVL72"}


def per_gpu_hour_table(E) -> str:
    """Markdown: capital charge, opex and TCO per GPU-hour of both systems."""
    frame = E.tables["per_gpu_hour"]
    rows = [[f"**{part}**" if part == "TCO" else part,
             *(f"**{v:.3f}**" if part == "TCO" else f"{v:.3f}" for v in r)] for part, r in frame.iterrows()]
    return markdown_table(["The book's TCO, USD per GPU-hour", "H100", "GB200 NVL72"], rows, "lrr")


def usd_per_million_tokens_table(E) -> str:
    """Markdown, folded in a dropdown: USD per million tokens for every benchmark row."""
    rows = [[r.model, gpu_name(r.gpu_id), r.precision, f"{r.gpus:,}", r.software, f"{r.tokens_per_s_per_gpu:,.1f}", r.basis,
             f"{r.usd_per_million_tokens:.3f}"] for r in E.tables["usd_per_million_tokens_by_row"].itertuples()]
    table = markdown_table(["Model", "GPU", "Precision", "GPUs", "Software", "tokens/s/GPU", "basis",
                            "USD per 1M tokens"], rows, "lllrlrlr")
    return "\n".join([":::{admonition} Cost per 1M tokens for every benchmark row, at the book's H100 and GB200 TCO",
                      ":class: dropdown", "", table, ":::"])


def breakeven(E):
    """The GB200 break-even speed-up against its capex per GPU, at three levels of its opex, with
    this build's point and the report's ratio (A12)."""
    frame = E.tables["breakeven"]
    report_ratio = fact("A12_tco_ratio")
    fig, ax = new_figure("Break-even GB200 speed-up per GPU, at the book's TCO", "GB200 all-in capex per GPU (USD)",
                         "Speed-up over H100 needed (x)", figsize=(7.0, 5.6))
    colours = (PALETTE["sky"], PALETTE["blue"], PALETTE["vermillion"])
    for (_, line), colour in zip(frame.groupby("opex_multiple", sort=True), colours, strict=True):
        ax.plot(line["gb200_capex_usd_per_gpu"], line["breakeven_speedup"], color=colour,
                label=f"GB200 opex ${line['gb200_opex_usd_per_gpu_month'].iloc[0]:,.0f}/GPU-month")
    point = frame[(frame["opex_multiple"] == 1.0) & np.isclose(frame["capex_multiple"], 1.0)]
    ax.plot(point["gb200_capex_usd_per_gpu"], point["breakeven_speedup"], "o", color=PALETTE["blue"])
    ax.axhline(report_ratio, color=PALETTE["black"], lw=0.8, ls=":")
    ax.annotate(f"report: ~{report_ratio:.1f}x", (frame["gb200_capex_usd_per_gpu"].min(), report_ratio),
                xytext=(2, 4), textcoords="offset points", fontsize=8)
    ax.xaxis.set_major_formatter(lambda v, _: f"${v / 1000:,.0f}k")
    ax.yaxis.set_major_locator(MaxNLocator(prune="lower"))  # the corner holds the first capex label
    legend_above(ax)
    add_source(fig, "TCO model of this chapter (capex: SemiAnalysis 2025; opex and cost of capital: public anchors, "
               "data/cost_anchors.csv); report ratio A12.")
    return fig


def _price(low: float, high: float) -> str:
    return money(low) if high == low else f"{money(low)} to {money(high)}"


def _signed(fraction: float) -> str:
    return ("+" if fraction > 0 else "") + percent(fraction, 0)


def _margin(low: float, high: float) -> str:
    """A renter's margin over the book's TCO ('+28 %', '-5 % to +40 %'); blank for a GPU the
    book does not price (its TCO covers the H100 and GB200 NVL72)."""
    if np.isnan(low):
        return ""
    return _signed(low) if high == low else f"{_signed(low)} to {_signed(high)}"


def rental_registry(E):
    """The full register of dated rental prices (H100 and GB200), a sortable table folded in a
    native ``<details>``: date, provider, tier, GPU, price, the margin it implies over the book's
    TCO, and its source by author and year."""
    frame = E.tables["rental"]
    rows = [{"date": r.period, "provider": r.provider, "tier": r.tier, "gpu": gpu_name(r.gpu_id),
             "price": _price(r.low_usd_per_gpu_hour, r.high_usd_per_gpu_hour),
             "margin": _margin(r.margin_low, r.margin_high),
             "what": r.what, "source": source_label(r.source_id)} for r in frame.itertuples()]
    table = interactive_table(rows, {"date": "Date", "provider": "Provider", "tier": "Tier", "gpu": "GPU",
                                     "price": "USD per GPU-hour", "margin": "Margin over the book's TCO",
                                     "what": "What", "source": "Source"},
                              caption="Rental prices, oldest first, against the book's TCO of owning")
    return folded(table, f"All {len(rows)} dated rental prices (sortable; the CSV is below)")


def market_table(E, system: str) -> str:
    """Markdown: the book's owner's cost of ``system`` beside the market's (owners' costs, then the
    rental tiers), each with whose price it is, the margin a renter pays over the book's TCO and
    the utilization above which owning costs less than that rental."""
    frame = E.tables["market"]
    rows = []
    for r in frame[frame["system"] == system].itertuples():
        whose = ("this book's model" if not r.source_ids
                 else ", ".join(source_link(s) for s in r.source_ids.split(", ")))
        figure = f"**{r.figure}**" if r.figure == "the book's TCO" else (
            r.figure if r.kind == "owning" else f"rent, {r.figure}")
        rows.append([figure, whose, r.period or "", _price(r.low, r.high),
                     "" if r.kind == "owning" else _signed(r.margin_over_book_tco),
                     "" if r.kind == "owning" else percent(r.breakeven_utilization)])
    # in view on a phone: each price and what it means for an owner; whose price and when fold in
    header = [f"{SYSTEMS[system]}, USD per GPU-hour", "Whose price", "Date", "Price",
              "Renter's margin over the book's TCO", "Owning costs less above"]
    return markdown_table(header, rows, "lllrrr", columns=[header[0], "Price", "Renter's margin over the book's TCO",
                                                          "Owning costs less above"])


def market(E):
    """Dots of the market's H100 and GB200 prices per GPU-hour (owners' costs and rental tiers),
    one row each, with the book's TCO as a line in each panel and the utilization above which
    owning beats each rental."""
    frame = E.tables["market"]
    fig = plt.figure(figsize=(7.0, 6.6), layout="constrained")
    axes = fig.subplots(2, 1, sharex=True)
    fig.suptitle("Owning at the book's TCO against the market", x=0.01, ha="left", fontweight="bold")
    for ax, (system, label) in zip(axes, SYSTEMS.items(), strict=True):
        rows = frame[(frame["system"] == system) & (frame["figure"] != "the book's TCO")].reset_index(drop=True)
        y = np.arange(len(rows))
        colours = [PALETTE["green"] if k == "owning" else PALETTE["blue"] for k in rows["kind"]]
        ax.scatter(rows["usd_per_gpu_hour"], y, color=colours, s=40, zorder=3)
        for i, r in rows.iterrows():
            if r["kind"] == "rental":
                ax.annotate(percent(r["breakeven_utilization"], 0), (r["usd_per_gpu_hour"], i),
                            xytext=(6, 0), textcoords="offset points", va="center", fontsize=8)
        book = frame[(frame["system"] == system) & (frame["figure"] == "the book's TCO")]["usd_per_gpu_hour"].iloc[0]
        ax.axvline(book, color=PALETTE["vermillion"], lw=1.4)
        ax.annotate(f"the book's TCO {money(book)}", (book, -0.9), xytext=(3, 0), textcoords="offset points",
                    fontsize=8, color=PALETTE["vermillion"], va="center")
        names = [r["figure"] if r["kind"] == "owning" else f"rent, {r['figure']}" for _, r in rows.iterrows()]
        short = {"SemiAnalysis's owning cost (its registry)": "SemiAnalysis's owning cost",
                 "the report's owner's TCO (A13)": "SemiAnalysis's 2025 TCO (A13)"}
        ax.set_yticks(y, [short.get(n, n) for n in names])
        ax.set_ylim(len(rows) - 0.4, -1.4)
        ax.set_title(label, loc="left", fontsize=11)
        ax.grid(axis="y", visible=False)
        ax.set_xscale("log")
    low, top = frame["usd_per_gpu_hour"].min() * 0.8, frame["usd_per_gpu_hour"].max()
    ticks = [t for t in (0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128) if low <= t <= top * 1.5]
    axes[-1].set_xlim(low, top * 2.5)  # room for the notes
    axes[-1].set_xticks(ticks)
    axes[-1].xaxis.set_minor_formatter(NullFormatter())
    axes[-1].set_xlabel("USD per GPU-hour (log scale)")
    axes[-1].xaxis.set_major_formatter(lambda v, _: f"${v:g}")
    add_source(fig, "owners' costs in green; rentals in blue, each with the utilization above which owning at the "
               "book's TCO costs less. SemiAnalysis's registry and report; the price ladder of data/cloud_prices.csv "
               "(one price per tier).")
    return fig


def rent_vs_own(E):
    """H100 rental price ranges by date, oldest first (one row each, provider and tier named, the
    dates down the side so a phone can read them) against the book's TCO of owning."""
    prices = E.tables["rental"]
    prices = prices[prices["gpu_id"] == "h100_sxm"].reset_index(drop=True)
    fig, ax = new_figure("H100 rental prices against the book's cost of owning", "USD per GPU-hour", "",
                         figsize=(7.0, 2.2 + 0.42 * len(prices)))
    y = np.arange(len(prices))
    ax.hlines(y, prices["low_usd_per_gpu_hour"], prices["high_usd_per_gpu_hour"], color=PALETTE["blue"], lw=6)
    ax.plot(prices["low_usd_per_gpu_hour"], y, "|", color=PALETTE["blue"], ms=14)
    ax.plot(prices["high_usd_per_gpu_hour"], y, "|", color=PALETTE["blue"], ms=14, label="rental price (range or point)")
    ax.axvline(E["h100_tco_usd_per_gpu_hour"], color=PALETTE["vermillion"], lw=1.2, label="the book's TCO of owning")
    ax.set_yticks(y, [f"{r.period} {r.provider}" + ("" if r.tier == "market range" else f", {r.tier}")
                      for r in prices.itertuples()])
    ax.invert_yaxis()
    ax.set_xlim(left=0)
    ax.grid(axis="y", visible=False)
    legend_above(ax)
    add_source(fig, "dated price snapshots in data/cloud_prices.csv (mostly secondary sources); the book's TCO of this chapter.")
    return fig


def a13_check_table(E) -> str:
    """Markdown: the cost of capital that would make the H100's TCO the report's $1.42 (A13), with
    the book's opex and with the seed's $249, beside the book's own rate."""
    basis = f"${fact('A13_h100_usd_per_gpu_hour'):.2f}"
    rows = [[r.opex, f"{r.useful_life_years:g}", f"{r.opex_usd_per_gpu_hour:.3f}",
             f"none: even at 0 % the TCO is above {basis}" if np.isnan(r.implied_cost_of_capital)
             else f"{r.implied_cost_of_capital * 100:.1f} %", f"{r.book_cost_of_capital * 100:.1f} %"]
            for r in E.tables["a13_check"].itertuples()]
    return markdown_table(["Opex", "Life, years", "Opex, USD per GPU-hour", f"Cost of capital that gives {basis}",
                           "The book's"], rows, "lrrrr")

def owning_anchors_table(E) -> str:
    """Markdown: SemiAnalysis's public owning cost, 3-year rental and all-in power per GPU (its
    InferenceX registry, dated), with the book's TCO beside the two systems it computes."""
    t = E.tables["owning_anchors"]
    rows = []
    for r in t.itertuples():
        basis = "owning, large hyperscaler" if r.basis == "hyperscaler_owning" else "owning, Google's own chips"
        rows.append([r.name, basis, f"{r.owning_usd_per_gpu_hour:.2f}",
                     "" if np.isnan(r.rental_3yr_usd_per_gpu_hour) else f"{r.rental_3yr_usd_per_gpu_hour:.2f}",
                     "" if np.isnan(r.all_in_kw_per_gpu) else f"{r.all_in_kw_per_gpu * 1000:,.0f}",
                     "" if np.isnan(r.book_tco_usd_per_gpu_hour) else f"{r.book_tco_usd_per_gpu_hour:.2f}",
                     r.model_date])
    # in view: the two systems the book prices, the ones the prose compares; the rest fold
    header = ["Accelerator", "SemiAnalysis basis", "Owning, USD per GPU-hour", "3-year rental, USD per GPU-hour",
              "All-in W per GPU", "This book's TCO, USD per GPU-hour", "Model date"]
    return markdown_table(header, rows, "llrrrrl", key=t["book_tco_usd_per_gpu_hour"].notna().to_numpy(),
                          columns=["Accelerator", "Owning, USD per GPU-hour", "3-year rental, USD per GPU-hour",
                                   "This book's TCO, USD per GPU-hour"])


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the GPUs
    it names are the ones its results record (``R.names``). It ends on the market: the utilization
    above which owning the first beats a 3-year rental, or, where owning costs as much as that rental
    even at full use, the item of the TCO that makes it so."""
    h100, gb200 = gpu_short_name(R.names["h100"]), gpu_short_name(R.names["gb200"]).split()[0]
    own = (f"At {percent(R['utilization_pct'] / 100)} utilization an {h100} costs "
           f"{money(R['h100_tco_usd_per_gpu_hour'])} per GPU-hour to own (the book's TCO) and a {gb200} "
           f"{money(R['gb200_tco_usd_per_gpu_hour'])}, so {gb200} must train {times(R['gb200_breakeven_speedup'])} "
           "faster per GPU to cost the same per token")
    rent = R["h100_3_year_rent_usd_per_gpu_hour"]
    if R["h100_3_year_breakeven_utilization_pct"] < 100:
        return (f"{own}; owning an {h100} beats a 3-year rental ({money(rent)} at SemiAnalysis) above "
                f"{percent(R['h100_3_year_breakeven_utilization_pct'] / 100, 0)} utilization.")
    items = {"its capital charge": R["h100_capex_usd_per_gpu_hour"],
             "its maintenance": R["h100_maintenance_usd_per_gpu_hour"],
             "its other running costs": R["h100_opex_usd_per_gpu_hour"] - R["h100_maintenance_usd_per_gpu_hour"]}
    cause = max(items, key=items.get)
    return (f"{own}; even at full use owning an {h100} costs as much as a 3-year rental ({money(rent)} at "
            f"SemiAnalysis), and {cause}, {money(items[cause])} per GPU-hour, is the largest part of it.")


ANSWER = ["h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "utilization_pct", "gb200_breakeven_speedup",
          "llama31_405b_bf16_usd_per_million_tokens", "h100_3_year_breakeven_utilization_pct"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
