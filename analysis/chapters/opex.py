"""Opex chapter: what an H100 and a GB200 NVL72 GPU cost to run per month, item by item, from
independent public rates (data/cost_anchors.csv); what the seed's unverifiable totals would require
of those rates (a check, not an input); and how opex moves with tariff and PUE.

The item functions and the implied-rate solve are in :mod:`analysis.opex`; the items of each system
come from :mod:`analysis.chapters.gpu_cost`, the one wiring of a GPU's cost that the capex and TCO
chapters use too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import hardware, opex
from analysis.chapters import ChapterResults, gpu_cost
from analysis.data.load import fact, load_table, row

# system: (label, chip id in gpus.csv)
SYSTEMS = {"h100": ("H100", "h100_sxm"), "gb200": ("GB200 NVL72", "gb200_nvl72")}
# The seed's cluster opex per GPU-month (S09): unverifiable totals the chapter checks against.
SEED_TARGETS = {"h100": "S09_h100_opex", "gb200": "S09_gb200_opex"}
# Tariffs drawn in the opex-against-tariff figure, as multiples of this build's tariff.
TARIFF_RANGE_MULTIPLE = 3.0


def items_frame(P) -> pd.DataFrame:
    """Opex items per GPU-month, one row per item, one column per system."""
    return pd.DataFrame({name: gpu_cost.opex_items_usd_per_gpu_month(P, name) for name in SYSTEMS}).rename_axis("item")


def seed_implied_rates(P) -> tuple[float, float]:
    """The datacenter rate (USD per kW-month) and maintenance share (per year) that would make this
    build's opex equal the seed's $249 and $359 per GPU-month (S09), everything else as set."""
    targets = tuple(row("seed_numbers", SEED_TARGETS[name])["value"] for name in SYSTEMS)
    return opex.implied_datacenter_and_maintenance(
        targets, tuple(gpu_cost.it_w_per_gpu(P, name) for name in SYSTEMS),
        tuple(gpu_cost.capex_usd_per_gpu(P, name) for name in SYSTEMS), P.pue, P.tariff_usd_per_kwh,
        P.other_usd_per_gpu_month, P.load_factor)


def pue_values(P) -> list[float]:
    """The PUEs drawn against the tariff: Google's, this build's and the 2022 industry average (C05)."""
    return sorted({fact("C05_pue_google"), P.pue, fact("C05_pue_industry_2022")})


def vs_tariff_frame(P) -> pd.DataFrame:
    """Opex per GPU-month of each system against the tariff, at each PUE of :func:`pue_values`."""
    tariffs = np.linspace(0, TARIFF_RANGE_MULTIPLE * P.tariff_usd_per_kwh, 50)
    frames = [pd.DataFrame({"system": name, "pue": pue, "tariff_usd_per_kwh": tariffs, "usd_per_gpu_month": sum(
        gpu_cost.opex_items_usd_per_gpu_month(P.replace(pue=pue, tariff_usd_per_kwh=tariffs), name).values())})
        for name in SYSTEMS for pue in pue_values(P)]
    return pd.concat(frames, ignore_index=True)


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("opex")
    gpu_cost.name_systems(res)
    res.add("load_factor_frac", P.load_factor, "fraction",
            "Average draw while training as a share of the rated power (parameter): the power item's basis")
    items = res.add_table("items", items_frame(P))
    for name, (label, chip) in SYSTEMS.items():
        res.add(f"{name}_chip_w", hardware.tdp_w(chip), "W", f"{label} chip power (TDP)")
        res.add(f"{name}_it_w_per_gpu", gpu_cost.it_w_per_gpu(P, name), "W per GPU", f"{label} critical IT power per GPU")
        for item, usd in items[name].items():
            res.add(f"{name}_{item.split()[0]}_usd_per_gpu_month", usd, "USD per GPU-month", f"{label} opex: {item}")
        res.add(f"{name}_opex_usd_per_gpu_month", items[name].sum(), "USD per GPU-month", f"{label} opex per GPU-month")
    res.add("gb200_to_h100_opex_ratio", res["gb200_opex_usd_per_gpu_month"] / res["h100_opex_usd_per_gpu_month"],
            "ratio", "GB200 / H100 opex per GPU")

    # the electricity bills' ratio is the IT power ratio (same PUE and tariff), defined at a zero tariff too
    res.add("gb200_to_h100_power_ratio", P.gb200_it_w_per_gpu / P.h100_it_w_per_gpu,
            "ratio", "GB200 / H100 electricity per GPU")
    res.add("gb200_to_h100_capex_ratio", gpu_cost.capex_usd_per_gpu(P, "gb200") / gpu_cost.capex_usd_per_gpu(P, "h100"),
            "ratio", "GB200 / H100 all-in capex per GPU")
    _rates(P, res)
    _seed_check(P, res)
    res.add_table("vs_tariff", vs_tariff_frame(P))
    return res


def anchors_frame() -> pd.DataFrame:
    """The independent public figures behind the datacenter rate and the maintenance share."""
    anchors = load_table("cost_anchors")
    return anchors[anchors["param"].isin(["datacenter_usd_per_kw_month", "maintenance_frac_per_year"])].reset_index(drop=True)


def _rates(P, res: ChapterResults) -> None:
    """This build's two rates and the range of the public anchors around them."""
    res.add("maintenance_pct_per_year", P.maintenance_frac_per_year * 100, "percent per year",
            "Maintenance and support, share of capex (this build)")
    res.add("datacenter_usd_per_kw_month", P.datacenter_usd_per_kw_month, "USD per kW-month",
            "Datacenter rate (this build)")
    anchors = res.add_table("anchors", anchors_frame())
    colo = anchors[anchors["param"] == "datacenter_usd_per_kw_month"]
    res.add("colocation_anchor_low_usd_per_kw_month", colo["value"].min(), "USD per kW-month",
            "Lowest public colocation rent found")
    res.add("colocation_anchor_high_usd_per_kw_month", colo["value_high"].fillna(colo["value"]).max(),
            "USD per kW-month", "Highest public colocation rent found")


def _seed_check(P, res: ChapterResults) -> None:
    """The seed's unverifiable totals (S09) against this build's, and the rates they would need."""
    for name, (label, _) in SYSTEMS.items():
        seed = row("seed_numbers", SEED_TARGETS[name])["value"]
        res.add(f"{name}_opex_vs_seed_pct", (res[f"{name}_opex_usd_per_gpu_month"] / seed - 1) * 100, "percent",
                f"{label} opex, this build against the seed's unverifiable total")
    res.add("seed_gb200_to_h100_opex_ratio", row("seed_numbers", SEED_TARGETS["gb200"])["value"]
            / row("seed_numbers", SEED_TARGETS["h100"])["value"], "ratio", "GB200 / H100 opex per GPU in the seed")
    rate, fraction = seed_implied_rates(P)
    res.add("seed_implied_datacenter_usd_per_kw_month", rate, "USD per kW-month",
            "Datacenter rate the seed's opex totals would need")
    res.add("seed_implied_maintenance_pct_per_year", fraction * 100, "percent per year",
            "Maintenance share the seed's opex totals would need")
