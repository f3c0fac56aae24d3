"""Downtime chapter: how much faster GB200 NVL72 must be than H100 once failures, checkpoints and
repairs are priced in, against NVIDIA's measured speed-ups.

TCO per GPU-hour comes from the TCO chapter (``upstream["tco"]``) and the measured GB200/H100
throughput ratios from the benchmarks chapter (``upstream["benchmarks"]``); the failure rates from
Llama 3's calibration (:func:`analysis.reliability.llama3_rates`). The break-even with downtime is
:func:`breakeven_with_downtime`, the function the uncertainty bands and the what-if grid evaluate
(on arrays), so the point value, its band and the grid agree.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import benchmarks, costs
from analysis import reliability as rel
from analysis.chapters import ChapterResults, gpu_cost, read_bands
from analysis.chapters.reliability import add_parameters, gb200_rates, recovery_hours
from analysis.params import defaults as d
from analysis.params.constraints import where
from analysis.params.parameters import ParameterError

SYSTEMS = ("h100", "gb200")
BAND_KEYS = ("gb200_breakeven_speedup", "gb200_breakeven_speedup_with_downtime")
EXTRA_LOSS_GRID_FRAC = np.linspace(0.0, 0.5, 101)  # GB200's extra lost GPU-hours, for the figure

# Parameters the prose quotes, recorded with the results so the page can glue them.
QUOTED_PARAMETERS = (d.GPUS, d.JOB_GPUS, d.H100_GPUS_PER_SERVER, d.H100_REPAIR_HOURS, d.GB200_BLAST_RADIUS_GPUS,
                     d.GB200_REPAIR_HOURS, d.GB200_GPU_FAULT_RATIO, d.GB200_NVLINK_FAULTS_PER_RACK_MONTH)

# Measured speed-ups the chapter sets against the break-even: (benchmarks key, model id).
SPEEDUPS = (("gb200_vs_h100_llama31_405b_bf16_throughput_ratio", "llama31_405b"),
            ("gb200_vs_h100_deepseek_v3_bf16_throughput_ratio", "deepseek_v3"))


def useful_shares(P, job_gpus, rates: dict) -> dict[str, tuple]:
    """(goodput, share out of service, useful share) of a ``job_gpus`` job on H100 and on GB200
    NVL72 (:func:`analysis.reliability.useful_share`): an H100 fault takes its server
    (``h100_gpus_per_server``) out for ``h100_repair_hours``, a GB200 fault
    ``gb200_blast_radius_gpus`` for ``gb200_repair_hours``; both jobs checkpoint at Daly's optimum
    and share the recovery times. Values may be arrays."""
    recovery = (*recovery_hours(P), rates["planned_per_hour"])
    gb200 = gb200_rates(P, rates)
    return {
        "h100": rel.useful_share(job_gpus, rates["job"], rates["repair"], P.h100_gpus_per_server, P.h100_repair_hours,
                                 *recovery),
        "gb200": rel.useful_share(job_gpus, gb200["job"], gb200["repair"], P.gb200_blast_radius_gpus,
                                  P.gb200_repair_hours, *recovery),
    }


def breakeven_with_downtime(P, h100_tco_usd_per_gpu_hour, gb200_tco_usd_per_gpu_hour, job_gpus, rates: dict):
    """GB200's reliability-adjusted break-even speed-up for a ``job_gpus`` job: each system's TCO
    per GPU-hour divided by its useful share (:func:`useful_shares`)."""
    shares = useful_shares(P, job_gpus, rates)
    return rel.reliability_adjusted_breakeven(gb200_tco_usd_per_gpu_hour, shares["gb200"][2],
                                              h100_tco_usd_per_gpu_hour, shares["h100"][2])


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("downtime")
    gpu_cost.name_systems(res)
    add_parameters(res, P, QUOTED_PARAMETERS)
    tco, bench = upstream["tco"], upstream["benchmarks"]
    for key in ("h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "gb200_breakeven_speedup"):
        res.add(key, tco[key], tco.unit(key), tco.quantities[key].label)
    for key, _ in SPEEDUPS:
        res.add(key, bench[key], bench.unit(key), bench.quantities[key].label)
    rates = rel.llama3_rates()
    _useful_shares(res, P, rates)
    _breakevens(res, P, rates)
    _token_costs(res)
    res.add_table("bands", read_bands(upstream["uncertainty"], BAND_KEYS))
    q = upstream["uncertainty"].quantities["monte_carlo_draws_count"]
    res.add("monte_carlo_draws_count", q.value, q.unit, q.label)
    return res


def _useful_shares(res: ChapterResults, P, rates: dict) -> None:
    """Goodput, share under repair, useful share and the cost of a useful GPU-hour per system."""
    shares = useful_shares(P, P.job_gpus, rates)
    for s in SYSTEMS:
        good, down, useful = shares[s]
        name = s.upper()
        res.add(f"{s}_goodput_frac", good, "fraction", f"{name} job goodput at {P.job_gpus:,} GPUs")
        res.add(f"{s}_unavailable_frac", down, "fraction", f"{name} share of GPUs out of service for repair")
        res.add(f"{s}_useful_frac", useful, "fraction", f"{name} share of paid GPU-hours that train")
        res.add(f"{s}_usd_per_useful_gpu_hour", rel.usd_per_useful_gpu_hour(res[f"{s}_tco_usd_per_gpu_hour"], useful),
                "USD per useful GPU-hour", f"{name} cost of a useful GPU-hour")


def _breakevens(res: ChapterResults, P, rates: dict) -> None:
    """The break-even speed-up with downtime for the job and for the cluster-sized job, and with a
    fault-free backplane; the extra share of GPU-hours GB200 loses in each case."""
    h100, gb200 = res["h100_tco_usd_per_gpu_hour"], res["gb200_tco_usd_per_gpu_hour"]
    no_nvlink = P.replace(gb200_nvlink_faults_per_rack_month=0.0)
    cases = {  # key suffix: (parameters, job GPUs, label)
        "": (P, P.job_gpus, f"{P.job_gpus:,}-GPU job"),
        "_at_cluster_size": (P, P.gpus, f"{P.gpus:,}-GPU job"),
        "_without_nvlink_faults": (no_nvlink, P.job_gpus, f"fault-free backplane, {P.job_gpus:,}-GPU job")}
    for suffix, (p, job_gpus, label) in cases.items():
        res.add(f"gb200_breakeven_speedup_with_downtime{suffix}",
                breakeven_with_downtime(p, h100, gb200, job_gpus, rates), "ratio",
                f"GB200 break-even speed-up with failures and downtime, {label}")
        shares = useful_shares(p, job_gpus, rates)
        res.add(f"gb200_extra_loss{suffix}_frac", 1.0 - shares["gb200"][2] / shares["h100"][2], "fraction",
                f"GB200 GPU-hours lost beyond the H100's share, {label}")
    ratio = res["gb200_breakeven_speedup"]
    res.add_table("breakeven_by_extra_loss", pd.DataFrame({
        "gb200_extra_loss_frac": EXTRA_LOSS_GRID_FRAC,
        "breakeven_speedup": rel.reliability_adjusted_breakeven(ratio, 1.0 - EXTRA_LOSS_GRID_FRAC, 1.0, 1.0)}))
    res.add("gb200_max_extra_loss_llama31_405b_frac", rel.max_extra_loss(
        res["gb200_vs_h100_llama31_405b_bf16_throughput_ratio"], ratio), "fraction",
        "Extra GPU-hours GB200 may lose before its Llama 3.1 405B speed-up stops paying")


def _token_costs(res: ChapterResults) -> None:
    """Llama 3.1 405B BF16's cost per million tokens on each system, every paid hour useful and
    reliability-adjusted, at the benchmark rows behind the throughput ratio
    (:func:`analysis.benchmarks.best_rate_row`), and the GPU counts of the rows compared."""
    bench = benchmarks.load_benchmarks()
    gpu_ids = {"h100": "h100_sxm", "gb200": "gb200_nvl72"}
    for _, model_id in SPEEDUPS:
        for s, gpu_id in gpu_ids.items():
            rate = benchmarks.best_rate_row(bench, model_id, "bf16", gpu_id)
            res.add(f"{model_id}_bf16_{s}_benchmark_gpus", rate["gpus"], "GPUs",
                    f"{model_id} BF16: GPUs in NVIDIA's {s.upper()} run compared")
            if model_id != "llama31_405b":
                continue
            tokens = rate["tokens_per_s_per_gpu"]
            res.add(f"{s}_llama31_405b_bf16_usd_per_million_tokens", costs.usd_per_million_tokens(
                res[f"{s}_tco_usd_per_gpu_hour"], tokens), "USD per million tokens",
                f"Llama 3.1 405B BF16 on {s.upper()}, every hour useful")
            res.add(f"{s}_llama31_405b_bf16_useful_usd_per_million_tokens", costs.usd_per_million_tokens(
                res[f"{s}_usd_per_useful_gpu_hour"], tokens), "USD per million tokens",
                f"Llama 3.1 405B BF16 on {s.upper()}, reliability-adjusted")


# --- inputs this chapter can use (analysis.chapters.check_inputs) ------------------------------------

MIN_GOODPUT = 1e-6  # below this a job's goodput is zero in all but floating-point noise


def makes_no_progress(P, job_gpus: float) -> bool:
    """Whether a job of ``job_gpus`` at Llama 3's failure rates (scaled for GB200 by its fault ratio
    and NVLink faults) would make essentially no progress on H100 or GB200: its break-even ratio
    is then 0/0."""
    rates = rel.llama3_rates()
    write_h, detect_h, restart_h = recovery_hours(P)
    nvlink = rel.per_gpu_rate_from_rack_month(P.gb200_nvlink_faults_per_rack_month, P.gb200_gpus_per_rack)
    worst = max(rates["job"], rates["job"] * P.gb200_gpu_fault_ratio + nvlink)
    good = rel.useful_share(job_gpus, worst, 0.0, 1, 0.0, write_h, detect_h, restart_h, rates["planned_per_hour"])[0]
    return not good >= MIN_GOODPUT


def check_inputs(P, origin: dict) -> None:
    """Refuse a job that fails before a checkpoint completes (exit 2, naming both parameters): the
    chapter prices the job (``job_gpus``) and a job the size of the whole cluster (``gpus``)."""
    for size in ("job_gpus", "gpus"):
        if size in P and makes_no_progress(P, getattr(P, size)):
            raise ParameterError(
                f"{where(origin, 'checkpoint_write_seconds', size)}parameters 'checkpoint_write_seconds' "
                f"({P.checkpoint_write_seconds:g}) and '{size}' ({getattr(P, size):,}) conflict: at Llama 3's failure "
                "rates (scaled by 'gb200_gpu_fault_ratio' and 'gb200_nvlink_faults_per_rack_month' for GB200) such a "
                "job fails before a checkpoint completes and makes no progress; use fewer GPUs or faster checkpoints")
