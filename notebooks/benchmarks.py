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
# (chapter-benchmarks)=
# # Benchmarks: MFU, throughput and cost per token

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
mfu_check_tolerance: float = 0.01  # fraction; a number from 0.0001 to 1. Relative tolerance for reproducing a printed MFU from its printed tokens/s/GPU
local_gpu_hour_usd: float = 0.1  # USD per device-hour; a number from 0.0001 to 1,000. Price of one hour of the measured device (GPU or CPU machine)
local_power_w: float = 15.0  # W; a number from 0.1 to 100,000. Power the measured device draws while training, at the wall
deepseek_v3_gpu_hours: float = 2788000.0  # GPU-hours; a number from 1 to 1,000,000,000. H800 GPU-hours of DeepSeek-V3's full training
deepseek_v3_usd_per_gpu_hour: float = 2.0  # USD per GPU-hour; a number from 0.01 to 100. Rental price per H800 GPU-hour DeepSeek assumes

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import benchmarks as chapter
from analysis.figures import benchmarks as figures
from analysis.page.notebook import claims_table, comparison_table, glue_facts, glue_figure, publish, show_table, start
from analysis.page.tables import answer_from_results

P, upstream = start("benchmarks", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts(*figures.FACTS)
figures.glue_prose(R)

# %% tags=["remove-input"]
glue_figure("fig_bench_mfu", figures.mfu_figure(R))

# %% [markdown]
# {numref}`fig-bench-mfu` plots the MFU of NVIDIA's H100 reference runs against the number of GPUs,
# for four models in two data types.
#
# ```{glue:figure} fig_bench_mfu
# :name: fig-bench-mfu
# :alt: MFU in percent against GPU count on a log axis for four models, solid lines for BF16 between about 52 and 60 percent and dashed lines for FP8 between about 36 and 44 percent, all nearly flat; hollow squares mark SemiAnalysis's points.
#
# MFU hardly moves as replicas are added: BF16 sits above FP8 for every model, and the
# largest fall is FP8 on the smaller models. Hollow squares are the values SemiAnalysis states
# in its text; they match NVIDIA's table except Llama 3 70B FP8 at the largest size.
# ```
#
# The flat lines are this chapter's first finding: adding whole copies of the model, as these sweeps
# do, costs almost no efficiency from the smallest cluster to the largest, so the cost of a token
# hardly depends on the size of the cluster. {ref}`chapter-scaling` shows why that stops holding when
# the job itself does not grow.

# %% [markdown]
# In August 2025 SemiAnalysis published training benchmarks from more than
# {glue:text}`fact_A01_gpus_total:,.0f` H100s, on clusters of {glue:text}`fact_A01_gpus_min:,.0f`
# to {glue:text}`fact_A01_gpus_max:,.0f` GPUs ({glue:text}`fact_A01_gpus_max_405b:,.0f` for Llama 3
# 405B), and turned them into model FLOPs utilization ({term}`MFU`), cost per million training tokens and
# a comparison with GB200 {term}`NVL72` ({ref}`SemiAnalysis, 2025 <src-sa_gb200_2025>`). This chapter
# rebuilds those numbers from the public tables behind them, prices every row, and checks each
# published MFU against its published throughput.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## How the numbers were measured
#
# SemiAnalysis did not run these benchmarks itself. They are NVIDIA's reference runs: the DGX
# Cloud benchmarking scripts (`dgxc-benchmarking`) with NeMo Megatron-LM, on NVIDIA's internal
# EOS H100 cluster, each node with {glue:text}`fact_A02_ib_links_per_node:.0f` InfiniBand links of
# {glue:text}`fact_A02_ib_gbps_per_link:.0f` Gbit/s. NVIDIA uses the same numbers as the
# reference a cloud must match for its "Exemplar Cloud" label. SemiAnalysis's tables are images
# behind a partial paywall, but NVIDIA publishes the tables of each release in the repository,
# and SemiAnalysis's figures match release v25.02 (NeMo 24.12) to within rounding. This chapter
# uses {glue:text}`benchmark_rows_count:,.0f` rows: the points SemiAnalysis states in its text, and NVIDIA's
# tables for {glue:text}`dgxc_releases_count:.0f` releases plus the NeMo 24.09 documentation.

# %% tags=["remove-input"]
display(Markdown(figures.inventory_table(R)))

# %% [markdown]
# ## MFU: the formula and the convention
#
# Model FLOPs utilization is the share of the GPU's {term}`dense peak` that goes into the model's own
# arithmetic. With $r$ the tokens trained per second per GPU, $F$ the model FLOPs per token and
# $P$ the dense peak,
#
# $$
# \mathrm{MFU} = \frac{r \, F}{P}, \qquad F = 6N + 12\,L\,h\,s ,
# $$
#
# where $N$ counts the parameters that take part in a matmul for a token (the active ones of an
# MoE model, without the input embedding lookup), and $12\,L\,h\,s$ is the attention score and
# value work over $L$ layers of width $h$ at sequence length $s$, counted for the full
# $s \times s$ matrix (PaLM, App. B). Recomputed activations do not count: MFU measures the work
# the model needs, not the work the hardware did. This is the convention of NVIDIA's tables and
# of SemiAnalysis, and the package's count lands within 1 % of the per-sample FLOPs NVIDIA
# states (Llama 3.1 70B at {glue:text}`llama31_70b_reference_seq_len_tokens:,.0f` tokens: {glue:text}`llama31_70b_flop_per_token_text`
# FLOP per token).
#
# Conventions differ, and the same measured throughput then reads as a different "MFU". The
# table takes NVIDIA's Llama 3.1 70B FP8 run on {glue:text}`llama31_70b_fp8_reference_gpus:,.0f` GPUs
# ({glue:text}`llama31_70b_fp8_reference_tokens_per_s_per_gpu:,.1f` tokens/s/GPU) and divides it several ways:

# %% tags=["remove-input"]
display(Markdown(figures.conventions_table(R)))

# %% [markdown]
# The same run is anywhere from the lowest to {glue:text}`mfu_convention_spread_ratio:.2f` times that
# "MFU" depending on what is counted, before anyone argues about the peak. The peak matters as much:
# a datasheet's headline is the 2:4-sparse figure, twice the dense one, and halves every MFU
# divided by it. Publishers also round: NVIDIA divides by {glue:text}`h100_bf16_nvidia_peak_tflops:,.0f`
# TFLOP/s for an H100 in BF16 where the registry has {glue:text}`h100_bf16_dense_peak_tflops:,.1f`, and by
# {glue:text}`gb200_bf16_nvidia_peak_tflops:,.0f` for a GB200 GPU where the usual dense figure is
# {glue:text}`gb200_bf16_dense_peak_tflops:,.0f`, which makes its GB200 MFUs
# {glue:text}`gb200_bf16_peak_gap_frac_pct:.1f` % higher. The book always divides by the publisher's own
# peak when it reproduces a publisher's MFU, and says which FLOP count it uses.
#
# ## MFU and throughput against GPU count
#
# NVIDIA's v25.02 tables sweep each model from the smallest cluster its layout fits to
# {glue:text}`fact_A01_gpus_max:,.0f` GPUs ({glue:text}`fact_A01_gpus_max_405b:,.0f` for 405B),
# in {term}`BF16` and in {term}`FP8`. Each sweep keeps the layout of one model replica (tensor, pipeline and
# context parallel degrees) and the batch per GPU, and only adds data-parallel replicas: these
# are weak-scaling sweeps ({ref}`chapter-scaling` has the distinction).
# {numref}`fig-bench-throughput` shows the same sweeps as tokens per second per GPU, the number that
# sets the cost of a token.

# %% tags=["remove-input"]
glue_figure("fig_bench_throughput", figures.throughput_figure(R))

# %% [markdown]
# ```{glue:figure} fig_bench_throughput
# :name: fig-bench-throughput
# :alt: Tokens per second per GPU on a log axis against GPU count for four models, each model a pair of nearly flat lines with FP8 dashed above BF16 solid; Llama 3.1 8B near ten thousand, Llama 3.1 70B near fifteen hundred, GPT-3 175B near five to seven hundred and Llama 3.1 405B near two to three hundred.
#
# Per-GPU throughput is set by model size, then by precision: FP8 (dashed) always trains more
# tokens per second than BF16 (solid), although its MFU is lower.
# ```
#
# For cost, the model and the data type matter and the cluster's size hardly does: each model's
# lines stay flat across its sweep, while the models sit far apart. A section below explains why FP8
# trains faster at a lower MFU.

# %% [markdown]
# Between {glue:text}`sa_llama31_70b_small_gpus:,.0f` and {glue:text}`sa_llama31_70b_large_gpus:,.0f` GPUs, SemiAnalysis's
# Llama 3 70B FP8 MFU goes from {glue:text}`sa_llama31_70b_fp8_mfu_small_pct:.1f` % to
# {glue:text}`sa_llama31_70b_fp8_mfu_large_pct:.1f` %, a relative drop of
# {glue:text}`llama31_70b_fp8_mfu_relative_drop_64_to_2048_frac_pct:.1f` %, which the report calls
# "~{glue:text}`fact_A39_sa_stated_drop_pct:.0f` %". NVIDIA's table for the same release has
# {glue:text}`llama31_70b_fp8_mfu_2048_nvidia_pct:.2f` % at the largest size, a drop of only
# {glue:text}`llama31_70b_fp8_mfu_relative_drop_nvidia_frac_pct:.1f` %; SemiAnalysis's energy figures
# are consistent with its own, lower number, so it may come from another run. In BF16 the fall is
# {glue:text}`sa_llama31_70b_bf16_mfu_small_pct:.1f` % to {glue:text}`sa_llama31_70b_bf16_mfu_large_pct:.1f` %, a
# {glue:text}`llama31_70b_bf16_mfu_relative_drop_64_to_2048_frac_pct:.1f` % drop. Llama 3.1 405B on the
# largest cluster trains {glue:text}`llama31_405b_bf16_tokens_per_s_per_gpu_2304:.1f` tokens/s per
# GPU in BF16.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, figures.COMPARED["drop"])))

# %% [markdown]
# ## Why FP8 has the lower MFU and the higher throughput
#
# FP8 tensor cores have twice the dense peak of BF16, and MFU in FP8 is divided by that doubled
# peak. So for the same model, size and release,
#
# $$
# \frac{\mathrm{MFU}_{\mathrm{FP8}}}{\mathrm{MFU}_{\mathrm{BF16}}}
#   = \frac{r_{\mathrm{FP8}}}{r_{\mathrm{BF16}}} \cdot \frac{P_{\mathrm{BF16}}}{P_{\mathrm{FP8}}} ,
# $$
#
# and FP8's MFU is lower whenever it is less than twice as fast. It always is: only the matmuls
# of the linear layers run in FP8. Attention, normalization, activations, the optimizer step,
# the collectives and the FP8 scaling and casting themselves do not speed up. Run backwards
# through Amdahl's law, the measured speed-up says how much of the BF16 step the FP8 path covered.

# %% [markdown]
# On {glue:text}`llama31_70b_fp8_reference_gpus:,.0f` GPUs, Llama 3.1 70B trains {glue:text}`llama31_70b_fp8_over_bf16_throughput_ratio:.2f`x
# as many tokens per second in FP8 as in BF16, while its MFU is
# {glue:text}`llama31_70b_fp8_over_bf16_mfu_ratio:.2f`x the BF16 figure. A {glue:text}`llama31_70b_fp8_over_bf16_throughput_ratio:.2f`x
# speed-up from a {glue:text}`h100_fp8_over_bf16_peak_ratio:.0f`x faster path means that path covered about
# {glue:text}`llama31_70b_fp8_accelerated_share_frac_pct:.0f` % of the BF16 step time (if it ran at its full
# peak ratio). Across all v25.02 pairs FP8 is {glue:text}`fp8_over_bf16_throughput_min_ratio:.2f`x to
# {glue:text}`fp8_over_bf16_throughput_max_ratio:.2f`x faster. For cost, throughput is what counts: a
# lower MFU in FP8 is still the cheaper token.
#
# ## Cost per million tokens
#
# A {term}`GPU-hour` trains 3,600 × *r* tokens at *r* tokens/s/GPU, so a million tokens cost the GPU-hour
# price times 10⁶ / (3,600 × *r*). SemiAnalysis prices every H100 figure at
# \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f` per GPU-hour without rental margin (fact A13);
# this chapter uses the {ref}`TCO chapter's <chapter-tco>` cost of an H100 GPU-hour with this build's
# inputs (\${glue:text}`h100_tco_usd_per_gpu_hour:.2f`) and of a GB200 GPU-hour (\${glue:text}`gb200_tco_usd_per_gpu_hour:.2f`,
# {glue:text}`gb200_breakeven_speedup:.2f`x; SemiAnalysis's ratio is {glue:text}`fact_A12_tco_ratio:.1f`x). The headline table shows the release
# SemiAnalysis used, at the smallest and the largest cluster of each sweep.

# %% tags=["remove-input"]
display(Markdown(figures.headline_table(R)))

# %% [markdown]
# At ~2,000 GPUs a Llama 3.1 405B token costs {glue:text}`llama31_405b_to_70b_bf16_cost_ratio:.2f`
# times a 70B token, a little less than the {glue:text}`llama31_405b_to_70b_param_ratio:.2f`x
# ratio of their parameter counts: the larger model keeps a slightly higher MFU.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, figures.COMPARED["cost"])))

# %% [markdown]
# SemiAnalysis sets the cost of a Llama 3.1 405B run beside DeepSeek-V3's (A36). DeepSeek's own
# report ({ref}`DeepSeek-AI, 2024 <src-deepseek_v3_2024>`) prices its
# {glue:text}`deepseek_v3_gpu_hours:,.0f` H800 GPU-hours at an assumed
# \${glue:text}`deepseek_v3_usd_per_gpu_hour:.0f` each: \${glue:text}`deepseek_v3_run_million_usd:.2f`M, more than
# SemiAnalysis's rounded figure, and for the final run only, without research and ablations. At
# this build's H100 cost of a GPU-hour the same hours cost
# \${glue:text}`deepseek_v3_run_at_h100_tco_million_usd:.2f`M, so on one cost basis the 405B run costs
# {glue:text}`llama31_405b_vs_deepseek_v3_run_cost_same_basis_ratio:.1f` times DeepSeek-V3's
# ({glue:text}`llama31_405b_vs_deepseek_v3_run_cost_ratio:.1f` times its published cost).

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("deepseek_v3_run_usd", "A36_deepseek_run_usd")])))

# %% [markdown]
# Every row of `data/benchmarks.csv`, priced the same way (*basis* says which of MFU and
# tokens/s the publisher printed; the other is derived with the FLOP count above):

# %% tags=["remove-input"]
display(figures.every_row_table(R))
from analysis.page.notebook import offer_table

offer_table(R, "priced", R.tables["priced"], "every benchmark row with its cost per 1M tokens")

# %% [markdown]
# ## GB200 NVL72 against H100
#
# SemiAnalysis benchmarked GB200 NVL72 on Llama 4 Maverick (400B parameters, mixture of experts)
# and DeepSeek-V3 (671B, mixture of experts), but those results are behind its paywall. What is
# public are **NVIDIA's own** v25.05 tables for the same models on GB200 NVL72 and H100, plus Llama 3.1
# 405B. The ratios below are NVIDIA's numbers, not SemiAnalysis's. For each GPU type they take
# the latest release's best per-GPU throughput, which is at its smallest published cluster:
# {glue:text}`gb200_deepseek_v3_gpus:,.0f` GB200 GPUs against {glue:text}`h100_llama4_maverick_gpus:,.0f` H100s for the
# MoE models, which flatters GB200 a little.

# %% tags=["remove-input"]
show_table(R, figures.gb200_table(R))

# %% tags=["remove-input"]
glue_figure("fig_bench_gb200", figures.gb200_figure(R))

# %% [markdown]
# {numref}`fig-bench-gb200` sets each ratio of the table against the speed-up GB200 needs to pay for
# its higher cost.
#
# ```{glue:figure} fig_bench_gb200
# :name: fig-bench-gb200
# :alt: Horizontal bars of GB200-to-H100 per-GPU throughput ratios for five model and precision pairs, with a dashed vertical line at the TCO break-even; DeepSeek-V3 falls short of the line and the others pass it.
#
# Per GPU, GB200 NVL72 trains Llama 4 Maverick and Llama 3.1 405B more than twice as fast as
# H100 in NVIDIA's tables, past the break-even set by its higher cost of ownership (dashed);
# DeepSeek-V3 is {glue:text}`gb200_vs_h100_deepseek_v3_bf16_throughput_ratio:.2f`x faster,
# {glue:text}`deepseek_side` it.
# ```
#
# A bar that reaches past the dashed line is a model on which GB200 trains the cheaper token; the
# further past, the more room GB200 has for the downtime and the young software that NVIDIA's runs
# leave out.

# %% [markdown]
# SemiAnalysis puts the TCO of a GB200 NVL72 GPU at ~{glue:text}`fact_A12_tco_ratio:.1f`x an H100's,
# so GB200 must train at least that much faster to win on performance per dollar (this build
# uses {glue:text}`gb200_breakeven_speedup:.2f`x). In NVIDIA's numbers it clears that line in
# {glue:text}`gb200_wins_count:.0f` of the {glue:text}`gb200_compared_count:.0f` comparisons. Llama 4 Maverick trains
# {glue:text}`gb200_vs_h100_llama4_maverick_bf16_throughput_ratio:.2f`x as fast in BF16 and
# {glue:text}`gb200_vs_h100_llama4_maverick_fp8_throughput_ratio:.2f`x in FP8, Llama 3.1 405B
# {glue:text}`gb200_vs_h100_llama31_405b_bf16_throughput_ratio:.2f`x in BF16. DeepSeek-V3 trains
# {glue:text}`gb200_vs_h100_deepseek_v3_bf16_throughput_ratio:.2f`x as fast (against
# {glue:text}`h100_deepseek_v3_gpus:,.0f` H100s), so a DeepSeek-V3 token costs {glue:text}`deepseek_verdict`
# on GB200. These are
# NVIDIA's reference runs, with GB200 software still young (SemiAnalysis expects it to improve
# through 2025) and without the downtime SemiAnalysis charges GB200 for its still-unreliable
# NVLink backplane; its own perf-per-TCO verdict is paywalled.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, figures.COMPARED["gb200"])))

# %% [markdown]
# ## Data check: does each printed MFU follow from its printed throughput?
#
# NVIDIA prints both MFU and tokens/s/GPU. Converting one into the other with the package's FLOP
# count and the publisher's peak should land within `mfu_check_tolerance` =
# {glue:text}`mfu_check_tolerance_frac_pct:.1f` %. Of the {glue:text}`conversion_rows_checked_count:.0f` rows that print
# both, {glue:text}`conversion_passes_count:.0f` do, {glue:text}`dense_clause`.
# The {glue:text}`conversion_failures_count:.0f` that do not are below with the likely reason: the first
# row of each model and reason, and all of them in the fold.

# %% tags=["remove-input"]
show_table(R, figures.failures_table(R))

# %% [markdown]
# Two things go wrong, neither of them in the measurements. For the mixture-of-experts models,
# NVIDIA's MFU implies its own per-token FLOP count (the "publisher" column), which differs from
# $6N_{\mathrm{active}} + 12Lhs$ by {glue:text}`moe_conversion_miss_min_frac_pct:.0f` to {glue:text}`moe_conversion_miss_max_frac_pct:.0f` % in
# either direction; the throughput is what
# the comparisons above use. And one row is a misprint: NVIDIA's Llama 4 Maverick BF16 row on
# {glue:text}`typo_gpus:,.0f` GB200 GPUs prints {glue:text}`llama4_maverick_gb200_bf16_mfu_printed_pct:.2f` %, half of what its
# throughput gives under NVIDIA's own FLOP count: it was divided by the FP8 peak. Against the BF16 peak it is
# {glue:text}`llama4_maverick_gb200_bf16_mfu_against_bf16_peak_pct:.1f` %, in line with the same model's other sizes. Among the dense
# rows the worst miss is {glue:text}`conversion_dense_worst_miss_frac_pct:.2f` %.

# %% [markdown]
# ## The seed's claim, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("benchmarks", R)))

# %% tags=["remove-cell"]
from analysis.page.notebook import save

save(R)
