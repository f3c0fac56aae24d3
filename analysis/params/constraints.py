"""Rules between parameters that each range alone cannot express. A value inside its own range
can still contradict another parameter (an all-in price below the server price it includes); such
a pair is an input error (exit code 2) naming both, found before any chapter runs."""

from __future__ import annotations

from analysis import benchmarks, network, reliability, scaling
from analysis.data.load import load_table
from analysis.params.parameters import ParameterError

# (smaller, larger, why): within a section that has both, ``smaller`` must not exceed ``larger``.
NOT_ABOVE = (
    ("h100_server_usd", "h100_allin_usd", "the all-in price includes the server"),
    ("gb200_rack_usd", "gb200_allin_usd", "the all-in price includes the rack"),
    ("warranty_years", "useful_life_years", "a warranty cannot cover more years than the GPU is owned and used "
     "(maintenance counts the share of the life outside it)"),
)

# Not all of these may be zero together in the opex chapter: opex would be zero, and its ratio of
# GB200 to H100 opex undefined. (Chapters that add capex to opex have a non-zero total anyway.)
# Maintenance is zero when its inputs make it so (:func:`_maintenance_is_zero`).
OPEX_ITEMS = ("tariff_usd_per_kwh", "datacenter_usd_per_kw_month", "other_usd_per_gpu_month")
OPEX_RATIO_SECTIONS = ("opex",)
STRONG_SCALING_RELEASE = "nv_dgxc_v25_02"  # the sweep the scaling chapter starts from


def strong_reference_gpus(model: str, precision: str) -> int | None:
    """The smallest measured cluster of the scaling chapter's sweep for ``model`` and ``precision``:
    its strong-scaling curve starts there, so ``strong_max_gpus`` must exceed it."""

    rows = benchmarks.sweep(load_table("benchmarks"), model, precision, STRONG_SCALING_RELEASE)
    return int(rows["gpus"].min()) if len(rows) else None


def strong_reference_step(values: dict) -> dict | None:
    """The scaling chapter's reference run (the smallest measured cluster of ``strong_model`` in
    ``strong_precision``): its GPUs, pipeline degree, measured step and gradient exchange (seconds)
    at ``grad_bytes_per_param`` and ``backend_gbps``. The chapter calibrates its compute as the
    step minus the exchange, so the exchange must be the shorter; and with no exchange and no
    pipeline bubble, more GPUs would cost nothing extra and its cost ratios are undefined."""

    rows = benchmarks.sweep(benchmarks.load_benchmarks(), values["strong_model"], values["strong_precision"],
                            STRONG_SCALING_RELEASE)
    if not len(rows):
        return None
    ref = rows.iloc[0]
    params = load_table("models").set_index("model_id").loc[values["strong_model"], "total_params"]
    pp = scaling.degree(ref["pp"])
    return {"gpus": int(ref["gpus"]), "pp": pp,
            "step_s": float(scaling.step_time_from_rate_s(ref["global_batch"], ref["seq_len"], ref["gpus"],
                                                          ref["tokens_per_s_per_gpu"])),
            "exchange_s": float(scaling.grad_sync_s(params, scaling.degree(ref["tp"]), pp, ref["gpus"],
                                                    values["grad_bytes_per_param"], values["backend_gbps"]))}


def _check_strong_scaling(values: dict, origin: dict) -> None:
    ref = strong_reference_step(values)
    if ref is None:
        return
    g, b, model = values["grad_bytes_per_param"], values["backend_gbps"], values["strong_model"]
    where = origin.get("backend_gbps") or origin.get("grad_bytes_per_param") or origin.get("strong_model") or ""
    if ref["exchange_s"] >= ref["step_s"]:
        raise ParameterError(
            f"{where}parameters 'grad_bytes_per_param' ({g:g}) and 'backend_gbps' ({b:g}) conflict: the gradient "
            f"exchange of {model} would take {ref['exchange_s']:.3g} s, longer than the whole {ref['step_s']:.3g} s "
            f"step measured on {ref['gpus']:,} GPUs; backend_gbps must exceed "
            f"{b * ref['exchange_s'] / ref['step_s']:.3g} at {g:g} bytes per parameter")
    if ref["exchange_s"] == 0 and ref["pp"] == 1:
        raise ParameterError(
            f"{where}parameters 'grad_bytes_per_param' (0) and 'strong_model' ({model}) conflict: with no gradient "
            f"exchange and no pipeline (its measured recipe has pipeline degree 1), strong scaling is perfect, more "
            "GPUs cost nothing extra and the chapter's cost per speed-up is undefined; set grad_bytes_per_param "
            "above 0 or choose a model trained with a pipeline")


FABRIC_PARAMS = ("gpus", "switch_radix", "fabric_tiers", "island_gpus", "island_oversubscription")


def _check_fabric(values: dict, origin: dict) -> None:
    """The network chapter's fabric must exist: a folded Clos of at most 16 tiers of
    ``switch_radix``-port switches for ``gpus`` GPUs (in islands of ``island_gpus``), built by the
    function the chapter builds it with."""

    try:
        network.design_fabric(values["gpus"], values["switch_radix"], values["fabric_tiers"], values["island_gpus"],
                              values["island_oversubscription"])
    except ValueError as exc:
        where = next((origin[n] for n in FABRIC_PARAMS if n in origin), "")
        shown = ", ".join(f"'{n}' ({_shown(values[n])})" for n in FABRIC_PARAMS)
        raise ParameterError(f"{where}parameters {shown} conflict: {exc}") from None


def _shown(value) -> str:
    return f"{value:,.0f}" if float(value).is_integer() and abs(value) < 1e15 else f"{value:g}"


NO_PROGRESS_SECTIONS = ("downtime", "uncertainty")  # the sections that list job_gpus
MIN_GOODPUT = 1e-6  # below this a job's goodput is zero in all but floating-point noise


def _no_progress(values: dict, job_gpus: float) -> bool:
    """Whether the reliability model's job (``job_gpus`` at Llama 3's failure rates) would make
    essentially no progress on H100 or GB200: its break-even ratio is then 0/0."""

    rates = reliability.llama3_rates()
    recovery = (values["checkpoint_write_seconds"] / 3_600, values["failure_detection_minutes"] / 60,
                values["restart_minutes"] / 60, rates["planned_per_hour"])
    nvlink = reliability.per_gpu_rate_from_rack_month(values["gb200_nvlink_faults_per_rack_month"],
                                                      values.get("gb200_gpus_per_rack", 72))
    worst = max(rates["job"], rates["job"] * values["gb200_gpu_fault_ratio"] + nvlink)
    good = reliability.useful_share(job_gpus, worst, 0.0, 1, 0.0, *recovery)[0]
    return not good >= MIN_GOODPUT


def _maintenance_is_zero(values: dict) -> bool:
    """Whether maintenance (analysis.chapters.gpu_cost.maintenance_usd_per_gpu_month) is zero: a
    free support contract, or, on the parts basis, no labour, every year under warranty (no part
    bought) and no spares pool (other parts than GPUs always fail at Llama 3's rates)."""
    if values["maintenance_basis"] == "support contract":
        return values["support_frac_per_year"] == 0
    no_labour = values["swap_person_hours"] == 0 or values["technician_usd_per_hour"] == 0
    no_parts = values["warranty_years"] >= values["useful_life_years"]
    no_spares = 0 in (values["gpu_swap_share"], values["spares_restock_days"], values["gpu_share_of_server_price"])
    return no_labour and no_parts and no_spares


def check(values_by_section: dict[str, dict], origin: dict[str, str] | None = None) -> None:
    """Raise a ParameterError naming both parameters of the first rule that is broken."""
    origin = origin or {}
    for section, values in values_by_section.items():
        for small, large, why in NOT_ABOVE:
            if small in values and large in values and values[small] > values[large]:
                where = origin.get(small) or origin.get(large) or ""
                raise ParameterError(
                    f"{where}parameters '{small}' ({values[small]:,g}) and '{large}' ({values[large]:,g}) "
                    f"conflict: {small} must not exceed {large}, because {why}")
        if {"strong_max_gpus", "strong_model", "strong_precision"} <= set(values):
            reference = strong_reference_gpus(values["strong_model"], values["strong_precision"])
            if reference is not None and values["strong_max_gpus"] <= reference:
                where = origin.get("strong_max_gpus") or origin.get("strong_model") or ""
                raise ParameterError(
                    f"{where}parameters 'strong_max_gpus' ({values['strong_max_gpus']:,}) and 'strong_model' "
                    f"({values['strong_model']}, {values['strong_precision']}) conflict: the sweep starts at "
                    f"{reference:,} measured GPUs, so strong_max_gpus must exceed {reference:,}")
        if "switch_radix" in values and set(FABRIC_PARAMS) <= set(values):
            _check_fabric(values, origin)
        if {"strong_model", "strong_precision", "grad_bytes_per_param", "backend_gbps"} <= set(values):
            _check_strong_scaling(values, origin)
        # the downtime chapter also prices a job the size of the whole cluster (gpus)
        sizes = [name for name in ("job_gpus", "gpus") if section in NO_PROGRESS_SECTIONS and name in values]
        stuck = next((name for name in sizes if _no_progress(values, values[name])), None)
        if stuck is not None:
            where = origin.get("checkpoint_write_seconds") or origin.get(stuck) or ""
            raise ParameterError(
                f"{where}parameters 'checkpoint_write_seconds' ({values['checkpoint_write_seconds']:g}) and "
                f"'{stuck}' ({values[stuck]:,}) conflict: at Llama 3's failure rates (scaled by "
                "'gb200_gpu_fault_ratio' and 'gb200_nvlink_faults_per_rack_month' for GB200) such a job fails "
                "before a checkpoint completes and makes no progress; use fewer GPUs or faster checkpoints")
        if (section in OPEX_RATIO_SECTIONS and not any(values[name] for name in OPEX_ITEMS)
                and _maintenance_is_zero(values)):
            where = next((origin[n] for n in OPEX_ITEMS if n in origin), "")
            raise ParameterError(f"{where}parameters {', '.join(repr(n) for n in OPEX_ITEMS)} are all 0 and "
                                 "maintenance is zero too: opex would be zero and GB200/H100 opex ratios "
                                 "undefined; set at least one above 0")
