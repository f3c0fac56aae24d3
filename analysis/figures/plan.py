"""Figures and reader tables of the plan chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (``analysis.chapters.plan``)."""

from __future__ import annotations

import numpy as np

from analysis import notebook  # notebook.glue, looked up when called (tests replace it)
from analysis.formatting import flop
from analysis.plots import PALETTE, add_source, new_figure
from analysis.tables import markdown_table, pct


def _fmt(value: float) -> str:
    return f"{value:.3g}" if abs(value) < 100 else f"{value:,.0f}"


def backtest_table(E) -> str:
    """Markdown: each published outcome against the planner's prediction, its band and its error."""
    t = E.tables["backtest"]
    rows = [[r.name, r.outcome, _fmt(r.published), _fmt(r.predicted), f"{_fmt(r.p10)}-{_fmt(r.p90)}",
             f"{r.error_frac * 100:+.0f} %", f"{r.throughput}, MFU {pct(r.mfu, 0)}"] for r in t.itertuples()]
    return markdown_table(["Run", "Outcome", "Published", "Predicted", "P10-P90", "Error", "Throughput"], rows, "llrrrrl")


def glue_flops(E) -> None:
    """Glue the walkthrough's FLOP counts written for people ('3.94 × 10²⁵'), not in e-notation."""
    p = "plan_llama31_405b"
    notebook.glue(p + "_flops_per_token_text", flop(E[p + "_flops_per_token"], ""), display=False)
    notebook.glue(p + "_total_flop_text", flop(E[p + "_total_flop"], ""), display=False)


def walkthrough_table(E) -> str:
    """Markdown: the planner's steps for Llama 3.1 405B."""
    p = "plan_llama31_405b"
    steps = [("FLOPs per token (6N + 12Lhs)", flop(E[p + "_flops_per_token"], "")),
             ("FLOPs of the run", flop(E[p + "_total_flop"], "")),
             ("Throughput: published TFLOP/s per GPU, model FLOPs", f"{E[p + '_achieved_tflops']:,.0f}"),
             ("= MFU", pct(E[p + "_mfu_frac"])),
             ("= tokens/s/GPU", f"{E[p + '_tokens_per_s_per_gpu']:,.0f}"),
             ("Days without failures", f"{E[p + '_days']:.1f}"),
             ("Job MTBF (hours)", f"{E[p + '_job_mtbf_hours']:.2f}"),
             ("Checkpoint interval (minutes)", f"{E[p + '_checkpoint_interval_min']:.1f}"),
             ("Goodput", pct(E[p + "_goodput"])),
             ("Days with failures", f"{E[p + '_days_with_failures']:.1f}"),
             ("GPU-hours paid", f"{E[p + '_gpu_hours']:,.0f}"),
             ("Cost at the book's H100 TCO (USD)", f"{E[p + '_cost_usd']:,.0f}"),
             ("Energy at the meter (MWh)", f"{E[p + '_energy_mwh']:,.0f}"),
             ("Household-years", f"{E[p + '_household_years']:,.0f}"),
             ("CO2 (t)", f"{E[p + '_co2_t']:,.0f}")]
    return markdown_table(["Step", "Llama 3.1 405B, 15T tokens, 16,384 H100"], steps, "lr")


def backtest(E):
    """Predicted against published, every outcome on one log-log chart, with the P10-P90 band."""
    t = E.tables["backtest"]
    fig, ax = new_figure("Backtest: the planner against published training runs",
                         "Published (each outcome in its own unit)", "Predicted")
    colours = {"published": PALETTE["blue"], "estimated": PALETTE["vermillion"]}
    for kind, group in t.groupby("throughput"):
        ax.errorbar(group["published"], group["predicted"],
                    yerr=[group["predicted"] - group["p10"], group["p90"] - group["predicted"]],
                    fmt="o", color=colours[kind], ms=5, lw=1, label=f"throughput {kind}")
        for r in group.itertuples():
            ax.annotate(f"{r.run_id}: {r.outcome}", (r.published, r.predicted), xytext=(4, -3),
                        textcoords="offset points", fontsize=6)
    lo, hi = t[["published", "p10"]].min().min() / 2, t[["published", "p90"]].max().max() * 2
    line = np.geomspace(lo, hi, 10)
    ax.plot(line, line, color=PALETTE["black"], lw=1, ls="--", label="prediction = published")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.legend(fontsize=8, loc="upper left")
    add_source(fig, "data/backtest_runs.csv: Narayanan et al. 2021, OPT logbook, BigScience/GENCI, Llama 3.1 model card, "
                    "DeepSeek-V3 report; predictions: analysis.planner at the book's defaults.")
    return fig

ANSWER = ["plan_llama31_405b_days_with_failures", "plan_llama31_405b_cost_usd", "plan_llama31_405b_energy_mwh", "plan_backtest_runs_count", "plan_backtest_median_abs_error_frac"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
