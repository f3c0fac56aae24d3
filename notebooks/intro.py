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
# # The economics of training large models on GPU clusters

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
# This chapter has no parameters of its own.

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import intro as chapter
from analysis.figures import intro as figures
from analysis.page.notebook import chapters_table, glue_figure, glue_values, publish, save, start
from analysis.page.tables import answer_from_results

P, upstream = start("intro", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_values(figures.prose_numbers(R))
glue_figure("fig_intro_verdict", figures.verdict_figure(upstream["benchmarks"], R))

# %% [markdown]
# {numref}`fig-intro-verdict` is the book's answer to its first question, whether GB200 NVL72 is worth its
# price over H100: each bar is GB200's per-GPU speed-up on a model NVIDIA publishes for both, the
# dashed line the speed-up it needs to cost the same per token at the book's TCO, the dotted line
# the same once failures and repairs are priced in.
#
# ```{glue:figure} fig_intro_verdict
# :name: fig-intro-verdict
# :alt: Horizontal bars of GB200 over H100 per-GPU throughput for each model, green where they pass the dashed break-even line and vermillion where they fall short, with a dotted line further right for break-even with downtime.
#
# GB200 NVL72 over H100, per GPU, against the speed-up it needs.
# ```
#
# Read it against the two lines: a green bar clears the break-even at the book's TCO and a
# vermillion one falls short of it; a bar that also passes the dotted line still pays off once
# GB200's larger failure blast radius is counted. The {ref}`benchmarks <chapter-benchmarks>`, {ref}`TCO <chapter-tco>` and
# {ref}`downtime <chapter-downtime>` chapters build each number.
#
# What does it cost, in dollars, joules and lost hours, to train a large model on NVIDIA H100s
# or GB200 {term}`NVL72` racks, and why? This book answers with numbers that a reader can rerun: every
# figure comes from a cited row in `data/`, or from a named parameter with a unit, a valid range
# and a justification, and every step is a small function in the `analysis` package.
#
# It starts from two {term}`SemiAnalysis <SA>` reports, on the 100,000-H100 clusters of 2024 and on H100
# against GB200 NVL72 training benchmarks in 2025, and from two second-hand summaries of them
# that are partly wrong. Where a summary disagrees with its original, the book shows both and
# says which it uses.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## The short version
#
# - **Compute.** A cluster of {glue:text}`cluster_gpus_count:,.0f` H100s peaks at
#   {glue:text}`peak_fp8_eflops:.0f` EFLOP/s in {term}`FP8`. At the {term}`MFU` labs reach, it would redo GPT-4's
#   training in {glue:text}`gpt4_retrain_days:.1f` days, a job that took GPT-4's A100 cluster
#   {glue:text}`gpt4_training_days_low:.0f`-{glue:text}`gpt4_training_days_high:.0f` days.
# - **Power.** It needs {glue:text}`cluster_it_mw:.0f` MW of critical IT and
#   {glue:text}`cluster_facility_mw:.0f` MW at the meter, its rated power. Training, it draws
#   {glue:text}`load_factor_frac:.0%` of that on average, the basis of every energy figure in the book:
#   {glue:text}`cluster_annual_energy_twh:.2f` TWh and \${glue:text}`cluster_annual_electricity_musd:.0f`M
#   of electricity a year.
# - **Capital.** At 2025 hyperscaler prices the GPUs and their servers cost
#   \${glue:text}`capex_busd:.1f`B; a year of electricity is {glue:text}`electricity_share_of_capex_pct:.0f` %
#   of that.
# - **Cost per hour and per token.** Owning and running an H100 costs
#   \${glue:text}`h100_tco_usd_per_gpu_hour:.2f` per {term}`GPU-hour` and a GB200 NVL72 GPU
#   \${glue:text}`gb200_tco_usd_per_gpu_hour:.2f`, both at a utilization of
#   {glue:text}`utilization_pct:.0f` % (the share of its hours a GPU is used or paid for), so GB200 must train
#   {glue:text}`gb200_breakeven_speedup:.2f`x faster per GPU to pay off. At the H100's rate, a
#   million Llama 3.1 405B tokens cost \${glue:text}`llama31_405b_bf16_usd_per_million_tokens:.2f`.
#   These costs are the book's own estimate from public rents, debt yields and maintenance built from
#   published fault rates and part prices, {glue:text}`h100_tco_vs_report_pct:+.0f` % from SemiAnalysis's H100 basis; the
#   {ref}`TCO chapter <chapter-tco>` and the claims ledger show why.
# - **GB200 NVL72.** NVIDIA's public benchmarks put it at
#   {glue:text}`gb200_vs_h100_deepseek_v3_bf16_throughput_ratio:.2f`x (DeepSeek-V3) to
#   {glue:text}`gb200_vs_h100_llama4_maverick_fp8_throughput_ratio:.2f`x (Llama 4 Maverick, FP8) an H100's
#   throughput per GPU. Priced with its failures and rack-sized repairs (assumptions, since the
#   report's figures are paywalled), the break-even rises to
#   {glue:text}`gb200_breakeven_speedup_with_downtime:.2f`x.
# - **Reliability.** The 100k cluster's first link failure comes after
#   {glue:text}`first_failure_minutes:.0f` minutes on average; each restart from a checkpoint can
#   throw away {glue:text}`checkpoint_restart_lost_gpu_days:.0f` GPU-days of work. Llama 3 still trained
#   {glue:text}`llama3_effective_training_time_pct:.0f` % of the time in the book's model of its run.
# - **Energy.** One FP8 GPT-3 token takes {glue:text}`gpt3_175b_fp8_j_per_token:.2f` J at the
#   utility meter; Llama 3.1 405B on 15T tokens takes
#   {glue:text}`llama31_405b_bf16_household_years_15t_tokens:,.0f` US household-years of electricity in one
#   clean pass at NVIDIA's benchmark speed, and {glue:text}`plan_llama31_405b_facility_household_years:,.0f`
#   at Meta's measured speed with its failures (both at the meter; the {ref}`plan chapter <chapter-plan>`
#   sets them beside Meta's own figures).
# - **How sure.** Drawing every uncertain input within its range, the cost of a Llama 3.1 405B token
#   lies between \${glue:text}`llama31_405b_bf16_usd_per_million_tokens_p10:.2f` and
#   \${glue:text}`llama31_405b_bf16_usd_per_million_tokens_p90:.2f` per million in 80 % of the draws.
#
# These numbers are computed by the chapters with their default parameters in this build; rerun
# the book with your own and this summary changes with them.

# %% [markdown]
# ## The chapters

# %% tags=["remove-input"]
display(Markdown(chapters_table()))

# %% [markdown]
# ## Claims, checked
#
# Every claim of the two seed summaries has a row in `data/claims.csv`, and every report figure
# the book checks a row in `data/fact_checks.csv`, with a status that says what an agreement is
# worth: *reproduced independently* (recomputed with no number from the report on the way),
# *consistency* (the report's own inputs through the book's formulas: its arithmetic holds),
# *depends on a chosen default* (the book agrees or not according to a value the report does not
# state, inside that value's sourced range), *reproduced by calibration* (it comes out because an
# input was tuned to it), *input quoted* (the figure is itself an input, shown back), *corrected*
# (the book's value differs and the row says why), *context* (cited or compared, not expected to
# match), *unverifiable* (no public source), or *pending* (its chapter is not written yet). What each
# row's computation read from the report is recorded as it runs, and the build refuses a status the
# record contradicts.

# %% tags=["remove-input"]
display(Markdown(figures.status_markdown(R)))

# %% [markdown]
# The {ref}`claims ledger <chapter-claims>` lists every claim and every report figure the book
# checks, {glue:text}`facts_checked_count:d` figures, each once; the build fails if a reproduced one
# drifts out of its tolerance or a difference disagrees with its status.

# %% [markdown]
# ## Rerun it yourself
#
# Two commands set everything up on a fresh machine: `make book` builds this book into
# `_build/html`, and `make test` runs the tests. To rerun one chapter with your own inputs:
#
# ```bash
# python -m analysis params cluster                 # every parameter, its unit, range and source
# python -m analysis run cluster -p gpus 50000 -p pue 1.2
# python -m analysis build --scenario my.yaml       # the whole book with a scenario file
# ```
#
# {ref}`rerun` explains parameters, scenario files and the results files each chapter writes.

# %% tags=["remove-cell"]
save(R)
