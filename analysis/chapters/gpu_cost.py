"""The cost of one GPU, wired once: all-in capex per GPU, maintenance built from its parts, opex
items per GPU-month, the capital charge and opex per used GPU-hour, and their sum, the TCO per
GPU-hour, of an H100 (in its 8-GPU server) and a GB200 NVL72 GPU (in its 72-GPU rack).

The capex, opex and TCO chapters take their numbers from these functions, and so do the
uncertainty bands (on arrays of drawn inputs, :mod:`analysis.chapters.bands`), the what-if grids
and the planner: the chain from the parameters to a GPU-hour's price has this one wiring. Each
function reads the parameters it needs from ``P`` by attribute (a chapter's
:class:`~analysis.params.parameters.Parameters`); values may be numpy arrays. The arithmetic is in the domain
modules :mod:`analysis.capex`, :mod:`analysis.maintenance`, :mod:`analysis.opex` and :mod:`analysis.tco`.
"""

from __future__ import annotations

from analysis import capex, maintenance, opex, tco

SYSTEMS = ("h100", "gb200")
GPU_IDS = {"h100": "h100_sxm", "gb200": "gb200_nvl72"}  # the GPU each system's results are keyed by


def name_systems(res) -> None:
    """Record in ``res`` (a ChapterResults) the GPU behind each system tag its keys carry
    (``h100_*``, ``gb200_*``), so a page names them from the results."""
    for system, gpu_id in GPU_IDS.items():
        res.name(system, gpu_id)


def _check(system: str) -> None:
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}; expected one of {', '.join(SYSTEMS)}")


def gpus_per_system(P, system: str):
    """GPUs per H100 server (``h100_gpus_per_server``) or per GB200 NVL72 rack (``gb200_gpus_per_rack``)."""
    _check(system)
    return P.h100_gpus_per_server if system == "h100" else P.gb200_gpus_per_rack


def capex_usd_per_gpu(P, system: str):
    """All-in capex per GPU [USD]: the all-in server or rack price over its GPUs."""
    _check(system)
    allin = P.h100_allin_usd if system == "h100" else P.gb200_allin_usd
    return capex.per_gpu_usd(allin, gpus_per_system(P, system))


def it_w_per_gpu(P, system: str):
    """All-in critical IT power per GPU [W] (``h100_it_w_per_gpu``, ``gb200_it_w_per_gpu``)."""
    _check(system)
    return P.h100_it_w_per_gpu if system == "h100" else P.gb200_it_w_per_gpu


def server_usd_per_gpu(P, system: str):
    """Server (H100) or rack (GB200 NVL72) price per GPU, networking and storage excluded [USD]."""
    _check(system)
    server = P.h100_server_usd if system == "h100" else P.gb200_rack_usd
    return capex.per_gpu_usd(server, gpus_per_system(P, system))


def fault_ratio(P, system: str):
    """The system's fault rate per GPU against Llama 3's H100s: 1 for the H100, ``gb200_gpu_fault_ratio``."""
    _check(system)
    return 1.0 if system == "h100" else P.gb200_gpu_fault_ratio


def gpu_part_usd(P, system: str):
    """Price of one replacement GPU [USD]: ``gpu_share_of_server_price`` of the server price per GPU."""
    return server_usd_per_gpu(P, system) * P.gpu_share_of_server_price


def gpu_swaps_per_gpu_year(P, system: str):
    """GPUs swapped per GPU-year: Llama 3's GPU faults x ``gpu_swap_share`` (x GB200's fault ratio)."""
    return maintenance.llama3_fault_rates()["gpu"] * P.gpu_swap_share * fault_ratio(P, system)


def maintenance_build_up_usd_per_gpu_month(P, system: str) -> dict:
    """Maintenance on the parts basis, item by item, per GPU-month [USD]: GPUs and other parts
    bought outside the warranty, the labour of every swap, and the spares pool's capital charge."""
    gpu_swaps = gpu_swaps_per_gpu_year(P, system)
    other_swaps, other_usd = maintenance.other_parts_per_gpu_year(fault_ratio(P, system))
    part = gpu_part_usd(P, system)
    unwarranted = maintenance.out_of_warranty_frac(P.useful_life_years, P.warranty_years)
    crf = capex.capital_recovery_factor(P.cost_of_capital, P.useful_life_years)
    spares = maintenance.spares_pool_gpus_per_gpu(gpu_swaps, P.spares_restock_days)
    per_year = {
        "GPUs replaced": maintenance.parts_usd_per_gpu_year(gpu_swaps, part, unwarranted),
        "other parts": other_usd * unwarranted,
        "labour": maintenance.labour_usd_per_gpu_year(gpu_swaps + other_swaps, P.swap_person_hours,
                                                      P.technician_usd_per_hour),
        "spares pool": maintenance.spares_usd_per_gpu_year(spares, part, crf),
    }
    return {item: usd / 12 for item, usd in per_year.items()}


def support_contract_usd_per_gpu_month(P, system: str):
    """Maintenance as a vendor's support contract per GPU-month [USD] (``support_frac_per_year``)."""
    return maintenance.support_contract_usd_per_gpu_year(server_usd_per_gpu(P, system), P.support_frac_per_year) / 12


def maintenance_usd_per_gpu_month(P, system: str):
    """Maintenance per GPU-month [USD] on ``maintenance_basis``: the parts build-up or the contract."""
    if P.maintenance_basis == "support contract":
        return support_contract_usd_per_gpu_month(P, system)
    return sum(maintenance_build_up_usd_per_gpu_month(P, system).values())


def capex_usd_per_gpu_hour(P, system: str):
    """Capital charge per used GPU-hour [USD]: capex per GPU x capital recovery factor over the
    useful life, spread over the hours in use."""
    return capex.capex_per_gpu_hour_usd(capex_usd_per_gpu(P, system), P.cost_of_capital, P.useful_life_years,
                                        P.utilization)


def opex_items_usd_per_gpu_month(P, system: str) -> dict:
    """Each opex item per GPU-month [USD] (power, datacenter, maintenance and support, other); power
    at the average draw (``load_factor`` of rated)."""
    return opex.opex_items_usd_per_gpu_month(
        it_w_per_gpu(P, system), P.pue, P.tariff_usd_per_kwh, P.datacenter_usd_per_kw_month,
        maintenance_usd_per_gpu_month(P, system), P.other_usd_per_gpu_month, load_factor=P.load_factor)


def system_costs(P, system: str) -> dict:
    """The chain for ``system`` step by step: ``capex_usd_per_gpu``, ``opex_usd_per_gpu_month``,
    ``capex_usd_per_gpu_hour``, ``opex_usd_per_gpu_hour`` and their sum ``tco_usd_per_gpu_hour``
    (hours are used hours) [USD]."""
    opex_month = sum(opex_items_usd_per_gpu_month(P, system).values())
    capex_hour = capex_usd_per_gpu_hour(P, system)
    opex_hour = tco.opex_usd_per_gpu_hour(opex_month, P.utilization)
    return {"capex_usd_per_gpu": capex_usd_per_gpu(P, system), "opex_usd_per_gpu_month": opex_month,
            "capex_usd_per_gpu_hour": capex_hour, "opex_usd_per_gpu_hour": opex_hour,
            "tco_usd_per_gpu_hour": capex_hour + opex_hour}


def tco_usd_per_gpu_hour(P, system: str):
    """TCO per used GPU-hour [USD] of ``system`` (:func:`system_costs`)."""
    return system_costs(P, system)["tco_usd_per_gpu_hour"]
