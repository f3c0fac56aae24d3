"""The cost of one GPU, wired once: all-in capex per GPU, opex items per GPU-month, the capital
charge and opex per used GPU-hour, and their sum, the TCO per GPU-hour, of an H100 (in its 8-GPU
server) and a GB200 NVL72 GPU (in its 72-GPU rack).

The capex, opex and TCO chapters take their numbers from these functions, and so do the
uncertainty bands (on arrays of drawn inputs, :mod:`analysis.chapters.bands`), the what-if grids
and the planner: the chain from the parameters to a GPU-hour's price has this one wiring. Each
function reads the parameters it needs from ``P`` by attribute (a chapter's
:class:`~analysis.params.parameters.Parameters`); values may be numpy arrays. The arithmetic is in the domain
modules :mod:`analysis.capex`, :mod:`analysis.opex` and :mod:`analysis.tco`.
"""

from __future__ import annotations

from analysis import capex, opex, tco

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
        capex_usd_per_gpu(P, system), P.maintenance_frac_per_year, P.other_usd_per_gpu_month,
        load_factor=P.load_factor)


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
