"""Reliability chapter: what stopped Llama 3 405B, how job MTBF falls with job size (projected and
measured), how often to checkpoint (Young, Daly), where the time goes, and the goodput Monte Carlo.

The per-GPU failure rates come from one calibration, :func:`analysis.reliability.llama3_snapshot`
(Meta's 54-day snapshot of Llama 3 405B). The job MTBF of the modelled jobs (the cluster size and
the sweeps over job size) follows the ``failure_model`` parameter: 1/GPUs scaling of that per-GPU
rate, or the fit to measured job-level failures (:func:`analysis.reliability.measured_job_mtbf_hours`).
Results named ``llama3_*`` describe Llama 3's own run and stay on its counts either way. The GB200
downtime penalty is the next chapter (:mod:`analysis.chapters.downtime`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import cluster, goodput
from analysis import reliability as rel
from analysis.chapters import ChapterResults
from analysis.data.load import fact, row
from analysis.data.provenance import aside
from analysis.params import defaults as d
from analysis.units import (
    HOURS_PER_DAY,
    HOURS_PER_MONTH,
    HOURS_PER_YEAR,
    MINUTES_PER_HOUR,
    SECONDS_PER_HOUR,
    SECONDS_PER_MINUTE,
)

JOB_SIZES_GPUS = np.geomspace(1_000, 300_000, 60)  # the job sizes the goodput figure sweeps
MTBF_SIZES_GPUS = np.geomspace(8, 300_000, 80)  # the MTBF figure: from one 8-GPU server, where Kokolis et al. measured
FAILURE_MODELS = {"per-gpu": "per-GPU scaling of Llama 3's rate (1/GPUs)",
                  "measured-fit": "fit to measured job failure rates"}
MTBF_GRID_HOURS = np.geomspace(1 / MINUTES_PER_HOUR, 100.0, 200)  # one minute to 100 hours

# Parameters the prose quotes, recorded with the results (unit and label from their definition)
# so the page can glue them like any other quantity.
QUOTED_PARAMETERS = (
    d.GPUS, d.GB200_NVLINK_FAULTS_PER_RACK_MONTH, d.GB200_GPUS_PER_RACK, d.CHECKPOINT_WRITE_SECONDS, d.STEP_TIME_SECONDS, d.FAILURE_DETECTION_MINUTES, d.RESTART_MINUTES,
    d.GOODPUT_TRIALS, d.GOODPUT_SEED)
# The cluster chapter's results this chapter shows (the cluster's first link failure and what a
# failure costs), read from ``upstream["cluster"]``, never recomputed.
FROM_CLUSTER = ("links_per_gpu", "backend_link_mttf_years", "first_failure_minutes", "checkpoint_interval_steps",
                "weights_copy_seconds", "checkpoint_restart_lost_gpu_days", "in_memory_recovery_lost_gpu_days")


def add_parameters(res: ChapterResults, P, params) -> None:
    """Record the values ``P`` holds for ``params`` (their :class:`analysis.params.parameters.Param`), under
    the parameters' names, units and descriptions."""
    for param in params:
        res.add(param.name, getattr(P, param.name), param.unit, f"{param.description} (parameter)")


def recovery_hours(P) -> tuple[float, float, float]:
    """(checkpoint write, failure detection, restart) in hours, from the chapter's parameters."""
    return (P.checkpoint_write_seconds / SECONDS_PER_HOUR, P.failure_detection_minutes / MINUTES_PER_HOUR,
            P.restart_minutes / MINUTES_PER_HOUR)


def gb200_rates(P, rates: dict) -> dict:
    """GB200 NVL72's per-GPU-hour fault rates (:func:`analysis.reliability.gb200_rates`) from
    Llama 3's ``rates`` and the chapter's GB200 parameters; the downtime chapter uses them too."""
    return rel.gb200_rates(P.gb200_nvlink_faults_per_rack_month, P.gb200_gpus_per_rack, P.gb200_gpu_fault_ratio, rates)


def job_mtbf_model(P, snap: rel.Llama3Snapshot):
    """The job MTBF (hours) of a job of ``gpus`` GPUs under the chosen ``failure_model``: Llama 3's
    per-GPU MTBF / GPUs, or the fit to measured job-level failure rates."""
    if P.failure_model == "measured-fit":
        return rel.measured_job_mtbf_hours
    return lambda gpus: rel.job_mtbf_hours(gpus, snap.gpu_mtbf_hours)


def cluster_time_shares(P, snap: rel.Llama3Snapshot) -> dict:
    """The cluster-sized job (``P.gpus``) under the chosen failure model, checkpointing every
    ``checkpoint_interval_steps``: its job MTBF [hours] and the expected share of wall-clock time
    in each state (:func:`analysis.reliability.expected_time_fractions`; ``"useful training"`` is
    the goodput). The chapter and the what-if grid (values may be arrays) call this one chain."""
    write_h, detect_h, restart_h = recovery_hours(P)
    mtbf = job_mtbf_model(P, snap)(P.gpus)
    interval_h = P.checkpoint_interval_steps * P.step_time_seconds / SECONDS_PER_MINUTE / MINUTES_PER_HOUR
    return {"job_mtbf_hours": mtbf,
            "shares": rel.expected_time_fractions(mtbf, interval_h, write_h, detect_h, restart_h, snap.planned_per_hour)}


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("reliability")
    res.name("run_model", "llama31_405b")  # Meta's Llama 3 405B pre-training snapshot, on H100
    res.name("gpu", "h100_sxm")
    snap = rel.llama3_snapshot()
    model = job_mtbf_model(P, snap)
    add_parameters(res, P, QUOTED_PARAMETERS)
    for key in FROM_CLUSTER:
        q = upstream["cluster"].quantities[key]
        res.add(key, q.value, q.unit, q.label)
    res.add_table("failure_model", pd.DataFrame({"failure_model": [P.failure_model],
                                                 "description": [FAILURE_MODELS[P.failure_model]]}))
    _llama3_failures(res, snap)
    _measured_job_failures(res, P, snap)
    _job_mtbf(res, P, snap, model)
    _checkpoint_intervals(res, P, model)
    _time_shares(res, P, snap)
    _simulated_goodput(res, P, snap, model)
    return res


def _llama3_failures(res: ChapterResults, snap: rel.Llama3Snapshot) -> None:
    """Llama 3's counts, its per-GPU MTBF and the cause table (and its one misprinted share)."""
    counts, rates = snap.counts_by_category, snap.rates_by_category
    res.add("llama3_gpus", snap.gpus, "GPUs", "GPUs in Llama 3 405B's pre-training job")
    res.add("llama3_snapshot_days", snap.days, "days", "Length of Llama 3's published snapshot")
    res.add("llama3_unexpected_interruptions_count", snap.unexpected, "count", "Llama 3 unexpected interruptions")
    res.add("llama3_planned_interruptions_count", snap.planned, "count", "Llama 3 planned interruptions")
    res.add("llama3_interruptions_count", snap.total, "count", "Llama 3 interruptions, all")
    res.add("llama3_published_hours_between_failures", rel.item("llama3_hours_between_failures"), "hours",
            "Hours between Llama 3's failures, as published (DCD)")
    res.add("llama3_unexpected_interruptions_per_day", snap.unexpected / snap.days, "per day",
            "Llama 3 405B unexpected interruptions per day")
    res.add("llama3_gpu_mtbf_hours", snap.gpu_mtbf_hours, "hours",
            "Per-GPU MTBF implied by Llama 3 (all unexpected causes)")
    res.add("llama3_gpu_mtbf_years", snap.gpu_mtbf_hours / HOURS_PER_YEAR, "years",
            "Per-GPU MTBF implied by Llama 3, in years")
    res.add("llama3_gpu_class_mtbf_hours", rel.gpu_mtbf_hours(counts["GPU"], snap.gpus, snap.hours), "hours",
            "Per-GPU MTBF implied by Llama 3's GPU-class causes only")
    res.add("llama3_job_mtbf_hours", rel.job_mtbf_hours(snap.gpus, snap.gpu_mtbf_hours), "hours",
            f"Llama 3 job MTBF ({snap.gpus:,.0f} GPUs)")
    res.add("llama3_gpu_class_frac", counts["GPU"] / snap.unexpected, "fraction",
            "Share of Llama 3's unexpected interruptions with a GPU-class cause")
    res.add("llama3_repair_frac", rates[list(rel.REPAIR_CATEGORIES)].sum() / rates.sum(), "fraction",
            "Share of Llama 3's interruptions that take a server out for repair (GPU, host, maintenance)")
    for name in ("rsc1", "rsc2"):
        res.add(f"kokolis_{name}_gpu_mtbf_hours", rel.gpu_mtbf_from_node_rate_hours(
            rel.item(f"kokolis_{name}_node_failures"), rel.item("kokolis_gpus_per_node")), "hours",
            f"Per-GPU MTBF implied by Kokolis et al., {name.upper()} (A100)")
    res.add("kokolis_gpus_per_node", rel.item("kokolis_gpus_per_node"), "GPUs", "GPUs per node on Meta's RSC clusters")

    causes = snap.causes[["component", "category", "count", "pct_printed"]].copy()
    causes["pct_from_counts"] = causes["count"].astype(float) / snap.unexpected * 100
    res.add_table("causes", causes)
    misprinted = causes[(causes["pct_from_counts"] - causes["pct_printed"]).abs() > 0.05].iloc[0]
    res.add("llama3_printed_gpu_class_pct", causes.loc[causes["category"] == "GPU", "pct_printed"].sum(), "percent",
            "Share of GPU-class causes, as Meta prints it")
    res.add("llama3_printed_pct_sum", causes["pct_printed"].sum(), "percent", "Sum of Meta's printed shares")
    res.add("llama3_misprinted_count", misprinted["count"], "count", "Interruptions of the misprinted cause")
    res.add("llama3_misprinted_printed_pct", misprinted["pct_printed"], "percent", "Misprinted cause: printed share")
    res.add("llama3_misprinted_counts_pct", misprinted["pct_from_counts"], "percent", "Misprinted cause: share of counts")

    per_category = pd.DataFrame({"category": counts.index, "interruptions": counts.to_numpy(),
                                 "per_million_gpu_hours": rates.to_numpy() * 1e6,
                                 "gpu_mtbf_years": snap.gpus * snap.hours / counts.to_numpy() / HOURS_PER_YEAR})
    total = {"category": "all unexpected", "interruptions": snap.unexpected,
             "per_million_gpu_hours": rates.sum() * 1e6, "gpu_mtbf_years": res["llama3_gpu_mtbf_years"]}
    res.add_table("categories", pd.concat([per_category, pd.DataFrame([total])], ignore_index=True))


def _measured_job_failures(res: ChapterResults, P, snap: rel.Llama3Snapshot) -> None:
    """The measured job-level MTTFs (data/job_failures.csv) against the per-GPU projection, and the
    power-law fit to them: how far apart the two models are at ~1,000 GPUs, at Llama 3's size and at
    the cluster size."""
    table = rel.job_failure_table()
    fit = rel.fit_job_mttf(table)
    rows = table.set_index("row_id")
    small, large, opt = rows.loc["kokolis_rsc_8_gpus"], rows.loc["kokolis_rsc_1024_gpus"], rows.loc["opt_175b_1024_gpus"]

    def per_gpu(gpus):
        return rel.job_mtbf_hours(gpus, snap.gpu_mtbf_hours)

    res.add("kokolis_small_job_gpus", small["job_gpus"], "GPUs", "Smallest job size of Kokolis et al.'s measured MTTF")
    res.add("kokolis_large_job_gpus", large["job_gpus"], "GPUs", "Largest job size of Kokolis et al.'s measured MTTF")
    res.add("kokolis_8_gpus_job_mttf_hours", small["mttf_hours"], "hours",
            "Measured MTTF of 8-GPU jobs, Meta RSC (Kokolis et al.)")
    res.add("kokolis_8_gpus_job_mttf_days", small["mttf_hours"] / HOURS_PER_DAY, "days",
            "Measured MTTF of 8-GPU jobs, Meta RSC (Kokolis et al.), in days")
    res.add("kokolis_1024_gpus_job_mttf_hours", large["mttf_hours"], "hours",
            "Measured MTTF of 1,024-GPU jobs, Meta RSC (Kokolis et al.)")
    res.add("kokolis_projected_16384_gpus_job_mttf_hours", rows.loc["kokolis_rsc1_projected_16384_gpus", "mttf_hours"],
            "hours", "Kokolis et al.'s projected MTTF of a 16,384-GPU job (RSC-1 node rate)")
    res.add("opt_175b_gpus", opt["job_gpus"], "GPUs", "GPUs in OPT-175B's training job (its logbook)")
    res.add("opt_175b_restarts_count", opt["failures"], "count", "OPT-175B restarts in its logbook's window (40+)")
    res.add("opt_175b_restart_window_days", opt["window_days"], "days", "Days of OPT-175B's logbook window")
    res.add("opt_175b_max_hours_between_restarts", opt["mttf_hours"], "hours",
            "OPT-175B: at most this many hours between restarts")
    for name, measured in (("8_gpus", small), ("1024_gpus", large)):
        gpus = float(measured["job_gpus"])
        res.add(f"per_gpu_job_mtbf_{name}_hours", per_gpu(gpus), "hours",
                f"Job MTBF at {gpus:,.0f} GPUs projected from Llama 3's per-GPU rate")
        res.add(f"measured_vs_projected_failure_rate_{name}_ratio", per_gpu(gpus) / measured["mttf_hours"], "ratio",
                f"Measured failure rate of {gpus:,.0f}-GPU jobs over the per-GPU projection (Kokolis et al. / Llama 3)")
    res.add("kokolis_node_model_1024_gpus_job_mttf_hours", rel.job_mtbf_hours(
        float(large["job_gpus"]), res["kokolis_rsc1_gpu_mtbf_hours"]), "hours",
        "MTTF of a 1,024-GPU job from Kokolis et al.'s RSC-1 node failure rate")
    # the slope of Kokolis et al.'s own two measured points: 1 would be exact 1/GPUs scaling
    res.add("kokolis_job_mttf_exponent", np.log(small["mttf_hours"] / large["mttf_hours"])
            / np.log(float(large["job_gpus"]) / float(small["job_gpus"])), "exponent",
            "Exponent b of MTTF ~ GPUs^-b between Kokolis et al.'s 8- and 1,024-GPU jobs")
    res.add("job_mttf_fit_exponent", fit.exponent, "exponent", "Exponent b of the fit MTTF = a GPUs^-b to measured job MTTFs")
    res.add("job_mttf_fit_scale_hours", fit.scale_hours, "hours", "Scale a of the fit MTTF = a GPUs^-b (one GPU)")
    res.add("job_mttf_fit_points_count", fit.points, "count", "Measured job MTTFs the fit uses")
    fitted = table[table["in_fit"] == "true"]
    spread = fitted["mttf_hours"].to_numpy() / fit(fitted["job_gpus"].to_numpy(dtype=float))
    res.add("job_mttf_fit_max_misfit_ratio", float(np.max(np.maximum(spread, 1.0 / spread))), "ratio",
            "Largest factor between a fitted measurement and the fit")
    for name, gpus in (("1024_gpus", float(large["job_gpus"])), ("llama3", snap.gpus), ("cluster", P.gpus)):
        res.add(f"fit_job_mtbf_{name}_hours", fit(gpus), "hours", f"Job MTBF at {gpus:,.0f} GPUs, fit to measured jobs")
        res.add(f"fit_vs_per_gpu_failure_rate_{name}_ratio", per_gpu(gpus) / fit(gpus), "ratio",
                f"Failure rate of the measured fit over the per-GPU projection, {gpus:,.0f} GPUs")
    if fit.exponent < 1.0:  # a shallower slope than 1/GPUs: the two curves cross at one job size
        res.add("fit_meets_per_gpu_gpus", (snap.gpu_mtbf_hours / fit.scale_hours) ** (1.0 / (1.0 - fit.exponent)),
                "GPUs", "Job size at which the measured fit and the per-GPU projection give the same MTBF")
    res.add_table("measured_job_failures", table[[
        "row_id", "cluster", "accelerator", "job_gpus", "kind", "relation", "mttf_hours", "in_fit", "evidence",
        "source_id", "read_via", "location"]].assign(per_gpu_projection_hours=per_gpu(table["job_gpus"].to_numpy(
            dtype=float)), fit_hours=fit(table["job_gpus"].to_numpy(dtype=float))))


def _job_mtbf(res: ChapterResults, P, snap: rel.Llama3Snapshot, model) -> None:
    """Job MTBF against job size: H100 at Llama 3's rates, A100 (Kokolis), GB200 with its assumed
    NVLink faults, SemiAnalysis's links-only arithmetic (the cluster chapter's function) and the fit
    to measured job failures. The cluster's job MTBF follows the chosen failure model."""
    rates = snap.rates_by_category
    gb200 = gb200_rates(P, rel.llama3_rates(snap))
    res.add("cluster_job_mtbf_minutes", cluster_time_shares(P, snap)["job_mtbf_hours"] * MINUTES_PER_HOUR,
            "minutes", f"Job MTBF at {P.gpus:,} GPUs, {FAILURE_MODELS[P.failure_model]}")
    res.add("gb200_gpu_mtbf_hours", 1.0 / gb200["job"], "hours",
            "Per-GPU MTBF of GB200 NVL72 (assumed NVLink faults included)")
    res.add("gb200_cluster_job_mtbf_minutes", rel.job_mtbf_hours(P.gpus, 1.0 / gb200["job"]) * MINUTES_PER_HOUR,
            "minutes", f"GB200 NVL72 job MTBF at {P.gpus:,} GPUs")
    res.add("llama3_interruptions_per_rack_month", rates.sum() * P.gb200_gpus_per_rack * HOURS_PER_MONTH,
            "per rack-month", f"Llama 3's all-cause interruptions per {P.gb200_gpus_per_rack} GPUs per month")
    res.add("llama3_link_mttf_years", rel.per_link_mttf_years(snap.counts_by_category["Network"],
                                                              snap.gpus * res["links_per_gpu"], snap.hours), "years",
            "MTTF per GPU link implied by Llama 3's network interruptions")
    sizes = MTBF_SIZES_GPUS
    res.add_table("job_mtbf_by_size", pd.DataFrame({
        "gpus": sizes,
        "measured_fit_hours": rel.measured_job_mtbf_hours(sizes),
        "h100_all_causes_hours": rel.job_mtbf_hours(sizes, snap.gpu_mtbf_hours),
        "h100_gpu_class_hours": rel.job_mtbf_hours(sizes, res["llama3_gpu_class_mtbf_hours"]),
        "a100_rsc1_hours": rel.job_mtbf_hours(sizes, res["kokolis_rsc1_gpu_mtbf_hours"]),
        "a100_rsc2_hours": rel.job_mtbf_hours(sizes, res["kokolis_rsc2_gpu_mtbf_hours"]),
        "gb200_hours": rel.job_mtbf_hours(sizes, res["gb200_gpu_mtbf_hours"]),
        "links_only_hours": cluster.first_failure_minutes(res["backend_link_mttf_years"], sizes * res["links_per_gpu"])
        / MINUTES_PER_HOUR}))


def _frontier_checkpoint(res: ChapterResults, P) -> None:
    """A GPT-4-size model's training state as a checkpoint size (B18): SemiAnalysis's 10.8 TB for
    1.8T parameters, and the same model under mixed-precision Adam's accounting; each spread over
    the cluster and saved synchronously at Llama 3's sustained storage bandwidth."""
    params = res.add("frontier_model_params_count", fact("B18_params"), "count",
                     "Parameters of a GPT-4-size model (B18)")
    book_tb = res.add("frontier_training_state_tb", rel.training_state_tb(params), "TB",
                      "Its weights and optimizer state under mixed-precision Adam (14 bytes a parameter)")
    sa_tb = res.add("frontier_training_state_b18_tb", fact("B18_state_tb"), "TB",
                    "Weights and optimizer state of the 1.8T model, as SemiAnalysis gives it (B18)")
    res.add("frontier_training_state_b18_bytes_per_param", sa_tb * 1e12 / params, "bytes per parameter",
            "Bytes per parameter SemiAnalysis's 10.8 TB implies")
    res.add("frontier_b18_sync_checkpoint_seconds", rel.checkpoint_transfer_seconds(
        sa_tb * 1e3 / P.gpus, P.gpus, res["llama3_storage_tb_per_s"]), "seconds",
        f"Synchronous save of SemiAnalysis's 10.8 TB state from {P.gpus:,} GPUs at Llama 3's storage bandwidth")
    res.add("frontier_checkpoint_gb_per_gpu", book_tb * 1e3 / P.gpus, "GB", f"Its checkpoint shard per GPU at {P.gpus:,} GPUs")
    res.add("frontier_sync_checkpoint_seconds", rel.checkpoint_transfer_seconds(
        book_tb * 1e3 / P.gpus, P.gpus, res["llama3_storage_tb_per_s"]), "seconds",
        f"Synchronous save of that state from {P.gpus:,} GPUs at Llama 3's sustained storage bandwidth")


def _checkpoint_intervals(res: ChapterResults, P, model) -> None:
    """Young's and Daly's intervals for Llama 3's job and the cluster, and the curves against MTBF."""
    write_h = recovery_hours(P)[0]
    gb_per_gpu = float(row("reliability_facts", "llama3_checkpoint_gb_per_gpu")["value_high"])
    res.add("llama3_checkpoint_gb_per_gpu_max", gb_per_gpu, "GB", "Largest checkpoint shard per GPU, Llama 3")
    res.add("llama3_storage_tb_per_s", rel.item("llama3_storage_tbs_sustained"), "TB/s",
            "Llama 3's storage bandwidth, sustained")
    res.add("llama3_sync_checkpoint_seconds", rel.checkpoint_transfer_seconds(
        gb_per_gpu, res["llama3_gpus"], res["llama3_storage_tb_per_s"]), "seconds",
        "Llama 3: synchronous save of the largest shard, sustained bandwidth")
    res.add("dcp_async_checkpoint_seconds", rel.item("dcp_async_checkpoint_s"), "seconds",
            "7B model, asynchronous PyTorch DCP checkpoint pause")
    res.add("dcp_sync_checkpoint_seconds", rel.item("dcp_sync_checkpoint_s"), "seconds",
            "7B model, synchronous PyTorch DCP checkpoint pause")
    with aside():  # a GPT-4-size checkpoint beside Llama 3's (B18): it feeds nothing computed after
        _frontier_checkpoint(res, P)
    llama_mtbf = res["llama3_job_mtbf_hours"]
    res.add("young_interval_minutes", rel.young_interval(write_h, llama_mtbf) * MINUTES_PER_HOUR, "minutes",
            "Young's optimal checkpoint interval, Llama 3 job")
    res.add("daly_interval_minutes", rel.daly_interval(write_h, llama_mtbf) * MINUTES_PER_HOUR, "minutes",
            "Daly's optimal checkpoint interval, Llama 3 job")
    res.add("cluster_daly_interval_minutes", rel.daly_interval(
        write_h, model(P.gpus)) * MINUTES_PER_HOUR, "minutes",
        f"Daly's optimal checkpoint interval at {P.gpus:,} GPUs, {FAILURE_MODELS[P.failure_model]}")
    res.add("sa_checkpoint_interval_minutes", P.checkpoint_interval_steps * P.step_time_seconds / SECONDS_PER_MINUTE,
            "minutes", "SemiAnalysis's example checkpoint interval")
    writes = {f"{P.checkpoint_write_seconds:g} s pause (assumed)": P.checkpoint_write_seconds,
              f"{res['llama3_sync_checkpoint_seconds']:.0f} s (Llama 3 synchronous estimate)":
                  res["llama3_sync_checkpoint_seconds"],
              f"{res['dcp_sync_checkpoint_seconds']:.0f} s (7B, synchronous DCP)": res["dcp_sync_checkpoint_seconds"]}
    res.add_table("interval_by_mtbf", pd.concat([pd.DataFrame({
        "write_time": label, "write_seconds": seconds, "job_mtbf_hours": MTBF_GRID_HOURS,
        "daly_minutes": rel.daly_interval(seconds / SECONDS_PER_HOUR, MTBF_GRID_HOURS) * MINUTES_PER_HOUR,
        "young_minutes": rel.young_interval(seconds / SECONDS_PER_HOUR, MTBF_GRID_HOURS) * MINUTES_PER_HOUR})
        for label, seconds in writes.items()], ignore_index=True))


def _time_shares(res: ChapterResults, P, snap: rel.Llama3Snapshot) -> None:
    """Expected shares of wall-clock time for three cases (Llama 3 on its own counts, the cluster
    under the chosen failure model), and SemiAnalysis's lost GPU-days."""
    write_h, detect_h, restart_h = recovery_hours(P)
    planned = snap.planned_per_hour
    llama_mtbf = res["llama3_job_mtbf_hours"]
    job = cluster_time_shares(P, snap)  # the cluster-sized job: the chain the what-if grid evaluates too
    copy_h = res["weights_copy_seconds"] / SECONDS_PER_HOUR  # the cluster chapter's, for its GPU and backend link
    shares = pd.DataFrame({
        "Llama 3, Daly interval": rel.expected_time_fractions(
            llama_mtbf, rel.daly_interval(write_h, llama_mtbf), write_h, detect_h, restart_h, planned),
        f"{P.gpus:,} GPUs, checkpoint every {P.checkpoint_interval_steps} steps": job["shares"],
        f"{P.gpus:,} GPUs, in-memory recovery": rel.expected_time_fractions(
            job["job_mtbf_hours"], P.step_time_seconds / SECONDS_PER_HOUR, 0.0, detect_h, copy_h, planned),
    }).astype(float)
    shares.index.name = "state"
    res.add_table("time_shares", shares.reset_index())
    useful = shares.loc["useful training"].to_numpy()
    res.add("llama3_expected_goodput_frac", useful[0], "fraction", "Llama 3 expected effective training time (analytic)")
    res.add("cluster_goodput_frac", useful[1], "fraction", f"Expected goodput at {P.gpus:,} GPUs, persistent checkpoints")
    res.add("cluster_in_memory_goodput_frac", useful[2], "fraction",
            f"Expected goodput at {P.gpus:,} GPUs, in-memory recovery")
    res.add("checkpoint_restart_mean_lost_gpu_days", cluster.gpu_days_lost_checkpoint(
        P.gpus, P.checkpoint_interval_steps / 2 + 1, P.step_time_seconds), "GPU-days",
        "Work lost per failure, restart from checkpoint (on average: half an interval)")
    res.add("in_memory_step_lost_gpu_days", cluster.gpu_days_lost_in_memory(P.gpus, P.step_time_seconds, 0.0), "GPU-days",
            "In-memory recovery: one redone step")
    res.add("in_memory_copy_lost_gpu_days", cluster.gpu_days_lost_in_memory(P.gpus, 0.0, res["weights_copy_seconds"],
                                                                            steps_lost=0.0),
            "GPU-days", "In-memory recovery: waiting for the copy")


def largest_loss(res: ChapterResults, case_index: int) -> str:
    """The state other than training that takes the most time in case ``case_index`` of the
    time-shares table."""
    shares = res.tables["time_shares"].set_index("state").iloc[:, case_index].drop("useful training")
    return str(shares.idxmax())


def _simulated_goodput(res: ChapterResults, P, snap: rel.Llama3Snapshot, model) -> None:
    """The goodput Monte Carlo of Llama 3's run, Meta's bound as a recovery-time budget, and
    goodput against job size under the chosen failure model (analytic curves, Monte Carlo dots)."""
    write_h, detect_h, restart_h = recovery_hours(P)
    inputs = goodput.llama3_simulation_inputs(P.checkpoint_write_seconds, P.failure_detection_minutes,
                                              P.restart_minutes, snap)
    ratios = goodput.simulate_goodput(**inputs, trials=P.goodput_trials, seed=P.goodput_seed)
    stats = goodput.summarize(ratios)
    published = rel.item("llama3_effective_training_time")
    res.add_table("llama3_simulated_runs", pd.DataFrame({"effective_training_time_frac": ratios}))
    res.add("llama3_effective_training_time_frac", stats["mean"], "fraction",
            "Llama 3 effective training time, Monte Carlo mean")
    res.add("llama3_effective_training_time_p5_frac", stats["p5"], "fraction",
            "Llama 3 effective training time, 5th percentile")
    res.add("llama3_effective_training_time_p95_frac", stats["p95"], "fraction",
            "Llama 3 effective training time, 95th percentile")
    res.add("llama3_published_effective_training_time_frac", published, "fraction",
            "Llama 3 effective training time, Meta's published lower bound")
    res.add("llama3_runs_above_published_frac", np.mean(ratios > published), "fraction",
            "Share of simulated Llama 3 runs above Meta's published bound")
    res.add("llama3_mc_minus_analytic_pp", abs(stats["mean"] - res["llama3_expected_goodput_frac"]) * 100,
            "percentage points", "Monte Carlo mean less the analytic expectation, Llama 3")
    budget_h = rel.max_recovery_time(published, res["llama3_job_mtbf_hours"], inputs["interval_hours"], write_h,
                                     snap.planned_per_hour * restart_h)
    res.add("llama3_max_recovery_minutes", budget_h * MINUTES_PER_HOUR, "minutes",
            "Largest detection + restart per failure that keeps Llama 3 at Meta's bound")
    res.add("llama3_max_restart_minutes", (budget_h - detect_h) * MINUTES_PER_HOUR, "minutes",
            "Largest restart (at the assumed detection time) that keeps Llama 3 at Meta's bound")
    res.add("recovery_minutes", P.failure_detection_minutes + P.restart_minutes, "minutes",
            "Assumed detection + restart per failure")

    sizes = JOB_SIZES_GPUS
    mtbf = model(sizes)
    daly = rel.daly_interval(write_h, mtbf)
    planned = snap.planned_per_hour
    curves = {"gpus": sizes,
              "daly_interval_frac": rel.expected_goodput(mtbf, daly, write_h, detect_h, restart_h, planned),
              "llama3_interval_frac": rel.expected_goodput(mtbf, inputs["interval_hours"], write_h, detect_h,
                                                           restart_h, planned),
              "sa_interval_frac": rel.expected_goodput(mtbf, res["sa_checkpoint_interval_minutes"] / MINUTES_PER_HOUR,
                                                       write_h, detect_h, restart_h, planned),
              "in_memory_frac": rel.expected_goodput(mtbf, P.step_time_seconds / SECONDS_PER_HOUR, 0.0, detect_h,
                                                     res["weights_copy_seconds"] / SECONDS_PER_HOUR, planned),
              "instant_restart_frac": rel.expected_goodput(mtbf, daly, write_h, detect_h, 0.0, planned),
              "max_restart_frac": rel.expected_goodput(mtbf, daly, write_h, detect_h, max(budget_h - detect_h, 0.0),
                                                       planned)}
    res.add_table("goodput_by_size", pd.DataFrame(curves))
    simulated = []
    for gpus in (snap.gpus, P.gpus):
        m = model(gpus)  # the simulation takes a per-GPU MTBF: the job's MTBF times its GPUs
        runs = goodput.simulate_goodput(gpus, m * gpus, snap.hours, rel.daly_interval(write_h, m), write_h,
                                        detect_h, restart_h, trials=P.goodput_trials, seed=P.goodput_seed,
                                        planned_per_hour=planned)
        simulated.append({"gpus": gpus, **goodput.summarize(runs)})
    res.add_table("goodput_simulated", pd.DataFrame(simulated))
