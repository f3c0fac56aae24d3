"""Failures, checkpoint intervals, expected lost time and the reliability-adjusted cost of a GPU-hour.

Failure rates are counted per GPU-hour and calibrated on the one frontier run with a published
cause table: Llama 3 405B, 16,384 H100 over a 54-day snapshot with 419 unexpected interruptions
(``meta_llama3_2024``, Table 5, in ``data/llama3_interruptions.csv``). A synchronous job stops at
the first failure of any of its GPUs, so its failure rate is the GPU count times the per-GPU rate
and its mean time between failures (MTBF) falls as 1/GPUs. That is a projection; the job-level
failure rates that were measured (``data/job_failures.csv``) and a power-law fit to them
(:func:`measured_job_mtbf_hours`) are the alternative.

Checkpoint intervals follow Young (1974, ``young_1974``) and Daly (2006, ``daly_2006``). The
expected time split is the exact long-run average (renewal-reward theorem) of the process that
:func:`analysis.goodput.simulate_goodput` samples: compute for ``interval``, write a checkpoint
for ``write``, repeat; a failure (Poisson, while the job runs) throws away everything since the
last completed checkpoint and costs ``detection + restart`` of downtime.

All times of one call share a unit (hours unless a name says otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.data.load import load_table, row
from analysis.tco import breakeven_speedup
from analysis.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

# Llama 3 causes whose fix takes hardware out of service (a server, or an NVL72 rack) until it is
# repaired. Software bugs, dependencies, NCCL timeouts and network switch/cable faults stop the
# job but not the server: the job restarts on the same machines, or the switch is serviced apart.
REPAIR_CATEGORIES = ("GPU", "Host", "Unplanned maintenance")


# Bytes a training checkpoint holds per parameter with mixed-precision Adam: the 16-bit weights (2)
# and the optimizer's 32-bit weights, momentum and variance (12); the gradients (2 more) are not
# saved. ZeRO's accounting (Rajbhandari et al. 2020, Sec. 3.1: "2Ψ + 2Ψ + KΨ" with K = 12).
ADAM_MIXED_PRECISION_CHECKPOINT_BYTES_PER_PARAM = 2 + 12


def training_state_tb(params: float, bytes_per_param: float = ADAM_MIXED_PRECISION_CHECKPOINT_BYTES_PER_PARAM) -> float:
    """Weights and optimizer state of a model in training, in TB (decimal)."""
    return params * bytes_per_param / 1e12


def item(item_id: str) -> float:
    """The value of a row of ``data/reliability_facts.csv``."""
    return float(row("reliability_facts", item_id)["value"])


# --- failure rates ---------------------------------------------------------------------------------

def rate_per_gpu_hour(events, gpus: float, hours: float):
    """Events per GPU-hour when ``gpus`` GPUs saw ``events`` in ``hours`` of wall-clock time.
    Works element-wise on arrays and pandas Series (one rate per cause)."""
    return events / (gpus * hours)


def gpu_mtbf_hours(events: float, gpus: float, hours: float) -> float:
    """Mean GPU-hours between events, per GPU: 419 events over 16,384 GPUs x 1,296 h = 50,677 h."""
    return gpus * hours / events


def job_failure_rate_per_hour(gpus, rates_per_gpu_hour) -> float:
    """Failures per hour of a synchronous job on ``gpus`` GPUs: every GPU's causes add up
    (independent exponential lifetimes), so the job rate is gpus x the sum of per-GPU rates."""
    return np.asarray(gpus, dtype=float) * float(np.sum(rates_per_gpu_hour))


def job_mtbf_hours(gpus, gpu_mtbf_hours: float):
    """Mean time between failures of a job on ``gpus`` GPUs, each with ``gpu_mtbf_hours``."""
    gpus = np.asarray(gpus, dtype=float)
    if np.any(gpus <= 0) or np.any(np.asarray(gpu_mtbf_hours) <= 0):
        raise ValueError("gpus and gpu_mtbf_hours must be positive")
    result = gpu_mtbf_hours / gpus
    return float(result) if result.ndim == 0 else result


def gpu_mtbf_from_node_rate_hours(failures_per_1000_node_days: float, gpus_per_node: int) -> float:
    """Per-GPU MTBF implied by a node failure rate quoted per 1,000 node-days (Kokolis et al.):
    a node's MTBF is 1,000 / rate days, and each of its GPUs carries 1 / gpus_per_node of it."""
    return 1_000.0 / failures_per_1000_node_days * HOURS_PER_DAY * gpus_per_node


def per_link_mttf_years(events: float, links: float, hours: float) -> float:
    """Mean time to failure of one link, in years, if ``links`` links saw ``events`` in ``hours``."""
    return links * hours / events / HOURS_PER_YEAR


def per_gpu_rate_from_rack_month(faults_per_rack_month: float, gpus_per_rack: int) -> float:
    """Faults per GPU-hour from faults per rack-month (730 h), spread over the rack's GPUs."""
    return faults_per_rack_month / (HOURS_PER_MONTH * gpus_per_rack)


# --- measured job-level failure rates ------------------------------------------------------------------
# ``job_mtbf_hours`` above scales one per-GPU rate as 1/GPUs. ``data/job_failures.csv`` holds what
# was measured at the job level instead (Kokolis et al.'s MTTF by job size, Llama 3's interruption
# count, OPT-175B's restarts); the fit below is the alternative a chapter or a planner may choose.

MTTF_UNIT_HOURS = {"minutes": 1.0 / 60.0, "hours": 1.0, "days": float(HOURS_PER_DAY)}


def with_mttf_hours(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (rows of ``data/job_failures.csv``) with a ``mttf_hours`` column: the stated MTTF
    converted to hours, or ``window_days`` x 24 / ``failures`` where the row gives counts."""
    out = table.copy()
    stated = out["mttf_value"].astype(float) * out["mttf_unit"].map(MTTF_UNIT_HOURS).astype(float)
    counted = out["window_days"].astype(float) * HOURS_PER_DAY / out["failures"].astype(float)
    out["mttf_hours"] = stated.fillna(counted)
    return out


def job_failure_table() -> pd.DataFrame:
    """``data/job_failures.csv`` with each row's MTTF in hours (:func:`with_mttf_hours`)."""
    return with_mttf_hours(load_table("job_failures"))


@dataclass(frozen=True)
class JobMttfFit:
    """A power law in job size, MTTF = ``scale_hours`` x gpus ** -``exponent`` (hours): exponent
    1 is the per-GPU model's 1/GPUs; ``scale_hours`` is the MTTF it implies for one GPU."""

    scale_hours: float
    exponent: float
    points: int  # the measured rows it was fitted to

    def __call__(self, gpus):
        gpus = np.asarray(gpus, dtype=float)
        if np.any(gpus <= 0):
            raise ValueError("job_gpus must be positive")
        result = self.scale_hours * gpus ** -self.exponent
        return float(result) if result.ndim == 0 else result


def fit_rows(table: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows a fit uses: those of ``table`` marked ``in_fit`` (all of them if it has no such
    column), with ``mttf_hours``. ``table`` defaults to ``data/job_failures.csv``; it may also be
    any frame with ``job_gpus`` and ``mttf_hours`` columns."""
    rows = job_failure_table() if table is None else table
    if "mttf_hours" not in rows.columns:
        rows = with_mttf_hours(rows)
    if "in_fit" in rows.columns:
        rows = rows[rows["in_fit"].astype(str).str.lower() == "true"]
    return rows


def fit_job_mttf(table: pd.DataFrame | None = None) -> JobMttfFit:
    """Least-squares fit of ln MTTF = ln a - b ln GPUs to the measured rows (:func:`fit_rows`):
    a straight line on log-log axes, each measured job size weighted equally. Needs at least two
    distinct job sizes."""
    rows = fit_rows(table)
    gpus = rows["job_gpus"].to_numpy(dtype=float)
    mttf = rows["mttf_hours"].to_numpy(dtype=float)
    if len(np.unique(gpus)) < 2 or np.any(gpus <= 0) or np.any(mttf <= 0):
        raise ValueError("a job MTTF fit needs positive MTTFs at two or more job sizes")
    slope, intercept = np.polyfit(np.log(gpus), np.log(mttf), 1)
    return JobMttfFit(scale_hours=float(np.exp(intercept)), exponent=float(-slope), points=len(rows))


def measured_job_mtbf_hours(job_gpus, table: pd.DataFrame | None = None):
    """Mean time between failures (hours) of a synchronous job on ``job_gpus`` GPUs, from a fit
    to measured job-level failure rates rather than from one per-GPU rate.

    The fit is a power law, MTTF = a x GPUs^-b, fitted by least squares in log-log space
    (:func:`fit_job_mttf`) to the rows of ``data/job_failures.csv`` marked ``in_fit``: Kokolis et
    al.'s measured MTTF of 8-GPU and 1,024-GPU jobs on Meta's A100 research clusters and Llama 3
    405B's 419 unexpected interruptions in 54 days on 16,384 H100. Projections and upper bounds
    are in the table but not fitted. ``table`` replaces those rows (e.g. a subset, or a team's own
    measurements: ``job_gpus`` and ``mttf_hours`` columns). Works element-wise on arrays; a float
    for a scalar. The rows mix two clusters, two GPU generations and two definitions of a failure,
    so the fit is a summary of the published record, not a law: the reliability chapter shows
    how far each measured point lies from it."""
    return fit_job_mttf(table)(job_gpus)


# --- optimal checkpoint interval -------------------------------------------------------------------

def young_interval(checkpoint_time, mtbf):
    """Young's (1974) first-order optimum compute time between checkpoints: sqrt(2 delta M).
    ``checkpoint_time`` (delta) and ``mtbf`` (M) in one unit; the result is in that unit."""
    return np.sqrt(2.0 * np.asarray(checkpoint_time, dtype=float) * np.asarray(mtbf, dtype=float))


def daly_interval(checkpoint_time, mtbf):
    """Daly's (2006) higher-order optimum, in the unit of the inputs:
    sqrt(2 delta M) [1 + sqrt(delta / 2M) / 3 + (delta / 2M) / 9] - delta when delta < 2M, and
    M otherwise (a checkpoint that takes twice the MTBF or more: checkpoint once per MTBF).
    It reproduces Daly's worked examples (delta 5 min; M 24 h, 6 h, 15 min -> 117, 57, 9.1 min)."""
    delta = np.asarray(checkpoint_time, dtype=float)
    m = np.asarray(mtbf, dtype=float)
    x = delta / (2.0 * m)
    tau = np.sqrt(2.0 * delta * m) * (1.0 + np.sqrt(x) / 3.0 + x / 9.0) - delta
    result = np.where(delta < 2.0 * m, tau, m)
    return float(result) if result.ndim == 0 else result


def checkpoint_transfer_seconds(gb_per_gpu: float, gpus: float, storage_tb_per_s: float) -> float:
    """Seconds to move every GPU's checkpoint shard through storage at ``storage_tb_per_s``
    (decimal units): the time a synchronous save (or a restore) takes when storage is the limit."""
    return gb_per_gpu * gpus / (storage_tb_per_s * 1_000.0)


# --- expected time split -----------------------------------------------------------------------------

def completed_segments_per_failure(mtbf, interval, write):
    """Mean number of checkpointed segments (interval + write) finished between two failures:
    with exponential up-times of mean M, P(at least k) = exp(-k s / M), so the mean is
    1 / (exp(s / M) - 1) for a segment of length s. A segment hundreds of times the MTBF
    overflows exp to infinity, and 1 / inf = 0 segments is the right limit, so no warning."""
    with np.errstate(over="ignore"):
        return 1.0 / np.expm1((np.asarray(interval, dtype=float) + write) / np.asarray(mtbf, dtype=float))


def expected_time_fractions(mtbf, interval, write, detection, restart, planned_per_hour: float = 0.0) -> dict:
    """Long-run share of wall-clock time in each state, exact for the model in the module
    docstring: useful training, checkpoint writes, recomputed work (compute, and any checkpoint
    write in progress, lost at a failure), failure detection and restart. Planned interruptions
    (rate ``planned_per_hour``, taken at a checkpoint so they lose no work) each cost ``restart``;
    their share scales the rest down. The shares sum to 1. Times in hours (any one unit works if
    ``planned_per_hour`` is per that unit)."""
    m = np.asarray(mtbf, dtype=float)
    n = completed_segments_per_failure(m, interval, write)
    cycle = m + detection + restart  # one failure cycle: up-time, then detection and restart
    planned = np.clip(planned_per_hour * restart, 0.0, 1.0)
    keep = 1.0 - planned
    segment = np.asarray(interval, dtype=float) + write
    return {
        "useful training": keep * interval * n / cycle,
        "checkpoint writes": keep * write * n / cycle,
        "recomputed work": keep * (m - segment * n) / cycle,
        "failure detection": keep * detection / cycle,
        "restart": keep * restart / cycle,
        "planned restarts": planned + 0.0 * m,  # + 0 * m: the same shape as the other shares
    }


def expected_goodput(mtbf, interval, write, detection, restart, planned_per_hour: float = 0.0):
    """Expected effective-training-time ratio: the "useful training" share above."""
    return expected_time_fractions(mtbf, interval, write, detection, restart, planned_per_hour)["useful training"]


def first_order_lost_fraction(mtbf, interval, write, detection, restart):
    """Young's first-order approximation of the lost share: write / (interval + write) +
    (interval + write) / 2M + (detection + restart) / M. Good when every term is small."""
    segment = interval + write
    return write / segment + segment / (2.0 * mtbf) + (detection + restart) / mtbf


def max_recovery_time(target_goodput: float, mtbf, interval, write, planned_share: float = 0.0):
    """Largest detection + restart time per failure that still gives ``target_goodput``, in the
    unit of the inputs (negative: the target is out of reach even with instant recovery)."""
    n = completed_segments_per_failure(mtbf, interval, write)
    return (1.0 - planned_share) * interval * n / target_goodput - mtbf


# --- hardware out of service and the reliability-adjusted cost --------------------------------------

def domain_unavailability(fault_rate_per_gpu_hour, blast_radius_gpus: float, repair_hours):
    """Steady-state share of GPUs out of service: a fault takes its whole domain (an 8-GPU server,
    a 72-GPU NVLink rack) out for ``repair_hours``. A domain fails at b x lambda per hour, so it
    is down x / (1 + x) of the time, with x = b lambda T."""
    x = np.asarray(fault_rate_per_gpu_hour, dtype=float) * blast_radius_gpus * np.asarray(repair_hours, dtype=float)
    result = x / (1.0 + x)
    return float(result) if result.ndim == 0 else result


def useful_share(job_gpus, job_fault_rate_per_gpu_hour: float, repair_fault_rate_per_gpu_hour: float,
                 blast_radius_gpus: float, repair_hours: float, write: float, detection: float, restart: float,
                 planned_per_hour: float = 0.0) -> tuple:
    """(goodput, share of GPUs out of service, useful share) of a ``job_gpus`` job on one system:
    the job checkpoints at Daly's optimum for its MTBF, and faults that need a repair take
    ``blast_radius_gpus`` out for ``repair_hours``. Times in hours."""
    mtbf = job_mtbf_hours(job_gpus, 1.0 / job_fault_rate_per_gpu_hour)
    good = expected_goodput(mtbf, daly_interval(write, mtbf), write, detection, restart, planned_per_hour)
    down = domain_unavailability(repair_fault_rate_per_gpu_hour, blast_radius_gpus, repair_hours)
    return good, down, useful_fraction(good, down)


def useful_fraction(goodput, unavailability):
    """Share of paid GPU-hours that train: the job's goodput on the GPUs that are in service
    (spares cover the domains under repair, and are paid for)."""
    return np.asarray(goodput) * (1.0 - np.asarray(unavailability))


def usd_per_useful_gpu_hour(tco_usd_per_gpu_hour, useful):
    """Cost of one GPU-hour of useful training: TCO per GPU-hour / useful share."""
    return tco_usd_per_gpu_hour / useful


def reliability_adjusted_breakeven(tco_new: float, useful_new, tco_old: float, useful_old):
    """Per-GPU speed-up the new system needs to match the old one's useful work per TCO dollar
    (the TCO chapter's break-even, with each TCO divided by its useful share)."""
    return breakeven_speedup(usd_per_useful_gpu_hour(tco_new, useful_new),
                             usd_per_useful_gpu_hour(tco_old, useful_old))


def max_extra_loss(speedup: float, tco_ratio: float) -> float:
    """The extra share of its GPU-hours the new system may lose (relative to the old one's useful
    share) before a measured ``speedup`` no longer pays for a TCO ratio: 1 - ratio / speed-up."""
    return 1.0 - tco_ratio / speedup


# --- Llama 3's calibration and the GB200 comparison (the chapters and the uncertainty analysis) ------

@dataclass(frozen=True)
class Llama3Snapshot:
    """Llama 3 405B's published 54-day snapshot: the one calibration every failure rate in the
    book comes from. ``causes`` is ``data/llama3_interruptions.csv`` (one row per cause)."""

    gpus: float
    days: float
    unexpected: float
    planned: float
    total: float
    causes: pd.DataFrame

    @property
    def hours(self) -> float:
        return self.days * HOURS_PER_DAY

    @property
    def counts_by_category(self) -> pd.Series:
        """Unexpected interruptions per cause category, largest first."""
        counts = self.causes.groupby("category")["count"].sum().astype(float)
        return counts.sort_values(ascending=False)

    @property
    def rates_by_category(self) -> pd.Series:
        """Interruptions per GPU-hour, per category."""
        return rate_per_gpu_hour(self.counts_by_category, self.gpus, self.hours)

    @property
    def gpu_mtbf_hours(self) -> float:
        """Per-GPU MTBF from every unexpected interruption (50,677 h)."""
        return gpu_mtbf_hours(self.unexpected, self.gpus, self.hours)

    @property
    def planned_per_hour(self) -> float:
        """Planned interruptions per wall-clock hour of the job."""
        return self.planned / self.hours


def llama3_snapshot() -> Llama3Snapshot:
    """Load Llama 3 405B's counts (``data/reliability_facts.csv``) and cause table
    (``data/llama3_interruptions.csv``, ``meta_llama3_2024`` Table 5)."""
    return Llama3Snapshot(gpus=item("llama3_gpus"), days=item("llama3_snapshot_days"),
                          unexpected=item("llama3_interruptions_unexpected"),
                          planned=item("llama3_interruptions_planned"), total=item("llama3_interruptions_total"),
                          causes=load_table("llama3_interruptions"))


def llama3_rates(snapshot: Llama3Snapshot | None = None) -> dict:
    """Per-GPU-hour rates calibrated on Llama 3 405B's snapshot: every unexpected job-stopping
    fault (``job``), those that need a repair (``repair``: GPU, host, unplanned maintenance) and
    planned restarts per wall-clock hour (``planned_per_hour``)."""
    snap = snapshot or llama3_snapshot()
    rates = snap.rates_by_category
    return {"job": float(rates.sum()), "repair": float(rates[list(REPAIR_CATEGORIES)].sum()),
            "planned_per_hour": snap.planned_per_hour}


def gb200_rates(nvlink_faults_per_rack_month, gpus_per_rack, gpu_fault_ratio, rates: dict) -> dict:
    """GB200 NVL72's per-GPU-hour rates from Llama 3's (``rates``, :func:`llama3_rates`): GPU and
    host faults scaled by ``gpu_fault_ratio`` plus the NVLink backplane faults (per rack-month,
    spread over the rack's ``gpus_per_rack`` GPUs), which both stop the job and need a repair.
    Values may be arrays."""
    nvlink = per_gpu_rate_from_rack_month(nvlink_faults_per_rack_month, gpus_per_rack)
    return {"job": rates["job"] * gpu_fault_ratio + nvlink, "repair": rates["repair"] * gpu_fault_ratio + nvlink,
            "planned_per_hour": rates["planned_per_hour"]}
