"""The chains of the plan chapter's backward what-if panels (:mod:`analysis.page.whatif`): the
planner run backwards at each grid point, one point at a time (each is a search over job sizes,
:mod:`analysis.planner.inverse`)."""

from __future__ import annotations

import numpy as np

from analysis import planner
from analysis.chapters.plan_inverse import BUDGET, DEADLINE
from analysis.planner import inverse

DEADLINE_MODEL = DEADLINE["model_id"]  # the plan chapter's examples (analysis.chapters.plan_inverse)
GPU = "h100_sxm"
BUDGET_USD_PER_GPU_HOUR = None  # the book's H100 TCO: the price the chapter's H100 rows lead with


def _template(tokens: float) -> planner.PlanInputs:
    return planner.PlanInputs(model=planner.model_from_registry(DEADLINE_MODEL), tokens=tokens, gpu_id=GPU, gpus=8,
                              draws=2)


def plan_deadline(P) -> dict:
    """The smallest H100 job that trains the tokens within the days
    (:func:`analysis.planner.inverse.deadline_job`): its GPUs, days, cost and energy at the meter."""
    points = np.broadcast_arrays(np.asarray(P.days, dtype=float), np.asarray(P.tokens, dtype=float))
    out = {k: [] for k in ("gpus", "days_with_failures", "cost_usd", "energy_facility_mwh")}
    for days, tokens in zip(*(a.ravel() for a in points), strict=True):
        a = inverse.deadline_job(_template(float(tokens)), float(days))
        out["gpus"].append(a.gpus)
        for k in ("days_with_failures", "cost_usd", "energy_facility_mwh"):
            out[k].append(a.plan.results[k]["value"])
    return {k: np.asarray(v, dtype=float) for k, v in out.items()}


def deadline_base() -> dict:
    """The deadline panel's opening point: the plan chapter's example."""
    return {"days": float(DEADLINE["days"]), "tokens": float(DEADLINE["tokens"])}


def plan_budget(P) -> dict:
    """What a budget buys on H100 at the book's TCO by a deadline
    (:func:`analysis.planner.inverse.spend`): the tokens and the GPUs of the smallest job that
    spends it in time."""
    tco = planner.tco_usd_per_gpu_hour(GPU, None, None)
    points = np.broadcast_arrays(np.asarray(P.budget_usd, dtype=float), np.asarray(P.days, dtype=float))
    out = {"trillion_tokens": [], "gpus": []}
    for budget, days in zip(*(a.ravel() for a in points), strict=True):
        a = inverse.spend(_template(1e12), float(budget), tco, "owning (the book's TCO)", days=float(days),
                          tokens_given=False)
        out["trillion_tokens"].append(a.tokens / 1e12)
        out["gpus"].append(a.gpus)
    return {k: np.asarray(v, dtype=float) for k, v in out.items()}


def budget_base() -> dict:
    """The budget panel's opening point: the plan chapter's example."""
    return {"budget_usd": float(BUDGET["budget_usd"]), "days": float(BUDGET["days"])}
