"""Operating cost per GPU per month, item by item: power, datacenter space, maintenance, other.

Power follows the cluster chapter's build-up on the book's one energy basis, the average draw: IT
watts per GPU x PUE x the measured load factor (82 % of rated by default) x tariff. Capacity is
priced at the rated power: the datacenter
charge is a rate per kW of critical IT per month, as wholesale colocation is priced (electricity
billed separately). Maintenance and support are a fraction of capex per year. SemiAnalysis does
not publish its opex items; the book's rates come from independent public sources, and
:func:`implied_datacenter_and_maintenance` shows what the seed's unverifiable $249 and $359 per
GPU-month would require of them (a check, not an input).
"""

from __future__ import annotations

import numpy as np

from analysis.cluster import facility_w
from analysis.units import DAYS_PER_YEAR, HOURS_PER_MONTH


def power_usd_per_gpu_month(it_w_per_gpu: float, pue: float, tariff_usd_per_kwh: float, load_factor: float) -> float:
    """Electricity for one GPU's share of the facility for a month at its average draw: the rated
    power at the meter (IT x PUE) times ``load_factor``, the average draw as a share of it (1: flat
    out at the rating all month)."""
    return facility_w(it_w_per_gpu, pue) * load_factor / 1_000 * HOURS_PER_MONTH * tariff_usd_per_kwh


def datacenter_usd_per_gpu_month(it_w_per_gpu: float, usd_per_kw_month: float) -> float:
    """Datacenter space and infrastructure, charged per kW of critical IT per month."""
    return it_w_per_gpu / 1_000 * usd_per_kw_month


def maintenance_usd_per_gpu_month(capex_usd_per_gpu: float, fraction_per_year: float) -> float:
    """Maintenance and support contracts as a fraction of capex per year."""
    return capex_usd_per_gpu * fraction_per_year / 12


def opex_items_usd_per_gpu_month(it_w_per_gpu: float, pue: float, tariff_usd_per_kwh: float,
                                  datacenter_usd_per_kw_month: float, capex_usd_per_gpu: float,
                                  maintenance_frac_per_year: float, other_usd_per_gpu_month: float,
                                  load_factor: float) -> dict:
    """Each opex item per GPU-month; their sum is the opex. Power is at the average draw
    (``load_factor`` of rated); the datacenter is priced on the rated critical IT."""
    return {
        "power": power_usd_per_gpu_month(it_w_per_gpu, pue, tariff_usd_per_kwh, load_factor),
        "datacenter": datacenter_usd_per_gpu_month(it_w_per_gpu, datacenter_usd_per_kw_month),
        "maintenance and support": maintenance_usd_per_gpu_month(capex_usd_per_gpu, maintenance_frac_per_year),
        "other": other_usd_per_gpu_month,
    }


def opex_usd_per_gpu_month(**items) -> float:
    """Total opex per GPU-month (the keyword arguments of :func:`opex_items_usd_per_gpu_month`)."""
    return sum(opex_items_usd_per_gpu_month(**items).values())


def implied_datacenter_and_maintenance(targets: tuple[float, float], it_w: tuple[float, float],
                                       capex_per_gpu: tuple[float, float], pue: float,
                                       tariff_usd_per_kwh: float, other_usd_per_gpu_month: float,
                                       load_factor: float):
    """Datacenter $/kW-month and maintenance fraction per year that would make two systems' opex
    hit ``targets`` ($/GPU-month), given everything else (power at ``load_factor`` of rated): two
    linear equations in two unknowns."""
    a = np.array([[w / 1_000, c / 12] for w, c in zip(it_w, capex_per_gpu, strict=True)])
    b = np.array([t - power_usd_per_gpu_month(w, pue, tariff_usd_per_kwh, load_factor) - other_usd_per_gpu_month
                  for t, w in zip(targets, it_w, strict=True)])
    rate, fraction = np.linalg.solve(a, b)
    return float(rate), float(fraction)


def replacement_frac_per_year(replacements: float, devices: float, days: float, cost_share: float = 1.0) -> float:
    """Share of capex a year spent replacing failed parts: ``replacements`` over ``devices`` in
    ``days``, per device-year, times the replaced part's cost as a share of one device's capex
    (1: the device's whole share, an upper bound on the part)."""
    return replacements / devices * DAYS_PER_YEAR / days * cost_share
