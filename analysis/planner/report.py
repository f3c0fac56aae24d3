"""The plan for people: a text table rounded to what each band allows, GPU names rather than ids,
goodput as a percentage, and ranges whose ends are equal printed as one value
(:mod:`analysis.page.formatting` throughout)."""

from __future__ import annotations

import math

from analysis.page.formatting import count, money, percent
from analysis.page.names import gpu_name
from analysis.planner.inputs import KEYS, Plan

# The rows of the readable table (the JSON carries every key).
TABLE_KEYS = ("days", "days_with_failures", "gpu_hours", "cost_usd", "energy_mwh", "household_years", "co2_t",
              "energy_gpu_tdp_mwh", "energy_facility_mwh", "interruptions", "goodput", "checkpoint_interval_min")


def significant_digits(value: float, p10: float | None, p90: float | None) -> int:
    """Digits a value can honestly carry: 3 where its band is within +-5 % (or it has none), 2
    otherwise. A value whose P10-P90 spans +-20 % has no third digit to give."""
    if p10 is None or p90 is None or value == 0:
        return 3
    half_width = (p90 - p10) / 2.0 / abs(value)
    return 3 if half_width <= 0.05 else 2


def _round(value: float, digits: int) -> float:
    if value == 0:
        return 0.0
    return round(value, digits - 1 - math.floor(math.log10(abs(value))))


def _number_text(value: float, digits: int) -> str:
    """``value`` rounded to ``digits`` significant digits, with separators; words from a million."""
    v = _round(value, digits)
    if v == 0:
        return "0"
    if abs(v) >= 1e6:
        return count(v)
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:.{max(0, digits - 1 - math.floor(math.log10(abs(v))))}f}"


def format_value(value: float, unit: str, digits: int = 3) -> str:
    """One value in its unit, to ``digits`` significant digits: '$55.6M', '4.2 million GPU-hours',
    '7,600 MWh', '96.7 %' (a fraction), '42 days', '120' (a count)."""
    if unit == "USD":
        return money(value, digits)
    if unit == "fraction":
        return percent(value, 1)
    text = _number_text(value, digits)
    return text if unit == "count" else f"{text} {unit}"


def format_range(p10: float, p90: float, unit: str, digits: int) -> str:
    """'37 to 81 days' (the unit once), or one value where the two ends print the same."""
    low, high = format_value(p10, unit, digits), format_value(p90, unit, digits)
    if low == high:
        return low
    suffix = f" {unit}"
    if unit not in ("USD", "fraction", "count") and low.endswith(suffix) and high.endswith(suffix):
        low = low[: -len(suffix)]
    return f"{low} to {high}"


def readable_rows(result: Plan) -> list[tuple[str, str, str]]:
    """(label, value, P10-P90) per row of the readable table; rows with no value say why."""
    rows = []
    for key in TABLE_KEYS:
        unit, label = KEYS[key]
        r = result.results[key]
        if key == "energy_mwh":
            label = f"Energy, {result.energy_basis or 'no'} basis (leads)"
        if r["value"] is None:
            rows.append((label, "n/a", ""))
            continue
        digits = significant_digits(r["value"], r["p10"], r["p90"])
        rows.append((label, format_value(r["value"], unit, digits), format_range(r["p10"], r["p90"], unit, digits)))
    return rows


def format_table(result: Plan, title: str) -> str:
    """The plan as a readable text table with its notes and the prices."""
    rows = readable_rows(result)
    width = max(len(label) for label, _, _ in rows)
    value_width = max(len(v) for _, v, _ in rows)
    lines = [title, "", f"{'':<{width}}  {'value':>{value_width}}  P10 to P90"]
    lines += [f"{label:<{width}}  {value:>{value_width}}  {band}" for label, value, band in rows]
    lines.append("")
    lines += [f"- {n}" for n in result.notes]
    tco = result.steps["tco_usd_per_gpu_hour"]
    lines.append("")
    lines.append("Owning (the book's TCO): " + ("not modelled for this GPU" if math.isnan(tco)
                                                 else f"{money(tco)} per GPU-hour"))
    if result.prices:
        lines.append("Renting (data/cloud_prices.csv):")
        lines += [f"  {what}: {_price_range(lo, hi)} per GPU-hour ({src})" for what, lo, hi, src in result.prices]
        lo, hi = rental_cost_range_usd(result)
        lines.append(f"  this run at those prices: {_price_range(lo, hi)}")
    else:
        lines.append("Renting: no sourced rental price for this GPU in data/cloud_prices.csv")
    return "\n".join(lines)


def _price_range(low: float, high: float) -> str:
    a, b = money(low), money(high)
    return a if a == b else f"{a} to {b}"


def rental_cost_range_usd(result: Plan) -> tuple[float, float] | None:
    """The run's GPU-hours at the lowest and highest sourced rental price for its GPU."""
    if not result.prices:
        return None
    low = min(p[1] for p in result.prices)
    high = max(p[2] for p in result.prices)
    hours = result.results["gpu_hours"]["value"]
    return hours * low, hours * high


def title(model_name: str, tokens: float, gpus: int, gpu_id: str, precision: str) -> str:
    """'Plan: Llama 3.1 70B, 15 trillion tokens on 4,096 H100 SXM 80GB (BF16)'."""

    return f"Plan: {model_name}, {count(tokens)} tokens on {count(gpus)} {gpu_name(gpu_id)} ({precision.upper()})"
