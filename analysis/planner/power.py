"""Step 6 of a plan: power per accelerator on two named bases, and the grid's carbon intensity.

- ``gpu-tdp``: the accelerator's TDP (``data/gpus.csv``) x GPU-hours x a PUE only where one is
  given. It is what Meta's model cards, BLOOM and most papers publish.
- ``facility``: the accelerator's all-in critical IT power (chip, its share of the server or rack,
  network and storage) x the PUE x the measured load factor (``load_factor``): the average draw a
  site's meter sees while the job trains, the book's one energy basis (:func:`facility_w_per_gpu`;
  a power budget, capacity, stays at the rated IT power x PUE). The IT
  power comes from the accelerator's own system kind (:func:`facility_it_w`): the book's
  parameters for H100 (a DGX H100 build-up) and GB200 (an NVL72 rack); for another 8-GPU server or
  rack, its published system power (``data/system_power.csv``) per device plus the same network
  and storage share as the H100 build-up (B14); for a TPU, Google's pod power per chip
  (``data/accelerators.csv``). An accelerator with none of these has no facility basis, and the
  plan says so.

Grids: ``data/grid_carbon.csv``, location-based intensities by region (:func:`grid`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from analysis.data.load import derived, fact, load_table
from analysis.hardware import gpu
from analysis.params import defaults as d
from analysis.planner.inputs import PlanError

ENERGY_BASES = ("gpu-tdp", "facility")
BASIS_WORDS = {"gpu-tdp": "GPU TDP x GPU-hours",
               "facility": "all-in IT power x PUE x load factor, the average draw at the meter"}


def facility_w_per_gpu(it_w, pue, load_factor: float | None = None):
    """Average watts per GPU at the meter while training [W]: all-in IT x PUE x ``load_factor``
    (the book's default, ``load_factor``, where None). Values may be arrays."""
    return it_w * pue * (d.LOAD_FACTOR.default if load_factor is None else load_factor)


@dataclass(frozen=True)
class Power:
    """An accelerator's watts on each basis, with where each comes from; ``None`` where there is
    no sourced figure. ``devices_per_node`` is the smallest unit a job is built of."""

    gpu_id: str
    tdp_w: float | None
    tdp_how: str
    it_w: float | None
    it_how: str
    devices_per_node: int | None
    system: str

    def w_per_gpu(self, basis: str) -> float | None:
        return self.tdp_w if basis == "gpu-tdp" else self.it_w


def network_storage_frac() -> float:
    """Storage, switches, CPU nodes and optics on top of a server's IT power (SemiAnalysis B14:
    ~10 %), the share the book's GB200 build-up also adds."""

    return fact("B14_network_storage_frac")


def _system_row(gpu_id: str):

    table = load_table("system_power")
    match = table[table["gpu_id"] == gpu_id]
    return None if match.empty else match.iloc[0]


def facility_it_w(gpu_id: str) -> tuple[float | None, str, int | None, str]:
    """(all-in IT watts per device or None, where it comes from, devices per node, system kind)."""

    system = _system_row(gpu_id)
    per_node = None if system is None else int(system["devices_per_system"])
    kind = "" if system is None else str(system["system_name"])
    if gpu_id == "h100_sxm":
        return (d.H100_IT_W_PER_GPU.default, "the book's DGX H100 build-up (parameter h100_it_w_per_gpu)",
                per_node, kind)
    if gpu_id == "gb200_nvl72":
        return (d.GB200_IT_W_PER_GPU.default, "the book's NVL72 rack build-up (parameter gb200_it_w_per_gpu)",
                per_node, kind)
    accelerators = load_table("accelerators").set_index("gpu_id")
    if gpu_id in accelerators.index and pd.notna(accelerators.loc[gpu_id, "it_w_per_device"]):
        w = float(accelerators.loc[gpu_id, "it_w_per_device"])
        return w, f"Google's pod power per chip ({accelerators.loc[gpu_id, 'it_w_source_id']}, data/accelerators.csv)", per_node, kind
    if system is not None and pd.notna(system["system_w"]):
        share = network_storage_frac()
        w = float(system["system_w"]) / int(system["devices_per_system"]) * (1.0 + share)
        return (w, f"{kind}: {float(system['system_w']):,.0f} W per {int(system['devices_per_system'])} devices "
                   f"({system['source_id']}) + {share:.0%} for network and storage (B14)", per_node, kind)
    return None, "no sourced all-in power build-up for this accelerator in data/system_power.csv", per_node, kind


def power_for(gpu_id: str) -> Power:
    """:class:`Power` of ``gpu_id`` on both bases (read once per data folder)."""

    return _power_for(gpu_id)


@derived  # a memo hit notes the first call's reads again (the ledger's provenance)
def _power_for(gpu_id: str) -> Power:

    tdp = float(gpu(gpu_id)["tdp_w"])
    tdp_w = None if math.isnan(tdp) else tdp
    tdp_how = "its TDP in data/gpus.csv" if tdp_w is not None else "no published TDP"
    it_w, it_how, per_node, kind = facility_it_w(gpu_id)
    return Power(gpu_id, tdp_w, tdp_how, it_w, it_how, per_node, kind)


def choose_basis(requested: str | None, power: Power) -> str | None:
    """The basis a plan leads with: the one requested (an error if the accelerator lacks it), else
    facility where there is a sourced build-up, else GPU TDP where there is a TDP, else None (no
    energy: a TPU without a published pod power)."""
    if requested is not None and requested not in ENERGY_BASES:
        raise PlanError(f"--energy-basis must be one of {', '.join(ENERGY_BASES)}, not {requested!r}")
    if requested == "facility" and power.it_w is None:
        raise PlanError(f"--energy-basis facility: {power.gpu_id} has {power.it_how}; use --energy-basis gpu-tdp")
    if requested == "gpu-tdp" and power.tdp_w is None:
        raise PlanError(f"--energy-basis gpu-tdp: {power.gpu_id} has no published TDP in data/gpus.csv; "
                        "use --energy-basis facility")
    if requested is not None:
        return requested
    if power.it_w is not None:
        return "facility"
    return "gpu-tdp" if power.tdp_w is not None else None


# --- grids ----------------------------------------------------------------------------------------------

def grid_ids() -> list[str]:

    return load_table("grid_carbon")["grid_id"].tolist()


def grid(grid_id: str | None, custom_g_per_kwh: float | None = None) -> dict:
    """The grid a plan's carbon uses: ``{"id", "name", "g_co2_per_kwh", "year", "source_id"}`` for
    a row of ``data/grid_carbon.csv``, or a custom intensity, or the book's default (the
    ``grid_g_co2_per_kwh`` parameter, the US average)."""

    if grid_id is not None and custom_g_per_kwh is not None:
        raise PlanError("give at most one of --grid and --grid-kg-co2-per-kwh")
    if custom_g_per_kwh is not None:
        return {"id": None, "name": "custom", "g_co2_per_kwh": float(custom_g_per_kwh), "year": None, "source_id": None}
    if grid_id is None:
        return {"id": None, "name": "US average (the book's default, parameter grid_g_co2_per_kwh)",
                "g_co2_per_kwh": d.GRID_G_CO2_PER_KWH.default, "year": None, "source_id": d.GRID_G_CO2_PER_KWH.source}
    table = load_table("grid_carbon").set_index("grid_id")
    if grid_id not in table.index:
        raise PlanError(f"--grid {grid_id}: unknown grid; known: {', '.join(table.index)}")
    r = table.loc[grid_id]
    return {"id": grid_id, "name": str(r["name"]), "g_co2_per_kwh": float(r["kg_co2_per_kwh"]) * 1_000.0,
            "year": int(r["year"]), "source_id": str(r["source_id"])}
