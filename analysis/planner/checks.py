"""What a plan refuses and what it only remarks on.

Refused (a :class:`~analysis.planner.inputs.PlanError`, exit code 2 from the command line): what
is physically impossible for the model the planner is. A job whose GPUs together cannot hold one
training step (the training state at 16 bytes per parameter and one sequence's activations with
full recomputation, :func:`analysis.planner.memory.fits_one_step`) has no layout at all; and a
FLOP count that overflows a float is no number (the command line also refuses any result that is
not finite, naming the flag at fault).

Remarked on (a note, and the plan goes ahead): what is possible but unusual. An MFU below 1 % or
above 75 %, a run longer than ten years, a restart longer than the job's mean time between
failures, a goodput below one half.
"""

from __future__ import annotations

import math

from analysis.planner import memory
from analysis.planner.inputs import PlanError, PlanInputs

UNUSUAL_MFU = (0.01, 0.75)  # outside: no published run or benchmark row comes near (data/benchmarks.csv: 10 % to 62 %)
LONG_RUN_DAYS = 3_650.0  # ten years: longer than any accelerator stays in service (the TCO chapter's lives: 3 to 7)


def refuse_impossible(inputs: PlanInputs, flops_per_token: float) -> None:
    """Raise a PlanError naming the flags for a plan that cannot exist (see the module docstring)."""
    total = flops_per_token * inputs.tokens
    if not (math.isfinite(flops_per_token) and math.isfinite(total)):
        raise PlanError(f"--tokens {inputs.tokens:g}: the run's FLOPs ({flops_per_token:g} per token) overflow a "
                        "number; give fewer tokens or a smaller model")
    fits, need, have = memory.fits_one_step(inputs.model, inputs.gpus, inputs.gpu_id, inputs.full_recompute)
    if not fits:
        per_gpu = memory.hbm_bytes(inputs.gpu_id)
        least = math.ceil(need / per_gpu)
        raise PlanError(
            f"--gpus {inputs.gpus:,}: one training step does not fit. The model's training state (16 bytes per "
            f"parameter) and one sequence's activations need {_bytes(need)}; {inputs.gpus:,} GPU{'s hold' if inputs.gpus != 1 else ' holds'} {_bytes(have)} "
            + (f"(give --gpus {least:,} or more, or a smaller model or --seq-len)" if least <= 10_000_000
               else "(more than 10 million GPUs would be needed: give a smaller model or --seq-len)"))


def _bytes(b: float) -> str:
    for unit, size in (("EB", 1e18), ("PB", 1e15), ("TB", 1e12), ("GB", 1e9)):
        if b >= size:
            return f"{b / size:,.3g} {unit}"
    return f"{b / 1e9:.2g} GB"


def unusual(inputs: PlanInputs, steps: dict, point: dict, mtbf_hours: float) -> list[str]:
    """Notes on what is possible but unusual in a plan that goes ahead."""
    notes = []
    lo, hi = UNUSUAL_MFU
    if not lo <= steps["mfu"] <= hi:
        notes.append(f"Unusual: an MFU of {steps['mfu']:.2%} is outside {lo:.0%} to {hi:.0%}, where published runs "
                     "and benchmarks lie; the plan takes it as given.")
    days = float(point["days_with_failures"])
    if not math.isfinite(days):  # no number to remark on: the command line refuses the plan
        return notes
    if days > LONG_RUN_DAYS:
        notes.append(f"Unusual: {days:,.0f} days is longer than any accelerator stays in service "
                     "(ten years); the hardware would be replaced several times over.")
    restart_h = steps["restart_minutes"] / 60.0
    if restart_h > mtbf_hours:
        notes.append(f"Unusual: a restart of {steps['restart_minutes']:,.0f} minutes is longer than the job's mean time "
                     f"between failures ({mtbf_hours:,.1f} h).")
    if float(point["goodput"]) < 0.5:
        notes.append(f"Unusual: a goodput of {float(point['goodput']):.1%}: most of the wall clock goes to restarts, "
                     "checkpoints and lost work, not training.")
    return notes
