"""Measured rows in numbers: the benchmarks, TCO and energy chapters record their results, and the
rerun appendix's "Measured on the build machine" section (:mod:`analysis.measure.page`) shows them,
through these functions.

Measured rows stay apart from published data: they are read from the ``measured`` table only,
their cost and energy come from the reader's parameters for the measured device
(``local_gpu_hour_usd``, ``local_power_w``) through the same functions as the published rows
(:func:`analysis.costs.usd_per_million_tokens`, :func:`analysis.energy.joules_per_token`).
"""

from __future__ import annotations

import pandas as pd

from analysis.costs import usd_per_million_tokens
from analysis.data.load import load_table
from analysis.energy import joules_per_token
from analysis.units import TERA


def load_measured() -> pd.DataFrame:
    """The ``measured`` table (``data/measured/benchmarks_measured.csv``), empty if there is none."""
    return load_table("measured")


def train_steps(measured: pd.DataFrame) -> pd.DataFrame:
    """The training-step rows, oldest run first (the file is appended to, so file order is run order)."""
    return measured[measured["what"] == "train_step"].reset_index(drop=True)


def usd_per_exaflop(usd_per_device_hour: float, tflops: float) -> float:
    """Cost of 1e18 model FLOPs at a device-hour price and a sustained TFLOP/s: the token price
    with a FLOP as the "token", so devices running different models compare fairly."""
    return usd_per_million_tokens(usd_per_device_hour, tflops * TERA) * 1e12


def joules_per_tflop(power_w: float, tflops: float) -> float:
    """Energy per 1e12 model FLOPs: watts over TFLOP/s (J/token with a TFLOP as the "token")."""
    return joules_per_token(power_w, tflops)


def with_cost_and_energy(steps: pd.DataFrame, usd_per_device_hour: float | None = None,
                         power_w: float | None = None) -> pd.DataFrame:
    """Training-step rows with USD per 1M tokens and per 1e18 FLOPs (given a device-hour price)
    and J per token and per TFLOP (given a power)."""
    out = steps.copy()
    if usd_per_device_hour is not None:
        out["usd_per_million_tokens"] = usd_per_million_tokens(usd_per_device_hour, out["tokens_per_s"])
        out["usd_per_exaflop"] = usd_per_exaflop(usd_per_device_hour, out["tflops_median"])
    if power_w is not None:
        out["joules_per_token"] = joules_per_token(power_w, out["tokens_per_s"])
        out["joules_per_tflop"] = joules_per_tflop(power_w, out["tflops_median"])
    return out


def measured_results(measured: pd.DataFrame, usd_per_device_hour: float | None = None,
                     power_w: float | None = None) -> dict[str, tuple[float, str, str]]:
    """Results of the latest run's training step, ``{key: (value, unit, label)}``, for ``R.add``;
    empty when nothing was measured."""
    steps = with_cost_and_energy(train_steps(measured), usd_per_device_hour, power_w)
    if steps.empty:
        return {}
    r = steps.iloc[-1]
    wanted = [  # (result key, column, unit, label), the optional ones only when their input is given
        ("measured_matmul_peak_tflops", "peak_tflops_measured", "TFLOP/s", "Measured matmul peak"),
        ("measured_train_step_tflops", "tflops_median", "TFLOP/s", "Small GPT training step, model FLOP/s"),
        ("measured_tokens_per_s", "tokens_per_s", "tokens/s", "Small GPT training throughput"),
        ("measured_mfu_vs_measured_peak", "mfu_vs_measured_peak", "fraction", "MFU against the measured peak"),
        ("measured_mfu_vs_datasheet", "mfu_vs_datasheet", "fraction", "MFU against the datasheet peak"),
    ]
    if usd_per_device_hour is not None:
        wanted += [("measured_usd_per_million_tokens", "usd_per_million_tokens", "USD per 1M tokens",
                    "Small GPT on the measured device, per 1M tokens"),
                   ("measured_usd_per_exaflop", "usd_per_exaflop", "USD per 1e18 FLOP",
                    "Model compute on the measured device")]
    if power_w is not None:
        wanted += [("measured_joules_per_token", "joules_per_token", "J/token", "Small GPT on the measured device"),
                   ("measured_joules_per_tflop", "joules_per_tflop", "J per TFLOP", "Model compute on the measured device")]
    device = f"{r['device_name']}, {r['precision']}"
    out = {key: (r[column], unit, f"{label} ({device})") for key, column, unit, label in wanted if pd.notna(r[column])}
    return {k: (float(v), unit, label) for k, (v, unit, label) in out.items()}


def measured_as_benchmarks(measured: pd.DataFrame) -> pd.DataFrame:
    """Training-step rows in the shape of :func:`analysis.benchmarks.load_benchmarks`'s output
    (``mfu``, ``tokens_per_s_per_gpu``, ``flops_per_token``, ``peak_tflops``, ``basis`` =
    ``measured``), for a chapter that lists them beside the published rows; ``peak_tflops`` is the
    datasheet peak when the device has one, else the measured matmul peak."""
    steps = train_steps(measured)
    has_sheet = steps["peak_tflops_datasheet"].notna()
    return pd.DataFrame({
        "model_id": "measured: " + steps["config"], "gpu_id": steps["gpu_id"].fillna(steps["device_name"]),
        "precision": steps["precision"], "gpus": 1, "software": steps["software"], "date": steps["date"],
        "global_batch": steps["global_batch"], "seq_len": steps["seq_len"], "publisher": "measured locally",
        "source_id": steps["source_id"], "flops_per_token": steps["flops_per_token"],
        "peak_tflops": steps["peak_tflops_datasheet"].where(has_sheet, steps["peak_tflops_measured"]),
        "mfu": steps["mfu_vs_datasheet"].where(has_sheet, steps["mfu_vs_measured_peak"]),
        "tokens_per_s_per_gpu": steps["tokens_per_s"], "basis": "measured", "run_id": steps["run_id"],
    })
