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
# (chapter-reliability)=
# # Reliability: failures, checkpoints, goodput and the GB200 downtime penalty
#
# A synchronous training job stops whenever any one of its GPUs, hosts or links fails, so the
# bigger the job, the more often it stops. Each stop costs the work since the last checkpoint, the
# time to notice the failure and the time to restart. SemiAnalysis's 2025 benchmark report argues
# that GB200 NVL72's performance per TCO dollar must survive exactly these costs: by August 2025
# no large-scale training run had completed on GB200 NVL72, its copper NVLink backplane was still
# unreliable after burn-in, and its debug tools lagged ({ref}`SemiAnalysis, 2025 <src-sa_gb200_2025>`,
# facts A45-A47). The report's downtime numbers are paywalled. This chapter builds the model those
# numbers would feed, calibrates it on the one frontier run with a published failure table, Meta's
# Llama 3 405B ({ref}`Meta, 2024 <src-meta_llama3_2024>`), and shows how much faster GB200 must
# be once its downtime is priced in. Every assumption is a parameter with a range: rerun with
# `python -m analysis run reliability -p gb200_nvlink_faults_per_rack_month 0.2 -p gb200_repair_hours 24`.

# %% tags=["parameters", "remove-cell"]
# Defaults are defined once, in analysis/defaults.py; papermill injects overrides after this cell.
from analysis import defaults as d

gpus = d.GPUS.default
gpu = d.GPU.default
link_mttf_years = d.LINK_MTTF_YEARS.default
links_per_gpu = d.LINKS_PER_GPU.default
checkpoint_interval_steps = d.CHECKPOINT_INTERVAL_STEPS.default
step_time_s = d.STEP_TIME_S.default
backend_gbps = d.BACKEND_GBPS.default
checkpoint_write_s = d.CHECKPOINT_WRITE_S.default
failure_detection_min = d.FAILURE_DETECTION_MIN.default
restart_min = d.RESTART_MIN.default
goodput_trials = d.GOODPUT_TRIALS.default
goodput_seed = d.GOODPUT_SEED.default
job_gpus = d.JOB_GPUS.default
h100_allin_usd = d.H100_ALLIN_USD.default
h100_gpus_per_server = d.H100_GPUS_PER_SERVER.default
gb200_allin_usd = d.GB200_ALLIN_USD.default
gb200_gpus_per_rack = d.GB200_GPUS_PER_RACK.default
useful_life_years = d.USEFUL_LIFE_YEARS.default
cost_of_capital = d.COST_OF_CAPITAL.default
utilization = d.UTILIZATION.default
h100_it_w_per_gpu = d.H100_IT_W_PER_GPU.default
gb200_it_w_per_gpu = d.GB200_IT_W_PER_GPU.default
pue = d.PUE.default
tariff_usd_per_kwh = d.TARIFF.default
datacenter_usd_per_kw_month = d.DATACENTER_USD_PER_KW_MONTH.default
maintenance_frac_per_year = d.MAINTENANCE_FRAC_PER_YEAR.default
other_usd_per_gpu_month = d.OTHER_USD_PER_GPU_MONTH.default
h100_repair_hours = d.H100_REPAIR_HOURS.default
gb200_repair_hours = d.GB200_REPAIR_HOURS.default
gb200_blast_radius_gpus = d.GB200_BLAST_RADIUS_GPUS.default
gb200_nvlink_faults_per_rack_month = d.GB200_NVLINK_FAULTS_PER_RACK_MONTH.default
gb200_gpu_fault_ratio = d.GB200_GPU_FAULT_RATIO.default
mc_draws = d.MC_DRAWS.default
mc_seed = d.MC_SEED.default

# %% tags=["remove-input"]
import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display

from analysis import cluster, costs, hardware, opex, tco
from analysis import reliability as rel
from analysis.benchmarks import load_benchmarks, pick
from analysis.data import fact, load_table, row
from analysis.goodput import simulate_goodput, summarize
from analysis.notebook import bands_table, claims_table, comparison_table, glue, glue_facts, glue_figure, start
from analysis.plots import PALETTE, add_source, new_figure
from analysis.units import HOURS_PER_DAY, HOURS_PER_YEAR, SECONDS_PER_HOUR

P, R = start("reliability", globals())
glue_facts("A12_tco_ratio", "B27_first_failure_min", "B27_mttf_years", "B25_gpu_days", "B26_gpu_days_step",
           "B26_gpu_days_copy")
MIN_PER_H = SECONDS_PER_HOUR / 60  # minutes per hour


def plain_log_ticks(*axes):
    """Label log axes 0.1, 1, 10, 1,000 rather than powers of ten."""
    for axis in axes:
        axis.set_major_formatter(lambda v, _: f"{v:,.10g}")
write_h = P.checkpoint_write_s / SECONDS_PER_HOUR
detect_h, restart_h = P.failure_detection_min / MIN_PER_H, P.restart_min / MIN_PER_H

# %% [markdown]
# ## What interrupted Llama 3 405B
#
# Meta trained Llama 3 405B on {glue:text}`llama3_gpus:,.0f` H100s and published what stopped the
# job during a {glue:text}`llama3_days:.0f`-day snapshot of pre-training (its paper's cause table,
# in `data/llama3_interruptions.csv`, read via {ref}`Lockwood <src-klockwood_component_reliability>`
# and {ref}`DCD <src-dcd_llama3_2024>`).
# Dividing each cause's count by the GPU-hours of the snapshot gives a rate per GPU-hour that does
# not depend on the job's size, which is what lets the book scale it to other jobs.

# %% tags=["hide-input"]
causes = load_table("llama3_interruptions")
llama_gpus = rel.item("llama3_gpus")
llama_days = rel.item("llama3_snapshot_days")
llama_hours = llama_days * HOURS_PER_DAY
unexpected = rel.item("llama3_interruptions_unexpected")
planned = rel.item("llama3_interruptions_planned")
by_category = causes.groupby("category")["count"].sum().astype(float).sort_values(ascending=False)
rates = rel.rate_per_gpu_hour(by_category, llama_gpus, llama_hours)  # per GPU-hour, by category
all_rate, repair_rate = float(rates.sum()), float(rates[list(rel.REPAIR_CATEGORIES)].sum())
gpu_mtbf = rel.gpu_mtbf_hours(unexpected, llama_gpus, llama_hours)
planned_per_h = planned / llama_hours

R.add("llama3_unexpected_interruptions_per_day", unexpected / llama_days, "per day",
      "Llama 3 405B unexpected interruptions per day")
R.add("llama3_gpu_mtbf_hours", gpu_mtbf, "hours", "Per-GPU MTBF implied by Llama 3 (all unexpected causes)")
R.add("llama3_gpu_class_mtbf_hours", rel.gpu_mtbf_hours(by_category["GPU"], llama_gpus, llama_hours), "hours",
      "Per-GPU MTBF implied by Llama 3's GPU-class causes only")
R.add("llama3_job_mtbf_hours", rel.job_mtbf_hours(llama_gpus, gpu_mtbf), "hours",
      f"Llama 3 job MTBF ({llama_gpus:,.0f} GPUs)")
R.add("llama3_gpu_class_share", by_category["GPU"] / unexpected, "fraction",
      "Share of Llama 3's unexpected interruptions with a GPU-class cause")
R.add("llama3_repair_share", repair_rate / all_rate, "fraction",
      "Share of Llama 3's interruptions that take a server out for repair (GPU, host, maintenance)")
kokolis = {name: rel.gpu_mtbf_from_node_rate_hours(rel.item(f"kokolis_{name}_node_failures"),
                                                   rel.item("kokolis_gpus_per_node")) for name in ("rsc1", "rsc2")}
R.add("kokolis_rsc1_gpu_mtbf_hours", kokolis["rsc1"], "hours", "Per-GPU MTBF implied by Kokolis et al., RSC-1 (A100)")
R.add("kokolis_rsc2_gpu_mtbf_hours", kokolis["rsc2"], "hours", "Per-GPU MTBF implied by Kokolis et al., RSC-2 (A100)")
pct_from_counts = causes["count"].astype(float) / unexpected * 100
misprinted = causes[(pct_from_counts - causes["pct_printed"]).abs() > 0.05]
glue("llama3_gpus", llama_gpus)
glue("llama3_days", llama_days)
glue("llama3_unexpected", unexpected)
glue("llama3_planned", planned)
glue("llama3_total", rel.item("llama3_interruptions_total"))
glue("llama3_gpu_mtbf_years", gpu_mtbf / HOURS_PER_YEAR)
glue("llama3_gpu_class_pct", R["llama3_gpu_class_share"] * 100)
glue("llama3_printed_gpu_class_pct", causes.loc[causes["category"] == "GPU", "pct_printed"].sum())
glue("llama3_repair_pct", R["llama3_repair_share"] * 100)
glue("misprinted_component", misprinted["component"].iloc[0])
glue("misprinted_count", misprinted["count"].iloc[0])
glue("misprinted_pct_printed", misprinted["pct_printed"].iloc[0])
glue("misprinted_pct_counts", pct_from_counts[misprinted.index[0]])
glue("printed_pct_sum", causes["pct_printed"].sum())
glue("published_hours_between_failures", rel.item("llama3_hours_between_failures"))

# %% [markdown]
# {glue:text}`llama3_unexpected:,.0f` unexpected interruptions in {glue:text}`llama3_days:.0f`
# days is {glue:text}`llama3_unexpected_interruptions_per_day:.2f` a day, one every
# {glue:text}`llama3_job_mtbf_hours:.2f` hours (DCD: "one failure every
# {glue:text}`published_hours_between_failures:.0f` hours"); another {glue:text}`llama3_planned:.0f`
# planned interruptions were firmware, hardware or configuration updates. Spread over
# {glue:text}`llama3_gpus:,.0f` GPUs, each GPU's share of the job stopped it once every
# {glue:text}`llama3_gpu_mtbf_hours:,.0f` hours ({glue:text}`llama3_gpu_mtbf_years:.1f` years);
# counting only GPU-class causes, once every {glue:text}`llama3_gpu_class_mtbf_hours:,.0f` hours.
# Meta's two A100 research clusters imply {glue:text}`kokolis_rsc1_gpu_mtbf_hours:,.0f` and
# {glue:text}`kokolis_rsc2_gpu_mtbf_hours:,.0f` hours per GPU from their node failure rates
# ({ref}`Kokolis et al. <src-kokolis_2024>`): Llama 3 sits between the two.
#
# GPU-class causes (the GPU itself, its HBM3 and SRAM, its system processor, thermal sensors, silent
# data corruption) make up {glue:text}`llama3_gpu_class_pct:.1f` % of the interruptions by count.
# The paper prints {glue:text}`llama3_printed_gpu_class_pct:.1f` %, because one printed share does
# not match its count: "{glue:text}`misprinted_component`" has {glue:text}`misprinted_count:.0f`
# interruptions, {glue:text}`misprinted_pct_counts:.1f` % of the total, printed as
# {glue:text}`misprinted_pct_printed:.1f` % (the printed shares add up to
# {glue:text}`printed_pct_sum:.1f` %). The counts add up to the published total, so the book uses
# the counts.

# %% tags=["remove-input"]
order = causes.sort_values("count")
category_colour = {"GPU": PALETTE["vermillion"], "Host": PALETTE["orange"], "Network": PALETTE["blue"],
                   "Dependency": PALETTE["green"], "Unplanned maintenance": PALETTE["purple"],
                   "Unknown": PALETTE["black"]}
fig, ax = new_figure(f"Llama 3 405B: what stopped the job in {llama_days:.0f} days", "Unexpected interruptions (count)", "",
                     figsize=(7.5, 5.2))
ax.barh(order["component"], order["count"], color=order["category"].map(category_colour))
for y, (n, name) in enumerate(zip(order["count"], order["component"], strict=True)):
    ax.annotate(f"{n}", (n, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=8)
handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in category_colour.values()]
labels = [f"{k}: {int(by_category.get(k, 0))}" for k in category_colour]
ax.legend(handles, labels, title="Category: interruptions", fontsize=8, title_fontsize=8, loc="lower right")
ax.tick_params(axis="y", labelsize=8)
ax.grid(axis="y", visible=False)
add_source(fig, "Meta, The Llama 3 Herd of Models (2024), Table 5, via glennklockwood.com; data/llama3_interruptions.csv.")
glue_figure("fig_reliability_causes", fig)

# %% [markdown]
# ```{glue:figure} fig_reliability_causes
# :name: fig-reliability-causes
# :alt: Horizontal bars of Llama 3's unexpected interruptions by cause, largest first: faulty GPU, GPU HBM3 memory, software bug, network switch or cable, host maintenance, then smaller causes, each labelled with its count; bars coloured by category with GPU causes in vermillion.
#
# Llama 3's unexpected interruptions by cause, coloured by the paper's category. GPU-class causes
# dominate; software and the network follow.
# ```

# %% tags=["remove-input"]
lines = ["| Category | Interruptions | per million GPU-hours | per-GPU MTBF (years) |", "|---|---|---|---|"]
for category, n in by_category.items():
    lines.append(f"| {category} | {n:.0f} | {rates[category] * 1e6:.2f} | "
                 f"{rel.gpu_mtbf_hours(n, llama_gpus, llama_hours) / HOURS_PER_YEAR:,.1f} |")
lines.append(f"| **all unexpected** | **{unexpected:.0f}** | **{all_rate * 1e6:.2f}** | **{gpu_mtbf / HOURS_PER_YEAR:.1f}** |")
display(Markdown("\n".join(lines)))

# %% [markdown]
# Of these, the GPU, host and unplanned-maintenance causes
# ({glue:text}`llama3_repair_pct:.0f` % of the total) take a server out of service until it is
# repaired; software bugs, NCCL timeouts and switch or cable faults stop the job without
# retiring a server. The economics below use that split.
#
# ## Job MTBF against cluster size
#
# Failures of independent GPUs add up, so a job on *n* GPUs fails *n* times as often as one GPU's
# share: its MTBF is the per-GPU MTBF divided by *n*. Llama 3's rates give the job MTBF of any
# size; the A100 clusters of Kokolis et al. bracket it.

# %% tags=["hide-input"]
nvlink_rate = rel.per_gpu_rate_from_rack_month(P.gb200_nvlink_faults_per_rack_month, P.gb200_gpus_per_rack)
gb200_rate = all_rate * P.gb200_gpu_fault_ratio + nvlink_rate  # job-stopping faults per GPU-hour
R.add("job_mtbf_minutes_at_cluster_size", rel.job_mtbf_hours(P.gpus, gpu_mtbf) * MIN_PER_H, "minutes",
      f"Job MTBF at {P.gpus:,} GPUs, Llama 3 rates")
R.add("gb200_gpu_mtbf_hours", 1.0 / gb200_rate, "hours", "Per-GPU MTBF of GB200 NVL72 (assumed NVLink faults included)")
R.add("llama3_faults_per_72_gpu_month", all_rate * P.gb200_gpus_per_rack * opex.HOURS_PER_MONTH,
      "per rack-month", f"Llama 3's all-cause interruptions per {P.gb200_gpus_per_rack} GPUs per month")
R.add("first_failure_minutes_100k", cluster.first_failure_minutes(P.link_mttf_years, P.gpus * P.links_per_gpu),
      "minutes", "SA's time to the first link failure (links only)")
network_link_mttf = rel.per_link_mttf_years(by_category["Network"], llama_gpus * P.links_per_gpu, llama_hours)
R.add("llama3_network_mttf_years_per_link", network_link_mttf, "years",
      "MTTF per GPU link implied by Llama 3's network interruptions")
glue("gpus", P.gpus)
glue("gb200_nvlink_faults_per_rack_month", P.gb200_nvlink_faults_per_rack_month)
glue("gb200_job_mtbf_minutes", rel.job_mtbf_hours(P.gpus, R["gb200_gpu_mtbf_hours"]) * MIN_PER_H)
glue("link_mttf_years", P.link_mttf_years)
glue("link_links_per_gpu", P.links_per_gpu)
glue("gb200_gpus_per_rack", P.gb200_gpus_per_rack)

# %% [markdown]
# At {glue:text}`gpus:,` GPUs, Llama 3's per-GPU rate gives a job MTBF of
# {glue:text}`job_mtbf_minutes_at_cluster_size:.1f` minutes. SemiAnalysis's 2024 report gets
# {glue:text}`first_failure_minutes_100k:.2f` minutes from links alone (the cluster chapter's
# `first_failure_minutes`, reused here): {glue:text}`link_links_per_gpu:g` link per GPU with a
# {glue:text}`link_mttf_years:g`-year MTTF each. The causes differ: Llama 3's
# network interruptions imply {glue:text}`llama3_network_mttf_years_per_link:.0f` years per GPU
# link, and {glue:text}`llama3_gpu_class_pct:.0f` % of its interruptions came from the GPUs. With
# {glue:text}`gb200_nvlink_faults_per_rack_month:g` NVLink fault per rack per month (an assumption;
# Llama 3's causes add up to {glue:text}`llama3_faults_per_72_gpu_month:.2f` per
# {glue:text}`gb200_gpus_per_rack` GPUs per month), a GB200 NVL72 job of {glue:text}`gpus:,` GPUs fails every
# {glue:text}`gb200_job_mtbf_minutes:.1f` minutes.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("first_failure_minutes_100k", "B27_first_failure_min")])))

# %% tags=["remove-input"]
sizes = np.geomspace(1_000, 300_000, 60)
fig, ax = new_figure("Mean time between job failures against job size", "GPUs in the job (log scale)",
                     "Job MTBF, hours (log scale)")
ax.plot(sizes, rel.job_mtbf_hours(sizes, gpu_mtbf), color=PALETTE["blue"], lw=2, label="H100, Llama 3 all causes")
ax.plot(sizes, rel.job_mtbf_hours(sizes, R["llama3_gpu_class_mtbf_hours"]), color=PALETTE["sky"],
        label="H100, Llama 3 GPU-class causes only")
ax.fill_between(sizes, rel.job_mtbf_hours(sizes, kokolis["rsc1"]), rel.job_mtbf_hours(sizes, kokolis["rsc2"]),
                color=PALETTE["green"], alpha=0.15, label="A100, Kokolis et al. RSC-1 to RSC-2")
ax.plot(sizes, rel.job_mtbf_hours(sizes, R["gb200_gpu_mtbf_hours"]), color=PALETTE["vermillion"], lw=2,
        label="GB200 NVL72, with assumed NVLink faults")
ax.plot(sizes, cluster.first_failure_minutes(P.link_mttf_years, sizes * P.links_per_gpu) / MIN_PER_H,
        color=PALETTE["black"], ls="--", lw=1, label=f"SA 2024: links only, {P.link_mttf_years:g}-year MTTF")
ax.plot([llama_gpus], [R["llama3_job_mtbf_hours"]], "o", color=PALETTE["blue"])
ax.annotate("Llama 3 405B, measured", (llama_gpus, R["llama3_job_mtbf_hours"]), xytext=(6, 4),
            textcoords="offset points", fontsize=8)
ax.axvline(P.gpus, color=PALETTE["vermillion"], lw=0.8, ls=":")
ax.set_xscale("log")
ax.set_yscale("log")
plain_log_ticks(ax.xaxis, ax.yaxis)
ax.legend(fontsize=8, loc="upper right")
add_source(fig, f"Meta 2024 (Llama 3 Table 5); Kokolis et al. 2024 node rates, {rel.item('kokolis_gpus_per_node'):.0f} GPUs "
                "per node; SemiAnalysis 2024 (B27); GB200 NVLink fault rate is an assumption (parameter).")
glue_figure("fig_reliability_mtbf", fig)

# %% [markdown]
# ```{glue:figure} fig_reliability_mtbf
# :name: fig-reliability-mtbf
# :alt: Falling straight lines on log-log axes of job MTBF in hours against job size: H100 with all Llama 3 causes passing through the measured Llama 3 point, a higher line for GPU-class causes only, a shaded A100 band around them, a lower GB200 line, and a dashed links-only line from SemiAnalysis.
#
# Job MTBF falls as 1/GPUs. At Llama 3's size a job stops every few hours; at
# {glue:text}`gpus:,` GPUs (dotted line) every {glue:text}`job_mtbf_minutes_at_cluster_size:.0f`
# minutes, and more often still on GB200 NVL72 if its backplane adds the assumed faults.
# ```

# %% [markdown]
# ## How often to checkpoint
#
# Checkpointing more often loses less work per failure but spends more time writing. Young
# (1974) put the optimum compute time between checkpoints at sqrt(2 *δ* *M*), for a write time
# *δ* and a job MTBF *M* ({ref}`Young <src-young_1974>`); Daly (2006) refined it to
# sqrt(2*δM*) [1 + ⅓ sqrt(*δ*/2*M*) + ⅑ (*δ*/2*M*)] − *δ* while *δ* < 2*M*, and *M* once a
# checkpoint takes twice the MTBF or longer ({ref}`Daly <src-daly_2006>`).
#
# Llama 3 does not publish how long a checkpoint takes. It does publish the state each GPU saves
# (up to {glue:text}`ckpt_gb_per_gpu_max:.0f` GB) and its storage's sustained bandwidth
# ({glue:text}`storage_tbs_sustained:.0f` TB/s): a synchronous save of every GPU's largest shard
# would take {glue:text}`sync_save_s:.0f` s. Asynchronous checkpointing pauses training only for
# the copy to host memory, {glue:text}`dcp_async_s:.1f` s instead of {glue:text}`dcp_sync_s:.1f` s
# for a 7B model with PyTorch DCP ({ref}`PyTorch, 2024 <src-pytorch_dcp_async_2024>`). The book
# assumes a pause of {glue:text}`checkpoint_write_s:g` s.

# %% tags=["hide-input"]
llama_mtbf = R["llama3_job_mtbf_hours"]
R.add("sync_checkpoint_save_s", rel.checkpoint_transfer_seconds(
    row("reliability_facts", "llama3_checkpoint_gb_per_gpu")["value_high"], llama_gpus,
    rel.item("llama3_storage_tbs_sustained")), "s", "Llama 3: synchronous save of the largest shard, sustained bandwidth")
R.add("young_interval_minutes", rel.young_interval(write_h, llama_mtbf) * MIN_PER_H, "minutes",
      "Young's optimal checkpoint interval, Llama 3 job")
R.add("daly_interval_minutes", rel.daly_interval(write_h, llama_mtbf) * MIN_PER_H, "minutes",
      "Daly's optimal checkpoint interval, Llama 3 job")
cluster_mtbf = rel.job_mtbf_hours(P.gpus, gpu_mtbf)
R.add("daly_interval_minutes_at_cluster_size", rel.daly_interval(write_h, cluster_mtbf) * MIN_PER_H, "minutes",
      f"Daly's optimal checkpoint interval at {P.gpus:,} GPUs")
sa_interval_h = P.checkpoint_interval_steps * P.step_time_s / SECONDS_PER_HOUR
glue("ckpt_gb_per_gpu_max", row("reliability_facts", "llama3_checkpoint_gb_per_gpu")["value_high"])
glue("storage_tbs_sustained", rel.item("llama3_storage_tbs_sustained"))
glue("sync_save_s", R["sync_checkpoint_save_s"])
glue("dcp_async_s", rel.item("dcp_async_checkpoint_s"))
glue("dcp_sync_s", rel.item("dcp_sync_checkpoint_s"))
glue("checkpoint_write_s", P.checkpoint_write_s)
glue("sa_interval_minutes", sa_interval_h * MIN_PER_H)

# %% [markdown]
# For Llama 3's job MTBF and a {glue:text}`checkpoint_write_s:g`-s pause, Young's interval is
# {glue:text}`young_interval_minutes:.2f` minutes and Daly's {glue:text}`daly_interval_minutes:.2f`
# minutes; at {glue:text}`gpus:,` GPUs Daly's shrinks to
# {glue:text}`daly_interval_minutes_at_cluster_size:.2f` minutes, close to SemiAnalysis's example of
# {glue:text}`checkpoint_interval_steps:,` steps of {glue:text}`step_time_s:g` s
# ({glue:text}`sa_interval_minutes:.1f` minutes). The two formulas part only when the write time
# approaches the MTBF:

# %% tags=["remove-cell"]
glue("checkpoint_interval_steps", P.checkpoint_interval_steps)
glue("step_time_s", P.step_time_s)

# %% tags=["remove-input"]
mtbf_grid = np.geomspace(1 / MIN_PER_H, 100.0, 200)  # hours: one minute to 100 hours
fig, ax = new_figure("Optimal compute time between checkpoints", "Job MTBF, hours (log scale)",
                     "Checkpoint interval, minutes (log scale)")
writes = {f"{P.checkpoint_write_s:g} s pause (assumed)": (write_h, PALETTE["blue"]),
          f"{R['sync_checkpoint_save_s']:.0f} s (Llama 3 synchronous estimate)": (
              R["sync_checkpoint_save_s"] / SECONDS_PER_HOUR, PALETTE["orange"]),
          f"{rel.item('dcp_sync_checkpoint_s'):.0f} s (7B, synchronous DCP)": (
              rel.item("dcp_sync_checkpoint_s") / SECONDS_PER_HOUR, PALETTE["vermillion"])}
for label, (w, colour) in writes.items():
    ax.plot(mtbf_grid, rel.daly_interval(w, mtbf_grid) * MIN_PER_H, color=colour, lw=2, label=f"Daly, {label}")
    ax.plot(mtbf_grid, rel.young_interval(w, mtbf_grid) * MIN_PER_H, color=colour, lw=1, ls="--")
ax.plot([], [], color="grey", ls="--", lw=1, label="Young (same write times)")
for m, name in ((llama_mtbf, f"Llama 3, {llama_gpus / 1000:,.0f}k GPUs"), (cluster_mtbf, f"{P.gpus / 1000:,.0f}k GPUs")):
    ax.axvline(m, color=PALETTE["black"], lw=0.8, ls=":")
    ax.annotate(name, (m, ax.get_ylim()[1]), xytext=(3, -12), textcoords="offset points", fontsize=8)
ax.set_xscale("log")
ax.set_yscale("log")
ax.legend(fontsize=8, loc="lower right")


def mtbf_to_gpus(x):
    """Job MTBF (h) <-> GPUs at Llama 3's per-GPU MTBF; the map is its own inverse (matplotlib
    also probes 0, which maps to infinity)."""
    with np.errstate(divide="ignore", over="ignore"):
        return gpu_mtbf / np.asarray(x, dtype=float)


top = ax.secondary_xaxis("top", functions=(mtbf_to_gpus, mtbf_to_gpus))
top.set_xlabel("GPUs in the job at Llama 3's per-GPU rate")
plain_log_ticks(ax.xaxis, ax.yaxis, top.xaxis)
add_source(fig, "Young 1974; Daly 2006 (interval = MTBF once the write takes 2 MTBF or more); write times: "
                "parameter, Llama 3 checkpoint size and storage, PyTorch DCP blog.")
glue_figure("fig_reliability_interval", fig)

# %% [markdown]
# ```{glue:figure} fig_reliability_interval
# :name: fig-reliability-interval
# :alt: Rising lines on log-log axes of the optimal checkpoint interval in minutes against job MTBF in hours, for three checkpoint write times; solid lines are Daly's formula and dashed lines Young's, which separate only at short MTBF where Daly's switches to one checkpoint per MTBF.
#
# The optimal interval grows as the square root of both the MTBF and the write time. Daly's
# formula (solid) and Young's (dashed) differ only where the write time is a sizeable share of the
# MTBF; there Daly's checkpoints once per MTBF. The top axis converts the MTBF into a job size.
# ```

# %% [markdown]
# ## Where the time goes
#
# Between two failures a job finishes some whole intervals and checkpoints them; a failure throws
# away the interval in progress, then the job waits to detect the failure and restart. The
# expected share of wall-clock time in each state follows exactly from the MTBF, the interval, the
# write time, the detection and restart times and the rate of planned restarts
# (`analysis.reliability.expected_time_fractions`). Three cases: Llama 3 with Daly's interval,
# {glue:text}`gpus:,` GPUs with SemiAnalysis's persistent checkpoints, and the same cluster
# recovering from copies of the state in other GPUs' memory, which loses at most one step and
# pauses for the copy ({glue:text}`weights_copy_seconds:.1f` s over the backend network).

# %% tags=["hide-input"]
copy_s = cluster.weights_copy_seconds(hardware.memory_gb(P.gpu), P.backend_gbps)
cases = {
    "Llama 3, Daly interval": (llama_mtbf, rel.daly_interval(write_h, llama_mtbf), write_h, restart_h),
    f"{P.gpus:,} GPUs, checkpoint every {P.checkpoint_interval_steps} steps": (
        cluster_mtbf, sa_interval_h, write_h, restart_h),
    f"{P.gpus:,} GPUs, in-memory recovery": (cluster_mtbf, P.step_time_s / SECONDS_PER_HOUR, 0.0,
                                             copy_s / SECONDS_PER_HOUR),
}
shares = {name: rel.expected_time_fractions(m, tau, w, detect_h, rs, planned_per_h)
          for name, (m, tau, w, rs) in cases.items()}
names = list(shares)
R.add("llama3_expected_goodput", shares[names[0]]["useful training"], "fraction",
      "Llama 3 expected effective training time (analytic)")
R.add("goodput_at_cluster_size", shares[names[1]]["useful training"], "fraction",
      f"Expected goodput at {P.gpus:,} GPUs, persistent checkpoints")
R.add("goodput_at_cluster_size_in_memory", shares[names[2]]["useful training"], "fraction",
      f"Expected goodput at {P.gpus:,} GPUs, in-memory recovery")
R.add("weights_copy_seconds", copy_s, "s", "Time to copy one GPU's memory from a peer")
R.add("gpu_days_lost_checkpoint", cluster.gpu_days_lost_checkpoint(P.gpus, P.checkpoint_interval_steps, P.step_time_s),
      "GPU-days", "Work lost per failure, restart from checkpoint (worst case)")
R.add("gpu_days_lost_checkpoint_mean", cluster.gpu_days_lost_checkpoint(
    P.gpus, P.checkpoint_interval_steps / 2 + 1, P.step_time_s), "GPU-days",
      "Work lost per failure, restart from checkpoint (on average: half an interval)")
R.add("in_memory_step_gpu_days", cluster.gpu_days_lost_in_memory(P.gpus, P.step_time_s, 0.0), "GPU-days",
      "In-memory recovery: one redone step")
R.add("in_memory_copy_gpu_days", cluster.gpu_days_lost_in_memory(P.gpus, 0.0, copy_s, steps_lost=0.0), "GPU-days",
      "In-memory recovery: waiting for the copy")
R.add("gpu_days_lost_in_memory", cluster.gpu_days_lost_in_memory(P.gpus, P.step_time_s, copy_s), "GPU-days",
      "Work lost per failure, in-memory recovery")
glue("failure_detection_min", P.failure_detection_min)
glue("restart_min", P.restart_min)

# %% tags=["remove-input"]
lines = ["| Share of wall-clock time | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
for state in shares[names[0]]:
    lines.append(f"| {state} | " + " | ".join(f"{shares[n][state] * 100:.1f} %" for n in names) + " |")
display(Markdown("\n".join(lines)))

# %% [markdown]
# With a {glue:text}`failure_detection_min:g`-minute detection and a {glue:text}`restart_min:g`-minute
# restart (both assumptions), Llama 3 spends {glue:text}`llama3_expected_goodput_pct:.1f` % of its
# time training. At {glue:text}`gpus:,` GPUs, where failures come every
# {glue:text}`job_mtbf_minutes_at_cluster_size:.0f` minutes, the same recovery leaves
# {glue:text}`goodput_at_cluster_size_pct:.0f` %, and the largest loss is
# {glue:text}`largest_loss_cluster`. Recovering from peers' memory instead keeps
# {glue:text}`goodput_at_cluster_size_in_memory_pct:.0f` %; what is left is mostly
# {glue:text}`largest_loss_in_memory`. Per failure, the report's arithmetic compares the worst case of a checkpoint restart,
# {glue:text}`gpu_days_lost_checkpoint:.0f` GPU-days, with {glue:text}`gpu_days_lost_in_memory:.2f`
# GPU-days for in-memory recovery; on average a restart loses half an interval,
# {glue:text}`gpu_days_lost_checkpoint_mean:.0f` GPU-days, plus the restart itself.

# %% tags=["remove-cell"]
glue("llama3_expected_goodput_pct", R["llama3_expected_goodput"] * 100)
glue("goodput_at_cluster_size_pct", R["goodput_at_cluster_size"] * 100)
glue("goodput_at_cluster_size_in_memory_pct", R["goodput_at_cluster_size_in_memory"] * 100)
for key, name in (("largest_loss_cluster", names[1]), ("largest_loss_in_memory", names[2])):
    losses = {k: v for k, v in shares[name].items() if k != "useful training"}
    glue(key, max(losses, key=losses.get))

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("gpu_days_lost_checkpoint", "B25_gpu_days"), ("in_memory_step_gpu_days", "B26_gpu_days_step"),
    ("in_memory_copy_gpu_days", "B26_gpu_days_copy")])))

# %% [markdown]
# ## Goodput, simulated
#
# The analytic shares are long-run averages. A seeded Monte Carlo
# (`analysis.goodput.simulate_goodput`) plays the same model forward run by run: failures arrive
# as a Poisson process, each loses the work since the last checkpoint and costs detection and
# restart time, and planned interruptions cost a restart each. It returns the distribution of the
# effective-training-time ratio over {glue:text}`goodput_trials:,` simulated
# {glue:text}`llama3_days:.0f`-day Llama 3 runs.

# %% tags=["hide-input"]
llama_interval = rel.daly_interval(write_h, llama_mtbf)
ratios = simulate_goodput(llama_gpus, gpu_mtbf, llama_hours, llama_interval, write_h, detect_h, restart_h,
                          trials=P.goodput_trials, seed=P.goodput_seed, planned_per_hour=planned_per_h)
stats = summarize(ratios)
R.add("llama3_effective_training_time", stats["mean"], "fraction",
      "Llama 3 effective training time, Monte Carlo mean")
R.add("llama3_effective_training_time_p5", stats["p5"], "fraction", "Llama 3 effective training time, 5th percentile")
R.add("llama3_effective_training_time_p95", stats["p95"], "fraction", "Llama 3 effective training time, 95th percentile")
R.add("llama3_share_of_runs_above_published", float(np.mean(ratios > rel.item("llama3_effective_training_time"))),
      "fraction", "Share of simulated Llama 3 runs above Meta's published bound")
recovery_budget = rel.max_recovery_time(rel.item("llama3_effective_training_time"), llama_mtbf, llama_interval, write_h,
                                        planned_per_h * restart_h)
R.add("llama3_max_recovery_minutes", recovery_budget * MIN_PER_H, "minutes",
      "Largest detection + restart per failure that keeps Llama 3 at Meta's bound")
glue("goodput_trials", P.goodput_trials)
glue("goodput_seed", P.goodput_seed)
glue("published_ett_pct", rel.item("llama3_effective_training_time") * 100)
glue("llama3_ett_pct", stats["mean"] * 100)
glue("llama3_ett_p5_pct", stats["p5"] * 100)
glue("llama3_ett_p95_pct", stats["p95"] * 100)
glue("llama3_share_above_pct", R["llama3_share_of_runs_above_published"] * 100)
glue("mc_minus_analytic_pp", abs(stats["mean"] - R["llama3_expected_goodput"]) * 100)
glue("recovery_now_min", P.failure_detection_min + P.restart_min)
glue("recovery_budget_text", f"stays under {recovery_budget * MIN_PER_H:.1f} minutes" if recovery_budget > 0
     else "is out of reach even with instant recovery, so it cannot be met")

# %% [markdown]
# The simulated runs average {glue:text}`llama3_ett_pct:.1f` % effective training time (5th to
# 95th percentile {glue:text}`llama3_ett_p5_pct:.1f`-{glue:text}`llama3_ett_p95_pct:.1f` %), against
# Meta's "more than {glue:text}`published_ett_pct:.0f` %"; {glue:text}`llama3_share_above_pct:.0f` %
# of runs clear it. The mean differs from the analytic expectation by
# {glue:text}`mc_minus_analytic_pp:.2g` percentage points. The inputs that Meta did not publish
# matter: with Daly's interval and the assumed write time, Meta's mark holds as long as detection
# plus restart {glue:text}`recovery_budget_text` per failure (the book assumes
# {glue:text}`recovery_now_min:g` minutes). Meta's figure is therefore also a statement about its
# automation: on average, noticing a failure and restarting the job cannot have taken much longer.

# %% tags=["remove-input"]
fig, ax = new_figure("Effective training time of simulated Llama 3 runs", "Effective training time ratio (%)",
                     "Simulated runs", figsize=(7.0, 3.6))
ax.hist(ratios * 100, bins=40, color=PALETTE["sky"], edgecolor="white")
ax.axvline(R["llama3_expected_goodput"] * 100, color=PALETTE["blue"], lw=1.5, label="analytic expectation")
ax.axvline(rel.item("llama3_effective_training_time") * 100, color=PALETTE["vermillion"], lw=1.5, ls="--",
           label="Meta: more than this")
ax.legend(fontsize=8, loc="upper left")
add_source(fig, f"{P.goodput_trials:,} runs (seed {P.goodput_seed}); Llama 3 counts (Meta 2024); write, detection "
                "and restart times are assumptions (parameters).")
glue_figure("fig_reliability_llama3_goodput", fig)

# %% [markdown]
# ```{glue:figure} fig_reliability_llama3_goodput
# :name: fig-reliability-llama3-goodput
# :alt: A narrow histogram of the effective training time of simulated Llama 3 runs, with a solid line at the analytic expectation in its middle and a dashed line at Meta's published bound to its left.
#
# The distribution of effective training time over simulated Llama 3 runs; its spread
# comes from the number and timing of failures, which vary from run to run.
# ```

# %% [markdown]
# Scaling the job up with the same per-GPU rates, goodput falls, and how fast depends on the
# checkpoint interval (left) and on the time to recover (right). Dots are Monte Carlo means with
# their 5th-95th percentile range, at Llama 3's size and at {glue:text}`gpus:,` GPUs.

# %% tags=["remove-input"]
size_mtbf = rel.job_mtbf_hours(sizes, gpu_mtbf)
llama_tau = rel.daly_interval(write_h, llama_mtbf)
fig, (left, right) = plt.subplots(1, 2, figsize=(10.5, 4.2), sharey=True)
intervals = {"Daly optimum at each size": (rel.daly_interval(write_h, size_mtbf), PALETTE["blue"]),
             f"fixed at Llama 3's optimum ({llama_tau * MIN_PER_H:.1f} min)": (llama_tau, PALETTE["orange"]),
             f"fixed at SA's {P.checkpoint_interval_steps} steps ({sa_interval_h * MIN_PER_H:.1f} min)": (
                 sa_interval_h, PALETTE["green"])}
for label, (tau, colour) in intervals.items():
    left.plot(sizes, rel.expected_goodput(size_mtbf, tau, write_h, detect_h, restart_h, planned_per_h) * 100,
              color=colour, lw=2, label=label)
left.plot(sizes, rel.expected_goodput(size_mtbf, P.step_time_s / SECONDS_PER_HOUR, 0.0, detect_h,
                                      copy_s / SECONDS_PER_HOUR, planned_per_h) * 100,
          color=PALETTE["purple"], lw=2, ls="--", label="in-memory recovery (one step lost, copy pause)")
for n in (llama_gpus, P.gpus):
    m = rel.job_mtbf_hours(n, gpu_mtbf)
    sim = simulate_goodput(n, gpu_mtbf, llama_hours, rel.daly_interval(write_h, m), write_h, detect_h, restart_h,
                           trials=P.goodput_trials, seed=P.goodput_seed, planned_per_hour=planned_per_h) * 100
    lo, mid, hi = np.percentile(sim, 5), sim.mean(), np.percentile(sim, 95)
    left.errorbar([n], [mid], yerr=[[max(mid - lo, 0.0)], [max(hi - mid, 0.0)]], fmt="o", color=PALETTE["black"], ms=4, capsize=3)
left.set_title(f"Checkpoint interval (recovery {P.failure_detection_min + P.restart_min:g} min)", loc="left",
               fontsize=10)
recoveries = {"instant restart (detection only)": (0.0, PALETTE["sky"]),
              f"restart {P.restart_min:g} min (this build)": (restart_h, PALETTE["blue"])}
if recovery_budget > detect_h:  # the longest restart that still meets Meta's bound, when there is one
    recoveries[f"restart {(recovery_budget - detect_h) * MIN_PER_H:.1f} min "
               f"(Llama 3 at {rel.item('llama3_effective_training_time'):.0%})"] = (recovery_budget - detect_h,
                                                                                   PALETTE["vermillion"])
for label, (rs, colour) in recoveries.items():
    right.plot(sizes, rel.expected_goodput(size_mtbf, rel.daly_interval(write_h, size_mtbf), write_h, detect_h, rs,
                                           planned_per_h) * 100, color=colour, lw=2, label=label)
right.set_title(f"Restart time (Daly interval, detection {P.failure_detection_min:g} min)", loc="left", fontsize=10)
for ax in (left, right):
    ax.axhline(rel.item("llama3_effective_training_time") * 100, color=PALETTE["black"], lw=0.8, ls=":")
    ax.axvline(P.gpus, color=PALETTE["vermillion"], lw=0.8, ls=":")
    ax.set_xscale("log")
    plain_log_ticks(ax.xaxis)
    ax.set_xlabel("GPUs in the job (log scale)")
    ax.legend(fontsize=7.5, loc="lower left")
left.set_ylabel("Goodput: effective training time (%)")
fig.suptitle("Goodput against job size (Llama 3 per-GPU failure rates)", x=0.01, ha="left", fontweight="bold")
fig.tight_layout()
add_source(fig, "analytic expectation (lines) and Monte Carlo (dots, 5th-95th percentile) of this chapter; the dotted "
                f"horizontal line is Meta's {rel.item('llama3_effective_training_time'):.0%}.")
glue_figure("fig_reliability_goodput", fig)

# %% [markdown]
# ```{glue:figure} fig_reliability_goodput
# :name: fig-reliability-goodput
# :alt: Two panels of goodput in percent against job size, all lines falling with size. Left, for checkpoint intervals: the Daly optimum is highest among persistent checkpoints, fixed intervals lose more away from the size they suit, and in-memory recovery stays highest; black Monte Carlo dots with error bars at Llama 3's size and at the cluster size sit on the Daly line. Right, for restart times: instant, default and the longest restart that keeps Llama 3 at Meta's published bound.
#
# Goodput against job size. Left: the checkpoint interval matters less than recovery; recovering
# from memory holds goodput up at {glue:text}`gpus:,` GPUs. Right: the restart time sets how fast
# goodput falls with size.
# ```

# %% [markdown]
# ## Reliability-adjusted economics: H100 against GB200 NVL72
#
# The {ref}`TCO chapter <chapter-tco>` prices a GPU-hour, and its break-even speed-up assumes every
# hour trains. Reliability takes two slices off that. The job loses its goodput share to
# checkpoints, rework, detection and restart; and a fault takes its whole domain out of service
# until repaired: for an H100 its server of {glue:text}`h100_gpus_per_server` GPUs, for GB200 NVL72
# its NVLink rack of {glue:text}`gb200_blast_radius_gpus` GPUs (by assumption), while the
# job runs on spares that are paid for too. The cost of a useful GPU-hour is TCO divided by both.
# For GB200 the book assumes (all parameters, with ranges): GPU and host faults at
# {glue:text}`gb200_gpu_fault_ratio:g`x Llama 3's per-GPU rate, plus
# {glue:text}`gb200_nvlink_faults_per_rack_month:g` NVLink backplane fault per rack per month, a
# blast radius of {glue:text}`gb200_blast_radius_gpus` GPUs and a repair time of
# {glue:text}`gb200_repair_hours:g` hours (H100: {glue:text}`h100_gpus_per_server` GPUs,
# {glue:text}`h100_repair_hours:g` hours). The comparison is for a job of
# {glue:text}`job_gpus:,` GPUs.

# %% tags=["hide-input"]
systems = ("h100", "gb200")
tco_hour = {name: tco.system_tco_per_gpu_hour_usd(name, P) for name in systems}  # the TCO chapter's model
job_rate = {"h100": all_rate, "gb200": gb200_rate}  # job-stopping faults per GPU-hour
repair = {"h100": (repair_rate, P.h100_gpus_per_server, P.h100_repair_hours),
          "gb200": (repair_rate * P.gb200_gpu_fault_ratio + nvlink_rate, P.gb200_blast_radius_gpus,
                    P.gb200_repair_hours)}
recovery = (write_h, detect_h, restart_h, planned_per_h)
share = {s: rel.useful_share(P.job_gpus, job_rate[s], *repair[s], *recovery) for s in systems}
for s in systems:
    R.add(f"{s}_tco_per_gpu_hour_usd", tco_hour[s], "USD per GPU-hour", f"{s.upper()} TCO per GPU-hour")
    R.add(f"{s}_goodput", share[s][0], "fraction", f"{s.upper()} job goodput at {P.job_gpus:,} GPUs")
    R.add(f"{s}_unavailability", share[s][1], "fraction", f"{s.upper()} share of GPUs out of service for repair")
    R.add(f"{s}_useful_fraction", share[s][2], "fraction", f"{s.upper()} share of paid GPU-hours that train")
    R.add(f"{s}_usd_per_useful_gpu_hour", rel.usd_per_useful_gpu_hour(tco_hour[s], share[s][2]),
          "USD per useful GPU-hour", f"{s.upper()} cost of a useful GPU-hour")
R.add("gb200_breakeven_speedup_no_downtime", tco.breakeven_speedup(tco_hour["gb200"], tco_hour["h100"]), "x",
      "GB200 break-even speed-up, no reliability penalty (TCO ratio)")
R.add("gb200_breakeven_speedup_with_downtime", rel.reliability_adjusted_breakeven(
    tco_hour["gb200"], share["gb200"][2], tco_hour["h100"], share["h100"][2]), "x",
      f"GB200 break-even speed-up with failures and downtime, {P.job_gpus:,}-GPU job")
at_cluster = {s: rel.useful_share(P.gpus, job_rate[s], *repair[s], *recovery) for s in systems}
R.add("gb200_breakeven_speedup_with_downtime_at_cluster_size", rel.reliability_adjusted_breakeven(
    tco_hour["gb200"], at_cluster["gb200"][2], tco_hour["h100"], at_cluster["h100"][2]), "x",
      f"GB200 break-even speed-up with failures and downtime, {P.gpus:,}-GPU job")
useful_fixed = rel.useful_share(P.job_gpus, all_rate * P.gb200_gpu_fault_ratio, repair_rate * P.gb200_gpu_fault_ratio,
                                P.gb200_blast_radius_gpus, P.gb200_repair_hours, *recovery)[2]
R.add("gb200_breakeven_speedup_without_nvlink_faults", rel.reliability_adjusted_breakeven(
    tco_hour["gb200"], useful_fixed, tco_hour["h100"], share["h100"][2]), "x",
      "GB200 break-even speed-up with a fault-free backplane (other assumptions kept)")
R.add("gb200_extra_loss", 1 - share["gb200"][2] / share["h100"][2], "fraction",
      "GB200 GPU-hours lost beyond the H100's share")

# %% [markdown]
# The TCO model gives the GB200/H100 cost ratio of {glue:text}`gb200_breakeven_speedup_no_downtime:.2f`x
# per GPU-hour, the report's ~{glue:text}`fact_A12_tco_ratio:.1f`x: the speed-up GB200 needs with
# no reliability penalty (claim S16, settled in the TCO chapter). With the assumptions above, an
# H100 job of {glue:text}`job_gpus:,` GPUs trains {glue:text}`h100_useful_pct:.1f` % of its paid
# GPU-hours and a GB200 job {glue:text}`gb200_useful_pct:.1f` %
# ({glue:text}`gb200_goodput_pct:.1f` % goodput, {glue:text}`gb200_unavailability_pct:.1f` % of racks
# under repair). A useful GPU-hour then costs \${glue:text}`h100_usd_per_useful_gpu_hour:.2f` on
# H100 and \${glue:text}`gb200_usd_per_useful_gpu_hour:.2f` on GB200, so GB200 must be
# **{glue:text}`gb200_breakeven_speedup_with_downtime:.2f`x** faster per GPU to pay off, and
# {glue:text}`gb200_breakeven_speedup_with_downtime_at_cluster_size:.2f`x in a job of
# {glue:text}`gpus:,` GPUs. A backplane that no longer faults would bring it back to
# {glue:text}`gb200_breakeven_speedup_without_nvlink_faults:.2f`x; the rest of the penalty comes
# from the larger blast radius and the longer repairs.

# %% tags=["remove-cell"]
glue("gb200_gpu_fault_ratio", P.gb200_gpu_fault_ratio)
glue("gb200_blast_radius_gpus", P.gb200_blast_radius_gpus)
glue("gb200_repair_hours", P.gb200_repair_hours)
glue("h100_gpus_per_server", P.h100_gpus_per_server)
glue("h100_repair_hours", P.h100_repair_hours)
glue("job_gpus", P.job_gpus)
for s in systems:
    glue(f"{s}_useful_pct", R[f"{s}_useful_fraction"] * 100)
glue("gb200_goodput_pct", R["gb200_goodput"] * 100)
glue("gb200_unavailability_pct", R["gb200_unavailability"] * 100)

# %% [markdown]
# ### Against measured speed-ups
#
# NVIDIA's public reference runs give per-GPU speed-ups to set against the break-even: Llama 3.1
# 405B in BF16 on {glue:text}`l405_gpus:,` GPUs of each (H100 from NVIDIA's
# {glue:text}`l405_h100_software` tables, GB200 NVL72 from {glue:text}`l405_gb200_software`) and
# DeepSeek-V3 in BF16 (fact A49;
# {glue:text}`dsv3_h100_gpus:,` H100 against {glue:text}`dsv3_gb200_gpus:,` GB200 GPUs). Their
# training cost per million tokens follows from the cost of a useful GPU-hour.

# %% tags=["hide-input"]
bench = load_benchmarks()
l405 = {"h100": pick(bench, model_id="llama31_405b", gpu_id="h100_sxm", precision="bf16", gpus=512,
                     source_id="nv_dgxc_v25_04"),
        "gb200": pick(bench, model_id="llama31_405b", gpu_id="gb200_nvl72", precision="bf16", gpus=512)}
dsv3 = {"h100": pick(bench, model_id="deepseek_v3", gpu_id="h100_sxm", precision="bf16"),
        "gb200": pick(bench, model_id="deepseek_v3", gpu_id="gb200_nvl72", precision="bf16", gpus=128)}
R.add("llama31_405b_gb200_speedup", l405["gb200"]["tokens_per_s_per_gpu"] / l405["h100"]["tokens_per_s_per_gpu"],
      "x", f"Llama 3.1 405B BF16, {l405['gb200']['gpus']:,} GPUs: GB200 / H100 tokens/s per GPU (NVIDIA)")
R.add("deepseek_v3_gb200_speedup", dsv3["gb200"]["tokens_per_s_per_gpu"] / dsv3["h100"]["tokens_per_s_per_gpu"],
      "x", "DeepSeek-V3 BF16: GB200 / H100 tokens/s per GPU (NVIDIA)")
for s in systems:
    tok = l405[s]["tokens_per_s_per_gpu"]
    R.add(f"{s}_llama31_405b_usd_per_million_tokens", costs.usd_per_million_tokens(tco_hour[s], tok),
          "USD per 1M tokens", f"Llama 3.1 405B BF16 on {s.upper()}, every hour useful")
    R.add(f"{s}_llama31_405b_usd_per_million_tokens_adjusted", costs.usd_per_million_tokens(
        R[f"{s}_usd_per_useful_gpu_hour"], tok), "USD per 1M tokens",
          f"Llama 3.1 405B BF16 on {s.upper()}, reliability-adjusted")
glue("l405_gpus", l405["gb200"]["gpus"])
glue("l405_h100_software", l405["h100"]["software"])
glue("l405_gb200_software", l405["gb200"]["software"])
glue("dsv3_h100_gpus", dsv3["h100"]["gpus"])
glue("dsv3_gb200_gpus", dsv3["gb200"]["gpus"])
R.add("gb200_max_extra_loss_llama31_405b", rel.max_extra_loss(R["llama31_405b_gb200_speedup"],
                                                              R["gb200_breakeven_speedup_no_downtime"]),
      "fraction", "Extra GPU-hours GB200 may lose before its Llama 3.1 405B speed-up stops paying")

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("gb200_breakeven_speedup_no_downtime", "A12_tco_ratio"),
                                      ("deepseek_v3_gb200_speedup", "A49_deepseek_ratio")])))
lines = [f"| USD per 1M tokens, Llama 3.1 405B BF16 ({l405['gb200']['gpus']:,} GPUs) | H100 | GB200 NVL72 |",
         "|---|---|---|"]
for key, label in (("usd_per_million_tokens", "every paid hour trains"),
                   ("usd_per_million_tokens_adjusted", f"reliability-adjusted, {P.job_gpus:,}-GPU job")):
    lines.append(f"| {label} | {R['h100_llama31_405b_' + key]:.3f} | {R['gb200_llama31_405b_' + key]:.3f} |")
display(Markdown("\n".join(lines)))

# %% [markdown]
# GB200 runs Llama 3.1 405B {glue:text}`llama31_405b_gb200_speedup:.2f`x faster per GPU, which
# {glue:text}`l405_verdict` the reliability-adjusted break-even of
# {glue:text}`gb200_breakeven_speedup_with_downtime:.2f`x; that speed-up pays for GB200 as long as
# it loses no more than {glue:text}`gb200_max_extra_loss_pct:.0f` % more of its GPU-hours than the
# H100 (the assumptions put it at {glue:text}`gb200_extra_loss_pct:.0f` %). DeepSeek-V3's
# {glue:text}`deepseek_v3_gb200_speedup:.2f`x {glue:text}`dsv3_verdict` even the penalty-free
# break-even of {glue:text}`gb200_breakeven_speedup_no_downtime:.2f`x. The chart puts every
# reliability assumption on one axis: the share of GPU-hours GB200 loses to failures and repairs
# beyond the H100's.

# %% tags=["remove-cell"]
glue("gb200_max_extra_loss_pct", R["gb200_max_extra_loss_llama31_405b"] * 100)
glue("gb200_extra_loss_pct", R["gb200_extra_loss"] * 100)
glue("l405_verdict", "clears" if R["llama31_405b_gb200_speedup"] > R["gb200_breakeven_speedup_with_downtime"]
     else "falls short of")
glue("dsv3_verdict", "clears" if R["deepseek_v3_gb200_speedup"] > R["gb200_breakeven_speedup_no_downtime"]
     else "falls short of")

# %% tags=["remove-input"]
extra = np.linspace(0.0, 0.5, 101)
fig, ax = new_figure("Speed-up GB200 NVL72 needs, against its extra downtime",
                     "GB200 GPU-hours lost to failures and repairs beyond the H100's (%)",
                     "Per-GPU speed-up over H100 needed (x)")
ratio = R["gb200_breakeven_speedup_no_downtime"]
ax.plot(extra * 100, ratio / (1 - extra), color=PALETTE["blue"], lw=2, label="break-even speed-up")
ax.plot([0], [ratio], "o", color=PALETTE["blue"], ms=7,
        label=f"no reliability penalty: TCO ratio {ratio:.2f}x (report ~{fact('A12_tco_ratio'):.1f}x)")
points = {f"assumptions, {P.job_gpus:,}-GPU job": (R["gb200_extra_loss"], PALETTE["vermillion"]),
          f"assumptions, {P.gpus:,}-GPU job": (1 - at_cluster["gb200"][2] / at_cluster["h100"][2], PALETTE["purple"]),
          f"no NVLink faults, {P.job_gpus:,}-GPU job": (1 - useful_fixed / share["h100"][2], PALETTE["green"])}
for label, (x, colour) in points.items():
    ax.plot([x * 100], [ratio / (1 - x)], "o", color=colour, ms=7, label=label)
for key, label, style in (("llama31_405b_gb200_speedup", "measured: Llama 3.1 405B BF16", "--"),
                          ("deepseek_v3_gb200_speedup", "measured: DeepSeek-V3 BF16", ":")):
    ax.axhline(R[key], color=PALETTE["black"], lw=1, ls=style)
    ax.annotate(f"{label} ({R[key]:.2f}x)", (extra[-1] * 100, R[key]), xytext=(-4, 3), textcoords="offset points",
                ha="right", fontsize=8)
ax.set_xlim(0, extra[-1] * 100)
ax.legend(fontsize=8, loc="upper left")
add_source(fig, "TCO model (capex: SemiAnalysis 2025; opex calibrated); Llama 3 failure rates; GB200 fault rate, blast "
                "radius and repair time are assumptions; speed-ups from NVIDIA DGXC tables (v25.04/v25.05).")
glue_figure("fig_reliability_breakeven", fig)

# %% [markdown]
# ```{glue:figure} fig_reliability_breakeven
# :name: fig-reliability-breakeven
# :alt: A rising curve of the per-GPU speed-up GB200 needs against the share of extra GPU-hours it loses, starting at the TCO ratio with no penalty, with three dots for the assumed cases and two horizontal lines at NVIDIA's measured speed-ups for Llama 3.1 405B and DeepSeek-V3.
#
# The break-even speed-up is the TCO ratio divided by the share of GPU-hours GB200 keeps relative
# to the H100. Where the curve crosses a measured speed-up, GB200 stops paying for that workload.
# ```

# %% [markdown]
# ## How sure: P10, P50 and P90
#
# The GB200 reliability inputs are assumptions with wide ranges; drawn together with the cost inputs they give this band for the break-even speed-up.

# %% tags=["remove-input"]
display(Markdown(bands_table(P, ('gb200_breakeven_speedup', 'gb200_breakeven_speedup_with_downtime'))))

# %% [markdown]
# This extends claim S16, which the TCO chapter reproduces as a pure cost ratio
# (`gb200_breakeven_speedup`): the reliability-adjusted figure, `gb200_breakeven_speedup_with_downtime`,
# is the same ratio once downtime is priced in. The first-failure arithmetic of claim S22 is
# reproduced in the {ref}`cluster chapter <chapter-cluster>`; this chapter reuses its functions and
# sets Llama 3's measured failure rate beside it.
#
# ## The seed's claim, checked

# %% tags=["remove-input"]
display(Markdown(claims_table("reliability", R)))

# %% tags=["remove-cell"]
R.save()
