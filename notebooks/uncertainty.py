# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# (chapter-uncertainty)=
# # How sure are these numbers?
#
# SemiAnalysis prints point estimates. This chapter gives each uncertain input of the book a range,
# from cited data where there is one and as a stated assumption where there is not
# (`data/distributions.csv`), draws all of them together many times, and pushes every draw through
# the same functions the other chapters use. The result is a band for each headline number, and a
# ranking of what moves it most. Rerun it with your own centre values or more draws:
# `python -m analysis run uncertainty -p tariff_usd_per_kwh 0.12 -p mc_draws 1000000`.

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis import reliability, uncertainty
from analysis.notebook import format_quantity, glue, glue_figure, markdown_table, start
from analysis.plots import PALETTE, add_source, new_figure

P, R = start("uncertainty", globals())
values = model_values(vars(P))
rates, tokens = reliability.llama3_rates(), uncertainty.reference_tokens_per_s()
point = {k: float(v) for k, v in uncertainty.evaluate(values, tokens, rates).items()}
samples = uncertainty.simulate(values, P.mc_draws, P.mc_seed)
table = uncertainty.bands(samples, point)
for key, row in table.iterrows():
    for q in ("p10", "p50", "p90"):
        R.add(f"{key}_{q}", row[q], row["unit"], f"{row['label']}, {q.upper()}")
glue("mc_draws", P.mc_draws)
R.add_table("bands", table.reset_index(names="output"), "point estimates and P10 / P50 / P90 bands")

# %% [markdown]
# ## The inputs and their ranges
#
# Triangular distributions peak at this build's value and run from the low to the high; uniform
# ones give every value in the range the same weight. *cited* ranges come from sources in the
# bibliography; *assumption* ranges are the book's, and the note says why.

# %% tags=["remove-input"]
dist = uncertainty.distributions()
display(Markdown(markdown_table(
    ["Input", "Shape", "Low", "This build", "High", "Basis", "Why"],
    [(f"`{name}`", d_["shape"], f"{d_['low']:,.4g}", f"{values.get(name, float('nan')):,.4g}", f"{d_['high']:,.4g}",
      d_["basis"], d_["note"]) for name, d_ in dist.iterrows()])))

# %% [markdown]
# ## Bands for the headline numbers
#
# {glue:text}`mc_draws:,` draws, seeded so that every rebuild gives the same bands. The point
# estimate is the model at this build's values; P10 and P90 bound the middle 80 % of the draws.

# %% tags=["remove-input"]
display(Markdown(markdown_table(
    ["Result", "Point", "P10", "P50", "P90"],
    [(row["label"], *(format_quantity(row[c], row["unit"]) for c in ("point", "p10", "p50", "p90")))
     for _, row in table.iterrows()])))

# %% [markdown]
# A band is lopsided where its inputs' ranges are: the tariff's cited range runs much further
# above the default than below it, and the assumed GB200 backplane fault rate can be many times
# higher than the default but not much lower. Where a median differs from its point estimate,
# that asymmetry is why.

# %% tags=["remove-input"]
fig, ax = new_figure("Bands relative to the point estimate", "Ratio to the point estimate", "",
                     figsize=(7.0, 3.8))
labels = list(table["label"])
for i, (_, row) in enumerate(table.iterrows()):
    ax.plot([row["p10"] / row["point"], row["p90"] / row["point"]], [i, i], color=PALETTE["blue"], lw=6,
            solid_capstyle="butt")
    ax.plot(row["p50"] / row["point"], i, "|", color=PALETTE["black"], ms=14, mew=2)
ax.axvline(1.0, color=PALETTE["vermillion"], lw=1, ls=":")
ax.set_yticks(range(len(labels)), labels, fontsize=8)
ax.invert_yaxis()
add_source(fig, f"Monte Carlo of this chapter, {P.mc_draws:,} draws (data/distributions.csv); bar = P10 to P90, "
           "tick = P50, dotted line = point estimate.")
glue_figure("fig_uncertainty_bands", fig)

# %% [markdown]
# ```{glue:figure} fig_uncertainty_bands
# :name: fig-uncertainty-bands
# :alt: Horizontal bars, one per headline result, spanning P10 to P90 as ratios to the point estimate, with a tick at the median and a dotted vertical line at 1.
#
# The middle 80 % of each result, as a ratio to its point estimate.
# ```

# %% [markdown]
# ## What drives the cost of a token and the break-even
#
# A tornado chart moves one input at a time from its low to its high, with every other input at this
# build's value, and ranks the inputs by how far the result swings.

# %% tags=["remove-input"]
def tornado_figure(output: str, title: str, unit: str):
    t = uncertainty.tornado(values, output).head(8)
    fig, ax = new_figure(title, unit, "", figsize=(7.0, 3.6))
    base = t["base"].iloc[0]
    for i, r in t.iterrows():
        ax.barh(i, r["at_low"] - base, left=base, color=PALETTE["sky"], label="input at its low" if i == 0 else None)
        ax.barh(i, r["at_high"] - base, left=base, color=PALETTE["orange"], label="input at its high" if i == 0 else None)
    ax.axvline(base, color=PALETTE["black"], lw=0.8)
    ax.set_yticks(range(len(t)), t["param"], fontsize=8)
    ax.invert_yaxis()
    ax.legend(fontsize=8, loc="lower right")
    add_source(fig, "one-at-a-time swings over the ranges in data/distributions.csv; other inputs at this build's values.")
    return fig, t


fig, t_cost = tornado_figure("llama31_405b_bf16_usd_per_million_tokens", "What moves the cost of a Llama 3.1 405B token",
                             "USD per 1M tokens")
glue_figure("fig_uncertainty_tornado_cost", fig)
fig, t_even = tornado_figure("gb200_breakeven_speedup_with_downtime", "What moves GB200's break-even speed-up",
                             "Speed-up over H100 needed (x), with downtime")
glue_figure("fig_uncertainty_tornado_breakeven", fig)
R.add_table("tornado_cost", t_cost, "one-at-a-time swings of the cost per 1M tokens")
R.add_table("tornado_breakeven", t_even, "one-at-a-time swings of GB200's break-even")
glue("top_cost_driver", t_cost["param"].iloc[0])
glue("top_breakeven_driver", t_even["param"].iloc[0])

# %% [markdown]
# ```{glue:figure} fig_uncertainty_tornado_cost
# :name: fig-uncertainty-tornado-cost
# :alt: Tornado chart of the Llama 3.1 405B cost per million tokens, one horizontal bar pair per input, sorted by swing, useful life at the top.
#
# Inputs ranked by how far the cost of a token swings between their low and high; in this build the
# largest swing comes from {glue:text}`top_cost_driver`.
# ```
#
# ```{glue:figure} fig_uncertainty_tornado_breakeven
# :name: fig-uncertainty-tornado-breakeven
# :alt: Tornado chart of GB200's downtime-adjusted break-even speed-up, one bar pair per input, sorted by swing.
#
# Inputs ranked by how far GB200's downtime-adjusted break-even swings; in this build the largest
# swing comes from {glue:text}`top_breakeven_driver`. The GB200 reliability inputs are assumptions:
# the numbers the report's paywalled reliability section would have settled.
# ```

# %% tags=["remove-cell"]
R.save()
