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
# (chapter-capex)=
# # Capex: what an H100 and a GB200 GPU cost to buy

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
h100_server_usd: float = 190000.0  # USD per server; a number from 1,000 to 2,000,000. Price of one 8-GPU H100 server, typical hyperscaler
h100_allin_usd: float = 250000.0  # USD per server; a number from 1,000 to 3,000,000. H100 server all-in: with storage, networking and other items
h100_gpus_per_server: int = 8  # GPUs; an integer from 1 to 64. GPUs in one H100 (HGX) server
gb200_rack_usd: float = 3100000.0  # USD per rack; a number from 100,000 to 20,000,000. Price of one GB200 NVL72 rack, typical hyperscaler
gb200_allin_usd: float = 3900000.0  # USD per rack; a number from 100,000 to 30,000,000. GB200 NVL72 rack all-in: with networking, storage and other items
gb200_gpus_per_rack: int = 72  # GPUs; an integer from 1 to 576. GPUs in one GB200 NVL72 rack
useful_life_years: float = 4.0  # years; a number from 1 to 10. Years over which capex is recovered
cost_of_capital: float = 0.1  # per year; a number from 0 to 0.5. Annual cost of capital (discount rate) for amortizing capex
utilization: float = 1.0  # fraction; a number from 0.05 to 1. Share of hours a GPU is in paid or productive use

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import capex as chapter
from analysis.figures import capex as figures
from analysis.page.notebook import comparison_table, glue_facts, glue_figure, glue_seed_numbers, publish, save, start
from analysis.page.tables import answer_from_results

# %% tags=["remove-input"]
P, upstream = start("capex", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts("A09_allin_capex_ratio", "A13_h100_usd_per_gpu_hour")
glue_seed_numbers("S03_h100_server_usd", "S05_gb200_rack_usd", "S06_gb200_allin_usd", "S07_capex_ratio")

# %% tags=["remove-input"]
glue_figure("fig_capex_build_up", figures.build_up(R))

# %% [markdown]
# {numref}`fig-capex-build-up` breaks the capital cost of one H100 and one GB200 GPU into the server
# or rack and what a cluster adds around it.
#
# ```{glue:figure} fig_capex_build_up
# :name: fig-capex-build-up
# :alt: Two stacked bars, H100 and GB200 NVL72 capex per GPU, each split into the server or rack and the networking, storage and other items, with dollar labels.
#
# The public bill of materials has two layers: the server or rack, and what "all-in" adds.
# SemiAnalysis's finer split (switches, optics, storage, per buyer type) is paywalled.
# ```
#
# At these prices the server or rack is most of each bar and most of the gap between them. A GB200
# GPU's capital is {glue:text}`gb200_to_h100_capex_ratio:.2f`x the H100's: the first number its
# speed has to pay back.

# %% [markdown]
# The capital is most of the cost of a training GPU. This chapter takes SemiAnalysis's prices for
# a typical hyperscaler ({ref}`SemiAnalysis, 2025 <src-sa_gb200_2025>`), turns them into a price
# per GPU, sets them against the second-hand summary this book started from, and spreads them over
# the GPU's life as a charge per {term}`GPU-hour`. Rerun it with your own prices:
# `python -m analysis run capex -p gb200_allin_usd 3500000 -p useful_life_years 5`.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## Price per server, price per GPU
#
# An H100 server holds {glue:text}`h100_gpus_per_server:.0f` GPUs; a GB200 {term}`NVL72` rack holds
# {glue:text}`gb200_gpus_per_rack:.0f`, joined by one NVLink domain. "All-in" adds what a cluster needs
# around the servers: the back-end network, storage and other items.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("h100_server_usd_per_gpu", "A05_h100_capex_per_gpu_server"),
    ("h100_capex_usd_per_gpu", "A05_h100_capex_per_gpu_allin"),
    ("gb200_server_usd_per_gpu", "A08_gb200_capex_per_gpu_server"),
    ("gb200_capex_usd_per_gpu", "A08_gb200_capex_per_gpu_allin"),
    ("gb200_to_h100_capex_ratio", "A09_allin_capex_ratio")])))

# %% tags=["remove-input"]
from analysis.page.notebook import glue_money

glue_money(R, "gb200_capex_usd_per_gpu", "h100_capex_usd_per_gpu")

# %% [markdown]
# All-in, a GB200 GPU costs {glue:text}`gb200_capex_usd_per_gpu_money` against
# {glue:text}`h100_capex_usd_per_gpu_money` for an H100: {glue:text}`gb200_to_h100_capex_ratio:.2f`x.
# The report says the ratio is {glue:text}`fact_A09_allin_capex_ratio:.1f`-{glue:text}`fact_A09_allin_capex_ratio_high:.1f`x
# "across hyperscalers, neocloud giants and emerging neoclouds", yet its own hyperscaler prices give {glue:text}`gb200_to_h100_capex_ratio:.2f`x, a little
# above the top of that range. Two things close most of the gap. The prices are rounded
# (the all-in rack is "~\$3.9M"): a rack at the bottom of the rounding interval brings the ratio to
# {glue:text}`gb200_to_h100_capex_ratio_at_rounding_floor:.2f`x. And the range is meant to cover buyers whose prices
# are behind the paywall; a neocloud pays the H100 a larger markup than the GB200, which lowers
# the ratio. The book uses the stated hyperscaler prices and shows the ratio they imply; the range
# is the report's summary, not a number it derived in the open.

# %% [markdown]
# ## The seed's prices against the report
#
# The summary this book started from prints an H100 server at about
# \${glue:text}`seed_S03_h100_server_usd:,.0f` and a GB200 rack at
# \${glue:text}`seed_gb200_rack_million_usd:.1f`M (\${glue:text}`seed_gb200_allin_million_usd:.1f`M all-in),
# with a {glue:text}`seed_S07_capex_ratio:.1f`-{glue:text}`seed_S07_capex_ratio_2:.1f`x {term}`capex` ratio. None
# of these appear in the report, whose text gives the figures below: the seed's server price is
# {glue:text}`seed_to_report_h100_server_price_pct:.0f` % of the real one. The book uses the report's figures.

# %% tags=["remove-input"]
from analysis.page.notebook import seed_vs_source_table

display(Markdown(seed_vs_source_table(["S03", "S05", "S06", "S07"])))

# %% [markdown]
# ## From a price to a charge per GPU-hour
#
# A buyer recovers capital over the GPU's useful life *n* at a {term}`cost of capital` *r*. The level
# yearly charge per dollar is the capital recovery factor, CRF(*r*, *n*) = *r* (1 + *r*)<sup>*n*</sup> /
# ((1 + *r*)<sup>*n*</sup> − 1), and the charge per GPU-hour is capex × CRF / (8,760 h × utilization). With a
# {glue:text}`useful_life_years:g`-year life, a {glue:text}`cost_of_capital_pct:.1f` % cost of
# capital and {glue:text}`utilization_pct:.0f` % utilization, an H100 costs
# \${glue:text}`h100_capex_usd_per_gpu_hour:.2f` per hour in capital and a GB200
# \${glue:text}`gb200_capex_usd_per_gpu_hour:.2f`. Neither life nor rate is in the report. The rate is
# the book's, from public debt yields (CoreWeave's unsecured notes); the {ref}`TCO chapter
# <chapter-tco>` sets the result against the report's \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f`
# per H100-hour.
# {numref}`fig-capex-per-hour-vs-life` shows how the H100's charge moves with the two inputs the
# report leaves out, the life and the cost of capital.

# %% tags=["remove-input"]
glue_figure("fig_capex_per_hour_vs_life", figures.charge_vs_life(R))
from analysis.page.notebook import offer_table

offer_table(R, "capital_charge_vs_life", R.tables["charge_vs_life"], "H100 capital charge against useful life")

# %% [markdown]
# ```{glue:figure} fig_capex_per_hour_vs_life
# :name: fig-capex-per-hour-vs-life
# :alt: Falling curves of the H100 capital charge in dollars per GPU-hour against useful life from 2 to 8 years, one curve per cost of capital from zero to twice this build's rate, with a dot at this build's choice.
#
# A longer life lowers the hourly capital charge, with diminishing returns; a higher cost of
# capital raises it, more so for long lives. The black curve is straight-line depreciation.
# ```
#
# The gap between each coloured curve and the black one is the price of the money, and it hardly
# shrinks as the life grows: the longer a buyer keeps its GPUs, the larger the share of the hourly
# charge that pays for financing rather than for the GPU.

# %% [markdown]
# ## The seed's claims, checked

# %% tags=["remove-input"]
from analysis.page.notebook import claims_table

display(Markdown(claims_table("capex", R)))
save(R)
