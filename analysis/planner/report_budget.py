"""A power budget's answer for people and as JSON: the largest job on one accelerator, or a table
of every priced accelerator, each row saying what its cost is priced at."""

from __future__ import annotations

from analysis.page.formatting import count
from analysis.page.names import gpu_name
from analysis.planner.budget import POWER_BASIS_WORDS, BudgetAnswer
from analysis.planner.report import format_table, format_value, significant_digits

COLUMNS = (("days_with_failures", "Days (with failures)"), ("cost_usd", "Cost"), ("energy_mwh", "Energy"),
           ("interruptions", "Interruptions"))


def _budget_line(power_mw: float, basis: str) -> str:
    return f"Power budget: {format_value(power_mw, 'MW', 3)} of {POWER_BASIS_WORDS[basis]}"


def answer_json(answer: BudgetAnswer, power_mw: float, basis: str) -> dict:
    return {"power_mw": power_mw, "power_basis": basis, "gpu": answer.gpu_id, "gpus": answer.gpus,
            "nodes": answer.nodes, "devices_per_node": answer.devices_per_node,
            "budget_w_per_gpu": answer.w_per_gpu, "budget_used_mw": answer.budget_used_mw,
            "price_basis": answer.price_basis, "plan": answer.plan.to_json()}


def format_answer(answer: BudgetAnswer, power_mw: float, basis: str, model: str, tokens: float) -> str:

    head = [_budget_line(power_mw, basis) + ".",
            f"Largest job: {count(answer.gpus)} {gpu_name(answer.gpu_id)} ({count(answer.nodes)} nodes of "
            f"{answer.devices_per_node}), {format_value(answer.w_per_gpu, 'W', 3)} per GPU counted, "
            f"{format_value(answer.budget_used_mw, 'MW', 3)} used. Cost priced at {answer.price_basis}.", ""]
    title = f"Plan: {model}, {count(tokens)} tokens on {count(answer.gpus)} {gpu_name(answer.gpu_id)}"
    return "\n".join(head) + format_table(answer.plan, title)


def table_json(rows: list[dict], power_mw: float, basis: str) -> dict:
    out = []
    for r in rows:
        if "answer" in r:
            out.append(answer_json(r["answer"], power_mw, basis))
        else:
            out.append({"gpu": r["gpu_id"], "reason": r["reason"], "plan": None})
    return {"power_mw": power_mw, "power_basis": basis, "rows": out}


def format_budget_table(rows: list[dict], power_mw: float, basis: str, model: str, tokens: float, precision: str) -> str:
    """One line per priced accelerator: GPUs that fit, days, cost (with its price basis), energy on
    the plan's leading basis, interruptions; then the accelerators with no answer and why."""

    header = ["Accelerator", "GPUs", *[label for _, label in COLUMNS], "Cost priced at"]
    body, missing = [], []
    for r in rows:
        if "answer" not in r:
            missing.append(f"- {gpu_name(r['gpu_id'])}: {r['reason']}")
            continue
        a = r["answer"]
        cells = [gpu_name(a.gpu_id), count(a.gpus)]
        for key, _ in COLUMNS:
            q = a.plan.results[key]
            if q["value"] is None:
                cells.append("n/a")
                continue
            digits = significant_digits(q["value"], q["p10"], q["p90"])
            text = format_value(q["value"], q["unit"], digits)
            if key == "energy_mwh":
                text += f" ({a.plan.energy_basis})"
            cells.append(text)
        cells.append(a.price_basis if a.plan.results["cost_usd"]["value"] is not None else "no price")
        body.append(cells)
    widths = [max(len(str(c[i])) for c in [header, *body]) for i in range(len(header))]
    lines = [f"{_budget_line(power_mw, basis)}; {model}, {count(tokens)} tokens, {precision.upper()}; "
             "throughput estimated per accelerator unless given.", ""]
    lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True)) for cells in body]
    if missing:
        lines += ["", "No answer:", *missing]
    lines += ["", "Each row is the largest whole-node job within the budget; its bands and notes are in --json."]
    return "\n".join(lines)

