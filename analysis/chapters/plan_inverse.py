"""The plan chapter's backward plans (:mod:`analysis.planner.inverse`): a deadline and a budget,
the issue's two questions, on every priced accelerator, with the checks that tie them to the
forward plan (the inverse of a forward plan returns its GPUs; a budget's tokens priced back return
the budget)."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from analysis import planner
from analysis.chapters import ChapterResults
from analysis.planner import inverse, inverse_table

# The questions: Llama 3.1 70B on 15T tokens within 60 days; what $20M buys in the same time.
DEADLINE = {"model_id": "llama31_70b", "tokens": 15e12, "days": 60.0, "gpu_id": "h100_sxm"}
BUDGET = {"model_id": "llama31_70b", "budget_usd": 2e7, "days": 60.0}
DRAWS = 1_000  # per plan: the chance and the bands are stable to about a percentage point


def _template(model_id: str, tokens: float, gpu_id: str | None = None) -> planner.PlanInputs:
    return planner.PlanInputs(model=planner.model_from_registry(model_id), tokens=tokens, gpu_id=gpu_id, gpus=8,
                              draws=DRAWS)


def record_inverse(res: ChapterResults) -> None:
    _deadline(res)
    _budget(res)


def _deadline(res: ChapterResults) -> None:
    t = _template(DEADLINE["model_id"], DEADLINE["tokens"], DEADLINE["gpu_id"])
    a = inverse.deadline_job(t, DEADLINE["days"])
    q = a.plan.results
    p = "plan_deadline"
    res.add(f"{p}_days", DEADLINE["days"], "days", "Deadline example: days of wall clock")
    res.add(f"{p}_train_trillion_tokens", DEADLINE["tokens"] / 1e12, "trillion tokens", "Deadline example: tokens, trillions")
    res.add(f"{p}_h100_gpus", a.gpus, "GPUs", "Deadline example: the smallest H100 job that meets it")
    res.add(f"{p}_h100_chance_frac", a.chance, "fraction", "Deadline example: chance the H100 job meets it")
    res.add(f"{p}_chance_target_frac", inverse.CHANCE, "fraction", "Deadline: the chance the second answer is sized for")
    if a.gpus_for_chance is not None:
        res.add(f"{p}_h100_gpus_for_90", a.gpus_for_chance, "GPUs", "Deadline example: H100s for a 90 % chance")
    for key in ("days_with_failures", "cost_usd", "energy_facility_mwh", "energy_gpu_tdp_mwh"):
        for field in ("value", "p10", "p90"):
            suffix = "" if field == "value" else f"_{field}"
            res.add(f"{p}_h100_{key}{suffix}", q[key][field], q[key]["unit"], f"Deadline example, H100: {q[key]['label']}, {field}")
    if a.meter is not None:
        for field in ("value", "p10", "p90"):
            res.add(f"{p}_h100_meter_mw" + ("" if field == "value" else f"_{field}"), a.meter[field], "MW",
                    f"Deadline example, H100: power at the meter, {field}")
    # the inverse of the forward plan: plan the found size forward, then ask for its own days back
    forward = planner.plan(replace(t, gpus=a.gpus, strong_scaling=True))
    back = inverse.deadline_job(t, forward.results["days_with_failures"]["value"])
    res.add(f"{p}_inverse_of_forward_gpus", back.gpus, "GPUs", "Deadline example: the GPUs a deadline of the forward "
            "plan's own days gives back")
    rows = inverse_table.deadline_table(replace(t, gpu_id=None), DEADLINE["days"])
    best = inverse_table.best_of(rows, "cost")
    table = res.add_table("deadline", _deadline_frame(rows, best))
    res.add(f"{p}_accelerators_count", int(table["gpus"].notna().sum()), "count",
            "Deadline example: accelerators with an answer")
    res.add(f"{p}_estimated_count", int((table["throughput"] == "estimated").sum()), "count",
            "Deadline example: of which with estimated throughput")
    res.add(f"{p}_best_distinguishable_count", int(bool(best and best["distinguishable"])), "count",
            "Deadline example: 1 when the cheapest is distinguishable from the next")


def _deadline_frame(rows, best) -> pd.DataFrame:
    out = []
    for i, r in enumerate(rows):
        a = r.get("answer")
        base = {"gpu_id": r["gpu_id"], "throughput": r["evidence"],
                "best": bool(best and best["index"] == i), "reason": r.get("reason", "")}
        if a is None:
            out.append(base)
            continue
        q = a.plan.results
        out.append({**base, "gpus": a.gpus, "meets": a.feasible, "chance_frac": a.chance,
                    "gpus_for_90": a.gpus_for_chance, "days": q["days_with_failures"]["value"],
                    "days_p10": q["days_with_failures"]["p10"], "days_p90": q["days_with_failures"]["p90"],
                    "cost_usd": q["cost_usd"]["value"], "cost_p10": q["cost_usd"]["p10"], "cost_p90": q["cost_usd"]["p90"],
                    "price_basis": a.price_basis, "meter_mw": None if a.meter is None else a.meter["value"],
                    "energy_facility_mwh": q["energy_facility_mwh"]["value"], "energy_gpu_tdp_mwh": q["energy_gpu_tdp_mwh"]["value"]})
    return pd.DataFrame(out)


def _budget(res: ChapterResults) -> None:
    t = _template(BUDGET["model_id"], 1e12)
    rows = inverse_table.spend_table(t, BUDGET["budget_usd"], BUDGET["days"], tokens_given=False)
    best = inverse_table.best_of(rows, "tokens")
    table = res.add_table("budget", _budget_frame(rows, best))
    p = "plan_budget_usd"
    res.add(f"{p}_budget", BUDGET["budget_usd"], "USD", "Budget example: dollars")
    res.add(f"{p}_days", BUDGET["days"], "days", "Budget example: deadline, days")
    res.add(f"{p}_rows_count", int(table["gpus"].notna().sum()), "count", "Budget example: accelerators and price tiers answered")
    if best is not None:
        a = rows[best["index"]]["answer"]
        res.add(f"{p}_best_trillion_tokens", a.tokens / 1e12, "trillion tokens", "Budget example: most tokens bought")
        res.add(f"{p}_best_trillion_tokens_p10", a.tokens_band[0] / 1e12, "trillion tokens", "Budget example: most tokens, P10")
        res.add(f"{p}_best_trillion_tokens_p90", a.tokens_band[1] / 1e12, "trillion tokens", "Budget example: most tokens, P90")
        res.add(f"{p}_best_gpus", a.gpus, "GPUs", "Budget example: GPUs of the best row")
        res.add(f"{p}_best_distinguishable_count", int(bool(best["distinguishable"])), "count",
                "Budget example: 1 when the best is distinguishable from the next")
        # priced back: the plan of the bought tokens on that job costs the budget
        back = planner.plan(replace(t, gpu_id=a.gpu_id, gpus=a.gpus, tokens=a.tokens, usd_per_gpu_hour=a.usd_per_gpu_hour,
                                    strong_scaling=True))
        res.add(f"{p}_priced_back_usd", back.results["cost_usd"]["value"], "USD",
                "Budget example: the best row's tokens priced back")
    h100 = table[(table["gpu_id"] == "h100_sxm") & table["gpus"].notna()]
    for tier, slug in (("owning (the book's TCO)", "book_tco"), ("market range", "market")):
        row = h100[h100["tier"] == tier]
        if len(row) == 1:
            res.add(f"{p}_h100_{slug}_trillion_tokens", row["tokens"].iloc[0] / 1e12, "trillion tokens",
                    f"Budget example: tokens on H100 at {tier}")
            res.add(f"{p}_h100_{slug}_gpus", row["gpus"].iloc[0], "GPUs", f"Budget example: H100s that spend it at {tier}")


def _budget_frame(rows, best) -> pd.DataFrame:
    out = []
    for i, r in enumerate(rows):
        a = r.get("answer")
        base = {"gpu_id": r["gpu_id"], "tier": r["tier"],
                "usd_per_gpu_hour": r["usd_per_gpu_hour"], "proxy": r["proxy"], "throughput": r["evidence"],
                "best": bool(best and best["index"] == i), "reason": r.get("reason", "")}
        if a is None:
            out.append(base)
            continue
        out.append({**base, "gpus": a.gpus, "tokens": a.tokens, "tokens_p10": a.tokens_band[0], "tokens_p90": a.tokens_band[1],
                    "days": a.days["value"], "spent_usd": a.plan.results["cost_usd"]["value"]})
    return pd.DataFrame(out)
