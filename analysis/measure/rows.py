"""Measurements -> rows of the ``measured`` table, with the run's provenance; validation and an
atomic append to ``<out>/benchmarks_measured.csv`` that keeps every earlier run.

Counts (FLOPs, parameters) are written exactly; measured and derived quantities with six
significant digits, the derived ones computed from the written values so that the schema's
consistency checks (``tflops_median = flops / seconds_median / 1e12``, ...) hold.
"""

from __future__ import annotations

import io
import json
import os
import platform
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.data.load import read_raw, schema_columns, validate_frame
from analysis.errors import ExecutionError
from analysis.measure.timing import MatmulResult, Timing
from analysis.units import TERA

TABLE = "measured"
FILE_NAME = "benchmarks_measured.csv"
SOURCE_ID = "measured_locally"


@dataclass(frozen=True)
class RunInfo:
    """What every row of one run records about where and how it was measured."""

    run_id: str
    date: str
    device_kind: str
    device_name: str
    cores: int
    gpu_id: str | None
    software: str
    seed: int
    parameters: dict = field(default_factory=dict)


# --- provenance --------------------------------------------------------------------------------

def cpu_name() -> str:
    """The CPU model from /proc/cpuinfo, else what ``platform`` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def cpu_cores() -> int:
    """Logical CPUs this process may run on (its affinity mask), else the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def numpy_software() -> str:
    """Python, numpy and the BLAS numpy was built against, with their versions."""

    blas = "unknown BLAS"
    try:
        info = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        blas = f"{info.get('name', 'BLAS')} {info.get('version', '')}".strip()
    except Exception:  # the layout of numpy's build information is not a stable API
        pass
    return f"python {platform.python_version()}; numpy {np.__version__}; BLAS {blas}"


def new_run_id(device_kind: str, now: datetime, taken=()) -> str:
    """``<device>_<UTC timestamp>``, with a suffix if that id is already in the table."""
    base = f"{device_kind}_{now.astimezone(UTC):%Y%m%dt%H%M%Sz}"
    run_id, n = base, 1
    while run_id in set(taken):
        n += 1
        run_id = f"{base}_{n}"
    return run_id


def match_gpu_id(device_name: str, gpus: pd.DataFrame) -> str | None:
    """The ``data/gpus.csv`` id of a CUDA device name (``"NVIDIA H100 80GB HBM3"`` -> ``h100_sxm``),
    or None. A registry part matches when its model word (H100, GB200, ...) is a word of the device
    name, and where several parts share it, their memory ("80GB"); PCIe and NVL cards, whose peaks
    differ from the SXM parts in the registry, never match."""
    words = set(re.split(r"[^a-z0-9]+", device_name.lower()))
    if words & {"pcie", "nvl"}:
        return None
    hits = [g for g in gpus.itertuples() if g.name.split()[1].lower() in words]
    if len(hits) > 1:  # memory variants of one part (A100 40GB and 80GB): the name's "80gb" decides
        hits = [g for g in hits if f"{g.memory_gb:g}gb" in words]
    return hits[0].gpu_id if len(hits) == 1 else None


# --- rows ------------------------------------------------------------------------------------------

def _fmt(x: float | int | None) -> str | None:
    """Exact integers as integers, everything else with six significant digits."""
    if x is None:
        return None
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e18 else f"{x:.6g}"


def _base(info: RunInfo, precision: str, what: str, config: str, flops: float, timing: Timing) -> dict:
    flops_s, median_s = _fmt(flops), _fmt(timing.seconds_median)
    return {
        "run_id": info.run_id, "date": info.date, "device_kind": info.device_kind,
        "device_name": info.device_name, "cores": str(info.cores), "gpu_id": info.gpu_id,
        "precision": precision, "what": what, "config": config, "flops": flops_s,
        "warmup": str(timing.warmup), "repeats": str(timing.repeats), "seconds_median": median_s,
        "seconds_p10": _fmt(timing.seconds_p10), "seconds_p90": _fmt(timing.seconds_p90),
        "tflops_median": _fmt(float(flops_s) / float(median_s) / TERA),
        "software": info.software, "seed": str(info.seed),
        "parameters": json.dumps({**info.parameters, "calls_per_repeat": timing.calls_per_repeat}, sort_keys=True),
        "basis": "measured", "source_id": SOURCE_ID, "note": None,
    }


def _mfu(row: dict, peak_tflops: float | None) -> tuple[str | None, str | None]:
    if peak_tflops is None:
        return None, None
    peak = _fmt(peak_tflops)
    return peak, _fmt(float(row["tflops_median"]) / float(peak))


def matmul_row(info: RunInfo, result: MatmulResult, datasheet_tflops: float | None = None) -> dict:
    """One dense matmul measurement; with a datasheet peak, its fraction of it."""
    row = _base(info, result.precision, "matmul", result.shape, result.flops, result.timing)
    row["peak_tflops_datasheet"], row["mfu_vs_datasheet"] = _mfu(row, datasheet_tflops)
    return row


def train_step_row(info: RunInfo, precision: str, config: str, params: int, seq_len: int, batch: int,
                   flops_per_token: float, timing: Timing, measured_peak_tflops: float,
                   datasheet_tflops: float | None = None) -> dict:
    """One training-step measurement: tokens/s and MFU against the measured matmul peak (and the
    datasheet peak when known). An MFU above 1 means the peak measurement cannot be trusted."""
    tokens = seq_len * batch
    row = _base(info, precision, "train_step", config, flops_per_token * tokens, timing)
    row |= {"params": _fmt(params), "seq_len": str(seq_len), "global_batch": str(batch),
            "flops_per_token": _fmt(flops_per_token)}
    row["tokens_per_s"] = _fmt(float(row["flops"]) / float(row["flops_per_token"]) / float(row["seconds_median"]))
    row["peak_tflops_measured"], row["mfu_vs_measured_peak"] = _mfu(row, measured_peak_tflops)
    row["peak_tflops_datasheet"], row["mfu_vs_datasheet"] = _mfu(row, datasheet_tflops)
    for key in ("mfu_vs_measured_peak", "mfu_vs_datasheet"):
        if row[key] is not None and float(row[key]) > 1:
            raise ExecutionError(f"the training step ran at {row['tflops_median']} TFLOP/s, above the peak it is "
                                 f"compared with ({key} = {row[key]}); the machine was probably busy while "
                                 "the matmul peak was measured. Nothing was written; run again.")
    return row


# --- the table file ---------------------------------------------------------------------------------

def table_file(out_dir: Path) -> Path:
    return Path(out_dir) / FILE_NAME


def existing_rows(out_dir: Path) -> pd.DataFrame:
    """The table already in ``out_dir`` (validated; a DataError naming file:line:column if bad),
    or an empty frame."""
    path = table_file(out_dir)
    if not path.is_file():
        return pd.DataFrame(columns=schema_columns(TABLE))
    raw = read_raw(path)
    validate_frame(TABLE, raw, path)
    return raw


def append_rows(rows: list[dict], out_dir: Path) -> Path:
    """Validate ``rows`` together with the runs already in ``out_dir``, then replace the file
    atomically (write a temporary file, rename). Earlier runs are kept; nothing is written if any
    row is invalid."""
    path = table_file(out_dir)
    columns = schema_columns(TABLE)
    new = pd.DataFrame([{c: r.get(c) for c in columns} for r in rows], columns=columns, dtype=object)
    old = existing_rows(out_dir)
    combined = new if old.empty else pd.concat([old.astype(object), new], ignore_index=True)
    combined = combined.where(combined.notna(), None)
    validate_frame(TABLE, read_raw_frame(combined), path)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        combined.to_csv(tmp, index=False)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def read_raw_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` as :func:`analysis.data.load.read_raw` would read it back from CSV (text cells)."""

    buffer = io.StringIO()
    frame.to_csv(buffer, index=False)
    buffer.seek(0)
    return read_raw(buffer)


def run_info(device_kind: str, device_name: str, cores: int, gpu_id: str | None, software: str, seed: int,
             parameters: dict, taken=(), now: datetime | None = None) -> RunInfo:
    """Provenance of a run that starts ``now`` (UTC)."""
    now = now or datetime.now(UTC)
    return RunInfo(new_run_id(device_kind, now, taken), f"{now:%Y-%m-%d}", device_kind, device_name, cores,
                   gpu_id, software, seed, parameters)
