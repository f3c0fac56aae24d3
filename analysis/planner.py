"""Plan a training run: days, GPU-hours, dollars, megawatt-hours and carbon for any model, token
count and cluster, with P10/P50/P90 bands. ``python -m analysis plan`` and the "Plan a run"
chapter both call :func:`plan`.

An orchestration module, like :mod:`analysis.scenarios`: it reads the book's parameter defaults
(:mod:`analysis.defaults`) and chains the tested domain functions, step by step:

1. FLOPs per token (:mod:`analysis.flops`, 6 N + 12 L h s) and the run's total model FLOPs;
2. throughput, from exactly one of an MFU, a measured tokens/s/GPU, an achieved TFLOP/s with the
   FLOPs it counts (:func:`analysis.flops.tokens_per_s_from_achieved`), or, with none, an MFU
   estimated from the book's benchmark rows (:func:`estimate_mfu`, which reports its error);
3. time without failures;
4. failures (:mod:`analysis.reliability`): the job's MTBF from per-GPU rates calibrated on
   Llama 3 405B (or a fit to measured job failures), Daly's checkpoint interval, the expected
   goodput, hence the wall-clock days and the interruptions;
5. cost: GPU-hours paid (GPUs x wall-clock hours) x a GPU-hour price (given, or the book's TCO
   where modelled, :func:`analysis.tco.system_tco_per_gpu_hour_usd`; the sourced rental prices
   are shown beside it);
6. energy at the meter (:mod:`analysis.energy`: IT watts per GPU x PUE x GPU-hours paid), in
   household-years and tonnes of CO2;
7. uncertainty: a seeded Monte Carlo over the inputs the user did not fix, with the ranges of
   ``data/distributions.csv`` (PUE, restart time, household baseline, the throughput of your
   cluster against the reference), or, for an estimated MFU, the estimate's own leave-one-out errors.

It loads only the tables a plan needs, so a plan answers in about a second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from analysis import costs, energy, flops, reliability
from analysis.units import HOURS_PER_DAY, SECONDS_PER_HOUR

# Result keys in output order: (unit, label).
KEYS = {
    "days": ("days", "Training time without failures"),
    "days_with_failures": ("days", "Wall-clock time with failures and restarts"),
    "gpu_hours": ("GPU-hours", "GPU-hours paid (GPUs x wall-clock hours)"),
    "cost_usd": ("USD", "Cost of the GPU-hours"),
    "energy_mwh": ("MWh", "Energy at the meter"),
    "household_years": ("household-years", "Energy in US household-years"),
    "co2_t": ("t CO2", "Carbon dioxide, location-based"),
    "interruptions": ("count", "Interruptions (unexpected and planned)"),
    "goodput": ("fraction", "Goodput (useful share of wall-clock time)"),
    "checkpoint_interval_min": ("minutes", "Checkpoint interval (Daly's optimum)"),
}
TCO_SYSTEMS = {"h100_sxm": "h100", "gb200_nvl72": "gb200"}  # GPUs whose TCO the book models
MIN_FIT_ROWS = 6  # benchmark rows of one GPU type needed to fit the MFU estimate on that type alone


class PlanError(ValueError):
    """Inputs a plan cannot use; the message names the flag."""


@dataclass
class PlanInputs:
    """One run to plan. ``model`` is a ``models.csv``-like mapping (active_params, layers,
    hidden_size, seq_len, vocab_size, tied_embeddings). Throughput: at most one of ``mfu``,
    ``tokens_per_s_per_gpu`` and ``achieved_tflops`` (with ``flops_counted``). ``None`` means
    the book's default (and, for the uncertain ones, its range)."""

    model: dict
    tokens: float
    gpu_id: str
    gpus: int
    precision: str = "bf16"
    mfu: float | None = None
    tokens_per_s_per_gpu: float | None = None
    achieved_tflops: float | None = None
    flops_counted: str | None = None
    usd_per_gpu_hour: float | None = None
    pue: float | None = None
    tariff_usd_per_kwh: float | None = None
    grid_g_co2_per_kwh: float | None = None
    checkpoint_write_seconds: float | None = None
    restart_minutes: float | None = None
    failure_model: str = "per-gpu"
    draws: int = 4_000
    seed: int = 0


@dataclass
class Plan:
    """The plan's quantities (``key -> {"value", "unit", "p10", "p50", "p90"}``) and the steps
    behind them (``steps``: name -> value, for the chapter and the readable table)."""

    results: dict
    steps: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    prices: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {k: dict(v) for k, v in self.results.items()}


# --- inputs from the registry ------------------------------------------------------------------------

def model_from_registry(model_id: str) -> dict:
    """A row of ``data/models.csv`` as a plain mapping."""
    from analysis.data import row

    return dict(row("models", model_id))


def model_from_shape(params: float, layers: int, hidden_size: int, seq_len: int,
                     active_params: float | None = None) -> dict:
    """A model given by its size and shape. With no vocabulary, every parameter counts as a matmul
    parameter (tied embeddings, vocabulary 0), which is 6 N + 12 L h s for N = ``params`` (or
    ``active_params`` for an MoE)."""
    active = params if active_params is None else active_params
    return {"name": f"{params:.3g}-parameter model", "active_params": float(active), "total_params": float(params),
            "layers": int(layers), "hidden_size": int(hidden_size), "seq_len": int(seq_len), "vocab_size": 0,
            "tied_embeddings": True}


def peak_tflops(gpu_id: str, precision: str) -> float:
    from analysis.hardware import peak_tflops as peak

    return peak(gpu_id, precision)


# --- step 2: throughput ------------------------------------------------------------------------------

@dataclass
class MfuEstimate:
    mfu: float
    method: str
    rows: int
    median_abs_error_frac: float
    ratios: np.ndarray  # leave-one-out actual / predicted, for the bands


def _design(params, gpus):
    return np.column_stack([np.ones(len(params)), np.log10(params), np.log10(gpus)])


def estimate_mfu(gpu_id: str, precision: str, active_params: float, gpus: int) -> MfuEstimate:
    """MFU estimated from the book's benchmark rows (:func:`analysis.benchmarks.load_benchmarks`):
    least squares of MFU on log10(active parameters) and log10(GPUs), over the rows of this GPU
    type and precision (all GPU types of the precision when this one has fewer than
    :data:`MIN_FIT_ROWS`). Its error is measured leave-one-out on the same rows."""
    from analysis import provenance
    from analysis.benchmarks import load_benchmarks

    bench = load_benchmarks()
    rows = bench[(bench["precision"] == precision) & (bench["gpu_id"] == gpu_id)]
    scope = f"{len(rows)} {gpu_id} {precision.upper()} rows"
    if len(rows) < MIN_FIT_ROWS:
        rows = bench[bench["precision"] == precision]
        scope = (f"{len(rows)} {precision.upper()} rows of every GPU type ({gpu_id} has too few of its own; "
                 "an MFU carries across GPU types only roughly)")
    provenance.note_rows("benchmarks", rows)  # the fit rests on every row it uses, the report's included
    x = _design(_active(rows), rows["gpus"].to_numpy(float))
    y = rows["mfu"].to_numpy(float)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    loo = np.empty(len(y))
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        c, *_ = np.linalg.lstsq(x[keep], y[keep], rcond=None)
        loo[i] = x[i] @ c
    ratios = y / loo
    mfu = float(np.clip(_design([active_params], [gpus])[0] @ coef, 0.05, 0.8))
    method = (f"MFU = {coef[0]:.3f} {coef[1]:+.3f} log10(active params) {coef[2]:+.3f} log10(GPUs), "
              f"fitted to {scope} of data/benchmarks.csv")
    return MfuEstimate(mfu, method, len(y), float(np.median(np.abs(ratios - 1))), ratios)


def _active(rows) -> np.ndarray:
    from analysis.data import load_table

    models = load_table("models").set_index("model_id")
    return models.loc[rows["model_id"], "active_params"].to_numpy(float)


def throughput(inputs: PlanInputs, flops_per_token: float, peak: float) -> tuple[float, str, MfuEstimate | None]:
    """Tokens/s/GPU, how it was obtained, and the MFU estimate when one was made."""
    given = [name for name in ("mfu", "tokens_per_s_per_gpu", "achieved_tflops") if getattr(inputs, name) is not None]
    if len(given) > 1:
        raise PlanError(f"give at most one of --mfu, --tokens-per-s-per-gpu and --achieved-tflops (got {', '.join(given)})")
    if inputs.mfu is not None:
        return flops.tokens_per_s_from_mfu(inputs.mfu, flops_per_token, peak), f"MFU {inputs.mfu:.1%} (given)", None
    if inputs.tokens_per_s_per_gpu is not None:
        return inputs.tokens_per_s_per_gpu, "tokens/s/GPU (given)", None
    if inputs.achieved_tflops is not None:
        if inputs.flops_counted is None:
            raise PlanError("--achieved-tflops needs --flops-counted model|hardware-selective|hardware-full")
        rate = flops.tokens_per_s_from_achieved(inputs.achieved_tflops, inputs.flops_counted, inputs.model)
        return rate, f"{inputs.achieved_tflops:g} TFLOP/s per GPU counting {inputs.flops_counted} FLOPs (given)", None
    est = estimate_mfu(inputs.gpu_id, inputs.precision, float(inputs.model["active_params"]), inputs.gpus)
    rate = flops.tokens_per_s_from_mfu(est.mfu, flops_per_token, peak)
    return rate, (f"MFU {est.mfu:.1%} estimated: {est.method}; median leave-one-out error "
                  f"{est.median_abs_error_frac:.0%} over {est.rows} rows"), est


# --- steps 4-6 ---------------------------------------------------------------------------------------

def job_mtbf_hours(gpus: int, failure_model: str) -> tuple[float, float, str]:
    """(job MTBF in hours, planned interruptions per hour, description) for ``failure_model``."""
    rates = reliability.llama3_rates()
    if failure_model == "per-gpu":
        gpu_mtbf = 1.0 / rates["job"]
        return (reliability.job_mtbf_hours(gpus, gpu_mtbf), rates["planned_per_hour"],
                f"per-GPU rates calibrated on Llama 3 405B (one failure per {gpu_mtbf:,.0f} GPU-hours), MTBF = that / GPUs")
    if failure_model == "measured-fit":
        fit = getattr(reliability, "measured_job_mtbf_hours", None)
        if fit is None:
            raise PlanError("--failure-model measured-fit: not available in this build "
                            "(analysis.reliability.measured_job_mtbf_hours is missing); use per-gpu")
        return float(fit(gpus)), rates["planned_per_hour"], "a fit to measured job failure rates by job size"
    raise PlanError(f"--failure-model must be per-gpu or measured-fit, not {failure_model!r}")


def it_w_per_gpu(gpu_id: str) -> tuple[float, str]:
    """All-in IT watts per GPU: the book's build-up for H100 and GB200; for another GPU the H100
    build-up with the chip's TDP swapped in (:func:`analysis.energy.it_w_with_chip_swapped`)."""
    from analysis import defaults as d
    from analysis.hardware import tdp_w

    if gpu_id == "h100_sxm":
        return d.H100_IT_W_PER_GPU.default, "the book's H100 build-up"
    if gpu_id == "gb200_nvl72":
        return d.GB200_IT_W_PER_GPU.default, "the book's GB200 NVL72 build-up"
    watts = energy.it_w_with_chip_swapped(d.H100_IT_W_PER_GPU.default, tdp_w("h100_sxm"), tdp_w(gpu_id))
    return watts, f"the H100 build-up with this GPU's {tdp_w(gpu_id):,.0f} W TDP swapped in (an assumption)"


def tco_usd_per_gpu_hour(gpu_id: str, pue: float | None, tariff: float | None) -> float | None:
    """The book's TCO per GPU-hour (owning) at its defaults, with PUE and tariff if given; None for
    a GPU whose TCO the book does not model."""
    from analysis import defaults as d
    from analysis import tco

    if gpu_id not in TCO_SYSTEMS:
        return None
    values = {p.name: p.default for p in d.TCO_INPUTS}
    if pue is not None:
        values["pue"] = pue
    if tariff is not None:
        values["tariff_usd_per_kwh"] = tariff
    return float(tco.system_tco_per_gpu_hour_usd(TCO_SYSTEMS[gpu_id], values))


def cloud_prices(gpu_id: str):
    """Rows of ``data/cloud_prices.csv`` for this GPU (renting), latest first."""
    from analysis.data import load_table

    table = load_table("cloud_prices")
    return table[table["gpu_id"] == gpu_id].sort_values("period", ascending=False)


def _distribution(name: str):
    from analysis.data import load_table

    return load_table("distributions").set_index("param").loc[name]


def _draw(rng, name: str, mode: float, n: int) -> np.ndarray:
    d = _distribution(name)
    if d["shape"] == "uniform":
        return rng.uniform(d["low"], d["high"], n)
    return rng.triangular(d["low"], float(np.clip(mode, d["low"], d["high"])), d["high"], n)


def _outcomes(tokens_total, gpus, rate, mtbf, planned, write_h, detect_h, restart_h, meter_w, price,
              household_kwh, grid) -> dict:
    """Every output for (possibly array) inputs: the plan's arithmetic in one place."""
    days = costs.run_gpu_hours(tokens_total, rate) / gpus / HOURS_PER_DAY
    interval = reliability.daly_interval(write_h, mtbf)
    shares = reliability.expected_time_fractions(mtbf, interval, write_h, detect_h, restart_h, planned)
    good = shares["useful training"]
    # Checkpoint writes are part of a run without failures too: the failure-free days above count
    # compute only, so the wall-clock days are compute / useful share.
    wall_days = days / good
    wall_hours = wall_days * HOURS_PER_DAY
    keep = 1.0 - np.clip(planned * restart_h, 0.0, 1.0)
    interruptions = wall_hours * (keep / (mtbf + detect_h + restart_h) + planned)
    gpu_hours = gpus * wall_hours
    kwh = energy.energy_kwh_from_gpu_hours(gpu_hours, meter_w)
    return {
        "days": days, "days_with_failures": wall_days, "gpu_hours": gpu_hours,
        "cost_usd": gpu_hours * price if price is not None else None,
        "energy_mwh": kwh / 1_000.0,
        "household_years": kwh / household_kwh,
        "co2_t": energy.tonnes_co2(kwh, grid),
        "interruptions": interruptions, "goodput": good,
        "checkpoint_interval_min": interval * 60.0,
    }


def plan(inputs: PlanInputs) -> Plan:
    """Plan one run (see the module docstring for the steps)."""
    from analysis import defaults as d

    if inputs.precision not in ("bf16", "fp8"):
        raise PlanError(f"--precision must be bf16 or fp8, not {inputs.precision!r}")
    steps, notes = {}, []
    # 1. FLOPs
    fpt = flops.model_flops_per_token(inputs.model)
    steps["flops_per_token"] = fpt
    steps["total_flop"] = fpt * inputs.tokens
    # 2. throughput
    peak = peak_tflops(inputs.gpu_id, inputs.precision)
    steps["peak_tflops"] = peak
    rate, how, est = throughput(inputs, fpt, peak)
    steps["tokens_per_s_per_gpu"] = rate
    steps["mfu"] = flops.mfu_from_tokens_per_s(rate, fpt, peak)
    notes.append(f"Throughput: {how}.")
    # 4. failures
    mtbf, planned, failure_how = job_mtbf_hours(inputs.gpus, inputs.failure_model)
    steps["job_mtbf_hours"] = mtbf
    notes.append(f"Failures: {failure_how}; job MTBF {mtbf:,.2f} h.")
    write_seconds = d.CHECKPOINT_WRITE_SECONDS.default if inputs.checkpoint_write_seconds is None else inputs.checkpoint_write_seconds
    restart_minutes = d.RESTART_MINUTES.default if inputs.restart_minutes is None else inputs.restart_minutes
    detection_minutes = d.FAILURE_DETECTION_MINUTES.default
    # 5. price
    tco = tco_usd_per_gpu_hour(inputs.gpu_id, inputs.pue, inputs.tariff_usd_per_kwh)
    rentals = cloud_prices(inputs.gpu_id)
    prices = [(f"{r.period} {r.what}", r.low_usd_per_gpu_hour, r.high_usd_per_gpu_hour, r.source_id)
              for r in rentals.itertuples()]
    if inputs.usd_per_gpu_hour is not None:
        price, price_how = inputs.usd_per_gpu_hour, "the given price"
    elif tco is not None:
        price, price_how = tco, (f"the book's TCO for owning this GPU at {d.UTILIZATION.default * 100:.0f} % utilization, every hour "
                                 "of its life paid for (analysis.tco; its inputs are partly calibrated, see the TCO chapter)")
    else:
        price, price_how = None, f"none: the book does not model the TCO of {inputs.gpu_id}; give --usd-per-gpu-hour"
    steps["usd_per_gpu_hour"] = math.nan if price is None else price
    steps["tco_usd_per_gpu_hour"] = math.nan if tco is None else tco
    notes.append(f"Price per GPU-hour: {price_how}.")
    # 6. energy
    it_w, it_how = it_w_per_gpu(inputs.gpu_id)
    pue = d.PUE.default if inputs.pue is None else inputs.pue
    grid = d.GRID_G_CO2_PER_KWH.default if inputs.grid_g_co2_per_kwh is None else inputs.grid_g_co2_per_kwh
    household = d.HOUSEHOLD_KWH_PER_YEAR.default
    steps.update(it_w_per_gpu=it_w, pue=pue, meter_w_per_gpu=energy.meter_w_per_gpu(it_w, pue),
                 grid_g_co2_per_kwh=grid, checkpoint_write_seconds=write_seconds, restart_minutes=restart_minutes)
    notes.append(f"Power: {it_w:,.0f} W of IT per GPU from {it_how}, x PUE {pue:.2f}; every paid GPU-hour draws it.")
    point = _outcomes(inputs.tokens, inputs.gpus, rate, mtbf, planned, write_seconds / SECONDS_PER_HOUR,
                      detection_minutes / 60.0, restart_minutes / 60.0, energy.meter_w_per_gpu(it_w, pue), price, household, grid)
    # 7. bands: the inputs the user left to the book vary over their ranges
    rng = np.random.default_rng(inputs.seed)
    n = inputs.draws
    if est is not None:
        scale = rng.choice(est.ratios, n)
    else:
        scale = _draw(rng, "mfu_scale", 1.0, n)
    pue_draw = np.full(n, pue) if inputs.pue is not None else _draw(rng, "pue", pue, n)
    restart_draw = np.full(n, restart_minutes) if inputs.restart_minutes is not None else _draw(rng, "restart_minutes", restart_minutes, n)
    household_draw = _draw(rng, "household_kwh_per_year", household, n)
    draws = _outcomes(inputs.tokens, inputs.gpus, rate * scale, mtbf, planned, write_seconds / SECONDS_PER_HOUR,
                      detection_minutes / 60.0, restart_draw / 60.0, energy.meter_w_per_gpu(it_w, pue_draw), price,
                      household_draw, grid)
    results = {}
    for key, (unit, _) in KEYS.items():
        if point[key] is None:
            results[key] = {"value": None, "unit": unit, "p10": None, "p50": None, "p90": None}
            continue
        p10, p50, p90 = np.percentile(np.broadcast_to(draws[key], (n,)), [10, 50, 90])
        results[key] = {"value": float(point[key]), "unit": unit, "p10": float(p10), "p50": float(p50), "p90": float(p90)}
    fixed = [name for name, v in (("PUE", inputs.pue), ("restart time", inputs.restart_minutes)) if v is not None]
    notes.append(f"Bands: {n:,} seeded draws of "
                 + ("the MFU estimate's leave-one-out errors" if est is not None else "your cluster's throughput against the given one (+-10 %)")
                 + (", PUE" if inputs.pue is None else "") + (", restart time" if inputs.restart_minutes is None else "")
                 + " and the household baseline (data/distributions.csv)"
                 + (f"; fixed as given: {', '.join(fixed)}" if fixed else "") + ".")
    return Plan(results, steps, notes, prices)


def rental_cost_range_usd(result: Plan) -> tuple[float, float] | None:
    """The run's GPU-hours at the lowest and highest sourced rental price for its GPU."""
    if not result.prices:
        return None
    low = min(p[1] for p in result.prices)
    high = max(p[2] for p in result.prices)
    hours = result.results["gpu_hours"]["value"]
    return hours * low, hours * high


def format_table(result: Plan, title: str) -> str:
    """The plan as a readable text table with its notes and the prices."""
    lines = [title, ""]
    width = max(len(label) for _, label in KEYS.values())
    lines.append(f"{'':<{width}}  {'value':>12}  {'P10':>12}  {'P50':>12}  {'P90':>12}  unit")
    for key, (unit, label) in KEYS.items():
        r = result.results[key]
        cells = ["n/a" if r[c] is None else f"{r[c]:,.4g}" for c in ("value", "p10", "p50", "p90")]
        lines.append(f"{label:<{width}}  " + "  ".join(f"{c:>12}" for c in cells) + f"  {unit}")
    lines.append("")
    lines += [f"- {n}" for n in result.notes]
    tco = result.steps["tco_usd_per_gpu_hour"]
    lines.append("")
    lines.append("Owning (the book's TCO): " + ("not modelled for this GPU" if math.isnan(tco)
                                                 else f"${tco:.2f} per GPU-hour"))
    if result.prices:
        lines.append("Renting (data/cloud_prices.csv):")
        lines += [f"  {what}: ${lo:.2f}-{hi:.2f} per GPU-hour ({src})" for what, lo, hi, src in result.prices]
        lo, hi = rental_cost_range_usd(result)
        lines.append(f"  this run at those prices: ${lo:,.0f} to ${hi:,.0f}")
    else:
        lines.append("Renting: no sourced rental price for this GPU in data/cloud_prices.csv")
    return "\n".join(lines)
