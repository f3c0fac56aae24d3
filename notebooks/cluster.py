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
#
# In June 2024 SemiAnalysis described the clusters that OpenAI, xAI and Meta were racing to
# build: {glue:text}`gpus_default:,` H100 GPUs each, "over \${glue:text}`fact_B02_capex_usd_b:.0f`
# billion" of servers and "over {glue:text}`fact_B03_datacenter_mw:.0f` MW" of datacenter capacity
# ({ref}`SemiAnalysis, 2024 <src-sa_100k_2024>`). This chapter reruns that arithmetic step by step: what such a
# cluster delivers in FLOP/s, what it draws from the grid and pays for it, what it costs to
# buy, and how often it breaks. Every figure comes from a parameter (table below) or from
# `data/`, and every step is a function in `analysis/` that you can call yourself.

# %% tags=["parameters", "remove-cell"]
# The runner injects this chapter's parameters here; each is defined once, in analysis/defaults.py.

# %% tags=["remove-input"]
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

from analysis import cluster, flops, hardware
from analysis.data import fact, row
from analysis.notebook import claims_table, comparison_table, glue, glue_facts, glue_figure, start
from analysis.plots import PALETTE, add_source, new_figure

P, R = start("cluster", globals())
glue_facts("B03_datacenter_mw", "B04_annual_twh", "B07_days", "B08_a100_cluster_eflops", "B10_peak_ratio",
           "B12_gpt4_days", "A04_h100_server_allin_usd")
glue("fact_B02_capex_usd_b", fact("B02_capex_usd") / 1e9, display=False)
glue("gpus_default", d.GPUS.default, display=False)

# %% [markdown]
# ## Peak compute: what the FLOP/s headline compares
#
# A cluster's peak is the GPU count times each GPU's *dense* peak for a data type, from
# `data/gpus.csv`. (NVIDIA's datasheets headline 2:4-sparse figures, twice as large; no
# training run uses them.)

# %% tags=["hide-input"]
gpt4 = row("training_runs", "gpt4")
peak_fp8 = cluster.cluster_peak_flops(P.gpus, hardware.peak_tflops(P.gpu, "fp8"))
peak_bf16 = cluster.cluster_peak_flops(P.gpus, hardware.peak_tflops(P.gpu, "bf16"))
a100_bf16 = hardware.peak_tflops(gpt4["gpu_id"], "bf16")
R.add("peak_fp8_eflops", peak_fp8 / 1e18, "EFLOP/s", "Cluster peak, FP8 dense")
R.add("peak_bf16_eflops", peak_bf16 / 1e18, "EFLOP/s", "Cluster peak, BF16 dense")
R.add("gpt4_cluster_peak_bf16_eflops", cluster.cluster_peak_flops(gpt4["gpus"], a100_bf16) / 1e18,
      "EFLOP/s", "GPT-4's A100 cluster peak, BF16 dense")
R.add("peak_ratio_vs_a100_cluster",
      cluster.peak_ratio(P.gpus, hardware.peak_tflops(P.gpu, "fp8"), gpt4["gpus"], a100_bf16),
      "x", "Cluster FP8 peak / GPT-4 cluster BF16 peak")
R.add("peak_ratio_bf16_vs_a100_cluster",
      cluster.peak_ratio(P.gpus, hardware.peak_tflops(P.gpu, "bf16"), gpt4["gpus"], a100_bf16),
      "x", "Cluster BF16 peak / GPT-4 cluster BF16 peak")
glue("gpt4_gpus", int(gpt4["gpus"]), display=False)
glue("a100_bf16_tflops", a100_bf16, display=False)
glue("report_a100_tflops", fact("B08_a100_cluster_eflops") * 1e6 / gpt4["gpus"], display=False)

# %% [markdown]
# The cluster peaks at {glue:text}`peak_fp8_eflops:.0f` EFLOP/s in FP8 and
# {glue:text}`peak_bf16_eflops:.0f` EFLOP/s in BF16. The report's "more than GPT-4's
# cluster" ratio sets the FP8 figure against the BF16 peak of {glue:text}`gpt4_gpus:,` A100s
# ({glue:text}`gpt4_cluster_peak_bf16_eflops:.2f` EFLOP/s at {glue:text}`a100_bf16_tflops:.0f`
# TFLOP/s each): it mixes a hardware generation with a data-type change. The book computes
# {glue:text}`peak_ratio_vs_a100_cluster:.1f`x; the report's {glue:text}`fact_B10_peak_ratio:.1f`x
# rests on an A100 base of {glue:text}`fact_B08_a100_cluster_eflops:.2f` EFLOP/s, i.e.
# {glue:text}`report_a100_tflops:.0f` rather than {glue:text}`a100_bf16_tflops:.0f` TFLOP/s per
# A100. Like for like, BF16 against BF16, the
# generation gain is {glue:text}`peak_ratio_bf16_vs_a100_cluster:.1f`x.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("peak_fp8_eflops", "B09_fp8_eflops"), ("peak_bf16_eflops", "B09_bf16_eflops"),
    ("gpt4_cluster_peak_bf16_eflops", "B08_a100_cluster_eflops"), ("peak_ratio_vs_a100_cluster", "B10_peak_ratio")])))

# %% [markdown]
# ## GPT-4 in days, not months
#
# Peak FLOP/s are never sustained. *Model FLOPs utilization* (MFU) is the share of the peak that
# goes into the model's own arithmetic; the report assumes labs reach about
# {glue:text}`mfu_fp8_pct:.0f` % in FP8 and {glue:text}`mfu_bf16_pct:.0f` % in BF16 on
# trillion-parameter runs. Dividing GPT-4's training compute by the cluster's sustained rate gives
# the retraining time; running the same division backwards on GPT-4's own cluster gives the MFU
# its {glue:text}`fact_B07_days:.0f`-{glue:text}`fact_B07_days_high:.0f` days imply.

# %% tags=["hide-input"]
mfu = {"fp8": P.mfu_fp8, "bf16": P.mfu_bf16}
days_mid = (gpt4["days_low"] + gpt4["days_high"]) / 2
R.add("gpt4_train_flop", gpt4["train_flop"], "FLOP", "GPT-4 training compute (input)")
R.add("gpt4_implied_mfu", flops.implied_mfu(gpt4["train_flop"], gpt4["gpus"], a100_bf16, days_mid),
      "fraction", "MFU implied by GPT-4's run (midpoint of its days)")
R.add("gpt4_implied_mfu_low", flops.implied_mfu(gpt4["train_flop"], gpt4["gpus"], a100_bf16, gpt4["days_high"]),
      "fraction", "MFU implied by GPT-4's run, longest duration")
R.add("gpt4_implied_mfu_high", flops.implied_mfu(gpt4["train_flop"], gpt4["gpus"], a100_bf16, gpt4["days_low"]),
      "fraction", "MFU implied by GPT-4's run, shortest duration")
R.add("gpt4_retrain_days", flops.training_time_days(
    gpt4["train_flop"], P.gpus, hardware.peak_tflops(P.gpu, P.dtype), mfu[P.dtype]),
    "days", f"Days to retrain GPT-4 on this cluster ({P.dtype})")
R.add("gpt4_retrain_days_bf16", flops.training_time_days(
    gpt4["train_flop"], P.gpus, hardware.peak_tflops(P.gpu, "bf16"), P.mfu_bf16),
    "days", "Days to retrain GPT-4 on this cluster (bf16)")
R.add("run_flop", flops.flop_in_run(P.gpus, hardware.peak_tflops(P.gpu, P.dtype), mfu[P.dtype], P.run_days),
      "FLOP", f"Model FLOP delivered in a {P.run_days}-day run ({P.dtype})")
glue("dtype", P.dtype.upper(), display=False)
glue("mfu_fp8_pct", P.mfu_fp8 * 100, display=False)
glue("mfu_bf16_pct", P.mfu_bf16 * 100, display=False)
glue("mfu_selected", mfu[P.dtype] * 100, display=False)
glue("run_days", P.run_days, display=False)
glue("gpt4_implied_mfu_pct", R["gpt4_implied_mfu"] * 100, display=False)
glue("gpt4_implied_mfu_low_pct", R["gpt4_implied_mfu_low"] * 100, display=False)
glue("gpt4_implied_mfu_high_pct", R["gpt4_implied_mfu_high"] * 100, display=False)

# %% [markdown]
# GPT-4's {glue:text}`gpt4_train_flop:.3g` FLOP on its A100 cluster imply an MFU of
# {glue:text}`gpt4_implied_mfu_low_pct:.0f`-{glue:text}`gpt4_implied_mfu_high_pct:.0f` %
# (whole-run, downtime included). At {glue:text}`mfu_selected:.0f` % MFU in
# {glue:text}`dtype`, this cluster would redo that run in
# {glue:text}`gpt4_retrain_days:.1f` days (report: "~{glue:text}`fact_B12_gpt4_days:.0f` days"), or
# {glue:text}`gpt4_retrain_days_bf16:.1f` days in BF16, and a {glue:text}`run_days`-day run
# delivers {glue:text}`run_flop:.2g` FLOP of model compute: about
# {glue:text}`run_flop_over_gpt4:.0f` GPT-4s.

# %% tags=["remove-cell"]
glue("run_flop_over_gpt4", R["run_flop"] / gpt4["train_flop"], display=False)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("gpt4_retrain_days", "B12_gpt4_days"), ("run_flop", "B13_fp8_flop_100_days")])))

# %% tags=["remove-input"]
sizes = np.geomspace(1_000, 300_000, 60)
R.add_table("compute_by_cluster_size", pd.DataFrame({
    "gpus": sizes.round(),
    **{f"{dt}_peak_eflops": cluster.cluster_peak_flops(sizes, hardware.peak_tflops(P.gpu, dt)) / 1e18 for dt in mfu},
    **{f"{dt}_sustained_eflops": cluster.cluster_peak_flops(sizes, hardware.peak_tflops(P.gpu, dt)) / 1e18 * mfu[dt]
       for dt in mfu},
    "first_failure_minutes": cluster.first_failure_minutes(P.link_mttf_years, sizes * P.links_per_gpu),
    "first_failure_minutes_alt": cluster.first_failure_minutes(P.alt_link_mttf_years, sizes * P.alt_links_per_gpu)}),
    "peak and sustained EFLOP/s, and time to first failure, by cluster size")
fig, ax = new_figure("Peak and sustained compute against cluster size", "GPUs in the cluster (log scale)",
                     "EFLOP/s (log scale)")
for dt, colour in (("fp8", PALETTE["blue"]), ("bf16", PALETTE["orange"])):
    peak = cluster.cluster_peak_flops(sizes, hardware.peak_tflops(P.gpu, dt)) / 1e18
    ax.plot(sizes, peak, ls="--", color=colour, label=f"{dt.upper()} peak")
    ax.plot(sizes, peak * mfu[dt], color=colour, label=f"{dt.upper()} sustained at {mfu[dt]:.0%} MFU")
ax.axhline(R["gpt4_cluster_peak_bf16_eflops"], color=PALETTE["black"], lw=0.8)
ax.annotate("GPT-4's A100 cluster, BF16 peak", (sizes[0], R["gpt4_cluster_peak_bf16_eflops"]),
            xytext=(0, 4), textcoords="offset points", fontsize=8)
ax.axvline(P.gpus, color=PALETTE["vermillion"], lw=0.8, ls=":")
ax.set_xscale("log")
ax.set_yscale("log")
ax.legend(fontsize=8)
add_source(fig, f"dense peaks from data/gpus.csv ({P.gpu}); MFU assumptions from SemiAnalysis 2024 (B11).")
glue_figure("fig_cluster_eflops", fig)
glue("gpus_to_match_gpt4_cluster", R["gpt4_cluster_peak_bf16_eflops"] * 1e6
     / (hardware.peak_tflops(P.gpu, "fp8") * P.mfu_fp8), display=False)

# %% [markdown]
# ```{glue:figure} fig_cluster_eflops
# :name: fig-cluster-eflops
# :alt: Log-log lines of peak (dashed) and sustained (solid) EFLOP/s for FP8 and BF16 rising linearly with cluster size, with a horizontal line at GPT-4's A100 cluster peak and a dotted vertical line at the chosen cluster size.
#
# Peak (dashed) and sustained (solid) compute grow linearly with GPU count; the dotted line marks
# the cluster this chapter ran with. {glue:text}`gpus_to_match_gpt4_cluster:,.0f` GPUs of the chosen
# type, sustained in FP8, match the *peak* of GPT-4's whole A100 cluster.
# ```

# %% [markdown]
# ## Power: from the chip to the meter
#
# The report builds the power of one GPU's share of the cluster in steps: the chip's board
# power, its share of the server (CPUs, NICs, fans, power-supply losses), then storage,
# switches and optics as a fraction of that. This is the *critical IT* load. The facility then
# draws PUE times as much at the meter, for cooling and power conversion.

# %% tags=["hide-input"]
gpu_w = hardware.tdp_w(P.gpu)
it_w = cluster.it_power_per_gpu_w(gpu_w, P.server_w_per_gpu, P.network_storage_frac)
it_total_w = cluster.critical_it_w(P.gpus, it_w)
meter_w = cluster.facility_w(it_total_w, P.pue)
energy_mwh = cluster.annual_energy_mwh(meter_w, P.load_factor)
R.add("gpu_w", gpu_w, "W", "GPU board power (TDP)")
R.add("it_w_per_gpu", it_w, "W", "Critical IT power per GPU")
R.add("critical_it_mw", it_total_w / 1e6, "MW", "Critical IT power of the cluster")
R.add("facility_mw", meter_w / 1e6, "MW", "Power at the utility meter")
R.add("annual_energy_twh", energy_mwh / 1e6, "TWh/yr", "Energy per year")
R.add("annual_electricity_usd", cluster.annual_electricity_usd(energy_mwh, P.tariff_usd_per_kwh),
      "USD/yr", "Electricity bill per year")
glue("annual_electricity_musd", R["annual_electricity_usd"] / 1e6, display=False)
glue("pue", P.pue, display=False)

# %% [markdown]
# One GPU's share comes to {glue:text}`it_w_per_gpu:,.0f` W of IT load, so the cluster needs
# {glue:text}`critical_it_mw:.0f` MW of critical IT and {glue:text}`facility_mw:.0f` MW at the
# meter. Over a year that is {glue:text}`annual_energy_twh:.2f` TWh and
# \${glue:text}`annual_electricity_musd:.1f`M of electricity. The report's "~{glue:text}`fact_B03_datacenter_mw:.0f` MW"
# is larger than the sum of its own components: a round-up, or headroom it does not spell out.
# Its {glue:text}`fact_B04_annual_twh:.2f` TWh is reproduced with a PUE of {glue:text}`pue:.2f` at
# full load; the report does not state its PUE, so that value is a calibration, and a parameter
# you can change.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("it_w_per_gpu", "C02_w_per_gpu"), ("critical_it_mw", "B14_critical_it_mw"),
    ("annual_energy_twh", "B04_annual_twh"), ("annual_electricity_usd", "B05_annual_cost_usd")])))

# %% tags=["remove-input"]
steps = {
    "GPU chip (TDP)": gpu_w,
    "Server share": P.server_w_per_gpu,
    "Storage, network, optics": (gpu_w + P.server_w_per_gpu) * P.network_storage_frac,
    "Facility overhead (PUE)": it_w * (P.pue - 1),
}
fig, ax = new_figure("Power build-up of one GPU's share of the cluster", "Watts per GPU", "", figsize=(7.0, 3.0))
left = 0.0
colours = [PALETTE["blue"], PALETTE["sky"], PALETTE["green"], PALETTE["orange"]]
for (name, watts), colour in zip(steps.items(), colours):
    ax.barh(0, watts, left=left, color=colour, edgecolor="white", label=f"{name}: {watts:,.0f} W")
    left += watts
ax.set_yticks([])
ax.set_xlim(0, left * 1.05)
secondary = ax.secondary_xaxis("top", functions=(lambda w: w * P.gpus / 1e6, lambda mw: mw * 1e6 / P.gpus))
secondary.set_xlabel(f"Megawatts for {P.gpus:,} GPUs")
ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=2, fontsize=8)
add_source(fig, "SemiAnalysis 2024 build-up (B14); PUE parameter (calibrated); TDP from data/gpus.csv.")
glue_figure("fig_cluster_power", fig)

# %% [markdown]
# ```{glue:figure} fig_cluster_power
# :name: fig-cluster-power
# :alt: A single horizontal stacked bar in four segments, GPU chip, server share, storage and network, facility overhead, with watts per GPU on the bottom axis and megawatts for the whole cluster on the top axis.
#
# Where the watts go: the chip's board power is only part of what one GPU draws at the meter.
# The top axis scales the same bar to the whole cluster.
# ```

# %% [markdown]
# ## Capital
#
# The report gives no per-server price for 2024, only that each 100k cluster costs "over
# \${glue:text}`fact_B02_capex_usd_b:.0f` billion" in servers. Its 2025 benchmark report prices a
# hyperscaler's 8-GPU H100 server at about \${glue:text}`fact_A04_h100_server_allin_usd:,.0f`
# all-in, which divided by 8 is the parameter's default. Prices fell in between, so the model's total
# sits below the report's bound; the gap is the price per GPU that the bound implies.

# %% tags=["hide-input"]
R.add("capex_usd", cluster.cluster_capex_usd(P.gpus, P.capex_usd_per_gpu), "USD", "Capital cost of the cluster")
R.add("capex_per_gpu_implied_by_report_usd", fact("B02_capex_usd") / d.GPUS.default, "USD per GPU",
      "Capex per GPU implied by the report's >$4B for 100k GPUs")
R.add("electricity_share_of_capex", R["annual_electricity_usd"] / R["capex_usd"],
      "fraction per year", "Yearly electricity bill / capex")
glue("capex_busd", R["capex_usd"] / 1e9, display=False)
glue("electricity_share_of_capex_pct", R["electricity_share_of_capex"] * 100, display=False)

# %% [markdown]
# At \${glue:text}`capex_usd_per_gpu:,.0f` per GPU the cluster costs
# \${glue:text}`capex_busd:.2f`B; the report's bound implies at least
# \${glue:text}`capex_per_gpu_implied_by_report_usd:,.0f` per GPU at 2024 prices. Either way the
# yearly electricity bill is a small fraction of the capital,
# {glue:text}`electricity_share_of_capex_pct:.1f` % a year here: owning GPUs is a capital
# business first.

# %% tags=["remove-cell"]
glue("capex_usd_per_gpu", P.capex_usd_per_gpu, display=False)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("capex_usd", "B02_capex_usd")])))

# %% [markdown]
# ## Failures: how often a big cluster breaks
#
# With *n* independent links whose lifetimes are exponential with mean MTTF, the first failure
# comes after MTTF / *n* on average. A 100k-GPU rail-optimized cluster has one backend link per
# GPU. Microsoft and OpenAI's "Cedar Fever-7" design halves the links
# ({glue:text}`alt_links_per_gpu:g` per GPU, at a shorter {glue:text}`alt_link_mttf_years:g`-year
# MTTF per 2x400G link). Each failure stops the synchronous job; restarting from a
# persistent checkpoint redoes up to a whole checkpoint interval on every GPU, while rebuilding the
# lost state from copies in peers' memory loses at most one step plus the copy time.

# %% tags=["hide-input"]
R.add("first_failure_minutes", cluster.first_failure_minutes(P.link_mttf_years, P.gpus * P.links_per_gpu),
      "minutes", "Mean time to the first link failure")
R.add("first_failure_minutes_alt", cluster.first_failure_minutes(P.alt_link_mttf_years, P.gpus * P.alt_links_per_gpu),
      "minutes", "Mean time to the first link failure, 4-link-per-node design")
R.add("gpu_days_lost_checkpoint", cluster.gpu_days_lost_checkpoint(P.gpus, P.checkpoint_interval_steps, P.step_time_seconds),
      "GPU-days", "Work lost per failure, restart from checkpoint (worst case)")
glue("alt_links_per_gpu", P.alt_links_per_gpu, display=False)
glue("alt_link_mttf_years", P.alt_link_mttf_years, display=False)
copy_s = cluster.weights_copy_seconds(hardware.memory_gb(P.gpu), P.backend_gbps)
R.add("weights_copy_seconds", copy_s, "s", "Time to copy one GPU's memory from a peer")
R.add("gpu_days_lost_in_memory", cluster.gpu_days_lost_in_memory(P.gpus, P.step_time_seconds, copy_s),
      "GPU-days", "Work lost per failure, in-memory recovery")

# %% [markdown]
# The first failure comes after {glue:text}`first_failure_minutes:.2f` minutes on average
# ({glue:text}`first_failure_minutes_alt:.2f` minutes with 4 links per node). Restarting from a
# checkpoint every {glue:text}`checkpoint_interval_steps:,` steps loses up to
# {glue:text}`gpu_days_lost_checkpoint:.0f` GPU-days per failure; in-memory recovery loses about
# {glue:text}`gpu_days_lost_in_memory:.1f` GPU-days, of which {glue:text}`weights_copy_seconds:.1f` s
# of copying. The reliability chapter turns these into goodput.

# %% tags=["remove-cell"]
glue("checkpoint_interval_steps", P.checkpoint_interval_steps, display=False)

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("first_failure_minutes", "B27_first_failure_min"), ("first_failure_minutes_alt", "B28_first_failure_min"),
    ("gpu_days_lost_checkpoint", "B25_gpu_days"), ("weights_copy_seconds", "B26_copy_s")])))

# %% tags=["remove-input"]
fig, ax = new_figure("Mean time to the first link failure", "GPUs in the cluster (log scale)",
                     "Minutes (log scale)")
ax.plot(sizes, cluster.first_failure_minutes(P.link_mttf_years, sizes * P.links_per_gpu),
        color=PALETTE["blue"], label=f"{P.links_per_gpu:g} link/GPU, {P.link_mttf_years:g}-year MTTF")
ax.plot(sizes, cluster.first_failure_minutes(P.alt_link_mttf_years, sizes * P.alt_links_per_gpu),
        color=PALETTE["orange"], label=f"{P.alt_links_per_gpu:g} link/GPU, {P.alt_link_mttf_years:g}-year MTTF")
ax.axhline(60, color=PALETTE["black"], lw=0.8, ls=":")
ax.annotate("one hour", (sizes[-1], 60), xytext=(-40, 4), textcoords="offset points", fontsize=8)
ax.axvline(P.gpus, color=PALETTE["vermillion"], lw=0.8, ls=":")
ax.set_xscale("log")
ax.set_yscale("log")
ax.legend(fontsize=8)
add_source(fig, "SemiAnalysis 2024 link MTTF assumptions (B27, B28); exponential lifetimes.")
glue_figure("fig_cluster_failures", fig)
glue("gpus_hourly_failure", cluster.first_failure_minutes(P.link_mttf_years, P.links_per_gpu) / 60, display=False)

# %% [markdown]
# ```{glue:figure} fig_cluster_failures
# :name: fig-cluster-failures
# :alt: Two falling straight lines on log-log axes, minutes to first failure against GPU count, for one link per GPU and half a link per GPU, with a dotted line at one hour.
#
# Time to the first failure falls in proportion to cluster size. Beyond
# {glue:text}`gpus_hourly_failure:,.0f` GPUs, a job cannot expect an hour without a link failure.
# ```

# %% [markdown]
# ## The seed's claims, checked
#
# The summary this book started from makes six claims about this report. Each is set against the
# original text and this chapter's results (the build fails if a "reproduced" claim drifts out of
# its tolerance).

# %% tags=["remove-input"]
display(Markdown(claims_table("cluster", R)))
R.save()
