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

Each published time is compared on its own basis (the row's ``gpu_hours_failures``,
``days_basis``, ``time_ablations``, ``time_later_stages`` and ``gpus_basis``, :func:`time_prediction`):
GPU-hours without failures against the planner's compute alone (GPUs x days without failures),
GPU-hours with failures against its paid GPU-hours, GPU-hours that do not say against the paid ones
with a band that spans both; and a time that holds more than the planned run (ablations, later
stages, an access window, days on "up to" N GPUs) is an upper bound, not a measurement: it is
checked (``holds``: the prediction's P10 does not exceed it) and left out of the error's medians and
the band's coverage. A throughput whose FLOP convention the source states, or a published total
pins, is given with it; one whose convention is our reading is given without, so the band spans the
conventions (:mod:`analysis.planner.rates`).

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
from analysis.planner.mfu import MIN_CLASS_RUNS, gpu_class, time_is_upper_bound, timed_runs
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
    known = r.get("flops_counted_basis") in ("stated", "derived")  # our reading of a convention is not given
    return PlanInputs(
        model=model_from_run(r), tokens=float(r["tokens"]), gpu_id=r["gpu_id"], gpus=int(r["gpus"]),
        precision=r["precision"], achieved_tflops=float(r["achieved_tflops_per_gpu"]) if tflops else None,
        flops_counted=r["flops_counted"] if tflops and known else None,
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


BASIS_OF_GPU_HOURS = {"excluded": "failures excluded", "included": "failures included",
                      "unknown": "failures not said: the band spans both"}


def time_prediction(result, r, outcome: str) -> dict:
    """The planner's prediction of a published time on the time's own basis: ``predicted``, ``p10``,
    ``p90``, ``basis`` (words), ``comparison`` (``"point"``, or ``"upper bound"`` for a time that
    holds more than the planned run, :func:`analysis.planner.mfu.time_is_upper_bound`)."""
    q = result.results
    if outcome == "gpu_hours":
        hours = int(r["gpus"]) * 24.0
        free = {k: q["days"][k] * hours for k in ("value", "p10", "p90")}  # compute alone: GPUs x failure-free days
        paid = q["gpu_hours"]
        basis = r["gpu_hours_failures"]
        if basis == "excluded":
            pred = free
        elif basis == "included":
            pred = paid
        else:
            pred = {"value": paid["value"], "p10": min(free["p10"], paid["p10"]), "p90": paid["p90"]}
        words = BASIS_OF_GPU_HOURS[basis]
    else:
        pred = q[outcome]
        words = "no failures" if outcome == "days" else r["days_basis"]
    bound = time_is_upper_bound(r, outcome)
    extra = [what for what, col in (("ablations", "time_ablations"), ("later stages", "time_later_stages"))
             if r.get(col) == "included"]
    if bound:
        words += "; an upper bound: " + (", ".join(extra) + " included" if extra else
                                         "an access window" if r.get("days_basis") == "access window" else
                                         "on up to the GPUs given")
    return {"predicted": pred["value"], "p10": pred["p10"], "p90": pred["p90"], "basis": words,
            "comparison": "upper bound" if bound else "point"}


def _compared(published: float, pred: dict) -> dict:
    within = bool(pred["p10"] <= published <= pred["p90"])
    holds = bool(pred["p10"] <= published) if pred["comparison"] == "upper bound" else within
    return {"error_frac": pred["predicted"] / published - 1.0, "within_band": within, "holds": holds}


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
            if key in TIME_KEYS:
                pred = time_prediction(result, r, key)
            else:
                q = (co2 if key == "co2_t" else result).results[key]
                if q["value"] is None:
                    continue
                pred = {"predicted": q["value"], "p10": q["p10"], "p90": q["p90"], "basis": basis_words(r, key),
                        "comparison": "point"}
            published = float(r[column])
            out.append({"run_id": r["run_id"], "name": r["name"], "kind": r["kind"], "gpu_id": r["gpu_id"],
                        "gpu_class": gpu_class(r["gpu_id"]), "outcome": label, "key": key,
                        "basis": pred["basis"], "published": published, "predicted": pred["predicted"],
                        "p10": pred["p10"], "p90": pred["p90"], **_compared(published, pred),
                        "comparison": pred["comparison"], "throughput": throughput,
                        "mfu": result.steps["mfu"], "gpus_basis": r["gpus_basis"],
                        "flops_counted": result.throughput["flops_counted"],
                        "flops_counted_given": result.throughput["flops_counted_given"]})
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


TIME_KEYS = ("gpu_hours", "days", "days_with_failures")


def estimated(runs: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per run with a published time, its throughput withheld: the time the MFU estimate
    (fitted without the run) predicts against the published one, on the published time's basis,
    with the band; ``comparison`` says whether the time is a measurement (``point``) or an upper
    bound (:func:`time_prediction`)."""

    runs = (load_table("backtest_runs") if runs is None else runs).set_index("run_id", drop=False)
    out = []
    for p in timed_runs().itertuples():
        r = runs.loc[p.run_id]
        result = plan(replace(inputs_for(r, throughput=False), energy_basis=None))
        pred = time_prediction(result, r, p.outcome)
        est = result.throughput["estimate"]
        out.append({"run_id": p.run_id, "name": r["name"], "gpu_id": p.gpu_id, "gpu_class": p.gpu_class,
                    "size_band": p.size_band, "throughput_given": p.throughput_given, "outcome": p.outcome,
                    "basis": pred["basis"], "comparison": pred["comparison"], "published": p.published,
                    "predicted": pred["predicted"], "p10": pred["p10"], "p90": pred["p90"],
                    **_compared(p.published, pred), "mfu_estimated": result.steps["mfu"], "mfu_implied": p.implied_mfu,
                    "production_factor": est["production_factor"], "memory_pressure": p.memory_pressure,
                    "model_parallel_gpus": p.model_parallel_gpus, "layout_source": p.layout_source,
                    "gpus_basis": r["gpus_basis"]})
    return pd.DataFrame(out)


def by_group(table: pd.DataFrame, column: str = "gpu_class") -> pd.DataFrame:
    """Per GPU class (or size band, ``column``) of an :func:`estimated` table, over the runs whose
    time is a measurement (not an upper bound): runs, median |error|, signed median error and how
    many published values lie inside the band; ``enough`` marks groups with at least
    :data:`MIN_CLASS_RUNS` runs (the ones the targets hold to)."""
    rows = []
    points = table[table["comparison"] == "point"] if "comparison" in table else table
    for key, g in points.groupby(column):
        rows.append({column: key, "runs": len(g), "median_abs_error_frac": float(g["error_frac"].abs().median()),
                     "signed_median_error_frac": float(g["error_frac"].median()),
                     "within_band_count": int(g["within_band"].sum()), "enough": len(g) >= MIN_CLASS_RUNS})
    return pd.DataFrame(rows).sort_values(["runs", column], ascending=[False, True]).reset_index(drop=True)


def by_class(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`by_group` by GPU class."""
    return by_group(table, "gpu_class")


def median_abs(errors) -> float:
    errors = np.abs(np.asarray(errors, dtype=float))
    return float(np.median(errors)) if len(errors) else float("nan")
