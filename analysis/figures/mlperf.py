"""Figures, reader tables and prose numbers of the MLPerf chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (:func:`analysis.chapters.mlperf.compute`)."""

from __future__ import annotations

import numpy as np

from analysis.chapters.atlas import SHORT
from analysis.chapters.mlperf import _tier_column
from analysis.page.formatting import count, money, percent
from analysis.page.names import model_name
from analysis.page.notebook import glue
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure
from analysis.page.tables import interactive_table, markdown_table, pct, usd
from analysis.prices import TIERS

BENCHMARKS = {"gpt3": "GPT-3 175B", "llama2_70b_lora": "Llama 2 70B LoRA", "llama31_405b": "Llama 3.1 405B",
              "llama31_8b": "Llama 3.1 8B", "deepseekv3_671b": "DeepSeek-V3", "gpt_oss_20b": "GPT-OSS 20B"}
SERIES_COLOUR = [PALETTE[c] for c in ("green", "blue", "vermillion", "orange", "purple", "sky", "black", "yellow")]
TIER_MARKER = {"on-demand": "o", "neocloud list": "s", "market range": "D", "spot/flex": "v", "1-year": "^",
               "3-year": "P", "owning (SemiAnalysis model)": "X", "owning (the book's TCO)": "*"}


def glue_prose(E) -> None:
    """Glue fractions and ratios as percentages (``_pct``)."""

    for key, q in E.quantities.items():
        if q.unit in ("fraction", "ratio"):
            glue(f"{key}_pct", q.value * 100)


def _org(name) -> str:
    """A submitter as MLPerf's logs spell it, for readers: 'Quanta_Cloud_Technology' -> 'Quanta Cloud Technology'."""
    return str(name).replace("_", " ")


def _name(gpu_id) -> str:
    return SHORT.get(gpu_id, "unregistered") if isinstance(gpu_id, str) else "unregistered"


def scaling_figure(E, benchmark: str = "llama31_405b"):
    """GPU-hours to target against system size for ``benchmark``: one line per accelerator and round
    (the fastest result at each size), flat for perfect strong scaling."""
    res = E.tables["results"]
    res = res[(res["benchmark"] == benchmark) & res["gpu_id"].notna()]
    fig, ax = new_figure(f"{BENCHMARKS[benchmark]}: GPU-hours to the target by system size", "accelerators (log scale)",
                         "GPU-hours to target", figsize=(7.0, 6.4))
    for i, ((gpu_id, round_), g) in enumerate(res.groupby(["gpu_id", "round"])):
        best = g.loc[g.groupby("accelerators")["score_minutes"].idxmin()].sort_values("accelerators")
        ax.plot(best["accelerators"], best["gpu_hours"], marker="o", color=SERIES_COLOUR[i % len(SERIES_COLOUR)],
                label=f"{_name(gpu_id)} {round_}")
    ax.set_xscale("log", base=2)
    ax.set_ylim(bottom=0)
    legend_above(ax, ncols=2)
    add_source(fig, "MLPerf Training v5.0 and v5.1 result logs (mlcommons/training_results), scored by MLPerf's rule.",
               y=-0.01)
    return fig


def tiers_figure(E):
    """Price per accelerator-hour at every tier of the ladder, one row per accelerator, log scale."""
    ladder = E.tables["ladder"]
    gpus = sorted(ladder["gpu_id"].unique(), key=lambda g: ladder[ladder["gpu_id"] == g]["usd_per_gpu_hour"].max())
    fig, ax = new_figure("Price per accelerator-hour, by tier", "USD per accelerator-hour (log scale)", "",
                         figsize=(7.0, 2.8 + 0.42 * len(gpus)))
    y = {g: i for i, g in enumerate(gpus)}
    for j, tier in enumerate(TIERS):
        rows = ladder[ladder["tier"] == tier]
        if rows.empty:
            continue
        ax.scatter(rows["usd_per_gpu_hour"], [y[g] for g in rows["gpu_id"]], marker=TIER_MARKER[tier], s=42,
                   color=SERIES_COLOUR[j % len(SERIES_COLOUR)], label=tier, zorder=3)
    ax.set_yticks(range(len(gpus)), [_name(g) for g in gpus])
    ax.set_xscale("log")
    ax.grid(axis="y", alpha=0.3)
    legend_above(ax, ncols=2)
    add_source(fig, "data/cloud_prices.csv (tier, date and evidence per row); the book's TCO from the TCO chapter.",
               y=-0.01)
    return fig


def headline_table(E) -> str:
    """The fastest Llama 3.1 405B result of v5.1 at each tier."""
    top = E.tables["results"]
    top = top[(top["benchmark"] == "llama31_405b") & (top["round"] == "v5.1")].sort_values("score_minutes").iloc[0]
    ladder = E.tables["ladder"].set_index(["gpu_id", "tier"])
    body = []
    for tier in TIERS:
        if (top["gpu_id"], tier) not in ladder.index:
            continue
        row = ladder.loc[(top["gpu_id"], tier)]
        body.append([tier, usd(row["usd_per_gpu_hour"]), row["evidence"], money(top[_tier_column(tier)])])
    return markdown_table(["tier", "$ per GPU-hour", "evidence", "cost of the result"], body, "lrlr")


def ladder_table(E) -> str:
    """Every accelerator's price at each tier, with its evidence class and date."""
    ladder = E.tables["ladder"]
    body = [[_name(r.gpu_id), r.tier, usd(r.usd_per_gpu_hour) + (" (stand-in)" if r.proxy else ""),
             r.evidence, r.period or "this build"] for r in ladder.itertuples()]
    return markdown_table(["accelerator", "tier", "$ per hour", "evidence", "period"], body, "llrll",
                          key=ladder["gpu_id"].isin(PROSE_LADDER).to_numpy(), name="ladder",
                          title="every accelerator's price at each tier")


PROSE_LADDER = ("gb200_nvl72", "tpu7x_ironwood")  # the ladder rows the prose reads; the others fold


def spread_table(E) -> str:
    s = E.tables["spread"]
    body = [[_name(r.gpu_id), count(r.tiers), f"{usd(r.dearest_usd)} ({r.dearest_tier})",
             f"{usd(r.cheapest_usd)} ({r.cheapest_tier})", f"{r.spread_ratio:.1f}x"] for r in s.itertuples()]
    return markdown_table(["accelerator", "tiers", "dearest", "cheapest", "spread"], body, "lrllr")


HEADLINE = ("llama31_405b", "v5.1")  # the benchmark and round the chapter's prose reads first


def _headline_rows(frame):
    """The rows the prose reads (Llama 3.1 405B, v5.1), shown; a table's other rows fold."""
    return ((frame["benchmark"] == HEADLINE[0]) & (frame["round"] == HEADLINE[1])).to_numpy()


def scaling_table(E):
    """Every step up in size of the pretraining benchmarks, sortable, with software and submitter."""
    s = E.tables["scaling"]
    s = s[s["benchmark"] != "llama2_70b_lora"].sort_values(["benchmark", "gpu_id", "round", "accelerators_from"]).copy()
    s["name"] = s["benchmark"].map(BENCHMARKS)
    s["accelerator"] = s["gpu_id"].map(_name)
    s["size"] = [f"{a:,} → {b:,}" for a, b in zip(s["accelerators_from"], s["accelerators_to"], strict=True)]
    s["hours"] = [f"{a:,.0f} → {b:,.0f}" for a, b in zip(s["gpu_hours_from"], s["gpu_hours_to"], strict=True)]
    s["software"] = [a if a == b else f"{a} → {b}" for a, b in zip(s["framework_from"], s["framework_to"], strict=True)]
    s["by"] = [_org(a) if a == b else f"{_org(a)} → {_org(b)}" for a, b in zip(s["submitter_from"], s["submitter_to"],
                                                                           strict=True)]
    return interactive_table(s, {"name": "benchmark", "accelerator": "accelerator", "round": "round", "size": "GPUs",
                                 "hours": "GPU-hours", "efficiency_per_doubling": ("per doubling", pct),
                                 "by": "submitter", "software": "software"},
                             caption="Each step up in system size, same accelerator and round",
                             numeric=("efficiency_per_doubling",), table_id="mlperf-scaling",
                             key=_headline_rows(s))


def cross_vendor_table(E):
    """Vendors side by side: same benchmark, size and round; each accelerator's fastest, sortable."""
    c = E.tables["cross_vendor"].copy()
    c["name"] = c["benchmark"].map(BENCHMARKS)
    c["accelerator_name"] = c["gpu_id"].map(_name)
    c["list"] = ["no price" if np.isnan(u) else f"{money(u)} ({t})" for u, t in zip(c["usd_list"], c["list_tier"], strict=True)]
    return interactive_table(c, {
        "name": "benchmark", "round": "round", "accelerators": ("size", count), "accelerator_name": "accelerator",
        "submitter": ("submitter", _org), "gpu_hours": ("GPU-hours", lambda v: f"{v:,.1f}"), "list": "$ at list price (tier)",
        "mwh_all_in": ("MWh all-in", lambda v: f"{v:.3g}")},
        caption="Two or more vendors, same benchmark, size and round", numeric=("accelerators",),
        table_id="mlperf-cross-vendor", key=_headline_rows(c))


def power_table(E) -> str:
    p = E.tables["power"]
    pue = E["mlperf_pue"]
    body = [[BENCHMARKS[r.benchmark], r.round, r.submitter, f"{r.accelerators:,}", f"{r.mwh_measured:.3g}",
             r.energy_scope, f"{r.mwh_all_in / pue:.3g}", f"{r.mwh_all_in:.3g}", f"{r.mwh_tdp:.3g}"]
            for r in p.itertuples()]
    return markdown_table(["benchmark", "round", "submitter", "accelerators", "MWh measured", "measured at",
                           "MWh estimate, IT", "MWh estimate, x PUE", "MWh at chip TDP"], body, "lllrrlrrr",
                          columns=["benchmark", "round", "submitter", "accelerators", "MWh measured", "measured at",
                                   "MWh estimate, IT"],  # what the prose compares; the other bases fold
                          name="power", title="MLPerf Power's measured energy against the book's estimates")


def planner_table(E):
    """The planner's time to target against MLPerf's score, per pretraining result, sortable."""
    p = E.tables["planner"]
    p = p[p["error_frac"].notna()].sort_values(["benchmark", "gpu_id", "accelerators"]).copy()
    p["name"] = p["benchmark"].map(BENCHMARKS)
    p["accelerator"] = p["gpu_id"].map(_name)
    p["reference"] = ["interpolated" if inside else "nearest" for inside in p["batch_within_reference"]]
    return interactive_table(p, {
        "name": "benchmark", "round": "round", "accelerator": "accelerator", "accelerators": ("GPUs", count),
        "tokens_to_target": ("tokens to target (B)", lambda v: f"{v / 1e9:.2f}"),
        "mfu": ("planner MFU", pct), "score_minutes": ("MLPerf minutes", lambda v: f"{v:,.1f}"),
        "predicted_minutes": ("planner minutes", lambda v: f"{v:,.1f}"), "error_frac": ("error", lambda v: percent(v, 0))},
        caption="The planner against MLPerf, pretraining results", numeric=("accelerators",),
        table_id="mlperf-planner", key=_headline_rows(p))


def results_table(E):
    """Every result, sortable and filterable; the Llama 3.1 405B results of v5.1 first, the others behind
    the fold."""
    res = E.tables["results"].copy()
    res["what"] = [f"{BENCHMARKS[b]}, {r}" for b, r in zip(res["benchmark"], res["round"], strict=True)]
    return interactive_table(res, {
        "what": "benchmark, round", "submitter": ("submitter", _org),
        "accelerator": "accelerator", "accelerators": ("count", count),
        "score_minutes": ("minutes", lambda v: f"{v:,.2f}"), "gpu_hours": ("GPU-hours", lambda v: f"{v:,.1f}"),
        "usd_on_demand": ("$ on-demand", money), "usd_owning_SemiAnalysis_model": ("$ owning (SemiAnalysis)", money)},
        caption="MLPerf Training LLM results v4.0-v5.1, scored by MLPerf's rule (systems, software, energy, log "
                "folders and the 3-year tier: the CSV below)", numeric=("accelerators",), table_id="mlperf-results",
        key=_headline_rows(res))


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"The fastest MLPerf {R.names['fastest_round']} {model_name(R.names['fastest_model'])} result took "
            f"{count(R['mlperf_405b_fastest_gpu_hours'])} GPU-hours, {money(R['mlperf_405b_fastest_usd_on_demand'])} at "
            f"on-demand prices and {money(R['mlperf_405b_fastest_usd_sa_owning'])} at SemiAnalysis's modelled cost of "
            f"owning ({money(R['mlperf_405b_fastest_usd_book_tco'])} at the book's own TCO): the price tier, not the "
            "benchmark, sets the bill.")


def answer_labels(R) -> dict[str, str]:
    """The box's labels that must say whose price or which runs a figure stands on."""
    return {"mlperf_405b_fastest_usd_sa_owning":
            f"Its cost at SemiAnalysis's modelled cost of owning a GB200, "
            f"{money(R['mlperf_gb200_usd_per_gpu_hour_sa_owning'])} per GPU-hour",
            "mlperf_405b_fastest_usd_book_tco":
            f"Its cost at the book's own TCO of a GB200, {money(R['mlperf_gb200_usd_per_gpu_hour_book_tco'])} per GPU-hour",
            "mlperf_planner_median_abs_error_frac":
            f"Planner against MLPerf, median absolute error of the time to target, measured on "
            f"{count(R['mlperf_planner_checked_count'])} short, hand-tuned benchmark results, not on the "
            "production runs the plan chapter measures it on"}


ANSWER = ["mlperf_405b_fastest_gpu_hours", "mlperf_405b_fastest_usd_on_demand", "mlperf_405b_fastest_usd_sa_owning",
          "mlperf_405b_fastest_usd_book_tco", "mlperf_planner_median_abs_error_frac"]
ANSWER_MORE = "Below: the price of one result at every tier, scaling, vendors side by side, energy, and the planner's error."
