"""Plan chapter: the planner (:mod:`analysis.planner`, the code behind ``python -m analysis plan``)
walked through on canonical runs, and a backtest that predicts published training runs
(``data/backtest_runs.csv``) from their inputs alone.

For each backtest run the planner gets the published shape, tokens, GPU type and count, and the
published throughput with the FLOPs it counts where there is one (else the book's MFU estimate),
and the published price where the outcome is a cost. Every other input is the book's default. Each
published outcome is then set against the matching prediction: days "without failures" against
the planner's failure-free days, wall-clock days against its days with failures, GPU-hours, energy,
carbon and cost. The error is predicted / published - 1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import flops, planner
from analysis.chapters import ChapterResults
from analysis.data import load_table

# The walk-through: (key prefix, label, inputs). Llama 3.1 405B at the throughput Meta published
# (Table 4 of the Llama 3 paper), and GPT-3 175B at Narayanan et al.'s hardware TFLOP/s.
WALKTHROUGH = "llama31_405b"
OUTCOMES = (  # backtest column -> (planner key, label)
    ("published_days", None, "days"),
    ("published_gpu_hours", "gpu_hours", "GPU-hours"),
    ("published_energy_mwh", "energy_mwh", "energy (MWh)"),
    ("published_co2_t", "co2_t", "CO2 (t)"),
    ("published_cost_usd", "cost_usd", "cost (USD)"),
)


def backtest_model(r) -> dict:
    """A backtest row's model as a ``models.csv``-like mapping."""
    return {"name": r["name"], "active_params": float(r["params"]), "total_params": float(r["params"]),
            "layers": int(r["layers"]), "hidden_size": int(r["hidden_size"]), "seq_len": int(r["seq_len"]),
            "vocab_size": int(r["vocab_size"]), "tied_embeddings": bool(r["tied_embeddings"])}


def backtest_inputs(r) -> planner.PlanInputs:
    """The planner's inputs for one backtest row: its published inputs, the book's defaults for the rest."""
    given = pd.notna(r["achieved_tflops_per_gpu"])
    price = r["published_usd_per_gpu_hour"]
    return planner.PlanInputs(
        model=backtest_model(r), tokens=float(r["tokens"]), gpu_id=r["gpu_id"], gpus=int(r["gpus"]),
        precision=r["precision"], achieved_tflops=float(r["achieved_tflops_per_gpu"]) if given else None,
        flops_counted=r["flops_counted"] if given else None,
        usd_per_gpu_hour=float(price) if pd.notna(price) else None, draws=1_000)


def backtest(runs: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per (run, published outcome): published, predicted (with P10 and P90), error."""
    runs = load_table("backtest_runs") if runs is None else runs
    out = []
    for _, r in runs.iterrows():
        result = planner.plan(backtest_inputs(r))
        throughput = "published" if pd.notna(r["achieved_tflops_per_gpu"]) else "estimated"
        for column, key, label in OUTCOMES:
            if pd.isna(r[column]):
                continue
            if column == "published_days":
                key = "days" if r["days_basis"] == "no failures" else "days_with_failures"
                label = f"days ({r['days_basis']})"
            pred = result.results[key]
            if pred["value"] is None:
                continue
            out.append({"run_id": r["run_id"], "name": r["name"], "kind": r["kind"], "outcome": label, "key": key,
                        "published": float(r[column]), "predicted": pred["value"], "p10": pred["p10"],
                        "p90": pred["p90"], "error_frac": pred["value"] / float(r[column]) - 1.0,
                        "within_band": pred["p10"] <= float(r[column]) <= pred["p90"],
                        "throughput": throughput, "mfu": result.steps["mfu"], "gpus_basis": r["gpus_basis"]})
    return pd.DataFrame(out)


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("plan")
    _walkthrough(res)
    _flop_convention(res)
    _backtest(res)
    return res


def _walkthrough(res: ChapterResults) -> None:
    """Llama 3.1 405B on 16,384 H100 at Meta's 400 TFLOP/s, step by step."""
    runs = load_table("backtest_runs").set_index("run_id")
    r = runs.loc[WALKTHROUGH]
    result = planner.plan(backtest_inputs(r))
    s, q = result.steps, result.results
    p = "plan_llama31_405b"
    res.add(f"{p}_tokens", r["tokens"], "tokens", "Llama 3.1 405B: tokens")
    res.add(f"{p}_train_trillion_tokens", r["tokens"] / 1e12, "trillion tokens", "Llama 3.1 405B: tokens, trillions")
    res.add(f"{p}_gpus", r["gpus"], "GPUs", "Llama 3.1 405B: GPUs")
    res.add(f"{p}_achieved_tflops", r["achieved_tflops_per_gpu"], "TFLOP/s per GPU", "Llama 3.1 405B: published TFLOP/s per GPU")
    res.add(f"{p}_flops_per_token", s["flops_per_token"], "FLOP per token", "Llama 3.1 405B: model FLOPs per token")
    res.add(f"{p}_total_flop", s["total_flop"], "FLOP", "Llama 3.1 405B: model FLOPs of the run")
    res.add(f"{p}_mfu_frac", s["mfu"], "fraction", "Llama 3.1 405B: MFU at the published throughput")
    res.add(f"{p}_tokens_per_s_per_gpu", s["tokens_per_s_per_gpu"], "tokens/s/GPU", "Llama 3.1 405B: tokens/s/GPU")
    res.add(f"{p}_job_mtbf_hours", s["job_mtbf_hours"], "hours", "Llama 3.1 405B: job MTBF (per-GPU rates)")
    res.add(f"{p}_meter_w_per_gpu", s["meter_w_per_gpu"], "W per GPU", "Llama 3.1 405B: power per GPU at the meter")
    res.add(f"{p}_usd_per_gpu_hour", s["usd_per_gpu_hour"], "USD per GPU-hour", "Llama 3.1 405B: price (the book's H100 TCO)")
    for key, (unit, label) in planner.KEYS.items():
        label = _sentence_case(label)
        res.add(f"{p}_{key}", q[key]["value"], unit, f"Llama 3.1 405B: {label}")
        if key in ("days_with_failures", "cost_usd", "energy_mwh"):
            res.add(f"{p}_{key}_p10", q[key]["p10"], unit, f"Llama 3.1 405B: {label}, P10")
            res.add(f"{p}_{key}_p90", q[key]["p90"], unit, f"Llama 3.1 405B: {label}, P90")
    res.add(f"{p}_published_gpu_hours", r["published_gpu_hours"], "GPU-hours", "Llama 3.1 405B: published GPU-hours")


def _flop_convention(res: ChapterResults) -> None:
    """GPT-3 175B at Narayanan et al.'s 140 TFLOP/s: read as hardware FLOPs with full recomputation
    (what it counts) and, wrongly, as model FLOPs."""
    r = load_table("backtest_runs").set_index("run_id").loc["narayanan_gpt3_175b"]
    m = backtest_model(r)
    total = float(r["tokens"]) * flops.model_flops_per_token(m)
    right = flops.training_time_days_from(total, int(r["gpus"]), achieved_tflops=float(r["achieved_tflops_per_gpu"]),
                                          flops_counted="hardware-full", model=m)
    wrong = flops.training_time_days_from(total, int(r["gpus"]), achieved_tflops=float(r["achieved_tflops_per_gpu"]),
                                          flops_counted="model")
    res.add("plan_gpt3_narayanan_tflops", r["achieved_tflops_per_gpu"], "TFLOP/s per GPU", "GPT-3 175B: Narayanan et al.'s TFLOP/s per GPU")
    res.add("plan_gpt3_narayanan_published_days", r["published_days"], "days", "GPT-3 175B: Narayanan et al.'s days")
    res.add("plan_gpt3_hardware_full_days", right, "days", "GPT-3 175B: days, TFLOP/s read as hardware FLOPs with full recomputation")
    res.add("plan_gpt3_as_model_flops_days", wrong, "days", "GPT-3 175B: days, TFLOP/s misread as model FLOPs")
    res.add("plan_gpt3_misread_shortfall_frac", 1 - wrong / right, "fraction", "GPT-3 175B: how far short the misreading falls")
    res.add("plan_gpt3_hardware_to_model_flops_ratio",
            flops.hardware_flops_per_token(m, recompute="full") / flops.model_flops_per_token(m), "ratio",
            "GPT-3 175B: hardware FLOPs with full recomputation per model FLOP")


def _backtest(res: ChapterResults) -> None:
    table = res.add_table("backtest", backtest())
    runs = load_table("backtest_runs")
    err = table["error_frac"].abs()
    res.add("plan_backtest_runs_count", len(runs), "count", "Backtest: published runs and estimates")
    res.add("plan_backtest_projections_count", int((runs["kind"] == "projection").sum()), "count",
            "Backtest: of which estimates from a measured throughput, not completed runs")
    res.add("plan_backtest_comparisons_count", len(table), "count", "Backtest: published outcomes compared")
    res.add("plan_backtest_median_abs_error_frac", float(err.median()), "fraction", "Backtest: median absolute error")
    res.add("plan_backtest_within_10pct_count", int((err <= 0.10).sum()), "count", "Backtest: outcomes within 10 %")
    res.add("plan_backtest_within_band_count", int(table["within_band"].sum()), "count", "Backtest: outcomes inside the P10-P90 band")
    given = table["throughput"] == "published"
    res.add("plan_backtest_median_abs_error_given_frac", float(err[given].median()), "fraction",
            "Backtest: median absolute error where a throughput was published")
    res.add("plan_backtest_median_abs_error_estimated_frac", float(err[~given].median()), "fraction",
            "Backtest: median absolute error where the MFU was estimated")
    for row in table.itertuples():
        slug = row.key if row.key != "days_with_failures" else "wall_days"
        res.add(f"plan_backtest_{row.run_id}_{slug}_error_frac", row.error_frac, "fraction",
                f"Backtest: {row.name}, {row.outcome}, error")
    for run_id in table["run_id"].unique():
        mfu = table.loc[table["run_id"] == run_id, "mfu"].iloc[0]
        res.add(f"plan_backtest_{run_id}_mfu_frac", mfu, "fraction", f"Backtest: {run_id}, MFU the planner used")
    worst = table.loc[err.idxmax()]
    res.add("plan_backtest_max_abs_error_frac", float(np.abs(worst["error_frac"])), "fraction", "Backtest: largest absolute error")


def _sentence_case(label: str) -> str:
    """Lower-case a label's first letter to follow a colon, unless it starts an acronym (GPU-hours)."""
    return label if label[:2].isupper() else label[0].lower() + label[1:]
