"""Step 2 of a plan when no throughput is given: the MFU estimated from two kinds of evidence, and
its error measured on the published runs it was not fitted to.

1. **Benchmarks** (:func:`benchmark_fit`): least squares of MFU on log10(active parameters) and
   log10(GPUs) over the book's benchmark rows (``data/benchmarks.csv``) of this GPU type and
   precision, or of every GPU type of the precision when this one has fewer than
   :data:`MIN_FIT_ROWS`. These are NVIDIA's tuned recipes on a few thousand GPUs.
2. **Production runs** (:func:`production_runs`): every run of ``data/backtest_runs.csv`` with a
   published time (GPU-hours, else days) implies the MFU at which the planner reproduces that time
   exactly (its goodput included, :mod:`analysis.planner.failures`). The log of that MFU over the
   benchmark fit's is the run's production-versus-benchmark term.
3. **The estimate**: benchmark MFU x exp(the production term), fitted to the runs by
   :func:`fit_factor`: an intercept per GPU class, pooled toward the mean over classes with a
   weight of :data:`PRIOR_RUNS` runs (a class with one run moves a third of the way from it), and
   one slope on log10(active parameters) shared by all classes.

**Its error** is measured leave-one-run-out (:func:`loo_residuals`): each run is predicted from the
other runs only. The error printed for an estimate is the median over the runs of its GPU class
where the class has at least :data:`MIN_CLASS_RUNS`, else over every run; and its P10-P90 band is
drawn from those residuals. A GPU class with no published run gets its band from the
leave-one-class-out residuals (:func:`loco_residuals`: each run predicted with its whole class left
out), which are wider: that is how far the pooled term carries to a new class.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd

from analysis import flops
from analysis.planner.failures import goodput
from analysis.planner.inputs import PEAK_COLUMN, model_from_run
from analysis.units import SECONDS_PER_DAY, SECONDS_PER_HOUR, TERA

MIN_FIT_ROWS = 6  # benchmark rows of one GPU type needed to fit the benchmark MFU on that type alone
MIN_CLASS_RUNS = 5  # published runs of one GPU class needed for its own error and band
# Weight, in runs, of the all-run term in a class's term. Two: a class's own mean counts for half
# at two runs and for most of it from five on; chosen as a round prior, not fitted to the backtest.
PRIOR_RUNS = 2.0
MFU_LIMITS = (0.02, 0.8)  # an estimate is clipped to this range
# GPU classes: parts on the same die with the same dense peaks share one production term. The
# export variants (A800, H800) keep their die's class: their cut NVLink is one of the differences
# between a production run and a benchmark that the class's term absorbs.
GPU_CLASSES = {
    "a100_sxm_80gb": "A100", "a100_sxm_40gb": "A100", "a800_sxm": "A100",
    "h100_sxm": "H100", "h200_sxm": "H100", "h800_sxm": "H100",
    "v100_sxm2_32gb": "V100", "v100_sxm2_16gb": "V100",
    "tpu_v3": "TPU v3", "tpu_v4": "TPU v4", "tpu_v5p": "TPU v5p",
    "mi250x": "MI250X", "gb200_nvl72": "GB200", "b200_hgx": "B200",
}


def gpu_class(gpu_id: str) -> str:
    """The production class of ``gpu_id`` (:data:`GPU_CLASSES`; an unlisted part is its own class)."""
    return GPU_CLASSES.get(gpu_id, gpu_id)


# --- 1. benchmarks -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class BenchmarkFit:
    """MFU = c0 + c1 log10(active params) + c2 log10(GPUs), fitted to ``rows`` benchmark rows."""

    coef: tuple[float, float, float]
    rows: int
    scope: str

    def predict(self, active_params, gpus):
        return self.coef[0] + self.coef[1] * np.log10(active_params) + self.coef[2] * np.log10(gpus)

    def describe(self) -> str:
        c = self.coef
        return (f"MFU = {c[0]:.3f} {c[1]:+.3f} log10(active params) {c[2]:+.3f} log10(GPUs), "
                f"fitted to {self.scope} of data/benchmarks.csv")


def _design(params, gpus) -> np.ndarray:
    return np.column_stack([np.ones(len(params)), np.log10(params), np.log10(gpus)])


def benchmark_fit(gpu_id: str, precision: str) -> BenchmarkFit:
    """The benchmark MFU fit for ``gpu_id`` at ``precision`` (FP16 reads the BF16 rows: the same
    16-bit tensor peak); computed once per data folder."""
    from analysis.data import data_dir

    return _benchmark_fit(gpu_id, precision, str(data_dir()))


@cache
def _benchmark_fit(gpu_id: str, precision: str, folder: str) -> BenchmarkFit:
    from analysis.benchmarks import load_benchmarks
    from analysis.data import load_table

    column = PEAK_COLUMN[precision]
    bench = load_benchmarks()
    rows = bench[(bench["precision"] == column) & (bench["gpu_id"] == gpu_id)]
    scope = f"{len(rows)} {gpu_id} {column.upper()} rows"
    if len(rows) < MIN_FIT_ROWS:
        rows = bench[bench["precision"] == column]
        scope = f"{len(rows)} {column.upper()} rows of every GPU type ({gpu_id} has too few of its own)"
    active = load_table("models").set_index("model_id").loc[rows["model_id"], "active_params"].to_numpy(float)
    coef, *_ = np.linalg.lstsq(_design(active, rows["gpus"].to_numpy(float)), rows["mfu"].to_numpy(float), rcond=None)
    return BenchmarkFit(tuple(float(c) for c in coef), len(rows), scope)


def benchmark_mfu(gpu_id: str, precision: str, active_params: float, gpus: int) -> float:
    return float(np.clip(benchmark_fit(gpu_id, precision).predict(active_params, gpus), *MFU_LIMITS))


# --- 2. production runs --------------------------------------------------------------------------------

def implied_mfu(r) -> tuple[float, str, float]:
    """(MFU, outcome, published value) at which the planner reproduces a backtest row's published
    time: GPU-hours where published (wall-clock hours x GPUs, so its goodput is taken out), else its
    days (with the goodput taken out of wall-clock days, not of failure-free ones)."""
    model = model_from_run(r)
    total_flop = flops.model_flops_per_token(model) * float(r["tokens"])
    peak = float(r["peak_tflops"]) * TERA
    gpus = int(r["gpus"])
    if pd.notna(r["published_gpu_hours"]):
        compute_gpu_s = float(r["published_gpu_hours"]) * SECONDS_PER_HOUR * goodput(gpus)
        outcome, value = "gpu_hours", float(r["published_gpu_hours"])
    else:
        wall = r["days_basis"] == "wall clock"
        compute_gpu_s = float(r["published_days"]) * SECONDS_PER_DAY * gpus * (goodput(gpus) if wall else 1.0)
        outcome, value = ("days_with_failures" if wall else "days"), float(r["published_days"])
    return total_flop / (compute_gpu_s * peak), outcome, value


def production_runs() -> pd.DataFrame:
    """One row per backtest run with a published time: ``run_id``, ``gpu_id``, ``gpu_class``,
    ``precision``, ``params``, ``gpus``, ``throughput_given``, ``outcome`` (the planner key of the
    time it reproduces), ``published``, ``implied_mfu``, ``benchmark_mfu`` and ``log_ratio`` (the
    production-versus-benchmark term, log of implied over benchmark MFU). In file order; computed
    once per data folder."""
    from analysis.data import data_dir

    return _production_runs(str(data_dir())).copy()


@cache
def _production_runs(folder: str) -> pd.DataFrame:
    from analysis.data import load_table
    from analysis.hardware import peak_tflops

    runs = load_table("backtest_runs")
    runs = runs[runs["published_gpu_hours"].notna() | runs["published_days"].notna()].copy()
    runs["peak_tflops"] = [peak_tflops(g, PEAK_COLUMN[p]) for g, p in zip(runs["gpu_id"], runs["precision"], strict=True)]
    rows = []
    for _, r in runs.iterrows():
        mfu, outcome, value = implied_mfu(r)
        bench = benchmark_mfu(r["gpu_id"], r["precision"], float(r["params"]), int(r["gpus"]))
        rows.append({"run_id": r["run_id"], "gpu_id": r["gpu_id"], "gpu_class": gpu_class(r["gpu_id"]),
                     "precision": r["precision"], "params": float(r["params"]), "gpus": int(r["gpus"]),
                     "throughput_given": bool(pd.notna(r["achieved_tflops_per_gpu"])), "outcome": outcome,
                     "published": value, "implied_mfu": mfu, "benchmark_mfu": bench,
                     "log_ratio": float(np.log(mfu / bench))})
    return pd.DataFrame(rows)


# --- 3. the production term, and its leave-one-out residuals --------------------------------------------
#
# log ratio_i = a_class(i) + b (log10 N_i - 10) + e_i, fitted by least squares with one pseudo-row
# per class, sqrt(PRIOR_RUNS) (a_class - a_0) = 0: each class's intercept is pulled toward a_0 (the
# mean over classes) with the weight of PRIOR_RUNS runs. A class with no run predicts a_0. The size
# slope b (with ``size_term``) is shared by every class: production runs of small models fall
# further below the benchmarks than large ones.

SIZE_CENTRE = 10.0  # log10(active params) the slope is centred on (10B), so a_class reads as a 10B run's term


@dataclass(frozen=True)
class FactorFit:
    """Fitted production terms: ``a0`` (a class with no run), ``by_class`` (class -> (intercept,
    runs)) and ``slope`` (per decade of active parameters; 0 without the size term)."""

    a0: float
    by_class: dict
    slope: float
    runs: int

    def log_factor(self, cls: str, active_params: float) -> float:
        a = self.by_class.get(cls, (self.a0, 0))[0]
        return a + self.slope * (np.log10(active_params) - SIZE_CENTRE)

    def class_runs(self, cls: str) -> int:
        return self.by_class.get(cls, (0.0, 0))[1]


def fit_factor(table: pd.DataFrame, size_term: bool = True) -> FactorFit:
    """:class:`FactorFit` over the rows of ``table`` (a :func:`production_runs` frame)."""
    if table.empty:
        return FactorFit(0.0, {}, 0.0, 0)
    classes = sorted(table["gpu_class"].unique())
    k, n = len(classes), len(table)
    index = {c: i for i, c in enumerate(classes)}
    cols = 1 + k + (1 if size_term and n > k else 0)  # a0, a_class..., slope
    x = np.zeros((n + k, cols))
    y = np.zeros(n + k)
    for row, (cls, params, ratio) in enumerate(zip(table["gpu_class"], table["params"], table["log_ratio"], strict=True)):
        x[row, 1 + index[cls]] = 1.0
        if cols > 1 + k:
            x[row, -1] = np.log10(params) - SIZE_CENTRE
        y[row] = ratio
    w = np.sqrt(PRIOR_RUNS)
    for i in index.values():
        x[n + i, 0], x[n + i, 1 + i] = -w, w
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    counts = table["gpu_class"].value_counts()
    by_class = {c: (float(coef[1 + i]), int(counts[c])) for c, i in index.items()}
    return FactorFit(float(coef[0]), by_class, float(coef[-1]) if cols > 1 + k else 0.0, n)


def loo_residuals(table: pd.DataFrame, size_term: bool = True) -> pd.Series:
    """Each run's log(implied / predicted MFU), the prediction fitted to every other run of
    ``table`` (leave-one-run-out), by ``run_id``. exp(residual) - 1 is the error on its time."""
    out = {}
    for i in table.index:
        r = table.loc[i]
        fit = fit_factor(table.drop(index=i), size_term)
        out[r["run_id"]] = r["log_ratio"] - fit.log_factor(r["gpu_class"], r["params"])
    return pd.Series(out, dtype=float)


def loco_residuals(table: pd.DataFrame, size_term: bool = True) -> pd.Series:
    """Each run's log(implied / predicted MFU) with its whole GPU class left out of the fit (the
    error on a GPU class with no published run), by ``run_id``."""
    out = {}
    fits = {c: fit_factor(table[table["gpu_class"] != c], size_term) for c in table["gpu_class"].unique()}
    for i in table.index:
        r = table.loc[i]
        out[r["run_id"]] = r["log_ratio"] - fits[r["gpu_class"]].log_factor(r["gpu_class"], r["params"])
    return pd.Series(out, dtype=float)


# --- the estimate ----------------------------------------------------------------------------------------

@dataclass
class MfuEstimate:
    """An MFU estimate with its measured error: ``ratios`` are actual / predicted MFU of the runs
    its error is measured on (leave-one-out), the band's draws; ``median_abs_error`` and
    ``signed_median_error`` are on the time (GPU-hours) of those runs."""

    mfu: float
    benchmark_mfu: float
    factor: float
    gpu_class: str
    class_runs: int
    runs: int
    ratios: np.ndarray
    error_scope: str
    median_abs_error: float
    signed_median_error: float
    benchmark: str

    @property
    def method(self) -> str:
        runs = f"{self.class_runs} published {self.gpu_class} run{'s' if self.class_runs != 1 else ''}"
        return (f"benchmark MFU {self.benchmark_mfu:.1%} ({self.benchmark}) x a production factor "
                f"{self.factor:.2f} ({runs}, pooled with all {self.runs})")

    def to_json(self) -> dict:
        return {"mfu": self.mfu, "benchmark_mfu": self.benchmark_mfu, "production_factor": self.factor,
                "gpu_class": self.gpu_class, "class_runs": self.class_runs, "runs": self.runs,
                "error_scope": self.error_scope, "loo_median_abs_error_gpu_hours": self.median_abs_error,
                "loo_signed_median_error_gpu_hours": self.signed_median_error}


def estimate_mfu(gpu_id: str, precision: str, active_params: float, gpus: int,
                 exclude_run: str | None = None) -> MfuEstimate:
    """The MFU of a run of ``active_params`` on ``gpus`` ``gpu_id``s at ``precision``, from the
    benchmark fit and the production runs other than ``exclude_run`` (see the module docstring)."""
    table = production_runs()
    if exclude_run is not None:
        table = table[table["run_id"] != exclude_run]
    cls = gpu_class(gpu_id)
    fit = fit_factor(table)
    bench = benchmark_mfu(gpu_id, precision, active_params, gpus)
    factor = float(np.exp(fit.log_factor(cls, active_params)))
    n_class = fit.class_runs(cls)
    if n_class >= MIN_CLASS_RUNS:
        residuals = loo_residuals(table)[table["gpu_class"].eq(cls).to_numpy()]
        scope = f"leave-one-run-out over the {n_class} published {cls} runs"
    elif n_class > 0:
        residuals = loo_residuals(table)
        scope = f"leave-one-run-out over all {len(table)} published runs ({cls} has {n_class}, too few for its own)"
    else:
        residuals = loco_residuals(table)
        scope = (f"over all {len(table)} published runs, each predicted with its whole GPU class left out "
                 f"({cls} has no published run)")
    ratios = np.exp(residuals.to_numpy(float))
    errors = ratios - 1.0  # on the time: predicted / published - 1
    return MfuEstimate(float(np.clip(bench * factor, *MFU_LIMITS)), bench, factor, cls, n_class, len(table), ratios,
                       scope, float(np.median(np.abs(errors))), float(np.median(errors)),
                       benchmark_fit(gpu_id, precision).describe())
