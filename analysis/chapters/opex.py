"""Opex chapter: what an H100 and a GB200 NVL72 GPU cost to run per month, item by item, from
independent public rates (data/cost_anchors.csv); maintenance built from its parts (failed GPUs
and other parts at their own prices outside the warranty, labour, spares) beside the 9.1 % of
capex it replaced and a vendor's support contract; what the seed's unverifiable totals would
require of those rates (a check, not an input); and how opex moves with tariff and PUE.

The item functions and the implied-rate solve are in :mod:`analysis.opex`, maintenance's in
:mod:`analysis.maintenance`; the items of each system come from :mod:`analysis.chapters.gpu_cost`,
the one wiring of a GPU's cost that the capex and TCO chapters use too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import hardware, maintenance, opex
from analysis.chapters import ChapterResults, gpu_cost
from analysis.data.load import fact, load_table, row

# system: (label, chip id in gpus.csv)
SYSTEMS = {"h100": ("H100", "h100_sxm"), "gb200": ("GB200 NVL72", "gb200_nvl72")}
# The seed's cluster opex per GPU-month (S09): unverifiable totals the chapter checks against.
SEED_TARGETS = {"h100": "S09_h100_opex", "gb200": "S09_gb200_opex"}
# Tariffs drawn in the opex-against-tariff figure, as multiples of this build's tariff.
TARIFF_RANGE_MULTIPLE = 3.0
# The parameters whose public anchors (data/cost_anchors.csv) the chapter lists.
ANCHOR_PARAMS = ("datacenter_usd_per_kw_month", "gpu_share_of_server_price", "gpu_swap_share", "warranty_years",
                 "swap_person_hours", "technician_usd_per_hour", "spares_restock_days", "support_frac_per_year")


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
    res.add_table("maintenance", maintenance_frame(P, res))
    _seed_check(P, res)
    res.add_table("vs_tariff", vs_tariff_frame(P))
    return res


def anchors_frame() -> pd.DataFrame:
    """The independent public figures behind the datacenter rate and the maintenance components."""
    anchors = load_table("cost_anchors")
    anchors = anchors[anchors["param"].isin(ANCHOR_PARAMS)].copy()
    anchors["order"] = anchors["param"].map({p: i for i, p in enumerate(ANCHOR_PARAMS)})
    return anchors.sort_values("order", kind="stable").drop(columns="order").reset_index(drop=True)


# The maintenance build-up's items (gpu_cost.maintenance_build_up_usd_per_gpu_month) and their key stems.
BUILD_UP_KEYS = {"GPUs replaced": "gpus_replaced", "other parts": "other_parts", "labour": "labour",
                 "spares pool": "spares"}


def maintenance_frame(P, res: ChapterResults) -> pd.DataFrame:
    """Maintenance per GPU-month of each system: the build-up item by item and its total (the
    basis this build uses marked), a vendor's support contract, and the book's earlier default (a
    share of all-in capex a year) the build-up replaced, one row each."""
    rows = []
    for name, (label, _) in SYSTEMS.items():
        items = gpu_cost.maintenance_build_up_usd_per_gpu_month(P, name)
        for item, usd in items.items():
            res.add(f"{name}_maintenance_{BUILD_UP_KEYS[item]}_usd_per_gpu_month", usd, "USD per GPU-month",
                    f"{label} maintenance: {item}")
        parts = res.add(f"{name}_maintenance_parts_basis_usd_per_gpu_month", sum(items.values()), "USD per GPU-month",
                        f"{label} maintenance built from its parts")
        contract = res.add(f"{name}_support_contract_usd_per_gpu_month",
                           gpu_cost.support_contract_usd_per_gpu_month(P, name), "USD per GPU-month",
                           f"{label} maintenance as a vendor's support contract")
        earlier = res.add(f"{name}_maintenance_earlier_default_usd_per_gpu_month",
                          opex.maintenance_usd_per_gpu_month(gpu_cost.capex_usd_per_gpu(P, name),
                                                             maintenance.earlier_default_frac_per_year()),
                          "USD per GPU-month", f"{label} maintenance at the book's earlier default (a share of capex)")
        res.add(f"{name}_maintenance_without_warranty_usd_per_gpu_month",
                sum(gpu_cost.maintenance_build_up_usd_per_gpu_month(P.replace(warranty_years=0.0), name).values()),
                "USD per GPU-month", f"{label} maintenance built from its parts with no warranty")
        res.add(f"{name}_gpu_part_usd", gpu_cost.gpu_part_usd(P, name), "USD", f"{label}: price of a replacement GPU")
        res.add(f"{name}_gpu_swaps_per_gpu_year_pct", gpu_cost.gpu_swaps_per_gpu_year(P, name) * 100, "percent per year",
                f"{label}: GPUs swapped per GPU-year")
        rows += [{"system": name, "item": item, "usd_per_gpu_month": usd, "basis": "parts"} for item, usd in items.items()]
        rows += [{"system": name, "item": "total, parts", "usd_per_gpu_month": parts, "basis": "parts"},
                 {"system": name, "item": "support contract", "usd_per_gpu_month": contract, "basis": "support contract"},
                 {"system": name, "item": "earlier default", "usd_per_gpu_month": earlier, "basis": "earlier default"}]
    rates = maintenance.llama3_fault_rates()
    res.add("llama3_gpu_faults_per_gpu_year_pct", rates["gpu"] * 100, "percent per year",
            "Llama 3's GPU faults (every GPU-category interruption) per GPU-year")
    res.add("gpu_swap_share_pct", P.gpu_swap_share * 100, "percent", "Share of GPU faults that end in a swap")
    res.add("gpu_share_of_server_price_pct", P.gpu_share_of_server_price * 100, "percent",
            "A replacement GPU's share of the server price per GPU")
    res.add("warranty_years", P.warranty_years, "years", "Years under the OEM's warranty")
    res.add("useful_life_years", P.useful_life_years, "years", "Useful life")
    res.add("out_of_warranty_pct", maintenance.out_of_warranty_frac(P.useful_life_years, P.warranty_years) * 100,
            "percent", "Share of the useful life outside the warranty")
    res.add("swap_person_hours", P.swap_person_hours, "person-hours", "Technician time per swap")
    res.add("technician_usd_per_hour", P.technician_usd_per_hour, "USD per person-hour", "Technician rate")
    res.add("spares_restock_days", P.spares_restock_days, "days", "Days to restock a spare")
    res.add("support_pct_per_year", P.support_frac_per_year * 100, "percent per year",
            "Support contract, share of the server price a year")
    res.add("earlier_default_maintenance_pct_per_year", maintenance.earlier_default_frac_per_year() * 100,
            "percent per year", "The book's earlier maintenance default, share of all-in capex a year")
    res.add("h100_maintenance_vs_earlier_default_pct",
            res["h100_maintenance_usd_per_gpu_month"] / res["h100_maintenance_earlier_default_usd_per_gpu_month"] * 100,
            "percent", "H100 maintenance of this build as a share of the earlier default's")
    return pd.DataFrame(rows)


def _rates(P, res: ChapterResults) -> None:
    """This build's datacenter rate and the range of the public anchors around it."""
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
