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
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
h100_allin_usd: float = 250000.0  # USD per server; a number from 1,000 to 3,000,000. H100 server all-in: with storage, networking and other items
h100_gpus_per_server: int = 8  # GPUs; an integer from 1 to 64. GPUs in one H100 (HGX) server
gb200_allin_usd: float = 3900000.0  # USD per rack; a number from 100,000 to 30,000,000. GB200 NVL72 rack all-in: with networking, storage and other items
gb200_gpus_per_rack: int = 72  # GPUs; an integer from 1 to 576. GPUs in one GB200 NVL72 rack
useful_life_years: float = 4.0  # years; a number from 1 to 10. Years over which capex is recovered
cost_of_capital: float = 0.1  # per year; a number from 0 to 0.5. Annual cost of capital (discount rate) for amortizing capex
utilization: float = 1.0  # fraction; a number from 0.05 to 1. Share of hours a GPU is in paid or productive use
h100_it_w_per_gpu: float = 1389.0  # W per GPU; a number from 100 to 10,000. All-in critical IT power per H100: chip, server share, network, storage
gb200_it_w_per_gpu: float = 1833.0  # W per GPU; a number from 100 to 5,000. All-in critical IT power per GB200 GPU in an NVL72 rack
pue: float = 1.25  # ratio; a number from 1 to 3. Power usage effectiveness: facility power / critical IT power
tariff_usd_per_kwh: float = 0.078  # USD/kWh; a number from 0 to 1. Electricity tariff
datacenter_usd_per_kw_month: float = 130.0  # USD per kW-month; a number from 0 to 1,000. Datacenter space and infrastructure per kW of critical IT, power excluded
maintenance_basis: str = 'parts'  # basis; one of: parts, support contract. How maintenance is paid: failed parts and labour, or a vendor's support contract
gpu_swap_share: float = 0.68  # fraction; a number from 0 to 1. Share of GPU faults that end in hardware swapped
gpu_share_of_server_price: float = 0.818  # fraction of the server price; a number from 0 to 1. A replacement GPU's price as a share of the server price per GPU
warranty_years: float = 3.0  # years; a number from 0 to 10. Years the OEM's warranty replaces failed parts at no charge
swap_person_hours: float = 4.0  # person-hours per swap; a number from 0 to 100. Technician time to swap one failed part
technician_usd_per_hour: float = 180.0  # USD per person-hour; a number from 0 to 2,000. Price of an hour of a datacenter technician
spares_restock_days: float = 30.0  # days; a number from 0 to 365. Days a failed part takes to be replaced in the spares pool
support_frac_per_year: float = 0.2  # fraction of the server price per year; a number from 0 to 1. A vendor's support contract a year, as a share of the server price
h100_server_usd: float = 190000.0  # USD per server; a number from 1,000 to 2,000,000. Price of one 8-GPU H100 server, typical hyperscaler
gb200_rack_usd: float = 3100000.0  # USD per rack; a number from 100,000 to 20,000,000. Price of one GB200 NVL72 rack, typical hyperscaler
gb200_gpu_fault_ratio: float = 1.0  # x; a number from 0.1 to 10. GB200 GPU, memory and host fault rate per GPU-hour relative to Llama 3's H100s
other_usd_per_gpu_month: float = 0.0  # USD per GPU-month; a number from 0 to 1,000. Other operating costs (insurance, software, monitoring, staff)
load_factor: float = 0.82  # fraction; a number from 0.05 to 1. Average draw as a fraction of rated facility power while training
local_gpu_hour_usd: float = 0.1  # USD per device-hour; a number from 0.0001 to 1,000. Price of one hour of the measured device (GPU or CPU machine)

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
# per token. It plots that speed-up against what GB200 costs to buy and to run.
#
# ```{glue:figure} fig_tco_breakeven
# :name: fig-tco-breakeven
# :alt: Three rising lines of the GB200 break-even speed-up against GB200 all-in capex per GPU, for lower, equal and higher GB200 opex, with a dot at this build's point and a dotted line at the report's ratio.
#
# The speed-up GB200 needs rises in a straight line with its capex per GPU. Its opex shifts the
# line up or down.
# ```
#
# Over the ranges drawn, GB200's purchase price moves the break-even much more than its running cost
# does. A discount on the rack is worth more to a GB200 buyer than a cut in its running costs.

# %% [markdown]
# Total cost of ownership per {term}`GPU-hour` is the capital charge from the {ref}`capex chapter
# <chapter-capex>` plus the running cost from the {ref}`opex chapter <chapter-opex>`. SemiAnalysis
# prices every H100 training token at its {term}`TCO` with no rental margin. It argues that GB200 {term}`NVL72`
# must be faster per GPU by its TCO ratio to be worth buying ({ref}`SemiAnalysis, 2025
# <src-sa_gb200_2025>`). The report does not publish its opex items or its cost of capital. This
# chapter therefore builds its own TCO from independent public sources. It sets that TCO against both
# of the report's numbers. It also prices every benchmark run per million tokens, and compares owning
# with renting.
# Every TCO here is per hour a GPU is used, at a utilization of {glue:text}`utilization_pct:.0f` % of
# its hours. Capital, space and maintenance are paid for every hour. At half the utilization, they
# cost twice as much per hour used. Electricity is counted at the average draw, the energy basis of
# every chapter. That draw is the rated power times the {glue:text}`load_factor_frac:.0%` a GPU draws
# while it trains. The datacenter rent is counted at the rated IT power. Rerun it with your own inputs:
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
# {glue:text}`h100_capex_share_of_tco_pct:.0f` % is capital. A GB200 GPU costs
# \${glue:text}`gb200_tco_usd_per_gpu_hour:.2f`. The ratio, {glue:text}`gb200_breakeven_speedup:.2f`x,
# is the speed-up per GPU that GB200 must deliver to match the H100's training work per TCO dollar.
# The report puts it at about {glue:text}`fact_A12_tco_ratio:.1f`x, and the book's lands
# {glue:text}`gb200_breakeven_speedup_vs_report_pct:+.0f` % from it. Both systems share every rate, so
# the ratio is set mostly by the capex ratio and the ratio of their watts. The capex ratio is
# {glue:text}`gb200_to_h100_capex_ratio:.2f`x, from the report's own prices. The ratio of their watts,
# {glue:text}`gb200_to_h100_it_w_ratio:.2f`x, drives the power and datacenter space costs. Maintenance, a small
# item, follows the price of the GPU that fails.

# %% [markdown]
# ### The book's estimate against the report's H100 basis
#
# Apart from SemiAnalysis's own prices and watts, every input above is sourced independently of
# the report. The datacenter is priced at CBRE's wholesale rents, and maintenance is built from the
# parts that fail. Both are built in the {ref}`opex chapter <chapter-opex>` and shown below.
# The last input is a {glue:text}`cost_of_capital_pct:.0f` % cost of capital over
# {glue:text}`useful_life_years:g` years.
# The {term}`cost of capital` is CoreWeave's effective rate on its unsecured 2030 notes. It lies between
# hyperscaler bond yields and CoreWeave's GPU-backed loans:

# %% tags=["remove-input"]
display(Markdown(opex_figures.anchors_table(R)))

# %% [markdown]
# On these inputs the H100 lands {glue:text}`h100_tco_vs_report_pct:+.0f` % from the report's
# \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f` per GPU-hour (A13). The report's basis is a check
# of the model here, not an input. After this build's opex, the report's basis leaves
# \${glue:text}`a13_h100_capex_usd_per_gpu_hour:.3f` per hour for capital. Free capital (straight-line
# depreciation plus opex) would cost \${glue:text}`h100_tco_at_zero_cost_of_capital_usd_per_gpu_hour:.2f`
# per hour. The table gives the
# cost of capital that would make the H100 cost \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f`.
# It gives that rate with this build's opex, and with the seed's unverifiable opex (S09) instead. With the
# seed's opex and a four-year life, it is the rate an earlier edition of this book used as its
# default. That default was calibrated to the report's basis. The book no longer does that.

# %% tags=["remove-input"]
display(Markdown(figures.a13_check_table(R)))

# %% [markdown]
# The report's basis fits a cheaper datacenter than a wholesale rent, a longer life or a cheaper
# cost of capital. Its text does not say which. Opex is
# {glue:text}`h100_opex_share_of_tco_pct:.0f` % of the book's H100 TCO. The uncertainty bands at the end
# of this chapter carry each input's range. Every cost below uses the book's TCO. The claims
# ledger lists each of the report's cost figures as a check of the model.
#
# ### Maintenance, built from the parts that fail
#
# The {ref}`opex chapter <chapter-opex>` builds maintenance from what fails and what it costs. It
# counts the GPUs swapped: Llama 3's GPU faults, of which Crusoe's share ends in a swap. A swapped GPU
# is priced at the GPU's share of the server price, and bought only after the OEM's warranty. The
# chapter adds the other parts, the technicians' hours and a spares pool.
# It comes to \${glue:text}`h100_maintenance_usd_per_gpu_hour:.3f` per H100-hour,
# {glue:text}`h100_maintenance_share_of_tco_pct:.1f` % of the TCO. The book's earlier default was
# {glue:text}`earlier_default_maintenance_pct_per_year:.1f` % of capex a year. It read every GPU and HBM3 fault
# of Llama 3 as a whole GPU replaced at its all-in price with no warranty. That made the H100 cost
# \${glue:text}`h100_tco_at_earlier_maintenance_usd_per_gpu_hour:.2f` per GPU-hour. With every maintenance
# component at the cheap or the dear end of its sourced range, the H100 costs
# \${glue:text}`h100_tco_at_maintenance_low_usd_per_gpu_hour:.2f` to
# \${glue:text}`h100_tco_at_maintenance_high_usd_per_gpu_hour:.2f`. With no warranty at all, it costs
# \${glue:text}`h100_tco_without_warranty_usd_per_gpu_hour:.2f`. On a vendor's support contract at list
# price, it costs \${glue:text}`h100_tco_with_support_contract_usd_per_gpu_hour:.2f`.
#
# ### SemiAnalysis's own owning costs
#
# SemiAnalysis now publishes the output of its AI Cloud TCO model in the open registry of its
# InferenceX dashboard ({ref}`SemiAnalysis, 2026 <src-semianalysis_inferencex_registry>`). It gives the cost
# of owning one GPU-hour at large-hyperscaler volume, a 3-year rental and the all-in power per GPU.
# Its values are dated to its July 2026 model. They are model values of the report's publisher, not
# transactions, and not an input here. The book sets its own TCO beside them. The registry owns an
# H100-hour for \${glue:text}`sa_registry_h100_owning_usd_per_gpu_hour:.2f`, and the book's TCO is
# {glue:text}`h100_tco_vs_sa_registry_pct:+.0f` % from it. Its GB200 NVL72 at
# \${glue:text}`sa_registry_gb200_owning_usd_per_gpu_hour:.2f` makes a GB200 / H100 ratio of
# {glue:text}`sa_registry_gb200_to_h100_owning_ratio:.2f`x. The book's ratio,
# {glue:text}`gb200_breakeven_speedup:.2f`x, is {glue:text}`gb200_breakeven_speedup_vs_sa_registry_pct:+.1f` %
# from it. The registry's all-in power per GPU is {glue:text}`sa_registry_h100_all_in_w_per_gpu:,.0f` W
# for the H100 and {glue:text}`sa_registry_gb200_all_in_w_per_gpu:,.0f` W for the GB200. It counts the
# chip and its share of the host and network. The book's IT power per GPU does the same (before the PUE).

# %% tags=["remove-input"]
display(Markdown(figures.owning_anchors_table(R)))
from analysis.page.notebook import offer_table

offer_table(R, "owning_anchors", R.tables["owning_anchors"], "SemiAnalysis's public owning costs and all-in power per GPU")

# %% [markdown]
# ## Dollars per million training tokens
#
# A benchmark's tokens per second per GPU turn the hourly TCO into a price per token.
# \$/1M tokens = TCO per GPU-hour / 3,600 / (tokens/s/GPU) x 10⁶. Where a publisher reports only
# {term}`MFU`, the FLOP accounting of the {ref}`cluster chapter <chapter-cluster>` converts it to tokens/s
# first. H100 rows use the H100 TCO and GB200 rows the GB200 TCO. Priced at the report's own
# \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f`, the same throughputs give the report's figures.
# That checks its throughput and FLOP arithmetic. At the book's TCO they land higher by the TCO gap:

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
# software. With December 2024 software, on the same H100s, it cost
# {glue:text}`gpt3_175b_fp8_cents_per_million_tokens:.1f`¢.
# Llama 3.1 405B in {term}`BF16` costs \${glue:text}`llama31_405b_bf16_usd_per_million_tokens:.2f` per million
# tokens, or \${glue:text}`llama31_405b_bf16_cost_15t_tokens_million_usd:.1f`M for {glue:text}`llama31_405b_train_trillion_tokens:.0f`T tokens.
# That is one clean pass at NVIDIA's benchmark speed, before any experiment, failure or restart. The
# {ref}`plan chapter <chapter-plan>` prices the run at Meta's measured speed with its failures. Every benchmark row:

# %% tags=["remove-input"]
offer_table(R, "usd_per_million_tokens_by_row", R.tables["usd_per_million_tokens_by_row"],
            "cost per 1M tokens for every benchmark row")
display(Markdown(figures.usd_per_million_tokens_table(R)))

# %% [markdown]
# ## The speed-up GB200 must deliver
#
# Performance per TCO dollar is throughput divided by TCO per GPU-hour. GB200 therefore beats the H100
# only if its per-GPU throughput exceeds the H100's by more than the TCO ratio. The ratio moves
# with what GB200 costs to buy and to run. {numref}`fig-tco-breakeven`, at the top of this chapter,
# holds the H100 at this build's TCO.

# %% [markdown]
# Change the server price, life, cost of capital, utilization, power, PUE and tariff below. Then watch the TCO, the cost per million tokens and GB200's break-even move.

# %% tags=["remove-input"]
from IPython.display import HTML

from analysis.page.whatif import whatif_panel

display(HTML(whatif_panel("tco")))

# %% [markdown]
# ## Owning against the market
#
# Owning at full use should cost clearly less than renting, because a renter also pays the
# provider's margin. The tables set the book's cost of owning (its TCO) beside what the market shows
# for the same GPU. They list SemiAnalysis's own owning costs, and one rental price per tier of the
# book's price ladder. Each row says whose price it is. For each rental, the renter's margin
# is price / TCO - 1. The column "owning costs less above" is the utilization at which the owner's
# cost per used hour equals that price. Every item of the TCO is paid for each hour owned. Owning
# therefore costs the TCO at full use divided by the utilization.

# %% tags=["remove-input"]
display(Markdown(figures.market_table(R, "h100")))
display(Markdown(figures.market_table(R, "gb200")))
offer_table(R, "market", R.tables["market"], "the book's TCO beside owners' costs and rental tiers")
glue_figure("fig_tco_market", figures.market(R))

# %% [markdown]
# At full use an H100 costs the book \${glue:text}`h100_tco_usd_per_gpu_hour:.2f` per GPU-hour to own.
# That is {glue:text}`h100_tco_vs_report_owner_pct:+.0f` % from the report's owner's
# \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f` and {glue:text}`h100_tco_vs_sa_registry_pct:+.0f` % from
# SemiAnalysis's registry. The registry's owning tier names capex, networking, colocation, power and
# the cost of capital but no maintenance. A 3-year rental at
# \${glue:text}`h100_3_year_rent_usd_per_gpu_hour:.2f` (SemiAnalysis) carries a
# {glue:text}`h100_3_year_renter_margin_pct:.0f` % margin over it. Owning costs less than that rental
# at any utilization above {glue:text}`h100_3_year_breakeven_utilization_pct:.0f` %. Against a 1-year
# contract at \${glue:text}`h100_1_year_rent_usd_per_gpu_hour:.2f`, owning costs less above
# {glue:text}`h100_1_year_breakeven_utilization_pct:.0f` %. Against Oracle's on-demand list price,
# \${glue:text}`h100_on_demand_rent_usd_per_gpu_hour:.2f`, it costs less above
# {glue:text}`h100_on_demand_breakeven_utilization_pct:.0f` %. A GB200 NVL72 GPU owned at
# \${glue:text}`gb200_tco_usd_per_gpu_hour:.2f` beats SemiAnalysis's 3-year rental,
# \${glue:text}`gb200_3_year_rent_usd_per_gpu_hour:.2f`, above
# {glue:text}`gb200_3_year_breakeven_utilization_pct:.0f` % utilization. {numref}`fig-tco-market` draws
# the two tables on one price scale.
#
# ```{glue:figure} fig_tco_market
# :name: fig-tco-market
# :alt: Two panels, H100 and GB200 NVL72, of dots on a logarithmic price axis: owners' costs in green and rental tiers in blue, each rental labelled with the utilization above which owning beats it, and a vertical line at the book's TCO.
#
# The book's cost of owning against SemiAnalysis's owners' costs and one rental price per tier.
# ```
#
# The book's owner pays more than SemiAnalysis's, and every rental tier costs more than either. The
# longer the commitment, the cheaper the rental and the higher the utilization owning needs to beat it.

# %% [markdown]
# ### Every dated rental price
#
# Cloud prices for an H100-hour have ranged widely since 2023. {numref}`fig-tco-rent-vs-own` sets
# each dated price, oldest first, against the book's TCO of owning. A price below the line means a
# provider with cheaper capital, older hardware already depreciated, or a price war.

# %% tags=["remove-input"]
glue_figure("fig_tco_rent_vs_own", figures.rent_vs_own(R))

# %% [markdown]
# ```{glue:figure} fig_tco_rent_vs_own
# :name: fig-tco-rent-vs-own
# :alt: Horizontal bars of H100 rental price ranges by date from 2023 to 2026, oldest at the top, each labelled with its provider and tier, against a vertical line at the book's TCO of owning.
#
# Rental prices fell from several times the cost of owning in 2023 to near it by late 2025.
# ```
#
# The range at one date is often as wide as the fall over the years. Which offer a renter takes
# therefore matters as much as when. The full register, every accelerator, opens below.

# %% tags=["remove-input"]
display(figures.rental_registry(R))
offer_table(R, "rental", R.tables["rental"], "every dated rental price, with its margin over the book's TCO")

# %% [markdown]
# ## How sure: P10, P50 and P90
#
# Prices, lives, rates and tariffs are not known exactly. Drawing them all within their ranges gives these bands for this chapter's headline numbers. The cost per token is for Llama 3.1 405B in BF16 on {glue:text}`llama31_405b_bf16_reference_gpus:,.0f` H100s. Maintenance makes {glue:text}`maintenance_share_of_h100_tco_band_pct:.0f` % of the H100 TCO's band. Holding its components at this build's values narrows the band from \${glue:text}`h100_tco_band_width_usd_per_gpu_hour:.2f` to \${glue:text}`h100_tco_band_width_without_maintenance_usd_per_gpu_hour:.2f` per GPU-hour.

# %% tags=["remove-input"]
display(Markdown(bands_table(R.tables["bands"], R["monte_carlo_draws_count"])))

# %% [markdown]
# ## The seed's claims, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("tco", R)))

# %% tags=["remove-cell"]
from analysis.page.notebook import save

save(R)
