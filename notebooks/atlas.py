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
# (chapter-atlas)=
# # Accelerator atlas

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
mfu_check_tolerance: float = 0.01  # fraction; a number from 0.0001 to 1. Relative tolerance for reproducing a printed MFU from its printed tokens/s/GPU
h100_it_w_per_gpu: float = 1389.0  # W per GPU; a number from 100 to 10,000. All-in critical IT power per H100: chip, server share, network, storage
gb200_it_w_per_gpu: float = 1833.0  # W per GPU; a number from 100 to 5,000. All-in critical IT power per GB200 GPU in an NVL72 rack
pue: float = 1.25  # ratio; a number from 1 to 3. Power usage effectiveness: facility power / critical IT power
load_factor: float = 0.82  # fraction; a number from 0.05 to 1. Average draw as a fraction of rated facility power while training

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import atlas as chapter
from analysis.figures import atlas as figures
from analysis.page.notebook import glue_figure, publish, save, show_table, start
from analysis.page.tables import answer_from_results

P, upstream = start("atlas", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
figures.glue_prose(R)

# %% tags=["remove-input"]
glue_figure("fig_atlas_mfu", figures.mfu_figure(R))

# %% [markdown]
# {numref}`fig-atlas-mfu` sets the MFU of each accelerator's Llama 3.1 70B and 405B rows side by
# side. Every row is counted the same way.
#
# ```{glue:figure} fig_atlas_mfu
# :name: fig-atlas-mfu
# :alt: Horizontal bars of MFU in percent for Llama 3.1 70B and 405B on GB300, GB200, B200, H100, Ironwood and TPU v6e, coloured by vendor, each with a tick showing the MFU the publisher's own FLOP count would give.
#
# {term}`MFU` for the latest release of each Llama 3.1 70B and 405B row. It uses the book's FLOP count
# and the registry's dense peak. Ticks mark what the publisher's own count would give for the same
# throughput. That is a few points lower for NVIDIA and Ironwood, which count causal attention as half.
# FP8 rows divide by the FP8 peak, twice the BF16 one, so they show lower MFU at higher throughput.
# ```
#
# Compare chips on the bars, which share one FLOP count, not on the ticks. Even then a high MFU is
# not a cheap token. It says how well a chip uses its own peak. So the rest of this chapter sets the
# chips side by side on work per joule and per dollar.

# %% [markdown]
# The rest of this book compares H100 with GB200 NVL72. Public tables now give training throughput
# for many more accelerators. NVIDIA's Megatron-Bridge performance summary covers GB300, GB200, B200
# and H100 across its container releases. Google's MaxText and tpu-recipes tables cover TPU v5p, v6e
# (Trillium) and Ironwood. AMD's MLPerf Training v5.1 logs cover the MI355X. The registry holds
# {glue:text}`atlas_accelerators_count:.0f` accelerators from {glue:text}`atlas_vendors_count:.0f`
# vendors. Of these, {glue:text}`atlas_measured_accelerators_count:.0f` have measured training rows
# here, {glue:text}`atlas_rows_count:.0f` in all. Vendors count FLOPs differently, so the MFUs they
# print cannot be set side by side. This chapter takes each row's throughput and recounts its FLOPs
# under the book's convention (6N + 12Lhs, {ref}`the benchmarks chapter <chapter-benchmarks>`). It
# then divides by the registry's {term}`dense peak`, prices the tokens and turns them into joules.
# Its arithmetic is `analysis.atlas` and `analysis.chapters.atlas.compute`. The figures are drawn by
# `analysis.figures.atlas`.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## Which accelerators, and how their peaks are read
#
# Every peak in the registry is dense. NVIDIA and AMD headline 2:4 structured-sparsity figures,
# exactly twice the dense ones. Secondary spec pages mix the two. One lists the MI300X's FP8
# 2,614.9 TFLOP/s as "sparse" while another lists its FP16 2,615 as "dense". The MI355X's FP8
# "five petaflops" appears on a third as a sparse figure. TPUs have no sparsity mode. A test checks
# that every dense peak sits below the vendor's sparse figure wherever `data/accelerators.csv`
# records one. It also checks that the registry's dense peaks are half of NVIDIA's and AMD's sparse
# headlines. AMD's dense peaks come from AMD's own documents. For CDNA 3 (MI300X and MI325X) these
# are the ROCm documentation's per-clock rates per compute unit and its compute-unit counts. For the
# MI355X it is AMD's MXFP4 figure, and its FP8 and BF16 peaks are halved from that. The MI325X's
# bandwidth and power and the MI355X's board power are still read from secondary pages. The file
# `data/gpus.csv` says so row by row. Google and AWS publish no chip power for TPUs or Trainium2.
# Google's v5p documentation gives the size of its scale-up domain:
# {glue:text}`atlas_tpu_v5p_pod_chips_count:,.0f` chips in a pod, built of cubes of
# {glue:text}`atlas_tpu_v5p_cube_chips_count:.0f` chips. The last two columns give each measured
# accelerator's joules per PFLOP and dollars per EFLOP of model work. The next section defines
# both. They are on the model the accelerator's row ran, named in the column before. Where either
# is missing, the column says why.

# %% tags=["remove-input"]
show_table(R, figures.registry_table(R))

# %% [markdown]
# ## One FLOP count
#
# Megatron-Bridge's "Model TFLOP/sec/GPU" and the tpu-recipes tables count causal attention as half
# the book's 12Lhs. At 8,192 tokens that puts their FLOPs per token at
# {glue:text}`atlas_llama31_70b_causal_over_full_flops_ratio_pct:.1f` % of the book's for Llama 3.1 70B.
# It is {glue:text}`atlas_llama31_405b_causal_over_full_flops_ratio_pct:.1f` % for 405B and
# {glue:text}`atlas_llama31_8b_causal_over_full_flops_ratio_pct:.1f` % for 8B. MaxText's tiering
# page still prints MFUs from before its PR #1988, with full attention, and says so in a footnote.
# {glue:text}`atlas_rows_printing_flops_count:.0f` rows print a TFLOP/s or an MFU. The book
# reproduces {glue:text}`atlas_rows_reproduced_count:.0f` of them from their throughput under one of
# the two counts. Each is reproduced under the count the row records. For DeepSeek-V3 both NVIDIA and
# Google print {glue:text}`atlas_moe_printed_vs_book_min_ratio_pct:.0f` % to
# {glue:text}`atlas_moe_printed_vs_book_max_ratio_pct:.0f` % of the book's FLOPs per token.
# DeepSeek-V3's MLA attention has head dimensions the 12Lhs term does not see. One MaxText row
# (Llama 3.1 405B on v6e) is reproduced by neither count. Those rows are labelled so, and a test
# fails if a label stops matching the arithmetic.

# %% [markdown]
# ## MFU, model work, joules and dollars per accelerator
#
# The table has one row per measured accelerator. It is the accelerator's Llama 3.1 70B row where it
# has one, else 405B, 8B or a MoE. Each is at the latest release and the faster precision. The rows
# therefore run {glue:text}`atlas_summary_models_count:.0f` different models, and a token of one is
# not a token of another. A Llama 3.1 405B token takes about five times the FLOPs of a 70B one. An 8B
# token takes a ninth. So every column that sets accelerators side by side is per unit of model
# work, one basis for every row. The first is model TFLOP/s per device: tokens per second times the
# book's FLOPs per token. The others are joules per PFLOP and dollars per EFLOP of those FLOPs. Each
# row names its model. The MI355X appears only on Llama 3.1 8B, from an 8-GPU MLPerf run at a global
# batch of 32. NVIDIA's 8B rows run a batch of 128. So even per FLOP the comparison is close but not
# exact: a small model keeps fewer FLOPs per byte. Each MFU is against the registry's dense peak of
# the row's own precision, which the column names. An FP8 row is set against the FP8 peak, twice the
# BF16 one. A row above 100 % of that peak, or of the peak its publisher divides by, stops the build.
# The error names the row.
#
# Joules take all-in IT watts per device times the {term}`PUE` ({glue:text}`atlas_pue:.2f`). For
# GPUs the watts are the chip's TDP plus the rest of the reference build-up of the same system kind.
# The references are the H100's {glue:text}`atlas_h100_it_w_per_device:,.0f` W for 8-GPU servers and
# the GB200's {glue:text}`atlas_gb200_it_w_per_device:,.0f` W for NVL72 racks. For every chip but
# those two, this is an assumption. For Ironwood the watts are 10 MW per 9,216-chip pod, as Google
# gave it at Hot Chips 2025. Google publishes no power for the v6e or the v5p, per chip or per pod.
# Its Ironwood announcement charts peak FLOP/s per watt for each generation against TPU v2. Epoch
# AI's hardware database reads that chart as 14.6x for the v6e, 5.2x for the v5p and 29.3x for
# Ironwood. Ironwood's ratio is at its FP8 peak. The v6e and v5p watts are Ironwood's, moved by peak
# and by that ratio. This is a secondary reading of a chart, marked so in `data/accelerators.csv`. It
# also rests on an assumption that the rest of the pod scales with the chip. The first version of
# this chapter took Google's "2x over Trillium" at Ironwood's BF16 peak. That doubled the v6e's
# watts. The chart puts Ironwood at FP8. Dollars use the list tiers of the price ladder in
# `data/cloud_prices.csv`, latest year. The list tiers are on-demand, neocloud list and market
# ranges: what a buyer pays without a commitment. Each cell names its tiers. The H100 is at
# {glue:text}`atlas_h100_usd_per_device_hour_central:.2f` US$ an hour (central, within the 2026
# range, Oracle's on-demand list included). The B200 and GB200 sit between neocloud quotes and
# Oracle's list. The v6e and v5p are at Google's on-demand list prices across its regions, as
# SkyPilot's catalog reads them from Google's billing catalog. Ironwood is at Google's on-demand
# price, as a cost research repository transcribed Google's TPU price page on 2026-07-15. The GB300
# and the MI355X are priced from the providers' own lists, read through public copies. Oracle's
# price list gives both an on-demand price per GPU-hour. Vultr's plan list gives an 8-GPU MI355X
# server by the month, so the MI355X spans a neocloud and a hyperscaler. Oracle is the one list
# found with a GB300 price. The same Blackwell Ultra GPU in 8-GPU servers rents for
# {glue:text}`atlas_gb300_nvl72_stand_in_usd_per_device_hour_low:.2f` to
# {glue:text}`atlas_gb300_nvl72_stand_in_usd_per_device_hour_high:.2f` US$ on neoclouds. The table
# keeps that as a stand-in but no longer uses it, since CoreWeave and Nebius ask GB300 buyers to
# contact sales. {glue:text}`atlas_measured_with_price_count:.0f`
# of the {glue:text}`atlas_measured_accelerators_count:.0f` measured accelerators have a price
# ({glue:text}`atlas_measured_with_proxy_price_count:.0f` of them only a stand-in's). The tiers
# spread widely. Ironwood runs from {glue:text}`atlas_tpu7x_ironwood_dearest_usd_per_device_hour:.2f`
# US$ an hour on demand to {glue:text}`atlas_tpu7x_ironwood_cheapest_usd_per_device_hour:.2f` US$ at
# SemiAnalysis's modelled cost of owning, {glue:text}`atlas_tpu7x_ironwood_tier_spread_ratio:.1f`
# times. The next-to-last column gives each accelerator's spread, and the
# {ref}`MLPerf chapter <chapter-mlperf>` the whole ladder. As a second view, the last column gives
# the hourly price at which each would match the H100's cost per token. It compares on the same
# model and precision, where the H100 has that row. So a reader with a quote can place it.

# %% tags=["remove-input"]
show_table(R, figures.summary_table(R))
from analysis.page.notebook import offer_table

offer_table(R, "atlas_summary", R.tables["summary"], "MFU, model TFLOP/s, J per PFLOP and $ per EFLOP per accelerator")

# %% [markdown]
# Three rows run the same model and precision, Llama 3.1 70B in FP8, so they compare per token too.
# A GB300 GPU trains {glue:text}`atlas_gb300_nvl72_tokens_per_s_per_device:,.0f` tokens per second at
# {glue:text}`atlas_gb300_nvl72_mfu_frac_pct:.1f` % MFU. An Ironwood chip trains
# {glue:text}`atlas_tpu7x_ironwood_tokens_per_s_per_device:,.0f` at
# {glue:text}`atlas_tpu7x_ironwood_mfu_frac_pct:.1f` %, and an H100
# {glue:text}`atlas_h100_sxm_tokens_per_s_per_device:,.0f` at
# {glue:text}`atlas_h100_sxm_mfu_frac_pct:.1f` %. Each is set against its own FP8 dense peak. Per
# PFLOP of model work that is {glue:text}`atlas_gb300_nvl72_j_per_pflop:,.0f` J,
# {glue:text}`atlas_tpu7x_ironwood_j_per_pflop:,.0f` J and {glue:text}`atlas_h100_sxm_j_per_pflop:,.0f` J
# at the meter. A GB300 GPU would match the H100's cost per token at
# {glue:text}`atlas_gb300_nvl72_breakeven_usd_per_device_hour:.2f` US$ an hour and an Ironwood chip at
# {glue:text}`atlas_tpu7x_ironwood_breakeven_usd_per_device_hour:.2f` US$.

# %% tags=["remove-input"]
glue_figure("fig_atlas_energy", figures.energy_figure(R))

# %% [markdown]
# {numref}`fig-atlas-energy` turns the same rows into energy: joules at the meter per PFLOP of model
# work.
#
# ```{glue:figure} fig_atlas_energy
# :name: fig-atlas-energy
# :alt: Horizontal bars of joules per PFLOP of model work at the meter for the same Llama 3.1 70B and 405B rows as the MFU figure, coloured by vendor, each labelled with its value.
#
# Joules at the meter per PFLOP of model work, for the same rows as the MFU figure. This is one basis
# for 70B and 405B rows alike. Energy per unit of work follows power per device over model FLOP/s.
# An NVL72 GPU draws more than an H100's share of its server but does about three times the work.
# An Ironwood chip, on Google's pod figure, draws less and does more still. Every value but the
# H100's and GB200's rests on the TDP-swap assumption or on Google's pod figure, as described above.
# For the v6e and v5p, that figure is moved by Google's chart of performance per watt as Epoch AI
# reads it.
# ```
#
# The H100 bars are the longest: each newer accelerator does more model work per joule at the meter.
# Only the H100's and GB200's bars rest on a full power build-up. So read the order of the others as
# an estimate, not a ranking.

# %% [markdown]
# ## Every row
#
# Each row is shown with its own throughput and the book's MFU. It also gives the FLOP count its
# publisher used and the ratio of the publisher's FLOPs per token to the book's.

# %% tags=["remove-input"]
show_table(R, figures.rows_table(R))
offer_table(R, "atlas_rows", R.tables["rows"], "every atlas row under the book's FLOP count")

# %% [markdown]
# ## Software gains, kept apart from changes in counting
#
# Every device is shown at the newest release that publishes it. The
# {ref}`software chapter <chapter-software>` sets each release beside the one before.
#
# On the same chip, model and precision, tokens per second measure the software. Printed TFLOP/s
# measure the software and the FLOP count together. Across NVIDIA's 25.09, 25.11, 26.02 and
# 26.04.01 containers the two move together for the Llama rows. They agree within the rounding of
# 26.04.01's tokens/s, printed as multiples of 16. So the count did not change. GB300 on
# Llama 3.1 70B gained {glue:text}`atlas_gb300_nvl72_llama31_70b_fp8_release_gain_frac_pct:.1f` %,
# H100 on 70B only {glue:text}`atlas_h100_sxm_llama31_70b_fp8_release_gain_frac_pct:.1f` %. For
# DeepSeek-V3 they part. On GB200 the printed TFLOP/s rose
# {glue:text}`atlas_gb200_nvl72_deepseek_v3_fp8_printed_gain_frac_pct:.1f` % while throughput changed
# {glue:text}`atlas_gb200_nvl72_deepseek_v3_fp8_release_gain_frac_pct:.1f` %. On GB300 the printed
# figure rose {glue:text}`atlas_gb300_nvl72_deepseek_v3_fp8_printed_gain_frac_pct:.1f` % for a
# {glue:text}`atlas_gb300_nvl72_deepseek_v3_fp8_release_gain_frac_pct:.1f` % throughput gain. NVIDIA
# started counting more FLOPs per DeepSeek-V3 token in 26.02. Some releases also change the layout
# or the cluster size (the table shows the GPU counts). The opposite happened at MaxText. Its
# PR #1988 halved causal attention. The same v6e throughput on Llama 3.1 70B prints
# {glue:text}`atlas_v6e_llama31_70b_mfu_printed_pct:.2f` % MFU on the tiering page. Under the new
# count it would print {glue:text}`atlas_v6e_llama31_70b_mfu_causal_count_pct:.2f` %,
# {glue:text}`atlas_v6e_pr1988_drop_points:.1f` points lower without a token more or less.

# %% tags=["remove-input"]
show_table(R, figures.gains_table(R))

# %% [markdown]
# ## What is missing
#
# AMD's MI300X and MI325X have MLPerf results only for Llama 2 70B LoRA fine-tuning. Fine-tuning's
# FLOPs per token are not those of pre-training. AMD's own ROCm training tables could not be read
# for this book. H200 and Trainium2 have no public pre-training throughput table here. They stay
# specs only. Ironwood's price is Google's on-demand list as transcribed by a third party, not read
# on Google's own page. The v5p's and v6e's joules per PFLOP rest on a secondary reading of
# Google's chart, not on a published power figure. A test fails if a measured
# accelerator loses its price or its joules per PFLOP without being added to this list.

# %% tags=["remove-input"]
save(R)
