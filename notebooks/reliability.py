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
# # Reliability: failures, checkpoints and goodput

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
gpus: int = 100000  # GPUs; an integer from 1 to 2,000,000. GPUs in the cluster
checkpoint_interval_steps: int = 100  # steps; an integer from 1 to 1,000,000. Training steps between persistent checkpoints
step_time_seconds: float = 2.0  # s; a number from 0.01 to 3,600. Wall-clock time of one training step
checkpoint_write_seconds: float = 10.0  # s; a number from 0.1 to 3,600. Time training pauses to write one persistent checkpoint
failure_detection_minutes: float = 2.0  # minutes; a number from 0 to 120. Time from a failure until the job stops to recover
restart_minutes: float = 5.0  # minutes; a number from 0 to 600. Time to restart after a failure: swap in healthy nodes, re-initialise, reload the checkpoint
goodput_trials: int = 1000  # simulated runs; an integer from 10 to 100,000. Runs simulated per Monte Carlo goodput estimate
goodput_seed: int = 2024  # seed; an integer from 0 to 4,294,967,295. Seed of the Monte Carlo's random generator (numpy PCG64)
gb200_gpus_per_rack: int = 72  # GPUs; an integer from 1 to 576. GPUs in one GB200 NVL72 rack
gb200_nvlink_faults_per_rack_month: float = 1.0  # faults per rack-month; a number from 0 to 30. NVLink backplane, switch-tray and cable faults per GB200 NVL72 rack, beyond GPU and host faults
gb200_gpu_fault_ratio: float = 1.0  # x; a number from 0.1 to 10. GB200 GPU, memory and host fault rate per GPU-hour relative to Llama 3's H100s
failure_model: str = 'per-gpu'  # model; one of: per-gpu, measured-fit. How a job's MTBF depends on its size

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import reliability as chapter
from analysis.figures import reliability as figures
from analysis.page.notebook import comparison_table, glue, glue_figure, publish, save, start
from analysis.page.tables import answer_from_results

P, upstream = start("reliability", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))

# %% tags=["remove-input"]
glue_figure("fig_reliability_mtbf", figures.job_mtbf(R))

# %% [markdown]
# {numref}`fig-reliability-mtbf` shows how often a training job can expect to stop as it grows. It
# draws on the rates measured on Llama 3 and on Meta's research clusters.
#
# ```{glue:figure} fig_reliability_mtbf
# :name: fig-reliability-mtbf
# :alt: Falling straight lines on log-log axes of job MTBF in hours against job size from 8 to 300,000 GPUs: the per-GPU projection from Llama 3's rate passing through the measured Llama 3 point, a higher line for GPU-class causes only, a shaded A100 band, a lower GB200 line and a dashed links-only line. Below the projection sit Kokolis et al.'s measured points at 8 and 1,024 GPUs (an arrow marks the gap at 1,024), OPT-175B's upper bound at 1,024 and Kokolis et al.'s projections as hollow squares; a dashed purple line is the power-law fit to the measured points, shallower than the projection.
#
# Job {term}`MTBF` against job size. Lines project per-GPU rates as 1/GPUs. Points are measured job
# MTTFs, and hollow squares are Kokolis et al.'s projections. The dashed purple line is the fit to
# the measured points. Jobs of {glue:text}`kokolis_large_job_gpus:,.0f` GPUs on Meta's research
# clusters failed {glue:text}`measured_vs_projected_failure_rate_1024_gpus_ratio:.1f` times as
# often as the projection (arrow). At {glue:text}`gpus:,.0f` GPUs (dotted line) the chosen model
# stops a job every {glue:text}`cluster_job_mtbf_minutes:.0f` minutes. GB200 {term}`NVL72` stops
# more often still if its backplane adds the assumed faults.
# ```
#
# The lines differ in level but not in slope: whatever the per-GPU rate, a bigger job stops more
# often in proportion. The measured points below the lines are the warning. Jobs smaller than
# Llama 3's have failed more often than the projection says.

# %% [markdown]
# A synchronous training job stops whenever any one of its GPUs, hosts or links fails. The
# bigger the job, the more often it stops. Each stop costs the work since the last checkpoint, the
# time to notice the failure and the time to restart. This chapter measures those costs on the one
# frontier run with a published failure table, Meta's Llama 3 405B
# ({ref}`Meta, 2024 <src-meta_llama3_2024>`). It covers what stopped the run, and how the mean time
# between failures (MTBF) of a job falls as the job grows. It then works out how often a job should
# checkpoint and where its wall-clock time goes. Last, it simulates run by run how much of that time
# trains. The
# {ref}`next chapter <chapter-downtime>` prices the same failures into the GB200 NVL72 against H100
# comparison. Every assumption is a parameter with a range: rerun with
# `python -m analysis run reliability -p restart_minutes 15 -p checkpoint_write_seconds 30`.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## What interrupted Llama 3 405B
#
# Meta trained Llama 3 405B on {glue:text}`llama3_gpus:,.0f` H100s. It published what stopped the
# job during a {glue:text}`llama3_snapshot_days:.0f`-day snapshot of pre-training. The counts come
# from its paper's cause table (in `data/llama3_interruptions.csv`), read via
# {ref}`Lockwood <src-klockwood_component_reliability>` and {ref}`DCD <src-dcd_llama3_2024>`.
# Dividing each cause's count by the GPU-hours of the snapshot gives a rate per GPU-hour. That rate
# does not depend on the job's size, which is what lets the book scale it to other jobs. One function,
# `analysis.reliability.llama3_snapshot`, loads these counts for every chapter that uses them.

# %% tags=["remove-cell"]
glue("misprinted_component", figures.misprinted_component(R))
glue("failure_model_text", figures.failure_model_text(R))

# %% [markdown]
# {glue:text}`llama3_unexpected_interruptions_count:,.0f` unexpected interruptions in
# {glue:text}`llama3_snapshot_days:.0f` days is
# {glue:text}`llama3_unexpected_interruptions_per_day:.2f` a day, one every
# {glue:text}`llama3_job_mtbf_hours:.2f` hours (DCD: "one failure every
# {glue:text}`llama3_published_hours_between_failures:.0f` hours"). Another
# {glue:text}`llama3_planned_interruptions_count:.0f` planned interruptions were firmware, hardware
# or configuration updates. Spread over {glue:text}`llama3_gpus:,.0f` GPUs, each GPU's share of the
# job stopped it once every {glue:text}`llama3_gpu_mtbf_hours:,.0f` hours
# ({glue:text}`llama3_gpu_mtbf_years:.1f` years). Counting only GPU-class causes, it was once every
# {glue:text}`llama3_gpu_class_mtbf_hours:,.0f` hours. Meta's two A100 research clusters imply
# {glue:text}`kokolis_rsc1_gpu_mtbf_hours:,.0f` and {glue:text}`kokolis_rsc2_gpu_mtbf_hours:,.0f`
# hours per GPU from their node failure rates ({ref}`Kokolis et al. <src-kokolis_2024>`). Llama 3
# sits between the two.
#
# GPU-class causes make up {glue:text}`llama3_gpu_class_frac:.1%` of the interruptions by count.
# They are the GPU itself, its HBM3 and SRAM, its system processor, thermal sensors and silent data
# corruption. The paper prints {glue:text}`llama3_printed_gpu_class_pct:.1f` %, because one printed
# share does not match its count. "{glue:text}`misprinted_component`" has
# {glue:text}`llama3_misprinted_count:.0f` interruptions, {glue:text}`llama3_misprinted_counts_pct:.1f` %
# of the total, but is printed as {glue:text}`llama3_misprinted_printed_pct:.1f` %. The printed
# shares add up to {glue:text}`llama3_printed_pct_sum:.1f` %. The counts add up to the published total of
# {glue:text}`llama3_interruptions_count:.0f` with the planned ones, so the book uses the counts.
# {numref}`fig-reliability-causes` ranks the causes of the unexpected interruptions by count.

# %% tags=["remove-input"]
glue_figure("fig_reliability_causes", figures.causes(R))

# %% [markdown]
# ```{glue:figure} fig_reliability_causes
# :name: fig-reliability-causes
# :alt: Horizontal bars of Llama 3's unexpected interruptions by cause, largest first: faulty GPU, GPU HBM3 memory, software bug, network switch or cable, host maintenance, then smaller causes, each labelled with its count; bars coloured by category with GPU causes in vermillion.
#
# Llama 3's unexpected interruptions by cause, coloured by the paper's category. GPU-class causes
# dominate; software and the network follow.
# ```
#
# The GPUs and their memory stopped the job far more often than the network did. On a run like
# this one, then, a better fabric alone would not have bought much reliability. The table below counts the
# causes by category.

# %% tags=["remove-input"]
display(Markdown(figures.categories_table(R)))
from analysis.page.notebook import offer_table

offer_table(R, "categories", R.tables["categories"], "Llama 3's interruptions, rates and per-GPU MTBF by category")

# %% [markdown]
# Of these, the GPU, host and unplanned-maintenance causes
# ({glue:text}`llama3_repair_frac:.0%` of the total) take a server out of service until it is
# repaired. Software bugs, NCCL timeouts and switch or cable faults stop the job without
# retiring a server. The {ref}`downtime chapter <chapter-downtime>` prices that split.
#
# ## Job MTBF against cluster size
#
# Failures of independent GPUs add up, so a job on *n* GPUs fails *n* times as often as one GPU's
# share. Its MTBF is the per-GPU MTBF divided by *n*. That is a projection: one per-GPU rate,
# measured on Llama 3's job of {glue:text}`llama3_gpus:,.0f` GPUs, carried to every other size. The node failure rates of
# Kokolis et al.'s two A100 research clusters bracket it. Job-level failures have also been
# measured directly, and they tell a different story at smaller sizes.
#
# ### Measured job failures against the projection
#
# On Meta's research clusters, Kokolis et al. measured the mean time to failure ({term}`MTTF`) of jobs by
# size. It was {glue:text}`kokolis_1024_gpus_job_mttf_hours:.1f` hours for jobs of
# {glue:text}`kokolis_large_job_gpus:,.0f` GPUs and {glue:text}`kokolis_8_gpus_job_mttf_hours:,.0f`
# hours ({glue:text}`kokolis_8_gpus_job_mttf_days:.1f` days) for jobs of
# {glue:text}`kokolis_small_job_gpus:.0f` GPUs. These values are from their Fig. 7,
# read as quoted by {ref}`Lockwood <src-klockwood_kokolis_notes>`. The paper's own page could not
# be opened. Llama 3's per-GPU rate projects {glue:text}`per_gpu_job_mtbf_1024_gpus_hours:.1f`
# and {glue:text}`per_gpu_job_mtbf_8_gpus_hours:,.0f` hours. The measured jobs failed
# {glue:text}`measured_vs_projected_failure_rate_1024_gpus_ratio:.1f` and
# {glue:text}`measured_vs_projected_failure_rate_8_gpus_ratio:.1f` times as often as projected.
# The shape holds: between their two sizes the MTTF falls as GPUs to the power
# −{glue:text}`kokolis_job_mttf_exponent:.2f`, close to 1/GPUs. What differs is the level. Those
# clusters ran A100s and millions of research jobs of every size; Llama 3 was one hardened H100
# job. The copies read also do not say which failures Fig. 7 counts. Kokolis et al.'s own RSC-1 node failure rate
# gives {glue:text}`kokolis_node_model_1024_gpus_job_mttf_hours:.0f` hours at
# {glue:text}`kokolis_large_job_gpus:,.0f` GPUs, above their measurement. The copies read do not
# explain that gap. OPT-175B's logbook records more than {glue:text}`opt_175b_restarts_count:.0f`
# restarts in {glue:text}`opt_175b_restart_window_days:.0f` days on {glue:text}`opt_175b_gpus:,.0f`
# A100s ({ref}`metaseq <src-metaseq_opt_chronicles>`), at most
# {glue:text}`opt_175b_max_hours_between_restarts:.1f` hours apart. They came from hardware,
# infrastructure and training-stability causes alike.
#
# At Llama 3's size the projection is Llama 3's measurement by construction,
# {glue:text}`llama3_job_mtbf_hours:.2f` hours. Kokolis et al. projected
# {glue:text}`kokolis_projected_16384_gpus_job_mttf_hours:.1f` hours for a job of that size on
# RSC-1. The book's alternative to the projection is a fit to the measured jobs: a power law,
# MTTF = *a* GPUs^−*b*. It is fitted by least squares in log-log space to the
# {glue:text}`job_mttf_fit_points_count:.0f` measured rows. The rows are Kokolis et al.'s two sizes
# and Llama 3's job (`analysis.reliability.measured_job_mtbf_hours`). Its exponent *b* is
# {glue:text}`job_mttf_fit_exponent:.2f`. It misses its own points by up to a factor of
# {glue:text}`job_mttf_fit_max_misfit_ratio:.1f`, because the clusters disagree. The fit summarises
# the published record; it is not a law. Against the projection, the fit has
# {glue:text}`fit_vs_per_gpu_failure_rate_1024_gpus_ratio:.1f` times as many failures at
# {glue:text}`kokolis_large_job_gpus:,.0f` GPUs. It has
# {glue:text}`fit_vs_per_gpu_failure_rate_llama3_ratio:.1f` times as many at Llama 3's size
# ({glue:text}`fit_job_mtbf_llama3_hours:.1f` hours) and
# {glue:text}`fit_vs_per_gpu_failure_rate_cluster_ratio:.2f` times at {glue:text}`gpus:,.0f` GPUs.
# Its slope is shallower, so the two meet near {glue:text}`fit_meets_per_gpu_gpus:,.0f` GPUs. The
# parameter `failure_model` chooses which of the two sets the job MTBF of the modelled jobs
# below. Those are the cluster and the sweeps over job size, with their intervals and
# {term}`goodput`. Llama 3's own run stays on its counts. This build uses the {glue:text}`failure_model_text`; try
# `python -m analysis run reliability -p failure_model measured-fit`.

# %% tags=["remove-input"]
display(Markdown(figures.measured_table(R)))
offer_table(R, "measured_job_failures", R.tables["measured_job_failures"],
            "measured job MTTF by job size, beside the per-GPU projection and the fit")

# %% [markdown]
# At {glue:text}`gpus:,.0f` GPUs, the {glue:text}`failure_model_text` gives a job MTBF of
# {glue:text}`cluster_job_mtbf_minutes:.1f` minutes. SemiAnalysis's 2024 report gets
# {glue:text}`first_failure_minutes:.2f` minutes from links alone (the cluster chapter's
# `first_failure_minutes`, reused here). The calculation takes {glue:text}`links_per_gpu:g` link per GPU, each
# with a {glue:text}`backend_link_mttf_years:g`-year MTTF. The causes differ. Llama 3's
# network interruptions imply {glue:text}`llama3_link_mttf_years:.0f` years per GPU
# link, and {glue:text}`llama3_gpu_class_frac:.0%` of its interruptions came from the GPUs. The book
# assumes {glue:text}`gb200_nvlink_faults_per_rack_month:g` NVLink fault per rack per month on GB200
# NVL72. Llama 3's causes, for comparison, add up to
# {glue:text}`llama3_interruptions_per_rack_month:.2f` per {glue:text}`gb200_gpus_per_rack:.0f` GPUs
# per month. With that assumption and per-GPU scaling of the same rates, a GB200 NVL72 job of
# {glue:text}`gpus:,.0f` GPUs fails every {glue:text}`gb200_cluster_job_mtbf_minutes:.1f` minutes.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [("first_failure_minutes", "B27_first_failure_min")])))

# %% [markdown]
# ## How often to checkpoint
#
# Checkpointing more often loses less work per failure but spends more time writing. Young
# (1974) put the optimum compute time between checkpoints at sqrt(2 *δ* *M*)
# ({ref}`Young <src-young_1974>`). Here *δ* is the write time and *M* the job MTBF. Daly (2006)
# refined it to sqrt(2*δM*) [1 + ⅓ sqrt(*δ*/2*M*) + ⅑ (*δ*/2*M*)] − *δ* while *δ* < 2*M*
# ({ref}`Daly <src-daly_2006>`). Once a checkpoint takes twice the MTBF or longer, Daly's interval
# is *M*.
#
# Llama 3 does not publish how long a checkpoint takes. It does publish the state each GPU saves
# (up to {glue:text}`llama3_checkpoint_gb_per_gpu_max:.0f` GB) and its storage's sustained bandwidth
# ({glue:text}`llama3_storage_tb_per_s:.0f` TB/s). A synchronous save of every GPU's largest shard
# would take {glue:text}`llama3_sync_checkpoint_seconds:.0f` s. Asynchronous checkpointing pauses
# training only for the copy to host memory. For a 7B model with PyTorch DCP, that pause is
# {glue:text}`dcp_async_checkpoint_seconds:.1f` s instead of
# {glue:text}`dcp_sync_checkpoint_seconds:.1f` s ({ref}`PyTorch, 2024 <src-pytorch_dcp_async_2024>`). The book assumes a pause of
# {glue:text}`checkpoint_write_seconds:g` s.
#
# A frontier model's checkpoint is larger, but spread over more GPUs. SemiAnalysis gives a
# GPT-4-size model's training state as {glue:text}`frontier_training_state_b18_tb:.1f` TB
# ({ref}`SemiAnalysis, 2024 <src-sa_100k_2024>`). That is
# {glue:text}`frontier_training_state_b18_bytes_per_param:.0f` bytes a parameter: the weights and
# both Adam moments in 16 bits. Mixed-precision Adam
# with 32-bit master weights and moments saves 14 bytes a parameter, or
# {glue:text}`frontier_training_state_tb:.1f` TB ({ref}`Rajbhandari et al., 2020 <src-rajbhandari_zero_2020>`).
# Over {glue:text}`gpus:,.0f` GPUs that is {glue:text}`frontier_checkpoint_gb_per_gpu:.2f` GB a
# GPU. A synchronous save at Llama 3's storage bandwidth takes
# {glue:text}`frontier_sync_checkpoint_seconds:.1f` s, or
# {glue:text}`frontier_b18_sync_checkpoint_seconds:.1f` s for SemiAnalysis's figure. Both are inside
# the assumed pause's range, and shorter than Llama 3's own synchronous save.
#
# For Llama 3's job MTBF and a {glue:text}`checkpoint_write_seconds:g`-s pause, Young's interval is
# {glue:text}`young_interval_minutes:.2f` minutes and Daly's {glue:text}`daly_interval_minutes:.2f`
# minutes. At {glue:text}`gpus:,.0f` GPUs Daly's shrinks to
# {glue:text}`cluster_daly_interval_minutes:.2f` minutes. That is close to SemiAnalysis's example of
# {glue:text}`checkpoint_interval_steps:,.0f` steps of {glue:text}`step_time_seconds:g` s
# ({glue:text}`sa_checkpoint_interval_minutes:.1f` minutes). The two formulas part only when the
# write time approaches the MTBF, as {numref}`fig-reliability-interval` shows.

# %% tags=["remove-input"]
glue_figure("fig_reliability_interval", figures.intervals(R))

# %% [markdown]
# ```{glue:figure} fig_reliability_interval
# :name: fig-reliability-interval
# :alt: Rising lines on log-log axes of the optimal checkpoint interval in minutes against job MTBF in hours, for three checkpoint write times; solid lines are Daly's formula and dashed lines Young's, which separate only at short MTBF where Daly's switches to one checkpoint per MTBF.
#
# The optimal interval grows as the square root of both the MTBF and the write time. Daly's
# formula (solid) and Young's (dashed) differ only where the write time is a sizeable share of the
# MTBF. There, Daly's checkpoints once per MTBF. The top axis converts the MTBF into a job size.
# ```
#
# Both job sizes marked on the chart need an interval of minutes, not hours. A large job must
# checkpoint often. It is the write time, not the choice between the two formulas, that sets how
# often.

# %% [markdown]
# ## Where the time goes
#
# Between two failures a job finishes some whole intervals and checkpoints them. A failure throws
# away the interval in progress. Then the job waits to detect the failure and restart. The
# expected share of wall-clock time in each state follows exactly from a few inputs
# (`analysis.reliability.expected_time_fractions`). They are the MTBF, the interval, the write
# time, the detection and restart times and the rate of planned restarts. The table below has three
# cases. The first is Llama 3 with Daly's interval. The second is {glue:text}`gpus:,.0f` GPUs with
# SemiAnalysis's persistent checkpoints. The third is the same cluster recovering from copies of the
# state in other GPUs' memory. That recovery loses at most one step and pauses for the copy
# ({glue:text}`weights_copy_seconds:.1f` s over the backend network).

# %% tags=["remove-input"]
display(Markdown(figures.time_shares_table(R)))
largest_cluster, largest_in_memory = figures.largest_losses(R)
glue("largest_loss_cluster", largest_cluster)
glue("largest_loss_in_memory", largest_in_memory)

# %% [markdown]
# With a {glue:text}`failure_detection_minutes:g`-minute detection and a
# {glue:text}`restart_minutes:g`-minute restart (both assumptions), Llama 3 spends
# {glue:text}`llama3_expected_goodput_frac:.1%` of its time training. At {glue:text}`gpus:,.0f`
# GPUs, failures come every {glue:text}`cluster_job_mtbf_minutes:.0f` minutes, and the same
# recovery leaves {glue:text}`cluster_goodput_frac:.0%`. The largest loss is
# {glue:text}`largest_loss_cluster`. Recovering from peers' memory instead keeps
# {glue:text}`cluster_in_memory_goodput_frac:.0%`; what is left is mostly
# {glue:text}`largest_loss_in_memory`. Per failure, the report's arithmetic compares a checkpoint
# restart with in-memory recovery. The restart's worst case loses
# {glue:text}`checkpoint_restart_lost_gpu_days:.0f` GPU-days; in-memory recovery loses
# {glue:text}`in_memory_recovery_lost_gpu_days:.2f` GPU-days. On average a restart loses half an
# interval, {glue:text}`checkpoint_restart_mean_lost_gpu_days:.0f` GPU-days, plus the restart
# itself.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("checkpoint_restart_lost_gpu_days", "B25_gpu_days"), ("in_memory_step_lost_gpu_days", "B26_gpu_days_step"),
    ("in_memory_copy_lost_gpu_days", "B26_gpu_days_copy")])))

# %% [markdown]
# Move the job size, the checkpoint interval and the write time below. The panel shows the expected
# goodput and the job MTBF this chapter's model gives.

# %% tags=["remove-input"]
from IPython.display import HTML

from analysis.page.whatif import whatif_panel

display(HTML(whatif_panel("goodput")))

# %% [markdown]
# ## Goodput, simulated
#
# The analytic shares are long-run averages. A seeded Monte Carlo
# (`analysis.goodput.simulate_goodput`) plays the same model forward run by run. Failures arrive
# as a Poisson process. Each loses the work since the last checkpoint and costs detection and
# restart time. Planned interruptions cost a restart each. It returns the distribution of the
# effective-training-time ratio over {glue:text}`goodput_trials:,.0f` simulated
# {glue:text}`llama3_snapshot_days:.0f`-day Llama 3 runs (seed {glue:text}`goodput_seed:.0f`).

# %% tags=["remove-cell"]
glue("recovery_budget_text", figures.recovery_budget_text(R))

# %% [markdown]
# The simulated runs average {glue:text}`llama3_effective_training_time_frac:.1%` effective
# training time, against Meta's "more than
# {glue:text}`llama3_published_effective_training_time_frac:.0%`". Their 5th to 95th percentiles are
# {glue:text}`llama3_effective_training_time_p5_frac:.1%` and
# {glue:text}`llama3_effective_training_time_p95_frac:.1%`.
# {glue:text}`llama3_runs_above_published_frac:.0%` of runs clear Meta's figure. The mean differs
# from the analytic expectation by {glue:text}`llama3_mc_minus_analytic_pp:.2g` percentage points.
# The inputs that Meta did not publish matter. With Daly's interval and the assumed write time,
# Meta's mark holds as long as detection plus restart {glue:text}`recovery_budget_text` per failure.
# The book assumes {glue:text}`recovery_minutes:g` minutes. Meta's figure is therefore also a
# statement about its automation. On average, noticing a failure and restarting the job cannot
# have taken much longer.
# {numref}`fig-reliability-llama3-goodput` shows how the simulated runs spread around that mean.

# %% tags=["remove-input"]
glue_figure("fig_reliability_llama3_goodput", figures.llama3_goodput(R))

# %% [markdown]
# ```{glue:figure} fig_reliability_llama3_goodput
# :name: fig-reliability-llama3-goodput
# :alt: A narrow histogram of the effective training time of simulated Llama 3 runs, with a solid line at the analytic expectation in its middle and a dashed line at Meta's published bound to its left.
#
# The distribution of effective training time over simulated Llama 3 runs. Its spread
# comes from the number and timing of failures, which vary from run to run.
# ```
#
# The spread is narrow, so chance alone moves a run's effective training time little. The time to
# recover moves it far more, as {numref}`fig-reliability-goodput` shows.
# {glue:text}`llama3_runs_above_published_frac:.0%` of the simulated runs clear Meta's mark (dashed
# line).

# %% [markdown]
# Goodput falls as the job scales up, with its MTBF from the {glue:text}`failure_model_text`.
# {numref}`fig-reliability-goodput` shows how fast it falls with the checkpoint interval (top) and
# with the time to recover (bottom). Dots are Monte Carlo means with their 5th-95th percentile
# range, at Llama 3's size and at {glue:text}`gpus:,.0f` GPUs.

# %% tags=["remove-input"]
glue_figure("fig_reliability_goodput", figures.goodput_by_size(R))
offer_table(R, "goodput_by_size", R.tables["goodput_by_size"], "expected goodput against job size")

# %% [markdown]
# ```{glue:figure} fig_reliability_goodput
# :name: fig-reliability-goodput
# :alt: Two panels of goodput in percent against job size, all lines falling with size. Top, for checkpoint intervals: the Daly optimum is highest among persistent checkpoints, fixed intervals lose more away from the size they suit, and in-memory recovery stays highest; black Monte Carlo dots with error bars at Llama 3's size and at the cluster size sit on the Daly line. Bottom, for restart times: instant, default and the longest restart that keeps Llama 3 at Meta's published bound.
#
# Goodput against job size. Top: the checkpoint interval matters less than recovery; recovering
# from memory holds goodput up at {glue:text}`gpus:,.0f` GPUs. Bottom: the restart time sets how
# fast goodput falls with size.
# ```
#
# For a planner both panels say the same. Past Llama 3's size, how fast a job recovers decides how
# much of the cluster trains. No checkpoint schedule makes up for a slow restart.

# %% [markdown]
# ## What this settles
#
# The first-failure arithmetic of claim S22 is reproduced in the
# {ref}`cluster chapter <chapter-cluster>`. This chapter reuses its functions and sets Llama 3's
# measured failure rate beside it. Scaling that rate as 1/GPUs is exact at Llama 3's size and
# optimistic below it. Measured jobs of {glue:text}`kokolis_large_job_gpus:,.0f` GPUs failed
# {glue:text}`measured_vs_projected_failure_rate_1024_gpus_ratio:.1f` times as often. A plan for a
# job of that size should not take the projection for granted. Setting `failure_model` to
# `measured-fit` puts the measured record in its place. Meta's "more than
# {glue:text}`llama3_published_effective_training_time_frac:.0%`" effective training time is reproduced
# by the model with the assumed recovery times. That figure also bounds how slow Meta's recovery can
# have been.
# What these failures cost GB200 NVL72, whose faults take a whole rack out of service, is the
# subject of the {ref}`next chapter <chapter-downtime>`.

# %% tags=["remove-cell"]
save(R)
