"""Total cost of ownership per GPU-hour and what it means per trained token.

TCO per GPU-hour = capital charge (:mod:`analysis.capex`) + opex per hour (:mod:`analysis.opex`).
SemiAnalysis prices every H100 token at $1.42 per GPU-hour, its TCO with no rental margin (A13),
and puts GB200 NVL72's TCO per GPU at ~1.6x the H100's (A12): the speed-up GB200 must deliver per
GPU to match the H100's performance per TCO dollar.
"""

from __future__ import annotations

from analysis.capex import capex_per_gpu_hour_usd
from analysis.opex import HOURS_PER_MONTH
from analysis.units import SECONDS_PER_HOUR


def tco_per_gpu_hour_usd(capex_per_gpu_usd: float, opex_usd_per_gpu_month: float, cost_of_capital: float,
                         useful_life_years: float, utilization: float = 1.0) -> float:
    """Cost of one used GPU-hour: capital charge plus opex, both spread over used hours."""
    return (capex_per_gpu_hour_usd(capex_per_gpu_usd, cost_of_capital, useful_life_years, utilization)
            + opex_usd_per_gpu_month / (HOURS_PER_MONTH * utilization))


def usd_per_million_tokens(usd_per_gpu_hour: float, tokens_per_s_per_gpu: float) -> float:
    """Training cost per 1M tokens at a GPU-hour price and a per-GPU token rate."""
    return usd_per_gpu_hour / SECONDS_PER_HOUR / tokens_per_s_per_gpu * 1e6


def run_cost_usd(tokens: float, usd_per_million_tokens_: float) -> float:
    """Cost of training on ``tokens`` tokens (one successful run, no failed experiments)."""
    return tokens / 1e6 * usd_per_million_tokens_


def breakeven_speedup(tco_new_per_gpu_hour: float, tco_old_per_gpu_hour: float) -> float:
    """Per-GPU speed-up the new system needs to match the old one's performance per TCO dollar."""
    return tco_new_per_gpu_hour / tco_old_per_gpu_hour


def performance_per_tco(relative_throughput: float, tco_per_gpu_hour: float) -> float:
    """Throughput per TCO dollar (any consistent throughput unit)."""
    return relative_throughput / tco_per_gpu_hour


def rental_margin(price_usd_per_gpu_hour: float, tco_usd_per_gpu_hour: float) -> float:
    """Gross margin a renter pays over the owner's TCO, as a fraction of TCO (price/TCO - 1)."""
    return price_usd_per_gpu_hour / tco_usd_per_gpu_hour - 1.0
