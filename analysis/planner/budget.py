"""A power budget: the largest job that fits ``power_mw`` megawatts, on one accelerator or on every
priced one. The budget counts facility power (all-in IT power x PUE, what the grid connection
must carry) or IT power alone (``power_basis``); either way a job is a whole number of nodes (8-GPU
servers, NVL72 racks), so an accelerator without a sourced all-in power build-up has no answer."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from analysis.data.load import load_table
from analysis.hardware import gpu
from analysis.params import defaults as d
from analysis.planner import power as powers
from analysis.planner.core import TCO_SYSTEMS, cloud_prices, plan
from analysis.planner.inputs import PEAK_COLUMN, Plan, PlanError, PlanInputs

POWER_BASES = ("facility", "it")
POWER_BASIS_WORDS = {"facility": "facility power (all-in IT x PUE)", "it": "critical IT power (no facility overhead)"}


@dataclass
class BudgetAnswer:
    gpu_id: str
    gpus: int
    nodes: int
    devices_per_node: int
    w_per_gpu: float  # what the budget counts per GPU
    budget_used_mw: float
    plan: Plan
    price_basis: str


def budget_w_per_gpu(gpu_id: str, power_basis: str, pue: float | None) -> tuple[float, int, str]:
    """(watts the budget counts per GPU, devices per node, how) for ``gpu_id``."""
    if power_basis not in POWER_BASES:
        raise PlanError(f"--power-basis must be one of {', '.join(POWER_BASES)}, not {power_basis!r}")
    pw = powers.power_for(gpu_id)
    if pw.it_w is None or pw.devices_per_node is None:
        raise PlanError(f"--power-mw: {gpu_id} has {pw.it_how if pw.it_w is None else 'no node size in data/system_power.csv'}; "
                        "a power budget needs its all-in power build-up")
    factor = (d.PUE.default if pue is None else pue) if power_basis == "facility" else 1.0
    return pw.it_w * factor, pw.devices_per_node, pw.it_how


def largest_job(template: PlanInputs, power_mw: float, power_basis: str = "facility") -> BudgetAnswer:
    """The plan of the largest whole-node job of ``template.gpu_id`` within ``power_mw``."""
    w, per_node, _ = budget_w_per_gpu(template.gpu_id, power_basis, template.pue)
    nodes = math.floor(power_mw * 1e6 / (w * per_node))
    if nodes < 1:
        raise PlanError(f"--power-mw {power_mw:g}: one node of {per_node} {template.gpu_id} draws "
                        f"{w * per_node / 1e6:.3f} MW of {POWER_BASIS_WORDS[power_basis]}; give at least that")
    gpus = nodes * per_node
    price, basis = price_for(template)
    result = plan(replace(template, gpus=gpus, usd_per_gpu_hour=price))
    if price is None and result.results["cost_usd"]["value"] is not None:
        basis = "the book's TCO (owning)"
    return BudgetAnswer(template.gpu_id, gpus, nodes, per_node, w, gpus * w / 1e6, result, basis)


def price_for(template: PlanInputs) -> tuple[float | None, str]:
    """The price a budget row uses: the given one, else the plan's own (the book's TCO where it
    models the GPU), else the median of the sourced rental quotes (mid of each low-high)."""

    if template.usd_per_gpu_hour is not None:
        return template.usd_per_gpu_hour, "the given price"
    if template.gpu_id in TCO_SYSTEMS:
        return None, "the book's TCO (owning)"
    quotes = cloud_prices(template.gpu_id)
    if quotes.empty:
        return None, "no sourced price"
    mids = (quotes["low_usd_per_gpu_hour"] + quotes["high_usd_per_gpu_hour"]) / 2.0
    return float(np.median(mids)), f"renting: median of {len(quotes)} sourced quotes"


def priced_accelerators() -> list[str]:
    """Accelerators with a price: the book's TCO or a sourced rental quote, in ``gpus.csv`` order."""

    rented = set(load_table("cloud_prices")["gpu_id"])
    return [g for g in load_table("gpus")["gpu_id"] if g in TCO_SYSTEMS or g in rented]


def budget_table(template: PlanInputs, power_mw: float, power_basis: str = "facility") -> list[dict]:
    """One row per priced accelerator: the largest job within ``power_mw`` and its plan, or why
    there is none (no power build-up, no path at the precision, a node above the budget)."""

    rows = []
    for gpu_id in priced_accelerators():
        row = {"gpu_id": gpu_id}
        pw = powers.power_for(gpu_id)
        if np.isnan(float(gpu(gpu_id)[f"{PEAK_COLUMN[template.precision]}_dense_tflops"])):
            rows.append({**row, "reason": f"no {template.precision.upper()} tensor path"})
        elif pw.it_w is None:
            rows.append({**row, "reason": "no sourced all-in power build-up (data/system_power.csv)"})
        elif pw.devices_per_node is None:
            rows.append({**row, "reason": "no sourced node size (data/system_power.csv)"})
        else:
            w, per_node, _ = budget_w_per_gpu(gpu_id, power_basis, template.pue)
            if w * per_node > power_mw * 1e6:
                rows.append({**row, "reason": f"one node of {per_node} draws {w * per_node / 1e6:.3g} MW, above the budget"})
            else:
                job = replace(template, gpu_id=gpu_id, draws=min(template.draws, 1_000))
                rows.append({**row, "answer": largest_job(job, power_mw, power_basis)})
    return rows
