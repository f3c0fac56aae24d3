"""The inverse modes over every accelerator (``plan --days`` or ``plan --budget-usd`` without
``--gpu``): one row per accelerator with a sourced price and a throughput (and, for a budget, per
price tier, :mod:`analysis.prices`), sorted by the answer, the best marked, and whether the best is
distinguishable from the next (their P10-P90 bands do not overlap). Each row says whether its
throughput rests on the accelerator's own evidence or is estimated from other accelerators'."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from analysis.hardware import gpu, gpu_name
from analysis.planner import core, inverse
from analysis.planner import mfu as mfu_estimate
from analysis.planner.budget import priced_accelerators
from analysis.planner.inputs import PEAK_COLUMN, PlanError, PlanInputs
from analysis.prices import cloud_ladder


def throughput_evidence(gpu_id: str, precision: str) -> str:
    """``"own"`` where the accelerator has benchmark rows enough for its own fit or published runs
    of its class, ``"estimated"`` where its throughput comes from other accelerators' evidence."""
    bench, _ = mfu_estimate.precision_rows(PEAK_COLUMN[precision])
    own_rows = int((bench["gpu_id"] == gpu_id).sum()) >= mfu_estimate.MIN_FIT_ROWS
    runs = mfu_estimate.estimate_mfu(gpu_id, precision, 1e10, 1024).class_runs
    return "own" if own_rows or runs > 0 else "estimated"


def _has_peak(gpu_id: str, precision: str) -> bool:
    return not np.isnan(float(gpu(gpu_id)[f"{PEAK_COLUMN[precision]}_dense_tflops"]))


def _row_template(template: PlanInputs, gpu_id: str) -> PlanInputs:
    return replace(template, gpu_id=gpu_id, draws=min(template.draws, 1_000))


def deadline_table(template: PlanInputs, days: float, power_mw=None, power_basis: str = "facility") -> list[dict]:
    """One row per priced accelerator: its :func:`analysis.planner.inverse.deadline_job`, or why
    there is none; sorted by cost (jobs that meet the deadline first)."""
    rows = []
    for gpu_id in priced_accelerators():
        row = {"gpu_id": gpu_id, "evidence": None}
        if not _has_peak(gpu_id, template.precision):
            rows.append({**row, "reason": f"no {template.precision.upper()} tensor path"})
            continue
        row["evidence"] = throughput_evidence(gpu_id, template.precision)
        try:
            answer = inverse.deadline_job(_row_template(template, gpu_id), days, power_mw, power_basis)
        except PlanError as exc:
            rows.append({**row, "reason": str(exc).split(": ", 1)[-1]})
            continue
        rows.append({**row, "answer": answer})
    return _sorted(rows, key=lambda a: (not a.feasible, _cost(a.plan)))


def _cost(result) -> float:
    v = result.results["cost_usd"]["value"]
    return np.inf if v is None else v


def price_rows(template: PlanInputs, gpu_id: str | None) -> list[tuple[str, float, str, bool]]:
    """(accelerator, USD per GPU-hour, tier in words, proxy) for every priced accelerator (or the
    one given) and price tier; the given price alone where one is given."""
    gpus = [gpu_id] if gpu_id is not None else priced_accelerators()
    if template.usd_per_gpu_hour is not None:
        return [(g, float(template.usd_per_gpu_hour), "the given price", False) for g in gpus]
    book = {g: core.tco_usd_per_gpu_hour(g, template.pue, template.tariff_usd_per_kwh) for g in core.TCO_SYSTEMS}
    ladder = cloud_ladder({g: v for g, v in book.items() if v is not None})
    ladder = ladder[ladder["gpu_id"].isin(gpus)]
    order = {g: i for i, g in enumerate(gpus)}
    return [(r.gpu_id, float(r.usd_per_gpu_hour), str(r.tier), bool(r.proxy))
            for r in sorted(ladder.itertuples(), key=lambda r: (order[r.gpu_id], r.Index))]


def spend_table(template: PlanInputs, budget_usd: float, days=None, tokens_given: bool = True, gpu_id: str | None = None,
                power_mw=None, power_basis: str = "facility") -> list[dict]:
    """One row per accelerator and price tier: :func:`analysis.planner.inverse.spend`, or why
    there is none; sorted by the answer (fewest days, or most tokens)."""
    rows = []
    for g, price, tier, proxy in price_rows(template, gpu_id):
        row = {"gpu_id": g, "tier": tier, "usd_per_gpu_hour": price, "proxy": proxy, "evidence": None}
        if not _has_peak(g, template.precision):
            rows.append({**row, "reason": f"no {template.precision.upper()} tensor path"})
            continue
        row["evidence"] = throughput_evidence(g, template.precision)
        try:
            answer = inverse.spend(_row_template(template, g), budget_usd, price, tier, days, tokens_given, power_mw,
                                   power_basis)
        except PlanError as exc:
            rows.append({**row, "reason": str(exc).split(": ", 1)[-1]})
            continue
        rows.append({**row, "answer": answer})
    if tokens_given:  # fewest days, then the cheaper of equally fast rows
        return _sorted(rows, key=lambda a: (not a.feasible, a.days["value"], _cost(a.plan)))
    return _sorted(rows, key=lambda a: -a.tokens)


def _sorted(rows: list[dict], key) -> list[dict]:
    answered = sorted((r for r in rows if "answer" in r), key=lambda r: key(r["answer"]))
    return answered + [r for r in rows if "answer" not in r]


def best_of(rows: list[dict], buys: str) -> dict | None:
    """The best row and whether its band clears the next's: ``{"index", "next", "distinguishable",
    "why"}``, or None without two answers."""
    answered = [i for i, r in enumerate(rows) if "answer" in r]
    if not answered:
        return None
    first = answered[0]
    if len(answered) < 2:
        return {"index": first, "next": None, "distinguishable": None, "why": "the only answer"}
    second = answered[1]
    a, b = rows[first]["answer"], rows[second]["answer"]
    if buys == "tokens":
        lo_best, hi_next = a.tokens_band[0], b.tokens_band[1]
        clear = lo_best > hi_next
        what = "tokens"
    else:
        res_a, res_b = _answer_plan(a).results, _answer_plan(b).results
        key = "cost_usd" if buys == "cost" else "days_with_failures"
        if res_a[key]["value"] is None or res_b[key]["value"] is None:
            return {"index": first, "next": second, "distinguishable": None, "why": "no price for one of them"}
        clear = res_a[key]["p90"] < res_b[key]["p10"]
        what = "cost" if buys == "cost" else "days"
    why = (f"its P10-P90 {what} band clears the next one's" if clear
           else f"its P10-P90 {what} band overlaps the next one's ({_label(rows[second])})")
    return {"index": first, "next": second, "distinguishable": bool(clear), "why": why}


def _answer_plan(answer):
    return answer.plan


def _label(row: dict) -> str:
    return gpu_name(row["gpu_id"]) + (f", {row['tier']}" if row.get("tier") else "")
