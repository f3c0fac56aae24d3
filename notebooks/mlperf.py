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
# (chapter-mlperf)=
# # MLPerf Training, priced

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
h100_it_w_per_gpu: float = 1389.0  # W per GPU; a number from 100 to 10,000. All-in critical IT power per H100: chip, server share, network, storage
gb200_it_w_per_gpu: float = 1833.0  # W per GPU; a number from 100 to 5,000. All-in critical IT power per GB200 GPU in an NVL72 rack
pue: float = 1.25  # ratio; a number from 1 to 3. Power usage effectiveness: facility power / critical IT power
load_factor: float = 0.82  # fraction; a number from 0.05 to 1. Average draw as a fraction of rated facility power while training

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import mlperf as chapter
from analysis.figures import mlperf as figures
from analysis.page.notebook import glue_figure, publish, save, show_table, start
from analysis.page.tables import answer_from_results

P, upstream = start("mlperf", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE,
                                     labels=figures.answer_labels(R))))
figures.glue_prose(R)

# %% [markdown]
# **If the GPUs are paid only for the minutes MLPerf times**, its fastest Llama 3.1 405B result of
# v5.1 ({glue:text}`mlperf_405b_fastest_accelerators:,.0f` GB200 GPUs,
# {glue:text}`mlperf_405b_fastest_minutes:.1f` minutes) took
# {glue:text}`mlperf_405b_fastest_gpu_hours:,.0f` GPU-hours: about
# {glue:text}`mlperf_405b_fastest_usd_on_demand:,.0f` US$ at an on-demand list price, and
# {glue:text}`mlperf_405b_fastest_usd_sa_owning:,.0f` US$ at SemiAnalysis's modelled cost of owning
# the same GPUs. The tier moves the bill more than the hardware does.
#
# MLPerf Training is the one public benchmark in which every vendor trains the same model to the same
# quality target. It reports minutes only. This chapter reads every LLM result of MLPerf Training
# v4.0 to v5.1 from mlcommons' result logs, {glue:text}`mlperf_results_count:.0f` results from
# {glue:text}`mlperf_submitters_count:.0f` submitters on {glue:text}`mlperf_benchmarks_count:.0f`
# benchmarks, and turns each into GPU-hours to the target, dollars at each tier of a dated price
# ladder and megawatt-hours. Its arithmetic is `analysis.mlperf` and `analysis.chapters.mlperf.compute`;
# the table is rebuilt from the logs by `python -m analysis.data.mlperf_logs`, and the book reads the
# committed CSV.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## Scored by MLPerf's own rule
#
# Each result is a set of runs, one log each. A run's time is `run_stop` minus `run_start`. The
# training rules drop the fastest and the slowest run and average the rest: an olympic mean over 3
# runs for GPT-3 175B and Llama 3.1 405B, and over 10 for Llama 3.1 8B and Llama 2 70B LoRA. A run
# that did not converge counts as the slowest; more than one makes the result invalid. Where the
# review committee scaled a score (a submission that converged in fewer samples than the reference),
# the factor in its `scaling.json` multiplies it, as mlcommons' own summarizer does: that is the case
# for {glue:text}`mlperf_scaled_results_count:.0f` results. One published log has a line a
# search-and-replace broke; it is not a line the score reads, so it is skipped and recorded. The
# rebuild stops with the file and line on any other malformed line.
#
# Round v6.0 (June 2026, with DeepSeek-V3 and GPT-OSS) is missing: no copy of its results
# repository could be read for this book, so {glue:text}`mlperf_rounds_read_count:.0f` of the
# {glue:text}`mlperf_rounds_published_count:.0f` rounds are here. Two results of v4.1 and v5.1 are
# missing too, because their logs are over the size the snapshot copied.

# %% [markdown]
# ## One result at every price tier
#
# A GPU-hour has no single price. `data/cloud_prices.csv` now says which tier each price is, when it
# was read and what kind of evidence it is: a provider's own page, a dated transcription of one, a
# model value or an aggregator. At the on-demand tier a GB200 GPU-hour costs
# {glue:text}`mlperf_gb200_usd_per_gpu_hour_on_demand:.2f` US$ (Oracle's list), on a 3-year commitment
# {glue:text}`mlperf_gb200_usd_per_gpu_hour_3_year:.2f` US$ and owned
# {glue:text}`mlperf_gb200_usd_per_gpu_hour_sa_owning:.2f` US$ (both SemiAnalysis's model) or
# {glue:text}`mlperf_gb200_usd_per_gpu_hour_book_tco:.2f` US$ (the book's TCO chapter).

# %% tags=["remove-input"]
display(Markdown(figures.headline_table(R)))

# %% [markdown]
# ## Scaling: GPU-hours against system size
#
# Perfect strong scaling keeps GPU-hours flat as the system grows. On GB200 in v5.1, Llama 3.1 405B
# took {glue:text}`mlperf_405b_gb200_v5_1_gpu_hours_512:,.0f` GPU-hours on 512 GPUs,
# {glue:text}`mlperf_405b_gb200_v5_1_gpu_hours_2560:,.0f` on 2,560 and
# {glue:text}`mlperf_405b_gb200_v5_1_gpu_hours_5120:,.0f` on 5,120: the doubling from 2,560 to
# 5,120 ran at {glue:text}`mlperf_405b_gb200_v5_1_efficiency_2560_5120_pct:.0f` % efficiency (GPU-hours
# before over after). Across all {glue:text}`mlperf_scaling_steps_count:.0f` steps up in size with
# the same accelerator in the same round, the median doubling runs at
# {glue:text}`mlperf_scaling_efficiency_per_doubling_median_pct:.0f` %. Larger systems also run
# larger batches, which need more samples to converge, so part of each loss is the benchmark's
# convergence, not the network.
# {numref}`fig-mlperf-scaling` draws these steps for Llama 3.1 405B, one line per accelerator and
# round.

# %% tags=["remove-input"]
glue_figure("fig_mlperf_scaling", figures.scaling_figure(R))

# %% [markdown]
# ```{glue:figure} fig_mlperf_scaling
# :name: fig-mlperf-scaling
# :alt: Lines of GPU-hours to reach the Llama 3.1 405B target against the number of accelerators on a log scale, one line per accelerator and round: H100, H200, GB200, B200 and GB300, rising gently with size.
#
# GPU-hours to reach the Llama 3.1 405B target, the fastest result at each size, one line per
# accelerator and round. Flat lines would be perfect scaling; the rise is the cost of each doubling.
# Newer software in v5.1 moved GB200 down by more than any change of size did, which is why the
# rounds are drawn apart.
# ```
#
# The lines rise with size: finishing sooner on a bigger system takes more GPU-hours, so at any one
# price per GPU-hour the fastest result is not the cheapest.

# %% [markdown]
# The table gives every step for the pretraining benchmarks, with the software and the submitter at
# each end, so that a software gain is not read as a scaling effect.

# %% tags=["remove-input"]
display(figures.scaling_table(R))

# %% [markdown]
# ## Vendors side by side
#
# Where two vendors ran the same benchmark at the same size in the same round,
# {glue:text}`mlperf_cross_vendor_rows_count:.0f` results in all, each accelerator's fastest is
# priced at its own list tier (the tier is named, since a neocloud list and a hyperscaler's on-demand
# price are not the same market) and its energy at the all-in power of the
# {ref}`atlas <chapter-atlas>` times a PUE of {glue:text}`mlperf_pue:.2f`.

# %% tags=["remove-input"]
display(figures.cross_vendor_table(R))

# %% [markdown]
# ## Energy, and what MLPerf Power measured
#
# The fastest 405B result drew about {glue:text}`mlperf_405b_fastest_mwh_all_in:.1f` MWh at the
# meter on the book's GB200 build-up and PUE, and
# {glue:text}`mlperf_405b_fastest_mwh_tdp:.1f` MWh at the chips' TDP alone. MLPerf Power metered
# {glue:text}`mlperf_power_results_count:.0f` distinct LLM results at the nodes (and switches) at
# the wall. They used {glue:text}`mlperf_power_measured_over_estimate_min_ratio_pct:.0f` % to
# {glue:text}`mlperf_power_measured_over_estimate_max_ratio_pct:.0f` % of the book's all-in IT
# estimate for the same GPU-hours: the build-up is a design rating, and a job does not hold every
# chip at its TDP. {glue:text}`mlperf_power_unscorable_count:.0f` more results carry power logs
# whose measurement window is empty, which MLPerf's own summarizer cannot score either.

# %% tags=["remove-input"]
show_table(R, figures.power_table(R))

# %% [markdown]
# ## The planner checked against MLPerf
#
# For the pretraining benchmarks the planner ({ref}`Plan a run <chapter-plan>`) is asked how long each
# system would take to train the reference's token count to the target: the mean samples to converge
# of mlcommons' reference convergence points at the submission's batch size (interpolated between
# the reference batch sizes, as MLPerf does), times the sequence length. It is given the model, the
# GPU and the count, and estimates the MFU as it would for a user's run: the fit to NVIDIA's
# benchmark rows times the production-vs-benchmark term measured on published training runs, in
# BF16, since the logs do not state the precision. Over
# {glue:text}`mlperf_planner_checked_count:.0f` results its median absolute error is
# {glue:text}`mlperf_planner_median_abs_error_frac_pct:.0f` %, and it is slower than MLPerf:
# {glue:text}`mlperf_planner_gpt3_median_error_frac_pct:.0f` % on GPT-3,
# {glue:text}`mlperf_planner_llama31_405b_median_error_frac_pct:.0f` % on Llama 3.1 405B and
# {glue:text}`mlperf_planner_llama31_8b_median_error_frac_pct:.0f` % on Llama 3.1 8B (median
# signed errors). **Read this as the distance between a tuned benchmark and a production run, not as
# the planner's error on your run**: MLPerf submissions are short, hand-tuned runs, often in FP8,
# while the planner predicts the speed that published production runs reached (its error on those
# is measured in {ref}`Plan a run <chapter-plan>`). Results the planner cannot plan (an accelerator
# without a sourced TDP) carry the reason in the table:
# {glue:text}`mlperf_planner_not_planned_count:.0f` of them.

# %% tags=["remove-input"]
display(figures.planner_table(R))

# %% [markdown]
# ## The price ladder
#
# {glue:text}`mlperf_ladder_accelerators_count:.0f` of the {glue:text}`mlperf_atlas_accelerators_count:.0f`
# accelerators of the atlas have at least one tier price (the A100 and Trainium2 have none here).
# The spread is widest for TPU7x (Ironwood): from {glue:text}`mlperf_tpu7x_dearest_usd_per_gpu_hour:.2f`
# US$ an hour on demand (Google's price page, as transcribed on 2026-07-15) down to
# {glue:text}`mlperf_tpu7x_cheapest_usd_per_gpu_hour:.2f` US$ owned (SemiAnalysis's model), about
# {glue:text}`mlperf_tpu7x_spread_ratio:.0f` times.
# {numref}`fig-mlperf-tiers` puts every accelerator's tiers on one axis.

# %% tags=["remove-input"]
glue_figure("fig_mlperf_tiers", figures.tiers_figure(R))

# %% [markdown]
# ```{glue:figure} fig_mlperf_tiers
# :name: fig-mlperf-tiers
# :alt: A dot plot with one row per accelerator and one marker per price tier on a logarithmic dollar axis, from owning costs near one dollar to on-demand prices above ten dollars an hour.
#
# Price per accelerator-hour at each tier: on-demand, neocloud lists and market ranges on the right,
# commitments and owning costs on the left. SemiAnalysis's owning and 3-year figures are model
# values, not transaction prices.
# ```
#
# For many accelerators the markers of one row spread wider than the gap to the next row: the tier a
# buyer pays can move the price of an hour more than the choice of chip does. The tables below give
# each spread and the whole ladder.

# %% tags=["remove-input"]
display(Markdown(figures.spread_table(R)))
show_table(R, figures.ladder_table(R))

# %% [markdown]
# ## Every result
#
# Every result with its GPU-hours, its cost at three tiers, its energy and its log folder in
# mlcommons' repository (the commit is in `data/mlperf_training.csv`).

# %% tags=["remove-input"]
display(figures.results_table(R))
from analysis.page.notebook import offer_table

offer_table(R, "mlperf_results", R.tables["results"], "MLPerf Training LLM results priced per tier")

# %% tags=["remove-input"]
save(R)
