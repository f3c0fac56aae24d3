"""Step 2 of a plan when no throughput is given: the MFU estimated from two kinds of evidence, and
its error measured on the published runs it was not fitted to.

1. **Benchmarks** (:func:`benchmark_fit`): least squares of MFU on log10(active parameters) and
   log10(GPUs) over the book's benchmark rows (``data/benchmarks.csv``) of this GPU type and
   precision, or, when this one has fewer than :data:`MIN_FIT_ROWS`, over every GPU type's rows
   with an intercept per type (the slopes shared) and the types' mean intercept. These are
   NVIDIA's tuned recipes on a few thousand GPUs.
2. **Production runs** (:func:`production_runs`): every run of ``data/backtest_runs.csv`` with a
   published time (GPU-hours, else days) implies the MFU at which the planner reproduces that time
   exactly (its goodput included, :mod:`analysis.planner.failures`); a run that published only its
   throughput gives that throughput's MFU. The log of that MFU over the benchmark fit's is the
   run's production-versus-benchmark term. A run known to recompute every layer's forward pass
   (full activation recomputation; its published throughput counts ``hardware-full`` FLOPs) spent
   part of its GPUs' time on work the model does not need: its term is taken on the basis of a run
   without it, by the model / hardware FLOP ratio of its own shape (about 3/4,
   :func:`analysis.flops.hardware_flops_per_token`; Narayanan et al. 2021, eq. 3), which is known,
   not fitted. A plan with ``full_recompute`` gets the same ratio back.
3. **The estimate**: benchmark MFU x exp(the production term), fitted to the runs by
   :func:`fit_factor` (:mod:`analysis.planner.production_term`), a hierarchical regression on
   log10(active parameters): an intercept and a slope per GPU class, each pooled toward all
   classes' with a weight of :data:`PRIOR_RUNS` runs (a class with one run moves a third of the
   way from them; a class with no run takes them), and one slope, shared by every class, on
   log10 of the run's memory pressure (:func:`analysis.planner.memory.memory_pressure`: the
   training state and activations one GPU of a purely data-parallel job would hold, over its
   HBM). Other forms are compared in the plan chapter (:mod:`analysis.planner.variants`).

A published time is read on its own basis (``data/backtest_runs.csv``): GPU-hours that exclude
failures (a rate times tokens, as DeepSeek's) are compute alone, so no goodput is taken out of
them; GPU-hours that include failures, or that do not say, have the planner's goodput taken out.

**Its error** is measured leave-one-run-out (:func:`loo_residuals`): each run is predicted from the
other runs only. The error printed for an estimate is the median over the runs of its GPU class
where the class has at least :data:`MIN_CLASS_RUNS`, else over every run; and its P10-P90 band is
drawn from those residuals. A GPU class with no published run gets its band from the
leave-one-class-out residuals (:func:`loco_residuals`: each run predicted with its whole class left
out), which are wider: that is how far the pooled term carries to a new class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis import flops
from analysis.benchmarks import load_benchmarks
from analysis.data import provenance
from analysis.data.load import derived, load_table
from analysis.hardware import gpu_name
from analysis.planner import memory
from analysis.planner.failures import goodput
from analysis.planner.inputs import PEAK_COLUMN, model_from_run
from analysis.planner.production_term import (  # noqa: F401  (the estimate's term, re-exported for callers)
    MODEL,
    PRIOR_RUNS,
    FactorFit,
    Variant,
    fit_factor,
    loco_residuals,
    loo_residuals,
)
from analysis.units import SECONDS_PER_DAY, SECONDS_PER_HOUR, TERA

MIN_FIT_ROWS = 6  # benchmark rows of one GPU type needed to fit the benchmark MFU on that type alone
MIN_CLASS_RUNS = 5  # published runs of one GPU class needed for its own error and band
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

    _precision_rows(PEAK_COLUMN[precision])  # the rows the fit rests on: their reads, noted again
    return _benchmark_fit(gpu_id, precision)


@derived  # a memo hit notes the first call's reads again (the ledger's provenance)
def _benchmark_rows() -> tuple:
    """The benchmark rows (:func:`analysis.benchmarks.load_benchmarks`) with each row's active
    parameters, read once per state of the data."""

    bench = load_benchmarks()
    active = load_table("models").set_index("model_id").loc[bench["model_id"], "active_params"].to_numpy(float)
    return bench, active


def precision_rows(column: str) -> tuple:
    """(the benchmark rows of one peak column, their active parameters)."""
    return _precision_rows(column)


@derived
def _precision_rows(column: str) -> tuple:
    """The benchmark rows of one peak column (``bf16`` or ``fp8``) with their active parameters,
    the report's included (the claims ledger's reads): filtered once per state of the data, not
    once for each run the planner's evidence predicts."""

    bench, active = _benchmark_rows()
    keep = (bench["precision"] == column).to_numpy()
    rows = bench[keep]
    provenance.note_rows("benchmarks", rows)
    return rows, active[keep]


@derived
def _benchmark_fit(gpu_id: str, precision: str) -> BenchmarkFit:

    column = PEAK_COLUMN[precision]
    bench, active = _precision_rows(column)
    own = (bench["gpu_id"] == gpu_id).to_numpy()
    if own.sum() >= MIN_FIT_ROWS:
        coef, *_ = np.linalg.lstsq(_design(active[own], bench["gpus"].to_numpy(float)[own]),
                                   bench["mfu"].to_numpy(float)[own], rcond=None)
        return BenchmarkFit(tuple(float(c) for c in coef), int(own.sum()),
                            f"{int(own.sum())} {gpu_name(gpu_id)} {column.upper()} rows")
    # Too few rows of its own: every GPU type's rows, each type with its own intercept and the
    # slopes shared, so that the slopes are not the differences between types; the intercept is
    # the mean of the types'.
    types = sorted(bench["gpu_id"].unique())
    onehot = np.column_stack([(bench["gpu_id"] == t).to_numpy(float) for t in types])
    x = np.column_stack([onehot, np.log10(active), np.log10(bench["gpus"].to_numpy(float))])
    coef, *_ = np.linalg.lstsq(x, bench["mfu"].to_numpy(float), rcond=None)
    scope = (f"{len(bench)} {column.upper()} rows of {len(types)} GPU types, each with its own intercept "
             f"({gpu_name(gpu_id)} has too few rows of its own: the types' mean intercept)")
    return BenchmarkFit((float(coef[:len(types)].mean()), float(coef[-2]), float(coef[-1])), len(bench), scope)


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
        # GPU-hours that exclude failures are compute alone; those that include them, or do not say, are paid hours
        good = 1.0 if r.get("gpu_hours_failures") == "excluded" else goodput(gpus)
        compute_gpu_s = float(r["published_gpu_hours"]) * SECONDS_PER_HOUR * good
        outcome, value = "gpu_hours", float(r["published_gpu_hours"])
    elif pd.isna(r["published_days"]):  # a throughput alone: the failure-free days it implies
        rate = (float(r["tokens_per_s_per_gpu"]) if pd.notna(r["tokens_per_s_per_gpu"]) else
                flops.tokens_per_s_from_achieved(float(r["achieved_tflops_per_gpu"]), r["flops_counted"], model))
        days = float(r["tokens"]) / rate / gpus / SECONDS_PER_DAY
        compute_gpu_s, outcome, value = days * SECONDS_PER_DAY * gpus, "days", days
    else:
        wall = r["days_basis"] == "wall clock"
        compute_gpu_s = float(r["published_days"]) * SECONDS_PER_DAY * gpus * (goodput(gpus) if wall else 1.0)
        outcome, value = ("days_with_failures" if wall else "days"), float(r["published_days"])
    return total_flop / (compute_gpu_s * peak), outcome, value


def recompute_factor(model) -> float:
    """Model FLOPs over the FLOPs the GPUs execute with full activation recomputation, for
    ``model``'s shape (about 3/4): the share of a fully recomputing run's GPU time that is model work."""
    return flops.model_flops_per_token(model) / flops.hardware_flops_per_token(model, recompute="full")


def time_is_upper_bound(r, outcome: str) -> bool:
    """Whether a row's published time (``outcome``: ``gpu_hours``, ``days`` or
    ``days_with_failures``) holds more than the run the planner plans, so that it bounds the run's
    time from above rather than measures it: ablations or later stages included, days of an access
    window, or days on "up to" N GPUs (fewer GPUs take longer)."""
    more = r.get("time_ablations") == "included" or r.get("time_later_stages") == "included"
    if outcome == "gpu_hours":
        return bool(more)
    return bool(more or r.get("days_basis") == "access window" or r.get("gpus_basis") == "upper bound")


def production_runs() -> pd.DataFrame:
    """The runs the MFU estimate is fitted to: :func:`timed_runs` whose published time measures the
    planned run (not an upper bound on it)."""
    table = _production_runs()
    return table[~table["upper_bound"]].reset_index(drop=True)


def timed_runs() -> pd.DataFrame:
    """One row per backtest run with a published time: ``run_id``, ``gpu_id``, ``gpu_class``,
    ``precision``, ``params``, ``gpus``, ``hidden_size``, ``ridge_flop_per_byte`` (the GPU's dense
    peak over its memory bandwidth), ``throughput_given``, ``outcome`` (the planner key of the time
    it reproduces), ``published``, ``implied_mfu``, ``benchmark_mfu``, ``log_ratio`` (log of implied
    over benchmark MFU), ``full_recompute`` and ``recompute_log`` (log :func:`recompute_factor` for
    a fully recomputing run, else 0), ``memory_pressure`` (:func:`analysis.planner.memory.memory_pressure`),
    ``model_parallel_gpus``, ``layout_source`` (its layout, published where the run states it, else
    the layout rule), ``size_band`` and ``upper_bound`` (:func:`time_is_upper_bound`). In file
    order; computed once per state of the data."""

    return _production_runs()


@derived  # a copy each call: a caller that edits it changes no one else's
def _production_runs() -> pd.DataFrame:

    runs = load_table("backtest_runs")
    timed = runs["published_gpu_hours"].notna() | runs["published_days"].notna()
    rated = runs["achieved_tflops_per_gpu"].notna() | runs["tokens_per_s_per_gpu"].notna()
    runs = runs[timed | rated].copy()
    gpus = load_table("gpus").set_index("gpu_id")
    runs["peak_tflops"] = [float(gpus.loc[g, f"{PEAK_COLUMN[p]}_dense_tflops"])
                           for g, p in zip(runs["gpu_id"], runs["precision"], strict=True)]
    rows = []
    for _, r in runs.iterrows():
        mfu, outcome, value = implied_mfu(r)
        bench = benchmark_mfu(r["gpu_id"], r["precision"], float(r["params"]), int(r["gpus"]))
        full = r["flops_counted"] == "hardware-full"  # the published throughput counts the recompute pass
        model = model_from_run(r)
        published = (int(r["tp"]), int(r["pp"])) if pd.notna(r.get("tp")) else None
        lay = memory.layout(model, int(r["gpus"]), r["gpu_id"], bool(full), published)
        rows.append({"run_id": r["run_id"], "gpu_id": r["gpu_id"], "gpu_class": gpu_class(r["gpu_id"]),
                     "precision": r["precision"], "params": float(r["params"]), "gpus": int(r["gpus"]),
                     "hidden_size": int(r["hidden_size"]),
                     "ridge_flop_per_byte": float(r["peak_tflops"]) / float(gpus.loc[r["gpu_id"], "memory_bandwidth_tbs"]),
                     "throughput_given": bool(pd.notna(r["achieved_tflops_per_gpu"]) or pd.notna(r["tokens_per_s_per_gpu"])),
                     "timed": bool(pd.notna(r["published_gpu_hours"]) or pd.notna(r["published_days"])), "outcome": outcome,
                     "published": value, "implied_mfu": mfu, "benchmark_mfu": bench,
                     "log_ratio": float(np.log(mfu / bench)), "full_recompute": bool(full),
                     "recompute_log": float(np.log(recompute_factor(model))) if full else 0.0,
                     "memory_pressure": float(memory.memory_pressure(model, int(r["gpus"]), r["gpu_id"], bool(full))),
                     "model_parallel_gpus": lay.model_parallel_gpus, "layout_source": lay.source,
                     "size_band": size_band(float(r["params"])), "upper_bound": time_is_upper_bound(r, outcome)})
    return pd.DataFrame(rows)


SIZE_BANDS = ((3e9, "under 3B"), (30e9, "3B to 30B"), (float("inf"), "over 30B"))  # by active parameters


def size_band(active_params: float) -> str:
    """The model-size band the backtest reports its error by: under 3B, 3B to 30B, over 30B."""
    return next(label for top, label in SIZE_BANDS if active_params < top)


# --- the estimate ----------------------------------------------------------------------------------------

@dataclass
class MfuEstimate:
    """An MFU estimate with its measured error: ``ratios`` are actual / predicted MFU of the runs
    its error is measured on (leave-one-out), the band's draws; ``median_abs_error`` and
    ``signed_median_error`` are on the time (GPU-hours) of those runs; ``memory_pressure`` is the
    plan's, and ``memory_factor`` what the memory slope makes of it."""

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
    recompute_factor: float = 1.0
    memory_pressure: float = 1.0
    memory_factor: float = 1.0

    @property
    def method(self) -> str:
        runs = f"{self.class_runs} published {self.gpu_class} run{'s' if self.class_runs != 1 else ''}"
        recompute = (f" x {self.recompute_factor:.2f} for full activation recomputation (model / hardware FLOPs)"
                     if self.recompute_factor != 1.0 else "")
        return (f"benchmark MFU {self.benchmark_mfu:.1%} ({self.benchmark}) x a production factor "
                f"{self.factor:.2f} ({runs}, pooled with all {self.runs}; of it {self.memory_factor:.2f} for a memory "
                f"pressure of {self.memory_pressure:.2g} GPUs' worth of HBM per model copy){recompute}")

    def to_json(self) -> dict:
        return {"mfu": self.mfu, "benchmark_mfu": self.benchmark_mfu, "production_factor": self.factor,
                "gpu_class": self.gpu_class, "class_runs": self.class_runs, "runs": self.runs,
                "recompute_factor": self.recompute_factor, "memory_pressure": self.memory_pressure,
                "memory_factor": self.memory_factor,
                "error_scope": self.error_scope, "loo_median_abs_error_gpu_hours": self.median_abs_error,
                "loo_signed_median_error_gpu_hours": self.signed_median_error}


def estimate_mfu(gpu_id: str, precision: str, active_params: float, gpus: int,
                 exclude_run: str | None = None, recompute: float = 1.0, memory_pressure: float = 1.0) -> MfuEstimate:
    """The MFU of a run of ``active_params`` on ``gpus`` ``gpu_id``s at ``precision``, from the
    benchmark fit and the production runs other than ``exclude_run`` (see the module docstring);
    ``recompute`` is :func:`recompute_factor` for a run that fully recomputes its activations, else 1;
    ``memory_pressure`` is the run's (:func:`analysis.planner.memory.memory_pressure`)."""

    if not 0.0 < recompute <= 1.0:
        raise ValueError(f"recompute must be a fraction in (0, 1], not {recompute!r}")
    if not memory_pressure > 0.0:
        raise ValueError(f"memory_pressure must be positive, not {memory_pressure!r}")
    cls = gpu_class(gpu_id)
    fit, runs, class_runs, residuals, scope = _evidence(exclude_run, cls)
    bench = benchmark_mfu(gpu_id, precision, active_params, gpus)
    factor = float(np.exp(fit.log_factor(cls, active_params, memory_pressure)))
    errors = residuals - 1.0  # on the time: predicted / published - 1
    return MfuEstimate(float(np.clip(bench * factor * recompute, *MFU_LIMITS)), bench, factor, cls, class_runs, runs,
                       residuals, scope, float(np.median(np.abs(errors))), float(np.median(errors)),
                       benchmark_fit(gpu_id, precision).describe(), float(recompute), float(memory_pressure),
                       float(np.exp(fit.memory_slope * np.log10(memory_pressure))))


@derived
def _evidence(exclude_run: str | None, cls: str):
    """(fit, runs, runs of ``cls``, actual / predicted MFU ratios of the band, their scope)."""
    table = production_runs()
    if exclude_run is not None:
        table = table[table["run_id"] != exclude_run]
    fit = fit_factor(table)
    n_class = fit.class_runs(cls)
    if n_class >= MIN_CLASS_RUNS:
        residuals = _loo(exclude_run)[table["gpu_class"].eq(cls).to_numpy()]
        scope = f"leave-one-run-out over the {n_class} published {cls} runs"
    elif n_class > 0:
        residuals = _loo(exclude_run)
        scope = f"leave-one-run-out over all {len(table)} published runs ({cls} has {n_class}, too few for its own)"
    else:
        residuals = loco_residuals(table)
        scope = (f"over all {len(table)} published runs, each predicted with its whole GPU class left out "
                 f"({cls} has no published run)")
    return fit, len(table), n_class, np.exp(residuals.to_numpy(float)), scope


@derived
def _loo(exclude_run: str | None) -> pd.Series:
    table = production_runs()
    if exclude_run is not None:
        table = table[table["run_id"] != exclude_run]
    return loo_residuals(table)


def estimate_mfu_curve(gpu_id: str, precision: str, active_params: float, gpus, exclude_run: str | None = None,
                       recompute: float = 1.0, memory_pressure=1.0) -> np.ndarray:
    """:func:`estimate_mfu`'s MFU at many job sizes at once (``gpus`` and ``memory_pressure``
    arrays of one shape): the same arithmetic, for the inverse modes' search over job sizes."""
    cls = gpu_class(gpu_id)
    fit = _evidence(exclude_run, cls)[0]
    gpus = np.asarray(gpus, dtype=float)
    bench = np.clip(benchmark_fit(gpu_id, precision).predict(active_params, gpus), *MFU_LIMITS)
    factor = np.exp(fit.log_factor(cls, active_params, np.asarray(memory_pressure, dtype=float)))
    return np.clip(bench * factor * recompute, *MFU_LIMITS)
