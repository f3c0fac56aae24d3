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

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
gpt3_train_tokens: float = 300000000000.0  # tokens; a number from 1,000,000 to 1,000,000,000,000,000. Tokens of GPT-3 175B's original training run
seed_mfu_end: float = 0.05  # fraction; a number from 0.001 to 1. The seed's end-of-year MFU (claim S11: '2.5 % to 5 %'), kept only to test it
seed_gpt3_cost_end_usd: float = 12000.0  # USD; a number from 1 to 10,000,000,000. The seed's end-of-year GPT-3 175B training cost (claim S12: 12,000 USD), kept only to test it

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import software as chapter
from analysis.figures import software as figures
from analysis.page.notebook import claims_table, comparison_table, glue_facts, glue_figure, publish, save, start
from analysis.page.tables import answer_from_results

P, upstream = start("software", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts(*figures.FACTS)
figures.glue_prose(R, P)

# %% tags=["remove-input"]
glue_figure("fig_software_mfu", figures.release_figure(R))

# %% [markdown]
# {numref}`fig-software-mfu` follows the MFU of NVIDIA's H100 reference runs across its software
# releases, on unchanged hardware.
#
# ```{glue:figure} fig_software_mfu
# :name: fig-software-mfu
# :alt: MFU in percent against release date from January 2024 to April 2025, one line per model and precision; GPT-3 175B rises steeply during 2024 in both BF16 and FP8, while the Llama 3.1 lines from late 2024 on are nearly flat.
#
# GPT-3 175B (blue) gained most of its throughput during 2024; the Llama 3.1 recipes, published
# from November 2024 on, moved only a few points after that. NVIDIA's v24.11.1 GPT-3 table runs
# the NeMo 24.05 container, so its point is older software than its date suggests.
# ```
#
# For an owner, software is a second source of speed on hardware already paid for, but an uneven
# one: the large gains came in one year on one model, and the newer recipes have gained little
# since.

# %% [markdown]
# A GPU cluster gets faster after it is bought. Between January and December 2024, with the same
# H100s, the same model and the same {glue:text}`gpt3_175b_sa_gpus:,.0f`-GPU cluster, NVIDIA's NeMo
# Megatron releases raised GPT-3 175B's training throughput by {glue:text}`fact_A19_pct:.0f` % in
# BF16 and {glue:text}`fact_A21_pct:.0f` % in FP8 ({ref}`SemiAnalysis, 2025 <src-sa_gb200_2025>`). SemiAnalysis credits better
# fused matrix-multiply kernels in cuDNN and cuBLAS, and NCCL collectives that occupy fewer of
# the GPU's streaming multiprocessors. This chapter measures that gain and the later ones in
# NVIDIA's public tables, prices it, and corrects the {term}`seed` summary's version of it.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## GPT-3 175B through 2024
#
# SemiAnalysis gives the two ends of the year for GPT-3 175B on {glue:text}`gpt3_175b_sa_gpus:,.0f` H100s
# (its month-by-month table is an image): {term}`MFU` rose from {glue:text}`gpt3_175b_bf16_mfu_jan2024_pct:.1f` %
# to {glue:text}`gpt3_175b_bf16_mfu_dec2024_pct:.1f` % in BF16 and from
# {glue:text}`gpt3_175b_fp8_mfu_jan2024_pct:.1f` % to {glue:text}`gpt3_175b_fp8_mfu_dec2024_pct:.1f` %
# in FP8. On the same hardware, model and layout, throughput moves with MFU, so that is
# {glue:text}`gpt3_175b_bf16_throughput_gain_frac_pct:.0f` % and {glue:text}`gpt3_175b_fp8_throughput_gain_frac_pct:.0f` %
# more tokens per second. NVIDIA's public v25.02 table, the NeMo 24.12 software of December 2024,
# independently gives {glue:text}`gpt3_175b_bf16_mfu_dec2024_nvidia_pct:.2f` % and
# {glue:text}`gpt3_175b_fp8_mfu_dec2024_nvidia_pct:.2f` %. SemiAnalysis's
# "{glue:text}`fact_A19_pct:.0f` %" BF16 gain is what NVIDIA's unrounded December figure gives
# ({glue:text}`gpt3_175b_bf16_throughput_gain_nvidia_frac_pct:.1f` %); its own rounded
# {glue:text}`gpt3_175b_bf16_mfu_dec2024_pct:.0f` % would give {glue:text}`gpt3_175b_bf16_throughput_gain_frac_pct:.1f` %.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, figures.COMPARED["gpt3"])))

# %% [markdown]
# ## Across NVIDIA's releases
#
# NVIDIA's DGXC tables let the same comparison run past 2024, for Llama 3.1 as well. {numref}`fig-software-mfu`
# takes each model at the smallest cluster each release published (where sizes differ between
# releases, the table says so) and plots its MFU against the release date.

# %% tags=["remove-input"]
from analysis.page.notebook import offer_table

offer_table(R, "releases", R.tables["releases"], "MFU by software release")

# %% tags=["remove-input"]
display(Markdown(figures.release_gains_table(R)))

# %% [markdown]
# After its big 2024 gains the stack moved little for the largest dense models: between NVIDIA's
# first and last Llama 3.1 tables, throughput changed by {glue:text}`llama31_release_gain_min_frac_pct:+.1f` % to
# {glue:text}`llama31_release_gain_max_frac_pct:+.1f` %, and the largest FP8 gain for Llama 3.1 70B came with a new
# layout (no context parallelism, a deeper pipeline), not with faster kernels alone.

# %% [markdown]
# ## Release to release, on today's systems
#
# NVIDIA now publishes its throughput per NeMo container in the Megatron-Bridge performance summary,
# for H100 and for the Blackwell systems (`data/atlas_benchmarks.csv`, one dated release per source).
# From {glue:text}`megatron_previous_release` to {glue:text}`megatron_latest_release`, the newest
# release the book has, tokens/s per GPU rose by {glue:text}`megatron_latest_throughput_gain_min_frac_pct:+.1f` % to
# {glue:text}`megatron_latest_throughput_gain_max_frac_pct:+.1f` % (median
# {glue:text}`megatron_latest_throughput_gain_median_frac_pct:+.1f` %) on the
# {glue:text}`megatron_latest_steps_count:.0f` systems and models both publish; H100 gained
# {glue:text}`megatron_h100_sxm_llama31_405b_fp8_latest_release_gain_frac_pct:+.1f` % on Llama 3.1 405B
# in FP8, with no new hardware. The printed model TFLOP/s should move with the tokens/s, since the
# FLOP count did not change; the two part by up to {glue:text}`megatron_latest_gain_gap_max_frac_pct:.1f` %
# because the newest table prints its tokens/s rounded (most are multiples of 16). So a step of a per
# cent or two is not read as a software gain; the table shows both columns.

# %% tags=["remove-input"]
display(Markdown(figures.megatron_steps_table(R)))
offer_table(R, "megatron_release_steps", R.tables["megatron_release_steps"],
            "Megatron-Bridge throughput, release to release")

# %% [markdown]
# ## The dollars
#
# At SemiAnalysis's \${glue:text}`fact_A13_h100_usd_per_gpu_hour:.2f` per H100-hour (this build:
# \${glue:text}`h100_tco_usd_per_gpu_hour:.2f`, the {ref}`TCO chapter's <chapter-tco>` H100 cost with this build's inputs), the FP8 year of software took a
# million GPT-3 tokens from {glue:text}`fp8_cents_jan:.1f` to {glue:text}`fp8_cents_dec:.1f` US cents,
# and GPT-3's original {glue:text}`gpt3_tokens_b:.0f`B-token training run from
# \${glue:text}`gpt3_175b_fp8_cost_300b_tokens_jan2024_usd_k:.0f`k to
# \${glue:text}`gpt3_175b_fp8_cost_300b_tokens_dec2024_usd_k:.0f`k. In BF16 the December run costs
# \${glue:text}`gpt3_175b_bf16_cost_300b_tokens_dec2024_usd_k:.0f`k: FP8 is cheaper even at its lower MFU.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, figures.COMPARED["dollars"])))

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
#   {glue:text}`gpt3_tokens_b:.0f`B tokens would cost \${glue:text}`seed_mfu_run_cost_usd_m:.1f`M in BF16,
#   {glue:text}`seed_mfu_run_cost_multiple_ratio:.0f` times the \${glue:text}`fact_A23_jan_k:.0f`k that both the
#   seed and the original start from.
# - **The end cost.** \${glue:text}`seed_cost_k:.0f`k for {glue:text}`gpt3_tokens_b:.0f`B tokens is
#   {glue:text}`seed_cost_cents:.1f` US cents per million tokens. On H100s at
#   \${glue:text}`h100_tco_usd_per_gpu_hour:.2f` an hour that needs an FP8 MFU of {glue:text}`seed_cost_implied_fp8_mfu_pct:,.0f` %:
#   more model FLOP/s than the chip's peak. At the book's TCO the December run costs
#   \${glue:text}`gpt3_175b_fp8_cost_300b_tokens_dec2024_usd_k:.0f`k; the original's figure, at its
#   own H100 cost basis, is in the table above.
# - **The years.** The original's measurements are from January and December 2024. The H100's
#   first year of availability is {glue:text}`h100_launch_year:.0f` (it was announced that March), and
#   SemiAnalysis dates January 2024 to about {glue:text}`fact_A17_jan2024_years_after:.0f` year
#   after H100 mass deployment began: in January 2022 there was no H100 cluster to benchmark.

# %% [markdown]
# ## What the same gain is worth on a frontier-scale run
#
# SemiAnalysis prices the {glue:text}`llama3_train_tokens_t:.0f`T-token pre-training of Llama 3 405B in
# BF16 on {glue:text}`llama31_405b_largest_gpus:,.0f` H100s at about \${glue:text}`fact_A35_m:.1f`M for one
# successful run. From NVIDIA's {glue:text}`llama31_405b_bf16_tokens_per_s_per_gpu_2304:.1f` tokens/s/GPU the book gets
# \${glue:text}`llama31_405b_bf16_cost_15t_tokens_usd_m:.1f`M and {glue:text}`llama31_405b_bf16_run_15t_tokens_days:.0f` days.
# Had the December 2024 software been only as fast as January's, by GPT-3's BF16 gain of
# {glue:text}`gpt3_175b_bf16_throughput_gain_frac_pct:.0f` %, the same run would have cost
# \${glue:text}`llama31_405b_bf16_cost_15t_tokens_at_jan2024_software_usd_m:.1f`M and taken
# {glue:text}`llama31_405b_bf16_run_15t_tokens_at_jan2024_software_days:.0f` days: the year's software was worth
# \${glue:text}`llama31_405b_bf16_software_saving_15t_tokens_usd_m:.1f`M and {glue:text}`llama31_405b_bf16_software_saving_15t_tokens_days:.0f`
# days on one run, with no new hardware. (It is an extrapolation: the 405B recipe only appears in
# NVIDIA's tables from November 2024, when much of the gain had already landed.)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, figures.COMPARED["frontier"])))

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

# %% [markdown]
# ## The seed's claims, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("software", R)))

# %% tags=["remove-cell"]
save(R)
