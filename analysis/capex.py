"""Capital cost: prices per system and per GPU, and their amortization into $/GPU-hour.

Prices are SemiAnalysis's for a typical hyperscaler ("H100 vs GB200 NVL72 Training Benchmarks",
2025-08-20, ``sa_gb200_2025``): an 8-GPU H100 server at ~$190k, ~$250k all-in (A03, A04); a
GB200 NVL72 rack at $3.1M, ~$3.9M all-in (A06, A07). Amortization uses the capital recovery
factor, the level annual payment that repays a loan of 1 over ``years`` at ``rate``.
"""

from __future__ import annotations

import numpy as np

from analysis.units import HOURS_PER_YEAR


def per_gpu_usd(system_usd: float, gpus_per_system: int) -> float:
    """Price per GPU of a server or rack holding ``gpus_per_system`` GPUs."""
    return system_usd / gpus_per_system


def capex_build_up_usd(server_usd: float, all_in_usd: float) -> dict[str, float]:
    """The bill of materials as two published layers: the server (or rack) itself, and what the
    all-in figure adds for networking, storage and other items (all-in minus server)."""
    if all_in_usd < server_usd:
        raise ValueError("the all-in price cannot be below the server price")
    return {"server": server_usd, "networking, storage, other": all_in_usd - server_usd}


def capital_recovery_factor(rate: float, years: float) -> float:
    """Annual payment per dollar of capital repaid over ``years`` at ``rate`` per year:
    r (1+r)^n / ((1+r)^n - 1); straight-line 1/n when the rate is 0."""
    rate = np.asarray(rate, dtype=float)
    # (1+r)^n - 1 as expm1(n log1p(r)): exact for tiny rates, where the plain form divides by ~0
    growth_minus_one = np.expm1(years * np.log1p(rate))
    with np.errstate(divide="ignore", invalid="ignore"):
        crf = np.where(rate == 0, 1.0 / years, rate * (growth_minus_one + 1.0) / growth_minus_one)
    return float(crf) if crf.ndim == 0 else crf


def capex_per_gpu_hour_usd(capex_usd_per_gpu: float, cost_of_capital: float, useful_life_years: float,
                           utilization: float = 1.0) -> float:
    """Capital charge per used GPU-hour: capex x CRF per year, spread over the hours a GPU is in
    use (``utilization`` of 8,760 h)."""
    return capex_usd_per_gpu * capital_recovery_factor(cost_of_capital, useful_life_years) / (
        HOURS_PER_YEAR * utilization)


def solve_cost_of_capital(capex_usd_per_gpu: float, target_usd_per_gpu_hour: float,
                          useful_life_years: float, utilization: float = 1.0) -> float:
    """The cost of capital at which the capital charge equals ``target_usd_per_gpu_hour``
    (bisection; the charge rises monotonically with the rate)."""
    low, high = 0.0, 5.0
    if capex_per_gpu_hour_usd(capex_usd_per_gpu, low, useful_life_years, utilization) > target_usd_per_gpu_hour:
        raise ValueError("target is below straight-line depreciation: no positive rate reaches it")
    for _ in range(200):
        mid = (low + high) / 2
        if capex_per_gpu_hour_usd(capex_usd_per_gpu, mid, useful_life_years, utilization) > target_usd_per_gpu_hour:
            high = mid
        else:
            low = mid
    return (low + high) / 2
