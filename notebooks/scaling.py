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
# (chapter-scaling)=
# # Scaling: weak against strong

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
strong_model: str = 'llama31_70b'  # model id; one of: gpt3_175b, llama31_8b, llama31_70b, llama31_405b. Model of the strong-scaling example
strong_precision: str = 'fp8'  # data type; one of: fp8, bf16. Precision of the strong-scaling example
strong_max_gpus: int = 2048  # GPUs; an integer from 2 to 1,000,000. Largest cluster of the strong-scaling sweep
marginal_gpus: int = 1000  # GPUs; an integer from 1 to 1,000,000. Size of the last block of GPUs whose cost per unit of speed-up is shown
grad_bytes_per_param: float = 4.0  # bytes per parameter; a number from 0 to 16. Bytes per gradient value in the data-parallel exchange
backend_gbps: float = 400.0  # Gbit/s per GPU; a number from 1 to 100,000. Backend network bandwidth per GPU for in-memory recovery
llama3_train_tokens: float = 15000000000000.0  # tokens; a number from 1,000,000 to 1,000,000,000,000,000. Tokens of a Llama 3 pre-training run

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import scaling as chapter
from analysis.figures import scaling as figures
from analysis.page.notebook import claims_table, comparison_table, glue_facts, glue_figure, publish, save, start
from analysis.page.tables import answer_from_results

P, upstream = start("scaling", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts(*figures.FACTS)
figures.glue_prose(R, P)

# %% tags=["remove-input"]
glue_figure("fig_scaling_efficiency", figures.efficiency_figure(R, P))

# %% [markdown]
# {numref}`fig-scaling-efficiency` sets the two ways of adding GPUs side by side for one model on
# H100s.
#
# ```{glue:figure} fig_scaling_efficiency
# :name: fig-scaling-efficiency
# :alt: Efficiency in percent against GPU count on a log axis; the measured weak-scaling points stay above 90 percent while the strong-scaling model curve falls steeply, with the span of the last block of GPUs shaded.
#
# The same model, two ways to grow. Adding replicas with their own data (weak scaling, measured)
# keeps nearly every GPU busy; spreading a fixed batch thinner (strong scaling, modelled) leaves
# {glue:text}`strong_efficiency_at_max_frac_pct:.0f` % efficiency at the largest size.
# ```
#
# The widening gap between the two lines is the price of growing a cluster without growing the job:
# a lab that can grow its batch with the cluster keeps its GPUs busy, and one that cannot pays for
# GPUs that mostly wait.

# %% [markdown]
# There are two ways to put more GPUs on a training job, and they behave very differently. The
# benchmark sweeps of {ref}`chapter-benchmarks` all use the first, which is why their {term}`MFU` barely
# moves from tens to thousands of GPUs. This chapter defines both, measures the first on
# NVIDIA's published sweeps, and builds a small model of the second, to show what the last
# GPUs of a cluster buy when the job cannot grow with them.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## Two ways to add GPUs
#
# **Weak scaling** grows the job with the cluster. Each model replica keeps its layout, the
# tensor, pipeline and context parallel degrees ({term}`TP`, {term}`PP`, {term}`CP`) that split one copy of the model
# over a group of GPUs, and more replicas are added, each with its own share of a global batch
# that grows in proportion. Every GPU does the same work per step as before; the only new cost
# is the gradient exchange between more replicas. If it is perfect, per-GPU throughput and MFU
# stay constant.
#
# **Strong scaling** keeps the job fixed: the same global batch, spread over more GPUs. Each GPU
# gets less work per step, while the parts of a step that do not shrink (the pipeline filling
# and draining, the gradient exchange) take the same time or longer. Speed-up falls behind the
# GPU count, and past some size every added GPU mostly waits.
#
# NVIDIA's DGXC sweeps, and so SemiAnalysis's scaling figures, are weak scaling: the layout is
# fixed and only data-parallel replicas are added. SemiAnalysis gives the 70B layout as
# TP {glue:text}`fact_A41_tp:.0f`, PP {glue:text}`fact_A41_pp:.0f`, CP {glue:text}`fact_A41_cp:.0f`;
# NVIDIA's published recipe has a pipeline degree of {glue:text}`llama31_70b_fp8_nvidia_pp:.0f` (table below), so
# "PP {glue:text}`fact_A41_pp:.0f`" is probably a slip.

# %% tags=["remove-input"]
display(Markdown(figures.weak_table(R)))

# %% [markdown]
# Weak-scaling efficiency is the per-GPU throughput on the largest cluster over that on the
# smallest. Over a {glue:text}`weak_growth_min_ratio:.0f`- to {glue:text}`weak_growth_max_ratio:.0f`-fold growth it stays between {glue:text}`weak_efficiency_min_frac_pct:.1f` % and
# {glue:text}`weak_efficiency_max_frac_pct:.1f` % in NVIDIA's v25.02 tables. SemiAnalysis's own figures say the
# same: Llama 3 70B loses {glue:text}`llama31_70b_bf16_mfu_relative_drop_64_to_2048_frac_pct:.1f` % of its
# MFU in BF16 and {glue:text}`llama31_70b_fp8_mfu_relative_drop_64_to_2048_frac_pct:.1f` % in FP8
# (which it rounds to "~{glue:text}`fact_A39_sa_stated_drop_pct:.0f` %"; NVIDIA's table has
# {glue:text}`llama31_70b_fp8_mfu_relative_drop_nvidia_frac_pct:.1f` %), and Llama 3 405B holds about
# {glue:text}`fact_A32_405b_fp8_mfu_pct:.0f` % in FP8 and {glue:text}`fact_A32_405b_bf16_mfu_pct:.0f` %
# in BF16 at every size up to {glue:text}`llama31_405b_largest_gpus:,.0f` GPUs.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, figures.COMPARED["weak"])))

# %% [markdown]
# ## A small strong-scaling model
#
# Take one measured run, {glue:text}`strong_name` in {glue:text}`strong_precision_text` on
# {glue:text}`strong_ref_gpus:,.0f` H100s (NVIDIA v25.02: {glue:text}`strong_ref_tokens_per_s_per_gpu:,.1f`
# tokens/s/GPU, a global batch of {glue:text}`strong_global_batch_sequences:,.0f` sequences of
# {glue:text}`strong_seq_len_tokens:,.0f` tokens), and keep its global batch fixed while GPUs are added. One
# step then takes
#
# $$
# T(N) = \frac{C}{N} \;+\; \frac{p-1}{v}\,\frac{C}{B\,M} \;+\; 2\,\frac{g-1}{g}\,\frac{S}{b},
# \qquad g = \frac{N}{t\,p},
# $$
#
# - **compute**, $C/N$: the GPU-seconds of work per step, $C$, shared by $N$ GPUs;
# - **pipeline fill and drain**: $(p-1)/v$ stage-times for $p$ pipeline stages with $v$
#   interleaved chunks (Narayanan et al. 2021), a stage-time being one micro-batch of one
#   sequence on one stage, $C/(B\,M)$ for a global batch of $B$ sequences and $M$ GPUs per
#   replica. With $B$ fixed it does not shrink as $N$ grows;
# - **gradient exchange**: a ring all-reduce of each GPU's shard of the gradients, $S$ bytes
#   (the parameters over $t\,p$, at `grad_bytes_per_param` = {glue:text}`grad_bytes_per_param:g` bytes each),
#   among the $g$ GPUs that hold the same shard, over a link of $b$ = {glue:text}`backend_gbps:,.0f`
#   Gbit/s. It grows slightly with $N$.
#
# $C$ is set so that $T$ at the measured size equals the measured step. The model assumes, and
# these are its limits:
#
# 1. nothing else changes with $N$: same kernels, same micro-batch of one sequence, no new
#    bottleneck in the network;
# 2. the gradient exchange never overlaps with compute (pessimistic: Megatron overlaps much of it
#    while the work per GPU is large; lower `grad_bytes_per_param` to mimic overlap);
# 3. tensor and pipeline traffic is part of the measured compute and shrinks with it (optimistic:
#    its latency does not);
# 4. the global batch cannot be split finer than one sequence per replica, so the sweep stops at
#    {glue:text}`strong_batch_limit_gpus:,.0f` GPUs if `strong_max_gpus` asks for more.

# %% [markdown]
# At the measured size a step takes {glue:text}`strong_ref_step_seconds:.2f` s, of which
# {glue:text}`strong_comm_at_ref_seconds:.2f` s is the gradient exchange and
# {glue:text}`strong_bubble_seconds:.2f` s the pipeline bubble. On {glue:text}`strong_max_gpus_used:,.0f`
# GPUs the compute shrinks to {glue:text}`strong_compute_at_max_seconds:.2f` s a step, but the exchange
# has grown to {glue:text}`strong_comm_at_max_seconds:.2f` s, so the step takes
# {glue:text}`strong_step_at_max_seconds:.2f` s: a speed-up of {glue:text}`strong_speedup_at_max_ratio:.1f`x
# for {glue:text}`strong_gpu_multiple_ratio:.0f` times the GPUs, an efficiency of
# {glue:text}`strong_efficiency_at_max_frac_pct:.0f` %. Weak scaling of the same model over the same range
# keeps {glue:text}`weak_efficiency_same_model_frac_pct:.0f` % (measured, up to
# {glue:text}`weak_same_model_largest_gpus:,.0f` GPUs).

# %% [markdown]
# ## What the last GPUs buy
#
# With a fixed batch, a bigger cluster finishes sooner but burns more GPU-hours, because each GPU
# waits longer on the parts of the step that do not shrink. For a
# {glue:text}`llama3_train_tokens_t:.0f`T-token run, the reference cluster takes
# {glue:text}`strong_run_at_ref_days:,.0f` days and \${glue:text}`strong_run_cost_at_ref_usd_m:.1f`M at
# \${glue:text}`h100_tco_usd_per_gpu_hour:.2f` per GPU-hour; {glue:text}`strong_max_gpus_used:,.0f` GPUs take
# {glue:text}`strong_run_at_max_days:,.0f` days and \${glue:text}`strong_run_cost_at_max_usd_m:.1f`M.
# The last {glue:text}`strong_marginal_block_gpus:,.0f` GPUs (from {glue:text}`strong_last_block_start_gpus:,.0f`) add
# {glue:text}`strong_last_block_speed_gain_frac_pct:.0f` % speed for
# {glue:text}`strong_last_block_cost_increase_frac_pct:.0f` % more money: \${glue:text}`strong_last_block_usd_per_day_saved_k:,.0f`k
# per day saved, against \${glue:text}`strong_first_block_usd_per_day_saved_k:,.1f`k for the first
# {glue:text}`strong_marginal_block_gpus:,.0f`. Per unit of speed-up (one reference cluster's worth of speed) they cost
# \${glue:text}`strong_last_block_usd_per_speedup_m:.2f`M, {glue:text}`strong_last_block_vs_first_block_cost_ratio:.1f`
# times as much as the first ones.
# {numref}`fig-scaling-cost` draws the whole trade of time against money.

# %% tags=["remove-input"]
glue_figure("fig_scaling_cost", figures.cost_figure(R, P))
from analysis.page.notebook import offer_table

offer_table(R, "strong", R.tables["strong"], "the strong-scaling curve (step parts, speed-up, days, cost)")

# %% [markdown]
# ```{glue:figure} fig_scaling_cost
# :name: fig-scaling-cost
# :alt: Run cost in million dollars against days to train on a log axis; the curve rises as the days fall, steeply at the short-time end, where the segment of the last block of GPUs is drawn thick.
#
# Each point is a cluster size; moving left buys time with money. The thick segment is the last
# {glue:text}`strong_marginal_block_gpus:,.0f` GPUs: {glue:text}`strong_last_block_time_saved_frac_pct:.0f` % less time for
# {glue:text}`strong_last_block_cost_increase_frac_pct:.0f` % more money.
# ```
#
# The curve is flat on the right and steep on the left: the first GPUs added cut the time a lot for
# little money, the last ones cut it a little for a lot.

# %% [markdown]
# Weak scaling is how large runs avoid this: labs grow the global batch with the cluster (Meta's
# Llama 3 405B run used batches of millions of tokens, {ref}`Llama Team, 2024 <src-meta_llama3_2024>`) so that every GPU keeps its work. The batch cannot grow
# without limit before it hurts convergence, and that limit, not the network, is what eventually
# makes strong scaling unavoidable.
#
# ## The seed's claim, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("scaling", R)))

# %% tags=["remove-cell"]
save(R)
