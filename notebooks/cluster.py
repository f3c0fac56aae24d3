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
# (chapter-cluster)=
# # The 100,000-H100 cluster

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
gpus: int = 100000  # GPUs; an integer from 1 to 2,000,000. GPUs in the cluster
gpu: str = 'h100_sxm'  # GPU id; one of: h100_sxm, h200_sxm, b200_hgx, gb200_nvl72, gb300_nvl72, mi300x, mi325x, mi355x, h800_sxm. GPU type, from data/gpus.csv
dtype: str = 'fp8'  # data type; one of: fp8, bf16. Tensor data type used for sustained throughput and retraining time
mfu_fp8: float = 0.35  # fraction; a number from 0.01 to 1. Model FLOPs utilization of a frontier run in FP8
mfu_bf16: float = 0.4  # fraction; a number from 0.01 to 1. Model FLOPs utilization of a frontier run in BF16/FP16
run_days: int = 100  # days; an integer from 1 to 3,650. Length of a training run on the cluster
h100_it_w_per_gpu: float = 1389.0  # W per GPU; a number from 100 to 10,000. All-in critical IT power per H100: chip, server share, network, storage
gb200_it_w_per_gpu: float = 1833.0  # W per GPU; a number from 100 to 5,000. All-in critical IT power per GB200 GPU in an NVL72 rack
pue: float = 1.25  # ratio; a number from 1 to 3. Power usage effectiveness: facility power / critical IT power
load_factor: float = 0.82  # fraction; a number from 0.05 to 1. Average draw as a fraction of rated facility power while training
tariff_usd_per_kwh: float = 0.078  # USD/kWh; a number from 0 to 1. Electricity tariff
capex_usd_per_gpu: float = 31250.0  # USD per GPU; a number from 1,000 to 500,000. All-in capital cost per GPU (server, networking, storage)
alt_link_mttf_years: float = 4.0  # years; a number from 0.01 to 100. Link MTTF in the 4-link-per-node (Cedar Fever-7) design
checkpoint_interval_steps: int = 100  # steps; an integer from 1 to 1,000,000. Training steps between persistent checkpoints
step_time_seconds: float = 2.0  # s; a number from 0.01 to 3,600. Wall-clock time of one training step
backend_gbps: float = 400.0  # Gbit/s per GPU; a number from 1 to 100,000. Backend network bandwidth per GPU for in-memory recovery

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import cluster as chapter
from analysis.figures import cluster as figures
from analysis.page.notebook import claims_table, comparison_table, glue, glue_facts, glue_figure, publish, save, start
from analysis.page.tables import answer_from_results

P, upstream = start("cluster", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts("B03_datacenter_mw", "B04_annual_twh", "B07_days", "B08_a100_cluster_eflops", "B10_peak_ratio",
           "B12_gpt4_days", "A04_h100_server_allin_usd", "C02_w_per_gpu", "C04_pue", "C05_pue_ai_target")
glue("dtype", P.dtype.upper(), display=False)

# %% tags=["remove-input"]
from analysis.page.notebook import glue_money

glue_money(R, "cluster_annual_electricity_usd", "capex_usd")

# %% tags=["remove-input"]
figures.glue_flops(R)
glue_figure("fig_cluster_eflops", figures.eflops_by_size(R, P))

# %% [markdown]
# {numref}`fig-cluster-eflops` plots the compute of a cluster of the chosen GPU against its size, at
# the datasheet peak and at the rate a training run sustains.
#
# ```{glue:figure} fig_cluster_eflops
# :name: fig-cluster-eflops
# :alt: Log-log lines of peak (dashed) and sustained (solid) EFLOP/s for FP8 and BF16 rising linearly with cluster size, with a horizontal line at GPT-4's A100 cluster peak and a dotted vertical line at the chosen cluster size.
#
# Peak (dashed) and sustained (solid) compute grow linearly with GPU count; the dotted line marks
# the cluster this chapter ran with. {glue:text}`gpus_to_match_gpt4_cluster_count:,.0f` GPUs of the chosen
# type, sustained in FP8, match the *peak* of GPT-4's whole A100 cluster.
# ```
#
# Compute grows with the GPU count and with nothing else in this chart, so at a given MFU the time a
# run takes falls in inverse proportion to the cluster's size. The gap between each dashed line and
# its solid line is the same at every size: it is the share of the peak that training loses.

# %% [markdown]
# In June 2024 SemiAnalysis described the clusters that OpenAI, xAI and Meta were racing to
# build: {glue:text}`report_cluster_gpus:,.0f` H100 GPUs each, "over \${glue:text}`report_capex_busd:.0f`
# billion" of servers and "over {glue:text}`fact_B03_datacenter_mw:.0f` MW" of datacenter capacity
# ({ref}`SemiAnalysis, 2024 <src-sa_100k_2024>`). This chapter reruns that arithmetic step by step: what such a
# cluster delivers in FLOP/s, what it draws from the grid and pays for it, what it costs to
# buy, and how often it breaks. Every figure comes from a parameter (table below) or from
# `data/`, and every step is a function in `analysis/` that you can call yourself: the chapter's
# own arithmetic is `analysis.chapters.cluster.compute`, and the figures are drawn by
# `analysis.figures.cluster`.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## Peak compute: what the FLOP/s headline compares
#
# A cluster's peak is the GPU count times each GPU's *dense* peak for a data type, from
# `data/gpus.csv`. (NVIDIA's datasheets headline 2:4-sparse figures, twice as large; no
# training run uses them.)
#
# The cluster peaks at {glue:text}`peak_fp8_eflops:.0f` EFLOP/s in FP8 and
# {glue:text}`peak_bf16_eflops:.0f` EFLOP/s in BF16. The report's "more than GPT-4's
# cluster" ratio sets the FP8 figure against the BF16 peak of {glue:text}`gpt4_cluster_gpus:,.0f` A100s
# ({glue:text}`gpt4_cluster_peak_bf16_eflops:.2f` EFLOP/s at {glue:text}`a100_bf16_tflops:.0f`
# TFLOP/s each): it mixes a hardware generation with a data-type change. The book computes
# {glue:text}`peak_fp8_vs_a100_cluster_ratio:.1f`x; the report's {glue:text}`fact_B10_peak_ratio:.1f`x
# rests on an A100 base of {glue:text}`fact_B08_a100_cluster_eflops:.2f` EFLOP/s, i.e.
# {glue:text}`report_a100_bf16_tflops:.0f` rather than {glue:text}`a100_bf16_tflops:.0f` TFLOP/s per
# A100. Like for like, BF16 against BF16, the
# generation gain is {glue:text}`peak_bf16_vs_a100_cluster_ratio:.1f`x.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("peak_fp8_eflops", "B09_fp8_eflops"), ("peak_bf16_eflops", "B09_bf16_eflops"),
    ("gpt4_cluster_peak_bf16_eflops", "B08_a100_cluster_eflops"),
    ("peak_fp8_vs_a100_cluster_ratio", "B10_peak_ratio")])))

# %% [markdown]
# ## GPT-4 in days, not months
#
# Peak FLOP/s are never sustained. *Model FLOPs utilization* ({term}`MFU`) is the share of the peak that
# goes into the model's own arithmetic; the report assumes labs reach about
# {glue:text}`mfu_fp8_pct:.0f` % in FP8 and {glue:text}`mfu_bf16_pct:.0f` % in BF16 on
# trillion-parameter runs. Dividing GPT-4's training compute by the cluster's sustained rate gives
# the retraining time; running the same division backwards on GPT-4's own cluster gives the MFU
# its {glue:text}`fact_B07_days:.0f`-{glue:text}`fact_B07_days_high:.0f` days imply.
#
# GPT-4's {glue:text}`gpt4_train_flop_text` FLOP on its A100 cluster imply an MFU of
# {glue:text}`gpt4_implied_mfu_low:.0%`-{glue:text}`gpt4_implied_mfu_high:.0%`
# (whole-run, downtime included). At {glue:text}`mfu_selected_pct:.0f` % MFU in
# {glue:text}`dtype`, this cluster would redo that run in
# {glue:text}`gpt4_retrain_days:.1f` days (report: "~{glue:text}`fact_B12_gpt4_days:.0f` days"), or
# {glue:text}`gpt4_retrain_bf16_days:.1f` days in BF16, and a {glue:text}`run_days:.0f`-day run
# delivers {glue:text}`run_flop_text` FLOP of model compute: about
# {glue:text}`run_flop_vs_gpt4_ratio:.0f` GPT-4s.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("gpt4_retrain_days", "B12_gpt4_days"), ("run_flop", "B13_fp8_flop_100_days")])))
from analysis.page.notebook import offer_table

offer_table(R, "compute_by_cluster_size", R.tables["compute_by_cluster_size"],
            "peak and sustained EFLOP/s, and time to first failure, by cluster size")

# %% [markdown]
# ## Power: from the chip to the meter
#
# The power of one GPU's share of the cluster is its *critical IT* load: the chip's board power,
# its share of the server (CPUs, NICs, fans, power-supply losses), and its share of storage,
# switches, optics and management. The book uses one value for it in every chapter,
# {glue:text}`cluster_it_w_per_gpu:,.0f` W per H100, SemiAnalysis's own all-in figure for a DGX H100
# with its share of a SuperPOD (C02). The 100k-cluster article builds the same load from components
# instead, {glue:text}`gpu_chip_w:,.0f` W of chip plus about {glue:text}`b14_server_w_per_gpu:,.0f` W of server, plus
# {glue:text}`b14_network_storage_pct:.0f` % for storage and network, which gives {glue:text}`b14_buildup_it_w_per_gpu:,.1f` W (B14): within a percent, so the
# build-up is shown as a check, not used. The facility then draws {term}`PUE` times as much at the meter,
# for cooling and power conversion; the book's one PUE is {glue:text}`pue:.2f`, IDC's average for
# public-cloud datacenters. SemiAnalysis cites AI-datacenter specifications that target a PUE under
# {glue:text}`fact_C05_pue_ai_target:.1f` (C05); its own worked example uses
# {glue:text}`fact_C04_pue:.2f` (C04).
#
# The cluster needs {glue:text}`cluster_it_mw:.0f` MW of critical IT and
# {glue:text}`cluster_facility_mw:.0f` MW at the meter: the rated power, the capacity a site must
# provide. Energy and the bill are on the book's one basis, the **average draw**: measured H100 nodes
# draw about {glue:text}`load_factor_frac:.0%` of their rating while they train (`load_factor`), so the
# cluster draws {glue:text}`cluster_average_facility_mw:.0f` MW on average. Over a year that is
# {glue:text}`cluster_annual_energy_twh:.2f` TWh and {glue:text}`cluster_annual_electricity_usd_money` of
# electricity at \${glue:text}`tariff_usd_per_kwh:.3f` per kWh. The report's
# {glue:text}`fact_B04_annual_twh:.2f` TWh is {glue:text}`cluster_annual_energy_vs_b04_pct:+.1f` % from
# it: the report counts the rated draw all year, at a facility overhead of about
# {glue:text}`report_implied_pue_at_rated_draw_ratio:.2f` over this chapter's IT load (B06). Its
# "~{glue:text}`fact_B03_datacenter_mw:.0f` MW" of critical IT is also larger than the sum of its own
# components, a round-up or headroom it does not spell out. The
# {ref}`energy chapter <chapter-energy>` sets this bill beside the opex chapter's price of one GPU's
# power: the two agree.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("b14_buildup_it_w_per_gpu", "C02_w_per_gpu"), ("cluster_it_mw", "B14_critical_it_mw"),
    ("cluster_average_facility_mw", "B06_avg_mw"), ("report_implied_pue_at_rated_draw_ratio", "B06_implied_multiplier"),
    ("cluster_annual_energy_twh", "B04_annual_twh"),
    ("cluster_annual_electricity_usd", "B05_annual_cost_usd")])))
glue_figure("fig_cluster_power", figures.power_build_up(R, P))

# %% [markdown]
# {numref}`fig-cluster-power` follows one GPU's share of the power from the chip to the meter, by
# both build-ups.
#
# ```{glue:figure} fig_cluster_power
# :name: fig-cluster-power
# :alt: Two horizontal stacked bars in watts per GPU, each split into GPU chip, rest of IT and facility overhead: SemiAnalysis's component build-up and the book's all-in IT parameter, nearly equal, with watts per GPU on the bottom axis and megawatts for the whole cluster on the top axis.
#
# Where the watts go: the chip's board power is only part of what one GPU draws at the meter.
# SemiAnalysis's component build-up (top) and the all-in figure the book uses (bottom) agree within
# a percent. The top axis scales the same bars to the whole cluster.
# ```
#
# The chip is only the first part of each bar: plan a site's power from the whole bar, not from the
# chip's rating. Because the two build-ups land so close, the book can use one all-in figure per GPU
# in every chapter.

# %% [markdown]
# Try other sizes, power per GPU, PUE, average draw and tariffs below: the panel moves the cluster's rated meter power and its yearly electricity bill at the average draw, each number computed by this chapter's Python.

# %% tags=["remove-input"]
from IPython.display import HTML

from analysis.page.whatif import whatif_panel

display(HTML(whatif_panel("cluster")))

# %% [markdown]
# ## Capital
#
# The report gives no per-server price for 2024, only that each 100k cluster costs "over
# \${glue:text}`report_capex_busd:.0f` billion" in servers. Its 2025 benchmark report prices a
# hyperscaler's 8-GPU H100 server at about \${glue:text}`fact_A04_h100_server_allin_usd:,.0f`
# all-in, which divided by 8 is the parameter's default. Prices fell in between, so the model's total
# sits below the report's bound; the gap is the price per GPU that the bound implies.
#
# At \${glue:text}`capex_usd_per_gpu:,.0f` per GPU the cluster costs
# {glue:text}`capex_usd_money`; the report's bound implies at least
# \${glue:text}`report_implied_capex_usd_per_gpu:,.0f` per GPU at 2024 prices. Either way the
# yearly electricity bill is a small fraction of the capital,
# {glue:text}`electricity_share_of_capex_frac:.1%` a year here: owning GPUs is a capital
# business first.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("capex_usd", "B02_capex_usd")])))

# %% [markdown]
# ## Failures: how often a big cluster breaks
#
# With *n* independent links whose lifetimes are exponential with mean MTTF, the first failure
# comes after MTTF / *n* on average. The {ref}`network chapter <chapter-network>` counts the links
# from the fabric's design: {glue:text}`links_per_gpu:g` backend link per GPU here. Microsoft and OpenAI's "Cedar Fever-7" design halves the links
# ({glue:text}`alt_links_per_gpu:g` per GPU, at a shorter {glue:text}`alt_link_mttf_years:g`-year
# MTTF per 2x400G link). Each failure stops the synchronous job; restarting from a
# persistent checkpoint redoes up to a whole checkpoint interval on every GPU, while rebuilding the
# lost state from copies in peers' memory loses at most one step plus the copy time.
#
# The first failure comes after {glue:text}`first_failure_minutes:.2f` minutes on average
# ({glue:text}`first_failure_alt_design_minutes:.2f` minutes with 4 links per node). Restarting from a
# checkpoint every {glue:text}`checkpoint_interval_steps:,.0f` steps loses up to
# {glue:text}`checkpoint_restart_lost_gpu_days:.0f` GPU-days per failure; in-memory recovery loses about
# {glue:text}`in_memory_recovery_lost_gpu_days:.1f` GPU-days, of which {glue:text}`weights_copy_seconds:.1f` s
# of copying. The reliability chapter turns these into {term}`goodput`.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("first_failure_minutes", "B27_first_failure_min"), ("first_failure_alt_design_minutes", "B28_first_failure_min"),
    ("checkpoint_restart_lost_gpu_days", "B25_gpu_days"), ("weights_copy_seconds", "B26_copy_s")])))
glue_figure("fig_cluster_failures", figures.first_failure_by_size(R, P))

# %% [markdown]
# {numref}`fig-cluster-failures` shows how long a cluster runs, on average, before its first link
# fails, for both link designs.
#
# ```{glue:figure} fig_cluster_failures
# :name: fig-cluster-failures
# :alt: Two falling straight lines on log-log axes, minutes to first failure against GPU count, for one link per GPU and half a link per GPU, with a dotted line at one hour.
#
# Time to the first failure falls in proportion to cluster size. Beyond
# {glue:text}`gpus_failing_hourly_count:,.0f` GPUs, a job cannot expect an hour without a link failure.
# ```
#
# The two lines fall with the same slope because every added GPU brings its own links: a larger
# cluster cannot avoid failing more often, it can only recover faster. At this chapter's size the
# first failure comes after {glue:text}`first_failure_minutes:.2f` minutes on average.

# %% [markdown]
# ## The seed's claims, checked
#
# The summary this book started from makes six claims about this report. Each is set against the
# original text and this chapter's results (the build fails if a reproduced or quoted claim drifts out of
# its tolerance).

# %% tags=["remove-input"]
display(Markdown(claims_table("cluster", R)))
save(R)
