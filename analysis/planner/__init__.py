"""Plan a training run: days, GPU-hours, dollars, megawatt-hours and carbon for any model, token
count and cluster, with P10/P50/P90 bands. ``python -m analysis plan`` (:mod:`analysis.planner.cli`)
and the "Plan a run" chapter both call :func:`plan`.

An orchestration package, like :mod:`analysis.chapters.compare`: it reads the book's parameter defaults
(:mod:`analysis.params.defaults`) and chains the tested domain functions, step by step:

1. FLOPs per token (:mod:`analysis.flops`: 6 N over the active parameters + attention, with the
   attention widths and the MoE router where a model gives them) and the run's total model FLOPs;
2. throughput, from exactly one of an MFU, a measured tokens/s/GPU, an achieved TFLOP/s with the
   FLOPs it counts, or, with none, an MFU estimated from the benchmark rows and the published
   production runs (:mod:`analysis.planner.mfu`), whose error is measured leave-one-run-out;
3. time without failures;
4. failures (:mod:`analysis.planner.failures`): the job's MTBF, Daly's checkpoint interval, the
   expected goodput, hence the wall-clock days and the interruptions;
5. cost: GPU-hours paid (GPUs x wall-clock hours) x a GPU-hour price (given, or the book's TCO
   where modelled, from the TCO chapter's cost model; the sourced rental prices beside it);
6. energy on two named bases (:mod:`analysis.planner.power`: GPU TDP x GPU-hours, and all-in IT
   power x PUE at the meter), in household-years and tonnes of CO2 on a named grid;
7. uncertainty: a seeded Monte Carlo over the inputs the user did not fix, with the ranges of
   ``data/distributions.csv``, and for an estimated MFU its measured leave-one-run-out errors.

:mod:`analysis.planner.budget` turns a power budget into the largest job that fits;
:mod:`analysis.planner.inverse` plans backwards, from a deadline or a budget to the job's size
(:mod:`analysis.planner.inverse_table` over every accelerator); :mod:`analysis.planner.report`
and :mod:`analysis.planner.report_inverse` write the plans for people (with the book's number
formats, so the command line imports them, not this package: a chapter that plans imports no page
helper).
"""

from __future__ import annotations

from analysis import flops
from analysis.planner.core import TCO_SYSTEMS, cloud_prices, peak_tflops, plan, tco_usd_per_gpu_hour, throughput
from analysis.planner.failures import job_mtbf_hours
from analysis.planner.inputs import (
    KEYS,
    PRECISIONS,
    SCHEMA_VERSION,
    Plan,
    PlanError,
    PlanInputs,
    model_from_registry,
    model_from_run,
    model_from_shape,
)
from analysis.planner.mfu import MfuEstimate, estimate_mfu

__all__ = ["KEYS", "PRECISIONS", "SCHEMA_VERSION", "TCO_SYSTEMS", "MfuEstimate", "Plan", "PlanError", "PlanInputs", "cloud_prices",
           "estimate_mfu", "flops", "job_mtbf_hours", "model_from_registry", "model_from_run",
           "model_from_shape", "peak_tflops", "plan", "tco_usd_per_gpu_hour", "throughput"]
