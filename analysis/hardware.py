"""The GPU registry: dense peak TFLOP/s by data type, memory, TDP (``data/gpus.csv``).

Peaks are always dense. NVIDIA's datasheets headline 2:4 structured-sparsity figures, exactly
twice the dense ones (e.g. H100 SXM BF16: 1,979 sparse, 989.4 dense); MFU is always quoted
against the dense peak.
"""

from __future__ import annotations

import math
import re

from analysis.data.load import DataError, derived, load_table, row

DTYPES = ("bf16", "fp8", "fp4", "tf32")


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


@derived  # per data folder: a test's edited copy has its own names
def _gpus() -> dict[str, str]:
    return dict(zip(load_table("gpus")["gpu_id"], load_table("gpus")["name"], strict=True))


def gpu_name(gpu_id: str, vendor: bool = False) -> str:
    """The GPU's name from ``data/gpus.csv`` without the vendor ('H100 SXM 80GB'), or with it
    (``vendor=True``: 'NVIDIA H100 SXM 80GB'). An unknown id is returned unchanged."""
    name = _gpus().get(gpu_id, gpu_id)
    return name if vendor else re.sub(r"^NVIDIA\s+", "", name)
