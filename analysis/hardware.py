"""The GPU registry: dense peak TFLOP/s by data type, memory, TDP (``data/gpus.csv``).

Peaks are always dense. NVIDIA's datasheets headline 2:4 structured-sparsity figures, exactly
twice the dense ones (e.g. H100 SXM BF16: 1,979 sparse, 989.4 dense); MFU is always quoted
against the dense peak.
"""

from __future__ import annotations

import math

from analysis.data.load import DataError, load_table, row

DTYPES = ("bf16", "fp8", "fp4", "tf32")


def gpu_ids(with_dtype: str | None = None, with_tdp: bool = False) -> list[str]:
    """Ids of the GPUs in the registry, in file order; only those with a dense peak for
    ``with_dtype`` when given, and a published TDP when ``with_tdp``."""
    table = load_table("gpus")
    if with_dtype is not None:
        table = table[table[f"{with_dtype}_dense_tflops"].notna()]
    if with_tdp:
        table = table[table["tdp_w"].notna()]
    return table["gpu_id"].tolist()


def gpu(gpu_id: str):
    """The registry row for ``gpu_id`` (a pandas Series)."""
    return row("gpus", gpu_id)


def peak_tflops(gpu_id: str, dtype: str) -> float:
    """Dense peak TFLOP/s of ``gpu_id`` for ``dtype`` (bf16, fp8, fp4 or tf32)."""
    if dtype not in DTYPES:
        raise DataError(f"unknown dtype '{dtype}'; expected one of {', '.join(DTYPES)}")
    value = float(gpu(gpu_id)[f"{dtype}_dense_tflops"])
    if math.isnan(value):
        raise DataError(f"{gpu_id} has no {dtype} tensor path in data/gpus.csv")
    return value


def tdp_w(gpu_id: str) -> float:
    """Board power (TDP) in watts; an error for a part whose vendor publishes none (TPUs, Trainium)."""
    value = float(gpu(gpu_id)["tdp_w"])
    if math.isnan(value):
        raise DataError(f"{gpu_id} has no published TDP in data/gpus.csv")
    return value


def memory_gb(gpu_id: str) -> float:
    """HBM capacity in GB."""
    return float(gpu(gpu_id)["memory_gb"])
