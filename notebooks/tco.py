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
# (chapter-tco)=
# # TCO: dollars per GPU-hour and per million tokens

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/params/defaults.py.

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import tco as chapter
from analysis.figures import opex as opex_figures
from analysis.figures import tco as figures
from analysis.page.notebook import bands_table, claims_table, comparison_table, glue_facts, glue_figure, publish, start
from analysis.page.tables import answer_from_results

P, upstream = start("tco", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts("A12_tco_ratio", "A13_h100_usd_per_gpu_hour")

# %% tags=["remove-input"]
glue_figure("fig_tco_breakeven", figures.breakeven(R))

# %% [markdown]
# {numref}`fig-tco-breakeven` shows the speed-up per GPU that GB200 needs to match the H100's cost
# per token, against what GB200 costs to buy and to run.
#
# ```{glue:figure} fig_tco_breakeven
# :name: fig-tco-breakeven
# :alt: Three rising lines of the GB200 break-even speed-up against GB200 all-in capex per GPU, for lower, equal and higher GB200 opex, with a dot at this build's point and a dotted line at the report's ratio.
#
# The speed-up GB200 needs rises in a straight line with its capex per GPU; its opex shifts the
# line up or down.
# ```
#
# Over the ranges drawn, GB200's purchase price moves the break-even much more than its running cost
# does: a discount on the rack is worth more to a GB200 buyer than a cut in its running costs.

# %% [markdown]
# Total cost of ownership per {term}`GPU-hour` is the capital charge from the {ref}`capex chapter
# <chapter-capex>` plus the running cost from the {ref}`opex chapter <chapter-opex>`. SemiAnalysis
# prices every H100 training token at its {term}`TCO` with no rental margin, and argues that GB200 {term}`NVL72`
# must be faster per GPU by its TCO ratio to be worth buying ({ref}`SemiAnalysis, 2025
# <src-sa_gb200_2025>`). The report does not publish its opex items or its cost of capital, so this
# chapter builds its own TCO from independent public sources and sets it against both of the
# report's numbers, prices every benchmark run per million tokens, and compares owning with renting.
# Every TCO here is per hour a GPU is used, at a utilization of {glue:text}`utilization_pct:.0f` % of
# its hours: capital, space and maintenance are paid for every hour, so at half the utilization they
# cost twice as much per hour used. Rerun it with your own inputs:
# `python -m analysis run tco -p utilization 0.8 -p cost_of_capital 0.12`.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## TCO per GPU-hour

# %% tags=["remove-input"]
display(Markdown(figures.per_gpu_hour_table(R)))
display(Markdown(comparison_table(R, [("h100_tco_usd_per_gpu_hour", "A13_h100_usd_per_gpu_hour"),
                                      ("gb200_breakeven_speedup", "A12_tco_ratio")])))

# %% [markdown]
# An H100 costs \${glue:text}`h100_tco_usd_per_gpu_hour:.2f` per hour to own and run, of which
# {glue:text}`h100_capex_share_of_tco_pct:.0f` % is capital; a GB200 GPU costs
# \${glue:text}`gb200_tco_usd_per_gpu_hour:.2f`. The ratio, {glue:text}`gb200_breakeven_speedup:.2f`x,
# is the speed-up per GPU that GB200 must deliver to match the H100's training work per TCO dollar;
# the report puts it at about {glue:text}`fact_A12_tco_ratio:.1f`x, and the book's lands
# {glue:text}`gb200_breakeven_speedup_vs_report_pct:+.0f` % from it. Both systems share every rate, so
# the ratio lies between the capex ratio, {glue:text}`gb200_to_h100_capex_ratio:.2f`x (the report's own
# prices; maintenance follows it), and the ratio of their watts, {glue:text}`gb200_to_h100_it_w_ratio:.2f`x
# (power and datacenter space): the rates set where between, not how far apart the two ends are.

# %% [markdown]
# ### The book's estimate against the report's H100 basis
#
# Apart from SemiAnalysis's own prices and watts, every input above is sourced independently of
# the report: CBRE's wholesale rents for the datacenter ({ref}`opex chapter <chapter-opex>`), a
# maintenance share from Meta's published repair rate (below), and a
# {glue:text}`cost_of_capital_pct:.0f` % cost of capital over {glue:text}`useful_life_years:g` years.
# The {term}`cost of capital` is CoreWeave's effective rate on its unsecured 2030 notes, between
# hyperscaler bond yields and CoreWeave's GPU-backed loans:

# %% tags=["remove-input"]
display(Markdown(opex_figures.anchors_table(R)))

# %% [markdown]
# On these inputs the H100 lands {glue:text}`h100_tco_vs_report_pct:+.0f` % from the report's
# \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f` per GPU-hour (A13). The report's basis is a check
# of the model here, not an input. The gap is in the opex: after this build's opex the report's
# basis leaves \${glue:text}`a13_h100_capex_usd_per_gpu_hour:.3f` per hour for capital, while even
# free capital (straight-line depreciation plus opex) costs
# \${glue:text}`h100_tco_at_zero_cost_of_capital_usd_per_gpu_hour:.2f` per hour. The table gives the
# cost of capital that would make the H100 cost \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f`,
# with this build's opex and with the seed's unverifiable opex (S09) instead. With the seed's opex
# and a four-year life it is the rate an earlier edition of this book used as its default,
# calibrated to the report's basis; the book no longer does that.

# %% tags=["remove-input"]
display(Markdown(figures.a13_check_table(R)))

# %% [markdown]
# The report's basis fits a cheaper datacenter than a wholesale rent, cheaper maintenance, or a
# longer life; its text does not say which. Opex is
# {glue:text}`h100_opex_share_of_tco_pct:.0f` % of the book's H100 TCO, and maintenance, its least
# certain item, is the largest part of it; the uncertainty bands at the end of this chapter carry
# its range. Every cost below uses the book's
# TCO, and the claims ledger lists each of the report's cost figures as a check of the model.
#
# ### Maintenance, from a published repair rate
#
# No vendor publishes what GPU servers cost to keep running, and no operator's filing breaks it
# out; the one public figure for a support contract, NVIDIA's DGX H100 support at list price, comes
# from a blog. A hyperscaler has published how often its GPUs break: in Llama 3's
# {glue:text}`llama3_snapshot_days:.0f`-day snapshot on {glue:text}`llama3_gpus:,.0f` H100s, Meta counted {glue:text}`llama3_gpu_replacements_count:.0f` faulty GPUs and HBM3
# failures, the faults that take a GPU out to be swapped. Replacing each at its whole share of
# capex, with no warranty, would cost {glue:text}`maintenance_from_replacements_frac_per_year:.1%` of
# capex a year, an upper bound on parts that leaves out labour; the book's default is that rate,
# {glue:text}`maintenance_frac_per_year:.1%`. Its sourced range runs from
# {glue:text}`maintenance_low_pct_per_year:.0f` % (every part under warranty) to
# {glue:text}`maintenance_high_pct_per_year:.0f` % (the DGX list price), and takes the H100's TCO from
# \${glue:text}`h100_tco_at_maintenance_low_usd_per_gpu_hour:.2f` to
# \${glue:text}`h100_tco_at_maintenance_high_usd_per_gpu_hour:.2f` per GPU-hour.
#
# ### SemiAnalysis's own owning costs
#
# SemiAnalysis now publishes the output of its AI Cloud TCO model in the open registry of its
# InferenceX dashboard ({ref}`SemiAnalysis, 2026 <src-semianalysis_inferencex_registry>`): the cost
# of owning one GPU-hour at large-hyperscaler volume, a 3-year rental and the all-in power per GPU,
# dated to its July 2026 model. They are model values of the report's publisher, not transactions,
# and not an input here; the book sets its own TCO beside them. The registry owns an H100-hour for
# \${glue:text}`sa_registry_h100_owning_usd_per_gpu_hour:.2f`, the book's TCO is
# {glue:text}`h100_tco_vs_sa_registry_pct:+.0f` % from it, and its GB200 NVL72 at
# \${glue:text}`sa_registry_gb200_owning_usd_per_gpu_hour:.2f` makes a GB200 / H100 ratio of
# {glue:text}`sa_registry_gb200_to_h100_owning_ratio:.2f`x, which the book's
# {glue:text}`gb200_breakeven_speedup:.2f`x is {glue:text}`gb200_breakeven_speedup_vs_sa_registry_pct:+.1f` %
# from. Its all-in power per GPU, {glue:text}`sa_registry_h100_all_in_w_per_gpu:,.0f` W for the H100 and
# {glue:text}`sa_registry_gb200_all_in_w_per_gpu:,.0f` W for the GB200, counts the chip and its share of
# the host and network, as the book's IT power per GPU does (before the PUE).

# %% tags=["remove-input"]
display(Markdown(figures.owning_anchors_table(R)))
from analysis.page.notebook import offer_table

offer_table(R, "owning_anchors", R.tables["owning_anchors"], "SemiAnalysis's public owning costs and all-in power per GPU")

# %% [markdown]
# ## Dollars per million training tokens
#
# A benchmark's tokens per second per GPU turn the hourly TCO into a price per token:
# \$/1M tokens = TCO per GPU-hour / 3,600 / (tokens/s/GPU) x 10⁶. Where a publisher reports only
# {term}`MFU`, the FLOP accounting of the {ref}`cluster chapter <chapter-cluster>` converts it to tokens/s
# first. H100 rows use the H100 TCO and GB200 rows the GB200 TCO. Priced at the report's own
# \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f`, the same throughputs give the report's figures, which checks its throughput and FLOP
# arithmetic; at the book's TCO they land higher by the TCO gap:

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gpt3_175b_fp8_usd_per_million_tokens_jan2024_at_report_basis", "A22_fp8_cost_per_1m_jan2024"),
    ("gpt3_175b_fp8_usd_per_million_tokens_at_report_basis", "A22_fp8_cost_per_1m_dec2024"),
    ("gpt3_175b_fp8_cost_300b_tokens_usd_at_report_basis", "A23_gpt3_fp8_cost_dec2024"),
    ("llama31_405b_bf16_usd_per_million_tokens_at_report_basis", "A34_405b_bf16_cost_per_1m"),
    ("llama31_405b_bf16_cost_15t_tokens_usd_at_report_basis", "A35_405b_15t_cost"),
    ("gpt3_175b_fp8_usd_per_million_tokens", "A22_fp8_cost_per_1m_dec2024"),
    ("llama31_405b_bf16_usd_per_million_tokens", "A34_405b_bf16_cost_per_1m")])))

# %% [markdown]
# GPT-3 175B in {term}`FP8` cost {glue:text}`gpt3_175b_fp8_cents_per_million_tokens_jan2024:.1f`¢ per million tokens with January 2024
# software and {glue:text}`gpt3_175b_fp8_cents_per_million_tokens:.1f`¢ with December 2024 software, on the same H100s.
# Llama 3.1 405B in {term}`BF16` costs \${glue:text}`llama31_405b_bf16_usd_per_million_tokens:.2f` per million
# tokens, \${glue:text}`llama31_405b_bf16_cost_15t_tokens_million_usd:.1f`M for {glue:text}`llama31_405b_train_trillion_tokens:.0f`T tokens: one
# clean pass at NVIDIA's benchmark speed, before any experiment, failure or restart (the
# {ref}`plan chapter <chapter-plan>` prices the run at Meta's measured speed with its failures). Every benchmark row:

# %% tags=["remove-input"]
offer_table(R, "usd_per_million_tokens_by_row", R.tables["usd_per_million_tokens_by_row"],
            "cost per 1M tokens for every benchmark row")
display(Markdown(figures.usd_per_million_tokens_table(R)))

# %% [markdown]
# ## The speed-up GB200 must deliver
#
# Performance per TCO dollar is throughput divided by TCO per GPU-hour, so GB200 beats the H100
# only if its per-GPU throughput exceeds the H100's by more than the TCO ratio. The ratio moves
# with what GB200 costs to buy and to run; {numref}`fig-tco-breakeven`, at the top of this chapter,
# holds the H100 at this build's TCO.

# %% [markdown]
# Change the server price, life, cost of capital, utilization, power, PUE and tariff below and watch the TCO, the cost per million tokens and GB200's break-even move.

# %% tags=["remove-input"]
from IPython.display import HTML

from analysis.page.whatif import whatif_panel

display(HTML(whatif_panel("tco")))

# %% [markdown]
# ## Renting against owning
#
# Cloud prices for an H100-hour have ranged widely since 2023. Against the owner's TCO, each dated
# snapshot implies the margin a renter pays (price / TCO - 1); a negative margin means the price is
# below this model's cost of ownership, for a provider with cheaper capital, older hardware already
# depreciated, or a price war.

# %% tags=["remove-input"]
from analysis.page.notebook import show_table

show_table(R, figures.rental_table(R))
glue_figure("fig_tco_rent_vs_own", figures.rent_vs_own(R))

# %% [markdown]
# {numref}`fig-tco-rent-vs-own` sets each dated rental price against the cost of owning.
#
# ```{glue:figure} fig_tco_rent_vs_own
# :name: fig-tco-rent-vs-own
# :alt: Horizontal bars of H100 rental price ranges by date from 2023 to 2026, falling over time, against a horizontal line at the TCO of owning.
#
# Rental prices fell from several times the cost of owning in 2023 to around it by late 2025.
# ```
#
# The range at one date is often as wide as the fall over the years, so which offer a renter takes
# matters as much as when. The cheapest recent quotes sit near the owner's cost, which leaves owning
# little cheaper than the best rentals.

# %% [markdown]
# ## How sure: P10, P50 and P90
#
# Prices, lives, rates and tariffs are not known exactly. Drawing them all within their ranges gives these bands for this chapter's headline numbers (the cost per token is for Llama 3.1 405B in BF16 on {glue:text}`llama31_405b_bf16_reference_gpus:,.0f` H100s).

# %% tags=["remove-input"]
display(Markdown(bands_table(R.tables["bands"], R["monte_carlo_draws_count"])))

# %% [markdown]
# ## The seed's claims, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("tco", R)))

# %% tags=["remove-cell"]
R.save()
