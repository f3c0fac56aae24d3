"""Figures and tables of the uncertainty chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (``analysis.chapters.uncertainty``)."""

from __future__ import annotations

import textwrap

from analysis.chapters.uncertainty import EXTRA_LABELS
from analysis.page.formatting import money, plain, times
from analysis.page.names import model_name, param_short_label, reader_text
from analysis.page.notebook import format_quantity
from analysis.page.plots import PALETTE, add_source, new_figure
from analysis.page.tables import markdown_table

# tornado table name: (title, x-axis label)
TORNADO_TITLES = {
    "tornado_cost": ("What moves the cost of a Llama 3.1 405B token", "USD per 1M tokens"),
    "tornado_breakeven": ("What moves GB200's break-even speed-up", "Speed-up over H100 needed (x), with downtime"),
}


def inputs_markdown(E) -> str:
    """The uncertain inputs: shape, low, this build's value, high, basis and why."""
    rows = [(r.label, r.shape, plain(r.low, 4), plain(r.value, 4), plain(r.high, 4), r.basis, reader_text(r.note))
            for r in E.tables["inputs"].itertuples()]
    return markdown_table(["Input", "Shape", "Low", "This build", "High", "Basis", "Why"], rows)


def bands_markdown(E) -> str:
    """Point estimate, P10, P50 and P90 of each headline result, with units."""
    rows = [(r["label"], *(format_quantity(r[c], r["unit"]) for c in ("point", "p10", "p50", "p90")))
            for _, r in E.tables["bands"].iterrows()]
    return markdown_table(["Result", "Point", "P10", "P50", "P90"], rows)


def bands_figure(E):
    """Each result's P10-P90 bar and P50 tick as ratios to its point estimate."""
    table = E.tables["bands"]
    fig, ax = new_figure("Bands relative to the point estimate", "Ratio to the point estimate", "",
                         figsize=(7.0, 1.2 + 0.75 * len(table)))
    for i, (_, row) in enumerate(table.iterrows()):
        ax.plot([row["p10"] / row["point"], row["p90"] / row["point"]], [i, i], color=PALETTE["blue"], lw=6,
                solid_capstyle="butt")
        ax.plot(row["p50"] / row["point"], i, "|", color=PALETTE["black"], ms=14, mew=2)
    ax.axvline(1.0, color=PALETTE["vermillion"], lw=1, ls=":")
    fig.subplots_adjust(left=0.34, right=0.97)
    ax.set_yticks(range(len(table)), [textwrap.fill(str(label), 24) for label in table["label"]])
    ax.invert_yaxis()
    add_source(fig, f"Monte Carlo of this chapter, {E['monte_carlo_draws_count']:,.0f} draws "
               "(data/distributions.csv); bar = P10 to P90, tick = P50, dotted line = point estimate.")
    return fig


def tornado_figure(E, name: str):
    """One-at-a-time swings of a result (``tornado_cost`` or ``tornado_breakeven``), each input's
    bar labelled with what the input means."""
    t = E.tables[name]
    title, unit = TORNADO_TITLES[name]
    fig, ax = new_figure(title, unit, "", figsize=(7.0, 1.6 + 0.65 * len(t)))
    base = t["base"].iloc[0]
    for i, r in t.iterrows():
        ax.barh(i, r["at_low"] - base, left=base, color=PALETTE["sky"], label="input at its low" if i == 0 else None)
        ax.barh(i, r["at_high"] - base, left=base, color=PALETTE["orange"], label="input at its high" if i == 0 else None)
    ax.axvline(base, color=PALETTE["black"], lw=0.8)
    # short labels (what each input means), wrapped so the bars keep most of the width
    ax.set_yticks(range(len(t)), [textwrap.fill(param_short_label(p, 36, EXTRA_LABELS.get(p)), 20) for p in t["param"]])
    ax.invert_yaxis()
    ax.legend(loc="upper center", bbox_to_anchor=(0.4, -0.18 - 1.2 / len(t) / 4), ncol=2)
    fig.subplots_adjust(left=0.3, right=0.97, bottom=0.25)
    add_source(fig, "one-at-a-time swings over the ranges in data/distributions.csv; other inputs at this "
               "build's values.")
    return fig


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"Across the inputs' ranges the break-even speed-up stays between {times(R['gb200_breakeven_speedup_p10'])} "
            f"and {times(R['gb200_breakeven_speedup_p90'])} (P10-P90), and {model_name(R.names['reference_model'])} BF16 "
            f"tokens cost {money(R['llama31_405b_bf16_usd_per_million_tokens_p10'])} to "
            f"{money(R['llama31_405b_bf16_usd_per_million_tokens_p90'])} per million (no failures).")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["llama31_405b_bf16_usd_per_million_tokens_p10", "llama31_405b_bf16_usd_per_million_tokens_p90", "gb200_breakeven_speedup_p10", "gb200_breakeven_speedup_p90"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
