"""Plan backwards: a deadline or a budget in, the job's size out (``plan --days``, ``plan
--budget-usd``), on one accelerator; :mod:`analysis.planner.inverse_table` runs it over every priced
accelerator and price tier.

Every answer is a forward plan (:func:`analysis.planner.plan`) at the size it finds, so it carries
the forward plan's numbers and bands, and planning that size forward gives the same answer back.
The search runs over whole nodes (the accelerator's server or rack, ``data/system_power.csv``; 8
where none is sourced) up to the largest cluster the book sources (``d.GPUS``: SemiAnalysis's
100,000-GPU cluster), a power budget's largest job if one is given, and the most GPUs a global
batch can feed. The throughput comes from the same chain as a forward plan's, with the
strong-scaling model (:mod:`analysis.planner.strong`) past the largest published job, so more GPUs
are not free: their time falls ever more slowly, and past some size rises again.

- **A deadline** (:func:`deadline_job`): the smallest job whose wall-clock days, failures included,
  are within the deadline; how likely it is to meet it (the share of the plan's seeded draws that
  finish in time); and the smallest job with a 90 % chance. When no size meets it, the fastest size
  and its days.
- **A budget** (:func:`spend`): with ``tokens`` the fastest job whose cost stays within the budget
  (the days it buys); with ``days`` and no tokens the tokens it buys by the deadline, on the
  smallest job that can spend it by then (bigger jobs are a little less efficient, so the smallest
  buys the most), or on a smaller one where more GPUs would train no more by then (it then spends
  less than the budget); with both, the deadline's job and whether the budget covers it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from analysis import flops
from analysis.params import defaults as d
from analysis.planner import core, memory, rates
from analysis.planner import power as powers
from analysis.planner.budget import budget_w_per_gpu, price_for
from analysis.planner.failures import Recovery, job_mtbf_hours
from analysis.planner.inputs import Plan, PlanError, PlanInputs
from analysis.units import HOURS_PER_DAY, SECONDS_PER_DAY

DEFAULT_NODE = 8  # GPUs per node where data/system_power.csv has no row: every sourced GPU server holds 8
CHANCE = 0.9  # the chance of meeting a deadline the second answer is sized for


def node_size(gpu_id: str) -> tuple[int, str]:
    """(devices per node, where that comes from)."""
    pw = powers.power_for(gpu_id)
    if pw.devices_per_node is not None:
        return int(pw.devices_per_node), f"{pw.system or 'node'} of {pw.devices_per_node}"
    return DEFAULT_NODE, f"node of {DEFAULT_NODE} (no sourced node size: 8, as every sourced GPU server)"


def largest_nodes(template: PlanInputs, per_node: int, power_mw: float | None, power_basis: str) -> tuple[int, str]:
    """(the most whole nodes the search may use, why)."""
    nodes, why = d.GPUS.default // per_node, f"the largest cluster the book sources ({d.GPUS.default:,} GPUs)"
    if power_mw is not None:
        w, _, _ = budget_w_per_gpu(template.gpu_id, power_basis, template.pue)
        fit = math.floor(power_mw * 1e6 / (w * per_node))
        if fit < 1:
            raise PlanError(f"--power-mw {power_mw:g}: one node of {per_node} {template.gpu_id} draws "
                            f"{w * per_node / 1e6:.3f} MW; give at least that")
        if fit < nodes:
            nodes, why = fit, f"the power budget ({power_mw:g} MW)"
    return nodes, why


def candidate_gpus(template: PlanInputs, per_node: int, max_nodes: int, why: str) -> np.ndarray:
    """Every whole-node job size from the smallest whose GPUs hold one training step
    (:func:`analysis.planner.memory.fits_one_step`) to ``max_nodes`` nodes; an error if none."""
    _, need, _ = memory.fits_one_step(template.model, 1, template.gpu_id, template.full_recompute)
    first = max(1, math.ceil(need / (memory.hbm_bytes(template.gpu_id) * per_node)))
    if first > max_nodes:
        raise PlanError(f"--gpu {template.gpu_id}: one training step of this model needs {first:,} nodes of {per_node}, "
                        f"more than {why} allows ({max_nodes:,} nodes)")
    return np.arange(first, max_nodes + 1, dtype=float) * per_node


def _flops_and_peak(template: PlanInputs) -> tuple[float, float]:
    return flops.model_flops_per_token(template.model), core.peak_tflops(template.gpu_id, template.precision)


def time_curve(template: PlanInputs, gpus: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(wall-clock days with failures, GPU-hours, tokens/s/GPU) of ``template`` at every job size
    of ``gpus``: the forward plan's point values, all sizes at once."""
    fpt, peak = _flops_and_peak(template)
    rate = rates.rate_curve(template, gpus, fpt, peak)
    mtbf, planned, _ = job_mtbf_hours(gpus, template.failure_model)
    rec = Recovery.of(template.checkpoint_write_seconds, template.restart_minutes)
    out = core.outcomes(template.tokens, gpus, rate, mtbf, planned, rec, None, None, None, None, 1.0, 0.0)
    return np.asarray(out["days_with_failures"], dtype=float), np.asarray(out["gpu_hours"], dtype=float), rate


def _plan_at(template: PlanInputs, gpus: int, tokens: float | None = None) -> Plan:
    price, _ = price_for(template)
    return core.plan(replace(template, gpus=int(gpus), tokens=template.tokens if tokens is None else tokens,
                             usd_per_gpu_hour=price if template.usd_per_gpu_hour is None else template.usd_per_gpu_hour,
                             strong_scaling=True))


def chance_of(result: Plan, days: float) -> float:
    """Share of the plan's seeded draws whose wall-clock days are within ``days``."""
    return float(np.mean(result.samples["days_with_failures"] <= days))


def meter_mw(result: Plan, gpus: int) -> dict | None:
    """The job's draw at the meter (all-in IT x PUE), MW, with its band over the PUE draws."""
    w = result.steps["meter_w_per_gpu"]
    if w != w:  # NaN: no facility basis for this accelerator
        return None
    draws = result.samples["meter_w_per_gpu"]
    lo, hi = np.percentile(draws, [10, 90])
    return {"value": gpus * w / 1e6, "p10": gpus * float(lo) / 1e6, "p90": gpus * float(hi) / 1e6, "unit": "MW"}


@dataclass
class DeadlineAnswer:
    gpu_id: str
    days: float
    per_node: int
    node_words: str
    gpus: int
    feasible: bool
    plan: Plan
    chance: float
    gpus_for_chance: int | None  # the smallest job with a CHANCE chance, None if no size reaches it
    chance_at_that: float | None
    max_gpus: int
    limit_why: str
    fastest_days: float
    meter: dict | None
    price_basis: str

    @property
    def nodes(self) -> int:
        return self.gpus // self.per_node


def _step_check(template: PlanInputs, days: float, gpus: np.ndarray, rate: np.ndarray) -> None:
    """A deadline shorter than one optimizer step of the fastest job is no deadline."""
    batch = min(float(d.MAX_GLOBAL_BATCH_TOKENS.default), float(template.tokens))
    step_s = float(np.min(batch / (rate * gpus)))
    if days * SECONDS_PER_DAY < step_s:
        raise PlanError(f"--days {days:g}: shorter than one optimizer step ({step_s:.3g} s for a batch of "
                        f"{batch:,.0f} tokens at the fastest size); give at least {step_s / SECONDS_PER_DAY:.3g} days")


def deadline_job(template: PlanInputs, days: float, power_mw: float | None = None,
                 power_basis: str = "facility") -> DeadlineAnswer:
    """The smallest whole-node job of ``template.gpu_id`` that trains ``template.tokens`` within
    ``days`` of wall clock, failures included (see the module docstring)."""
    if not (days > 0 and math.isfinite(days)):
        raise PlanError(f"--days must be a positive number of days, not {days!r}")
    per_node, node_words = node_size(template.gpu_id)
    max_nodes, why = largest_nodes(template, per_node, power_mw, power_basis)
    gpus = candidate_gpus(template, per_node, max_nodes, why)
    wall, _, rate = time_curve(template, gpus)
    _step_check(template, days, gpus, rate)
    fastest = int(np.argmin(wall))
    meets = np.flatnonzero(wall <= days)
    feasible = meets.size > 0
    i = int(meets[0]) if feasible else fastest
    result = _plan_at(template, int(gpus[i]))
    chance = chance_of(result, days)
    j, chance_j = _smallest_with_chance(template, gpus, wall, i, fastest, days, result)
    _, price_basis = price_for(template)
    return DeadlineAnswer(template.gpu_id, days, per_node, node_words, int(gpus[i]), feasible, result, chance,
                          None if j is None else int(gpus[j]), chance_j, int(gpus[-1]), why, float(wall[fastest]),
                          meter_mw(result, int(gpus[i])), price_basis)


def _smallest_with_chance(template, gpus, wall, start: int, stop: int, days: float, first: Plan):
    """(index, chance) of the smallest job from ``start`` to ``stop`` (the fastest) whose chance of
    meeting ``days`` is at least :data:`CHANCE`; (None, None) if even the fastest falls short.

    The draws' spread around the point moves little with the job's size, so the draws of the
    first answer, scaled to each size's point days, say where to look; each candidate is then
    planned for real, and the answer is the first whose own draws reach the chance."""
    chance = chance_of(first, days)
    if chance >= CHANCE:
        return start, chance
    spread = first.samples["days_with_failures"] / first.results["days_with_failures"]["value"]
    guess = np.array([np.mean(w * spread <= days) for w in wall[start:stop + 1]])
    reach = np.flatnonzero(guess >= CHANCE)
    j = start + (int(reach[0]) if reach.size else stop - start)
    seen = {}

    def exact(k: int) -> float:
        if k not in seen:
            draws = core.wall_days_draws(replace(template, gpus=int(gpus[k]), strong_scaling=True))
            seen[k] = float(np.mean(draws <= days))
        return seen[k]

    # the exact chance grows with the job up to the fastest size: bisect around the guess
    lo, hi = (start, j) if exact(j) >= CHANCE else (j, stop)
    if exact(hi) < CHANCE:
        return None, None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if exact(mid) >= CHANCE:
            hi = mid
        else:
            lo = mid
    return hi, exact(hi)


@dataclass
class SpendAnswer:
    gpu_id: str
    budget_usd: float
    usd_per_gpu_hour: float
    price_words: str
    per_node: int
    gpus: int
    buys: str  # "days" (tokens given) or "tokens" (a deadline given)
    tokens: float
    feasible: bool
    plan: Plan
    note: str
    tokens_band: tuple[float, float] | None = None

    @property
    def nodes(self) -> int:
        return self.gpus // self.per_node

    @property
    def days(self) -> dict:
        return self.plan.results["days_with_failures"]


def spend(template: PlanInputs, budget_usd: float, usd_per_gpu_hour: float, price_words: str,
          days: float | None = None, tokens_given: bool = True, power_mw: float | None = None,
          power_basis: str = "facility") -> SpendAnswer:
    """What ``budget_usd`` buys on ``template.gpu_id`` at ``usd_per_gpu_hour`` (see the module
    docstring); ``tokens_given`` False with ``days``: the tokens it buys by then."""
    if not (budget_usd > 0 and math.isfinite(budget_usd)):
        raise PlanError(f"--budget-usd must be a positive number of dollars, not {budget_usd!r}")
    per_node, _ = node_size(template.gpu_id)
    node_hour = usd_per_gpu_hour * per_node
    if budget_usd < node_hour:  # checked before anything else is computed
        raise PlanError(f"--budget-usd {budget_usd:,.0f}: below one node-hour of {template.gpu_id} "
                        f"({per_node} GPUs at ${usd_per_gpu_hour:,.2f} per GPU-hour = ${node_hour:,.2f}); give at least that")
    priced = replace(template, usd_per_gpu_hour=usd_per_gpu_hour, strong_scaling=True)
    max_nodes, why = largest_nodes(template, per_node, power_mw, power_basis)
    gpus = candidate_gpus(template, per_node, max_nodes, why)
    if tokens_given and days is not None:
        answer = deadline_job(priced, days, power_mw, power_basis)
        cost = answer.plan.results["cost_usd"]["value"]
        ok = answer.feasible and cost <= budget_usd
        note = (f"the deadline's job costs ${cost:,.0f}, " + ("within" if cost <= budget_usd else "over")
                + f" the ${budget_usd:,.0f} budget" + ("" if answer.feasible else "; and no size meets the deadline"))
        return SpendAnswer(template.gpu_id, budget_usd, usd_per_gpu_hour, price_words, per_node, answer.gpus, "days",
                           template.tokens, ok, answer.plan, note)
    if tokens_given:
        wall, hours, _ = time_curve(priced, gpus)
        cost = hours * usd_per_gpu_hour
        affordable = np.flatnonzero(cost <= budget_usd)
        if affordable.size:
            i = int(affordable[np.argmin(wall[affordable])])  # the fastest job the budget pays for
            note = f"the fastest job within the budget, up to {why}"
            return SpendAnswer(template.gpu_id, budget_usd, usd_per_gpu_hour, price_words, per_node, int(gpus[i]), "days",
                               template.tokens, True, _plan_at(priced, int(gpus[i])), note)
        # even one node costs more: say what the budget buys there instead
        i = int(np.argmin(cost))
        tokens = template.tokens * budget_usd / cost[i]
        note = (f"the budget does not buy {template.tokens:,.3g} tokens on any size (${cost[i]:,.0f} at the cheapest); "
                f"it buys {tokens:,.3g}")
        result = _plan_at(priced, int(gpus[i]), tokens)
        return SpendAnswer(template.gpu_id, budget_usd, usd_per_gpu_hour, price_words, per_node, int(gpus[i]), "tokens",
                           tokens, False, result, note, _tokens_band(result, tokens))
    if days is None:
        raise PlanError("--budget-usd needs --tokens (then it says the days the budget buys) or --days (the tokens it "
                        "buys by then)")
    # the smallest job that spends the budget by the deadline: GPUs x days x 24 x price = budget
    first = int(gpus[0]) // per_node
    nodes = min(max(first, math.ceil(budget_usd / (node_hour * days * HOURS_PER_DAY))), max_nodes)
    sizes = gpus[: nodes - first + 1]
    unit = replace(priced, tokens=1e12)
    wall_per_unit, _, _ = time_curve(unit, sizes)  # days per 1e12 tokens at each size, linear in tokens
    by_deadline = 1e12 * days / wall_per_unit  # the tokens each size trains by the deadline
    best = int(np.argmax(by_deadline))
    if best < len(sizes) - 1 and by_deadline[best] > by_deadline[-1]:
        # past some size more GPUs train no more by the deadline (strong scaling): spend less
        g = int(sizes[best])
        tokens = float(by_deadline[best])
        result = _plan_at(priced, g, tokens)
        note = (f"more GPUs would train no more by the deadline, so it spends "
                f"${result.results['cost_usd']['value']:,.0f} of the budget")
        return SpendAnswer(template.gpu_id, budget_usd, usd_per_gpu_hour, price_words, per_node, g, "tokens", tokens,
                           True, result, note, _tokens_band(result, tokens))
    g = nodes * per_node
    spent_hours = min(budget_usd / (usd_per_gpu_hour * g), days * HOURS_PER_DAY)  # wall-clock hours paid
    tokens = 1e12 * (spent_hours / HOURS_PER_DAY) / float(wall_per_unit[-1])
    result = _plan_at(priced, g, tokens)
    note = ("the smallest job that spends the budget by the deadline" if spent_hours < days * HOURS_PER_DAY + 1e-9
            and nodes < max_nodes else f"the largest job ({why}) cannot spend the budget by the deadline")
    return SpendAnswer(template.gpu_id, budget_usd, usd_per_gpu_hour, price_words, per_node, g, "tokens", tokens, True,
                       result, note, _tokens_band(result, tokens))


def _tokens_band(result: Plan, tokens: float) -> tuple[float, float]:
    """P10-P90 of the tokens a fixed spend buys: the wall clock is fixed, so tokens scale as the
    point's days over each draw's."""
    ratio = result.results["days_with_failures"]["value"] / result.samples["days_with_failures"]
    lo, hi = np.percentile(tokens * ratio, [10, 90])
    return float(lo), float(hi)
