"""Total cost of ownership per GPU-hour and what it means per trained token.

TCO per GPU-hour = capital charge (:mod:`analysis.capex`) + opex per hour (:mod:`analysis.opex`).
SemiAnalysis prices every H100 token at $1.42 per GPU-hour, its TCO with no rental margin (A13),
and puts GB200 NVL72's TCO per GPU at ~1.6x the H100's (A12): the speed-up GB200 must deliver per
GPU to match the H100's performance per TCO dollar. Its opex items and cost of capital are not
public, so the book builds its own TCO from independent sources and compares it with both figures;
:func:`implied_cost_of_capital` gives the rate at which the book's TCO would equal $1.42 (a check,
not an input). Dollars per token are in :mod:`analysis.costs`.
"""

from __future__ import annotations

from collections.abc import Mapping

from analysis.capex import capex_per_gpu_hour_usd, per_gpu_usd, solve_cost_of_capital
from analysis.opex import HOURS_PER_MONTH, opex_usd_per_gpu_month

# Parameter names (analysis/defaults.py) that :func:`system_tco_per_gpu_hour_usd` reads.
SYSTEM_INPUTS = {"h100": ("h100_allin_usd", "h100_gpus_per_server", "h100_it_w_per_gpu"),
                 "gb200": ("gb200_allin_usd", "gb200_gpus_per_rack", "gb200_it_w_per_gpu")}


def tco_per_gpu_hour_usd(capex_usd_per_gpu: float, opex_usd_per_gpu_month: float, cost_of_capital: float,
                         useful_life_years: float, utilization: float = 1.0) -> float:
    """Cost of one used GPU-hour: capital charge plus opex, both spread over used hours."""
    return (capex_per_gpu_hour_usd(capex_usd_per_gpu, cost_of_capital, useful_life_years, utilization)
            + opex_usd_per_gpu_month / (HOURS_PER_MONTH * utilization))


def system_costs(system: str, p) -> dict[str, float]:
    """The cost of one GPU of ``"h100"`` or ``"gb200"`` from the cost parameters in ``p`` (a
    chapter's ``P`` namespace, or a mapping with the same names), step by step:
    ``capex_usd_per_gpu``, ``opex_usd_per_gpu_month``, ``capex_usd_per_gpu_hour``,
    ``opex_usd_per_gpu_hour`` and their sum ``tco_usd_per_gpu_hour`` (hours are used hours)."""
    get = p.__getitem__ if isinstance(p, Mapping) else lambda name: getattr(p, name)
    allin, gpus, it_w = (get(name) for name in SYSTEM_INPUTS[system])
    capex_gpu = per_gpu_usd(allin, gpus)
    opex_month = opex_usd_per_gpu_month(
        it_w_per_gpu=it_w, pue=get("pue"), tariff_usd_per_kwh=get("tariff_usd_per_kwh"),
        datacenter_usd_per_kw_month=get("datacenter_usd_per_kw_month"), capex_usd_per_gpu=capex_gpu,
        maintenance_frac_per_year=get("maintenance_frac_per_year"),
        other_usd_per_gpu_month=get("other_usd_per_gpu_month"))
    capex_hour = capex_per_gpu_hour_usd(capex_gpu, get("cost_of_capital"), get("useful_life_years"),
                                        get("utilization"))
    opex_hour = opex_month / (HOURS_PER_MONTH * get("utilization"))
    return {"capex_usd_per_gpu": capex_gpu, "opex_usd_per_gpu_month": opex_month,
            "capex_usd_per_gpu_hour": capex_hour, "opex_usd_per_gpu_hour": opex_hour,
            "tco_usd_per_gpu_hour": capex_hour + opex_hour}


def system_tco_per_gpu_hour_usd(system: str, p) -> float:
    """TCO per GPU-hour of ``"h100"`` or ``"gb200"`` (:func:`system_costs`). Every chapter that
    prices a GPU-hour reads the TCO chapter's result, which this computes."""
    return system_costs(system, p)["tco_usd_per_gpu_hour"]


def implied_cost_of_capital(target_tco_usd_per_gpu_hour: float, capex_usd_per_gpu: float,
                            opex_usd_per_gpu_hour: float, useful_life_years: float,
                            utilization: float = 1.0) -> float:
    """The cost of capital per year at which a GPU's TCO per used hour would equal
    ``target_tco_usd_per_gpu_hour`` (e.g. the report's $1.42 per H100-hour, A13): what is left of
    the target after opex must be the capital charge. NaN when that remainder is below
    straight-line depreciation: then no non-negative rate reaches the target."""
    try:
        return solve_cost_of_capital(capex_usd_per_gpu, target_tco_usd_per_gpu_hour - opex_usd_per_gpu_hour,
                                     useful_life_years, utilization)
    except ValueError:
        return float("nan")


def breakeven_speedup(tco_new_per_gpu_hour: float, tco_old_per_gpu_hour: float) -> float:
    """Per-GPU speed-up the new system needs to match the old one's performance per TCO dollar."""
    return tco_new_per_gpu_hour / tco_old_per_gpu_hour


def rental_margin(price_usd_per_gpu_hour: float, tco_usd_per_gpu_hour: float) -> float:
    """Gross margin a renter pays over the owner's TCO, as a fraction of TCO (price/TCO - 1)."""
    return price_usd_per_gpu_hour / tco_usd_per_gpu_hour - 1.0
