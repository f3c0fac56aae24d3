"""Step 4 of a plan: failures. The job's MTBF (:mod:`analysis.reliability`: per-GPU rates
calibrated on Llama 3 405B, or a fit to measured job failures), the recovery times (the book's
defaults unless given), Daly's checkpoint interval and the expected goodput.

The MFU estimate (:mod:`analysis.planner.mfu`) reads a published run's GPU-hours through the same
goodput, so a run's implied throughput and the plan's wall-clock time agree by construction.

Planned interruptions (firmware upgrades, configuration and dataset changes: 47 in Llama 3's 54
days) come at Llama 3's rate per hour of running, and each costs a restart. Over the wall clock
they take rate x restart / (1 + rate x restart) of the time (:func:`planned_per_wall_hour`), a
share below 1 however slow the restart: a 10,000-minute restart is unusual, not impossible. At the
book's 5-minute restart this is the reliability chapter's rate x restart to within 0.3 % of itself
(rate x restart is 0.3 %)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis import reliability
from analysis.data.load import derived
from analysis.params import defaults as d
from analysis.planner.inputs import PlanError
from analysis.units import SECONDS_PER_HOUR

FAILURE_MODELS = ("per-gpu", "measured-fit")


@derived  # once per data folder; a memo hit notes the first call's reads again (the ledger's provenance)
def _rates() -> dict:
    return reliability.llama3_rates()


def job_mtbf_hours(gpus, failure_model: str = "per-gpu") -> tuple[float, float, str]:
    """(job MTBF in hours, planned interruptions per hour, description) for ``failure_model``."""

    rates = _rates()  # the Llama 3 snapshot's rates, read once per data folder
    if failure_model == "per-gpu":
        gpu_mtbf = 1.0 / rates["job"]
        return (reliability.job_mtbf_hours(gpus, gpu_mtbf), rates["planned_per_hour"],
                f"per-GPU rates calibrated on Llama 3 405B (one failure per {gpu_mtbf:,.0f} GPU-hours), MTBF = that / GPUs")
    if failure_model == "measured-fit":
        return (reliability.measured_job_mtbf_hours(gpus), rates["planned_per_hour"],
                "a fit to measured job failure rates by job size")
    raise PlanError(f"--failure-model must be one of {', '.join(FAILURE_MODELS)}, not {failure_model!r}")


@dataclass(frozen=True)
class Recovery:
    """Checkpoint write, failure detection and restart, in hours."""

    write_h: float
    detect_h: float
    restart_h: float

    @classmethod
    def of(cls, checkpoint_write_seconds: float | None = None, restart_minutes: float | None = None) -> Recovery:
        write = d.CHECKPOINT_WRITE_SECONDS.default if checkpoint_write_seconds is None else checkpoint_write_seconds
        restart = d.RESTART_MINUTES.default if restart_minutes is None else restart_minutes
        return cls(write / SECONDS_PER_HOUR, d.FAILURE_DETECTION_MINUTES.default / 60.0, restart / 60.0)


def planned_per_wall_hour(rate_per_running_hour, restart_h):
    """Planned interruptions per wall-clock hour when they come at ``rate_per_running_hour`` and
    each takes ``restart_h`` hours: rate / (1 + rate x restart), so that their share of the wall
    clock, rate x restart / (1 + rate x restart), stays below 1."""
    rate = np.asarray(rate_per_running_hour, dtype=float)
    return rate / (1.0 + rate * np.asarray(restart_h, dtype=float))


def goodput(gpus, failure_model: str = "per-gpu", recovery: Recovery | None = None):
    """Expected useful share of wall-clock time of a job on ``gpus`` GPUs, checkpointing at Daly's
    optimum, at the book's recovery defaults unless ``recovery`` is given."""
    rec = recovery or Recovery.of()
    mtbf, planned, _ = job_mtbf_hours(gpus, failure_model)
    interval = reliability.daly_interval(rec.write_h, mtbf)
    return reliability.expected_time_fractions(mtbf, interval, rec.write_h, rec.detect_h, rec.restart_h,
                                               planned_per_wall_hour(planned, rec.restart_h))["useful training"]
