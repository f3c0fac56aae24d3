"""The plan itself: :func:`plan` chains the steps of :mod:`analysis.planner` for one run."""

from __future__ import annotations

import math

import numpy as np

from analysis import costs, energy, flops, reliability, uncertainty
from analysis.chapters import gpu_cost
from analysis.chapters.registry import get_section, resolve_section
from analysis.data.load import derived, load_table
from analysis.hardware import gpu_name
from analysis.hardware import peak_tflops as peak
from analysis.params import defaults as d
from analysis.params.parameters import Parameters
from analysis.planner import checks
from analysis.planner import power as powers
from analysis.planner import rates as throughputs
from analysis.planner.failures import Recovery, job_mtbf_hours, planned_per_wall_hour
from analysis.planner.inputs import KEYS, PEAK_COLUMN, PRECISIONS, Plan, PlanError, PlanInputs
from analysis.units import HOURS_PER_DAY

TCO_SYSTEMS = {"h100_sxm": "h100", "gb200_nvl72": "gb200"}  # GPUs whose TCO the book models


def peak_tflops(gpu_id: str, precision: str) -> float:

    return _peak(gpu_id, PEAK_COLUMN[precision])


@derived  # once per data folder; a memo hit notes the first call's reads again (the ledger's provenance)
def _peak(gpu_id: str, column: str) -> float:

    return peak(gpu_id, column)


# --- step 2: throughput (analysis.planner.rates) ------------------------------------------------


def throughput(inputs: PlanInputs, flops_per_token: float, peak: float):
    """(tokens/s/GPU, how it was obtained, the MFU estimate or None): :func:`analysis.planner.rates.throughput`
    without its FLOP conventions and strong-scaling model."""
    rate, how, est, _, _ = throughputs.throughput(inputs, flops_per_token, peak)
    return rate, how, est


# --- step 5: price ---------------------------------------------------------------------------------------

def tco_usd_per_gpu_hour(gpu_id: str, pue: float | None, tariff: float | None) -> float | None:
    """The book's TCO per GPU-hour (owning) for ``gpu_id``, with PUE and tariff if given: the TCO
    chapter's own cost chain (:func:`analysis.chapters.gpu_cost.tco_usd_per_gpu_hour`) on the TCO
    chapter's parameters as the parameter registry resolves them; None for a GPU whose TCO the book
    does not model."""

    if gpu_id not in TCO_SYSTEMS:
        return None
    overrides = {name: v for name, v in (("pue", pue), ("tariff_usd_per_kwh", tariff)) if v is not None}
    P = Parameters(resolve_section(get_section("tco"), overrides))
    return float(gpu_cost.tco_usd_per_gpu_hour(P, TCO_SYSTEMS[gpu_id]))


@derived
def _distributions():

    return load_table("distributions").set_index("param")


def cloud_prices(gpu_id: str):
    """Rows of ``data/cloud_prices.csv`` for this GPU (renting), latest first."""

    return _cloud_prices(gpu_id)


@derived  # once per data folder and GPU: the inverse modes plan many sizes of one job
def _cloud_prices(gpu_id: str):
    table = load_table("cloud_prices")
    return table[table["gpu_id"] == gpu_id].sort_values(["period", "snapshot_id"], ascending=[False, True])


@derived
def _price_rows(gpu_id: str) -> tuple:
    """(what, low, high, source) of each sourced rental price of ``gpu_id``, latest first."""
    return tuple((f"{r.period} {r.what}", r.low_usd_per_gpu_hour, r.high_usd_per_gpu_hour, r.source_id)
                 for r in _cloud_prices(gpu_id).itertuples())


# --- uncertainty -------------------------------------------------------------------------------------------

def _distribution(name: str) -> dict:
    return _distribution_row(name)


@derived
def _distribution_row(name: str) -> dict:
    return dict(_distributions().loc[name])


def _draw(rng, name: str, mode: float, n: int) -> np.ndarray:
    """``n`` draws of input ``name`` (its range in data/distributions.csv) peaking at ``mode``."""
    return uncertainty.draw_one(rng, _distributions().loc[name], mode, n)


def outcomes(tokens_total, gpus, rate, mtbf, planned, rec: Recovery, w_tdp, w_facility, lead, price,
             household_kwh, grid) -> dict:
    """Every output for (possibly array) inputs: the plan's arithmetic in one place. ``w_tdp`` and
    ``w_facility`` are watts per GPU-hour paid on each basis (None where there is none); ``lead``
    names the basis energy, household-years and CO2 lead with."""

    days = costs.run_gpu_hours(tokens_total, rate) / gpus / HOURS_PER_DAY
    interval = reliability.daly_interval(rec.write_h, mtbf)
    planned = planned_per_wall_hour(planned, rec.restart_h)
    shares = reliability.expected_time_fractions(mtbf, interval, rec.write_h, rec.detect_h, rec.restart_h, planned)
    good = shares["useful training"]
    # Checkpoint writes are part of a run without failures too: the failure-free days above count
    # compute only, so the wall-clock days are compute / useful share.
    wall_days = days / good
    wall_hours = wall_days * HOURS_PER_DAY
    keep = 1.0 - np.clip(planned * rec.restart_h, 0.0, 1.0)
    gpu_hours = gpus * wall_hours
    mwh = {basis: None if w is None else energy.energy_kwh_from_gpu_hours(gpu_hours, w) / 1_000.0
           for basis, w in (("gpu-tdp", w_tdp), ("facility", w_facility))}
    co2 = {basis: None if v is None else energy.tonnes_co2(v * 1_000.0, grid) for basis, v in mwh.items()}
    lead_mwh = None if lead is None else mwh[lead]
    return {
        "days": days, "days_with_failures": wall_days, "gpu_hours": gpu_hours,
        "cost_usd": gpu_hours * price if price is not None else None,
        "energy_mwh": lead_mwh, "household_years": None if lead_mwh is None else lead_mwh * 1_000.0 / household_kwh,
        "co2_t": None if lead is None else co2[lead],
        "energy_gpu_tdp_mwh": mwh["gpu-tdp"], "co2_gpu_tdp_t": co2["gpu-tdp"],
        "energy_facility_mwh": mwh["facility"], "co2_facility_t": co2["facility"],
        "interruptions": wall_hours * (keep / (mtbf + rec.detect_h + rec.restart_h) + planned),
        "goodput": good, "checkpoint_interval_min": interval * 60.0,
    }


# --- the bands ------------------------------------------------------------------------------------------------

def band_draws(inputs: PlanInputs, est, conv, facility_pue: float, rec: Recovery, household: float):
    """The seeded draws of the inputs the user left to the book: (throughput scale, PUE, recovery
    times, household baseline), in one fixed order, so that :func:`wall_days_draws` draws the
    plan's own."""
    rng = np.random.default_rng(inputs.seed)
    n = inputs.draws
    scale = rng.choice(est.ratios, n) if est is not None else _draw(rng, "mfu_scale", 1.0, n)
    if conv is not None and len(conv["ratios"]) > 1:  # the conventions an unstated count could be, a third each
        scale = scale * rng.choice(np.array([conv["ratios"][c] for c in throughputs.CONVENTIONS]), n)
    pue_draw = np.full(n, facility_pue) if inputs.pue is not None else _draw(rng, "pue", facility_pue, n)
    restart_minutes = rec.restart_h * 60
    restart_draw = (np.full(n, restart_minutes) if inputs.restart_minutes is not None
                    else _draw(rng, "restart_minutes", restart_minutes, n))
    household_draw = _draw(rng, "household_kwh_per_year", household, n)
    return scale, pue_draw, Recovery(rec.write_h, rec.detect_h, restart_draw / 60.0), household_draw


def wall_days_draws(inputs: PlanInputs) -> np.ndarray:
    """The seeded draws of a plan's wall-clock days with failures, exactly as :func:`plan` draws
    them, without the rest of the plan (the inverse modes ask this of many job sizes)."""
    fpt = flops.model_flops_per_token(inputs.model)
    rate, _, est, conv, _ = throughputs.throughput(inputs, fpt, peak_tflops(inputs.gpu_id, inputs.precision))
    mtbf, planned, _ = job_mtbf_hours(inputs.gpus, inputs.failure_model)
    rec = Recovery.of(inputs.checkpoint_write_seconds, inputs.restart_minutes)
    pue = d.PUE.default if inputs.pue is None else inputs.pue
    scale, _, rec_draw, _ = band_draws(inputs, est, conv, pue, rec, d.HOUSEHOLD_KWH_PER_YEAR.default)
    out = outcomes(inputs.tokens, inputs.gpus, rate * scale, mtbf, planned, rec_draw, None, None, None, None, 1.0, 0.0)
    return np.broadcast_to(out["days_with_failures"], (inputs.draws,))


# --- the plan ------------------------------------------------------------------------------------------------

def plan(inputs: PlanInputs) -> Plan:
    """Plan one run (see :mod:`analysis.planner` for the steps)."""
    if inputs.precision not in PRECISIONS:
        raise PlanError(f"--precision must be one of {', '.join(PRECISIONS)}, not {inputs.precision!r}")
    steps, notes = {}, []
    # 1. FLOPs
    parts = flops.flops_per_token_parts(inputs.model)
    fpt = sum(parts.values())
    steps.update(flops_per_token=fpt, attention_flops_per_token=parts["attention"],
                 router_flops_per_token=parts["router"], total_flop=fpt * inputs.tokens)
    # 2. throughput
    peak = peak_tflops(inputs.gpu_id, inputs.precision)
    steps["peak_tflops"] = peak
    checks.refuse_impossible(inputs, fpt)
    rate, how, est, conv, strong = throughputs.throughput(inputs, fpt, peak)
    steps["tokens_per_s_per_gpu"] = rate
    steps["mfu"] = flops.mfu_from_tokens_per_s(rate, fpt, peak)
    notes.append(f"Throughput: {how}.")
    # 4. failures
    mtbf, planned, failure_how = job_mtbf_hours(inputs.gpus, inputs.failure_model)
    rec = Recovery.of(inputs.checkpoint_write_seconds, inputs.restart_minutes)
    steps.update(job_mtbf_hours=mtbf, checkpoint_write_seconds=rec.write_h * 3_600, restart_minutes=rec.restart_h * 60)
    notes.append(f"Failures: {failure_how}; job MTBF {mtbf:,.2f} h.")
    # 5. price
    tco = tco_usd_per_gpu_hour(inputs.gpu_id, inputs.pue, inputs.tariff_usd_per_kwh)
    prices = list(_price_rows(inputs.gpu_id))
    if inputs.usd_per_gpu_hour is not None:
        price, price_how = inputs.usd_per_gpu_hour, "the given price"
    elif tco is not None:
        price, price_how = tco, (f"the book's TCO for owning this GPU at {d.UTILIZATION.default:.0%} utilization, every hour "
                                 "of its life paid for (the TCO chapter's cost model at its parameters)")
    else:

        price, price_how = None, f"none: the book does not model the TCO of the {gpu_name(inputs.gpu_id)}; give --usd-per-gpu-hour"
    steps["usd_per_gpu_hour"] = math.nan if price is None else price
    steps["tco_usd_per_gpu_hour"] = math.nan if tco is None else tco
    notes.append(f"Price per GPU-hour: {price_how}.")
    # 6. energy, on both bases
    pw = powers.power_for(inputs.gpu_id)
    lead = powers.choose_basis(inputs.energy_basis, pw)
    facility_pue = d.PUE.default if inputs.pue is None else inputs.pue
    tdp_pue = 1.0 if inputs.pue is None else inputs.pue  # published GPU-TDP figures apply a PUE only where stated
    w_tdp = None if pw.tdp_w is None else pw.tdp_w * tdp_pue
    w_facility = None if pw.it_w is None else powers.facility_w_per_gpu(pw.it_w, facility_pue)
    grid = powers.grid(inputs.grid_id, inputs.grid_g_co2_per_kwh)
    household = d.HOUSEHOLD_KWH_PER_YEAR.default
    steps.update(tdp_w=math.nan if pw.tdp_w is None else pw.tdp_w, it_w_per_gpu=math.nan if pw.it_w is None else pw.it_w,
                 pue=facility_pue, meter_w_per_gpu=math.nan if w_facility is None else w_facility,
                 gpu_tdp_w_per_gpu=math.nan if w_tdp is None else w_tdp, grid_g_co2_per_kwh=grid["g_co2_per_kwh"])
    bases = {"gpu-tdp": None if w_tdp is None else {"w_per_gpu": w_tdp, "tdp_w": pw.tdp_w, "pue": tdp_pue,
                                                    "how": f"{pw.tdp_how}" + ("" if inputs.pue is None else f" x PUE {tdp_pue:g}")},
             "facility": None if w_facility is None else {"w_per_gpu": w_facility, "it_w": pw.it_w, "pue": facility_pue,
                                                          "how": pw.it_how}}
    if lead is None:
        notes.append(f"Energy: none; {inputs.gpu_id} has no published TDP and {pw.it_how}.")
    else:
        notes.append(f"Energy leads with the {lead} basis ({powers.BASIS_WORDS[lead]}): "
                     + (f"{w_facility:,.0f} W per GPU-hour, {pw.it_w:,.0f} W of IT from {pw.it_how}, x PUE {facility_pue:.2f}"
                        f" x load factor {d.LOAD_FACTOR.default:.2f}"
                        if lead == "facility" else
                        f"{w_tdp:,.0f} W per GPU-hour, {pw.tdp_how}" + ("" if inputs.pue is None else f" x PUE {tdp_pue:.2f}")
                        + ("" if w_facility is not None else f"; facility basis: {pw.it_how}"))
                     + f". CO2 on {grid['name']}, {grid['g_co2_per_kwh']:,.0f} g per kWh.")
    point = outcomes(inputs.tokens, inputs.gpus, rate, mtbf, planned, rec, w_tdp, w_facility, lead, price,
                     household, grid["g_co2_per_kwh"])
    # 7. bands: the inputs the user left to the book vary over their ranges
    n = inputs.draws
    scale, pue_draw, rec_draw, household_draw = band_draws(inputs, est, conv, facility_pue, rec, household)
    meter_draw = None if pw.it_w is None else powers.facility_w_per_gpu(pw.it_w, pue_draw)  # the average draw
    draws = outcomes(inputs.tokens, inputs.gpus, rate * scale, mtbf, planned, rec_draw, w_tdp, meter_draw, lead, price,
                     household_draw, grid["g_co2_per_kwh"])
    results = {}
    for key, (unit, label) in KEYS.items():
        if point[key] is None:
            results[key] = {"value": None, "unit": unit, "label": label, "p10": None, "p50": None, "p90": None}
            continue
        p10, p50, p90 = np.percentile(np.broadcast_to(draws[key], (n,)), [10, 50, 90])
        results[key] = {"value": float(point[key]), "unit": unit, "label": label,
                        "p10": float(p10), "p50": float(p50), "p90": float(p90)}
    fixed = [name for name, v in (("PUE", inputs.pue), ("restart time", inputs.restart_minutes)) if v is not None]
    notes.append(f"Bands: {n:,} seeded draws of "
                 + (f"the MFU estimate's measured errors ({est.error_scope})" if est is not None
                    else "your cluster's throughput against the given one (+-10 %)")
                 + (", the FLOP convention the figure could count (a third of the draws each)"
                    if conv is not None and len(conv["ratios"]) > 1 else "")
                 + (", PUE (facility basis)" if inputs.pue is None else "")
                 + (", restart time" if inputs.restart_minutes is None else "")
                 + " and the household baseline (data/distributions.csv)"
                 + (f"; fixed as given: {', '.join(fixed)}" if fixed else "") + ".")
    notes += checks.unusual(inputs, steps, point, mtbf)
    throughput_doc = {"how": how, "mfu": steps["mfu"], "tokens_per_s_per_gpu": rate, "estimated": est is not None,
                      "estimate": None if est is None else est.to_json(),
                      "flops_counted": None if conv is None else conv["assumed"],
                      "flops_counted_given": None if conv is None else conv["stated"],
                      "convention_ratios": None if conv is None else dict(conv["ratios"]),
                      "strong_scaling": None if strong is None else {
                          "reference_gpus": strong.ref_gpus, "limit_gpus": strong.limit_gpus, "note": strong.note,
                          "efficiency": float(strong.efficiency(inputs.gpus)), "tp": strong.layout.tp,
                          "pp": strong.layout.pp}}
    samples = {"days_with_failures": np.broadcast_to(draws["days_with_failures"], (n,)),
               "meter_w_per_gpu": None if meter_draw is None else np.broadcast_to(meter_draw, (n,))}
    return Plan(results, steps, notes, prices, lead, bases, grid, throughput_doc, samples)
