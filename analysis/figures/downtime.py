"""Figures, tables and prose fragments of the downtime chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (``analysis.chapters.downtime``)."""

from __future__ import annotations

from analysis.data.load import fact
from analysis.page.formatting import count, percent, times
from analysis.page.names import gpu_short_name
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure
from analysis.page.tables import markdown_table

MEASURED = (("gb200_vs_h100_llama31_405b_bf16_throughput_ratio", "measured: Llama 3.1 405B BF16", "--"),
            ("gb200_vs_h100_deepseek_v3_bf16_throughput_ratio", "measured: DeepSeek-V3 BF16", ":"))


def clears_or_falls_short(E, speedup_key: str, breakeven_key: str) -> str:
    """'clears' or 'falls short of': a measured speed-up against a break-even, for the prose."""
    return "clears" if E[speedup_key] > E[breakeven_key] else "falls short of"


def token_costs_table(E) -> str:
    """Markdown: Llama 3.1 405B BF16's cost per million tokens on each system, with every paid
    hour useful and reliability-adjusted."""
    rows = [("every paid hour trains", f"{E['h100_llama31_405b_bf16_usd_per_million_tokens']:.3f}",
             f"{E['gb200_llama31_405b_bf16_usd_per_million_tokens']:.3f}"),
            (f"reliability-adjusted, {E['job_gpus']:,.0f}-GPU job",
             f"{E['h100_llama31_405b_bf16_useful_usd_per_million_tokens']:.3f}",
             f"{E['gb200_llama31_405b_bf16_useful_usd_per_million_tokens']:.3f}")]
    return markdown_table([f"USD per 1M tokens, Llama 3.1 405B BF16 (H100: {E['llama31_405b_bf16_h100_benchmark_gpus']:,.0f}"
                           f" GPUs, GB200: {E['llama31_405b_bf16_gb200_benchmark_gpus']:,.0f})", "H100", "GB200 NVL72"],
                          rows, "lrr")


def breakeven(E):
    """The speed-up GB200 needs against the extra share of GPU-hours it loses, with the assumed
    cases as dots and NVIDIA's measured speed-ups as horizontal lines."""
    t = E.tables["breakeven_by_extra_loss"]
    extra, needed = t["gb200_extra_loss_frac"] * 100, t["breakeven_speedup"]
    fig, ax = new_figure("Speed-up GB200 NVL72 needs,\nagainst its extra downtime",
                         "GB200 GPU-hours lost to failures and\nrepairs beyond the H100's (%)",
                         "Speed-up over H100 needed (x)", figsize=(7.0, 5.8))
    ratio = E["gb200_breakeven_speedup"]
    ax.plot(extra, needed, color=PALETTE["blue"], lw=2, label="break-even speed-up")
    ax.plot([0], [ratio], "o", color=PALETTE["blue"], ms=7,
            label=f"no reliability penalty: TCO ratio {times(ratio)} (report ~{fact('A12_tco_ratio'):.1f}x)")
    points = ((f"assumptions, {E['job_gpus']:,.0f}-GPU job", "", PALETTE["vermillion"]),
              (f"assumptions, {E['gpus']:,.0f}-GPU job", "_at_cluster_size", PALETTE["purple"]),
              (f"no NVLink faults, {E['job_gpus']:,.0f}-GPU job", "_without_nvlink_faults", PALETTE["green"]))
    for label, suffix, colour in points:
        ax.plot([E[f"gb200_extra_loss{suffix}_frac"] * 100], [E[f"gb200_breakeven_speedup_with_downtime{suffix}"]],
                "o", color=colour, ms=7, label=label)
    for key, label, style in MEASURED:  # named in the legend: at a phone's text size a name on the line covers it
        ax.axhline(E[key], color=PALETTE["black"], lw=1, ls=style, label=f"{label} ({times(E[key])})")
    ax.set_xlim(0, extra.iloc[-1])
    legend_above(ax)
    add_source(fig, "TCO model (capex: SemiAnalysis 2025; opex calibrated); Llama 3 failure rates; GB200 fault rate, "
                    "blast radius and repair time are assumptions; speed-ups from NVIDIA DGXC tables (v25.04/v25.05).")
    return fig


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    gb200, h100 = gpu_short_name(R.names["gb200"]).split()[0], gpu_short_name(R.names["h100"])
    return (f"Priced with failures and repairs, {gb200} must train {times(R['gb200_breakeven_speedup_with_downtime'])} "
            f"faster per GPU, not {times(R['gb200_breakeven_speedup'])}: it trains "
            f"{percent(R['gb200_useful_frac'])} of its paid hours against {h100}'s {percent(R['h100_useful_frac'])} "
            f"({count(R['job_gpus'])}-GPU job).")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["gb200_breakeven_speedup", "gb200_breakeven_speedup_with_downtime", "h100_useful_frac", "gb200_useful_frac"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
