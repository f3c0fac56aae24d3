"""Software gains on unchanged hardware: MFU across NVIDIA software releases, what a gain does to
throughput and cost, and what a printed cost implies about MFU.

On the same GPUs, model and layout, tokens/s/GPU is proportional to MFU (the FLOPs per token and
the peak do not change), so a rise in MFU from 34 % to 54 % is a 1.59x throughput gain (SA-A,
A18-A21) and cuts the cost of every token by the same factor.
"""

from __future__ import annotations

import pandas as pd

from analysis.costs import tokens_per_s_per_gpu_from_usd_per_million
from analysis.flops import mfu_from_tokens_per_s


def throughput_gain(before: float, after: float) -> float:
    """Fractional throughput gain (0.57 = +57 %) between two MFUs, or two per-GPU token rates, of
    the same model and precision on the same GPU type."""
    return after / before - 1.0


def cost_before_gain_usd(cost_after_usd: float, gain: float) -> float:
    """What a run that costs ``cost_after_usd`` with the newer software would have cost before a
    throughput gain of ``gain``: the same GPU-hours stretched by (1 + gain)."""
    return cost_after_usd * (1.0 + gain)


def implied_mfu_from_cost(usd_per_gpu_hour: float, usd_per_million_tokens: float, flops_per_token: float,
                          peak_tflops: float) -> float:
    """The MFU a printed cost per 1M tokens implies at a GPU-hour price. A result above 1 means
    the cost is impossible on that GPU: it would need more model FLOP/s than the peak."""
    rate = tokens_per_s_per_gpu_from_usd_per_million(usd_per_gpu_hour, usd_per_million_tokens)
    return mfu_from_tokens_per_s(rate, flops_per_token, peak_tflops)


def release_series(bench: pd.DataFrame, model_id: str, precision: str, gpu_id: str = "h100_sxm") -> pd.DataFrame:
    """MFU of one model and precision across software releases: for every release (software
    string and publisher), the row at its smallest GPU count, sorted by release date. Sizes can
    differ between releases (Llama 3.1 405B: 576 in v24.11.1 and v25.02, 512 in v25.04)."""
    rows = bench[(bench["model_id"] == model_id) & (bench["precision"] == precision) & (bench["gpu_id"] == gpu_id)]
    smallest = rows.loc[rows.groupby(["software", "publisher"])["gpus"].idxmin()]
    return smallest.sort_values(["date", "publisher"])


def first_last_gain(series: pd.DataFrame) -> dict:
    """Earliest and latest row of a :func:`release_series` and the per-GPU throughput gain
    between them."""
    first, last = series.iloc[0], series.iloc[-1]
    return {"first": first, "last": last,
            "gain": throughput_gain(first["tokens_per_s_per_gpu"], last["tokens_per_s_per_gpu"])}


def release_steps(rows: pd.DataFrame) -> pd.DataFrame:
    """Each step from one release to the next of the same system, model and precision: ``rows``
    holds ``gpu_id``, ``model_id``, ``precision``, ``release``, ``date``, ``tokens_per_s`` and
    ``tflops_printed`` (one row per release). Returns, per step, both releases, the throughput gain
    and the gain in the publisher's printed TFLOP/s: with one FLOP count and exact figures the two
    agree, so where they part the tokens/s were rounded or the count changed, not the speed."""
    out = []
    for (gpu_id, model_id, precision), g in rows.groupby(["gpu_id", "model_id", "precision"], sort=True):
        g = g.sort_values("date")
        for before, after in zip(g.iloc[:-1].itertuples(), g.iloc[1:].itertuples(), strict=True):
            out.append({"gpu_id": gpu_id, "model_id": model_id, "precision": precision,
                        "release_from": before.release, "release_to": after.release,
                        "date_from": before.date, "date_to": after.date,
                        "tokens_per_s_from": before.tokens_per_s, "tokens_per_s_to": after.tokens_per_s,
                        "throughput_gain": throughput_gain(before.tokens_per_s, after.tokens_per_s),
                        "printed_tflops_gain": throughput_gain(before.tflops_printed, after.tflops_printed)})
    return pd.DataFrame(out)
