"""MLPerf Training, priced: every LLM result of ``data/mlperf_training.csv`` (scored by MLPerf's own
rule, :mod:`analysis.data.mlperf_logs`) as GPU-hours to reach the quality target, dollars at a price
tier, megawatt-hours, and the efficiency of each step up in system size.

Pure functions of the tables; the chapter layer (:mod:`analysis.chapters.mlperf`) wires prices,
power and the planner to them.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.energy import energy_kwh_from_gpu_hours
from analysis.units import JOULES_PER_KWH, MINUTES_PER_HOUR

J_PER_MWH = JOULES_PER_KWH * 1_000.0


def gpu_hours(score_minutes, accelerators):
    """Accelerator-hours to reach the target: the score in minutes x the accelerators, / 60."""
    return np.asarray(score_minutes, dtype=float) * np.asarray(accelerators, dtype=float) / MINUTES_PER_HOUR


def mwh(gpu_hours_, watts_per_accelerator):
    """Megawatt-hours of ``gpu_hours_`` at a constant draw of ``watts_per_accelerator``."""
    return np.asarray(energy_kwh_from_gpu_hours(gpu_hours_, watts_per_accelerator), dtype=float) / 1_000.0


def mwh_from_joules(joules):
    return np.asarray(joules, dtype=float) / J_PER_MWH


def scored(results: pd.DataFrame) -> pd.DataFrame:
    """The results that have a score (an invalid result, more than one failed run, has none), with
    ``gpu_hours``."""
    out = results[results["score_minutes"].notna()].copy()
    out["gpu_hours"] = gpu_hours(out["score_minutes"], out["accelerators"])
    return out.reset_index(drop=True)


def distinct(results: pd.DataFrame) -> pd.DataFrame:
    """One row per set of runs: a result published twice (the same round, benchmark, system size and
    score, e.g. under an AC- and a DC-metered submitter folder) counts once, the first by result id."""
    keys = ["round", "benchmark", "accelerators", "score_minutes"]
    return results.sort_values("result_id").drop_duplicates(keys).reset_index(drop=True)


def scaling_steps(results: pd.DataFrame) -> pd.DataFrame:
    """For each benchmark, accelerator and round: the fastest result at each system size, and each
    step to the next size up: size ratio, GPU-hours ratio, ``efficiency`` (GPU-hours before / after:
    1 is perfect strong scaling) and ``efficiency_per_doubling`` (that, per doubling of the size).
    The frameworks of both ends are kept, so a software change is not read as a scaling effect."""
    keys = ["benchmark", "gpu_id", "round"]
    known = results.dropna(subset=["gpu_id"])
    # the fastest at each size (the first listed of equals), ordered by benchmark, accelerator, round and size
    best = known.loc[known.groupby([*keys, "accelerators"])["score_minutes"].idxmin()]
    up = best.groupby(keys).shift(-1)  # the next size up of the same benchmark, accelerator and round
    a, b = best[up["accelerators"].notna()], up[up["accelerators"].notna()]
    ratio = b["accelerators"].to_numpy(float) / a["accelerators"].to_numpy(float)
    eff = a["gpu_hours"].to_numpy(float) / b["gpu_hours"].to_numpy(float)
    return pd.DataFrame({**{k: a[k].to_numpy() for k in keys},
                         "accelerators_from": a["accelerators"].to_numpy(),
                         "accelerators_to": b["accelerators"].astype(a["accelerators"].dtype).to_numpy(),
                         "gpu_hours_from": a["gpu_hours"].to_numpy(), "gpu_hours_to": b["gpu_hours"].to_numpy(),
                         "submitter_from": a["submitter"].to_numpy(), "submitter_to": b["submitter"].to_numpy(),
                         "framework_from": a["framework"].to_numpy(), "framework_to": b["framework"].to_numpy(),
                         "same_framework": a["framework"].to_numpy() == b["framework"].to_numpy(), "size_ratio": ratio,
                         "efficiency": eff,
                         "efficiency_per_doubling": [e ** (1.0 / math.log2(r)) for e, r in zip(eff, ratio, strict=True)]})


def cross_vendor(results: pd.DataFrame, vendor_of: dict[str, str]) -> pd.DataFrame:
    """Where accelerators of two or more vendors ran the same benchmark at the same size in the same
    round: the fastest result of each accelerator there."""
    known = results.dropna(subset=["gpu_id"]).copy()
    known["vendor"] = known["gpu_id"].map(vendor_of)
    picked = []
    for _, g in known.groupby(["round", "benchmark", "accelerators"]):
        if g["vendor"].nunique() < 2:
            continue
        picked.append(g.loc[g.groupby("gpu_id")["score_minutes"].idxmin()])
    if not picked:
        return known.iloc[0:0]
    return pd.concat(picked).sort_values(["benchmark", "round", "accelerators", "score_minutes"]).reset_index(drop=True)


def to_converge(points: pd.DataFrame, batch_size: float) -> tuple[float, bool]:
    """The reference's mean samples (or tokens) to converge at ``batch_size``: interpolated linearly
    between the two reference batch sizes around it, as MLPerf interpolates its RCPs; outside their
    span, the nearest one's, and ``False`` for "within the span"."""
    p = points.sort_values("batch_size")
    x, y = p["batch_size"].to_numpy(float), p["mean_to_converge"].to_numpy(float)
    inside = bool(x[0] <= batch_size <= x[-1])
    return float(np.interp(batch_size, x, y)), inside


def tokens_to_target(points: pd.DataFrame, batch_size: float, seq_len: int) -> tuple[float, bool]:
    """Training tokens the reference needs to reach the target at ``batch_size`` (samples x
    sequence length where the reference counts samples)."""
    value, inside = to_converge(points, batch_size)
    unit = set(points["unit"])
    if unit == {"tokens"}:
        return value, inside
    if unit == {"samples"}:
        return value * seq_len, inside
    raise ValueError(f"reference convergence points mix units {sorted(unit)}")
