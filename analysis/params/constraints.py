"""Rules between parameters that each range alone cannot express. A value inside its own range
can still contradict another parameter (an all-in price below the server price it includes); such
a pair is an input error (exit code 2) naming both, found before any chapter runs.

These rules need no model. A rule that asks the model whether a chapter can use its inputs (does
the network's fabric exist, does a job make progress) is that chapter's own ``check_inputs(P,
origin)``; :func:`analysis.chapters.check_inputs` runs both."""

from __future__ import annotations

from analysis.params.parameters import ParameterError, Parameters

# (smaller, larger, why): within a section that has both, ``smaller`` must not exceed ``larger``.
NOT_ABOVE = (
    ("h100_server_usd", "h100_allin_usd", "the all-in price includes the server"),
    ("gb200_rack_usd", "gb200_allin_usd", "the all-in price includes the rack"),
    ("warranty_years", "useful_life_years", "a warranty cannot cover more years than the GPU is owned and used "
     "(maintenance counts the share of the life outside it)"),
)

# Not all of these may be zero together in the opex chapter, with maintenance zero too
# (:func:`maintenance_is_zero`): opex would be zero, and its ratio of GB200 to H100 opex undefined.
# (Chapters that add capex to opex have a non-zero total anyway.)
OPEX_ITEMS = ("tariff_usd_per_kwh", "datacenter_usd_per_kw_month", "other_usd_per_gpu_month")


def where(origin: dict[str, str], *names: str) -> str:
    """The origin (scenario file and line) of the first of ``names`` that has one, for a message."""
    return next((origin[n] for n in names if n in origin), "")


def shown(value) -> str:
    """A number as a message shows it: whole numbers with thousands separators."""
    return f"{value:,.0f}" if float(value).is_integer() and abs(value) < 1e15 else f"{value:g}"


def maintenance_is_zero(P: Parameters) -> bool:
    """Whether maintenance (analysis.chapters.gpu_cost.maintenance_usd_per_gpu_month) is zero: a
    free support contract, or, on the parts basis, no labour, every year under warranty (no part
    bought) and no spares pool (other parts than GPUs always fail at Llama 3's rates)."""
    if P.maintenance_basis == "support contract":
        return P.support_frac_per_year == 0
    no_labour = P.swap_person_hours == 0 or P.technician_usd_per_hour == 0
    no_parts = P.warranty_years >= P.useful_life_years
    no_spares = 0 in (P.gpu_swap_share, P.spares_restock_days, P.gpu_share_of_server_price)
    return no_labour and no_parts and no_spares


def check(P: Parameters, section: str, origin: dict[str, str] | None = None) -> None:
    """Raise a ParameterError naming both parameters of the first rule ``P`` (``section``'s
    parameters) breaks."""
    origin = origin or {}
    for small, large, why in NOT_ABOVE:
        if small in P and large in P and getattr(P, small) > getattr(P, large):
            raise ParameterError(
                f"{where(origin, small, large)}parameters '{small}' ({getattr(P, small):,g}) and '{large}' "
                f"({getattr(P, large):,g}) conflict: {small} must not exceed {large}, because {why}")
    if section == "opex" and not any(getattr(P, name) for name in OPEX_ITEMS) and maintenance_is_zero(P):
        raise ParameterError(f"{where(origin, *OPEX_ITEMS)}parameters {', '.join(repr(n) for n in OPEX_ITEMS)} "
                             "are all 0 and maintenance is zero too: opex would be zero and GB200/H100 opex ratios "
                             "undefined; set at least one above 0")
