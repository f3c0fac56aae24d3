"""Maintenance of a GPU, built from its parts: the parts that fail, priced at what they cost, paid
for only outside the warranty, the labour of each swap and a spares pool sized to the swaps.

How often parts fail comes from Llama 3 405B's 54-day snapshot on 16,384 H100s (Meta, Table 5;
``data/llama3_interruptions.csv``): its faults are job interruptions, not replacements, so the
share of GPU faults that end in a swap is a separate input (Crusoe's H200 cluster at GTC 2025:
41.5 % of its fault cases were GPU host replacements against 19.5 % recovered GPU faults). A GPU
swap costs the GPU's share of the server price (SemiAnalysis's DGX H100 breakdown and Raymond
James's H100 price, via Epoch AI); the other parts (a NIC, a transceiver) are priced in
``data/maintenance_parts.csv``. Labour is a colocation operator's remote-hands rate (QTS, 365 Data
Centers) times the person-hours of a swap. Faults are taken as spread evenly over the useful life.

The alternative basis, a vendor's support contract, is a share of the server price a year (NVIDIA
DGX H100 support at list, 20 %, a weak source). All functions take scalars or numpy arrays.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.data.load import derived, load_table, row
from analysis.units import DAYS_PER_YEAR

GPU_CATEGORY = "GPU"  # Llama 3's fault categories whose faults may take the GPU itself out


def faults_per_device_year(count, devices: float, days: float):
    """``count`` faults over ``devices`` in ``days``, per device-year."""
    return count / devices * DAYS_PER_YEAR / days


def swap_share(swapped_share, recovered_share):
    """Share of GPU faults that end in hardware swapped: the swapped cases over all GPU cases
    (Crusoe: 41.5 % host replacements, 19.5 % recoverable GPU faults)."""
    return swapped_share / (swapped_share + recovered_share)


def gpu_part_usd(server_usd, gpus_per_server, gpu_share_of_server_price):
    """Price of one replacement GPU [USD]: its share of the server (or rack) price per GPU."""
    return server_usd / gpus_per_server * gpu_share_of_server_price


def out_of_warranty_frac(useful_life_years, warranty_years):
    """Share of the useful life outside the warranty, max(life - warranty, 0) / life: the share of
    failed parts the owner pays for when faults are spread evenly over the life."""
    return np.maximum(useful_life_years - warranty_years, 0.0) / useful_life_years


def parts_usd_per_gpu_year(swaps_per_gpu_year, part_usd, out_of_warranty):
    """Parts bought per GPU-year [USD]: swaps x part price x the share outside the warranty."""
    return swaps_per_gpu_year * part_usd * out_of_warranty


def labour_usd_per_gpu_year(swaps_per_gpu_year, person_hours_per_swap, usd_per_person_hour):
    """Technicians' time per GPU-year [USD]: every swap, in warranty or out, is done on site."""
    return swaps_per_gpu_year * person_hours_per_swap * usd_per_person_hour


def spares_pool_gpus_per_gpu(swaps_per_gpu_year, restock_days):
    """Spare GPUs per GPU in service: the swaps of the days a failed part takes to be replaced
    in the pool (an RMA, or a purchase out of warranty)."""
    return swaps_per_gpu_year * restock_days / DAYS_PER_YEAR


def spares_usd_per_gpu_year(spares_per_gpu, part_usd, capital_recovery_factor):
    """Carrying the spares pool per GPU-year [USD]: its value times the capital recovery factor
    (:func:`analysis.capex.capital_recovery_factor`) over the same life and rate as the GPUs."""
    return spares_per_gpu * part_usd * capital_recovery_factor


def support_contract_usd_per_gpu_year(server_usd_per_gpu, support_frac_per_year):
    """A vendor's support contract per GPU-year [USD]: a share of the server price a year (NVIDIA
    DGX H100 support at list, $39,800 on $199,000: 20 %)."""
    return server_usd_per_gpu * support_frac_per_year


def replacement_frac_per_year(replacements: float, devices: float, days: float, cost_share: float = 1.0) -> float:
    """Share of capex a year spent replacing failed parts: ``replacements`` over ``devices`` in
    ``days``, per device-year, times the replaced part's cost as a share of one device's capex
    (1: the device's whole share). The book's earlier default read Llama 3's GPU and HBM3 faults
    this way, at the whole all-in share, with no warranty; the chapters show it beside the parts."""
    return faults_per_device_year(replacements, devices, days) * cost_share


@derived
def llama3_fault_rates() -> dict:
    """Llama 3's faults per GPU-year: ``gpu`` (every GPU-category fault) and ``parts``, the causes
    of ``data/maintenance_parts.csv`` with their rate and mid price (0 where none is public)."""
    faults = load_table("llama3_interruptions").set_index("component")
    gpus, days = (float(row("reliability_facts", k)["value"]) for k in ("llama3_gpus", "llama3_snapshot_days"))
    parts = load_table("maintenance_parts").set_index("component")
    parts["faults_per_gpu_year"] = faults_per_device_year(faults.loc[parts.index, "count"].astype(float), gpus, days)
    parts["mid_usd"] = ((parts["price_usd"] + parts["price_usd_high"].fillna(parts["price_usd"])) / 2).fillna(0.0)
    gpu = float(faults.loc[faults["category"] == GPU_CATEGORY, "count"].sum())
    # the parts' totals, summed once here: every TCO evaluation (thousands in a build) reads them
    return {"gpu": faults_per_device_year(gpu, gpus, days), "gpu_faults": gpu, "gpus": gpus, "days": days,
            "parts": pd.DataFrame(parts[["part", "faults_per_gpu_year", "mid_usd"]]),
            "parts_swaps": float(parts["faults_per_gpu_year"].sum()),
            "parts_usd": float((parts["faults_per_gpu_year"] * parts["mid_usd"]).sum())}


def other_parts_per_gpu_year(fault_ratio=1.0) -> tuple:
    """Swaps and the price of parts other than the GPU per GPU-year [count, USD before warranty],
    at Llama 3's rates scaled by ``fault_ratio`` (GB200 against H100)."""
    rates = llama3_fault_rates()
    return rates["parts_swaps"] * fault_ratio, rates["parts_usd"] * fault_ratio


# The book's earlier default read these of Llama 3's faults as GPUs replaced (the GPU itself and its
# HBM3, which sits on the GPU's package), each at the GPU's whole all-in share of capex, with no warranty.
EARLIER_DEFAULT_COMPONENTS = ("Faulty GPU", "GPU HBM3 memory")


@derived
def earlier_default_frac_per_year() -> float:
    """The book's earlier maintenance default, 9.1 % of capex a year: Llama 3's GPU and HBM3 faults
    per GPU-year (:data:`EARLIER_DEFAULT_COMPONENTS`) as if each replaced a GPU at its whole share
    of the all-in capex (:func:`replacement_frac_per_year`). Shown beside the build-up it replaced."""
    rates = llama3_fault_rates()
    faults = load_table("llama3_interruptions").set_index("component")
    count = float(faults.loc[list(EARLIER_DEFAULT_COMPONENTS), "count"].sum())
    return float(replacement_frac_per_year(count, rates["gpus"], rates["days"]))
