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
# (chapter-software)=
# # Software gains on unchanged hardware
#
# A GPU cluster gets faster after it is bought. Between January and December 2024, with the same
# H100s, the same model and the same {glue:text}`gpt3_gpus:,`-GPU cluster, NVIDIA's NeMo
# Megatron releases raised GPT-3 175B's training throughput by {glue:text}`fact_A19_pct:.0f` % in
# BF16 and {glue:text}`fact_A21_pct:.0f` % in FP8 ({ref}`SemiAnalysis, 2025 <src-sa_gb200_2025>`). SemiAnalysis credits better
# fused matrix-multiply kernels in cuDNN and cuBLAS, and NCCL collectives that occupy fewer of
# the GPU's streaming multiprocessors. This chapter measures that gain and the later ones in
# NVIDIA's public tables, prices it, and corrects the seed summary's version of it.

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
import matplotlib.dates as mdates
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.lines import Line2D

from analysis import benchmarks, costs, hardware, software, tco
from analysis.data import fact, load_table
from analysis.notebook import claims_table, comparison_table, glue, glue_facts, glue_figure, start
from analysis.plots import PALETTE, add_source, new_figure
from analysis.tables import markdown_table, pct
from analysis.units import SECONDS_PER_DAY

P, R = start("software", globals())
h100_price = tco.system_tco_per_gpu_hour_usd("h100", P)  # the TCO chapter's function, this build's inputs
glue_facts("A13_h100_usd_per_gpu_hour", "A17_jan2024_years_after", "A14_a3mega_mfu_gap_dense",
           "A14_a3mega_mfu_gap_moe", "A14_price_discount", "A15_pytorch_parity_months")
bench = benchmarks.load_benchmarks()
models = load_table("models").set_index("model_id")
SA = "sa_gb200_2025"
RELEASE = "nv_dgxc_v25_02"  # the NVIDIA release whose tables SemiAnalysis's figures match
DENSE = ["gpt3_175b", "llama31_8b", "llama31_70b", "llama31_405b"]
COLOUR = dict(zip(DENSE, (PALETTE["blue"], PALETTE["orange"], PALETTE["green"], PALETTE["vermillion"])))
gpt3 = models.loc["gpt3_175b"]
sa_gpt3 = bench[(bench["source_id"] == SA) & (bench["model_id"] == "gpt3_175b")].set_index(["precision", "date"])
JAN, DEC = sorted(sa_gpt3.index.get_level_values("date").unique())  # SA's two endpoints, Jan and Dec 2024
glue("gpt3_gpus", int(sa_gpt3["gpus"].iloc[0]), display=False)

# %% [markdown]
# ## GPT-3 175B through 2024
#
# SemiAnalysis gives the two ends of the year for GPT-3 175B on {glue:text}`gpt3_gpus:,` H100s
# (its month-by-month table is an image): MFU rose from {glue:text}`gpt3_175b_bf16_mfu_jan2024_pct:.1f` %
# to {glue:text}`gpt3_175b_bf16_mfu_dec2024_pct:.1f` % in BF16 and from
# {glue:text}`gpt3_175b_fp8_mfu_jan2024_pct:.1f` % to {glue:text}`gpt3_175b_fp8_mfu_dec2024_pct:.1f` %
# in FP8. On the same hardware, model and layout, throughput moves with MFU, so that is
# {glue:text}`gpt3_175b_bf16_throughput_gain_pct:.0f` % and {glue:text}`gpt3_175b_fp8_throughput_gain_pct:.0f` %
# more tokens per second. NVIDIA's public v25.02 table, the NeMo 24.12 software of December 2024,
# independently gives {glue:text}`gpt3_175b_bf16_mfu_dec2024_nvidia_pct:.2f` % and
# {glue:text}`gpt3_175b_fp8_mfu_dec2024_nvidia_pct:.2f` %. SemiAnalysis's
# "{glue:text}`fact_A19_pct:.0f` %" BF16 gain is what NVIDIA's unrounded December figure gives
# ({glue:text}`gpt3_175b_bf16_throughput_gain_nvidia_pct:.1f` %); its own rounded
# {glue:text}`gpt3_175b_bf16_mfu_dec2024_pct:.0f` % would give {glue:text}`gpt3_175b_bf16_throughput_gain_pct:.1f` %.

# %% tags=["hide-input"]
mfu = {(p, t): sa_gpt3.loc[(p, t), "mfu"] for p in ("bf16", "fp8") for t in (JAN, DEC)}
nv_dec = {p: benchmarks.sweep(bench, "gpt3_175b", p, RELEASE).iloc[0] for p in ("bf16", "fp8")}
for p in ("bf16", "fp8"):
    R.add(f"gpt3_175b_{p}_mfu_jan2024", mfu[(p, JAN)], "fraction", f"GPT-3 175B {p.upper()} MFU, Jan 2024 software")
    R.add(f"gpt3_175b_{p}_mfu_dec2024", mfu[(p, DEC)], "fraction", f"GPT-3 175B {p.upper()} MFU, Dec 2024 software")
    R.add(f"gpt3_175b_{p}_mfu_dec2024_nvidia", nv_dec[p]["mfu"], "fraction",
          f"GPT-3 175B {p.upper()} MFU, NVIDIA v25.02 (NeMo 24.12) table")
    R.add(f"gpt3_175b_{p}_throughput_gain", software.throughput_gain(mfu[(p, JAN)], mfu[(p, DEC)]), "fraction",
          f"GPT-3 175B {p.upper()} throughput gain, Jan -> Dec 2024 (SemiAnalysis's MFUs)")
    R.add(f"gpt3_175b_{p}_throughput_gain_nvidia", software.throughput_gain(mfu[(p, JAN)], nv_dec[p]["mfu"]), "fraction",
          f"GPT-3 175B {p.upper()} throughput gain, Jan 2024 -> NVIDIA's Dec 2024 table")
for key in list(R.results):
    if R.results[key]["unit"] == "fraction":
        glue(f"{key}_pct", R[key] * 100, display=False)
glue("fact_A19_pct", fact("A19_bf16_throughput_gain") * 100, display=False)
glue("fact_A21_pct", fact("A21_fp8_throughput_gain") * 100, display=False)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gpt3_175b_bf16_mfu_dec2024_nvidia", "A18_mfu_bf16_dec2024"), ("gpt3_175b_fp8_mfu_dec2024_nvidia", "A20_mfu_fp8_dec2024"),
    ("gpt3_175b_bf16_throughput_gain", "A19_bf16_throughput_gain"),
    ("gpt3_175b_bf16_throughput_gain_nvidia", "A19_bf16_throughput_gain"),
    ("gpt3_175b_fp8_throughput_gain", "A21_fp8_throughput_gain")])))

# %% [markdown]
# ## Across NVIDIA's releases
#
# NVIDIA's DGXC tables let the same comparison run past 2024, for Llama 3.1 as well. The chart
# takes each model at the smallest cluster each release published (where sizes differ between
# releases, the table says so) and plots its MFU against the release date.

# %% tags=["remove-input"]
fig, ax = new_figure("MFU across software releases, same H100 hardware", "Software release date",
                     "MFU (% of dense peak)", figsize=(7.0, 4.4))
MARKER = {"NVIDIA": "o", "SemiAnalysis": "s"}
for model_id in DENSE:
    for precision, style in (("bf16", "-"), ("fp8", "--")):
        s = software.release_series(bench, model_id, precision)
        when = pd.to_datetime(s["date"], format="%Y-%m")
        ax.plot(when, s["mfu"] * 100, style, color=COLOUR[model_id], lw=1.2)
        for publisher, marker in MARKER.items():
            mask = (s["publisher"] == publisher).to_numpy()
            ax.plot(when[mask], s["mfu"][mask] * 100, marker, color=COLOUR[model_id], ms=4,
                    mfc="none" if publisher == "SemiAnalysis" else COLOUR[model_id], ls="none")
handles = [Line2D([], [], color=COLOUR[m], label=models.loc[m, "name"]) for m in DENSE]
handles += [Line2D([], [], color="grey", ls="-", label="BF16"), Line2D([], [], color="grey", ls="--", label="FP8")]
handles += [Line2D([], [], color="grey", marker=m, ls="none", mfc="none" if p == "SemiAnalysis" else "grey",
                   label=f"{p} figure") for p, m in MARKER.items()]
ax.legend(handles=handles, fontsize=8, ncol=2, loc="lower right")
ax.set_ylim(0, 70)
ax.xaxis.set_major_locator(mdates.MonthLocator(bymonth=(1, 4, 7, 10)))
ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %Y"))
add_source(fig, "SemiAnalysis 2025 (hollow squares); NVIDIA dgxc-benchmarking v24.11.1, v25.02, v25.04 and NeMo 24.09 "
                "docs (dots). Smallest published cluster per release.")
glue_figure("fig_software_mfu", fig)

# %% [markdown]
# ```{glue:figure} fig_software_mfu
# :name: fig-software-mfu
# :alt: MFU in percent against release date from January 2024 to April 2025, one line per model and precision; GPT-3 175B rises steeply during 2024 in both BF16 and FP8, while the Llama 3.1 lines from late 2024 on are nearly flat.
#
# GPT-3 175B (blue) gained most of its throughput during 2024; the Llama 3.1 recipes, published
# from November 2024 on, moved only a few points after that. NVIDIA's v24.11.1 GPT-3 table runs
# the NeMo 24.05 container, so its point is older software than its date suggests.
# ```

# %% tags=["hide-input"]
dgxc = [s for s in load_table("sources")["source_id"] if s.startswith("nv_dgxc")]
rows = []
for model_id in DENSE[1:]:
    for precision in ("bf16", "fp8"):
        series = software.release_series(bench[bench["source_id"].isin(dgxc)], model_id, precision)
        g = software.first_last_gain(series)
        key = f"{model_id}_{precision}_release_gain"
        R.add(key, g["gain"], "fraction", f"{models.loc[model_id, 'name']} {precision.upper()} throughput gain, "
                                          f"{g['first']['software']} -> {g['last']['software']}")
        size = f"{g['first']['gpus']:,}" if g["first"]["gpus"] == g["last"]["gpus"] else \
            f"{g['first']['gpus']:,} → {g['last']['gpus']:,}"
        rows.append([models.loc[model_id, "name"], precision.upper(), size, g["first"]["software"], pct(g["first"]["mfu"]),
                     g["last"]["software"], pct(g["last"]["mfu"]), f"{g['gain'] * 100:+.1f} %"])

# %% tags=["remove-input"]
display(Markdown(markdown_table(["Model", "Precision", "GPUs", "First release", "MFU", "Last release", "MFU",
                                 "Throughput gain"], rows, "llrlrlrr")))

# %% [markdown]
# After its big 2024 gains the stack moved little for the largest dense models: between NVIDIA's
# first and last Llama 3.1 tables, throughput changed by {glue:text}`llama_gain_min_pct:+.1f` % to
# {glue:text}`llama_gain_max_pct:+.1f` %, and the largest FP8 gain for Llama 3.1 70B came with a new
# layout (no context parallelism, a deeper pipeline), not with faster kernels alone.

# %% tags=["remove-cell"]
gains = [R[f"{m}_{p}_release_gain"] for m in DENSE[1:] for p in ("bf16", "fp8")]
glue("llama_gain_min_pct", min(gains) * 100, display=False)
glue("llama_gain_max_pct", max(gains) * 100, display=False)

# %% [markdown]
# ## The dollars
#
# At SemiAnalysis's \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f` per H100-hour (this build:
# \${glue:text}`price:.2f`, the {ref}`TCO chapter's <chapter-tco>` H100 cost with this build's inputs), the FP8 year of software took a
# million GPT-3 tokens from {glue:text}`fp8_cents_jan:.1f` to {glue:text}`fp8_cents_dec:.1f` US cents,
# and GPT-3's original {glue:text}`gpt3_tokens_b:.0f`B-token training run from
# \${glue:text}`gpt3_175b_fp8_cost_300b_tokens_jan2024_usd_k:.0f`k to
# \${glue:text}`gpt3_175b_fp8_cost_300b_tokens_dec2024_usd_k:.0f`k. In BF16 the December run costs
# \${glue:text}`gpt3_175b_bf16_cost_300b_tokens_dec2024_usd_k:.0f`k: FP8 is cheaper even at its lower MFU.

# %% tags=["hide-input"]
flops_per_token = float(benchmarks.sweep(bench, "gpt3_175b", "fp8", SA)["flops_per_token"].iloc[0])
for p in ("bf16", "fp8"):
    for t, label in ((JAN, "jan2024"), (DEC, "dec2024")):
        when = pd.to_datetime(t, format="%Y-%m").strftime("%b %Y")
        r = sa_gpt3.loc[(p, t), "tokens_per_s_per_gpu"]
        R.add(f"gpt3_175b_{p}_usd_per_million_tokens_{label}", costs.usd_per_million_tokens(h100_price, r),
              "USD per 1M tokens", f"GPT-3 175B {p.upper()} cost per 1M tokens, {when}")
        R.add(f"gpt3_175b_{p}_cost_300b_tokens_{label}_usd", costs.run_cost_usd(P.gpt3_train_tokens, h100_price, r),
              "USD", f"GPT-3 175B {p.upper()} cost of its training tokens, {when}")
glue("price", h100_price, display=False)
glue("gpt3_tokens_b", P.gpt3_train_tokens / 1e9, display=False)
glue("fp8_cents_jan", R["gpt3_175b_fp8_usd_per_million_tokens_jan2024"] * 100, display=False)
glue("fp8_cents_dec", R["gpt3_175b_fp8_usd_per_million_tokens_dec2024"] * 100, display=False)
for key in [k for k in R.results if k.endswith("_usd") and k.startswith("gpt3_175b")]:
    glue(f"{key}_k", R[key] / 1e3, display=False)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gpt3_175b_fp8_usd_per_million_tokens_jan2024", "A22_fp8_cost_per_1m_jan2024"),
    ("gpt3_175b_fp8_usd_per_million_tokens_dec2024", "A22_fp8_cost_per_1m_dec2024"),
    ("gpt3_175b_fp8_cost_300b_tokens_jan2024_usd", "A23_gpt3_fp8_cost_jan2024"),
    ("gpt3_175b_fp8_cost_300b_tokens_dec2024_usd", "A23_gpt3_fp8_cost_dec2024"),
    ("gpt3_175b_bf16_usd_per_million_tokens_dec2024", "A24_bf16_cost_per_1m_dec2024"),
    ("gpt3_175b_bf16_cost_300b_tokens_dec2024_usd", "A24_bf16_cost_300b_dec2024")])))

# %% [markdown]
# ## The seed's version, corrected
#
# The seed summary turns this into MFU rising "{glue:text}`seed_S11`" and the cost to train
# GPT-175B falling from "{glue:text}`seed_S12`". Neither is in the original, and neither can be
# true:
#
# - **The MFUs.** The original's figures are {glue:text}`gpt3_175b_bf16_mfu_jan2024_pct:.0f` % →
#   {glue:text}`gpt3_175b_bf16_mfu_dec2024_pct:.0f` % (BF16), and NVIDIA's own table confirms the
#   December one. At the seed's {glue:text}`seed_mfu_pct:.0f` %, a GPT-3 run on
#   {glue:text}`gpt3_tokens_b:.0f`B tokens would cost \${glue:text}`seed_mfu_run_cost_m:.1f`M in BF16,
#   {glue:text}`seed_mfu_cost_multiple:.0f` times the \${glue:text}`fact_A23_jan_k:.0f`k that both the
#   seed and the original start from.
# - **The end cost.** \${glue:text}`seed_cost_k:.0f`k for {glue:text}`gpt3_tokens_b:.0f`B tokens is
#   {glue:text}`seed_cost_cents:.1f` US cents per million tokens. On H100s at
#   \${glue:text}`price:.2f` an hour that needs an FP8 MFU of {glue:text}`seed_cost_implied_mfu_pct:,.0f` %:
#   more model FLOP/s than the chip's peak. The original's December figure is
#   \${glue:text}`gpt3_175b_fp8_cost_300b_tokens_dec2024_usd_k:.0f`k (reproduced above).
# - **The years.** The original's measurements are from January and December 2024. The H100's
#   first year of availability is {glue:text}`h100_launch_year` (it was announced that March), and
#   SemiAnalysis dates January 2024 to about {glue:text}`fact_A17_jan2024_years_after:.0f` year
#   after H100 mass deployment began: in January 2022 there was no H100 cluster to benchmark.

# %% tags=["hide-input"]
peak = {p: hardware.peak_tflops("h100_sxm", p) for p in ("bf16", "fp8")}
seed_rate = P.seed_mfu_end * peak["bf16"] * 1e12 / flops_per_token
R.add("seed_mfu_run_cost_usd", costs.run_cost_usd(P.gpt3_train_tokens, h100_price, seed_rate), "USD",
      "GPT-3 175B BF16 cost of its training tokens at the seed's end-of-year MFU")
seed_per_million = P.seed_gpt3_cost_end_usd / (P.gpt3_train_tokens / 1e6)
R.add("seed_cost_implied_fp8_mfu", software.implied_mfu_from_cost(h100_price, seed_per_million,
                                                                   flops_per_token, peak["fp8"]),
      "fraction", "FP8 MFU that the seed's end-of-year GPT-3 cost would need")
glue("seed_mfu_pct", P.seed_mfu_end * 100, display=False)
glue("seed_mfu_run_cost_m", R["seed_mfu_run_cost_usd"] / 1e6, display=False)
glue("seed_mfu_cost_multiple", R["seed_mfu_run_cost_usd"] / fact("A23_gpt3_fp8_cost_jan2024"), display=False)
glue("seed_cost_k", P.seed_gpt3_cost_end_usd / 1e3, display=False)
glue("seed_cost_cents", seed_per_million * 100, display=False)
glue("seed_cost_implied_mfu_pct", R["seed_cost_implied_fp8_mfu"] * 100, display=False)
glue("h100_launch_year", int(hardware.gpu("h100_sxm")["launch_year"]), display=False)
glue("fact_A23_jan_k", fact("A23_gpt3_fp8_cost_jan2024") / 1e3, display=False)
claims = load_table("claims").set_index("claim_id")
for claim_id in ("S11", "S12"):
    glue(f"seed_{claim_id}", claims.loc[claim_id, "seed_value"], display=False)

# %% [markdown]
# ## What the same gain is worth on a frontier-scale run
#
# SemiAnalysis prices the {glue:text}`llama_tokens_t:.0f`T-token pre-training of Llama 3 405B in
# BF16 on {glue:text}`big405_gpus:,` H100s at about \${glue:text}`fact_A35_m:.1f`M for one
# successful run. From NVIDIA's {glue:text}`big405_rate:.1f` tokens/s/GPU the book gets
# \${glue:text}`llama3_405b_15t_cost_m:.1f`M and {glue:text}`llama3_405b_15t_days:.0f` days.
# Had the December 2024 software been only as fast as January's, by GPT-3's BF16 gain of
# {glue:text}`gpt3_175b_bf16_throughput_gain_pct:.0f` %, the same run would have cost
# \${glue:text}`llama3_405b_15t_cost_at_jan2024_software_m:.1f`M and taken
# {glue:text}`llama3_405b_15t_days_at_jan2024_software:.0f` days: the year's software was worth
# \${glue:text}`llama3_405b_15t_software_saving_m:.1f`M and {glue:text}`llama3_405b_15t_days_saved:.0f`
# days on one run, with no new hardware. (It is an extrapolation: the 405B recipe only appears in
# NVIDIA's tables from November 2024, when much of the gain had already landed.)

# %% tags=["hide-input"]
s405 = benchmarks.sweep(bench, "llama31_405b", "bf16", RELEASE)
big405 = s405[s405["gpus"] == fact("A01_gpus_max_405b")].iloc[0]
cost405 = costs.run_cost_usd(P.llama3_train_tokens, h100_price, big405["tokens_per_s_per_gpu"])
days405 = P.llama3_train_tokens / (big405["tokens_per_s_per_gpu"] * big405["gpus"]) / SECONDS_PER_DAY
gain = R["gpt3_175b_bf16_throughput_gain"]
R.add("llama3_405b_15t_cost_usd", cost405, "USD", "Llama 3.1 405B BF16 pre-training cost (largest cluster, v25.02)")
R.add("llama3_405b_15t_days", days405, "days", "Llama 3.1 405B BF16 pre-training days on the largest cluster")
R.add("llama3_405b_15t_cost_at_jan2024_software_usd", software.cost_before_gain_usd(cost405, gain), "USD",
      "The same run at January 2024 software speed (GPT-3 BF16 gain)")
R.add("llama3_405b_15t_software_saving_usd", R["llama3_405b_15t_cost_at_jan2024_software_usd"] - cost405, "USD",
      "What the 2024 software gain saves on the run")
R.add("llama3_405b_15t_days_at_jan2024_software", days405 * (1 + gain), "days",
      "Days for the same run at January 2024 software speed")
R.add("llama3_405b_15t_days_saved", days405 * gain, "days", "Days the 2024 software gain saves on the run")
glue("llama_tokens_t", P.llama3_train_tokens / 1e12, display=False)
glue("big405_gpus", int(big405["gpus"]), display=False)
glue("big405_rate", big405["tokens_per_s_per_gpu"], display=False)
glue("fact_A35_m", fact("A35_405b_15t_cost") / 1e6, display=False)
for key in ("llama3_405b_15t_cost", "llama3_405b_15t_cost_at_jan2024_software", "llama3_405b_15t_software_saving"):
    glue(f"{key}_m", R[f"{key}_usd"] / 1e6, display=False)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("llama3_405b_15t_cost_usd", "A35_405b_15t_cost")])))

# %% [markdown]
# ## What SemiAnalysis asks of NVIDIA
#
# The report closes with recommendations, cited here as context. NVIDIA should benchmark more and
# publish it: SemiAnalysis's ClusterMAX ratings found that GCP's older a3-mega H100s reached about
# {glue:text}`fact_A14_a3mega_mfu_gap_dense_pct:.0f` % below-average MFU on Llama-70B-class
# training and {glue:text}`fact_A14_a3mega_mfu_gap_moe_pct:.0f`-{glue:text}`fact_A14_a3mega_mfu_gap_moe_high_pct:.0f` %
# below on 8x7B-class mixture-of-experts models, so renters there should pay
# {glue:text}`fact_A14_price_discount_pct:.0f`-{glue:text}`fact_A14_price_discount_high_pct:.0f` % less;
# only measurements reveal that. It should bring the optimizations of NeMo Megatron, where the
# gains of this chapter were measured, to native PyTorch within
# {glue:text}`fact_A15_pytorch_parity_months:.0f` month at most. And it should speed up
# diagnostics and debugging tools for the GB200 NVL72, whose NVLink backplane is still
# unreliable after burn-in.

# %% tags=["remove-cell"]
for key in ("A14_a3mega_mfu_gap_dense", "A14_a3mega_mfu_gap_moe", "A14_price_discount"):
    row_ = load_table("report_facts").set_index("fact_id").loc[key]
    glue(f"fact_{key}_pct", row_["value"] * 100, display=False)
    if row_["value_high"] == row_["value_high"]:
        glue(f"fact_{key}_high_pct", row_["value_high"] * 100, display=False)

# %% [markdown]
# ## The seed's claims, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("software", R)))

# %% tags=["remove-cell"]
R.save()
