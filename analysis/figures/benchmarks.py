"""Figures, reader tables and prose numbers of the benchmarks chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (:func:`analysis.chapters.benchmarks.compute`)."""

from __future__ import annotations

import matplotlib.ticker as mticker
from matplotlib.lines import Line2D

from analysis.chapters.benchmarks import DENSE, PRECISIONS, RELEASE, SA, model_names
from analysis.data.load import fact
from analysis.page import notebook  # notebook.glue, looked up when called (tests replace it)
from analysis.page.formatting import count, flop, times
from analysis.page.names import gpu_name, gpu_short_name, source_link
from analysis.page.plots import PALETTE, add_source, bar_labels_above, new_figure
from analysis.page.tables import interactive_table, markdown_table, pct, rate, usd

COLOUR = dict(zip(DENSE, (PALETTE["blue"], PALETTE["orange"], PALETTE["green"], PALETTE["vermillion"]), strict=True))
STYLE = {"bf16": "-", "fp8": "--"}

# (result key, report fact) pairs the chapter sets side by side, section by section.
COMPARED = {
    "drop": [("llama31_70b_fp8_mfu_relative_drop_64_to_2048_frac", "A39_sa_stated_drop"),
             ("llama31_70b_fp8_mfu_2048_nvidia", "A39_70b_fp8_mfu_2048")],
    "cost": [("llama31_405b_bf16_usd_per_million_tokens_2304", "A34_405b_bf16_cost_per_1m"),
             ("llama31_405b_to_70b_bf16_cost_ratio", "A42_cost_ratio"),
             ("llama31_405b_to_70b_param_ratio", "A42_param_ratio")],
    "gb200": [("gb200_vs_h100_deepseek_v3_bf16_throughput_ratio", "A49_deepseek_ratio"),
              ("gb200_vs_h100_llama4_maverick_bf16_throughput_ratio", "A50_maverick_bf16_ratio"),
              ("gb200_vs_h100_llama4_maverick_fp8_throughput_ratio", "A50_maverick_fp8_ratio"),
              ("gb200_vs_h100_llama31_405b_bf16_throughput_ratio", "A51_bf16_ratio_vs_h100"),
              ("gb200_vs_h100_llama31_405b_fp8_throughput_ratio", "A51_fp8_ratio_vs_h100")],
}

FACTS = ("A01_gpus_total", "A01_gpus_min", "A01_gpus_max", "A01_gpus_max_405b", "A02_ib_links_per_node",
         "A02_ib_gbps_per_link", "A13_h100_usd_per_gpu_hour", "A12_tco_ratio", "A39_sa_stated_drop")


def model_name(model_id: str) -> str:
    """The reader-facing name of a model id (``data/models.csv``)."""
    return model_names()[model_id]


def gpu_axis(ax, ticks) -> None:
    """Log-2 GPU-count axis with the sizes that were measured as ticks."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(mticker.FixedLocator(ticks))
    ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.xaxis.set_minor_locator(mticker.NullLocator())


def glue_prose(E) -> None:
    """Glue what the prose prints in its own units: fractions as percentages (``<key>_pct``) and
    the words of the GB200 verdict."""
    for key, q in E.quantities.items():
        if q.unit == "fraction":
            notebook.glue(f"{key}_pct", q.value * 100)
    notebook.glue("fact_A39_sa_stated_drop_pct", fact("A39_sa_stated_drop") * 100)
    notebook.glue("llama31_70b_flop_per_token_text", flop(E["llama31_70b_flop_per_token"], "", digits=4))
    deepseek = E["gb200_vs_h100_deepseek_v3_bf16_perf_per_tco_ratio"]
    notebook.glue("deepseek_verdict", f"{abs(1 / deepseek - 1) * 100:.0f} % {'more' if deepseek < 1 else 'less'}")
    notebook.glue("deepseek_side", "short of" if deepseek < 1 else "past")
    for key in ("typo_gpus", "llama4_maverick_gb200_bf16_mfu_printed_pct",  # absent when a changed tolerance
                "llama4_maverick_gb200_bf16_mfu_against_bf16_peak_pct",  # finds no misprint or no MoE miss
                "moe_conversion_miss_min_frac_pct", "moe_conversion_miss_max_frac_pct"):
        if key.removesuffix("_pct") not in E:
            notebook.glue(key, 0.0)
    n_dense = int(E["conversion_dense_failures_count"])
    notebook.glue("dense_clause", "including every dense-model row on both GPU types" if n_dense == 0 else
         f"but {n_dense} of them are dense-model rows")


def inventory_table(E) -> str:
    rows = [[source_link(r.source_id), r.publisher, r.dates, r.models,
             f"{r.gpus_min:,}-{r.gpus_max:,}", r.rows] for r in E.tables["sources"].itertuples()]
    return markdown_table(["Source", "Publisher", "Release date", "Models", "GPUs", "Rows"], rows, "llllrr")


def conventions_table(E) -> str:
    rows = [[r.convention, flop(r.flops_per_token, ""), pct(r.mfu)] for r in E.tables["flop_conventions"].itertuples()]
    return markdown_table(["FLOPs counted per token", "FLOP/token", "\"MFU\""], rows, "lrr")


def _legend_handles(with_sa: bool) -> list:
    names = model_names()
    handles = [Line2D([], [], color=COLOUR[m], label=names[m]) for m in DENSE]
    handles += [Line2D([], [], color="grey", ls=STYLE[p], label=p.upper()) for p in PRECISIONS]
    if with_sa:
        handles += [Line2D([], [], color="grey", marker="s", mfc="none", ls="none", label="SemiAnalysis's text")]
    return handles


def _sweep_ticks(points) -> list[int]:
    """The powers of two among the measured GPU counts."""
    return sorted(g for g in set(points.loc[points["source_id"] == RELEASE, "gpus"]) if g & (g - 1) == 0)


def mfu_figure(E):
    """MFU against GPU count, NVIDIA's v25.02 sweeps (lines) and SemiAnalysis's stated points."""
    points = E.tables["sweeps"]
    fig, ax = new_figure("MFU against cluster size, H100, NVIDIA DGXC v25.02", "GPUs (log scale)",
                         "MFU (% of dense peak)", figsize=(7.0, 6.0))
    for (model_id, precision, source_id), s in points.groupby(["model_id", "precision", "source_id"]):
        if source_id == SA:
            ax.plot(s["gpus"], s["mfu"] * 100, "s", mfc="none", ms=7, color=COLOUR[model_id])
        else:
            ax.plot(s["gpus"], s["mfu"] * 100, STYLE[precision], marker="o", ms=3, color=COLOUR[model_id])
    gpu_axis(ax, _sweep_ticks(points))
    ax.legend(handles=_legend_handles(True), ncol=2, loc="upper center", bbox_to_anchor=(0.45, -0.2))
    fig.subplots_adjust(bottom=0.36)
    ax.set_ylim(0, 70)
    add_source(fig, "NVIDIA dgxc-benchmarking v25.02 tables (EOS H100); SemiAnalysis 2025 text (squares).")
    return fig


def throughput_figure(E):
    """Tokens/s per GPU against GPU count, NVIDIA's v25.02 sweeps."""
    points = E.tables["sweeps"]
    fig, ax = new_figure("Throughput per GPU against cluster size, H100", "GPUs (log scale)",
                         "Tokens/s per GPU (log scale)", figsize=(7.0, 6.6))
    nv = points[points["source_id"] == RELEASE]
    for (model_id, precision), s in nv.groupby(["model_id", "precision"]):
        ax.plot(s["gpus"], s["tokens_per_s_per_gpu"], STYLE[precision], marker="o", ms=3, color=COLOUR[model_id])
    gpu_axis(ax, _sweep_ticks(points))
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(mticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(mticker.FuncFormatter(lambda y, _: f"{y:,.0f}"))
    ax.yaxis.set_minor_formatter(mticker.NullFormatter())
    ax.legend(handles=_legend_handles(False), ncol=2, loc="upper center", bbox_to_anchor=(0.45, -0.2))
    fig.subplots_adjust(bottom=0.38)
    add_source(fig, "NVIDIA dgxc-benchmarking v25.02 tables (EOS H100).")
    return fig


def headline_table(E) -> str:
    """The release SemiAnalysis used, smallest and largest cluster of each sweep, priced."""
    rows = [[model_name(r.model_id), r.precision.upper(), f"{r.gpus:,}", pct(r.mfu), rate(r.tokens_per_s_per_gpu),
             usd(r.usd_per_million_tokens)] for r in E.tables["headline"].itertuples()]
    return markdown_table(["Model", "Precision", "GPUs", "MFU", "Tokens/s/GPU", "USD per 1M tokens"], rows, "llrrrr")


def every_row_table(E):
    """Every benchmark row with its cost per 1M tokens, as a table readers sort and filter
    (:func:`analysis.page.tables.interactive_table`, served from the book)."""
    return interactive_table(E.tables["priced"], {
        "model_id": ("Model", model_name), "gpu_id": ("GPU", gpu_name), "precision": ("Precision", str.upper),
        "gpus": ("GPUs", count), "software": "Release", "mfu": ("MFU", pct),
        "tokens_per_s_per_gpu": ("Tokens/s/GPU", rate), "basis": "Basis",
        "usd_per_million_tokens": ("USD per 1M tokens", usd)},
        caption="Every benchmark row with its cost per 1M tokens", table_id="bench-every-row",
        key=[])  # a reference: the prose reads none of its rows, so all wait behind the filter and the fold


def _gb200_label(r) -> str:
    return f"{model_name(r.model_id)} {r.precision.upper()}"


def gb200_table(E) -> str:
    rows = [[_gb200_label(r), f"{r.gb200_gpus:,} ({r.gb200_software})", rate(r.gb200_tokens_per_s_per_gpu),
             f"{r.h100_gpus:,} ({r.h100_software})", rate(r.h100_tokens_per_s_per_gpu), f"{r.throughput_ratio:.2f}x",
             f"{r.perf_per_tco_ratio:.2f}x", usd(r.gb200_usd_per_million_tokens), usd(r.h100_usd_per_million_tokens)]
            for r in E.tables["gb200"].itertuples()]
    return markdown_table(["Model", "GB200 GPUs (release)", "GB200 tok/s/GPU", "H100 GPUs (release)", "H100 tok/s/GPU",
                           "GB200 / H100", "Per TCO dollar", "GB200 USD per 1M", "H100 USD per 1M"], rows, "llrlrrrrr",
                          columns=["Model", "GB200 tok/s/GPU", "H100 tok/s/GPU", "GB200 / H100", "Per TCO dollar",
                                   "GB200 USD per 1M", "H100 USD per 1M"],
                          name="gb200", title="GB200 NVL72 against H100 in NVIDIA's tables")


def gb200_figure(E):
    """GB200 / H100 per-GPU throughput ratios against the TCO break-even: each model's name and
    ratio above its bar, the break-even named on the axis."""
    table = E.tables["gb200"]
    tco_ratio = E["gb200_breakeven_speedup"]
    labels = [f"{_gb200_label(r)}: {times(r.throughput_ratio)}" for r in table.itertuples()]
    ratios = table["throughput_ratio"].tolist()
    fig, ax = new_figure("GB200 NVL72 against H100, per-GPU throughput",
                         f"GB200 / H100 tokens/s per GPU\n(dashed: the break-even, the TCO ratio {times(tco_ratio)})",
                         "", figsize=(7.0, 1.8 + 1.0 * len(ratios)))
    ax.barh(range(len(ratios)), ratios, 0.35,
            color=[PALETTE["green"] if r >= tco_ratio else PALETTE["vermillion"] for r in ratios])
    ax.axvline(tco_ratio, color=PALETTE["black"], ls="--", lw=1)
    ax.axvline(1.0, color="grey", lw=0.8)
    ax.set_ylim(len(ratios) - 0.5, -0.9)  # first row on top, room for its name
    ax.set_xlim(0, max(ratios) * 1.08)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:g}x")
    bar_labels_above(ax, labels)
    ax.grid(axis="y", visible=False)
    add_source(fig, "NVIDIA dgxc-benchmarking v25.05 (GB200 NVL72, H100) and v25.04 (H100 Llama 3.1 405B); "
                    "break-even = the TCO chapter's GB200/H100 TCO ratio.")
    return fig


def failures_table(E) -> str:
    """The rows whose printed MFU does not follow from their throughput, with the likely reason."""
    t = E.tables["conversion_failures"]
    rows = [[model_name(r.model_id), gpu_name(r.gpu_id), r.precision.upper(), f"{r.gpus:,}", pct(r.mfu_reported, 2),
             pct(r.mfu_reproduced, 2), f"{r.ratio:.3f}", flop(r.publisher_flops_per_token, ""),
             flop(r.flops_per_token, ""), r.diagnosis] for r in t.itertuples()]
    # in view: the first row of each model and reason, the rows the prose explains; the rest fold
    key = (~t.duplicated(["model_id", "diagnosis"])).to_numpy()
    return markdown_table(["Model", "GPU", "Precision", "GPUs", "Printed MFU", "Reproduced MFU", "Ratio",
                           "Publisher FLOP/token", "6N+12Lhs FLOP/token", "Likely reason"], rows, "lllrrrrrrl",
                          key=key, columns=["Model", "GPU", "Precision", "GPUs", "Printed MFU", "Reproduced MFU",
                                   "Publisher FLOP/token", "Likely reason"],
                          name="conversion_failures", title="rows whose printed MFU does not follow from their throughput")


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    ref, low = R.names["reference_model"], R.names["slowest_model"]
    return (f"On NVIDIA's own tables {gpu_short_name(R.names['gb200'])} trains {model_name(ref)} (BF16) "
            f"{times(R[f'gb200_vs_h100_{ref}_bf16_throughput_ratio'])} faster per GPU than "
            f"{gpu_short_name(R.names['h100'])}, but {model_name(low)} only "
            f"{times(R['slowest_gb200_vs_h100_throughput_ratio'])}; the book's one FLOP count makes every row's MFU "
            "comparable.")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["llama31_405b_bf16_tokens_per_s_per_gpu_2304", "llama31_405b_bf16_usd_per_million_tokens_2304", "gb200_vs_h100_llama31_405b_bf16_throughput_ratio", "conversion_failures_count"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
