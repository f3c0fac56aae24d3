"""Figures and reader tables of the plan chapter, drawn from its
:class:`~analysis.chapters.ChapterResults` (``analysis.chapters.plan``). Reader text names runs
and GPUs, never ids; numbers go through :mod:`analysis.page.formatting`."""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter

from analysis.page import notebook  # notebook.glue, looked up when called (tests replace it)
from analysis.page.formatting import count, flop, money, number, percent
from analysis.page.names import gpu_name, gpu_short_name, model_name
from analysis.page.plots import CYCLE, PALETTE, add_source, new_figure
from analysis.page.tables import markdown_table

P = "plan_llama31_405b"


def _signed(fraction: float) -> str:
    return ("+" if fraction >= 0 else "-") + percent(abs(fraction))


def _value(value: float, unit: str) -> str:
    if unit == "USD":
        return money(value)
    if unit in ("days",):
        return number(value)
    return count(value) if abs(value) >= 1e6 else number(value)


def _range(lo: float, hi: float, unit: str) -> str:
    a, b = _value(lo, unit), _value(hi, unit)
    return a if a == b else f"{a} to {b}"


# The rows the chapter's prose reads: shown, the others fold behind each table (and its CSV).
PROSE_OUTCOMES = (("narayanan_gpt3_175b", "days"), ("opt_175b", "days"), ("bloom_176b", "days_with_failures"),
                  ("bloom_176b", "energy_mwh"), ("llama31_405b", "gpu_hours"), ("olmo_7b_twin_a100", "energy_mwh"))
UNITS = {"gpu_hours": "GPU-hours", "days": "days", "days_with_failures": "days", "energy_mwh": "MWh",
         "co2_t": "t", "cost_usd": "USD"}


def backtest_table(E) -> str:
    """Markdown: each published outcome against the planner's prediction as a user with the paper
    would get it (the published throughput where there is one), with its band and error."""
    t = E.tables["backtest"]
    rows = []
    for r in t.itertuples():
        unit = UNITS[r.key]
        outcome = f"{r.outcome}, {r.basis}" if r.basis else r.outcome
        shown = _signed(r.error_frac) if r.comparison == "point" else ("bound holds" if r.holds else "bound broken")
        rows.append([r.name, outcome, _value(r.published, unit), _value(r.predicted, unit),
                     _range(r.p10, r.p90, unit), shown, _throughput_words(r)])
    key = [i for i, r in enumerate(t.itertuples()) if (r.run_id, r.key) in PROSE_OUTCOMES]
    header = ["Run", "Outcome, on its basis", "Published", "Predicted", "P10 to P90", "Error", "Throughput"]
    return markdown_table(header, rows, "llrrrrl", key=key, columns=["Run", "Outcome, on its basis", "Predicted", "Error"],
                          name="backtest", title="every published outcome against the planner")


def _throughput_words(r) -> str:
    if r.throughput != "published":
        return f"estimated, MFU {percent(r.mfu)}"
    if r.flops_counted_given is False:  # the source does not state its FLOP convention: the band spans them
        return "published, FLOPs counted not stated"
    return "published"


def estimated_table(E) -> str:
    """Markdown: every run's time with its throughput withheld, the MFU estimated without it."""
    t = E.tables["backtest_estimated"]
    rows = [[r.name, r.gpu_class, r.size_band, "yes" if r.throughput_given else "no", r.basis,
             number(r.memory_pressure), percent(r.mfu_implied), percent(r.mfu_estimated),
             _signed(r.error_frac) if r.comparison == "point" else ("bound holds" if r.holds else "bound broken"),
             "yes" if r.within_band else "no", r.gpus_basis] for r in t.itertuples()]
    header = ["Run", "GPU", "Size", "Throughput published", "Published time, its basis", "Memory pressure",
              "MFU implied", "MFU estimated", "Error on time", "Inside P10-P90", "GPU count"]
    # folded whole: the runs the prose reads are quoted in it, the table is every run for the reader who asks
    return markdown_table(header, rows, "llllllrrrll", key=[],
                          name="backtest_estimated", title="every run's time with its throughput estimated")


def class_table(E) -> str:
    """Markdown: the leave-one-run-out error per GPU class."""
    t = E.tables["backtest_by_class"]
    rows = [[r.gpu_class, count(r.runs), percent(r.median_abs_error_frac), _signed(r.signed_median_error_frac),
             f"{count(r.within_band_count)} of {count(r.runs)}", "yes" if r.enough else "too few runs"]
            for r in t.itertuples()]
    # in view: the classes with their own error and band, the ones the bias target holds
    return markdown_table(["GPU", "Runs", "Median error", "Signed median", "Inside P10-P90", "Own error and band"],
                          rows, "lrrrrl", key=t["enough"].to_numpy(dtype=bool), name="backtest_by_class",
                          title="the backtest's error per GPU class")


def size_table(E) -> str:
    """Markdown: the leave-one-run-out error per model-size band (active parameters)."""
    t = E.tables["backtest_by_size"]
    rows = [[r.size_band, count(r.runs), percent(r.median_abs_error_frac), _signed(r.signed_median_error_frac),
             f"{count(r.within_band_count)} of {count(r.runs)}", "yes" if r.enough else "too few runs"]
            for r in t.itertuples()]
    return markdown_table(["Active parameters", "Runs", "Median error", "Signed median", "Inside P10-P90",
                           "Held to the target"], rows, "lrrrrl", key=t["enough"].to_numpy(dtype=bool),
                          name="backtest_by_size", title="the backtest's error per model size")


def deadline_table(E) -> str:
    """Markdown: the smallest job that meets the chapter's deadline on each priced accelerator."""
    t = E.tables["deadline"]
    rows = []
    for r in t.itertuples():
        if not isinstance(r.gpus, (int, float)) or r.gpus != r.gpus:
            rows.append([gpu_name(r.gpu_id), "-", "-", "-", "-", "-", "-", r.reason])
            continue
        rows.append([gpu_name(r.gpu_id) + (" (best)" if r.best else ""), count(r.gpus), _range(r.days_p10, r.days_p90, "days"),
                     percent(r.chance_frac), "none" if r.gpus_for_90 != r.gpus_for_90 or r.gpus_for_90 is None else count(r.gpus_for_90),
                     f"{money(r.cost_usd)} ({_range(r.cost_p10, r.cost_p90, 'USD')})",
                     "-" if r.meter_mw != r.meter_mw or r.meter_mw is None else f"{number(r.meter_mw)} MW",
                     "estimated" if r.throughput == "estimated" else "its own"])
    # The rows the prose reads: H100, the cheapest and the next (whose bands decide the pick).
    ranked = t[t["gpus"].notna()].sort_values("cost_usd").index[:2]
    key = (t["gpu_id"] == "h100_sxm") | t.index.isin(ranked)
    header = ["Accelerator", "GPUs", "Days, P10 to P90", "Chance of the deadline", "GPUs for 90 %",
              "Cost (P10 to P90)", "At the meter", "Throughput evidence"]
    return markdown_table(header, rows, "lrrrrrrl", key=key.to_numpy(),
                          columns=["Accelerator", "GPUs", "Chance of the deadline", "Cost (P10 to P90)"],
                          name="deadline", title="the smallest job that meets the deadline, per accelerator")


def budget_table(E) -> str:
    """Markdown: the tokens the chapter's budget buys by its deadline, per accelerator and price
    tier, most first. Shown: the two best rows and H100's at the book's TCO and the market range,
    the rows the prose reads; the rest fold."""
    t = E.tables["budget"]
    t = t[t["gpus"].notna()].reset_index(drop=True)
    key = (t.index < 2) | ((t["gpu_id"] == "h100_sxm") & t["tier"].isin(["owning (the book's TCO)", "market range"]))
    rows = [[gpu_name(r.gpu_id) + (" (best)" if r.best else ""), r.tier + (" (stand-in price)" if r.proxy else ""),
             money(r.usd_per_gpu_hour), count(r.gpus), f"{count(r.tokens)} ({count(r.tokens_p10)} to {count(r.tokens_p90)})",
             number(r.days), "estimated" if r.throughput == "estimated" else "its own"] for r in t.itertuples()]
    header = ["Accelerator", "Price tier", "Per GPU-hour", "GPUs", "Tokens bought (P10 to P90)", "Days",
              "Throughput evidence"]
    return markdown_table(header, rows, "llrrrrl", key=key.to_numpy(), name="budget",
                          columns=["Accelerator", "Price tier", "Per GPU-hour", "Tokens bought (P10 to P90)"],
                          title="the tokens the budget buys, per accelerator and price tier")


def targets_table(E) -> str:
    """Markdown: each target, what the backtest measures, and whether it holds."""
    def row(what, key, target_key, upper=True, signed=False):
        value, target = E[key], E[f"plan_target_{target_key}"]
        holds = abs(value) <= target if upper else value >= target
        shown = _signed(value) if signed else percent(abs(value) if upper else value)
        bound = f"within {percent(target)}" if signed else (f"at most {percent(target)}" if upper else f"at least {percent(target)}")
        if target_key == "class_signed_median_error_frac":
            bound = f"within {percent(target)}"
        return [what, bound, shown, "yes" if holds else "no"]

    rows = [row("Median error on time, runs with no published throughput", "plan_backtest_estimated_median_abs_error_frac",
                "estimated_median_abs_error_frac"),
            row("Published time inside the P10-P90 band", "plan_backtest_within_band_frac", "within_band_frac", upper=False),
            row("Published time inside the P10-P90 band, not all of them", "plan_backtest_within_band_frac",
                "within_band_max_frac"),
            row("Median error on GPU-hours and days, runs with a published throughput",
                "plan_backtest_published_throughput_median_abs_error_frac", "published_throughput_median_abs_error_frac"),
            row("Their published time inside the P10-P90 band", "plan_backtest_published_throughput_within_band_frac",
                "published_throughput_within_band_frac", upper=False)]
    if "plan_backtest_worst_group_signed_median_error_frac" in E:
        rows.append(row("Worst signed median error of a GPU class or size band with enough runs",
                        "plan_backtest_worst_group_signed_median_error_frac", "class_signed_median_error_frac"))
    for stem, key, what in (("bloom_energy", "plan_backtest_bloom_read_energy_error_frac",
                             "BLOOM energy, GPU TDP, no PUE (its TFLOP/s read as counting the recompute pass)"),
                            ("llama_65b_energy", "plan_backtest_llama_65b_energy_error_frac", "LLaMA-65B energy, GPU TDP x PUE 1.1"),
                            ("llama31_405b_co2", "plan_backtest_llama31_405b_co2_error_frac", "Llama 3.1 405B CO2, GPU TDP, US grid")):
        if key in E:
            rows.append(row(what, key, f"{stem}_error_frac", signed=True))
    return markdown_table(["Target", "Bound", "Measured", "Holds"], rows, "lrrl")


def variants_table(E) -> str:
    """Markdown: the forms of the production term, each measured leave-one-run-out the same way,
    folded whole (the method's fold above it reads them)."""
    t = E.tables["backtest_variants"]
    signed = [c for c in t.columns if c.endswith("signed median")]
    rows = [[r["label"][0].upper() + r["label"][1:], percent(r["estimated_median_abs_error_frac"]),
             percent(r["all_median_abs_error_frac"]), *[_signed(r[c]) for c in signed]] for _, r in t.iterrows()]
    return markdown_table(["Production term", "Median error, no published throughput", "Median error, every run",
                           *[c.replace("signed median", "signed median error") for c in signed]], rows,
                          "l" + "r" * (2 + len(signed)), key=[],
                          name="backtest_variants", title="every form of the production term")


def not_compared_table(E) -> str:
    """Markdown: published energies the backtest cannot set beside the planner's, and why."""
    t = E.tables["backtest_not_compared"]
    rows = [[r.name, gpu_name(r.gpu_id), r.basis, r.reason] for r in t.itertuples()]
    return markdown_table(["Run", "Accelerator", "Published basis", "Why not compared"], rows, "llll", key=[],
                          name="backtest_not_compared", title="published energies the backtest does not compare")


def one_run_table(E) -> str:
    """Markdown: Llama 3.1 405B on 15T tokens as each page counts it."""
    t = E.tables["one_run"]
    rows = [[r.label, count(r.gpu_hours), f"{number(r.energy_gwh)} GWh", f"{count(r.co2_t)} t",
             count(r.household_years), "-" if np.isnan(r.cost_usd) else money(r.cost_usd)] for r in t.itertuples()]
    return markdown_table(["How it is counted", "GPU-hours", "Energy", "CO2", "Household-years", "Cost"], rows, "lrrrrr")


def glue_flops(E) -> None:
    """Glue the walkthrough's FLOP counts written for people ('3.94 × 10²⁵'), not in e-notation."""
    notebook.glue(P + "_flops_per_token_text", flop(E[P + "_flops_per_token"], ""), display=False)
    notebook.glue(P + "_total_flop_text", flop(E[P + "_total_flop"], ""), display=False)


def walkthrough_table(E) -> str:
    """Markdown: the planner's steps for Llama 3.1 405B."""
    steps = [("FLOPs per token (6N + 12Lhs)", flop(E[P + "_flops_per_token"], "")),
             ("FLOPs of the run", flop(E[P + "_total_flop"], "")),
             ("Throughput: published TFLOP/s per GPU, model FLOPs", number(E[P + "_achieved_tflops"])),
             ("= MFU", percent(E[P + "_mfu_frac"])),
             ("= tokens/s/GPU", number(E[P + "_tokens_per_s_per_gpu"])),
             ("Days without failures", number(E[P + "_days"])),
             ("Job MTBF (hours)", number(E[P + "_job_mtbf_hours"])),
             ("Checkpoint interval (minutes)", number(E[P + "_checkpoint_interval_min"])),
             ("Goodput", percent(E[P + "_goodput"])),
             ("Days with failures", number(E[P + "_days_with_failures"])),
             ("GPU-hours paid", count(E[P + "_gpu_hours"])),
             ("Cost at the book's H100 TCO", money(E[P + "_cost_usd"])),
             ("Energy, GPU TDP x GPU-hours (MWh)", count(E[P + "_energy_gpu_tdp_mwh"])),
             ("Energy at the meter, all-in IT x PUE (MWh)", count(E[P + "_energy_facility_mwh"])),
             ("CO2, GPU TDP basis, US grid (t)", count(E[P + "_co2_gpu_tdp_t"]))]
    # folded whole: the numbered steps above read every value; the table is their one-glance copy
    run = (f"{model_name(E.names['model'])}, {number(E[P + '_train_trillion_tokens'])}T tokens, "
           f"{count(E[P + '_gpus'])} {gpu_short_name(E.names['gpu'])}")
    return markdown_table(["Step", run], steps, "lr", key=[], name="walkthrough", title="the seven steps, one number each")


def backtest(E):
    """Each run's time predicted with its throughput withheld, over the published time, with the
    P10-P90 band, by GPU class; the shaded strip is the bias target either way."""
    t = E.tables["backtest_estimated"].sort_values(["gpu_class", "error_frac"]).reset_index(drop=True)
    height = max(4.4, 0.5 * len(t) + 2.2)  # room for names on two lines: the axis keeps half the width
    fig, ax = new_figure("", "Predicted / published time (log scale)", "", figsize=(7.0, height))
    y = np.arange(len(t))
    strip = E["plan_target_class_signed_median_error_frac"]  # the bias target, the strip the prose names
    ax.axvspan(1 - strip, 1 + strip, color=PALETTE["sky"], alpha=0.15, lw=0, label=f"within {percent(strip)}")
    ax.axvline(1.0, color=PALETTE["black"], lw=1)
    for i, (cls, group) in enumerate(t.groupby("gpu_class", sort=True)):
        rows = y[group.index]
        ratio = group["predicted"] / group["published"]
        lo, hi = group["p10"] / group["published"], group["p90"] / group["published"]
        ax.errorbar(ratio, rows, xerr=[ratio - lo, hi - ratio], fmt="o", color=CYCLE[i % len(CYCLE)], ms=5, lw=1.2,
                    label=cls)
    ax.set_yticks(y)
    ax.set_yticklabels([textwrap.fill(str(name), 24) for name in t["name"]])
    ax.set_xscale("log")
    ticks = [x for x in (0.25, 0.5, 1.0, 2.0, 4.0)
             if t["p10"].div(t["published"]).min() / 1.5 <= x <= t["p90"].div(t["published"]).max() * 1.5]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FixedFormatter([f"{x:g}x" for x in ticks]))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.invert_yaxis()
    ax.grid(axis="y", alpha=0)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.02), ncol=3, fontsize=11)
    fig.tight_layout()
    add_source(fig, "data/backtest_runs.csv (each run's own source); predictions: analysis.planner, the MFU estimated "
                    "from the benchmark rows and every other published run.", y=0.0)
    return fig


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"{model_name(R.names['model'])} on {number(R['plan_llama31_405b_train_trillion_tokens'])}T tokens at Meta's "
            f"measured speed takes {number(R['plan_llama31_405b_days_with_failures'])} days with failures and costs "
            f"{money(R['plan_llama31_405b_cost_usd'])} at the book's {gpu_short_name(R.names['gpu'])} TCO; on published "
            f"runs the planner's time is within {percent(R['plan_backtest_estimated_median_abs_error_frac'])} (median) "
            "when it estimates the throughput.")


ANSWER = [f"{P}_days_with_failures", f"{P}_cost_usd", f"{P}_energy_gpu_tdp_mwh", f"{P}_energy_facility_mwh",
          "plan_backtest_runs_count", "plan_backtest_estimated_median_abs_error_frac", "plan_backtest_within_band_frac"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
