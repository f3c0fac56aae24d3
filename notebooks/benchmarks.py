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
#
# In August 2025 SemiAnalysis published training benchmarks from more than
# {glue:text}`fact_A01_gpus_total:,.0f` H100s, on clusters of {glue:text}`fact_A01_gpus_min:,.0f`
# to {glue:text}`fact_A01_gpus_max:,.0f` GPUs ({glue:text}`fact_A01_gpus_max_405b:,.0f` for Llama 3
# 405B), and turned them into model FLOPs utilization (MFU), cost per million training tokens and
# a comparison with GB200 NVL72 ({ref}`SemiAnalysis, 2025 <src-sa_gb200_2025>`). This chapter
# rebuilds those numbers from the public tables behind them, prices every row, and checks each
# published MFU against its published throughput.

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
import matplotlib.ticker as mticker
from IPython.display import Markdown, display
from matplotlib.lines import Line2D

from analysis import benchmarks, costs, flops, hardware, scaling, tco
from analysis.data import fact, load_table
from analysis.measure.report import load_measured, measured_results, measured_section_markdown
from analysis.notebook import claims_table, comparison_table, glue, glue_facts, glue_figure, start
from analysis.plots import PALETTE, add_source, new_figure
from analysis.tables import markdown_table, pct, rate, usd

P, R = start("benchmarks", globals())
h100_price = tco.system_tco_per_gpu_hour_usd("h100", P)  # the TCO chapter's function, this build's inputs
gb200_price = tco.system_tco_per_gpu_hour_usd("gb200", P)
tco_ratio = gb200_price / h100_price
glue_facts("A01_gpus_total", "A01_gpus_min", "A01_gpus_max", "A01_gpus_max_405b", "A02_ib_links_per_node",
           "A02_ib_gbps_per_link", "A13_h100_usd_per_gpu_hour", "A12_tco_ratio")
bench = benchmarks.load_benchmarks()
models = load_table("models").set_index("model_id")
DENSE = ["gpt3_175b", "llama31_8b", "llama31_70b", "llama31_405b"]  # the H100 sweeps, by size
COLOUR = dict(zip(DENSE, (PALETTE["blue"], PALETTE["orange"], PALETTE["green"], PALETTE["vermillion"])))
STYLE = {"bf16": "-", "fp8": "--"}
RELEASE = "nv_dgxc_v25_02"  # the NVIDIA release whose tables SemiAnalysis's figures match
SA = "sa_gb200_2025"


def name(model_id):
    return models.loc[model_id, "name"]


def gpu_axis(ax, ticks):
    """Log-2 GPU-count axis with the sizes that were measured as ticks."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(mticker.FixedLocator(ticks))
    ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.xaxis.set_minor_locator(mticker.NullLocator())


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
# uses {glue:text}`bench_rows:,` rows: the points SemiAnalysis states in its text, and NVIDIA's
# tables for {glue:text}`dgxc_releases` releases plus the NeMo 24.09 documentation.

# %% tags=["remove-input"]
glue("bench_rows", len(bench), display=False)
glue("dgxc_releases", int(bench["source_id"].str.startswith("nv_dgxc").groupby(bench["source_id"]).any().sum()),
     display=False)
inventory = []
for source_id, group in bench.groupby("source_id", sort=False):
    inventory.append([f"{{ref}}`{source_id} <src-{source_id}>`", group["publisher"].iloc[0],
                      ", ".join(sorted(group["date"].unique())),
                      ", ".join(sorted({name(m) for m in group["model_id"]})),
                      f"{group['gpus'].min():,}-{group['gpus'].max():,}", len(group)])
display(Markdown(markdown_table(["Source", "Publisher", "Release date", "Models", "GPUs", "Rows"], inventory,
                                "llllrr")))

# %% [markdown]
# ## MFU: the formula and the convention
#
# Model FLOPs utilization is the share of the GPU's dense peak that goes into the model's own
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
# states (Llama 3.1 70B at {glue:text}`conv_seq_len:,` tokens: {glue:text}`conv_flops_book:.4g`
# FLOP per token).
#
# Conventions differ, and the same measured throughput then reads as a different "MFU". The
# table takes NVIDIA's Llama 3.1 70B FP8 run on {glue:text}`conv_gpus:,` GPUs
# ({glue:text}`conv_rate:,.1f` tokens/s/GPU) and divides it several ways:

# %% tags=["remove-input"]
ref = benchmarks.sweep(bench, "llama31_70b", "fp8", RELEASE).iloc[0]
conventions = benchmarks.flops_per_token_conventions(models.loc["llama31_70b"], int(ref["seq_len"]))
book_key = next(k for k in conventions if k.startswith("6N + 12Lhs (this book"))
rows = []
for label, per_token in conventions.items():
    rows.append([label, f"{per_token:.4g}", pct(flops.mfu_from_tokens_per_s(ref["tokens_per_s_per_gpu"], per_token,
                                                                            ref["peak_tflops"]))])
sparse_peak = 2 * ref["peak_tflops"]  # NVIDIA datasheets headline 2:4-sparse peaks, exactly twice the dense ones
rows.append(["6N + 12Lhs against the 2:4-sparse datasheet peak", f"{conventions[book_key]:.4g}",
             pct(flops.mfu_from_tokens_per_s(ref["tokens_per_s_per_gpu"], conventions[book_key], sparse_peak))])
display(Markdown(markdown_table(["FLOPs counted per token", "FLOP/token", "\"MFU\""], rows, "lrr")))
R.add("llama3_70b_flops_per_token", conventions[book_key], "FLOP/token",
      f"Llama 3.1 70B model FLOPs per token (seq {int(ref['seq_len']):,})")
mfus = [flops.mfu_from_tokens_per_s(ref["tokens_per_s_per_gpu"], v, ref["peak_tflops"]) for v in conventions.values()]
R.add("mfu_convention_spread", max(mfus) / min(mfus), "x", "Highest / lowest 'MFU' of one run across FLOP conventions")
glue("conv_seq_len", int(ref["seq_len"]), display=False)
glue("conv_flops_book", conventions[book_key], display=False)
glue("conv_gpus", int(ref["gpus"]), display=False)
glue("conv_rate", ref["tokens_per_s_per_gpu"], display=False)
glue("conv_mfu_pct", ref["mfu"] * 100, display=False)


def nvidia_peak(gpu_id, precision):
    """The dense peak NVIDIA divides by in its tables for this GPU and precision."""
    rows_ = bench[(bench["gpu_id"] == gpu_id) & (bench["precision"] == precision) & bench["mfu_peak_tflops"].notna()]
    return float(rows_["mfu_peak_tflops"].iloc[0])


glue("h100_bf16_registry", hardware.peak_tflops("h100_sxm", "bf16"), display=False)
glue("h100_bf16_nvidia", nvidia_peak("h100_sxm", "bf16"), display=False)
glue("gb200_bf16_registry", hardware.peak_tflops("gb200_nvl72", "bf16"), display=False)
glue("gb200_bf16_nvidia", nvidia_peak("gb200_nvl72", "bf16"), display=False)
glue("gb200_peak_gap_pct", (hardware.peak_tflops("gb200_nvl72", "bf16") / nvidia_peak("gb200_nvl72", "bf16") - 1) * 100,
     display=False)

# %% [markdown]
# The same run is anywhere from the lowest to {glue:text}`mfu_convention_spread:.2f` times that
# "MFU" depending on what is counted, before anyone argues about the peak. The peak matters as much:
# a datasheet's headline is the 2:4-sparse figure, twice the dense one, and halves every MFU
# divided by it. Publishers also round: NVIDIA divides by {glue:text}`h100_bf16_nvidia:,.0f`
# TFLOP/s for an H100 in BF16 where the registry has {glue:text}`h100_bf16_registry:,.1f`, and by
# {glue:text}`gb200_bf16_nvidia:,.0f` for a GB200 GPU where the usual dense figure is
# {glue:text}`gb200_bf16_registry:,.0f`, which makes its GB200 MFUs
# {glue:text}`gb200_peak_gap_pct:.1f` % higher. The book always divides by the publisher's own
# peak when it reproduces a publisher's MFU, and says which FLOP count it uses.
#
# ## MFU and throughput against GPU count
#
# NVIDIA's v25.02 tables sweep each model from the smallest cluster its layout fits to
# {glue:text}`fact_A01_gpus_max:,.0f` GPUs ({glue:text}`fact_A01_gpus_max_405b:,.0f` for 405B),
# in BF16 and in FP8. Each sweep keeps the layout of one model replica (tensor, pipeline and
# context parallel degrees) and the batch per GPU, and only adds data-parallel replicas: these
# are weak-scaling sweeps ({ref}`chapter-scaling` has the distinction).

# %% tags=["remove-input"]
ticks = sorted(g for g in set(bench[bench["source_id"] == RELEASE]["gpus"]) if g & (g - 1) == 0)  # powers of two
fig, ax = new_figure("MFU against cluster size, H100, NVIDIA DGXC v25.02", "GPUs (log scale)",
                     "MFU (% of dense peak)", figsize=(7.0, 4.4))
for model_id in DENSE:
    for precision in ("bf16", "fp8"):
        s = benchmarks.sweep(bench, model_id, precision, RELEASE)
        ax.plot(s["gpus"], s["mfu"] * 100, STYLE[precision], marker="o", ms=3, color=COLOUR[model_id])
        sa = benchmarks.sweep(bench, model_id, precision, SA)
        sa = sa[sa["date"] >= "2024-12"]  # SA's Jan 2024 points are older software (software chapter)
        ax.plot(sa["gpus"], sa["mfu"] * 100, "s", mfc="none", ms=7, color=COLOUR[model_id])
gpu_axis(ax, ticks)
handles = [Line2D([], [], color=COLOUR[m], label=name(m)) for m in DENSE]
handles += [Line2D([], [], color="grey", ls=STYLE[p], label=p.upper()) for p in ("bf16", "fp8")]
handles += [Line2D([], [], color="grey", marker="s", mfc="none", ls="none", label="SemiAnalysis's text")]
ax.legend(handles=handles, fontsize=8, ncol=4, loc="lower center")
ax.set_ylim(0, 70)
add_source(fig, "NVIDIA dgxc-benchmarking v25.02 tables (EOS H100); SemiAnalysis 2025 text (squares).")
glue_figure("fig_bench_mfu", fig)

# %% [markdown]
# ```{glue:figure} fig_bench_mfu
# :name: fig-bench-mfu
# :alt: MFU in percent against GPU count on a log axis for four models, solid lines for BF16 between about 52 and 60 percent and dashed lines for FP8 between about 36 and 44 percent, all nearly flat; hollow squares mark SemiAnalysis's points.
#
# MFU hardly moves as replicas are added: BF16 sits above FP8 for every model, and the
# largest fall is FP8 on the smaller models. Hollow squares are the values SemiAnalysis states
# in its text; they match NVIDIA's table except Llama 3 70B FP8 at the largest size.
# ```

# %% tags=["remove-input"]
fig, ax = new_figure("Training throughput per GPU against cluster size, H100, DGXC v25.02", "GPUs (log scale)",
                     "Tokens/s per GPU (log scale)", figsize=(7.0, 4.4))
for model_id in DENSE:
    for precision in ("bf16", "fp8"):
        s = benchmarks.sweep(bench, model_id, precision, RELEASE)
        ax.plot(s["gpus"], s["tokens_per_s_per_gpu"], STYLE[precision], marker="o", ms=3, color=COLOUR[model_id])
gpu_axis(ax, ticks)
ax.set_yscale("log")
ax.yaxis.set_major_locator(mticker.LogLocator(subs=(1.0, 2.0, 5.0)))
ax.yaxis.set_major_formatter(mticker.FuncFormatter(lambda y, _: f"{y:,.0f}"))
ax.yaxis.set_minor_formatter(mticker.NullFormatter())
ax.legend(handles=handles[:-1], fontsize=8, ncol=2, loc="upper right")
add_source(fig, "NVIDIA dgxc-benchmarking v25.02 tables (EOS H100).")
glue_figure("fig_bench_throughput", fig)

# %% [markdown]
# ```{glue:figure} fig_bench_throughput
# :name: fig-bench-throughput
# :alt: Tokens per second per GPU on a log axis against GPU count for four models, each model a pair of nearly flat lines with FP8 dashed above BF16 solid; Llama 3.1 8B near ten thousand, Llama 3.1 70B near fifteen hundred, GPT-3 175B near five to seven hundred and Llama 3.1 405B near two to three hundred.
#
# Per-GPU throughput is set by model size, then by precision: FP8 (dashed) always trains more
# tokens per second than BF16 (solid), although its MFU is lower.
# ```

# %% tags=["hide-input"]
sa70 = {p: benchmarks.sweep(bench, "llama31_70b", p, SA) for p in ("fp8", "bf16")}
nv70 = {p: benchmarks.sweep(bench, "llama31_70b", p, RELEASE) for p in ("fp8", "bf16")}
R.add("llama3_70b_fp8_mfu_relative_drop_64_to_2048",
      scaling.relative_drop(sa70["fp8"]["mfu"].iloc[0], sa70["fp8"]["mfu"].iloc[-1]),
      "fraction", "Llama 3 70B FP8 MFU relative drop, smallest to largest cluster (SemiAnalysis's figures)")
R.add("llama3_70b_bf16_mfu_relative_drop_64_to_2048",
      scaling.relative_drop(sa70["bf16"]["mfu"].iloc[0], sa70["bf16"]["mfu"].iloc[-1]),
      "fraction", "Llama 3 70B BF16 MFU relative drop, smallest to largest cluster (SemiAnalysis's figures)")
R.add("llama3_70b_fp8_mfu_relative_drop_nvidia",
      scaling.relative_drop(nv70["fp8"]["mfu"].iloc[0], nv70["fp8"]["mfu"].iloc[-1]),
      "fraction", "Llama 3.1 70B FP8 MFU relative drop, NVIDIA v25.02 table")
R.add("llama3_70b_fp8_mfu_2048_nvidia", nv70["fp8"]["mfu"].iloc[-1], "fraction",
      "Llama 3.1 70B FP8 MFU at the largest size, NVIDIA v25.02 table")
nv405 = benchmarks.sweep(bench, "llama31_405b", "bf16", RELEASE)
big405 = nv405[nv405["gpus"] == fact("A01_gpus_max_405b")].iloc[0]
R.add("llama3_405b_bf16_tokens_per_s_per_gpu_2304", big405["tokens_per_s_per_gpu"], "tokens/s/GPU",
      "Llama 3.1 405B BF16 tokens/s per GPU on the largest cluster (NVIDIA v25.02)")
for key in ("llama3_70b_fp8_mfu_relative_drop_64_to_2048", "llama3_70b_bf16_mfu_relative_drop_64_to_2048",
            "llama3_70b_fp8_mfu_relative_drop_nvidia", "llama3_70b_fp8_mfu_2048_nvidia"):
    glue(f"{key}_pct", R[key] * 100, display=False)
for p in ("fp8", "bf16"):
    glue(f"sa70_{p}_small_pct", sa70[p]["mfu"].iloc[0] * 100, display=False)
    glue(f"sa70_{p}_large_pct", sa70[p]["mfu"].iloc[-1] * 100, display=False)
glue("sa70_small_gpus", int(sa70["fp8"]["gpus"].iloc[0]), display=False)
glue("sa70_large_gpus", int(sa70["fp8"]["gpus"].iloc[-1]), display=False)
glue("fact_A39_sa_stated_drop_pct", fact("A39_sa_stated_drop") * 100, display=False)

# %% [markdown]
# Between {glue:text}`sa70_small_gpus:,` and {glue:text}`sa70_large_gpus:,` GPUs, SemiAnalysis's
# Llama 3 70B FP8 MFU goes from {glue:text}`sa70_fp8_small_pct:.1f` % to
# {glue:text}`sa70_fp8_large_pct:.1f` %, a relative drop of
# {glue:text}`llama3_70b_fp8_mfu_relative_drop_64_to_2048_pct:.1f` %, which the report calls
# "~{glue:text}`fact_A39_sa_stated_drop_pct:.0f` %". NVIDIA's table for the same release has
# {glue:text}`llama3_70b_fp8_mfu_2048_nvidia_pct:.2f` % at the largest size, a drop of only
# {glue:text}`llama3_70b_fp8_mfu_relative_drop_nvidia_pct:.1f` %; SemiAnalysis's energy figures
# are consistent with its own, lower number, so it may come from another run. In BF16 the fall is
# {glue:text}`sa70_bf16_small_pct:.1f` % to {glue:text}`sa70_bf16_large_pct:.1f` %, a
# {glue:text}`llama3_70b_bf16_mfu_relative_drop_64_to_2048_pct:.1f` % drop. Llama 3.1 405B on the
# largest cluster trains {glue:text}`llama3_405b_bf16_tokens_per_s_per_gpu_2304:.1f` tokens/s per
# GPU in BF16.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("llama3_70b_fp8_mfu_relative_drop_64_to_2048", "A39_sa_stated_drop"),
                                      ("llama3_70b_fp8_mfu_2048_nvidia", "A39_70b_fp8_mfu_2048")])))

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

# %% tags=["hide-input"]
pairs = benchmarks.precision_pairs(bench[bench["source_id"] == RELEASE])
pair70 = pairs[(pairs["model_id"] == "llama31_70b") & (pairs["gpus"] == ref["gpus"])].iloc[0]
factor = hardware.peak_tflops("h100_sxm", "fp8") / hardware.peak_tflops("h100_sxm", "bf16")
R.add("fp8_over_bf16_throughput_70b", pair70["throughput_ratio"], "x",
      "Llama 3.1 70B FP8 / BF16 tokens/s per GPU, smallest cluster, v25.02")
R.add("fp8_over_bf16_mfu_70b", pair70["mfu_ratio"], "x", "Llama 3.1 70B FP8 / BF16 MFU, smallest cluster, v25.02")
R.add("fp8_accelerated_share_70b", benchmarks.accelerated_share(pair70["throughput_ratio"], factor), "fraction",
      "Share of the BF16 step that FP8's 2x path must cover to give the measured speed-up (Llama 3.1 70B)")
R.add("fp8_over_bf16_throughput_min", pairs["throughput_ratio"].min(), "x", "Lowest FP8/BF16 throughput ratio, v25.02")
R.add("fp8_over_bf16_throughput_max", pairs["throughput_ratio"].max(), "x", "Highest FP8/BF16 throughput ratio, v25.02")
glue("fp8_accelerated_share_70b_pct", R["fp8_accelerated_share_70b"] * 100, display=False)
glue("fp8_peak_factor", factor, display=False)

# %% [markdown]
# On {glue:text}`conv_gpus:,` GPUs, Llama 3.1 70B trains {glue:text}`fp8_over_bf16_throughput_70b:.2f`x
# as many tokens per second in FP8 as in BF16, while its MFU is
# {glue:text}`fp8_over_bf16_mfu_70b:.2f`x the BF16 figure. A {glue:text}`fp8_over_bf16_throughput_70b:.2f`x
# speed-up from a {glue:text}`fp8_peak_factor:.0f`x faster path means that path covered about
# {glue:text}`fp8_accelerated_share_70b_pct:.0f` % of the BF16 step time (if it ran at its full
# peak ratio). Across all v25.02 pairs FP8 is {glue:text}`fp8_over_bf16_throughput_min:.2f`x to
# {glue:text}`fp8_over_bf16_throughput_max:.2f`x faster. For cost, throughput is what counts: a
# lower MFU in FP8 is still the cheaper token.
#
# ## Cost per million tokens
#
# A GPU-hour trains 3,600 × *r* tokens at *r* tokens/s/GPU, so a million tokens cost the GPU-hour
# price times 10⁶ / (3,600 × *r*). SemiAnalysis prices every H100 figure at
# \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f` per GPU-hour without rental margin (fact A13);
# this chapter uses the {ref}`TCO chapter's <chapter-tco>` cost of an H100 GPU-hour with this build's
# inputs (\${glue:text}`h100_price:.2f`) and of a GB200 GPU-hour (\${glue:text}`gb200_price:.2f`,
# {glue:text}`tco_ratio:.2f`x; SemiAnalysis's ratio is {glue:text}`fact_A12_tco_ratio:.1f`x). The headline table shows the release
# SemiAnalysis used, at the smallest and the largest cluster of each sweep.

# %% tags=["hide-input"]
prices = {"h100_sxm": h100_price, "gb200_nvl72": gb200_price}
priced = benchmarks.with_costs(bench, prices)
glue("h100_price", prices["h100_sxm"], display=False)
glue("gb200_price", prices["gb200_nvl72"], display=False)
glue("tco_ratio", tco_ratio, display=False)
nv = priced[priced["source_id"] == RELEASE]
cost405 = priced.loc[big405.name, "usd_per_million_tokens"]
cost70 = nv[(nv["model_id"] == "llama31_70b") & (nv["precision"] == "bf16")].sort_values("gpus").iloc[-1]
R.add("llama3_405b_bf16_usd_per_million_tokens_2304", cost405, "USD per 1M tokens",
      "Llama 3.1 405B BF16 cost per 1M tokens on the largest cluster")
R.add("llama3_405b_to_70b_bf16_cost_ratio", cost405 / cost70["usd_per_million_tokens"], "x",
      "Llama 3.1 405B / 70B BF16 cost per token, largest clusters")
R.add("llama3_405b_to_70b_param_ratio",
      models.loc["llama31_405b", "total_params"] / models.loc["llama31_70b", "total_params"], "x",
      "Llama 3.1 405B / 70B parameter count")
R.add("priced_rows", len(priced), "rows", "Benchmark rows priced")

# %% tags=["remove-input"]
head = []
for model_id in DENSE:
    for precision in ("bf16", "fp8"):
        s = nv[(nv["model_id"] == model_id) & (nv["precision"] == precision)].sort_values("gpus")
        for _, r in s.iloc[[0, -1]].iterrows():
            head.append([name(model_id), precision.upper(), f"{r['gpus']:,}", pct(r["mfu"]),
                         rate(r["tokens_per_s_per_gpu"]), usd(r["usd_per_million_tokens"])])
display(Markdown(markdown_table(["Model", "Precision", "GPUs", "MFU", "Tokens/s/GPU", "USD per 1M tokens"],
                                head, "llrrrr")))

# %% [markdown]
# At ~2,000 GPUs a Llama 3.1 405B token costs {glue:text}`llama3_405b_to_70b_bf16_cost_ratio:.2f`
# times a 70B token, a little less than the {glue:text}`llama3_405b_to_70b_param_ratio:.2f`x
# ratio of their parameter counts: the larger model keeps a slightly higher MFU.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("llama3_405b_bf16_usd_per_million_tokens_2304", "A34_405b_bf16_cost_per_1m"),
                                      ("llama3_405b_to_70b_bf16_cost_ratio", "A42_cost_ratio"),
                                      ("llama3_405b_to_70b_param_ratio", "A42_param_ratio")])))

# %% [markdown]
# Every row of `data/benchmarks.csv`, priced the same way (*basis* says which of MFU and
# tokens/s the publisher printed; the other is derived with the FLOP count above):

# %% tags=["remove-input"]
every = [[name(r.model_id), r.gpu_id, r.precision.upper(), f"{r.gpus:,}", r.software, r.publisher, pct(r.mfu),
          rate(r.tokens_per_s_per_gpu), r.basis, usd(r.usd_per_million_tokens)]
         for r in priced.sort_values(["model_id", "gpu_id", "precision", "date", "gpus"]).itertuples()]
display(Markdown("\n".join([":::{admonition} " + f"All {len(every)} benchmark rows with their cost per 1M tokens",
                            ":class: dropdown", "",
                            markdown_table(["Model", "GPU", "Precision", "GPUs", "Release", "Publisher", "MFU",
                                            "Tokens/s/GPU", "Basis", "USD per 1M tokens"], every, "lllrllrrlr"),
                            ":::"])))

# %% [markdown]
# ## GB200 NVL72 against H100
#
# SemiAnalysis benchmarked GB200 NVL72 on Llama 4 Maverick (400B parameters, mixture of experts)
# and DeepSeek-V3 (671B, mixture of experts), but those results are behind its paywall. What is
# public are **NVIDIA's own** v25.05 tables for the same models on GB200 NVL72 and H100, plus Llama 3.1
# 405B. The ratios below are NVIDIA's numbers, not SemiAnalysis's. For each GPU type they take
# the latest release's best per-GPU throughput, which is at its smallest published cluster:
# {glue:text}`gb200_gpus_min:,` GB200 GPUs against {glue:text}`h100_gpus_moe:,` H100s for the
# MoE models, which flatters GB200 a little.

# %% tags=["hide-input"]
COMPARED = [("deepseek_v3", "bf16", "deepseek_v3"), ("llama4_maverick", "bf16", "maverick_bf16"),
            ("llama4_maverick", "fp8", "maverick_fp8"), ("llama31_405b", "bf16", "llama3_405b_bf16"),
            ("llama31_405b", "fp8", "llama3_405b_fp8")]
gb_rows = []
for model_id, precision, key in COMPARED:
    gb = benchmarks.best_rate_row(bench, model_id, precision, "gb200_nvl72")
    h = benchmarks.best_rate_row(bench, model_id, precision, "h100_sxm")
    ratio = gb["tokens_per_s_per_gpu"] / h["tokens_per_s_per_gpu"]
    R.add(f"gb200_vs_h100_{key}_throughput_ratio", ratio, "x",
          f"{name(model_id)} {precision.upper()} tokens/s per GPU, GB200 NVL72 / H100 (NVIDIA)")
    R.add(f"gb200_vs_h100_{key}_perf_per_tco", costs.perf_per_tco_ratio(ratio, tco_ratio), "x",
          f"{name(model_id)} {precision.upper()} performance per TCO dollar, GB200 / H100")
    gb_rows.append([f"{name(model_id)} {precision.upper()}", f"{gb['gpus']:,} ({gb['software']})",
                    rate(gb["tokens_per_s_per_gpu"]), f"{h['gpus']:,} ({h['software']})", rate(h["tokens_per_s_per_gpu"]),
                    f"{ratio:.2f}x", f"{R[f'gb200_vs_h100_{key}_perf_per_tco']:.2f}x",
                    usd(costs.usd_per_million_tokens(prices["gb200_nvl72"], gb["tokens_per_s_per_gpu"])),
                    usd(costs.usd_per_million_tokens(prices["h100_sxm"], h["tokens_per_s_per_gpu"]))])
glue("gb200_gpus_min", int(benchmarks.best_rate_row(bench, "deepseek_v3", "bf16", "gb200_nvl72")["gpus"]), display=False)
glue("h100_gpus_moe", int(benchmarks.best_rate_row(bench, "llama4_maverick", "bf16", "h100_sxm")["gpus"]), display=False)
glue("h100_gpus_deepseek", int(benchmarks.best_rate_row(bench, "deepseek_v3", "bf16", "h100_sxm")["gpus"]), display=False)

# %% tags=["remove-input"]
display(Markdown(markdown_table(
    ["Model", "GB200 GPUs (release)", "GB200 tok/s/GPU", "H100 GPUs (release)", "H100 tok/s/GPU", "GB200 / H100",
     "Per TCO dollar", "GB200 USD per 1M", "H100 USD per 1M"], gb_rows, "llrlrrrrr")))

# %% tags=["remove-input"]
labels = [row[0] for row in gb_rows]
ratios = [R[f"gb200_vs_h100_{key}_throughput_ratio"] for _, _, key in COMPARED]
fig, ax = new_figure("GB200 NVL72 against H100, per-GPU throughput",
                     "GB200 tokens/s per GPU / H100 tokens/s per GPU (x)", "", figsize=(7.0, 3.4))
colours = [PALETTE["green"] if r >= tco_ratio else PALETTE["vermillion"] for r in ratios]
ax.barh(labels, ratios, color=colours)
for y, r in enumerate(ratios):  # value inside the bar end, clear of the break-even line
    ax.annotate(f"{r:.2f}x", (r, y), xytext=(-4, 0), textcoords="offset points", va="center", ha="right",
                fontsize=8, color="white", fontweight="bold")
ax.axvline(tco_ratio, color=PALETTE["black"], ls="--", lw=1)
ax.annotate(f"break-even: TCO ratio {tco_ratio:.2f}x", (tco_ratio, -0.5),
            xytext=(4, -2), textcoords="offset points", fontsize=8, va="top")
ax.axvline(1.0, color="grey", lw=0.8)
ax.set_ylim(len(ratios) - 0.5, -0.9)  # first row on top, room for the break-even label
ax.set_xlim(0, max(ratios) * 1.15)
add_source(fig, "NVIDIA dgxc-benchmarking v25.05 (GB200 NVL72, H100) and v25.04 (H100 Llama 3.1 405B); "
                "break-even = SemiAnalysis's GB200/H100 TCO ratio (A12).")
glue_figure("fig_bench_gb200", fig)

# %% [markdown]
# ```{glue:figure} fig_bench_gb200
# :name: fig-bench-gb200
# :alt: Horizontal bars of GB200-to-H100 per-GPU throughput ratios for five model and precision pairs, with a dashed vertical line at the TCO break-even; DeepSeek-V3 falls short of the line and the others pass it.
#
# Per GPU, GB200 NVL72 trains Llama 4 Maverick and Llama 3.1 405B more than twice as fast as
# H100 in NVIDIA's tables, past the break-even set by its higher cost of ownership (dashed);
# DeepSeek-V3 is {glue:text}`gb200_vs_h100_deepseek_v3_throughput_ratio:.2f`x faster,
# {glue:text}`deepseek_side` it.
# ```

# %% [markdown]
# SemiAnalysis puts the TCO of a GB200 NVL72 GPU at ~{glue:text}`fact_A12_tco_ratio:.1f`x an H100's,
# so GB200 must train at least that much faster to win on performance per dollar (this build
# uses {glue:text}`tco_ratio:.2f`x). In NVIDIA's numbers it clears that line in
# {glue:text}`gb200_wins` of the {glue:text}`gb200_compared` comparisons. Llama 4 Maverick trains
# {glue:text}`gb200_vs_h100_maverick_bf16_throughput_ratio:.2f`x as fast in BF16 and
# {glue:text}`gb200_vs_h100_maverick_fp8_throughput_ratio:.2f`x in FP8, Llama 3.1 405B
# {glue:text}`gb200_vs_h100_llama3_405b_bf16_throughput_ratio:.2f`x in BF16. DeepSeek-V3 trains
# {glue:text}`gb200_vs_h100_deepseek_v3_throughput_ratio:.2f`x as fast (against
# {glue:text}`h100_gpus_deepseek:,` H100s), so a DeepSeek-V3 token costs {glue:text}`deepseek_verdict`
# on GB200. These are
# NVIDIA's reference runs, with GB200 software still young (SemiAnalysis expects it to improve
# through 2025) and without the downtime SemiAnalysis charges GB200 for its still-unreliable
# NVLink backplane; its own perf-per-TCO verdict is paywalled.

# %% tags=["remove-cell"]
deepseek = R["gb200_vs_h100_deepseek_v3_perf_per_tco"]
glue("deepseek_verdict", f"{abs(1 / deepseek - 1) * 100:.0f} % {'more' if deepseek < 1 else 'less'}", display=False)
glue("deepseek_side", "short of" if deepseek < 1 else "past", display=False)
glue("gb200_wins", sum(R[f"gb200_vs_h100_{key}_perf_per_tco"] >= 1 for _, _, key in COMPARED), display=False)
glue("gb200_compared", len(COMPARED), display=False)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gb200_vs_h100_deepseek_v3_throughput_ratio", "A49_deepseek_ratio"),
    ("gb200_vs_h100_maverick_bf16_throughput_ratio", "A50_maverick_bf16_ratio"),
    ("gb200_vs_h100_maverick_fp8_throughput_ratio", "A50_maverick_fp8_ratio"),
    ("gb200_vs_h100_llama3_405b_bf16_throughput_ratio", "A51_bf16_ratio_vs_h100"),
    ("gb200_vs_h100_llama3_405b_fp8_throughput_ratio", "A51_fp8_ratio_vs_h100")])))

# %% [markdown]
# ## Data check: does each printed MFU follow from its printed throughput?
#
# NVIDIA prints both MFU and tokens/s/GPU. Converting one into the other with the package's FLOP
# count and the publisher's peak should land within `mfu_check_tolerance` =
# {glue:text}`tolerance_pct:.1f` %. Of the {glue:text}`conversion_rows_checked:.0f` rows that print
# both, {glue:text}`conversion_passes:.0f` do, {glue:text}`dense_clause`.
# The {glue:text}`conversion_failures:.0f` that do not are listed below with the likely reason.

# %% tags=["hide-input"]
check = benchmarks.conversion_check(bench, P.mfu_check_tolerance)
failures = check[~check["passes"]]
dense = check["model_id"].isin(DENSE)
R.add("conversion_rows_checked", len(check), "rows", "Rows printing both MFU and tokens/s/GPU")
R.add("conversion_passes", int(check["passes"].sum()), "rows", "Rows whose MFU the package reproduces within tolerance")
R.add("conversion_failures", len(failures), "rows", "Rows whose printed MFU does not follow from their throughput")
R.add("conversion_dense_failures", int((~check.loc[dense, "passes"]).sum()), "rows",
      "Dense-model rows whose printed MFU does not follow from their throughput")
R.add("conversion_dense_worst_miss", (check.loc[dense, "ratio"] - 1).abs().max(), "fraction",
      "Largest relative MFU miss among dense-model rows")
typo = failures[failures["diagnosis"].str.contains("FP8 peak")]
typo_fp8_over_bf16 = hardware.peak_tflops("gb200_nvl72", "fp8") / hardware.peak_tflops("gb200_nvl72", "bf16")
R.add("typo_rows", len(typo), "rows", "Rows whose MFU was divided by the FP8 peak")
if len(typo):
    R.add("maverick_gb200_bf16_mfu_printed", typo["mfu_reported"].iloc[0], "fraction", "Printed MFU of the misprinted row")
    R.add("maverick_gb200_bf16_mfu_against_bf16_peak", typo["mfu_reported"].iloc[0] * typo_fp8_over_bf16, "fraction",
          "The misprinted MFU recomputed against the BF16 peak")
glue("tolerance_pct", P.mfu_check_tolerance * 100, display=False)
glue("conversion_dense_worst_miss_pct", R["conversion_dense_worst_miss"] * 100, display=False)
n_dense_fail = int(R["conversion_dense_failures"])
glue("dense_clause", "including every dense-model row on both GPU types" if n_dense_fail == 0 else
     f"but {n_dense_fail} of them are dense-model rows", display=False)

# %% tags=["remove-input"]
fail_rows = [[name(r.model_id), r.gpu_id, r.precision.upper(), f"{r.gpus:,}", pct(r.mfu_reported, 2),
              pct(r.mfu_reproduced, 2), f"{r.ratio:.3f}", f"{r.publisher_flops_per_token:.3g}",
              f"{r.flops_per_token:.3g}", r.diagnosis] for r in failures.itertuples()]
display(Markdown(markdown_table(
    ["Model", "GPU", "Precision", "GPUs", "Printed MFU", "Reproduced MFU", "Ratio", "Publisher FLOP/token",
     "6N+12Lhs FLOP/token", "Likely reason"], fail_rows, "lllrrrrrrl")))

# %% [markdown]
# Two things go wrong, neither of them in the measurements. For the mixture-of-experts models,
# NVIDIA's MFU implies its own per-token FLOP count (the "publisher" column), which differs from
# $6N_{\mathrm{active}} + 12Lhs$ by {glue:text}`moe_miss_min_pct:.0f` to {glue:text}`moe_miss_max_pct:.0f` % in
# either direction; the throughput is what
# the comparisons above use. And one row is a misprint: NVIDIA's Llama 4 Maverick BF16 row on
# {glue:text}`typo_gpus:,` GB200 GPUs prints {glue:text}`typo_printed_pct:.2f` %, half of what its
# throughput gives under NVIDIA's own FLOP count: it was divided by the FP8 peak. Against the BF16 peak it is
# {glue:text}`typo_fixed_pct:.1f` %, in line with the same model's other sizes. Among the dense
# rows the worst miss is {glue:text}`conversion_dense_worst_miss_pct:.2f` %.

# %% tags=["remove-cell"]
glue("typo_gpus", int(typo["gpus"].iloc[0]) if len(typo) else 0, display=False)
moe_miss = (failures.drop(typo.index)["ratio"] - 1).abs()
glue("moe_miss_min_pct", moe_miss.min() * 100 if len(moe_miss) else 0.0, display=False)
glue("moe_miss_max_pct", moe_miss.max() * 100 if len(moe_miss) else 0.0, display=False)
glue("typo_printed_pct", R.results.get("maverick_gb200_bf16_mfu_printed", {"value": 0.0})["value"] * 100, display=False)
glue("typo_fixed_pct", R.results.get("maverick_gb200_bf16_mfu_against_bf16_peak", {"value": 0.0})["value"] * 100,
     display=False)

# %% [markdown]
# ## Measured on this machine
#
# Everything above is NVIDIA's published data. The `measure` command times this machine's dense
# matmul peak and one training step of a small GPT-style model, counting its FLOPs with the same
# accounting, and records the result in `data/measured/` ({ref}`how to rerun <rerun>`). It is kept
# apart from the published rows: a two-core CPU is not a GPU cluster, but the arithmetic from
# throughput to MFU, dollars and joules is the same.

# %% tags=["remove-input"]
measured = load_measured()
for key, (value, unit, label) in measured_results(measured, P.local_gpu_hour_usd, P.local_power_w).items():
    R.add(key, value, unit, label)
display(Markdown(measured_section_markdown(measured, usd_per_device_hour=P.local_gpu_hour_usd,
                                           power_w=P.local_power_w)))

# %% [markdown]
# ## The seed's claim, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("benchmarks", R)))

# %% tags=["remove-cell"]
R.save()
