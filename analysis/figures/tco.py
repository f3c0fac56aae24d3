"""Figures and tables of the TCO chapter, drawn from its ChapterResults (:mod:`analysis.chapters.tco`)."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator

from analysis.data.load import fact
from analysis.page.formatting import money, percent, times
from analysis.page.names import gpu_name, source_link
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure
from analysis.page.tables import markdown_table


def per_gpu_hour_table(E) -> str:
    """Markdown: capital charge, opex and TCO per GPU-hour of both systems."""
    frame = E.tables["per_gpu_hour"]
    rows = [[f"**{part}**" if part == "TCO" else part,
             *(f"**{v:.3f}**" if part == "TCO" else f"{v:.3f}" for v in r)] for part, r in frame.iterrows()]
    return markdown_table(["USD per GPU-hour", "H100", "GB200 NVL72"], rows, "lrr")


def usd_per_million_tokens_table(E) -> str:
    """Markdown, folded in a dropdown: USD per million tokens for every benchmark row."""
    rows = [[r.model, r.gpu_id, r.precision, f"{r.gpus:,}", r.software, f"{r.tokens_per_s_per_gpu:,.1f}", r.basis,
             f"{r.usd_per_million_tokens:.3f}"] for r in E.tables["usd_per_million_tokens_by_row"].itertuples()]
    table = markdown_table(["Model", "GPU", "Precision", "GPUs", "Software", "tokens/s/GPU", "basis",
                            "USD per 1M tokens"], rows, "lllrlrlr")
    return "\n".join([":::{admonition} Cost per 1M tokens for every benchmark row (H100 and GB200 TCO of this build)",
                      ":class: dropdown", "", table, ":::"])


def breakeven(E):
    """The GB200 break-even speed-up against its capex per GPU, at three levels of its opex, with
    this build's point and the report's ratio (A12)."""
    frame = E.tables["breakeven"]
    report_ratio = fact("A12_tco_ratio")
    fig, ax = new_figure("Break-even GB200 speed-up per GPU", "GB200 all-in capex per GPU (USD)",
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


def rental_table(E) -> str:
    """Markdown: each dated rental price snapshot and the margin it implies over this build's TCO."""
    rows = []
    for r in E.tables["rental"].itertuples():
        same = r.high_usd_per_gpu_hour == r.low_usd_per_gpu_hour
        price = f"{r.low_usd_per_gpu_hour:.2f}" + ("" if same else f"-{r.high_usd_per_gpu_hour:.2f}")
        margin = f"{r.margin_low:+.0%}" + ("" if same else f" to {r.margin_high:+.0%}")
        rows.append([r.what, gpu_name(r.gpu_id), r.period, price, margin, source_link(r.source_id)])
    key = (E.tables["rental"]["gpu_id"] == "h100_sxm").to_numpy()  # the H100 rows the chart below draws; the rest fold
    return markdown_table(["Snapshot", "GPU", "Period", "USD per GPU-hour", "Implied margin over TCO", "Source"], rows,
                          key=key, name="rental", title="every dated rental price and the margin it implies")


def rent_vs_own(E):
    """H100 rental price ranges by date (one row each, the dates down the side so a phone can read
    them) against this build's TCO of owning."""
    prices = E.tables["rental"]
    prices = prices[prices["gpu_id"] == "h100_sxm"].reset_index(drop=True)
    fig, ax = new_figure("H100 rental prices against the cost of owning", "USD per GPU-hour", "",
                         figsize=(7.0, 2.2 + 0.42 * len(prices)))
    y = np.arange(len(prices))
    ax.hlines(y, prices["low_usd_per_gpu_hour"], prices["high_usd_per_gpu_hour"], color=PALETTE["blue"], lw=6)
    ax.plot(prices["low_usd_per_gpu_hour"], y, "|", color=PALETTE["blue"], ms=14)
    ax.plot(prices["high_usd_per_gpu_hour"], y, "|", color=PALETTE["blue"], ms=14, label="rental price (range or point)")
    ax.axvline(E["h100_tco_usd_per_gpu_hour"], color=PALETTE["vermillion"], lw=1.2, label="TCO of owning, this build")
    ax.set_yticks(y, prices["period"])
    ax.invert_yaxis()
    ax.set_xlim(left=0)
    ax.grid(axis="y", visible=False)
    legend_above(ax)
    add_source(fig, "dated price snapshots in data/cloud_prices.csv (mostly secondary sources); TCO of this chapter.")
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
    rows = []
    for r in E.tables["owning_anchors"].itertuples():
        basis = "owning, large hyperscaler" if r.basis == "hyperscaler_owning" else "owning, Google's own chips"
        rows.append([r.name, basis, f"{r.owning_usd_per_gpu_hour:.2f}",
                     "" if np.isnan(r.rental_3yr_usd_per_gpu_hour) else f"{r.rental_3yr_usd_per_gpu_hour:.2f}",
                     "" if np.isnan(r.all_in_kw_per_gpu) else f"{r.all_in_kw_per_gpu * 1000:,.0f}",
                     "" if np.isnan(r.book_tco_usd_per_gpu_hour) else f"{r.book_tco_usd_per_gpu_hour:.2f}",
                     r.model_date])
    return markdown_table(["Accelerator", "SemiAnalysis basis", "Owning, USD per GPU-hour", "3-year rental, USD per GPU-hour",
                           "All-in W per GPU", "This book's TCO, USD per GPU-hour", "Model date"], rows, "llrrrrl")


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number."""
    return (f"At {percent(R['utilization_pct'] / 100)} utilization an H100 costs "
            f"{money(R['h100_tco_usd_per_gpu_hour'])} per GPU-hour to own and a GB200 "
            f"{money(R['gb200_tco_usd_per_gpu_hour'])}, so GB200 must train {times(R['gb200_breakeven_speedup'])} "
            "faster per GPU to cost the same per token.")


ANSWER = ["h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "utilization_pct", "gb200_breakeven_speedup", "llama31_405b_bf16_usd_per_million_tokens"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
