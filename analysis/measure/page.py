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

from analysis.chapters.results import load_results
from analysis.measure.report import fmt, load_measured, measured_section_markdown

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
