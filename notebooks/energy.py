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
# (chapter-energy)=
# # Energy: joules per token, household-years and cluster power

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
h100_it_w_per_gpu: float = 1389.0  # W per GPU; a number from 100 to 10,000. All-in critical IT power per H100: chip, server share, network, storage
gb200_it_w_per_gpu: float = 1833.0  # W per GPU; a number from 100 to 5,000. All-in critical IT power per GB200 GPU in an NVL72 rack
pue: float = 1.25  # ratio; a number from 1 to 3. Power usage effectiveness: facility power / critical IT power
load_factor: float = 0.82  # fraction; a number from 0.05 to 1. Average draw as a fraction of rated facility power while training
household_kwh_per_year: float = 10791.0  # kWh per household-year; a number from 1,000 to 50,000. Electricity use of an average US household in a year
grid_g_co2_per_kwh: float = 366.0  # g CO2 per kWh; a number from 0 to 1,500. Carbon intensity of the grid that powers the training
local_power_w: float = 15.0  # W; a number from 0.1 to 100,000. Power the measured device draws while training, at the wall

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import energy as chapter
from analysis.figures import energy as figures
from analysis.page.notebook import bands_table, claims_table, comparison_table, glue_facts, glue_figure, publish, start
from analysis.page.tables import answer_from_results

P, upstream = start("energy", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
figures.glue_labels(R)

# %% tags=["remove-input"]
from analysis.page.notebook import glue_money

glue_money(R, "sa_example_annual_electricity_usd", "cluster_annual_electricity_usd",
           "cluster_annual_electricity_from_opex_usd", "cluster_annual_electricity_at_rated_draw_usd",
           "cluster_electricity_opex_minus_cluster_usd")

# %% tags=["remove-cell"]
glue_facts("A26_household_kwh", "A26_household_w", "A28_gpt3_fp8_j_per_token", "A28_gpt3_bf16_j_per_token",
           "A30_gpt3_fp8_household_years", "A30_gpt3_bf16_household_years", "A31_allin_w_per_gpu",
           "A37_405b_j_per_token", "A38_405b_15t_household_years", "A43_households_64", "A43_households_2048",
           "C01_w_per_gpu", "C02_w_per_gpu", "C05_pue_enterprise_colo", "C05_pue_ai_target", "C04_pue",
           "B03_datacenter_mw", "B04_annual_twh")

# %% tags=["remove-input"]
glue_figure("fig_energy_power_build_up", figures.power_build_up(R))

# %% [markdown]
# {numref}`fig-energy-power-build-up` splits one GPU's power into three parts: the chip, the rest of
# the IT load and the datacenter's overhead. It does so for two readings of the H100 and for GB200.
#
# ```{glue:figure} fig_energy_power_build_up
# :name: fig-energy-power-build-up
# :alt: Three horizontal stacked bars in watts per GPU, each split into GPU chip, rest of IT and facility overhead: H100 with SA's all-in IT build-up and the book's PUE, H100 with the server-only build-up and the larger overhead SA's figures then imply, and GB200 with its larger chip reaching well beyond both. A dashed line marks the meter power SemiAnalysis's figures imply and a dotted line one household's average draw.
#
# Where one GPU's watts go. The first two bars reach (nearly) the meter power SemiAnalysis's figures imply
# (dashed), by two different splits. The third is a GB200 GPU: a {glue:text}`gb200_chip_w:,.0f` W chip
# with {glue:text}`gb200_rest_of_it_w_per_gpu:,.0f` W of Grace CPU, NVLink switches, network and
# storage per GPU. That rest of the IT load is the book's derived value, since SA's GB200 power
# figures are behind its paywall. The dotted line is one average US household's draw.
# ```
#
# In every bar the chip is only part of what a GPU draws at the meter. Counting chip ratings
# alone, as Meta's model card does, leaves out much of the energy. A GB200 GPU draws more in all,
# which its higher throughput has to repay before it saves energy per token.

# %% [markdown]
# SemiAnalysis's 2025 benchmark report puts training energy in household terms. An average US
# household used {glue:text}`fact_A26_household_kwh:,.0f` kWh of electricity in 2022. Training
# GPT-3 175B on its {glue:text}`gpt3_175b_train_billion_tokens:.0f` billion tokens takes about
# {glue:text}`fact_A30_gpt3_fp8_household_years:.0f` such household-years in FP8
# ({ref}`SemiAnalysis, 2025 <src-sa_gb200_2025>`). The method is simple.
# Take the all-in power of each GPU's share of the cluster and gross it up for the datacenter's
# overhead. That is what the utility meter sees. Divide it by the tokens each GPU trains per second,
# and it is joules per token. The report prints neither its power per GPU nor its overhead.
# This chapter uses the book's one value for each. It checks them against what the report's own
# figures imply and applies them to every benchmark row in `data/`. It shows the range of household
# baselines and scales up to whole clusters of H100s and GB200s. Then it reconciles the cluster's
# electricity bill with the opex chapter's and turns the energy into carbon. Its arithmetic is
# `analysis.chapters.energy.compute`; its figures are drawn by `analysis.figures.energy`.
#
# **The basis.** Every energy figure in the book, here and in every chapter, is at the *average
# draw*. That is the rated power at the meter times the share of it a GPU draws while it trains.
# For measured H100 nodes that share is {glue:text}`load_factor_frac:.0%` (`load_factor`; Latif et al., 2024).
# Capacity, the megawatts a site must provide, stays at the rated power.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## From IT watts to the meter
#
# SemiAnalysis takes the all-in draw of the benchmark cluster: GPUs, CPUs, networking and storage.
# It grosses that up by "the PUE of a typical colocation datacenter" (A25). The book splits the same
# product into its two parameters, used in every chapter. The first is the critical IT power per GPU,
# {glue:text}`h100_it_w_per_gpu:,.0f` W per H100. It comes from SemiAnalysis's own DGX H100 build-up,
# with its share of storage, management and switches (C02). The second is one facility overhead,
# a {term}`PUE` of {glue:text}`pue:.2f`, IDC's average for public-cloud datacenters.
# SemiAnalysis cites AI-datacenter specifications that target a PUE under
# {glue:text}`fact_C05_pue_ai_target:.1f` (C05). Its own 2024 worked example uses
# {glue:text}`fact_C04_pue:.2f` (C04). The book's two parameters multiply to
# {glue:text}`h100_meter_w_per_gpu:,.0f` W per H100 at the meter, the rated power. While training, a
# node draws {glue:text}`load_factor_frac:.0%` of its rating on average. So an H100's average draw at
# the meter is {glue:text}`h100_average_meter_w_per_gpu:,.0f` W, the power every joule below is counted at.
#
# The report's energy figures give a check. The report has {glue:text}`sa_energy_figures_count:.0f`
# of them. They cover GPT-3 175B in FP8 and BF16, Llama 3 405B in BF16, and Llama 3 70B in FP8 at
# {glue:text}`llama31_70b_fp8_small_cluster_gpus:,.0f` and {glue:text}`llama31_70b_fp8_large_cluster_gpus:,.0f`
# GPUs. Multiplied back by the throughput it rests on, each gives the power per H100 at the
# meter. The results run from {glue:text}`sa_implied_h100_meter_low_w_per_gpu:,.0f` to
# {glue:text}`sa_implied_h100_meter_high_w_per_gpu:,.0f` W, one fixed number within rounding. That is
# {glue:text}`sa_implied_draw_vs_rated_ratio:.2f` times the book's *rated* meter power. SemiAnalysis
# counts the rated draw around the clock, at an overhead of {glue:text}`sa_implied_pue_ratio:.3f` over
# {glue:text}`h100_it_w_per_gpu:,.0f` W of IT. At the rated draw the book's joules per token would sit
# {glue:text}`j_per_token_at_rated_draw_vs_sa_pct:.1f` % from SemiAnalysis's. At the average draw
# measured while training they sit {glue:text}`j_per_token_vs_sa_pct:.1f` % from them. The ledger
# marks SemiAnalysis's energy figures as corrected.
# The benchmark rows marked SemiAnalysis in `data/benchmarks.csv` hold the MFU the report prints.
# Their tokens per second are derived from it with the book's FLOP accounting.
#
# The split is not unique. Over the {glue:text}`fact_C01_w_per_gpu:,.0f` W that the server alone
# draws (C01) the same meter power needs an overhead of {glue:text}`sa_implied_pue_over_c01_ratio:.2f`.
# Both sit below the {glue:text}`fact_C05_pue_enterprise_colo:.1f`-{glue:text}`fact_C05_pue_enterprise_colo_high:.1f`
# that SA's 2024 energy article gives for enterprise colocation. At that PUE the IT load would have
# to be only {glue:text}`h100_it_at_colo_pue_w_per_gpu:,.0f` W per GPU. Only the product matters for joules per
# token, so either parameter can be changed. {numref}`fig-energy-power-build-up` shows where the watts go.
# On average, one H100's share at the meter draws about as much as
# {glue:text}`h100_meter_in_households_ratio:.1f` average US households. Each household draws
# {glue:text}`household_w:,.0f` W, around the clock. One household-year is
# {glue:text}`household_j:,.0f` joules, the unit the household comparisons below divide by.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("h100_meter_w_per_gpu", "A31_allin_w_per_gpu"),
                                      ("household_w", "A26_household_w"), ("household_j", "A26_household_j")])))

# %% [markdown]
# ## Joules per trained token, for every benchmark row
#
# With the average meter power fixed, joules per token is that power divided by each row's tokens
# per second per GPU. The rows SemiAnalysis's figures rest on reproduce them. NVIDIA's own tables for
# the same models fill in the rest, and so do the GB200 NVL72 rows. These use NVIDIA's public dgxc
# v25.05 throughput, not SA's paywalled GB200 numbers. Llama 3.1 405B in BF16 is the book's reference
# run: NVIDIA's DGXC v25.02 row on {glue:text}`reference_run_gpus:,.0f` H100s. The same row is behind
# the book's cost per token and its uncertainty bands.
#
# GPT-3 175B takes {glue:text}`gpt3_175b_fp8_j_per_token:.2f` J per token in FP8 and
# {glue:text}`gpt3_175b_bf16_j_per_token:.2f` J in BF16 on SA's Dec 2024 software. The report, at the
# rated draw, gives {glue:text}`fact_A28_gpt3_fp8_j_per_token:.2f` and {glue:text}`fact_A28_gpt3_bf16_j_per_token:.2f`.
# Llama 3.1 405B in BF16 takes {glue:text}`llama31_405b_bf16_j_per_token:.2f` J (report:
# {glue:text}`fact_A37_405b_j_per_token:.1f`), {glue:text}`llama31_405b_vs_gpt3_175b_bf16_energy_ratio:.2f`
# times GPT-3's BF16 figure for {glue:text}`llama31_405b_vs_gpt3_175b_param_ratio:.2f` times the parameters.
# At the same MFU the ratio follows the model FLOPs per token,
# {glue:text}`llama31_405b_vs_gpt3_175b_flop_per_token_ratio:.2f` times GPT-3's. The extra is attention
# over {glue:text}`llama31_405b_seq_len_tokens:,.0f`-token sequences instead of
# {glue:text}`gpt3_175b_seq_len_tokens:,.0f`.
#
# Scaling Llama 3 70B in FP8 from {glue:text}`llama31_70b_fp8_small_cluster_gpus:,.0f` to
# {glue:text}`llama31_70b_fp8_large_cluster_gpus:,.0f` GPUs costs
# {glue:text}`llama31_70b_fp8_energy_increase_frac:.1%` more energy per token. MFU falls while
# the power per GPU does not. SA calls this "~{glue:text}`report_llama31_70b_fp8_energy_increase_pct:.0f` %", but its own household-years
# ({glue:text}`fact_A43_households_64:.0f` and {glue:text}`fact_A43_households_2048:.0f`) and MFUs give
# the smaller figure.
#
# GB200 NVL72 draws {glue:text}`gb200_vs_h100_meter_ratio:.2f` times the H100's power per GPU. But on
# NVIDIA's public numbers it trains {glue:text}`gb200_vs_h100_llama31_405b_bf16_throughput_ratio:.2f` times
# as many Llama 3.1 405B tokens per second per GPU in BF16. That is the benchmarks chapter's ratio, at
# each system's best published rate. On GB200 it is {glue:text}`gb200_llama31_405b_bf16_tokens_per_s_per_gpu:.0f`
# tokens per second per GPU. It takes {glue:text}`gb200_llama31_405b_bf16_j_per_token:.2f` J per token,
# {glue:text}`gb200_llama31_405b_bf16_energy_saving_pct:.0f` % less energy than an H100. That rests on
# the book's derived GB200 IT power and on NVIDIA's throughput, not on SemiAnalysis's paywalled GB200
# results.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gpt3_175b_fp8_j_per_token", "A28_gpt3_fp8_j_per_token"),
    ("gpt3_175b_bf16_j_per_token", "A28_gpt3_bf16_j_per_token"),
    ("llama31_405b_bf16_j_per_token", "A37_405b_j_per_token"),
    ("llama31_70b_fp8_64_gpus_j_per_token", "A43_j_per_token_64"),
    ("llama31_70b_fp8_2048_gpus_j_per_token", "A43_j_per_token_2048"),
    ("llama31_70b_fp8_energy_increase_frac", "A43_energy_increase")])))
from analysis.page.notebook import offer_table

offer_table(R, "joules_per_token", R.tables["joules_per_token"], "joules per token for every benchmark row")
glue_figure("fig_energy_joules_per_token", figures.joules_per_token(R))

# %% [markdown]
# {numref}`fig-energy-joules-per-token` plots joules per token against GPU count for every benchmark
# row, one panel per model.
#
# ```{glue:figure} fig_energy_joules_per_token
# :name: fig-energy-joules-per-token
# :alt: Six small panels, one per model (Llama 3.1 8B, 70B, GPT-3 175B, Llama 3.1 405B, Llama 4 Maverick, DeepSeek-V3), of joules per token against GPU count on a log axis, orange for BF16 and blue for FP8, circles for H100 and squares for GB200, with SemiAnalysis's points as hollow markers.
#
# Joules per token at the meter for all {glue:text}`benchmark_rows_with_energy_count:.0f` benchmark rows.
# FP8 always sits below BF16. Energy per token grows with model size and barely moves with GPU
# count. GB200 (squares) sits below H100 for the same model. The MoE models (Maverick,
# DeepSeek-V3) are cheap per token for their size because only their active parameters compute.
# ```
#
# So the energy of a token is settled mostly when the model, the data type and the GPU are chosen.
# Running the same job on a larger cluster hardly changes it.

# %% [markdown]
# ## Training runs in household-years
#
# A {term}`household-year` is {glue:text}`household_kwh_per_year:,.0f` kWh, SemiAnalysis's 2022 figure for an
# average US household and this chapter's default. That figure moves with the year and the source,
# and much more from state to state. The file `data/household_energy.csv` keeps the published
# values, each with its source.

# %% tags=["remove-input"]
display(Markdown(figures.households_table(R)))

# %% [markdown]
# The US averages span only {glue:text}`household_us_low_kwh_per_year:,.0f` to
# {glue:text}`household_us_high_kwh_per_year:,.0f` kWh, so the choice of year barely matters. The states span
# {glue:text}`household_state_low_kwh_per_year:,.0f` ({glue:text}`state_low_name`) to
# {glue:text}`household_state_high_kwh_per_year:,.0f` kWh ({glue:text}`state_high_name`), a factor of
# {glue:text}`household_state_spread_ratio:.1f`. Household-years below are given on the
# default basis with both ranges.
#
# One household-year trains {glue:text}`gpt3_175b_fp8_billion_tokens_per_household_year:.1f` billion GPT-3
# tokens in FP8. So GPT-3's {glue:text}`gpt3_175b_train_billion_tokens:.0f` billion tokens take
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens:.1f` household-years in FP8 and
# {glue:text}`gpt3_175b_bf16_household_years_300b_tokens:.1f` in BF16 at the average draw. The report,
# at the rated draw, gives {glue:text}`fact_A30_gpt3_fp8_household_years:.0f` and
# {glue:text}`fact_A30_gpt3_bf16_household_years:.0f`.
# On the US averages of {glue:text}`us_years` that is
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens_us_low:.1f` to
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens_us_high:.1f` in FP8. Counted in
# {glue:text}`state_high_name` or {glue:text}`state_low_name` households, it is
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens_state_low:.0f` to
# {glue:text}`gpt3_175b_fp8_household_years_300b_tokens_state_high:.0f`.
#
# Llama 3.1 405B on {glue:text}`llama31_405b_train_trillion_tokens:.0f` trillion tokens in BF16 takes
# {glue:text}`llama31_405b_bf16_household_years_15t_tokens:,.0f` household-years. On the US averages
# it takes {glue:text}`llama31_405b_bf16_household_years_15t_tokens_us_low:,.0f` to
# {glue:text}`llama31_405b_bf16_household_years_15t_tokens_us_high:,.0f`, and the report says
# "{glue:text}`fact_A38_405b_15t_household_years:,.0f`". Llama 3 70B in FP8 takes
# {glue:text}`llama31_70b_fp8_64_gpus_household_years_15t_tokens:.0f` household-years on
# {glue:text}`llama31_70b_fp8_small_cluster_gpus:,.0f` GPUs and
# {glue:text}`llama31_70b_fp8_2048_gpus_household_years_15t_tokens:.0f` on
# {glue:text}`llama31_70b_fp8_large_cluster_gpus:,.0f` (report:
# {glue:text}`fact_A43_households_64:.0f` and {glue:text}`fact_A43_households_2048:.0f`). These count one
# clean run at benchmark throughput, at the average draw. SA stresses that experiments and failed
# runs use far more.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gpt3_175b_fp8_tokens_per_household_year", "A29_fp8_tokens_per_household_year"),
    ("gpt3_175b_fp8_household_years_300b_tokens", "A30_gpt3_fp8_household_years"),
    ("gpt3_175b_bf16_household_years_300b_tokens", "A30_gpt3_bf16_household_years"),
    ("llama31_405b_bf16_tokens_per_household_year", "A38_405b_tokens_per_household_year"),
    ("llama31_405b_bf16_household_years_15t_tokens", "A38_405b_15t_household_years"),
    ("llama31_70b_fp8_64_gpus_household_years_15t_tokens", "A43_households_64"),
    ("llama31_70b_fp8_2048_gpus_household_years_15t_tokens", "A43_households_2048")])))
glue_figure("fig_energy_household_years", figures.household_years(R))

# %% [markdown]
# {numref}`fig-energy-household-years` counts each training run in household-years, with the range
# that the choice of household gives.
#
# ```{glue:figure} fig_energy_household_years
# :name: fig-energy-household-years
# :alt: Horizontal ranges on a logarithmic axis of household-years for training runs, from GPT-3 175B, the smallest, to Llama 3.1 405B, the largest, two orders of magnitude apart; each run has a narrow dark band for US averages, a wider light band for state averages, a black tick for the book's value and a red triangle for SemiAnalysis's figure where it gives one.
#
# One training run, counted in years of an average US household's electricity. The dark band
# spans the US averages of {glue:text}`us_years`, the light band the state averages
# ({glue:text}`state_high_name` to {glue:text}`state_low_name`). The
# book's values (ticks) sit next to SemiAnalysis's (triangles) wherever it gives one. The GB200 row uses
# NVIDIA's public throughput.
# ```
#
# The runs lie far apart on the log axis, and each run's bands are short by comparison. Counting in
# another state's households moves a run by a factor of at most
# {glue:text}`household_state_spread_ratio:.1f`. The choice of model and tokens moves it far
# more.

# %% [markdown]
# ## Cluster scale: H100 and GB200
#
# The {ref}`cluster chapter <chapter-cluster>` computes the power of its
# {glue:text}`cluster_gpus_count:,.0f`-H100 cluster with the same IT power per GPU and the same PUE.
# This chapter takes its figures as they are. The cluster needs {glue:text}`cluster_it_mw:.0f` MW of
# critical IT and {glue:text}`cluster_facility_mw:.0f` MW at the meter. That is the rated power, the
# capacity to provide, and comfortably more than the report's
# "over {glue:text}`fact_B03_datacenter_mw:.0f` MW". Drawing
# {glue:text}`cluster_average_facility_mw:.0f` MW on average, it uses
# {glue:text}`cluster_annual_energy_twh:.2f` TWh a year. That is as much electricity as
# {glue:text}`cluster_households_count:,.0f` average US households. The table below compares it with
# the 100k-cluster article's {glue:text}`fact_B04_annual_twh:.2f` TWh. The same number of GB200s, at
# {glue:text}`gb200_it_w_per_gpu:,.0f` W of IT per GPU, need {glue:text}`gb200_cluster_facility_mw:.0f` MW.
# At the same average draw they use {glue:text}`gb200_cluster_annual_energy_twh:.2f` TWh a year,
# {glue:text}`gb200_cluster_households_count:,.0f` households' worth. But each of their GPUs trains
# {glue:text}`gb200_vs_h100_llama31_405b_bf16_throughput_ratio:.1f` times as many Llama 3.1 405B tokens
# per second.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("cluster_facility_mw", "B03_datacenter_mw"),
                                      ("cluster_annual_energy_twh", "B04_annual_twh")])))

# %% [markdown]
# ## One power bill, two ways
#
# The cluster chapter states the cluster's electricity as a yearly bill,
# {glue:text}`cluster_annual_electricity_usd_money` at \${glue:text}`tariff_usd_per_kwh:.3f` per kWh. The
# {ref}`opex chapter <chapter-opex>` prices one H100's power per month, at \${glue:text}`opex_h100_power_usd_per_gpu_month:.2f`.
# Twelve months of that for each of the {glue:text}`cluster_gpus_count:,.0f` GPUs is
# {glue:text}`cluster_annual_electricity_from_opex_usd_money`, {glue:text}`cluster_electricity_opex_minus_cluster_usd_money`
# from the cluster chapter's bill. Both count the average draw, {glue:text}`load_factor_frac:.0%` of the
# rating, at the same PUE and tariff. Counted at the rated draw all year, as SemiAnalysis counts its
# bill (B05), the same cluster would pay
# {glue:text}`cluster_annual_electricity_at_rated_draw_usd_money`. The whole gap between the two bases is
# the load factor. The datacenter rent, priced per kW of critical IT, stays at the rating. Capacity is
# paid for whether it is drawn or not.

# %% [markdown]
# SemiAnalysis's 2024 energy article works one smaller example through. It is the only place where
# the article states a utilization, a PUE and a tariff (C03, C04). The same functions give its numbers.
# In it, {glue:text}`sa_example_gpus_count:,.0f` H100s at {glue:text}`h100_it_w_per_gpu:,.0f` W are
# {glue:text}`sa_example_it_mw:.1f` MW of critical IT. At {glue:text}`sa_example_utilization_frac:.0%`
# utilization and a PUE of {glue:text}`sa_example_pue:.2f` they draw {glue:text}`sa_example_grid_mw:.1f` MW
# from the grid. That is {glue:text}`sa_example_annual_mwh:,.0f` MWh a year, which at
# \${glue:text}`sa_example_tariff_usd_per_kwh:.3f` per kWh costs {glue:text}`sa_example_annual_electricity_usd_money`.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("sa_example_it_mw", "C03_critical_it_mw"), ("sa_example_grid_mw", "C04_grid_mw"),
                                      ("sa_example_annual_mwh", "C04_annual_mwh"),
                                      ("sa_example_annual_electricity_usd", "C04_annual_cost_usd")])))

# %% [markdown]
# ## Carbon
#
# Turning energy into emissions takes one more parameter: the carbon intensity of the grid. By default
# it is {glue:text}`grid_g_co2_per_kwh:.0f` g CO2 per kWh, the average of US generation in 2023
# ({ref}`EIA <src-eia_co2_2023>`). It is a location-based figure: a lab that buys matched
# renewable power reports a lower market-based one. The Llama 3.1 model card
# ({ref}`Meta, 2024 <src-meta_llama31_card>`) publishes both for its own training, which gives a
# check.

# %% tags=["remove-input"]
display(Markdown(figures.model_card_table(R)))

# %% [markdown]
# One clean {glue:text}`llama31_405b_train_trillion_tokens:.0f`-trillion-token BF16 run of Llama 3.1 405B
# draws {glue:text}`llama31_405b_bf16_energy_15t_tokens_gwh:.1f` GWh at the meter. At
# {glue:text}`grid_g_co2_per_kwh:.0f` g/kWh it emits about
# {glue:text}`llama31_405b_bf16_emissions_15t_tokens_tco2:,.0f` t of CO2.
#
# Meta's card counts the run differently: {glue:text}`llama31_405b_card_gpu_hours:,.0f` H100-hours at
# {glue:text}`llama31_405b_card_w_per_gpu:.0f` W. That wattage is the GPU's TDP, which the card calls its
# power "adjusted for power usage efficiency". Its count comes to
# {glue:text}`llama31_405b_card_energy_gwh:.1f` GWh. At the US-average grid that is
# {glue:text}`llama31_405b_card_emissions_at_grid_tco2:,.0f` t, against the card's
# {glue:text}`llama31_405b_card_location_tco2:,.0f` t location-based (and
# {glue:text}`llama31_405b_card_market_tco2:.0f` t market-based). The card implies
# {glue:text}`llama31_405b_card_implied_grid_g_co2_per_kwh:.0f` g/kWh. That is presumably the mix of the
# grids around Meta's datacenters rather than the national average. Two differences pull in opposite
# directions. Meta's GPU-hours are {glue:text}`llama31_405b_card_vs_benchmark_gpu_hours_ratio:.1f` times the
# {glue:text}`llama31_405b_bf16_15t_tokens_gpu_hours:,.0f` that
# {glue:text}`llama31_405b_train_trillion_tokens:.0f` trillion tokens take at the reference throughput.
# Its production pre-training ran at {glue:text}`meta_llama3_pretraining_mfu_pct:.0f` % BF16 MFU (A33),
# against the reference's {glue:text}`llama31_405b_bf16_reference_mfu_pct:.0f` %. Its total also covers
# all of the model's training, not one clean pass over the tokens. Meanwhile
# {glue:text}`llama31_405b_card_w_per_gpu:.0f` W per GPU leaves out the host, network, storage and
# cooling. This chapter's {glue:text}`h100_meter_w_per_gpu:,.0f` W include them,
# {glue:text}`h100_meter_vs_card_power_ratio:.1f` times as much. With both, Meta's GPU-hours at this
# chapter's meter power come to {glue:text}`llama31_405b_card_emissions_at_meter_tco2:,.0f` t. The
# {ref}`plan chapter <chapter-plan>` plans the run itself, at Meta's measured speed with its failures.
# It sets that run's energy on both bases, beside this clean pass and Meta's card.

# %% [markdown]
# ## How sure: P10, P50 and P90
#
# IT power, facility overhead, throughput and the household basis all carry ranges. Drawn together,
# they give these bands for Llama 3.1 405B in BF16. The point estimates are the ones above: the
# band and the prose use the same reference run.

# %% tags=["remove-input"]
display(Markdown(bands_table(R.tables["bands"], R["monte_carlo_draws_count"])))

# %% [markdown]
# ## The seed's claims, checked
#
# The summary this book started from says two things. First, SemiAnalysis compares training energy
# with US household use. Second, training GPT-175B uses the yearly electricity of several households.
# Both are set against the original text and this chapter's results. The build fails if a reproduced
# claim drifts out of its tolerance.

# %% tags=["remove-input"]
display(Markdown(claims_table("energy", R)))

# %% tags=["remove-cell"]
from analysis.page.notebook import save

save(R)
