"""Step 3 of the MFU estimate (:mod:`analysis.planner.mfu`): the production term, fitted to the
published runs' production-versus-benchmark terms (a :func:`analysis.planner.mfu.production_runs`
frame), and its leave-one-run-out and leave-one-class-out residuals. The forms it can take are
:class:`Variant`; :data:`MODEL` is the planner's."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

# Weight, in runs, of all classes' intercept and slope in a class's own. Two: a class's own runs
# count for half at two runs and for most of the term from five on. A round prior, not fitted to
# the backtest; the plan chapter shows how the backtest's error moves with it.
PRIOR_RUNS = 2.0

# --- the production term, and its leave-one-out residuals --------------------------------------------
#
# log ratio_i = a_c + (b + b_c) (log10 N_i - 10) [+ m log10 M_i] + e_i for run i of GPU class c, M_i its
# memory pressure (:func:`analysis.planner.memory.memory_pressure`), fitted by least
# squares with two pseudo-rows per class: sqrt(PRIOR_RUNS) (a_c - a_0) = 0 pulls each class's
# intercept toward a_0 (the mean over classes), and sqrt(PRIOR_RUNS) b_c = 0 pulls its size slope
# toward the slope b shared by all classes, each with the weight of PRIOR_RUNS runs. A class with
# no run predicts a_0 + b (log10 N - 10). Production runs of small models fall further below the
# benchmarks than large ones, and by more on some GPUs than on others (Meta's H100 runs).

HUBER_K, HUBER_ITERATIONS = 1.345, 10  # IRLS settles to 1e-4 within ten steps on these runs
SIZE_CENTRE = 10.0  # log10(active params) the slopes are centred on (10B), so a_c reads as a 10B run's term


@dataclass(frozen=True)
class Variant:
    """A form of the production term: ``slopes`` ``"none"`` (class intercepts alone), ``"shared"``
    (one slope for all classes) or ``"class"`` (a slope per class, pooled toward the shared one);
    ``prior_runs`` is the pooling weight; ``term`` what the slope is on (:data:`TERMS`);
    ``recompute`` whether a fully recomputing run's term is taken on the basis of a run without it
    (:func:`recompute_factor`); ``robust`` fits with Huber weights; ``memory`` adds one slope on
    the log of a second variable (:data:`MEMORY_TERMS`: the memory pressure, or the model-parallel
    degree). :data:`MODEL` is the planner's; the others are compared in the plan chapter's
    backtest only."""

    slopes: str = "class"
    prior_runs: float = PRIOR_RUNS
    term: str = "params"
    recompute: bool = True
    robust: bool = False  # Huber weights (k = 1.345 robust SDs) instead of least squares
    memory: str | None = None  # a key of MEMORY_TERMS, or None
    memory_prior: float = PRIOR_RUNS  # weight, in runs, pulling the memory slope toward 0


# What a variant's slope is on, in decades and centred: log10(active params) - 10 (the planner's);
# log10 of the GPU's ridge point (dense peak / memory bandwidth, FLOP per byte) over the hidden size,
# + 1.5, which sets the share of time in memory-bound, non-GEMM work (norms, activations, optimizer)
# against the GEMMs, whose FLOPs per layer grow as the hidden size squared; log10(active params per GPU) - 7, a small model spread over many
# GPUs; log10(GPUs) - 3, the job's scale; log10 of the memory pressure, how hard the model presses on HBM.
TERMS = {"params": lambda t: np.log10(t["params"].to_numpy(float)) - SIZE_CENTRE,
         "params_per_gpu": lambda t: np.log10(t["params"].to_numpy(float) / t["gpus"].to_numpy(float)) - 7.0,
         "ridge_over_hidden": lambda t: np.log10(t["ridge_flop_per_byte"].to_numpy(float) / t["hidden_size"].to_numpy(float)) + 1.5,
         "gpus": lambda t: np.log10(t["gpus"].to_numpy(float)) - 3.0,
         "pressure": lambda t: np.log10(t["memory_pressure"].to_numpy(float))}


# The second, shared slope: log10 of the memory pressure (the planner's), or log2 of the GPUs per
# model copy of the run's layout (published where stated, else the layout rule), both from
# :mod:`analysis.planner.memory`.
MEMORY_TERMS = {"pressure": lambda t: np.log10(t["memory_pressure"].to_numpy(float)),
                "model_parallel": lambda t: np.log2(t["model_parallel_gpus"].to_numpy(float))}

MODEL = Variant(memory="pressure")


@dataclass(frozen=True)
class FactorFit:
    """Fitted production terms: ``a0`` and ``slope`` (a class with no run), ``by_class`` (class ->
    (intercept, slope, runs)); slopes per decade of active parameters; ``memory_slope`` per decade
    of memory pressure (0 for a form without it)."""

    a0: float
    slope: float
    by_class: dict
    runs: int
    memory_slope: float = 0.0

    def log_factor(self, cls: str, active_params, memory_pressure=1.0):
        a, b, _ = self.by_class.get(cls, (self.a0, self.slope, 0))
        return a + b * (np.log10(active_params) - SIZE_CENTRE) + self.memory_slope * np.log10(memory_pressure)

    def class_runs(self, cls: str) -> int:
        return self.by_class.get(cls, (0.0, 0.0, 0))[2]


def solve_term(codes: np.ndarray, z: np.ndarray, y: np.ndarray, k: int, variant: Variant) -> np.ndarray:
    """Least-squares coefficients [a0, a_1..a_k, (b, (b_1..b_k))] for runs of class ``codes``
    (0..k-1), centred log sizes ``z`` and log ratios ``y``, with the pooling pseudo-rows."""
    return fit_term(codes, z, y, k, variant)[0]


def fit_term(codes: np.ndarray, z: np.ndarray, y: np.ndarray, k: int, variant: Variant):
    """(coefficients, design, normal matrix) of :func:`solve_term`."""
    n = len(y)
    z, mem = _split(z, variant)
    shared, per_class = variant.slopes in ("shared", "class"), variant.slopes == "class"
    cols = 1 + k + shared + (k if per_class else 0) + (mem is not None)
    pulled = mem is not None and variant.memory_prior > 0
    x = np.zeros((n + k * (1 + per_class) + pulled, cols))
    rows = np.arange(n)
    x[rows, 1 + codes] = 1.0
    if shared:
        x[:n, 1 + k] = z
    if per_class:
        x[rows, 2 + k + codes] = z
    if mem is not None:  # the shared memory slope, last
        x[:n, -1] = mem
    if pulled:  # pulled toward no effect with the weight of memory_prior runs, as a class's terms toward all classes'
        x[-1, -1] = np.sqrt(variant.memory_prior)
    w = np.sqrt(variant.prior_runs)
    x[n + np.arange(k), 0] = -w
    x[n + np.arange(k), 1 + np.arange(k)] = w
    if per_class:
        x[n + k + np.arange(k), 2 + k + np.arange(k)] = w
    target = np.concatenate([y, np.zeros(len(x) - n)])
    weights = np.ones(len(x))
    for _ in range(1 + (HUBER_ITERATIONS if variant.robust else 0)):
        xw = x * weights[:, None]  # the normal equations: the pseudo-rows keep them full rank
        normal = xw.T @ x
        coef = np.linalg.solve(normal, xw.T @ target)
        if not variant.robust:
            break
        # Huber M-estimate by reweighted least squares: a residual beyond k robust SDs (1.4826 MAD;
        # Huber's k = 1.345, 95 % efficient for normal errors) weighs k SDs / |residual| of a run
        r = np.abs(target[:n] - x[:n] @ coef)
        scale = 1.4826 * float(np.median(np.abs(r - np.median(r)))) or 1.0
        new = np.minimum(1.0, HUBER_K * scale / np.maximum(r, 1e-12))
        if np.allclose(new, weights[:n], atol=1e-4):
            break
        weights[:n] = new
    return coef, x, normal


def _split(z: np.ndarray, variant: Variant):
    """(the slope's variable, the memory variable or None): a form with a memory slope carries
    both as the two columns of ``z`` (one row per run), so that ``z[keep]`` and ``z[i]`` select runs."""
    z = np.asarray(z, dtype=float)
    if variant.memory is None:
        return z, None
    return (z[..., 0], z[..., 1])


def term_arrays(table: pd.DataFrame, variant: Variant = MODEL):
    """(classes, class codes, the slope's variable (with the memory variable as a second column
    for a form that has one), the production terms the fit is on)."""
    classes = sorted(table["gpu_class"].unique())
    codes = table["gpu_class"].map({c: i for i, c in enumerate(classes)}).to_numpy(int)
    y = table["log_ratio"].to_numpy(float) - (table["recompute_log"].to_numpy(float) if variant.recompute else 0.0)
    z = TERMS[variant.term](table)
    if variant.memory is not None:
        z = np.column_stack([z, MEMORY_TERMS[variant.memory](table)])
    return classes, codes, z, y


def predict_term(coef: np.ndarray, k: int, code: int | None, z, variant: Variant) -> float:
    """The log factor for a run of class ``code`` (None: a class with no run) and size ``z`` (with
    its memory variable, a pair, for a form that has one)."""
    z, mem = _split(z, variant)
    shared, per_class = variant.slopes in ("shared", "class"), variant.slopes == "class"
    a = coef[0] if code is None else coef[1 + code]
    b = (coef[1 + k] if shared else 0.0) + (coef[2 + k + code] if per_class and code is not None else 0.0)
    return float(a + b * z + (coef[-1] * mem if mem is not None else 0.0))


def fit_factor(table: pd.DataFrame, variant: Variant = MODEL) -> FactorFit:
    """:class:`FactorFit` over the rows of ``table`` (a :func:`production_runs` frame)."""
    if variant.term != "params":
        raise ValueError(f"fit_factor predicts on active parameters; a {variant.term!r} term is for the backtest's comparison")
    if table.empty:
        return FactorFit(0.0, 0.0, {}, 0)
    if variant.memory not in (None, "pressure"):
        raise ValueError(f"fit_factor predicts on the memory pressure; a {variant.memory!r} term is for the backtest's comparison")
    classes, codes, z, y = term_arrays(table, variant)
    k = len(classes)
    coef = solve_term(codes, z, y, k, variant)
    counts = np.bincount(codes, minlength=k)

    def at(code, size):
        return predict_term(coef, k, code, (size, 0.0) if variant.memory else size, variant)

    slope = at(None, 1.0) - at(None, 0.0)
    by_class = {c: (at(i, 0.0), at(i, 1.0) - at(i, 0.0), int(counts[i])) for i, c in enumerate(classes)}
    return FactorFit(float(coef[0]), slope, by_class, len(table), float(coef[-1]) if variant.memory else 0.0)


def loo_residuals(table: pd.DataFrame, variant: Variant = MODEL) -> pd.Series:
    """Each run's log(implied / predicted MFU), the prediction fitted to every other run of
    ``table`` (leave-one-run-out), by ``run_id``. exp(residual) - 1 is the error on its time."""
    classes, codes, z, y = term_arrays(table, variant)
    return pd.Series(loo_arrays(codes, z, y, len(classes), variant), index=table["run_id"].to_numpy(), dtype=float)


def loo_arrays(codes: np.ndarray, z: np.ndarray, y: np.ndarray, k: int, variant: Variant,
               among: np.ndarray | None = None) -> np.ndarray:
    """:func:`loo_residuals` on arrays (:func:`term_arrays`), among the runs of the mask ``among``
    (default all; the others are neither fitted nor predicted, NaN in the result)."""
    among = np.ones(len(y), bool) if among is None else among
    out = np.full(len(y), np.nan)
    if not variant.robust:
        # Least squares: the refit without run i leaves it the residual r_i / (1 - h_ii), h the hat
        # matrix of the fit to all (pseudo-rows included). Exact, also where run i is its class's
        # only one: the class's pseudo-rows then pin it to all classes' intercept and slope, the
        # prediction of a class with no run. tests/test_planner.py checks it against the refits.
        coef, x, normal = fit_term(codes[among], z[among], y[among], k, variant)
        n = int(among.sum())
        hat = np.einsum("ij,ji->i", x[:n], np.linalg.solve(normal, x[:n].T))
        out[among] = (y[among] - x[:n] @ coef) / (1.0 - hat)
        return out
    for i in np.flatnonzero(among):
        keep = among.copy()
        keep[i] = False
        rest = codes[keep]
        present = np.unique(rest)  # a class whose only run is left out is a class with no run
        remap = -np.ones(k, int)
        remap[present] = np.arange(len(present))
        coef = solve_term(remap[rest], z[keep], y[keep], len(present), variant)
        code = None if remap[codes[i]] < 0 else int(remap[codes[i]])
        out[i] = y[i] - predict_term(coef, len(present), code, z[i], variant)
    return out


def loco_residuals(table: pd.DataFrame, variant: Variant = MODEL) -> pd.Series:
    """Each run's log(implied / predicted MFU) with its whole GPU class left out of the fit (the
    error on a GPU class with no published run), by ``run_id``."""
    classes, codes, z, y = term_arrays(table, variant)
    out = np.empty(len(y))
    for c in range(len(classes)):
        rest = codes != c
        present = np.unique(codes[rest])
        remap = -np.ones(len(classes), int)
        remap[present] = np.arange(len(present))
        coef = solve_term(remap[codes[rest]], z[rest], y[rest], len(present), variant)
        for i in np.flatnonzero(~rest):
            out[i] = y[i] - predict_term(coef, len(present), None, z[i], variant)
    return pd.Series(out, index=table["run_id"].to_numpy(), dtype=float)
