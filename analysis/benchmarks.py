"""Benchmark rows with their derived columns.

``data/benchmarks.csv`` holds only what each publisher printed: MFU, tokens/s/GPU or both. This
module completes every row with both, using the FLOP accounting of :mod:`analysis.flops` and the
peak the publisher divided by (``mfu_peak_tflops``) or else the registry's dense peak, and says in
``basis`` which figure was derived.
"""

from __future__ import annotations

import pandas as pd

from analysis.data import load_table
from analysis.flops import (
    mfu_from_tokens_per_s,
    model_flops_per_token,
    tokens_per_s_from_mfu,
)


def load_benchmarks() -> pd.DataFrame:
    """``benchmarks.csv`` plus ``flops_per_token``, ``peak_tflops``, ``mfu``,
    ``tokens_per_s_per_gpu`` and ``basis`` (``reported``, ``derived mfu`` or ``derived tokens/s``)."""
    bench = load_table("benchmarks")
    models = load_table("models").set_index("model_id")
    gpus = load_table("gpus").set_index("gpu_id")
    bench["flops_per_token"] = [model_flops_per_token(models.loc[m], s)
                                for m, s in zip(bench["model_id"], bench["seq_len"])]
    registry_peak = [gpus.loc[g, f"{p}_dense_tflops"] for g, p in zip(bench["gpu_id"], bench["precision"])]
    bench["peak_tflops"] = bench["mfu_peak_tflops"].fillna(pd.Series(registry_peak, index=bench.index))
    has_mfu, has_tok = bench["mfu_reported"].notna(), bench["tokens_per_s_per_gpu_reported"].notna()
    bench["mfu"] = bench["mfu_reported"].where(
        has_mfu, mfu_from_tokens_per_s(bench["tokens_per_s_per_gpu_reported"], bench["flops_per_token"], bench["peak_tflops"]))
    bench["tokens_per_s_per_gpu"] = bench["tokens_per_s_per_gpu_reported"].where(
        has_tok, tokens_per_s_from_mfu(bench["mfu_reported"], bench["flops_per_token"], bench["peak_tflops"]))
    bench["basis"] = "reported"
    bench.loc[~has_mfu, "basis"] = "derived mfu"
    bench.loc[~has_tok, "basis"] = "derived tokens/s"
    return bench


def pick(bench: pd.DataFrame, **where) -> pd.Series:
    """The one benchmark row matching every ``column=value`` in ``where``; an error naming the
    criteria if none or several match (so a notebook never silently averages or picks the first)."""
    match = bench
    for column, value in where.items():
        match = match[match[column] == value]
    if len(match) != 1:
        raise LookupError(f"{len(match)} benchmark rows match {where}; expected exactly one")
    return match.iloc[0]
