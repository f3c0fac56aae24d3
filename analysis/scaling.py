"""Weak and strong scaling.

*Weak scaling* adds data-parallel replicas and grows the global batch with them, so each GPU does
the same work per step: the layout inside a replica (TP, PP, CP) stays fixed. NVIDIA's DGXC sweeps
and SemiAnalysis's 64 -> 2,048 (2,304) GPU figures are weak scaling (A32, A39-A41); efficiency is
the per-GPU throughput, or MFU, at N GPUs over that at the smallest size.

*Strong scaling* keeps the global batch fixed and spreads it over more GPUs, so each GPU does less
per step. The small model here splits one training step into

- compute, which shrinks as 1/N (each GPU holds fewer micro-batches);
- a part that does not shrink: the pipeline fill and drain, (p - 1) / v stage-times per step
  (Narayanan et al. 2021, interleaved schedule), whose stage-time is fixed once the global batch
  and the replica layout are; and the gradient exchange, a ring all-reduce of each GPU's gradient
  shard, 2 (g - 1) / g x shard bytes / link bandwidth, which does not shrink as replicas are added.

It is calibrated on one measured row (the step time at the reference size), assumes none of the
gradient exchange overlaps with compute and nothing else changes (same kernels, same micro-batch
of one sequence), and stops where every replica holds a single sequence per step.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.units import SECONDS_PER_DAY, SECONDS_PER_HOUR, gbps_to_gbytes_per_s

# --- weak scaling ------------------------------------------------------------------------------------

def weak_scaling_efficiency(rate_small: float, rate_large: float) -> float:
    """Per-GPU throughput (or MFU) at the large size over that at the small size, with the
    per-GPU work held fixed; 1 is perfect weak scaling."""
    return rate_large / rate_small


def relative_drop(small: float, large: float) -> float:
    """Fractional fall from ``small`` to ``large``: 38.1 % -> 35.5 % MFU is a 6.8 % drop (A39),
    not the 2.6 points, and not SemiAnalysis's "~10 %"."""
    return 1.0 - large / small


def weak_scaling_table(bench: pd.DataFrame, source_id: str, gpu_id: str = "h100_sxm") -> pd.DataFrame:
    """One row per (model, precision) swept by ``source_id``: smallest and largest GPU counts,
    their MFU and per-GPU throughput, the weak-scaling efficiency and the relative MFU drop. Only
    sweeps whose replica layout (TP, PP, CP, VP) and per-GPU batch stay fixed qualify."""
    rows = bench[(bench["source_id"] == source_id) & (bench["gpu_id"] == gpu_id)]
    out = []
    for (model_id, precision, _), group in rows.groupby(["model_id", "precision", "software"], sort=False):
        group = group.sort_values("gpus")
        layout = group[["tp", "pp", "cp", "vp"]].astype("float").fillna(0).drop_duplicates()
        per_gpu_batch = (group["global_batch"] / group["gpus"]).drop_duplicates()
        if group["gpus"].nunique() < 2 or len(layout) > 1 or len(per_gpu_batch) > 1:
            continue
        small, large = group.iloc[0], group.iloc[-1]
        out.append({
            "model_id": model_id, "precision": precision,
            "gpus_small": int(small["gpus"]), "gpus_large": int(large["gpus"]),
            "tp": small["tp"], "pp": small["pp"], "cp": small["cp"], "vp": small["vp"],
            "mfu_small": small["mfu"], "mfu_large": large["mfu"],
            "rate_small": small["tokens_per_s_per_gpu"], "rate_large": large["tokens_per_s_per_gpu"],
            "efficiency": weak_scaling_efficiency(small["tokens_per_s_per_gpu"], large["tokens_per_s_per_gpu"]),
            "mfu_drop": relative_drop(small["mfu"], large["mfu"]),
        })
    return pd.DataFrame(out)


# --- strong scaling ----------------------------------------------------------------------------------

def degree(value) -> int:
    """A parallel degree from a data row: an empty cell means that kind of parallelism is unused (1)."""
    return 1 if value is None or pd.isna(value) else int(value)


def model_parallel_gpus(tp, pp, cp) -> int:
    """GPUs in one model replica (tensor x pipeline x context parallel)."""
    return degree(tp) * degree(pp) * degree(cp)


def max_gpus_for_batch(global_batch: int, tp, pp, cp) -> int:
    """Largest cluster a fixed global batch can use: one sequence per replica per step (micro-batch
    of one sequence, as in the DGXC recipes)."""
    return int(global_batch) * model_parallel_gpus(tp, pp, cp)


def step_time_from_rate_s(global_batch: int, seq_len: int, gpus: float, tokens_per_s_per_gpu: float) -> float:
    """Seconds per training step implied by a measured per-GPU token rate."""
    return global_batch * seq_len / (gpus * tokens_per_s_per_gpu)


def grad_sync_s(params: float, tp: int, pp: int, gpus, grad_bytes_per_param: float, link_gbps: float):
    """Seconds of one ring all-reduce of the gradients: each GPU holds params / (TP x PP) of them
    and exchanges them with the g = N / (TP x PP) GPUs that hold the same shard (data and context
    parallel ranks), sending and receiving 2 (g - 1) / g of its shard over its link. It grows
    slightly with N and never shrinks."""
    shard_bytes = params / (tp * pp) * grad_bytes_per_param
    group = np.asarray(gpus, dtype=float) / (tp * pp)
    return 2.0 * (group - 1.0) / group * shard_bytes / (gbps_to_gbytes_per_s(link_gbps) * 1e9)


def pipeline_bubble_s(compute_gpu_s: float, pp: int, vp: int, global_batch: int, mp_gpus: int) -> float:
    """Seconds per step that the interleaved pipeline spends filling and draining: (p - 1) / v
    stage-times (Narayanan et al. 2021), where a stage-time, the compute of one micro-batch on one
    stage, is ``compute_gpu_s`` / (global batch x GPUs per replica). With the batch fixed it does
    not depend on the GPU count."""
    return (pp - 1) / vp * compute_gpu_s / (global_batch * mp_gpus)


def calibrate_compute_gpu_s(step_s: float, gpus: float, comm_s: float, pp: int, vp: int,
                            global_batch: int, mp_gpus: int) -> float:
    """GPU-seconds of compute per step that reproduce a measured ``step_s`` at ``gpus``:
    step = C / N + bubble(C) + comm."""
    if comm_s >= step_s:
        raise ValueError(f"communication ({comm_s:.3g} s) exceeds the measured step ({step_s:.3g} s)")
    return (step_s - comm_s) / (1.0 / gpus + (pp - 1) / vp / (global_batch * mp_gpus))


def strong_scaling(gpus, ref_gpus: float, ref_step_s: float, params: float, tp, pp, cp, vp,
                   global_batch: int, grad_bytes_per_param: float, link_gbps: float) -> pd.DataFrame:
    """Step time (and its compute, pipeline-bubble and gradient-exchange parts), speed-up and
    efficiency against GPU count for a fixed global batch, calibrated to the measured step time
    ``ref_step_s`` at ``ref_gpus``. Efficiency = speed-up / (N / N_ref). Empty degrees mean 1."""
    gpus = np.asarray(gpus, dtype=float)
    limit = max_gpus_for_batch(global_batch, tp, pp, cp)
    if gpus.max() > limit:
        raise ValueError(f"{gpus.max():.0f} GPUs exceed the {limit} that a global batch of {global_batch} can use")
    tp, pp, cp, vp = degree(tp), degree(pp), degree(cp), degree(vp)
    mp = model_parallel_gpus(tp, pp, cp)
    compute = calibrate_compute_gpu_s(ref_step_s, ref_gpus,
                                      float(grad_sync_s(params, tp, pp, ref_gpus, grad_bytes_per_param, link_gbps)),
                                      pp, vp, global_batch, mp)
    frame = pd.DataFrame({"gpus": gpus})
    frame["compute_s"] = compute / gpus
    frame["bubble_s"] = pipeline_bubble_s(compute, pp, vp, global_batch, mp)
    frame["comm_s"] = grad_sync_s(params, tp, pp, gpus, grad_bytes_per_param, link_gbps)
    frame["step_s"] = frame["compute_s"] + frame["bubble_s"] + frame["comm_s"]
    frame["speedup"] = ref_step_s / frame["step_s"]
    frame["efficiency"] = frame["speedup"] / (gpus / ref_gpus)
    return frame


def time_to_train_days(tokens: float, tokens_per_step: float, step_s):
    """Wall-clock days to train on ``tokens`` at a fixed step time (no failures or restarts)."""
    return tokens / tokens_per_step * np.asarray(step_s) / SECONDS_PER_DAY


def cluster_run_cost_usd(gpus, days, usd_per_gpu_hour: float):
    """Cost of holding ``gpus`` GPUs for ``days`` at a GPU-hour price."""
    return np.asarray(gpus) * np.asarray(days) * SECONDS_PER_DAY / SECONDS_PER_HOUR * usd_per_gpu_hour


def marginal_usd_per_speedup(cost_before: float, cost_after: float, speedup_before: float,
                             speedup_after: float) -> float:
    """Extra dollars per unit of extra speed-up (1.0 = one more reference-cluster's worth of
    speed) when a cluster grows: what the added GPUs cost for what they buy."""
    return (cost_after - cost_before) / (speedup_after - speedup_before)


def marginal_usd_per_day_saved(cost_before: float, cost_after: float, days_before: float, days_after: float) -> float:
    """Extra dollars per day of wall-clock time saved when a cluster grows."""
    return (cost_after - cost_before) / (days_before - days_after)
