"""The 100,000-H100 cluster: peak compute, power build-up, energy bill, failures and recovery.

Arithmetic of SemiAnalysis, "100,000 H100 Clusters: Power, Network Topology, Ethernet vs
InfiniBand, Reliability, Failures, Checkpointing" (2024-06-17; source id ``sa_100k_2024``),
written as small pure functions so every step can be rerun with other inputs. FLOP accounting
lives in :mod:`analysis.flops`; this module adds the cluster-level steps.
"""

from __future__ import annotations

import numpy as np

from analysis.units import (
    HOURS_PER_YEAR,
    SECONDS_PER_DAY,
    gbps_to_gbytes_per_s,
    w_to_mw,
    years_to_minutes,
)

# --- compute -----------------------------------------------------------------------------------

def cluster_peak_flops(gpus: float, peak_tflops: float) -> float:
    """Peak dense FLOP/s of ``gpus`` GPUs with ``peak_tflops`` each."""
    return gpus * peak_tflops * 1e12


def peak_ratio(gpus_a: float, peak_tflops_a: float, gpus_b: float, peak_tflops_b: float) -> float:
    """How many times cluster A's peak is cluster B's. SemiAnalysis's 31.5x compares 100k H100 at
    FP8 with 20k A100 at BF16, so the data types are part of the inputs, not an afterthought."""
    return cluster_peak_flops(gpus_a, peak_tflops_a) / cluster_peak_flops(gpus_b, peak_tflops_b)


# --- power and energy (B14, B04, B05) --------------------------------------------------------------

def it_power_per_gpu_w(gpu_w: float, server_w_per_gpu: float, network_storage_frac: float) -> float:
    """Critical IT watts per GPU: chip power, plus its share of the server (CPUs, NICs, fans, PSU
    losses), plus storage, switches, optics and management as a fraction of that (B14: 700 W +
    ~575 W, +~10 %)."""
    return (gpu_w + server_w_per_gpu) * (1.0 + network_storage_frac)


def critical_it_w(gpus: float, it_w_per_gpu: float) -> float:
    """Critical IT load of the cluster in watts."""
    return gpus * it_w_per_gpu


def facility_w(critical_it_w_: float, pue: float) -> float:
    """Power drawn at the utility meter: critical IT x PUE (cooling, power conversion, lighting)."""
    return critical_it_w_ * pue


def annual_energy_mwh(facility_w_: float, load_factor: float = 1.0) -> float:
    """Energy over a 365-day year in MWh at an average ``load_factor`` of the facility power."""
    return w_to_mw(facility_w_) * load_factor * HOURS_PER_YEAR


def annual_electricity_usd(annual_mwh: float, tariff_usd_per_kwh: float) -> float:
    """Yearly electricity bill in USD at a flat tariff."""
    return annual_mwh * 1_000.0 * tariff_usd_per_kwh


# --- capital -----------------------------------------------------------------------------------------

def cluster_capex_usd(gpus: float, capex_usd_per_gpu: float) -> float:
    """Up-front capital of the cluster in USD."""
    return gpus * capex_usd_per_gpu


# --- failures and recovery (B25-B28) ---------------------------------------------------------------

def first_failure_minutes(link_mttf_years: float, links: float) -> float:
    """Expected minutes until the first of ``links`` independent links fails, each with an
    exponential lifetime of mean ``link_mttf_years``: MTTF / n (B27: 5 years / 100,000 links =
    26.28 min)."""
    if np.any(np.asarray(links) <= 0):
        raise ValueError("links must be positive")
    return years_to_minutes(link_mttf_years) / links


def gpu_days_lost_checkpoint(gpus: float, checkpoint_interval_steps: int, step_time_seconds: float) -> float:
    """GPU-days of work lost per failure when restarting from the last persistent checkpoint,
    worst case: up to ``interval - 1`` steps redone by every GPU (B25: 99 x 2 s x 100k = 229)."""
    return gpus * (checkpoint_interval_steps - 1) * step_time_seconds / SECONDS_PER_DAY


def weights_copy_seconds(hbm_gb: float, backend_gbps: float) -> float:
    """Seconds to copy one GPU's HBM contents from a peer over the backend network
    (B26: 80 GB at 400 Gbit/s = 1.6 s)."""
    return hbm_gb / gbps_to_gbytes_per_s(backend_gbps)


def gpu_days_lost_in_memory(gpus: float, step_time_seconds: float, copy_seconds: float,
                            steps_lost: float = 1.0) -> float:
    """GPU-days lost per failure when state is rebuilt from in-memory copies on peers: at most
    one step redone, plus the whole cluster waiting for the copy (B26: 2.3 + 1.85 GPU-days)."""
    return gpus * (steps_lost * step_time_seconds + copy_seconds) / SECONDS_PER_DAY
