"""Figures, reader tables and prose numbers of the scaling chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (:func:`analysis.chapters.scaling.compute`)."""

from __future__ import annotations

import matplotlib.ticker as mticker
import pandas as pd

from analysis.chapters.benchmarks import model_names
from analysis.data.load import fact
from analysis.figures.benchmarks import gpu_axis
from analysis.page import notebook  # notebook.glue, looked up when called (tests replace it)
from analysis.page.formatting import money, percent, times
from analysis.page.names import model_name
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure
from analysis.page.tables import markdown_table, pct

COMPARED = {"weak": [("llama31_405b_fp8_mfu_2304", "A32_405b_fp8_mfu"),
                     ("llama31_405b_bf16_mfu_2304", "A32_405b_bf16_mfu")]}
FACTS = ("A41_tp", "A41_pp", "A41_cp", "A32_405b_fp8_mfu", "A32_405b_bf16_mfu", "A39_sa_stated_drop")


def glue_prose(E, P) -> None:
    """Glue what the prose prints in its own units: fractions as percentages (``<key>_pct``),
    run costs in millions (``_m``) and thousands (``_k``), and the strong-scaling model's name."""
    for key, q in E.quantities.items():
        if q.unit == "fraction":
            notebook.glue(f"{key}_pct", q.value * 100)
        if q.unit.startswith("USD") and q.value >= 1e5:
            notebook.glue(f"{key}_m", q.value / 1e6)
        if q.unit == "USD per day":
            notebook.glue(f"{key}_k", q.value / 1e3)
    for fact_id in ("A39_sa_stated_drop", "A32_405b_fp8_mfu", "A32_405b_bf16_mfu"):
        notebook.glue(f"fact_{fact_id}_pct", fact(fact_id) * 100)
    notebook.glue("llama3_train_tokens_t", E["llama3_train_tokens"] / 1e12)
    notebook.glue("strong_name", model_names()[P.strong_model])
    notebook.glue("strong_precision_text", P.strong_precision.upper())


def _degree(x) -> str:
    return "—" if pd.isna(x) else f"{int(x)}"


def weak_table(E) -> str:
    """NVIDIA's v25.02 weak-scaling sweeps: layout, batch per GPU, sizes, MFU and efficiency."""
    names = model_names()
    rows = [[names[w.model_id], w.precision.upper(), " / ".join(_degree(d) for d in (w.tp, w.pp, w.cp, w.vp)),
             f"{w.sequences_per_gpu_per_step:g}", f"{w.gpus_small:,} → {w.gpus_large:,}",
             f"{pct(w.mfu_small)} → {pct(w.mfu_large)}", pct(w.efficiency), pct(w.mfu_drop)]
            for w in E.tables["weak"].itertuples()]
    return markdown_table(["Model", "Precision", "TP / PP / CP / VP", "Sequences per GPU per step", "GPUs", "MFU",
                           "Weak-scaling efficiency", "Relative MFU drop"], rows, "llrrrrrr")


def _title(E, P) -> str:
    return f"{model_names()[P.strong_model]} {P.strong_precision.upper()}"


def efficiency_figure(E, P):
    """Strong-scaling efficiency (model) against the measured weak-scaling sweep of the same run."""
    curve, measured = E.tables["strong"], E.tables["strong_reference_sweep"]
    ref_gpus, top = E["strong_ref_gpus"], E["strong_max_gpus_used"]
    block = E["strong_marginal_block_gpus"]
    fig, ax = new_figure(f"Scaling efficiency of {_title(E, P)} on H100", "GPUs (log scale)",
                         "Efficiency (% of linear scaling)")
    ax.plot(curve["gpus"], curve["efficiency"] * 100, color=PALETTE["vermillion"],
            label=f"strong scaling, model (global batch fixed at {E['strong_global_batch_sequences']:,.0f} sequences)")
    ax.plot(measured["gpus"], measured["tokens_per_s_per_gpu"] / E["strong_ref_tokens_per_s_per_gpu"] * 100, "o-",
            color=PALETTE["blue"], label="weak scaling, measured (NVIDIA v25.02)")
    ax.axvspan(E["strong_last_block_start_gpus"], top, color=PALETTE["vermillion"], alpha=0.08,
               label=f"the last {block:,.0f} GPUs")
    gpu_axis(ax, [int(ref_gpus * 2 ** k) for k in range(20) if ref_gpus * 2 ** k <= top])
    ax.set_ylim(0, 105)
    legend_above(ax)  # beside the chart it would cover the curves a phone's text size leaves room for
    add_source(fig, f"measured step from NVIDIA dgxc-benchmarking v25.02; model: compute/N + pipeline bubble + "
                    f"ring all-reduce at {P.backend_gbps:,.0f} Gbit/s, {P.grad_bytes_per_param:g} bytes per gradient.")
    return fig


def cost_figure(E, P):
    """Run cost against days to train, one point per cluster size; the last block drawn thick."""
    curve = E.tables["strong"]
    at = curve.set_index("gpus")
    last_start, top = E["strong_last_block_start_gpus"], E["strong_max_gpus_used"]
    first_end = E["strong_ref_gpus"] + E["strong_marginal_block_gpus"]
    fig, ax = new_figure(f"Time against money: a {P.llama3_train_tokens / 1e12:.0f}T-token {_title(E, P)} run",
                         "Days to train (log scale)", "Run cost (million USD)")
    ax.plot(curve["days"], curve["cost_usd"] / 1e6, color=PALETTE["blue"], lw=1.5)
    tail = curve[curve["gpus"] >= last_start]
    ax.plot(tail["days"], tail["cost_usd"] / 1e6, color=PALETTE["vermillion"], lw=3,
            label=f"the last {E['strong_marginal_block_gpus']:,.0f} GPUs")
    labelled = [E["strong_ref_gpus"], last_start, top]
    if first_end in at.index and min(abs(first_end - n) for n in labelled) > 0.2 * first_end:  # no overlaps
        labelled.append(first_end)
    for n in sorted(set(labelled)):
        ax.plot(at.loc[n, "days"], at.loc[n, "cost_usd"] / 1e6, "o", color=PALETTE["black"], ms=4)
        ax.annotate(f"{n:,.0f} GPUs", (at.loc[n, "days"], at.loc[n, "cost_usd"] / 1e6), xytext=(5, -10),
                    textcoords="offset points", fontsize=8)
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(mticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.xaxis.set_minor_formatter(mticker.NullFormatter())
    ax.set_ylim(0, curve["cost_usd"].max() / 1e6 * 1.15)
    ax.legend(fontsize=8, loc="upper right")
    add_source(fig, f"strong-scaling model above; {P.llama3_train_tokens / 1e12:g}T tokens; "
                    f"${E['h100_tco_usd_per_gpu_hour']:.2f} per H100-hour (the TCO chapter's H100 TCO, this build).")
    return fig


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"Adding GPUs to one fixed run buys speed at a falling rate: at the largest size it runs "
            f"{times(R['strong_speedup_at_max_ratio'])} faster at {percent(R['strong_efficiency_at_max_frac'])} "
            f"strong-scaling efficiency and costs {money(R['strong_run_cost_at_max_usd'])} "
            f"({model_name(R.names['model'])} {R.parameters['strong_precision'].upper()}, NVIDIA's tables).")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["llama31_405b_fp8_mfu_2304", "strong_efficiency_at_max_frac", "strong_speedup_at_max_ratio", "strong_run_cost_at_max_usd"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
