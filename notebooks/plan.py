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
# (chapter-plan)=
# # Plan a run

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import plan as chapter
from analysis.figures import plan as figures
from analysis.notebook import glue_figure, start
from analysis.tables import answer_from_results

P, R = start("plan", globals(), show_parameters=False)
E = chapter.compute(P, R.upstream)
R.record(E)
display(Markdown(answer_from_results(R, figures.ANSWER, more=figures.ANSWER_MORE)))
figures.glue_flops(E)

# %% tags=["remove-input"]
glue_figure("fig_plan_backtest", figures.backtest(E))

# %% [markdown]
# ```{glue:figure} fig_plan_backtest
# :name: fig-plan-backtest
# :alt: A log-log scatter of predicted against published values, one point per published outcome (days, GPU-hours, energy, carbon, cost) with its P10-P90 band as a vertical bar, blue where the run published its throughput and orange where the planner estimated the MFU, and a dashed line where prediction equals publication.
#
# Each published outcome against the planner's prediction from the run's inputs.
# ```

# %% [markdown]
# A reader's first question is what their own run would cost, how long it would take and how much
# power it would burn. The planner answers it for any model, token count and cluster, from the
# command line:
#
# ```
# python -m analysis plan --model llama31_70b --tokens 15e12 --gpu h100_sxm --gpus 4096 --json
# ```
#
# It calls the same tested functions the chapters use, in seven steps: FLOPs, throughput, time,
# failures, cost, energy and uncertainty. This chapter walks through them on Llama 3.1 405B, shows
# why a published throughput must come with the FLOPs it counts, and then tests the planner on
# published training runs: it predicts each one from its inputs alone and sets the prediction
# against what was published. Its arithmetic is `analysis.planner` and
# `analysis.chapters.plan.compute`; its figures are drawn by `analysis.figures.plan`.

# %% tags=["remove-input"]
from analysis.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## Seven steps, on Llama 3.1 405B
#
# Meta trained Llama 3.1 405B on about {glue:text}`plan_llama31_405b_train_trillion_tokens:.0f` trillion tokens on
# {glue:text}`plan_llama31_405b_gpus:,.0f` H100s at {glue:text}`plan_llama31_405b_achieved_tflops:,.0f`
# TFLOP/s per GPU, counted in model FLOPs. The planner takes those inputs and the book's defaults for
# everything else.
#
# 1. **FLOPs.** Each token costs 6N + 12Lhs model FLOPs, {glue:text}`plan_llama31_405b_flops_per_token_text`,
#    so the run needs {glue:text}`plan_llama31_405b_total_flop_text` FLOP.
# 2. **Throughput.** The published rate is an {term}`MFU` of {glue:text}`plan_llama31_405b_mfu_frac:.1%`, or
#    {glue:text}`plan_llama31_405b_tokens_per_s_per_gpu:,.0f` tokens per second per GPU. Without a published rate
#    the planner fits the MFU to the book's benchmark rows by model size and GPU count, and prints the
#    fit and its leave-one-out error.
# 3. **Time.** Without failures the run takes {glue:text}`plan_llama31_405b_days:.1f` days.
# 4. **Failures.** With the per-GPU failure rates calibrated on Llama 3's own snapshot, the job fails
#    every {glue:text}`plan_llama31_405b_job_mtbf_hours:.1f` hours. Checkpointing at Daly's optimum,
#    every {glue:text}`plan_llama31_405b_checkpoint_interval_min:.1f` minutes, keeps a {term}`goodput` of
#    {glue:text}`plan_llama31_405b_goodput:.1%`, so the run takes {glue:text}`plan_llama31_405b_days_with_failures:.1f`
#    days on the wall clock with {glue:text}`plan_llama31_405b_interruptions:,.0f` interruptions.
# 5. **Cost.** Every wall-clock hour is paid on every GPU: {glue:text}`plan_llama31_405b_gpu_hours:,.0f`
#    GPU-hours, against the {glue:text}`plan_llama31_405b_published_gpu_hours:,.0f` of Meta's model card.
#    At the book's H100 TCO of ${glue:text}`plan_llama31_405b_usd_per_gpu_hour:.2f` per {term}`GPU-hour` that
#    is ${glue:text}`plan_llama31_405b_cost_usd:,.0f`. Without a price the command prints both this
#    owning cost and the sourced rental prices; for a GPU whose TCO the book does not model it says so.
# 6. **Energy.** Each paid GPU-hour draws {glue:text}`plan_llama31_405b_meter_w_per_gpu:,.0f` W at
#    the meter: {glue:text}`plan_llama31_405b_energy_mwh:,.0f` MWh,
#    {glue:text}`plan_llama31_405b_household_years:,.0f` US household-years and
#    {glue:text}`plan_llama31_405b_co2_t:,.0f` t of CO2 on the average US grid.
# 7. **Uncertainty.** The inputs the user leaves to the book vary over their ranges in
#    `data/distributions.csv`: the wall-clock days run from {glue:text}`plan_llama31_405b_days_with_failures_p10:.1f`
#    to {glue:text}`plan_llama31_405b_days_with_failures_p90:.1f` (P10 to P90), the cost from
#    ${glue:text}`plan_llama31_405b_cost_usd_p10:,.0f` to ${glue:text}`plan_llama31_405b_cost_usd_p90:,.0f`.

# %% tags=["remove-input"]
display(Markdown(figures.walkthrough_table(E)))

# %% [markdown]
# Plan your own Llama 3.1 405B run on H100 below: change the tokens, the GPUs and the MFU, and the planner's days, cost and energy follow.

# %% tags=["remove-input"]
from IPython.display import HTML

from analysis.whatif import whatif_panel

display(HTML(whatif_panel("plan")))

# %% [markdown]
# ## Which FLOPs a throughput counts
#
# Papers often quote an achieved TFLOP/s per GPU in hardware FLOPs, with the extra forward pass of
# activation recomputation. Narayanan et al. (2021) train GPT-3 175B at
# {glue:text}`plan_gpt3_narayanan_tflops:.0f` TFLOP/s per GPU and estimate
# {glue:text}`plan_gpt3_narayanan_published_days:.0f` days. Read as hardware FLOPs with full
# recomputation, which count {glue:text}`plan_gpt3_hardware_to_model_flops_ratio:.3f` FLOPs per model
# FLOP, the figure gives {glue:text}`plan_gpt3_hardware_full_days:.1f` days. Misread as model FLOPs it
# gives {glue:text}`plan_gpt3_as_model_flops_days:.1f` days, {glue:text}`plan_gpt3_misread_shortfall_frac:.0%`
# short. The planner therefore takes `--achieved-tflops` only with `--flops-counted`.

# %% [markdown]
# ## Backtest: published runs, predicted from their inputs
#
# The table `data/backtest_runs.csv` holds {glue:text}`plan_backtest_runs_count:.0f` published
# training runs and estimates ({glue:text}`plan_backtest_projections_count:.0f` of them estimates from a
# measured throughput rather than finished runs), each with its shape, tokens, GPU type and count, the
# throughput where one was published, and what was published about the outcome. The planner predicts
# {glue:text}`plan_backtest_comparisons_count:.0f` published outcomes. The median absolute error is
# {glue:text}`plan_backtest_median_abs_error_frac:.0%`;
# {glue:text}`plan_backtest_within_10pct_count:.0f` outcomes land within 10 %, and
# {glue:text}`plan_backtest_within_band_count:.0f` inside the P10-P90 band. Where a throughput was
# published the median error is {glue:text}`plan_backtest_median_abs_error_given_frac:.0%`; where the
# planner had to estimate the MFU it is {glue:text}`plan_backtest_median_abs_error_estimated_frac:.0%`.

# %% tags=["remove-input"]
display(Markdown(figures.backtest_table(E)))

# %% [markdown]
# ## Where the defaults stop fitting
#
# **Time from a published throughput fits.** Given the throughput and the FLOPs it counts, the
# planner's days miss Narayanan et al.'s GPT-3 estimate by {glue:text}`plan_backtest_narayanan_gpt3_175b_days_error_frac:+.1%`,
# their 1T estimate by {glue:text}`plan_backtest_narayanan_1t_days_error_frac:+.1%`, the OPT-175B logbook's
# continuous-training days by {glue:text}`plan_backtest_opt_175b_days_error_frac:+.1%` and BLOOM's
# wall-clock months by {glue:text}`plan_backtest_bloom_176b_wall_days_error_frac:+.1%`. Llama 3.1 405B's
# GPU-hours, which include its restarts, are off by {glue:text}`plan_backtest_llama31_405b_gpu_hours_error_frac:+.1%`.
#
# **An estimated MFU does not.** The book's benchmark rows are NVIDIA's tuned recipes on clusters of
# a few thousand GPUs. For Llama 3.1 8B and 70B they give an MFU of
# {glue:text}`plan_backtest_llama31_8b_mfu_frac:.0%` and {glue:text}`plan_backtest_llama31_70b_mfu_frac:.0%`,
# and the GPU-hours come out {glue:text}`plan_backtest_llama31_8b_gpu_hours_error_frac:+.0%` and
# {glue:text}`plan_backtest_llama31_70b_gpu_hours_error_frac:+.0%` against the model card. Meta did
# not publish those jobs' GPU counts or throughput, so the planner assumes the 405B job's size.
# DeepSeek-V3 trained an MoE model in {term}`FP8` on H800s, whose NVLink is cut to less than half the
# H100's. Its GPU-hours come out {glue:text}`plan_backtest_deepseek_v3_pretrain_gpu_hours_error_frac:+.0%`:
# the dense-model fit is not a model of an MoE run's all-to-all traffic.
#
# **Power and carbon follow each operator's own basis.** The planner charges every GPU-hour the
# book's all-in IT power times the {term}`PUE`, on the average US grid. BLOOM's
# published energy and carbon come from a French, mostly nuclear grid and a narrower power count, so the planner
# overshoots its energy by {glue:text}`plan_backtest_bloom_176b_energy_mwh_error_frac:+.0%` and its
# carbon by {glue:text}`plan_backtest_bloom_176b_co2_t_error_frac:+.0%`. Meta's model card counts
# each GPU at its 700 W TDP on Meta's grids, so for Llama 3.1 405B the planner's carbon is
# {glue:text}`plan_backtest_llama31_405b_co2_t_error_frac:+.0%` off. Give `--pue` and
# `--grid-kg-co2-per-kwh` for your own site.

# %% tags=["remove-cell"]
R.save()
