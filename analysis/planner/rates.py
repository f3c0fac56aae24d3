"""Step 2 of a plan: throughput, tokens per second per GPU, from exactly one of an MFU, a measured
tokens/s/GPU or an achieved TFLOP/s, or, with none, from the MFU estimate
(:mod:`analysis.planner.mfu`); past the largest published job, carried by the strong-scaling model
(:mod:`analysis.planner.strong`).

**Which FLOPs a given figure counts.** An MFU or an achieved TFLOP/s is a count of FLOPs per
second, and sources count differently: 6 N alone (Kaplan et al.'s C = 6 N, Patterson's GPT-3),
6 N plus attention (PaLM's MFU, the planner's own count) or hardware FLOPs with the recompute
pass (Megatron-LM's, Narayanan et al. eq. 3). ``--flops-counted`` says which; without it the
planner takes the middle one, 6 N plus attention, and its band spans all three
(:data:`CONVENTIONS`): a third of the draws each, so the band says how far the answer moves with
the convention the source did not state. Tokens per second count no FLOPs and carry no such spread.
"""

from __future__ import annotations

import numpy as np

from analysis import flops
from analysis.planner import memory
from analysis.planner import mfu as mfu_estimate
from analysis.planner.inputs import PlanError, PlanInputs
from analysis.planner.strong import evidence_gpus, strong_scaling

CONVENTIONS = ("model-6n", "model", "hardware-full")  # what an unstated count can be, fewest FLOPs first
ASSUMED_CONVENTION = "model"
CONVENTION_WORDS = {"model-6n": "6N model FLOPs only (no attention)",
                    "model": "6N plus attention model FLOPs (the planner's count)",
                    "hardware-selective": "hardware FLOPs with selective recomputation",
                    "hardware-full": "hardware FLOPs with full recomputation"}


def given_throughput(inputs: PlanInputs) -> str | None:
    """Which throughput flag the plan was given (``"mfu"``, ``"tokens_per_s_per_gpu"``,
    ``"achieved_tflops"``) or None; an error for more than one."""
    given = [name for name in ("mfu", "tokens_per_s_per_gpu", "achieved_tflops") if getattr(inputs, name) is not None]
    if len(given) > 1:
        raise PlanError(f"give at most one of --mfu, --tokens-per-s-per-gpu and --achieved-tflops (got {', '.join(given)})")
    return given[0] if given else None


def _counted_rate(inputs: PlanInputs, which: str, convention: str, peak: float) -> float:
    """Tokens/s/GPU of a given MFU or achieved TFLOP/s read as counting ``convention`` FLOPs."""
    per_token = flops.flops_per_token_counted(inputs.model, convention)
    tflops = inputs.mfu * peak if which == "mfu" else inputs.achieved_tflops
    return tflops * 1e12 / per_token


def conventions(inputs: PlanInputs, which: str | None, peak: float) -> dict | None:
    """For a given MFU or TFLOP/s: ``{"assumed", "stated", "ratios"}``, ``ratios`` (convention ->
    its rate over the assumed one's) spanning :data:`CONVENTIONS` when the convention is not
    stated, only the stated one otherwise. None for tokens/s or an estimate."""
    if which not in ("mfu", "achieved_tflops"):
        return None
    stated = inputs.flops_counted is not None
    assumed = inputs.flops_counted if stated else ASSUMED_CONVENTION
    base = _counted_rate(inputs, which, assumed, peak)
    spread = (assumed,) if stated else CONVENTIONS
    return {"assumed": assumed, "stated": stated,
            "ratios": {c: _counted_rate(inputs, which, c, peak) / base for c in spread}}


def estimate_at(inputs: PlanInputs, gpus, precision_peak: float, flops_per_token: float):
    """(tokens/s/GPU, the estimate) of the MFU estimate at ``gpus`` (a number or an array)."""
    recompute = mfu_estimate.recompute_factor(inputs.model) if inputs.full_recompute else 1.0
    pressure = memory.memory_pressure(inputs.model, gpus, inputs.gpu_id, inputs.full_recompute)
    active = float(inputs.model["active_params"])
    if np.ndim(gpus):
        mfu = mfu_estimate.estimate_mfu_curve(inputs.gpu_id, inputs.precision, active, gpus, inputs.exclude_run,
                                              recompute, pressure)
        return flops.tokens_per_s_from_mfu(mfu, flops_per_token, precision_peak), None
    est = mfu_estimate.estimate_mfu(inputs.gpu_id, inputs.precision, active, int(gpus), inputs.exclude_run, recompute,
                                    float(pressure))
    return flops.tokens_per_s_from_mfu(est.mfu, flops_per_token, precision_peak), est


def scales_strongly(inputs: PlanInputs, which: str | None) -> bool:
    """Whether the strong-scaling model applies: always to an estimate, to a given throughput only
    when the planner chooses the job's size (``inputs.strong_scaling``)."""
    return inputs.strong_scaling if inputs.strong_scaling is not None else which is None


def throughput(inputs: PlanInputs, flops_per_token: float, peak: float):
    """(tokens/s/GPU, how it was obtained, the MFU estimate or None, the FLOP conventions or None,
    the strong-scaling model or None)."""
    which = given_throughput(inputs)
    conv = conventions(inputs, which, peak)
    strong = None
    big = inputs.gpus > evidence_gpus() and scales_strongly(inputs, which)
    at = evidence_gpus() if big else inputs.gpus
    est = None
    if which == "mfu":
        rate = _counted_rate(inputs, which, conv["assumed"], peak)
        how = f"MFU {inputs.mfu:.1%} (given), read as counting {CONVENTION_WORDS[conv['assumed']]}"
    elif which == "tokens_per_s_per_gpu":
        rate, how = inputs.tokens_per_s_per_gpu, "tokens/s/GPU (given)"
    elif which == "achieved_tflops":
        rate = _counted_rate(inputs, which, conv["assumed"], peak)
        how = f"{inputs.achieved_tflops:g} TFLOP/s per GPU (given), read as counting {CONVENTION_WORDS[conv['assumed']]}"
    else:
        rate, est = estimate_at(inputs, at, peak, flops_per_token)
        how = (f"MFU {est.mfu:.1%} estimated: {est.method}; measured error on GPU-hours, {est.error_scope}: "
               f"median {est.median_abs_error:.0%} (signed median {est.signed_median_error:+.0%})")
    if conv is not None and not conv["stated"]:
        how += ("; which FLOPs the figure counts is not given (--flops-counted), so the band spans "
                + ", ".join(CONVENTION_WORDS[c] for c in CONVENTIONS))
    if big:
        strong = strong_scaling(inputs.model, inputs.gpu_id, rate, inputs.full_recompute)
        eff = strong.efficiency(inputs.gpus)
        rate *= eff
        how += f"; at {inputs.gpus:,} GPUs, {eff:.0%} of the rate at {strong.ref_gpus:,}: {strong.note}"
    return rate, how, est, conv, strong


def rate_curve(inputs: PlanInputs, gpus: np.ndarray, flops_per_token: float, peak: float) -> np.ndarray:
    """Tokens/s/GPU at each job size of ``gpus`` (an array), exactly as :func:`throughput` gives
    it for one: the inverse modes search over this."""
    gpus = np.asarray(gpus, dtype=float)
    which = given_throughput(inputs)
    strong_on = scales_strongly(inputs, which)
    ref = evidence_gpus()
    if which is None:
        rate, _ = estimate_at(inputs, np.minimum(gpus, ref) if strong_on else gpus, peak, flops_per_token)
    else:
        rate = np.full(gpus.shape, throughput_at_ref(inputs, which, peak))
    if strong_on and (gpus > ref).any():
        at_ref = rate[gpus > ref][0] if which is None else rate[0]
        model = strong_scaling(inputs.model, inputs.gpu_id, float(at_ref), inputs.full_recompute)
        rate = rate * model.efficiency(gpus)
    return rate


def throughput_at_ref(inputs: PlanInputs, which: str, peak: float) -> float:
    """A given throughput's tokens/s/GPU (the assumed convention for an MFU or TFLOP/s)."""
    if which == "tokens_per_s_per_gpu":
        return float(inputs.tokens_per_s_per_gpu)
    return _counted_rate(inputs, which, conventions(inputs, which, peak)["assumed"], peak)
