"""``plan --csv``: the plan's JSON as one row per quantity, for spreadsheets.

Columns: ``schema_version, gpu, key, label, value, unit, p10, p50, p90, basis``, one row per result
of each plan in the JSON (one plan, or one per accelerator of a power budget's table); an
accelerator the budget cannot plan is one row with its reason as the basis and no numbers. ``basis``
says what the quantity rests on: the throughput for the times, GPU-hours and failures; the price
per GPU-hour for the cost; the energy basis (and grid) for energy and carbon. Numbers are written
with Python's ``repr`` (every digit the JSON has); a quantity the planner does not model is empty.
The shape is ``docs/schemas/plan-csv-row.schema.json``.
"""

from __future__ import annotations

import csv
import io

from analysis.planner.inputs import SCHEMA_VERSION  # of plan --json and plan --csv (docs/schemas/)

COLUMNS = ("schema_version", "gpu", "key", "label", "value", "unit", "p10", "p50", "p90", "basis")
THROUGHPUT_KEYS = {"days", "days_with_failures", "gpu_hours", "interruptions", "goodput", "checkpoint_interval_min"}
PRICE_NOTE = "Price per GPU-hour: "


def _basis(key: str, plan: dict, price: str) -> str:
    if key in THROUGHPUT_KEYS:
        return f"throughput: {plan['throughput']['how'].split(': ')[0]}"  # the JSON's notes say how it was estimated
    if key == "cost_usd":
        return f"price per GPU-hour: {price}"
    basis = {"gpu_tdp": "gpu-tdp", "facility": "facility"}
    named = next((b for part, b in basis.items() if part in key), plan.get("energy_basis") or "none")
    if key.startswith("co2"):
        grid = plan["grid"]
        return f"energy basis: {named}; grid: {grid['name']}, {grid['g_co2_per_kwh']:g} g CO2 per kWh"
    return f"energy basis: {named}"


def _price(plan: dict, given: str | None) -> str:
    """The price basis the planner stated (a budget row's own, else its note on the price)."""
    if given:
        return given
    note = next((n for n in plan.get("notes", []) if n.startswith(PRICE_NOTE)), "")
    return note[len(PRICE_NOTE):].rstrip(".") or "not stated"


def _number(value) -> str:
    return "" if value is None else repr(float(value))


def rows(doc: dict, gpu: str | None = None) -> list[dict]:
    """The CSV's rows for a ``plan --json`` document (``gpu``: the accelerator of a single plan)."""
    plans = doc["rows"] if "rows" in doc else [{**doc, "gpu": doc.get("gpu", gpu)}]
    out = []
    for entry in plans:
        plan = entry.get("plan", entry) if "results" not in entry else entry
        if plan is None:  # an accelerator the budget cannot plan
            out.append({c: "" for c in COLUMNS} | {"schema_version": SCHEMA_VERSION, "gpu": entry["gpu"],
                                                    "basis": entry.get("reason", "")})
            continue
        price = _price(plan, entry.get("price_basis"))
        for key, r in plan["results"].items():
            out.append({"schema_version": SCHEMA_VERSION, "gpu": entry.get("gpu") or "", "key": key,
                        "label": r["label"], "value": _number(r["value"]), "unit": r["unit"],
                        "p10": _number(r["p10"]), "p50": _number(r["p50"]), "p90": _number(r["p90"]),
                        "basis": _basis(key, plan, price)})
    return out


def to_csv(doc: dict, gpu: str | None = None) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows(doc, gpu))
    return buffer.getvalue()
