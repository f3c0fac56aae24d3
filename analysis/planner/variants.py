"""Forms of the MFU estimate's production term (:mod:`analysis.planner.mfu`), each measured
leave-one-run-out the same way, and the error of picking among them by that measure.

Every form in :data:`VARIANTS` is fitted to all runs but one and predicts that one. Choosing the
form with the lowest of these errors and printing its error would let the choice see every run, so
:func:`selected_loo_residuals` also measures the choice itself: for each run, the form is chosen on
the other runs alone (by their own leave-one-out error), then fitted to them and asked for the run.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.planner.backtest import median_abs
from analysis.planner.mfu import MIN_CLASS_RUNS, production_runs
from analysis.planner.production_term import (
    MODEL,
    PRIOR_RUNS,
    Variant,
    loo_arrays,
    loo_residuals,
    predict_term,
    solve_term,
    term_arrays,
)

_W = PRIOR_RUNS
VARIANTS = (  # (key, label, variant or None for the benchmark fit alone)
    ("benchmark_only", "benchmark fit alone", None),
    ("class_factors", "a factor per GPU class", Variant("none", recompute=False)),
    ("shared_slope", "a factor per class and one size slope", Variant("shared", recompute=False)),
    ("class_slopes", f"a factor and a size slope per class, pooled with the weight of {_W:g} runs (the planner's "
                     "before recomputation was counted)", Variant("class", recompute=False)),
    *((f"class_slopes_prior_{w:g}", f"the same, pooled with the weight of {w:g} run{'s' if w != 1 else ''}",
       Variant("class", w, recompute=False)) for w in (_W / 2, _W * 2)),
    ("recompute_class_factors", "full recomputation counted: a factor per GPU class", Variant("none")),
    ("recompute_shared_slope", "full recomputation counted: a factor per class and one size slope", Variant("shared")),
    ("recompute_class_slopes", f"full recomputation counted: a factor and a size slope per class, pooled with the "
                               f"weight of {_W:g} runs (the planner's before its memory term)", Variant()),
    *((f"recompute_class_slopes_prior_{w:g}", f"full recomputation counted, pooled with the weight of {w:g} "
       f"run{'s' if w != 1 else ''}", Variant("class", w)) for w in (_W / 2, _W * 2)),
    ("recompute_class_slopes_huber", "full recomputation counted, a slope per class, fitted with Huber weights",
     Variant("class", robust=True)),
    ("recompute_ridge_shared", "full recomputation counted: a factor per class and one slope on the GPU's ridge "
                               "point over the hidden size", Variant("shared", term="ridge_over_hidden")),
    ("recompute_ridge_class", "full recomputation counted, a slope per class on the ridge point over the hidden size",
     Variant("class", term="ridge_over_hidden")),
    ("recompute_params_per_gpu_class", "full recomputation counted, a slope per class on the parameters per GPU",
     Variant("class", term="params_per_gpu")),
    ("recompute_gpus_class", "full recomputation counted, a slope per class on the GPU count", Variant("class", term="gpus")),
    ("recompute_class_slopes_memory", "full recomputation counted, a size slope per class and one slope on the memory "
                                      "pressure (the planner's)", MODEL),
    ("recompute_class_slopes_model_parallel", "full recomputation counted, a size slope per class and one slope on the "
                                              "GPUs per model copy (published layouts where stated, else the layout rule)",
     Variant("class", memory="model_parallel")),
    ("recompute_pressure_class", "full recomputation counted, a slope per class on the memory pressure instead of the size",
     Variant("class", term="pressure")),
)
PLANNER_KEY = "recompute_class_slopes_memory"


def _errors(table: pd.DataFrame, variant: Variant | None) -> np.ndarray:
    """Predicted / published time - 1 (= implied / predicted MFU - 1) of each run, leave-one-run-out."""
    if variant is None:
        return np.exp(table["log_ratio"].to_numpy(float)) - 1.0
    return np.exp(loo_residuals(table, variant).to_numpy(float)) - 1.0


def selected_loo_residuals(table: pd.DataFrame, variants=VARIANTS, errors: dict | None = None) -> pd.DataFrame:
    """The choice among ``variants`` measured leave-one-run-out: for each run, the variant with the
    lowest leave-one-out median |error| over the other runs with no published throughput (ties to
    the earlier in the list) is fitted to those runs and predicts the run. ``errors`` (key ->
    :func:`_errors`) saves recomputing each variant's own leave-one-out errors. Columns ``run_id``,
    ``chosen`` (its key) and ``error_frac`` (predicted / published time - 1)."""
    fitted = [(key, v, term_arrays(table, v)) for key, _, v in variants if v is not None]
    errors = errors or {}
    outer = [errors[key] if key in errors else _errors(table, v) for key, v, _ in fitted]
    blind = ~table["throughput_given"].to_numpy()
    rows = []
    for i in range(len(table)):
        rest = np.ones(len(table), bool)
        rest[i] = False
        scores = [median_abs(np.exp(loo_arrays(codes, z, y, len(c), v, rest)[rest & blind]) - 1.0)
                  for _, v, (c, codes, z, y) in fitted]  # run i is seen by none of them
        best = int(np.argmin(scores))
        rows.append({"run_id": table["run_id"].iloc[i], "chosen": fitted[best][0], "error_frac": float(outer[best][i])})
    return pd.DataFrame(rows)


def model_variants(table: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per form of :data:`VARIANTS`: ``key``, ``label``, the leave-one-run-out median
    |error| on time over runs with no published throughput and over every run, and the signed
    median per GPU class with at least :data:`MIN_CLASS_RUNS` runs; the last row is the choice
    among them made inside the leave-one-out (:func:`selected_loo_residuals`)."""
    table = production_runs() if table is None else table
    blind = ~table["throughput_given"].to_numpy()
    classes = [c for c, n in table["gpu_class"].value_counts().items() if n >= MIN_CLASS_RUNS]

    def row(key, label, errors):
        out = {"key": key, "label": label, "estimated_median_abs_error_frac": median_abs(errors[blind]),
               "all_median_abs_error_frac": median_abs(errors)}
        for cls in classes:
            out[f"{cls} signed median"] = float(np.median(errors[(table["gpu_class"] == cls).to_numpy()]))
        return out

    errors = {key: _errors(table, v) for key, _, v in VARIANTS}
    rows = [row(key, label, errors[key]) for key, label, _ in VARIANTS]
    chosen = selected_loo_residuals(table, errors=errors)
    rows.append(row("selected", "the form with the lowest error on the other runs, chosen again for each run "
                                "(the choice inside the leave-one-out)", chosen["error_frac"].to_numpy(float)))
    return pd.DataFrame(rows)


def fitted_slopes(variant: Variant, table: pd.DataFrame | None = None) -> dict:
    """GPU class -> the slope of ``variant``'s term for that class, fitted to every run (per decade of
    its variable: a positive slope on the GPU count says a bigger job runs at a higher MFU)."""
    table = production_runs() if table is None else table
    classes, codes, z, y = term_arrays(table, variant)
    coef = solve_term(codes, z, y, len(classes), variant)
    return {c: predict_term(coef, len(classes), i, 1.0, variant) - predict_term(coef, len(classes), i, 0.0, variant)
            for i, c in enumerate(classes)}
