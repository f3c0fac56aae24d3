"""Monte Carlo goodput of a training run: a seeded, vectorized simulation of failures and restarts.

Model (the same as :func:`analysis.reliability.expected_time_fractions`, which gives its exact
long-run mean): the job computes for ``interval`` then writes a checkpoint for ``write``, over and
over. Failures arrive as a Poisson process while the job runs, at ``gpus / gpu_mtbf`` per hour.
A failure loses everything since the last completed checkpoint (a half-written checkpoint
included), then costs ``detection + restart`` hours of downtime. Planned interruptions (firmware
updates, configuration changes) are taken at a checkpoint, lose no work and cost ``restart`` each.
The run lasts ``run_hours`` of wall-clock time; work done after the last checkpoint when the run
ends counts, since nothing interrupted it.

One trial is one run. The up-times between failures of all trials are drawn at once as a
(trials x failures) array of exponentials, so a 1,000-trial, 16,384-GPU, 54-day run (about 420
failures per trial) is a few array operations on 0.5M numbers.
"""

from __future__ import annotations

import math
import time

import numpy as np

from analysis.reliability import daly_interval, job_mtbf_hours, llama3_snapshot
from analysis.units import SECONDS_PER_HOUR, SECONDS_PER_MINUTE


def _draw_cycles(rng: np.random.Generator, mtbf: float, down: float, horizon: np.ndarray, trials: int):
    """Up-times (trials x k) and the wall-clock start of each failure cycle, with k large enough
    that every trial's cycles reach its horizon (more columns are drawn in the rare case not)."""
    cycle = mtbf + down
    expected = float(horizon.max()) / cycle
    k = int(expected + 6.0 * math.sqrt(expected) + 16)
    up = rng.exponential(mtbf, size=(trials, k))
    ends = np.cumsum(up + down, axis=1)
    while np.any(ends[:, -1] < horizon):  # extend: keeps the draw exact, however unlucky
        more = rng.exponential(mtbf, size=(trials, max(16, k // 4)))
        up = np.concatenate([up, more], axis=1)
        ends = np.concatenate([ends, ends[:, -1:] + np.cumsum(more + down, axis=1)], axis=1)
    starts = ends - (up + down)
    return up, starts


def simulate_goodput(gpus: float, gpu_mtbf_hours: float, run_hours: float, interval_hours: float,
                     write_hours: float, detection_hours: float, restart_hours: float, trials: int = 1_000,
                     seed: int = 0, planned_per_hour: float = 0.0) -> np.ndarray:
    """Effective-training-time ratio (useful compute hours / ``run_hours``) of each of ``trials``
    simulated runs; deterministic for a given ``seed`` (numpy's default Generator, PCG64)."""
    if min(gpus, gpu_mtbf_hours, run_hours, interval_hours, trials) <= 0:
        raise ValueError("gpus, gpu_mtbf_hours, run_hours, interval_hours and trials must be positive")
    if min(write_hours, detection_hours, restart_hours, planned_per_hour) < 0:
        raise ValueError("times and rates must not be negative")
    rng = np.random.default_rng(seed)
    mtbf = job_mtbf_hours(gpus, gpu_mtbf_hours)
    down = detection_hours + restart_hours
    # Planned interruptions lose no work: they only take restart time off the run.
    planned = rng.poisson(planned_per_hour * run_hours, size=trials)
    horizon = np.maximum(run_hours - planned * restart_hours, 0.0)
    # Trials go in chunks of at most ~MAX_CELLS failures, so a huge job cannot exhaust memory.
    per_trial = run_hours / (mtbf + down) + 1.0
    chunk = max(1, int(MAX_CELLS // per_trial))
    useful = np.concatenate([
        _useful_hours(rng, mtbf, down, interval_hours, write_hours, horizon[i:i + chunk])
        for i in range(0, trials, chunk)])
    return useful / run_hours


MAX_CELLS = 4_000_000  # failures drawn at once (about 32 MB per float64 array)


def _useful_hours(rng, mtbf, down, interval, write, horizon) -> np.ndarray:
    """Useful compute hours of each run whose wall-clock length is ``horizon`` (one per run)."""
    up, starts = _draw_cycles(rng, mtbf, down, horizon, len(horizon))
    available = np.maximum(horizon[:, None] - starts, 0.0)  # run time left when each cycle starts
    failed = available >= up  # the cycle's failure happens before the run ends
    ran = np.minimum(available, up)
    segment = interval + write
    segments = np.floor(ran / segment)  # checkpointed segments completed in the cycle
    tail = np.where(failed, 0.0, np.minimum(ran - segments * segment, interval))
    return (segments * interval + tail).sum(axis=1)


def summarize(ratios: np.ndarray) -> dict[str, float]:
    """Mean, standard deviation and the 5th, 50th and 95th percentiles of simulated ratios."""
    p5, p50, p95 = np.percentile(ratios, [5, 50, 95])
    return {"mean": float(np.mean(ratios)), "std": float(np.std(ratios)), "p5": float(p5),
            "p50": float(p50), "p95": float(p95)}


def llama3_simulation_inputs(write_seconds: float, detection_minutes: float, restart_minutes: float,
                             snapshot=None) -> dict[str, float]:
    """Keyword arguments of :func:`simulate_goodput` for Llama 3 405B's 54-day snapshot: its
    published GPUs, length and interruption counts (:func:`analysis.reliability.llama3_snapshot`),
    and, for what Meta did not publish, the checkpoint write (seconds), detection and restart
    (minutes) times given; the checkpoint interval is Daly's optimum for them."""
    snap = snapshot or llama3_snapshot()
    write = write_seconds / SECONDS_PER_HOUR
    minutes_per_hour = SECONDS_PER_HOUR / SECONDS_PER_MINUTE
    return {"gpus": snap.gpus, "gpu_mtbf_hours": snap.gpu_mtbf_hours, "run_hours": snap.hours,
            "interval_hours": daly_interval(write, job_mtbf_hours(snap.gpus, snap.gpu_mtbf_hours)),
            "write_hours": write, "detection_hours": detection_minutes / minutes_per_hour,
            "restart_hours": restart_minutes / minutes_per_hour, "planned_per_hour": snap.planned_per_hour}


def benchmark_seconds(inputs: dict, trials: int = 1_000, repeats: int = 5) -> float:
    """Best of ``repeats`` wall-clock times, in seconds, to simulate ``trials`` runs with
    ``inputs`` (e.g. :func:`llama3_simulation_inputs`); ``make bench`` prints it."""
    best = math.inf
    for seed in range(repeats):
        start = time.perf_counter()
        simulate_goodput(**inputs, trials=trials, seed=seed)
        best = min(best, time.perf_counter() - start)
    return best
