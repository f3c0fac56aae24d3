"""Capex chapter: what an H100 and a GB200 NVL72 GPU cost to buy, against the seed's prices, and
the capital charge per GPU-hour that spreads the price over the GPU's life.

Prices are parameters (SemiAnalysis's typical-hyperscaler figures, A03-A07); the domain functions
are in :mod:`analysis.capex`. The all-in capex per GPU and the capital charge per GPU-hour come from
:mod:`analysis.chapters.gpu_cost`, the one wiring of a GPU's cost that the opex and TCO chapters use
too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import capex
from analysis.chapters import ChapterResults, gpu_cost
from analysis.data.load import fact, row
from analysis.units import rounding_floor

LABELS = {"h100": "H100", "gb200": "GB200 NVL72"}
# Multiples of this build's cost of capital drawn in the charge-against-life figure (0: straight line).
RATE_MULTIPLES = (0.0, 0.5, 1.0, 2.0)
LIVES_YEARS = np.linspace(2, 8, 61)


def server_usd(P, system: str) -> float:
    """The bare server's (H100) or rack's (GB200 NVL72) price, without networking and storage."""
    return P.h100_server_usd if system == "h100" else P.gb200_rack_usd


def allin_usd(P, system: str) -> float:
    """The all-in price of an H100 server or a GB200 NVL72 rack."""
    return P.h100_allin_usd if system == "h100" else P.gb200_allin_usd


def _prices(P, res: ChapterResults) -> None:
    """Prices per system and per GPU, and the GB200 / H100 ratios."""
    res.add("h100_server_usd", P.h100_server_usd, "USD", "H100 server price")
    res.add("h100_allin_usd", P.h100_allin_usd, "USD", "H100 server, all-in")
    res.add("gb200_rack_usd", P.gb200_rack_usd, "USD", "GB200 NVL72 rack price")
    res.add("gb200_allin_usd", P.gb200_allin_usd, "USD", "GB200 NVL72 rack, all-in")
    res.add("h100_gpus_per_server", P.h100_gpus_per_server, "GPUs", "GPUs per H100 server")
    res.add("gb200_gpus_per_rack", P.gb200_gpus_per_rack, "GPUs", "GPUs per GB200 NVL72 rack")
    for name, label in LABELS.items():
        res.add(f"{name}_server_usd_per_gpu", capex.per_gpu_usd(server_usd(P, name), gpu_cost.gpus_per_system(P, name)),
                "USD per GPU", f"{label} server-only capex per GPU")
        res.add(f"{name}_capex_usd_per_gpu", gpu_cost.capex_usd_per_gpu(P, name), "USD per GPU",
                f"{label} all-in capex per GPU")
    res.add("gb200_to_h100_capex_ratio", res["gb200_capex_usd_per_gpu"] / res["h100_capex_usd_per_gpu"], "ratio",
            "GB200 / H100 all-in capex per GPU")
    res.add("gb200_to_h100_server_capex_ratio", res["gb200_server_usd_per_gpu"] / res["h100_server_usd_per_gpu"],
            "ratio", "GB200 / H100 server-only capex per GPU")
    # "~$3.9M" is any price that rounds to it at two significant digits: the lowest such rack.
    res.add("gb200_to_h100_capex_ratio_at_rounding_floor",
            capex.per_gpu_usd(rounding_floor(P.gb200_allin_usd), P.gb200_gpus_per_rack) / res["h100_capex_usd_per_gpu"],
            "ratio", "GB200 / H100 all-in capex per GPU, GB200 rack at the bottom of its rounding")


def build_up_frame(P) -> pd.DataFrame:
    """The two published layers of each system's capex per GPU (server, and what all-in adds)."""
    rows = []
    for name, label in LABELS.items():
        n = gpu_cost.gpus_per_system(P, name)
        layers = capex.capex_build_up_usd(server_usd(P, name) / n, allin_usd(P, name) / n)
        rows += [{"system": name, "label": label, "layer": layer, "usd_per_gpu": usd} for layer, usd in layers.items()]
    return pd.DataFrame(rows)


def _seed_prices(res: ChapterResults) -> None:
    """The seed's prices, in the units its prose uses, against the report's."""
    res.add("seed_gb200_rack_million_usd", row("seed_numbers", "S05_gb200_rack_usd")["value"] / 1e6, "million USD",
            "The seed's GB200 NVL72 rack price (S05)")
    res.add("seed_gb200_allin_million_usd", row("seed_numbers", "S06_gb200_allin_usd")["value"] / 1e6, "million USD",
            "The seed's GB200 NVL72 all-in rack price (S06)")
    res.add("seed_to_report_h100_server_price_pct",
            row("seed_numbers", "S03_h100_server_usd")["value"] / fact("A03_h100_server_usd") * 100, "percent",
            "The seed's H100 server price as a share of the report's (S03 / A03)")


def _capital_charge(P, res: ChapterResults) -> None:
    """Capital recovery factor and the capital charge per used GPU-hour."""
    res.add("useful_life_years", P.useful_life_years, "years", "Useful life over which capex is recovered")
    res.add("cost_of_capital_pct", P.cost_of_capital * 100, "percent per year", "Cost of capital")
    res.add("utilization_pct", P.utilization * 100, "percent", "Utilization")
    res.add("capital_recovery_factor_per_year", capex.capital_recovery_factor(P.cost_of_capital, P.useful_life_years),
            "per year", "Capital recovery factor")
    for name, label in LABELS.items():
        res.add(f"{name}_capex_usd_per_gpu_hour", gpu_cost.capex_usd_per_gpu_hour(P, name), "USD per GPU-hour",
                f"{label} capital charge per GPU-hour")


def charge_vs_life_frame(P, capex_usd_per_gpu: float) -> pd.DataFrame:
    """The capital charge per GPU-hour of ``capex_usd_per_gpu`` against useful life, at multiples of
    this build's cost of capital."""
    rows = [{"rate_multiple": k, "cost_of_capital": P.cost_of_capital * k, "useful_life_years": n,
             "usd_per_gpu_hour": capex.capex_per_gpu_hour_usd(capex_usd_per_gpu, P.cost_of_capital * k, n,
                                                              P.utilization)}
            for k in RATE_MULTIPLES for n in LIVES_YEARS]
    return pd.DataFrame(rows)


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("capex")
    gpu_cost.name_systems(res)
    _prices(P, res)
    _seed_prices(res)
    _capital_charge(P, res)
    res.add_table("build_up", build_up_frame(P))
    res.add_table("charge_vs_life", charge_vs_life_frame(P, res["h100_capex_usd_per_gpu"]))
    return res
