"""Dollars per trained token: a GPU-hour price and a per-GPU token rate give the cost of a token,
of a run, and of one GPU type against another.

SemiAnalysis prices every H100 benchmark at one cost basis, $1.42 per GPU-hour without rental
margin (fact A13, ``sa_gb200_2025``), so its cost per 1M tokens is that price over the tokens one
GPU trains in an hour: $1.42 / 3,600 / 728 tok/s x 1e6 = 54.2 cents (A22). The same arithmetic
run backwards turns a printed cost into the token rate (and MFU) it implies.

The GPU-hour price is an input here: chapters read it from the TCO chapter's results
(``h100_tco_usd_per_gpu_hour``, ``gb200_tco_usd_per_gpu_hour``; the model is
:func:`analysis.chapters.gpu_cost.system_costs`), so no chapter retypes it.
"""

from __future__ import annotations

from analysis.units import SECONDS_PER_HOUR

TOKENS_PER_MILLION = 1e6


def usd_per_million_tokens(usd_per_gpu_hour: float, tokens_per_s_per_gpu: float) -> float:
    """Cost in USD to train one million tokens: the GPU-hour price over the tokens one GPU
    trains in an hour. Linear in the price, inverse in the token rate (SA-A's method, A13/A22)."""
    return usd_per_gpu_hour / (tokens_per_s_per_gpu * SECONDS_PER_HOUR) * TOKENS_PER_MILLION


def tokens_per_s_per_gpu_from_usd_per_million(usd_per_gpu_hour: float, usd_per_million: float) -> float:
    """The per-GPU token rate a printed cost per 1M tokens implies at a GPU-hour price. Inverse of
    :func:`usd_per_million_tokens`."""
    return usd_per_gpu_hour / (usd_per_million * SECONDS_PER_HOUR) * TOKENS_PER_MILLION


def run_cost_usd(tokens: float, usd_per_gpu_hour: float, tokens_per_s_per_gpu: float) -> float:
    """Cost in USD of training on ``tokens`` tokens at a sustained per-GPU rate (one successful
    run: no failures, restarts, ablations or evaluation; SA-A makes the same caveat for A35)."""
    return tokens / TOKENS_PER_MILLION * usd_per_million_tokens(usd_per_gpu_hour, tokens_per_s_per_gpu)


def run_gpu_hours(tokens: float, tokens_per_s_per_gpu: float) -> float:
    """GPU-hours to train on ``tokens`` tokens at a per-GPU rate (independent of the GPU count)."""
    return tokens / tokens_per_s_per_gpu / SECONDS_PER_HOUR


def perf_per_tco_ratio(throughput_ratio: float, tco_ratio: float) -> float:
    """Performance per TCO dollar of GPU B relative to GPU A: B's per-GPU throughput over A's,
    divided by B's TCO per GPU over A's. Above 1, B trains a token for less; the break-even
    throughput ratio equals the TCO ratio (SA-A: GB200 must be at least ~1.6x faster, A12)."""
    return throughput_ratio / tco_ratio


def gpu_hours_cost_usd(gpu_hours: float, usd_per_gpu_hour: float) -> float:
    """Cost in USD of ``gpu_hours`` GPU-hours at ``usd_per_gpu_hour`` (a published run's GPU-hours
    priced at a rental or TCO rate)."""
    return gpu_hours * usd_per_gpu_hour
