"""Energy at the utility meter per trained token, in US household-years, and its carbon.

The method is SemiAnalysis's ("H100 vs GB200 NVL72 Training Benchmarks", 2025-08-20, source id
``sa_gb200_2025``, facts A25-A31): the all-in power of one GPU's share of the cluster (GPU, host,
network, storage: the critical IT load) times the facility overhead (PUE) is what the meter sees at
the rating; times the measured load factor it is the average draw while training (the book's energy
basis), and divided by the tokens each GPU trains per second it is joules per token. A household-year is the
electricity an average US household uses in a year (EIA; SA uses 10,791 kWh for 2022, A26).

The power build-up steps themselves live in :mod:`analysis.cluster` and are reused here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.cluster import facility_w
from analysis.data import provenance
from analysis.data.load import matching_positions
from analysis.units import HOURS_PER_YEAR, JOULES_PER_KWH, SECONDS_PER_HOUR

# --- power per GPU -------------------------------------------------------------------------------

def meter_w_per_gpu(it_w_per_gpu: float, pue: float) -> float:
    """Watts drawn at the utility meter for one GPU's share of the cluster: its critical IT watts
    times the facility overhead (:func:`analysis.cluster.facility_w`)."""
    return facility_w(it_w_per_gpu, pue)


def average_meter_w_per_gpu(it_w_per_gpu: float, pue: float, load_factor: float) -> float:
    """Average watts at the meter for one GPU's share while it trains: the rated meter power
    (:func:`meter_w_per_gpu`) times ``load_factor``, the measured average draw as a share of the
    rating. The book's one energy basis; capacity stays at :func:`meter_w_per_gpu`."""
    return meter_w_per_gpu(it_w_per_gpu, pue) * load_factor


def it_w_with_chip_swapped(ref_it_w: float, ref_chip_w: float, chip_w: float) -> float:
    """IT watts per GPU of a new chip, keeping the rest of a reference build-up (host CPUs, NICs,
    switches, storage) unchanged: ``chip_w + (ref_it_w - ref_chip_w)``. An assumption, for a GPU
    with no all-in IT power of its own (the cluster chapter's ``-p gpu``, e.g. B200 in an HGX server)."""
    return chip_w + (ref_it_w - ref_chip_w)


def implied_pue(meter_w: float, it_w: float) -> float:
    """The facility overhead that turns ``it_w`` into ``meter_w`` (inverse of :func:`meter_w_per_gpu`)."""
    return meter_w / it_w


# --- joules per token -----------------------------------------------------------------------------

def joules_per_token(meter_w_per_gpu_: float, tokens_per_s_per_gpu: float) -> float:
    """Energy at the meter per trained token: watts per GPU / tokens per second per GPU (W = J/s)."""
    if np.any(np.asarray(tokens_per_s_per_gpu) <= 0):
        raise ValueError("tokens_per_s_per_gpu must be positive")
    return meter_w_per_gpu_ / tokens_per_s_per_gpu


def meter_w_from_joules_per_token(j_per_token: float, tokens_per_s_per_gpu: float) -> float:
    """The power per GPU that a published J/token implies at a given throughput (A31:
    2.46 J x 728 tokens/s = 1,791 W). Inverse of :func:`joules_per_token`."""
    return j_per_token * tokens_per_s_per_gpu


def training_energy_j(tokens: float, j_per_token: float) -> float:
    """Energy at the meter to train on ``tokens`` tokens."""
    return tokens * j_per_token


# --- households -------------------------------------------------------------------------------------

def household_j_per_year(kwh_per_household_year: float) -> float:
    """A household-year in joules (A26: 10,791 kWh = 38,847,600,000 J)."""
    return kwh_per_household_year * JOULES_PER_KWH


def household_w(kwh_per_household_year: float) -> float:
    """A household's average continuous draw in watts (A26: 10,791 kWh a year is about 1,232 W)."""
    return kwh_per_household_year * 1_000.0 / HOURS_PER_YEAR


def tokens_per_household_year(j_per_token: float, kwh_per_household_year: float) -> float:
    """Tokens that one household-year of electricity trains (A29: 15.8 billion GPT-3 tokens in FP8)."""
    return household_j_per_year(kwh_per_household_year) / j_per_token


def household_years(tokens: float, j_per_token: float, kwh_per_household_year: float) -> float:
    """Training energy for ``tokens`` tokens in years of an average household's electricity use."""
    return training_energy_j(tokens, j_per_token) / household_j_per_year(kwh_per_household_year)


def joules_per_token_from_household_years(household_years_: float, tokens: float,
                                          kwh_per_household_year: float) -> float:
    """The J/token a published household-year figure implies (A43: 440 household-years for 15T
    tokens is 1.14 J). Inverse of :func:`household_years`."""
    return household_years_ * household_j_per_year(kwh_per_household_year) / tokens


def annual_kwh(kwh: float, per: str) -> float:
    """A household figure as published (per ``"year"`` or per average ``"month"``) as kWh per year."""
    months = {"year": 12, "month": 1}
    if per not in months:
        raise ValueError(f"per must be 'year' or 'month', not {per!r}")
    return kwh * 12 / months[per]


def with_kwh_per_year(table: pd.DataFrame) -> pd.DataFrame:
    """Rows of ``data/household_energy.csv`` with a ``kwh_per_year`` column (monthly figures x 12)."""
    out = table.copy()
    out["kwh_per_year"] = [annual_kwh(k, p) for k, p in zip(out["kwh"], out["per"], strict=True)]
    return out


def household_kwh_range(table: pd.DataFrame, kind: str) -> tuple[float, float]:
    """Lowest and highest kWh per household-year among rows of ``data/household_energy.csv`` of
    one ``kind`` (``us_average`` or ``state``)."""
    rows = with_kwh_per_year(table[table["kind"] == kind])
    if rows.empty:
        raise ValueError(f"no household rows of kind {kind!r}")
    return float(rows["kwh_per_year"].min()), float(rows["kwh_per_year"].max())


# --- GPU-hours and carbon -----------------------------------------------------------------------------

def gpu_hours_for_tokens(tokens: float, tokens_per_s_per_gpu: float) -> float:
    """GPU-hours to train on ``tokens`` tokens at a steady per-GPU rate (no downtime, no restarts)."""
    return tokens / tokens_per_s_per_gpu / SECONDS_PER_HOUR


def energy_kwh_from_gpu_hours(gpu_hours: float, w_per_gpu: float) -> float:
    """kWh of ``gpu_hours`` at ``w_per_gpu`` each (the Llama 3.1 model card's method at 700 W)."""
    return gpu_hours * w_per_gpu / 1_000.0


def tonnes_co2(energy_kwh: float, g_co2_per_kwh: float) -> float:
    """Tonnes of CO2 for ``energy_kwh`` drawn from a grid of ``g_co2_per_kwh`` (location-based)."""
    return energy_kwh * g_co2_per_kwh / 1e6


def implied_g_co2_per_kwh(tonnes: float, energy_kwh: float) -> float:
    """The grid intensity that published tonnes and energy imply (inverse of :func:`tonnes_co2`)."""
    return tonnes * 1e6 / energy_kwh


# --- benchmark rows -------------------------------------------------------------------------------------

def add_joules_per_token(bench: pd.DataFrame, meter_w_by_gpu: dict[str, float]) -> pd.DataFrame:
    """Benchmark rows (from :func:`analysis.benchmarks.load_benchmarks`) with ``meter_w_per_gpu``
    and ``joules_per_token``; ``meter_w_by_gpu`` gives the meter watts per GPU type."""
    missing = set(bench["gpu_id"]) - set(meter_w_by_gpu)
    if missing:
        raise ValueError(f"no meter power given for {', '.join(sorted(missing))}")
    out = bench.copy()
    out["meter_w_per_gpu"] = out["gpu_id"].map(meter_w_by_gpu).astype(float)
    out["joules_per_token"] = joules_per_token(out["meter_w_per_gpu"], out["tokens_per_s_per_gpu"])
    return out


def benchmark_row(bench: pd.DataFrame, model_id: str, gpu_id: str, precision: str, gpus: int,
                  publisher: str, date: str | None = None) -> pd.Series:
    """The one benchmark row matching all the given fields; an error if none or several match."""
    where = {"model_id": model_id, "gpu_id": gpu_id, "precision": precision, "gpus": gpus, "publisher": publisher}
    positions = matching_positions(bench, where if date is None else {**where, "date": date})
    if len(positions) != 1:
        raise ValueError(f"{len(positions)} benchmark rows match {model_id} {gpu_id} {precision} {gpus} "
                         f"{publisher} {date or ''}; expected one")
    found = bench.iloc[positions[0]]
    provenance.note_rows("benchmarks", found)
    return found
