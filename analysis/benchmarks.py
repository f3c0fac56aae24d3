"""Benchmark rows with their derived columns.

``data/benchmarks.csv`` holds only what each publisher printed: MFU, tokens/s/GPU or both. This
module completes every row with both, using the FLOP accounting of :mod:`analysis.flops` and the
peak the publisher divided by (``mfu_peak_tflops``) or else the registry's dense peak, and says in
``basis`` which figure was derived. It also selects sweeps and best rows, compares GPU types,
checks every row that prints both figures against the package's conversion, and lays out the FLOP
conventions that make one throughput several "MFU"s.
"""

from __future__ import annotations

import pandas as pd

from analysis.costs import usd_per_million_tokens
from analysis.data import provenance
from analysis.data.load import derived, load_table, matching_positions
from analysis.flops import (
    attention_flops_per_token,
    matmul_params,
    mfu_from_tokens_per_s,
    model_flops_per_token,
    tokens_per_s_from_mfu,
)


@derived  # called a dozen times per book; the three tables it reads are cached anyway
def load_benchmarks() -> pd.DataFrame:
    """``benchmarks.csv`` plus ``flops_per_token``, ``peak_tflops``, ``mfu``,
    ``tokens_per_s_per_gpu`` and ``basis`` (``reported``, ``derived mfu`` or ``derived tokens/s``)."""
    bench = load_table("benchmarks")
    models = load_table("models").set_index("model_id")
    gpus = load_table("gpus").set_index("gpu_id")
    # each distinct (model, sequence length) and (GPU, precision) once: a few of each, not a row each
    pairs = list(zip(bench["model_id"], bench["seq_len"], strict=True))
    flops = {pair: model_flops_per_token(models.loc[pair[0]], pair[1]) for pair in sorted(set(pairs))}
    bench["flops_per_token"] = [flops[pair] for pair in pairs]
    chips = list(zip(bench["gpu_id"], bench["precision"], strict=True))
    peaks = {chip: gpus.loc[chip[0], f"{chip[1]}_dense_tflops"] for chip in sorted(set(chips))}
    registry_peak = [peaks[chip] for chip in chips]
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
    positions = matching_positions(bench, where)
    if len(positions) != 1:
        raise LookupError(f"{len(positions)} benchmark rows match {where}; expected exactly one")
    found = bench.iloc[positions[0]]
    provenance.note_rows("benchmarks", found)
    return found


# The book's one reference run for costs and energy per token: Llama 3.1 405B on 2,304 H100s
# (NVIDIA DGXC v25.02), the run SemiAnalysis prices at $1.95 per million tokens in BF16 (A34).
REFERENCE_RUN = {"source_id": "nv_dgxc_v25_02", "model_id": "llama31_405b", "gpus": 2304}


def reference_row(bench: pd.DataFrame, precision: str = "bf16") -> pd.Series:
    """The reference run's row in ``precision`` (:data:`REFERENCE_RUN`)."""
    return pick(bench, **REFERENCE_RUN, precision=precision)


def reference_tokens_per_s(precision: str = "bf16") -> float:
    """Tokens/s/GPU of the reference run in ``precision``: 202.5 in BF16."""
    return float(reference_row(load_benchmarks(), precision)["tokens_per_s_per_gpu"])


# --- selections -----------------------------------------------------------------------------------

def sweep(bench: pd.DataFrame, model_id: str, precision: str, source_id: str, gpu_id: str = "h100_sxm") -> pd.DataFrame:
    """One publisher's rows for a model, precision and GPU type, by GPU count (a scaling sweep)."""
    rows = bench[(bench["model_id"] == model_id) & (bench["precision"] == precision)
                 & (bench["source_id"] == source_id) & (bench["gpu_id"] == gpu_id)]
    provenance.note_rows("benchmarks", rows)
    return rows.sort_values("gpus")


def best_rate_row(bench: pd.DataFrame, model_id: str, precision: str, gpu_id: str) -> pd.Series:
    """The row with the highest tokens/s/GPU in the latest release that has this model, precision
    and GPU type (per-GPU throughput falls with cluster size, so this is usually the smallest size
    published). This is how the GB200 / H100 ratios of facts A49-A51 are formed."""
    rows = bench[(bench["model_id"] == model_id) & (bench["precision"] == precision) & (bench["gpu_id"] == gpu_id)]
    if rows.empty:
        raise KeyError(f"no benchmark row for {model_id} {precision} on {gpu_id}")
    latest = rows[rows["date"] == rows["date"].max()]
    best = latest.loc[latest["tokens_per_s_per_gpu"].idxmax()]
    provenance.note_rows("benchmarks", best)
    return best


def throughput_ratio(bench: pd.DataFrame, model_id: str, precision: str, gpu_b: str = "gb200_nvl72",
                     gpu_a: str = "h100_sxm") -> float:
    """Per-GPU training throughput of ``gpu_b`` over ``gpu_a`` (each at its :func:`best_rate_row`)."""
    return (best_rate_row(bench, model_id, precision, gpu_b)["tokens_per_s_per_gpu"]
            / best_rate_row(bench, model_id, precision, gpu_a)["tokens_per_s_per_gpu"])


def with_costs(bench: pd.DataFrame, usd_per_gpu_hour: dict[str, float]) -> pd.DataFrame:
    """``bench`` plus ``usd_per_gpu_hour`` (by GPU type) and ``usd_per_million_tokens``."""
    missing = set(bench["gpu_id"]) - set(usd_per_gpu_hour)
    if missing:
        raise KeyError(f"no GPU-hour price for {', '.join(sorted(missing))}")
    out = bench.copy()
    out["usd_per_gpu_hour"] = out["gpu_id"].map(usd_per_gpu_hour)
    out["usd_per_million_tokens"] = usd_per_million_tokens(out["usd_per_gpu_hour"], out["tokens_per_s_per_gpu"])
    return out


# --- data checks -------------------------------------------------------------------------------------

def conversion_check(bench: pd.DataFrame, tolerance: float) -> pd.DataFrame:
    """Every row that prints both MFU and tokens/s/GPU, with the MFU the package reproduces from
    the throughput (its FLOP count, the publisher's peak), their ratio, whether it lies within
    ``tolerance`` and, when it does not, the likely reason:

    - the model's rows all miss by about the same factor: the publisher counts model FLOPs
      differently (NVIDIA's MoE recipes, about 8-10 % from 6 N_active + 12 L h s);
    - one row misses by the FP8/BF16 peak ratio on top of that: its MFU was divided by the FP8
      peak (NVIDIA's v25.05 Llama 4 GB200 BF16 128-GPU row prints 18.71 %).
    """
    gpus = load_table("gpus").set_index("gpu_id")
    rows = bench[bench["mfu_reported"].notna() & bench["tokens_per_s_per_gpu_reported"].notna()].copy()
    rows["mfu_reproduced"] = mfu_from_tokens_per_s(rows["tokens_per_s_per_gpu_reported"], rows["flops_per_token"],
                                                   rows["peak_tflops"])
    rows["ratio"] = rows["mfu_reproduced"] / rows["mfu_reported"]
    rows["passes"] = (rows["ratio"] - 1).abs() <= tolerance
    # What the publisher's own numbers imply it counts per token.
    rows["publisher_flops_per_token"] = (rows["mfu_reported"] * rows["peak_tflops"] * 1e12
                                         / rows["tokens_per_s_per_gpu_reported"])
    typical = rows.groupby("model_id")["ratio"].median()
    fp8_over_bf16 = gpus["fp8_dense_tflops"] / gpus["bf16_dense_tflops"]
    reasons = []
    for r in rows.itertuples():
        model_ratio = typical[r.model_id]
        if r.passes:
            reasons.append("")
        elif r.precision == "bf16" and abs(r.ratio / (model_ratio * fp8_over_bf16[r.gpu_id]) - 1) <= tolerance:
            reasons.append("MFU printed against the FP8 peak (typo)")
        elif abs(r.ratio / model_ratio - 1) <= tolerance and abs(model_ratio - 1) > tolerance:
            reasons.append(f"publisher counts {1 / model_ratio - 1:+.1%} FLOPs per token vs 6N+12Lhs")
        else:
            reasons.append("unexplained")
    rows["diagnosis"] = reasons
    return rows


def conversion_failures(bench: pd.DataFrame, tolerance: float) -> pd.DataFrame:
    """The rows of :func:`conversion_check` whose reported MFU the package does not reproduce
    within ``tolerance``."""
    check = conversion_check(bench, tolerance)
    return check[~check["passes"]]


# --- conventions -------------------------------------------------------------------------------------

def flops_per_token_conventions(model, seq_len: int) -> dict[str, float]:
    """FLOPs per trained token of a dense model under the conventions in use, so one measured
    throughput can be read as several "MFU"s. The book's (NVIDIA's, SA's, PaLM App. B) is
    6 N + 12 L h s; dropping attention, halving it for causal masking, counting the input
    embedding as a matmul, or counting the extra forward pass of full activation recomputation
    (hardware FLOPs, HFU: 8 N + 16 L h s; Korthikanti et al. 2022) all move the figure."""
    layers, hidden = int(model["layers"]), int(model["hidden_size"])
    n = matmul_params(float(model["active_params"]), int(model["vocab_size"]), hidden, bool(model["tied_embeddings"]))
    attention = attention_flops_per_token(layers, hidden, seq_len)
    return {
        "6N, attention ignored": 6 * n,
        "6N + 6Lhs, causal attention only": 6 * n + attention / 2,
        "6N + 12Lhs (this book, NVIDIA, SemiAnalysis)": 6 * n + attention,
        "6N + 12Lhs with the input embedding counted": 6 * float(model["active_params"]) + attention,
        "8N + 16Lhs, hardware FLOPs with full recomputation (HFU)": 8 * n + attention * 4 / 3,
    }


def precision_pairs(bench: pd.DataFrame) -> pd.DataFrame:
    """BF16 and FP8 rows of the same model, GPU type, size and release side by side, with the
    FP8/BF16 throughput ratio and MFU ratio. Since MFU divides by a peak that doubles in FP8,
    MFU ratio = throughput ratio x BF16 peak / FP8 peak: FP8 can run faster at a lower MFU."""
    keys = ["model_id", "gpu_id", "gpus", "software", "source_id"]
    cols = keys + ["mfu", "tokens_per_s_per_gpu", "peak_tflops"]
    bf16 = bench[bench["precision"] == "bf16"][cols]
    fp8 = bench[bench["precision"] == "fp8"][cols]
    pairs = bf16.merge(fp8, on=keys, suffixes=("_bf16", "_fp8"))
    pairs["throughput_ratio"] = pairs["tokens_per_s_per_gpu_fp8"] / pairs["tokens_per_s_per_gpu_bf16"]
    pairs["mfu_ratio"] = pairs["mfu_fp8"] / pairs["mfu_bf16"]
    return pairs


def accelerated_share(speedup: float, factor: float) -> float:
    """Amdahl's law run backwards: the share of the original step time that must run ``factor``
    times faster to give an overall ``speedup``, the rest unchanged. FP8 doubles the dense peak
    (factor 2); a 1.40x FP8 speed-up means ~57 % of the BF16 step ran on the accelerated path."""
    return (1.0 - 1.0 / speedup) / (1.0 - 1.0 / factor)


def publisher_peak_tflops(bench: pd.DataFrame, gpu_id: str, precision: str) -> float:
    """The dense peak a publisher divides by in its MFU tables for this GPU type and precision
    (NVIDIA rounds: 989 TFLOP/s for an H100 in BF16, 2,450 for a GB200 GPU where the usual dense
    figure is 2,500)."""
    rows = bench[(bench["gpu_id"] == gpu_id) & (bench["precision"] == precision) & bench["mfu_peak_tflops"].notna()]
    if rows.empty:
        raise KeyError(f"no row states the peak it divides by for {gpu_id} {precision}")
    return float(rows["mfu_peak_tflops"].iloc[0])
