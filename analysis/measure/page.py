"""The rerun appendix's last section, "Measured on the build machine": what ``python -m analysis
measure`` measured on the computer that built this copy of the book, priced at the TCO chapter's
``local_gpu_hour_usd`` and powered at the energy chapter's ``local_power_w``, each set against an
H100 training Llama 3.1 405B per model FLOP (those chapters' own results).

It is a measurement of the build machine, not published data, so it lives in the appendix on
rerunning the book, once, and no chapter prints it. The build writes it to
``book/generated/measured.md``, which ``book/rerun.md`` includes.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analysis.chapters.results import load_results
from analysis.measure.report import load_measured, train_steps, with_cost_and_energy
from analysis.page.tables import markdown_table
from analysis.units import TERA

HOW_TO_MEASURE = ("`python -m analysis measure --quick` (CPU, numpy only, under a minute) or "
                  "`python -m analysis measure --device cuda` (PyTorch, `requirements-gpu.txt`), then rebuild the book")

INTRO = ("Everything else in this book is published data. This section is a measurement of the computer "
         "that built this copy of it: one training step of a small GPT-style model on one device, timed "
         "with warm-up runs and repeats, its FLOPs counted with the same accounting as the published rows. "
         "A small model on one device is not a GPU cluster, but the arithmetic from throughput to MFU, dollars and "
         "joules is the same. The device's price per hour and its power are parameters of the TCO and "
         "energy chapters; set your own, e.g. `python -m analysis build -p local_gpu_hour_usd 2.0 -p "
         "local_power_w 700` for a GPU rented at \\$2 an hour that draws 700 W. The small model's tokens "
         "are far cheaper to compute than a 405B model's, so the comparison with an H100 is per model FLOP, "
         "not per token.")


def _results(section: str, folder: Path) -> dict[str, float]:
    """A chapter's results (:func:`analysis.chapters.results.load_results`) as {key: value}; {} when that
    chapter has not run."""
    if not (folder / f"{section}.json").is_file():
        return {}
    return {k: r["value"] for k, r in load_results(section, folder)["results"].items()}


def measured_page(values: dict[str, dict], results_dir: Path) -> str:
    """Markdown for ``book/generated/measured.md``: ``values`` are the chapters' resolved parameters
    (the build's), ``results_dir`` holds their results JSON."""
    tco, energy = _results("tco", results_dir), _results("energy", results_dir)
    out = ["(measured)=", "## Measured on the build machine", "", INTRO, "",
           measured_section_markdown(load_measured(), usd_per_device_hour=values["tco"]["local_gpu_hour_usd"],
                                     power_w=values["energy"]["local_power_w"])]
    if "measured_to_h100_usd_per_exaflop_ratio" in tco:
        out += ["", f"For scale, an H100 training Llama 3.1 405B in BF16 at NVIDIA's published throughput "
                    f"({tco['llama31_405b_bf16_2304_mfu_pct']:.0f} % MFU) costs "
                    f"\\${fmt(tco['h100_llama31_405b_bf16_usd_per_exaflop'])} per 10^18 model FLOPs at the TCO "
                    f"chapter's \\${tco['h100_tco_usd_per_gpu_hour']:.2f} per GPU-hour: the measured device's "
                    f"model compute costs {fmt(tco['measured_to_h100_usd_per_exaflop_ratio'])} times as much."]
    if "measured_vs_h100_j_per_tflop_ratio" in energy:
        out += ["", f"An H100 at the reference throughput ({energy['llama31_405b_bf16_reference_mfu_pct']:.0f} % "
                    f"MFU) takes {fmt(energy['h100_llama31_405b_bf16_j_per_tflop'])} J per 10^12 model FLOPs at the "
                    f"energy chapter's {energy['h100_average_meter_w_per_gpu']:,.0f} W per GPU at the meter (its "
                    f"average draw while training, {energy['load_factor_frac']:.0%} of rated): the measured "
                    f"device takes {fmt(energy['measured_vs_h100_j_per_tflop_ratio'])} times as much energy per FLOP."]
    return "\n".join(out) + "\n"


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
