"""The planner against published training runs (``data/backtest_runs.csv``), each predicted from
its inputs alone, leave-one-run-out: a run's MFU estimate is never fitted to that run.

Two passes:

- :func:`as_published`: what a user with the paper in hand would get. The planner gets the
  published shape, tokens, GPU type and count, the published throughput with the FLOPs it counts
  where there is one (else the MFU estimate without this run), the published price where the
  outcome is a cost, and each energy and CO2 on its source's basis (GPU TDP or facility, the PUE
  it applied, the grid it used). Every other input is the book's default.
- :func:`estimated`: the MFU estimate's own test. Every run's throughput is withheld, so each
  run's time (GPU-hours, else days) is predicted from the estimate without it.

The error is predicted / published - 1; ``within_band`` says whether the published value lies in
the prediction's P10-P90.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from analysis.data.load import load_table, row
from analysis.planner.core import plan
from analysis.planner.inputs import PlanError, PlanInputs, model_from_run
from analysis.planner.mfu import MIN_CLASS_RUNS, gpu_class, production_runs
from analysis.planner.power import power_for

OUTCOMES = (  # backtest column -> (planner key, label)
    ("published_days", None, "days"),
    ("published_gpu_hours", "gpu_hours", "GPU-hours"),
    ("published_energy_mwh", "energy_mwh", "energy (MWh)"),
    ("published_co2_t", "co2_t", "CO2 (t)"),
    ("published_cost_usd", "cost_usd", "cost (USD)"),
)
DRAWS = 1_000  # per run: the band's percentiles are stable to about 1 % at this count


# The planner basis each published energy is set against: a GPU's measured power against its TDP
# (the rated board power), a measured node or system power against the all-in IT power.
PLANNER_BASIS = {"gpu-tdp": "gpu-tdp", "measured-gpu": "gpu-tdp", "measured-system": "facility"}


def has_throughput(r) -> bool:
    return bool(pd.notna(r["achieved_tflops_per_gpu"]) or pd.notna(r["tokens_per_s_per_gpu"]))


def inputs_for(r, *, throughput: bool = True, pue_column: str = "energy_pue") -> PlanInputs:
    """The planner's inputs for one backtest row: its published inputs (its throughput only when
    ``throughput``), its source's energy basis, the PUE inside the published figure of
    ``pue_column`` (``energy_pue`` or ``co2_pue``) and its grid, the book's defaults for the rest,
    and the row itself left out of the MFU estimate."""
    tflops = throughput and pd.notna(r["achieved_tflops_per_gpu"])
    rate = throughput and pd.notna(r["tokens_per_s_per_gpu"])
    price, pue = r["published_usd_per_gpu_hour"], r[pue_column]
    return PlanInputs(
        model=model_from_run(r), tokens=float(r["tokens"]), gpu_id=r["gpu_id"], gpus=int(r["gpus"]),
        precision=r["precision"], achieved_tflops=float(r["achieved_tflops_per_gpu"]) if tflops else None,
        flops_counted=r["flops_counted"] if tflops else None,
        tokens_per_s_per_gpu=float(r["tokens_per_s_per_gpu"]) if rate else None,
        usd_per_gpu_hour=float(price) if pd.notna(price) else None,
        pue=float(pue) if pd.notna(pue) else None,
        energy_basis=PLANNER_BASIS[r["energy_basis"]] if pd.notna(r["energy_basis"]) else None,
        grid_id=r["grid_id"] if pd.notna(r["grid_id"]) else None,
        full_recompute=bool(r["flops_counted"] == "hardware-full"),  # how the run was set up, kept when its throughput is withheld
        exclude_run=r["run_id"], draws=DRAWS)


BASIS_WORDS = {"gpu-tdp": "GPU TDP", "measured-gpu": "measured GPU power, against the TDP",
               "measured-system": "measured system power, against all-in IT power"}


def basis_words(r, key: str) -> str:
    """How a published energy or CO2 was counted, in a few words ('GPU TDP, PUE 1.1, US average')."""
    if key not in ("energy_mwh", "co2_t"):
        return ""

    pue = r["energy_pue"] if key == "energy_mwh" else r["co2_pue"]
    words = BASIS_WORDS[r["energy_basis"]] + (f", PUE {float(pue):g}" if pd.notna(pue) else ", no PUE")
    if key == "co2_t" and pd.notna(r["grid_id"]):
        g = row("grid_carbon", r["grid_id"])
        words += f", {g['name']} ({float(g['kg_co2_per_kwh']) * 1000:.0f} g/kWh)"
    return words


def as_published(runs: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per (run, published outcome): published, predicted (with P10 and P90), error."""

    runs = load_table("backtest_runs") if runs is None else runs
    out = []
    for _, r in runs.iterrows():
        try:
            result = plan(inputs_for(r))
        except PlanError:  # the source's basis is one the planner lacks for this accelerator
            result = plan(replace(inputs_for(r), energy_basis=None))
            basis_ok = False
        else:
            basis_ok = True
        co2 = result
        if basis_ok and pd.notna(r["published_co2_t"]) and not _same(r["energy_pue"], r["co2_pue"]):
            co2 = plan(inputs_for(r, pue_column="co2_pue"))
        throughput = "published" if has_throughput(r) else "estimated"
        for column, key, label in OUTCOMES:
            if pd.isna(r[column]) or (key in ("energy_mwh", "co2_t") and not basis_ok):
                continue
            if column == "published_days":
                key = "days" if r["days_basis"] == "no failures" else "days_with_failures"
                label = f"days ({r['days_basis']})"
            pred = (co2 if key == "co2_t" else result).results[key]
            if pred["value"] is None:
                continue
            published = float(r[column])
            out.append({"run_id": r["run_id"], "name": r["name"], "kind": r["kind"], "gpu_id": r["gpu_id"],
                        "gpu_class": gpu_class(r["gpu_id"]), "outcome": label, "key": key,
                        "basis": basis_words(r, key), "published": published, "predicted": pred["value"],
                        "p10": pred["p10"], "p90": pred["p90"], "error_frac": pred["value"] / published - 1.0,
                        "within_band": bool(pred["p10"] <= published <= pred["p90"]), "throughput": throughput,
                        "mfu": result.steps["mfu"], "gpus_basis": r["gpus_basis"]})
    return pd.DataFrame(out)


def _same(a, b) -> bool:
    return (pd.isna(a) and pd.isna(b)) or (pd.notna(a) and pd.notna(b) and float(a) == float(b))


def not_compared(runs: pd.DataFrame | None = None) -> pd.DataFrame:
    """Published energies and CO2 the backtest cannot set beside the planner's on their source's
    basis, and why (the planner has no sourced power build-up for the accelerator)."""

    runs = load_table("backtest_runs") if runs is None else runs
    out = []
    for _, r in runs[runs["energy_basis"].notna()].iterrows():
        p = power_for(r["gpu_id"])
        if p.w_per_gpu(PLANNER_BASIS[r["energy_basis"]]) is None:
            out.append({"run_id": r["run_id"], "name": r["name"], "gpu_id": r["gpu_id"], "basis": BASIS_WORDS[r["energy_basis"]],
                        "reason": p.it_how if PLANNER_BASIS[r["energy_basis"]] == "facility" else p.tdp_how})
    return pd.DataFrame(out, columns=["run_id", "name", "gpu_id", "basis", "reason"])


def estimated(runs: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per run with a published time, its throughput withheld: the time the MFU estimate
    (fitted without the run) predicts against the published one, with the band."""

    runs = (load_table("backtest_runs") if runs is None else runs).set_index("run_id", drop=False)
    out = []
    for p in production_runs().itertuples():
        r = runs.loc[p.run_id]
        result = plan(replace(inputs_for(r, throughput=False), energy_basis=None))
        pred = result.results[p.outcome]
        est = result.throughput["estimate"]
        out.append({"run_id": p.run_id, "name": r["name"], "gpu_id": p.gpu_id, "gpu_class": p.gpu_class,
                    "throughput_given": p.throughput_given, "outcome": p.outcome, "published": p.published,
                    "predicted": pred["value"], "p10": pred["p10"], "p90": pred["p90"],
                    "error_frac": pred["value"] / p.published - 1.0,
                    "within_band": bool(pred["p10"] <= p.published <= pred["p90"]),
                    "mfu_estimated": result.steps["mfu"], "mfu_implied": p.implied_mfu,
                    "production_factor": est["production_factor"], "gpus_basis": r["gpus_basis"]})
    return pd.DataFrame(out)


def by_class(table: pd.DataFrame) -> pd.DataFrame:
    """Per GPU class of an :func:`estimated` table: runs, median |error|, signed median error and
    how many published values lie inside the band; ``enough`` marks classes with at least
    :data:`MIN_CLASS_RUNS` runs (the ones the targets hold to)."""
    rows = []
    for cls, g in table.groupby("gpu_class"):
        rows.append({"gpu_class": cls, "runs": len(g), "median_abs_error_frac": float(g["error_frac"].abs().median()),
                     "signed_median_error_frac": float(g["error_frac"].median()),
                     "within_band_count": int(g["within_band"].sum()), "enough": len(g) >= MIN_CLASS_RUNS})
    return pd.DataFrame(rows).sort_values(["runs", "gpu_class"], ascending=[False, True]).reset_index(drop=True)


def median_abs(errors) -> float:
    errors = np.abs(np.asarray(errors, dtype=float))
    return float(np.median(errors)) if len(errors) else float("nan")
