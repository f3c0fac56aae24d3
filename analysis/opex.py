"""Operating cost per GPU per month, item by item: power, datacenter space, maintenance, other.

Power follows the cluster chapter's build-up on the book's one energy basis, the average draw: IT
watts per GPU x PUE x the measured load factor (82 % of rated by default) x tariff. Capacity is
priced at the rated power: the datacenter
charge is a rate per kW of critical IT per month, as wholesale colocation is priced (electricity
billed separately). Maintenance is built from its parts in :mod:`analysis.maintenance` and enters
here as dollars per GPU-month. SemiAnalysis does not publish its opex items; the book's rates come
from independent public sources, and :func:`implied_datacenter_and_maintenance` shows what the
seed's unverifiable $249 and $359 per GPU-month would require of them, as a datacenter rate and a
maintenance share of capex (a check, not an input).
"""

from __future__ import annotations

import numpy as np

from analysis.cluster import facility_w
from analysis.units import HOURS_PER_MONTH


def power_usd_per_gpu_month(it_w_per_gpu: float, pue: float, tariff_usd_per_kwh: float, load_factor: float) -> float:
    """Electricity for one GPU's share of the facility for a month at its average draw: the rated
    power at the meter (IT x PUE) times ``load_factor``, the average draw as a share of it (1: flat
    out at the rating all month)."""
    return facility_w(it_w_per_gpu, pue) * load_factor / 1_000 * HOURS_PER_MONTH * tariff_usd_per_kwh


def datacenter_usd_per_gpu_month(it_w_per_gpu: float, usd_per_kw_month: float) -> float:
    """Datacenter space and infrastructure, charged per kW of critical IT per month."""
    return it_w_per_gpu / 1_000 * usd_per_kw_month


def maintenance_usd_per_gpu_month(capex_usd_per_gpu: float, fraction_per_year: float) -> float:
    """Maintenance as a fraction of capex per year, per GPU-month: how the seed's totals and the
    book's earlier default (Llama 3's GPU replacements at the whole all-in share) priced it."""
    return capex_usd_per_gpu * fraction_per_year / 12


def opex_items_usd_per_gpu_month(it_w_per_gpu: float, pue: float, tariff_usd_per_kwh: float,
                                  datacenter_usd_per_kw_month: float, maintenance_usd_per_gpu_month: float,
                                  other_usd_per_gpu_month: float, load_factor: float) -> dict:
    """Each opex item per GPU-month; their sum is the opex. Power is at the average draw
    (``load_factor`` of rated); the datacenter is priced on the rated critical IT. Maintenance comes
    in built (:mod:`analysis.maintenance`, wired in :mod:`analysis.chapters.gpu_cost`)."""
    return {
        "power": power_usd_per_gpu_month(it_w_per_gpu, pue, tariff_usd_per_kwh, load_factor),
        "datacenter": datacenter_usd_per_gpu_month(it_w_per_gpu, datacenter_usd_per_kw_month),
        "maintenance and support": maintenance_usd_per_gpu_month,
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

