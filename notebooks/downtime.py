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
# (chapter-downtime)=
# # GB200 NVL72's downtime penalty

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
gpus: int = 100000  # GPUs; an integer from 1 to 2,000,000. GPUs in the cluster
job_gpus: int = 16384  # GPUs; an integer from 8 to 2,000,000. GPUs in the training job whose reliability-adjusted cost is compared
checkpoint_write_seconds: float = 10.0  # s; a number from 0.1 to 3,600. Time training pauses to write one persistent checkpoint
failure_detection_minutes: float = 2.0  # minutes; a number from 0 to 120. Time from a failure until the job stops to recover
restart_minutes: float = 5.0  # minutes; a number from 0 to 600. Time to restart after a failure: swap in healthy nodes, re-initialise, reload the checkpoint
h100_gpus_per_server: int = 8  # GPUs; an integer from 1 to 64. GPUs in one H100 (HGX) server
gb200_gpus_per_rack: int = 72  # GPUs; an integer from 1 to 576. GPUs in one GB200 NVL72 rack
h100_repair_hours: float = 24.0  # hours; a number from 0.1 to 2,000. Time a failed H100 server (8 GPUs) is out of service
gb200_repair_hours: float = 48.0  # hours; a number from 0.1 to 2,000. Time a failed GB200 NVL72 rack (its NVLink domain) is out of service
gb200_blast_radius_gpus: int = 72  # GPUs; an integer from 1 to 576. GPUs taken out of service by one GB200 NVL72 fault until repaired
gb200_nvlink_faults_per_rack_month: float = 1.0  # faults per rack-month; a number from 0 to 30. NVLink backplane, switch-tray and cable faults per GB200 NVL72 rack, beyond GPU and host faults
gb200_gpu_fault_ratio: float = 1.0  # x; a number from 0.1 to 10. GB200 GPU, memory and host fault rate per GPU-hour relative to Llama 3's H100s

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import downtime as chapter
from analysis.figures import downtime as figures
from analysis.page.notebook import bands_table, comparison_table, glue, glue_facts, glue_figure, publish, save, start
from analysis.page.tables import answer_from_results

P, upstream = start("downtime", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts("A12_tco_ratio")

# %% tags=["remove-input"]
glue_figure("fig_downtime_breakeven", figures.breakeven(R))

# %% [markdown]
# {numref}`fig-downtime-breakeven` shows how much faster per GPU GB200 must be as it loses more of
# its GPU-hours to failures and repairs than the H100 does.
#
# ```{glue:figure} fig_downtime_breakeven
# :name: fig-downtime-breakeven
# :alt: A rising curve of the per-GPU speed-up GB200 needs against the share of extra GPU-hours it loses, starting at the TCO ratio with no penalty, with three dots for the assumed cases and two horizontal lines at NVIDIA's measured speed-ups for Llama 3.1 405B and DeepSeek-V3.
#
# The break-even speed-up is the TCO ratio divided by the share of GPU-hours GB200 keeps relative
# to the H100. Where the curve crosses a measured speed-up, GB200 stops paying for that workload.
# ```
#
# Read each dot against the horizontal lines: a dot below a line is a case in which GB200 still pays
# off on that workload, a dot above it one in which it does not. Where the true dot lies is what
# GB200's unpublished failure rates would settle.

# %% [markdown]
# SemiAnalysis's 2025 benchmark report argues that GB200 NVL72's performance per {term}`TCO` dollar must
# survive its reliability: by August 2025 no large-scale training run had completed on GB200
# NVL72, its copper NVLink backplane was still unreliable after burn-in, and its debug tools
# lagged ({ref}`SemiAnalysis, 2025 <src-sa_gb200_2025>`, facts A45-A47). The report's downtime
# numbers are paywalled. This chapter builds the model those numbers would feed: it takes the
# TCO per GPU-hour from the {ref}`TCO chapter <chapter-tco>`, the failure rates measured on Llama 3
# in the {ref}`reliability chapter <chapter-reliability>`, and NVIDIA's measured speed-ups from the
# {ref}`benchmarks chapter <chapter-benchmarks>`, and shows how much faster GB200 must be once its
# downtime is priced in. Every assumption about GB200 is a parameter with a range: rerun with
# `python -m analysis run downtime -p gb200_nvlink_faults_per_rack_month 0.2 -p gb200_repair_hours 24`.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## What a useful GPU-hour costs
#
# The TCO chapter prices a GPU-hour, and its break-even speed-up assumes every hour trains.
# Reliability takes two slices off that. The job loses its {term}`goodput` share to checkpoints, rework,
# detection and restart; and a fault takes its whole domain out of service until repaired: for an
# H100 its server of {glue:text}`h100_gpus_per_server:.0f` GPUs, for GB200 NVL72 its NVLink rack of
# {glue:text}`gb200_blast_radius_gpus:.0f` GPUs (by assumption), while the job runs on spares that
# are paid for too. The cost of a useful GPU-hour is TCO divided by both. For GB200 the book
# assumes (all parameters, with ranges): GPU and host faults at
# {glue:text}`gb200_gpu_fault_ratio:g`x Llama 3's per-GPU rate, plus
# {glue:text}`gb200_nvlink_faults_per_rack_month:g` NVLink backplane fault per rack per month, a
# blast radius of {glue:text}`gb200_blast_radius_gpus:.0f` GPUs and a repair time of
# {glue:text}`gb200_repair_hours:g` hours (H100: {glue:text}`h100_gpus_per_server:.0f` GPUs,
# {glue:text}`h100_repair_hours:g` hours). Both jobs checkpoint at Daly's optimum for their own
# {term}`MTBF` and share the reliability chapter's detection and restart times. The comparison is for a
# job of {glue:text}`job_gpus:,.0f` GPUs, Llama 3's size.
#
# The TCO model gives a GB200/H100 cost ratio of {glue:text}`gb200_breakeven_speedup:.2f`x
# per GPU-hour, the report's ~{glue:text}`fact_A12_tco_ratio:.1f`x: the speed-up GB200 needs with
# no reliability penalty (claim S16, settled in the TCO chapter). With the assumptions above, an
# H100 job of {glue:text}`job_gpus:,.0f` GPUs trains {glue:text}`h100_useful_frac:.1%` of its paid
# GPU-hours and a GB200 job {glue:text}`gb200_useful_frac:.1%`
# ({glue:text}`gb200_goodput_frac:.1%` goodput, {glue:text}`gb200_unavailable_frac:.1%` of racks
# under repair). A useful GPU-hour then costs \${glue:text}`h100_usd_per_useful_gpu_hour:.2f` on
# H100 and \${glue:text}`gb200_usd_per_useful_gpu_hour:.2f` on GB200, so GB200 must be
# **{glue:text}`gb200_breakeven_speedup_with_downtime:.2f`x** faster per GPU to pay off, and
# {glue:text}`gb200_breakeven_speedup_with_downtime_at_cluster_size:.2f`x in a job of
# {glue:text}`gpus:,.0f` GPUs. A backplane that no longer faults would bring it back to
# {glue:text}`gb200_breakeven_speedup_with_downtime_without_nvlink_faults:.2f`x; the rest of the
# penalty comes from the larger blast radius and the longer repairs.
#
# ## Against measured speed-ups
#
# NVIDIA's public reference runs give per-GPU speed-ups to set against the break-even (the
# {ref}`benchmarks chapter <chapter-benchmarks>` forms them, each system at its fastest published
# size in its latest release): Llama 3.1 405B in BF16, on
# {glue:text}`llama31_405b_bf16_h100_benchmark_gpus:,.0f` H100 against
# {glue:text}`llama31_405b_bf16_gb200_benchmark_gpus:,.0f` GB200 GPUs, and DeepSeek-V3 in BF16
# (fact A49; {glue:text}`deepseek_v3_bf16_h100_benchmark_gpus:,.0f` H100 against
# {glue:text}`deepseek_v3_bf16_gb200_benchmark_gpus:,.0f` GB200 GPUs). Their training cost per
# million tokens follows from the cost of a useful GPU-hour.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("gb200_breakeven_speedup", "A12_tco_ratio"),
                                      ("gb200_vs_h100_deepseek_v3_bf16_throughput_ratio", "A49_deepseek_ratio")])))
display(Markdown(figures.token_costs_table(R)))
glue("l405_verdict", figures.clears_or_falls_short(R, "gb200_vs_h100_llama31_405b_bf16_throughput_ratio",
                                     "gb200_breakeven_speedup_with_downtime"))
glue("dsv3_verdict", figures.clears_or_falls_short(R, "gb200_vs_h100_deepseek_v3_bf16_throughput_ratio", "gb200_breakeven_speedup"))

# %% [markdown]
# GB200 runs Llama 3.1 405B {glue:text}`gb200_vs_h100_llama31_405b_bf16_throughput_ratio:.2f`x
# faster per GPU, which {glue:text}`l405_verdict` the reliability-adjusted break-even of
# {glue:text}`gb200_breakeven_speedup_with_downtime:.2f`x; that speed-up pays for GB200 as long as
# it loses no more than {glue:text}`gb200_max_extra_loss_llama31_405b_frac:.0%` more of its
# GPU-hours than the H100 (the assumptions put it at {glue:text}`gb200_extra_loss_frac:.0%`).
# DeepSeek-V3's {glue:text}`gb200_vs_h100_deepseek_v3_bf16_throughput_ratio:.2f`x
# {glue:text}`dsv3_verdict` even the penalty-free break-even of
# {glue:text}`gb200_breakeven_speedup:.2f`x. {numref}`fig-downtime-breakeven` puts every reliability
# assumption on one axis: the share of GPU-hours GB200 loses to failures and repairs beyond the H100's.

# %% tags=["remove-input"]
from analysis.page.notebook import offer_table

offer_table(R, "breakeven_by_extra_loss", R.tables["breakeven_by_extra_loss"], "break-even speed-up against extra loss")

# %% [markdown]
# %% [markdown]
# Move the job size, the backplane fault rate, the repair time and GB200's GPU fault rate below to see how the break-even speed-up with downtime responds.

# %% tags=["remove-input"]
from IPython.display import HTML

from analysis.page.whatif import whatif_panel

display(HTML(whatif_panel("downtime")))

# %% [markdown]
# ## How sure: P10, P50 and P90
#
# The GB200 reliability inputs are assumptions with wide ranges; drawn together with the cost
# inputs they give this band for the break-even speed-up. The point estimate is this chapter's:
# the uncertainty analysis evaluates the same function.

# %% tags=["remove-input"]
display(Markdown(bands_table(R.tables["bands"], R["monte_carlo_draws_count"])))

# %% [markdown]
# This extends claim S16, which the TCO chapter reproduces as a pure cost ratio
# (`gb200_breakeven_speedup`): the reliability-adjusted figure, `gb200_breakeven_speedup_with_downtime`,
# is the same ratio once downtime is priced in.
#
# ## The seed's claim, checked

# %% tags=["remove-input"]
from analysis.page.notebook import claims_table

display(Markdown(claims_table("downtime", R)))

# %% tags=["remove-cell"]
save(R)
