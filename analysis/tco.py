"""Total cost of ownership per GPU-hour and what it means per trained token.

TCO per GPU-hour = capital charge (:mod:`analysis.capex`) + opex per hour (:mod:`analysis.opex`).
SemiAnalysis prices every H100 token at $1.42 per GPU-hour, its TCO with no rental margin (A13),
and puts GB200 NVL72's TCO per GPU at ~1.6x the H100's (A12): the speed-up GB200 must deliver per
GPU to match the H100's performance per TCO dollar. Its opex items and cost of capital are not
public, so the book builds its own TCO from independent sources and compares it with both figures;
:func:`implied_cost_of_capital` gives the rate at which the book's TCO would equal $1.42 (a check,
not an input). Dollars per token are in :mod:`analysis.costs`. The chain from the book's parameters
to a system's TCO is wired once, in the chapter layer (:mod:`analysis.chapters.gpu_cost`).
"""

from __future__ import annotations

from analysis.capex import capex_per_gpu_hour_usd, solve_cost_of_capital
from analysis.units import HOURS_PER_MONTH


def tco_per_gpu_hour_usd(capex_usd_per_gpu: float, opex_usd_per_gpu_month: float, cost_of_capital: float,
                         useful_life_years: float, utilization: float = 1.0) -> float:
    """Cost of one used GPU-hour: capital charge plus opex, both spread over used hours."""
    return (capex_per_gpu_hour_usd(capex_usd_per_gpu, cost_of_capital, useful_life_years, utilization)
            + opex_usd_per_gpu_hour(opex_usd_per_gpu_month, utilization))


def opex_usd_per_gpu_hour(opex_usd_per_gpu_month: float, utilization: float = 1.0) -> float:
    """Opex per used GPU-hour: a month's opex over the hours the GPU is used in it."""
    return opex_usd_per_gpu_month / (HOURS_PER_MONTH * utilization)


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


def breakeven_utilization(tco_at_full_use_usd_per_gpu_hour, price_usd_per_gpu_hour):
    """Utilization at which owning costs what renting does: every item of the TCO is paid per hour
    owned, so the cost per used hour is the cost at full use over the utilization, and it equals
    the rental price at TCO(100 %) / price. Above 1: owning costs more even at full use."""
    return tco_at_full_use_usd_per_gpu_hour / price_usd_per_gpu_hour
