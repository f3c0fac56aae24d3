"""The inverse modes' answers for people and as JSON (``plan --days``, ``plan --budget-usd``): one
accelerator's answer with its forward plan, or a table of every priced accelerator (and price tier),
sorted by the answer, the best marked and whether it is distinguishable from the next."""

from __future__ import annotations

from analysis.page.formatting import count, money, percent
from analysis.page.names import gpu_name
from analysis.planner.inputs import SCHEMA_VERSION
from analysis.planner.inverse import CHANCE, DeadlineAnswer, SpendAnswer
from analysis.planner.report import format_range, format_table, format_value, significant_digits

EVIDENCE_WORDS = {"own": "its own benchmarks or published runs",
                  "estimated": "estimated: no benchmarks or published runs of its own, other accelerators' evidence"}


def _q(q: dict, unit: str | None = None) -> str:
    """A quantity with its band: '$10.8M ($7.1M to $15M)'."""
    if q is None or q.get("value") is None:
        return "n/a"
    unit = unit or q.get("unit")
    digits = significant_digits(q["value"], q.get("p10"), q.get("p90"))
    text = format_value(q["value"], unit, digits)
    if q.get("p10") is None:
        return text
    return f"{text} ({format_range(q['p10'], q['p90'], unit, digits)})"


def _band(q: dict | None) -> dict | None:
    return None if q is None else {k: q[k] for k in ("value", "p10", "p90") if k in q}


# --- a deadline -----------------------------------------------------------------------------------------

def deadline_json(a: DeadlineAnswer, evidence: str | None = None) -> dict:
    return {"gpu": a.gpu_id, "days": a.days, "gpus": a.gpus, "nodes": a.nodes, "devices_per_node": a.per_node,
            "feasible": a.feasible, "chance_of_meeting": a.chance, "gpus_for_90_percent": a.gpus_for_chance,
            "chance_at_that_size": a.chance_at_that, "max_gpus": a.max_gpus, "limit": a.limit_why,
            "fastest_days": a.fastest_days, "meter_mw": _band(a.meter), "price_basis": a.price_basis,
            "throughput_evidence": evidence, "plan": a.plan.to_json()}


def deadline_lines(a: DeadlineAnswer, model: str) -> list[str]:
    q = a.plan.results
    name = gpu_name(a.gpu_id)
    lines = []
    if a.feasible:
        lines.append(f"On {name}: {count(a.gpus)} GPUs ({count(a.nodes)} {_node(a)}) finish {model} in "
                     f"{_q(q['days_with_failures'])}, failures included; at that size {percent(a.chance)} of the draws "
                     f"meet the {format_value(a.days, 'days', 3)}.")
    else:
        lines.append(f"On {name}: no size up to {count(a.max_gpus)} GPUs ({a.limit_why}) meets "
                     f"{format_value(a.days, 'days', 3)}. The fastest, {count(a.gpus)} GPUs, takes "
                     f"{_q(q['days_with_failures'])}; {percent(a.chance)} of its draws meet the deadline.")
    if a.gpus_for_chance is not None:
        lines.append(f"For a {percent(CHANCE)} chance: {count(a.gpus_for_chance)} GPUs "
                     f"({percent(a.chance_at_that)} of the draws).")
    else:
        lines.append(f"No size up to {count(a.max_gpus)} GPUs gives a {percent(CHANCE)} chance.")
    lines.append(f"Cost {_q(q['cost_usd'])} ({a.price_basis}); energy at the meter {_q(q['energy_facility_mwh'])}, "
                 f"at the GPU TDP {_q(q['energy_gpu_tdp_mwh'])}; power at the meter "
                 + (_q(a.meter) if a.meter else "n/a (no sourced all-in power build-up)") + ".")
    return lines


def _node(a) -> str:
    return "node" + ("s" if a.nodes != 1 else "") + f" of {a.per_node}"


def format_deadline(a: DeadlineAnswer, model: str, tokens: float, precision: str) -> str:
    head = [f"Deadline: {format_value(a.days, 'days', 3)} of wall clock for {model}, {count(tokens)} tokens "
            f"({precision.upper()}).", *deadline_lines(a, model), ""]
    title = f"Plan: {model}, {count(tokens)} tokens on {count(a.gpus)} {gpu_name(a.gpu_id)}"
    return "\n".join(head) + format_table(a.plan, title)


def deadline_table_json(rows: list[dict], best: dict | None, days: float) -> dict:
    out = []
    for r in rows:
        if "answer" in r:
            out.append(deadline_json(r["answer"], r["evidence"]))
        else:
            out.append({"gpu": r["gpu_id"], "throughput_evidence": r["evidence"], "reason": r["reason"], "plan": None})
    return {"schema_version": SCHEMA_VERSION, "mode": "deadline", "days": days, "rows": out, "best": best}


def format_deadline_table(rows: list[dict], best: dict | None, days: float, model: str, tokens: float,
                          precision: str) -> str:
    header = ["", "Accelerator", "GPUs", "Days (P10 to P90)", "Chance", f"GPUs for {percent(CHANCE)}", "Cost",
              "Priced at", "MW at the meter", "Throughput"]
    body, missing = [], []
    for i, r in enumerate(rows):
        if "answer" not in r:
            missing.append(f"- {gpu_name(r['gpu_id'])}: {r['reason']}")
            continue
        a = r["answer"]
        q = a.plan.results
        mark = "best" if best and best["index"] == i else ""
        body.append([mark, gpu_name(a.gpu_id) + ("" if a.feasible else " (misses)"), count(a.gpus),
                     _q(q["days_with_failures"]), percent(a.chance),
                     "none" if a.gpus_for_chance is None else count(a.gpus_for_chance),
                     _q(q["cost_usd"], "USD"), a.price_basis, "n/a" if a.meter is None else _q(a.meter),
                     "estimated" if r["evidence"] == "estimated" else "own evidence"])
    lines = [f"Deadline: {format_value(days, 'days', 3)} of wall clock for {model}, {count(tokens)} tokens "
             f"({precision.upper()}); the smallest whole-node job that meets it on each priced accelerator, cheapest "
             "first.", ""]
    lines += _table(header, body)
    lines += _best_lines(rows, best, "cheapest")
    lines += ["", "Throughput 'estimated': the accelerator has no benchmarks or published runs of its own; its MFU "
              "comes from other accelerators' evidence, with the wider band measured on classes left out."]
    if missing:
        lines += ["", "No answer:", *missing]
    lines += ["", "Each row is a forward plan at that size; its notes and every band are in --json."]
    return "\n".join(lines)


def _table(header: list[str], body: list[list[str]]) -> list[str]:
    widths = [max(len(str(c[i])) for c in [header, *body]) for i in range(len(header))]
    return ["  ".join(str(h).ljust(w) for h, w in zip(header, widths, strict=True)).rstrip(),
            *["  ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip() for cells in body]]


def _best_lines(rows, best, what: str) -> list[str]:
    if not best:
        return []
    r = rows[best["index"]]
    label = gpu_name(r["gpu_id"]) + (f", {r['tier']}" if r.get("tier") else "")
    if best["distinguishable"] is None:
        return ["", f"Best ({what}): {label} ({best['why']})."]
    verdict = "distinguishable from the next" if best["distinguishable"] else "not distinguishable from the next"
    return ["", f"Best ({what}): {label}, {verdict}: {best['why']}."]


# --- a budget -------------------------------------------------------------------------------------------

def spend_json(a: SpendAnswer, evidence: str | None = None, proxy: bool = False) -> dict:
    return {"gpu": a.gpu_id, "budget_usd": a.budget_usd, "price_tier": a.price_words, "usd_per_gpu_hour": a.usd_per_gpu_hour,
            "price_is_proxy": proxy, "buys": a.buys, "gpus": a.gpus, "nodes": a.nodes, "devices_per_node": a.per_node,
            "tokens": a.tokens, "tokens_p10": None if a.tokens_band is None else a.tokens_band[0],
            "tokens_p90": None if a.tokens_band is None else a.tokens_band[1], "feasible": a.feasible, "note": a.note,
            "throughput_evidence": evidence, "plan": a.plan.to_json()}


def _tokens(a: SpendAnswer) -> str:
    if a.tokens_band is None:
        return count(a.tokens)
    return f"{count(a.tokens)} ({count(a.tokens_band[0])} to {count(a.tokens_band[1])})"


def spend_lines(a: SpendAnswer) -> list[str]:
    q = a.plan.results
    days = _q(q["days_with_failures"])
    at = f"{count(a.gpus)} {gpu_name(a.gpu_id)} ({count(a.nodes)} {_node(a)}) at ${a.usd_per_gpu_hour:,.2f} per GPU-hour ({a.price_words})"
    if a.buys == "tokens":
        first = f"{money(a.budget_usd)} buys {_tokens(a)} tokens on {at}, in {days}; {a.note}."
    else:
        first = f"{money(a.budget_usd)} trains the tokens in {days} on {at}, costing {_q(q['cost_usd'])}; {a.note}."
    return [first]


def format_spend(a: SpendAnswer, model: str, precision: str) -> str:
    head = [f"Budget: {money(a.budget_usd)} for {model} ({precision.upper()}).", *spend_lines(a), ""]
    title = f"Plan: {model}, {count(a.tokens)} tokens on {count(a.gpus)} {gpu_name(a.gpu_id)}"
    return "\n".join(head) + format_table(a.plan, title)


def spend_table_json(rows: list[dict], best: dict | None, budget_usd: float, days, buys: str) -> dict:
    out = []
    for r in rows:
        if "answer" in r:
            out.append(spend_json(r["answer"], r["evidence"], r["proxy"]))
        else:
            out.append({"gpu": r["gpu_id"], "price_tier": r["tier"], "usd_per_gpu_hour": r["usd_per_gpu_hour"],
                        "throughput_evidence": r["evidence"], "reason": r["reason"], "plan": None})
    return {"schema_version": SCHEMA_VERSION, "mode": "budget", "budget_usd": budget_usd, "days": days, "buys": buys,
            "rows": out, "best": best}


def format_spend_table(rows: list[dict], best: dict | None, budget_usd: float, days, buys: str, model: str,
                       tokens, precision: str) -> str:
    answer_label = "Tokens bought (P10 to P90)" if buys == "tokens" else "Days (P10 to P90)"
    # a budget that buys tokens is spent whole, so its row shows the days it takes instead of the cost
    last = "Days" if buys == "tokens" else "Cost"
    header = ["", "Accelerator", "Price tier", "$/GPU-hour", "GPUs", answer_label, last, "Throughput"]
    body, missing = [], []
    for i, r in enumerate(rows):
        if "answer" not in r:
            missing.append(f"- {gpu_name(r['gpu_id'])}, {r['tier']}: {r['reason']}")
            continue
        a = r["answer"]
        q = a.plan.results
        mark = "best" if best and best["index"] == i else ""
        answer = _tokens(a) if a.buys == "tokens" else _q(q["days_with_failures"])
        if not a.feasible and buys == "days":
            answer = f"buys only {_tokens(a)} tokens"
        last_cell = (format_value(q["days_with_failures"]["value"], "days", 2) if buys == "tokens"
                     else _q(q["cost_usd"], "USD"))
        body.append([mark, gpu_name(a.gpu_id), r["tier"] + (" (proxy)" if r["proxy"] else ""),
                     f"{a.usd_per_gpu_hour:,.2f}", count(a.gpus), answer, last_cell,
                     "estimated" if r["evidence"] == "estimated" else "own evidence"])
    what = (f"the tokens {money(budget_usd)} buys within {format_value(days, 'days', 3)}" if buys == "tokens"
            else f"the days {money(budget_usd)} buys for {model}, {count(tokens)} tokens")
    lines = [f"Budget: {what} ({precision.upper()}), on each priced accelerator and price tier, "
             + ("most tokens first." if buys == "tokens" else "fastest first; a row the budget cannot pay for says "
                "what it buys instead."), ""]
    lines += _table(header, body)
    lines += _best_lines(rows, best, "most tokens" if buys == "tokens" else "fastest")
    lines += ["", "Throughput 'estimated': the accelerator has no benchmarks or published runs of its own; its MFU "
              "comes from other accelerators' evidence, with the wider band measured on classes left out."]
    if missing:
        lines += ["", "No answer:", *missing]
    lines += ["", "Each row is a forward plan at that size; its notes and every band are in --json."]
    return "\n".join(lines)
