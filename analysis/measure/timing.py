"""Timing harness: warm-up calls, then repeats, each repeat long enough to time reliably; the
median and the 10th/90th percentiles of the seconds per call. And dense matmul throughput with
numpy, whose best median over sizes is the measured matmul peak of a CPU.

Nothing here is timed in a test (performance is measured in ``make bench``); tests check the
statistics on a fake clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from analysis.units import TERA


@dataclass(frozen=True)
class Timing:
    """Seconds per call: median and spread over ``repeats`` repeats of ``calls_per_repeat`` calls
    each, after ``warmup`` untimed calls."""

    seconds_median: float
    seconds_p10: float
    seconds_p90: float
    warmup: int
    repeats: int
    calls_per_repeat: int


def summarize_seconds(samples_s, warmup: int, calls_per_repeat: int = 1) -> Timing:
    """Median, 10th and 90th percentile of per-call seconds (linear interpolation)."""
    samples = np.asarray(samples_s, dtype=float)
    if samples.size == 0 or np.any(~np.isfinite(samples)) or np.any(samples <= 0):
        raise ValueError("timing samples must be positive, finite and at least one")
    p10, median, p90 = np.percentile(samples, [10, 50, 90])
    return Timing(float(median), float(p10), float(p90), warmup, int(samples.size), calls_per_repeat)


def time_calls(fn: Callable[[], object], warmup: int, repeats: int, min_repeat_s: float = 0.0,
               sync: Callable[[], object] = lambda: None, clock: Callable[[], float] = time.perf_counter) -> Timing:
    """Time ``fn``: ``warmup`` untimed calls, then ``repeats`` timed repeats. A repeat makes enough
    calls (found from the warm-up) to last at least ``min_repeat_s``, so very short calls are not
    lost in timer noise; the result is seconds per call. ``sync`` waits for asynchronous work (a
    GPU) before the clock is read."""
    if warmup < 1 or repeats < 1:
        raise ValueError("warmup and repeats must be at least 1")
    sync()
    for _ in range(warmup):
        t0 = clock()
        fn()
        sync()
        last = clock() - t0
    calls = max(1, int(np.ceil(min_repeat_s / last))) if last > 0 and min_repeat_s > 0 else 1
    samples = []
    for _ in range(repeats):
        t0 = clock()
        for _ in range(calls):
            fn()
        sync()
        samples.append((clock() - t0) / calls)
    return summarize_seconds(samples, warmup, calls)


def matmul_flops(m: int, n: int, k: int) -> float:
    """FLOPs of one dense (m x k) @ (k x n) product: a multiply and an add per term, 2 m n k."""
    return 2.0 * m * n * k


def tflops(flops: float, seconds: float) -> float:
    """Achieved TFLOP/s."""
    return flops / seconds / TERA


@dataclass(frozen=True)
class MatmulResult:
    precision: str
    m: int
    n: int
    k: int
    flops: float
    timing: Timing

    @property
    def tflops_median(self) -> float:
        return tflops(self.flops, self.timing.seconds_median)

    @property
    def shape(self) -> str:
        return f"{self.m}x{self.k}x{self.n}"


NUMPY_DTYPES = {"fp32": np.float32, "fp64": np.float64}


def measure_matmul_numpy(sizes, precisions, seed: int, warmup: int, repeats: int,
                         min_repeat_s: float) -> list[MatmulResult]:
    """Square matmuls ``n x n @ n x n`` with numpy (its BLAS, all the cores it is allowed) for each
    size and precision (``fp32``, ``fp64``); inputs are seeded standard normals."""
    rng = np.random.default_rng(seed)
    results = []
    for precision in precisions:
        dtype = NUMPY_DTYPES[precision]
        for n in sizes:
            a = rng.standard_normal((n, n)).astype(dtype)
            b = rng.standard_normal((n, n)).astype(dtype)
            out = np.empty((n, n), dtype=dtype)
            # partial binds this iteration's arrays (a lambda would read the loop variables late)
            timing = time_calls(partial(np.matmul, a, b, out=out), warmup, repeats, min_repeat_s)
            results.append(MatmulResult(precision, n, n, n, matmul_flops(n, n, n), timing))
    return results


def peak_by_precision(results: list[MatmulResult]) -> dict[str, float]:
    """The measured matmul peak per precision: the best median TFLOP/s over sizes."""
    peaks: dict[str, float] = {}
    for r in results:
        peaks[r.precision] = max(peaks.get(r.precision, 0.0), r.tflops_median)
    return peaks
