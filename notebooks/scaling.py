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
#
# There are two ways to put more GPUs on a training job, and they behave very differently. The
# benchmark sweeps of {ref}`chapter-benchmarks` all use the first, which is why their MFU barely
# moves from tens to thousands of GPUs. This chapter defines both, measures the first on
# NVIDIA's published sweeps, and builds a small model of the second, to show what the last
# GPUs of a cluster buy when the job cannot grow with them.

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
import matplotlib.ticker as mticker
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

from analysis import benchmarks, scaling, tco
from analysis.data import fact, load_table
from analysis.notebook import claims_table, comparison_table, glue, glue_facts, glue_figure, glue_results, start
from analysis.plots import PALETTE, add_source, new_figure
from analysis.tables import markdown_table, pct

P, R = start("scaling", globals())
h100_price = tco.system_tco_per_gpu_hour_usd("h100", P)  # the TCO chapter's function, this build's inputs
glue_facts("A41_tp", "A41_pp", "A41_cp", "A32_405b_fp8_mfu", "A32_405b_bf16_mfu", "A39_sa_stated_drop")
bench_results = glue_results("benchmarks", ["llama3_70b_fp8_mfu_relative_drop_64_to_2048",
                                            "llama3_70b_bf16_mfu_relative_drop_64_to_2048",
                                            "llama3_70b_fp8_mfu_relative_drop_nvidia"])
for key, r in bench_results.items():
    if key.startswith("llama3_70b"):
        glue(f"{key}_pct", r["value"] * 100, display=False)
glue("fact_A39_sa_stated_drop_pct", fact("A39_sa_stated_drop") * 100, display=False)
bench = benchmarks.load_benchmarks()
models = load_table("models").set_index("model_id")
RELEASE = "nv_dgxc_v25_02"  # the NVIDIA release whose tables SemiAnalysis's figures match

# %% [markdown]
# ## Two ways to add GPUs
#
# **Weak scaling** grows the job with the cluster. Each model replica keeps its layout, the
# tensor, pipeline and context parallel degrees (TP, PP, CP) that split one copy of the model
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
# NVIDIA's published recipe has a pipeline degree of {glue:text}`nv70_pp:.0f` (table below), so
# "PP {glue:text}`fact_A41_pp:.0f`" is probably a slip.

# %% tags=["remove-input"]
weak = scaling.weak_scaling_table(bench, RELEASE)


def degree(x):
    return "—" if pd.isna(x) else f"{int(x)}"


rows = []
for w in weak.itertuples():
    per_gpu_batch = bench[(bench["source_id"] == RELEASE) & (bench["model_id"] == w.model_id)
                          & (bench["precision"] == w.precision)]
    per_gpu_batch = (per_gpu_batch["global_batch"] / per_gpu_batch["gpus"]).iloc[0]
    rows.append([models.loc[w.model_id, "name"], w.precision.upper(), degree(w.tp), degree(w.pp), degree(w.cp),
                 degree(w.vp), f"{per_gpu_batch:g}", f"{w.gpus_small:,} → {w.gpus_large:,}",
                 f"{pct(w.mfu_small)} → {pct(w.mfu_large)}", pct(w.efficiency), pct(w.mfu_drop)])
glue("nv70_pp", float(weak.set_index(["model_id", "precision"]).loc[("llama31_70b", "fp8"), "pp"]), display=False)
glue("weak_growth_min", (weak["gpus_large"] / weak["gpus_small"]).min(), display=False)
glue("weak_growth_max", (weak["gpus_large"] / weak["gpus_small"]).max(), display=False)
display(Markdown(markdown_table(
    ["Model", "Precision", "TP", "PP", "CP", "VP", "Sequences per GPU per step", "GPUs", "MFU",
     "Weak-scaling efficiency", "Relative MFU drop"], rows, "llrrrrrrrrr")))

# %% [markdown]
# Weak-scaling efficiency is the per-GPU throughput on the largest cluster over that on the
# smallest. Over a {glue:text}`weak_growth_min:.0f`- to {glue:text}`weak_growth_max:.0f`-fold growth it stays between {glue:text}`weak_eff_min_pct:.1f` % and
# {glue:text}`weak_eff_max_pct:.1f` % in NVIDIA's v25.02 tables. SemiAnalysis's own figures say the
# same: Llama 3 70B loses {glue:text}`llama3_70b_bf16_mfu_relative_drop_64_to_2048_pct:.1f` % of its
# MFU in BF16 and {glue:text}`llama3_70b_fp8_mfu_relative_drop_64_to_2048_pct:.1f` % in FP8
# (which it rounds to "~{glue:text}`fact_A39_sa_stated_drop_pct:.0f` %"; NVIDIA's table has
# {glue:text}`llama3_70b_fp8_mfu_relative_drop_nvidia_pct:.1f` %), and Llama 3 405B holds about
# {glue:text}`fact_A32_405b_fp8_mfu_pct:.0f` % in FP8 and {glue:text}`fact_A32_405b_bf16_mfu_pct:.0f` %
# in BF16 at every size up to {glue:text}`big405_gpus:,` GPUs.

# %% tags=["hide-input"]
R.add("weak_efficiency_min", weak["efficiency"].min(), "fraction", "Lowest weak-scaling efficiency, NVIDIA v25.02 sweeps")
R.add("weak_efficiency_max", weak["efficiency"].max(), "fraction", "Highest weak-scaling efficiency, NVIDIA v25.02 sweeps")
for precision in ("fp8", "bf16"):
    s = benchmarks.sweep(bench, "llama31_405b", precision, RELEASE)
    R.add(f"llama3_405b_{precision}_mfu_2304", s["mfu"].iloc[-1], "fraction",
          f"Llama 3.1 405B {precision.upper()} MFU on the largest cluster (NVIDIA v25.02)")
glue("big405_gpus", int(s["gpus"].iloc[-1]), display=False)
glue("weak_eff_min_pct", R["weak_efficiency_min"] * 100, display=False)
glue("weak_eff_max_pct", R["weak_efficiency_max"] * 100, display=False)
glue("fact_A32_405b_fp8_mfu_pct", fact("A32_405b_fp8_mfu") * 100, display=False)
glue("fact_A32_405b_bf16_mfu_pct", fact("A32_405b_bf16_mfu") * 100, display=False)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("llama3_405b_fp8_mfu_2304", "A32_405b_fp8_mfu"),
                                      ("llama3_405b_bf16_mfu_2304", "A32_405b_bf16_mfu")])))

# %% [markdown]
# ## A small strong-scaling model
#
# Take one measured run, {glue:text}`strong_name` in {glue:text}`strong_precision_text` on
# {glue:text}`strong_ref_gpus:,.0f` H100s (NVIDIA v25.02: {glue:text}`strong_ref_rate:,.1f`
# tokens/s/GPU, a global batch of {glue:text}`strong_batch:,` sequences of
# {glue:text}`strong_seq:,` tokens), and keep its global batch fixed while GPUs are added. One
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
#   (the parameters over $t\,p$, at `grad_bytes_per_param` = {glue:text}`grad_bytes:g` bytes each),
#   among the $g$ GPUs that hold the same shard, over a link of $b$ = {glue:text}`link_gbps:,.0f`
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
#    {glue:text}`strong_batch_limit:,` GPUs if `strong_max_gpus` asks for more.

# %% tags=["hide-input"]
ref_rows = benchmarks.sweep(bench, P.strong_model, P.strong_precision, RELEASE)
ref = ref_rows.iloc[0]
model = models.loc[P.strong_model]
ref_step_s = scaling.step_time_from_rate_s(ref["global_batch"], ref["seq_len"], ref["gpus"], ref["tokens_per_s_per_gpu"])
limit = scaling.max_gpus_for_batch(ref["global_batch"], ref["tp"], ref["pp"], ref["cp"])
top = min(P.strong_max_gpus, limit)
if top <= ref["gpus"]:
    raise ValueError(f"strong_max_gpus ({P.strong_max_gpus}) must exceed the reference size ({ref['gpus']})")
replica = scaling.model_parallel_gpus(ref["tp"], ref["pp"], ref["cp"])
grid = np.arange(ref["gpus"], top + 1, replica, dtype=float)  # whole replicas only
first_block = (ref["gpus"], min(ref["gpus"] + P.marginal_gpus, top))
last_block = (max(ref["gpus"], top - P.marginal_gpus), top)
block = int(last_block[1] - last_block[0])  # marginal_gpus, unless the sweep is shorter than that
points = np.unique(np.concatenate([grid, first_block, last_block, [top]]))
curve = scaling.strong_scaling(points, ref["gpus"], ref_step_s, model["total_params"], ref["tp"], ref["pp"], ref["cp"],
                               ref["vp"], ref["global_batch"], P.grad_bytes_per_param, P.backend_gbps)
tokens_per_step = ref["global_batch"] * ref["seq_len"]
curve["days"] = scaling.time_to_train_days(P.llama3_train_tokens, tokens_per_step, curve["step_s"])
curve["cost_usd"] = scaling.cluster_run_cost_usd(curve["gpus"], curve["days"], h100_price)
at = curve.set_index("gpus")

R.add("strong_ref_gpus", ref["gpus"], "GPUs", "Strong-scaling reference cluster (measured)")
R.add("strong_ref_step_s", ref_step_s, "s", "Measured step time at the reference size")
R.add("strong_batch_limit_gpus", limit, "GPUs", "Most GPUs the fixed global batch can use (one sequence per replica)")
R.add("strong_max_gpus_used", top, "GPUs", "Largest cluster of the strong-scaling sweep")
R.add("strong_comm_s_at_ref", at.loc[ref["gpus"], "comm_s"], "s", "Gradient exchange per step at the reference size")
R.add("strong_comm_s_at_max", at.loc[top, "comm_s"], "s", "Gradient exchange per step at the largest size")
R.add("strong_bubble_s", at.loc[top, "bubble_s"], "s", "Pipeline fill and drain per step (any size)")
R.add("strong_compute_s_at_max", at.loc[top, "compute_s"], "s", "Compute per step at the largest size")
R.add("strong_step_s_at_max", at.loc[top, "step_s"], "s", "Step time at the largest size")
R.add("strong_speedup_at_max", at.loc[top, "speedup"], "x", "Strong-scaling speed-up at the largest size over the reference")
R.add("strong_efficiency_at_max", at.loc[top, "efficiency"], "fraction", "Strong-scaling efficiency at the largest size")
R.add("strong_days_at_ref", at.loc[ref["gpus"], "days"], "days", "Days to train on the reference cluster")
R.add("strong_days_at_max", at.loc[top, "days"], "days", "Days to train on the largest cluster")
R.add("strong_cost_at_ref_usd", at.loc[ref["gpus"], "cost_usd"], "USD", "Run cost on the reference cluster")
R.add("strong_cost_at_max_usd", at.loc[top, "cost_usd"], "USD", "Run cost on the largest cluster")
for label, (a, b) in (("first", first_block), ("last", last_block)):
    R.add(f"strong_{label}_block_usd_per_speedup",
          scaling.marginal_usd_per_speedup(at.loc[a, "cost_usd"], at.loc[b, "cost_usd"], at.loc[a, "speedup"],
                                           at.loc[b, "speedup"]),
          "USD per 1x speed-up", f"Extra run cost per unit of speed-up, {label} {block:,} GPUs")
    R.add(f"strong_{label}_block_usd_per_day_saved",
          scaling.marginal_usd_per_day_saved(at.loc[a, "cost_usd"], at.loc[b, "cost_usd"], at.loc[a, "days"],
                                             at.loc[b, "days"]),
          "USD per day", f"Extra run cost per day saved, {label} {block:,} GPUs")
R.add("strong_last_block_vs_first_block_cost_ratio",
      R["strong_last_block_usd_per_speedup"] / R["strong_first_block_usd_per_speedup"], "x",
      "Cost per unit of speed-up, last block / first block")
R.add("strong_last_block_speed_gain", at.loc[top, "speedup"] / at.loc[last_block[0], "speedup"] - 1, "fraction",
      "Speed gained by the last block of GPUs")
R.add("strong_last_block_time_saved", 1 - at.loc[top, "days"] / at.loc[last_block[0], "days"], "fraction",
      "Training time saved by the last block of GPUs")
R.add("strong_last_block_cost_increase", at.loc[top, "cost_usd"] / at.loc[last_block[0], "cost_usd"] - 1, "fraction",
      "Run cost added by the last block of GPUs")
weak_same = ref_rows.iloc[-1]["tokens_per_s_per_gpu"] / ref["tokens_per_s_per_gpu"]
R.add("weak_efficiency_same_model", weak_same, "fraction",
      "Measured weak-scaling efficiency of the same model and precision, NVIDIA v25.02")

# %% tags=["remove-cell"]
glue("strong_name", model["name"], display=False)
glue("strong_precision_text", P.strong_precision.upper(), display=False)
glue("strong_ref_rate", ref["tokens_per_s_per_gpu"], display=False)
glue("strong_batch", int(ref["global_batch"]), display=False)
glue("strong_seq", int(ref["seq_len"]), display=False)
glue("strong_batch_limit", limit, display=False)
glue("grad_bytes", P.grad_bytes_per_param, display=False)
glue("link_gbps", P.backend_gbps, display=False)
glue("marginal", block, display=False)
glue("last_block_start", last_block[0], display=False)
glue("weak_same_gpus", int(ref_rows.iloc[-1]["gpus"]), display=False)
glue("train_tokens_t", P.llama3_train_tokens / 1e12, display=False)
for key in ("strong_efficiency_at_max", "weak_efficiency_same_model", "strong_last_block_speed_gain",
            "strong_last_block_cost_increase", "strong_last_block_time_saved"):
    glue(f"{key}_pct", R[key] * 100, display=False)
for key in ("strong_cost_at_ref_usd", "strong_cost_at_max_usd"):
    glue(f"{key}_m", R[key] / 1e6, display=False)
for key in ("strong_first_block_usd_per_day_saved", "strong_last_block_usd_per_day_saved"):
    glue(f"{key}_k", R[key] / 1e3, display=False)
glue("strong_last_block_usd_per_speedup_m", R["strong_last_block_usd_per_speedup"] / 1e6, display=False)

# %% [markdown]
# At the measured size a step takes {glue:text}`strong_ref_step_s:.2f` s, of which
# {glue:text}`strong_comm_s_at_ref:.2f` s is the gradient exchange and
# {glue:text}`strong_bubble_s:.2f` s the pipeline bubble. On {glue:text}`strong_max_gpus_used:,.0f`
# GPUs the compute shrinks to {glue:text}`strong_compute_s_at_max:.2f` s a step, but the exchange
# has grown to {glue:text}`strong_comm_s_at_max:.2f` s, so the step takes
# {glue:text}`strong_step_s_at_max:.2f` s: a speed-up of {glue:text}`strong_speedup_at_max:.1f`x
# for {glue:text}`gpu_multiple:.0f` times the GPUs, an efficiency of
# {glue:text}`strong_efficiency_at_max_pct:.0f` %. Weak scaling of the same model over the same range
# keeps {glue:text}`weak_efficiency_same_model_pct:.0f` % (measured, up to
# {glue:text}`weak_same_gpus:,` GPUs).

# %% tags=["remove-cell"]
glue("gpu_multiple", top / ref["gpus"], display=False)

# %% tags=["remove-input"]
ticks = [int(ref["gpus"] * 2 ** k) for k in range(0, 20) if ref["gpus"] * 2 ** k <= top]
fig, ax = new_figure(f"Scaling efficiency of {model['name']} {P.strong_precision.upper()} on H100",
                     "GPUs (log scale)", "Efficiency (% of linear scaling)")
ax.plot(curve["gpus"], curve["efficiency"] * 100, color=PALETTE["vermillion"],
        label=f"strong scaling, model (global batch fixed at {int(ref['global_batch']):,} sequences)")
ax.plot(ref_rows["gpus"], ref_rows["tokens_per_s_per_gpu"] / ref["tokens_per_s_per_gpu"] * 100, "o-",
        color=PALETTE["blue"], label="weak scaling, measured (NVIDIA v25.02)")
ax.axvspan(last_block[0], last_block[1], color=PALETTE["vermillion"], alpha=0.08,
           label=f"the last {block:,} GPUs")
ax.set_xscale("log", base=2)
ax.xaxis.set_major_locator(mticker.FixedLocator(ticks))
ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda x, _: f"{x:,.0f}"))
ax.xaxis.set_minor_locator(mticker.NullLocator())
ax.set_ylim(0, 105)
ax.legend(fontsize=8, loc="lower left")
add_source(fig, f"measured step from NVIDIA dgxc-benchmarking v25.02; model: compute/N + pipeline bubble + "
                f"ring all-reduce at {P.backend_gbps:,.0f} Gbit/s, {P.grad_bytes_per_param:g} bytes per gradient.")
glue_figure("fig_scaling_efficiency", fig)

# %% [markdown]
# ```{glue:figure} fig_scaling_efficiency
# :name: fig-scaling-efficiency
# :alt: Efficiency in percent against GPU count on a log axis; the measured weak-scaling points stay above 90 percent while the strong-scaling model curve falls steeply, with the span of the last block of GPUs shaded.
#
# The same model, two ways to grow. Adding replicas with their own data (weak scaling, measured)
# keeps nearly every GPU busy; spreading a fixed batch thinner (strong scaling, modelled) leaves
# {glue:text}`strong_efficiency_at_max_pct:.0f` % efficiency at the largest size.
# ```

# %% [markdown]
# ## What the last GPUs buy
#
# With a fixed batch, a bigger cluster finishes sooner but burns more GPU-hours, because each GPU
# waits longer on the parts of the step that do not shrink. For a
# {glue:text}`train_tokens_t:.0f`T-token run, the reference cluster takes
# {glue:text}`strong_days_at_ref:,.0f` days and \${glue:text}`strong_cost_at_ref_usd_m:.1f`M at
# \${glue:text}`h100_price:.2f` per GPU-hour; {glue:text}`strong_max_gpus_used:,.0f` GPUs take
# {glue:text}`strong_days_at_max:,.0f` days and \${glue:text}`strong_cost_at_max_usd_m:.1f`M.
# The last {glue:text}`marginal:,` GPUs (from {glue:text}`last_block_start:,.0f`) add
# {glue:text}`strong_last_block_speed_gain_pct:.0f` % speed for
# {glue:text}`strong_last_block_cost_increase_pct:.0f` % more money: \${glue:text}`strong_last_block_usd_per_day_saved_k:,.0f`k
# per day saved, against \${glue:text}`strong_first_block_usd_per_day_saved_k:,.1f`k for the first
# {glue:text}`marginal:,`. Per unit of speed-up (one reference cluster's worth of speed) they cost
# \${glue:text}`strong_last_block_usd_per_speedup_m:.2f`M, {glue:text}`strong_last_block_vs_first_block_cost_ratio:.1f`
# times as much as the first ones.

# %% tags=["remove-cell"]
glue("h100_price", h100_price, display=False)

# %% tags=["remove-input"]
fig, ax = new_figure(f"Time against money: a {P.llama3_train_tokens / 1e12:.0f}T-token {model['name']} run",
                     "Days to train (log scale)", "Run cost (million USD)")
ax.plot(curve["days"], curve["cost_usd"] / 1e6, color=PALETTE["blue"], lw=1.5)
tail = curve[curve["gpus"] >= last_block[0]]
ax.plot(tail["days"], tail["cost_usd"] / 1e6, color=PALETTE["vermillion"], lw=3,
        label=f"the last {block:,} GPUs")
labelled = [ref["gpus"], last_block[0], top]
if min(abs(first_block[1] - n) for n in labelled) > 0.2 * first_block[1]:  # skip labels that would overlap
    labelled.append(first_block[1])
for n in sorted(set(labelled)):
    ax.plot(at.loc[n, "days"], at.loc[n, "cost_usd"] / 1e6, "o", color=PALETTE["black"], ms=4)
    ax.annotate(f"{n:,.0f} GPUs", (at.loc[n, "days"], at.loc[n, "cost_usd"] / 1e6), xytext=(5, -10),
                textcoords="offset points", fontsize=8)
ax.set_xscale("log")
ax.xaxis.set_major_locator(mticker.LogLocator(subs=(1.0, 2.0, 5.0)))
ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda x, _: f"{x:,.0f}"))
ax.xaxis.set_minor_formatter(mticker.NullFormatter())
ax.set_ylim(0, curve["cost_usd"].max() / 1e6 * 1.15)
ax.legend(fontsize=8, loc="upper right")
add_source(fig, f"strong-scaling model above; {P.llama3_train_tokens / 1e12:g}T tokens; "
                f"${h100_price:.2f} per H100-hour (the TCO chapter's H100 TCO, this build).")
glue_figure("fig_scaling_cost", fig)

# %% [markdown]
# ```{glue:figure} fig_scaling_cost
# :name: fig-scaling-cost
# :alt: Run cost in million dollars against days to train on a log axis; the curve rises as the days fall, steeply at the short-time end, where the segment of the last block of GPUs is drawn thick.
#
# Each point is a cluster size; moving left buys time with money. The thick segment is the last
# {glue:text}`marginal:,` GPUs: {glue:text}`strong_last_block_time_saved_pct:.0f` % less time for
# {glue:text}`strong_last_block_cost_increase_pct:.0f` % more money.
# ```

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
R.save()
