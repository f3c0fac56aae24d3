"""Measured rows in the book: the rerun appendix's "Measured on the build machine" section
(:mod:`analysis.measure.page`) shows them, and the benchmarks, TCO and energy chapters record their
results, through these functions.

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
from analysis.page.tables import markdown_table  # presentation-free: text only, no kernel, no parameters
from analysis.units import TERA

HOW_TO_MEASURE = ("`python -m analysis measure --quick` (CPU, numpy only, under a minute) or "
                  "`python -m analysis measure --device cuda` (PyTorch, `requirements-gpu.txt`), then rebuild the book")


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


def fmt(x, digits: int = 3) -> str:
    """A number for prose and tables: three significant digits below 1,000, whole numbers above."""
    return "—" if pd.isna(x) else f"{x:.{digits}g}" if abs(x) < 1_000 else f"{x:,.0f}"


def _pct(x) -> str:
    return "—" if pd.isna(x) else f"{x * 100:.1f} %"


def measured_table_markdown(measured: pd.DataFrame, usd_per_device_hour: float | None = None,
                            power_w: float | None = None, max_runs: int = 5) -> str:
    """A Markdown table with one row per training step of the latest ``max_runs`` runs."""
    steps = with_cost_and_energy(train_steps(measured), usd_per_device_hour, power_w).tail(max_runs)
    header = ["Run", "Device", "Cores", "Precision", "Model", "tokens/s", "TFLOP/s", "Matmul peak, TFLOP/s",
              "MFU vs measured peak", "MFU vs datasheet"]
    header += ["USD per 1M tokens"] if usd_per_device_hour is not None else []
    header += ["J/token"] if power_w is not None else []
    rows = []
    for r in steps.itertuples():
        row = [f"{r.run_id} ({r.date})", r.device_name + (f" (`{r.gpu_id}`)" if isinstance(r.gpu_id, str) else ""),
               r.cores, r.precision, f"{r.params / 1e6:.2f}M params, `{r.config}`", fmt(r.tokens_per_s),
               f"{fmt(r.tflops_median)} ({fmt(r.flops / r.seconds_p90 / TERA)}-{fmt(r.flops / r.seconds_p10 / TERA)})",
               fmt(r.peak_tflops_measured), _pct(r.mfu_vs_measured_peak), _pct(r.mfu_vs_datasheet)]
        row += [fmt(r.usd_per_million_tokens)] if usd_per_device_hour is not None else []
        row += [fmt(r.joules_per_token)] if power_w is not None else []
        rows.append(row)
    # what the text above reads, in view at 1280 px; the run, cores, matmul peak and datasheet MFU fold
    shown = ["Device", "Precision", "Model", "tokens/s", "TFLOP/s", "MFU vs measured peak"] + header[10:]
    return markdown_table(header, rows, columns=shown)


def matmul_table_markdown(measured: pd.DataFrame) -> str:
    """A Markdown table of the latest run's matmul measurements (median and 10th-90th percentile)."""
    latest = measured[measured["run_id"] == measured["run_id"].iloc[-1]]
    mm = latest[latest["what"] == "matmul"]
    rows = [(r.precision, r.config, fmt(r.seconds_median * 1e3), f"{fmt(r.seconds_p10 * 1e3)}-{fmt(r.seconds_p90 * 1e3)}",
             fmt(r.tflops_median), _pct(r.mfu_vs_datasheet), f"{r.warmup} + {r.repeats}") for r in mm.itertuples()]
    return markdown_table(["Precision", "m x k x n", "ms, median", "ms, 10th-90th pct", "TFLOP/s", "of datasheet peak",
                           "warm-up + repeats"], rows)


def measured_section_markdown(measured: pd.DataFrame, usd_per_device_hour: float | None = None,
                              power_w: float | None = None, max_runs: int = 5) -> str:
    """The body of the "Measured on the build machine" section: a summary of the latest run, the
    training steps of recent runs (with USD per 1M tokens and J/token when a price and a power
    are given) and the latest matmuls, or, with no measurement, how to make one."""
    if train_steps(measured).empty:
        return (":::{note}\nNo measurement is present: `data/measured/benchmarks_measured.csv` is missing or "
                f"holds no training step. Make one on your machine with {HOW_TO_MEASURE}.\n:::")
    r = with_cost_and_energy(train_steps(measured), usd_per_device_hour, power_w).iloc[-1]
    datasheet = (f" and {_pct(r.mfu_vs_datasheet)} of the datasheet dense peak of `{r.gpu_id}`"
                 if pd.notna(r.mfu_vs_datasheet) else
                 " (the device is not in `data/gpus.csv`, so there is no datasheet peak to compare with)")
    text = (f"The latest run, `{r.run_id}` on {r.date}, measured **{r.device_name}** ({r.cores} cores; "
            f"{r.software}; seed {r.seed}). Its best dense matmul in {r.precision} reached "
            f"{fmt(r.peak_tflops_measured)} TFLOP/s, the measured peak. One training step of a "
            f"{r.params / 1e6:.2f}-million-parameter GPT (`{r.config}`: forward, backward and Adam update) took "
            f"{fmt(r.seconds_median * 1e3)} ms at the median of {r.repeats} repeats, {fmt(r.tokens_per_s)} tokens/s "
            f"and {fmt(r.tflops_median)} TFLOP/s of model FLOPs by the book's accounting: an MFU of "
            f"{_pct(r.mfu_vs_measured_peak)} of the measured peak{datasheet}.")
    if usd_per_device_hour is not None:
        text += (f" At ${usd_per_device_hour:,.4g} per device-hour (`local_gpu_hour_usd`), that is "
                 f"${fmt(r.usd_per_million_tokens)} per million tokens and ${fmt(r.usd_per_exaflop)} per 10^18 model FLOPs.")
    if power_w is not None:
        text += (f" At {power_w:,.4g} W (`local_power_w`), it is {fmt(r.joules_per_token)} J per token and "
                 f"{fmt(r.joules_per_tflop)} J per 10^12 model FLOPs.")
    return "\n".join([
        text.replace("$", "\\$"), "", measured_table_markdown(measured, usd_per_device_hour, power_w, max_runs), "",
        "TFLOP/s of the training step: median (10th-90th percentile of the repeats). "
        f"Add a measurement of your own with {HOW_TO_MEASURE}; runs are appended, never overwritten.", "",
        ":::{admonition} Dense matmuls of the latest run", ":class: dropdown", "", matmul_table_markdown(measured), ":::"])


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
