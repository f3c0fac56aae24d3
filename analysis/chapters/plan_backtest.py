"""The plan chapter's backtest results (:mod:`analysis.planner.backtest`), recorded with the
targets they are held to: each error per run and outcome, the leave-one-run-out errors of the MFU
estimate overall and per GPU class, how often the P10-P90 band holds the published value, and the
published energies and CO2 on their sources' bases."""

from __future__ import annotations

import re
from dataclasses import replace

import pandas as pd

from analysis.chapters import ChapterResults
from analysis.data.load import derived, load_table
from analysis.planner import backtest as bt
from analysis.planner import memory
from analysis.planner.mfu import MIN_CLASS_RUNS, PRIOR_RUNS, Variant, fit_factor, production_runs
from analysis.planner.variants import fitted_slopes, model_variants

TIME_KEYS = ("gpu_hours", "days", "days_with_failures")
# Named outcomes the targets hold (run id, planner key) -> result key stem.
NAMED = {("bloom_176b", "energy_mwh"): "bloom_energy", ("llama1_65b", "energy_mwh"): "llama_65b_energy",
         ("llama31_405b", "co2_t"): "llama31_405b_co2"}


def class_slug(gpu_class: str) -> str:
    """'TPU v4' -> 'tpu_v4', for result keys."""
    return re.sub(r"[^a-z0-9]+", "_", gpu_class.lower()).strip("_")


# No parameter reaches the backtest (the planner prices and powers each run at the book's defaults
# or at its source's own basis), so its tables are pure functions of the data: computed once per
# process and data folder, however many scenarios recompute this chapter.
@derived
def published_backtest() -> pd.DataFrame:
    """:func:`analysis.planner.backtest.as_published` on ``data/backtest_runs.csv``."""
    return bt.as_published()


@derived
def estimated_backtest() -> pd.DataFrame:
    """:func:`analysis.planner.backtest.estimated` on ``data/backtest_runs.csv``."""
    return bt.estimated()


@derived
def variants_backtest() -> pd.DataFrame:
    """:func:`analysis.planner.variants.model_variants` on the production runs."""
    return model_variants()


def record_backtest(res: ChapterResults, targets: dict) -> None:
    runs = load_table("backtest_runs")
    pub = res.add_table("backtest", published_backtest())
    skipped = res.add_table("backtest_not_compared", bt.not_compared(runs))
    res.add("plan_backtest_energy_not_compared_count", len(skipped), "count",
            "Backtest: published energies or CO2 not compared (no sourced power build-up on their basis)")
    est = res.add_table("backtest_estimated", estimated_backtest())
    classes = res.add_table("backtest_by_class", bt.by_class(est))
    bands = res.add_table("backtest_by_size", bt.by_group(est, "size_band"))
    res.add("plan_backtest_runs_count", len(runs), "count", "Backtest: published runs and estimates")
    res.add("plan_backtest_projections_count", int((runs["kind"] == "projection").sum()), "count",
            "Backtest: of which estimates from a measured throughput, not completed runs")
    res.add("plan_backtest_moe_runs_count", int((runs["architecture"] == "moe").sum()), "count", "Backtest: MoE runs")
    res.add("plan_backtest_comparisons_count", len(pub), "count", "Backtest: published outcomes compared")
    res.add("plan_backtest_timed_runs_count", len(est), "count", "Backtest: runs with a published time")
    res.add("plan_backtest_gpu_classes_count", len(classes), "count", "Backtest: GPU classes")
    _time(res, pub, est)
    _classes(res, classes)
    _bands(res, bands, classes)
    _named(res, pub)
    for row in pub.itertuples():
        slug = row.key if row.key != "days_with_failures" else "wall_days"
        res.add(f"plan_backtest_{row.run_id}_{slug}_error_frac", row.error_frac, "fraction",
                f"Backtest: {row.name}, {row.outcome}, error")
    for row in est.itertuples():
        res.add(f"plan_backtest_{row.run_id}_mfu_frac", row.mfu_estimated, "fraction",
                f"Backtest: {row.name}, MFU estimated without it")
        res.add(f"plan_backtest_{row.run_id}_mfu_implied_frac", row.mfu_implied, "fraction",
                f"Backtest: {row.name}, MFU its published time implies")
        res.add(f"plan_backtest_{row.run_id}_estimated_error_frac", row.error_frac, "fraction",
                f"Backtest: {row.name}, time with the MFU estimated without it, error")
    for name, target in targets.items():
        res.add(f"plan_target_{name}", target, "fraction", f"Target: {name.replace('_', ' ')}")
    err = pub.loc[pub["comparison"] == "point", "error_frac"].abs()
    res.add("plan_backtest_median_abs_error_frac", float(err.median()), "fraction", "Backtest: median absolute error, all outcomes")
    res.add("plan_backtest_within_10pct_count", int((err <= 0.10).sum()), "count", "Backtest: outcomes within 10 %")
    res.add("plan_backtest_max_abs_error_frac", float(err.max()), "fraction", "Backtest: largest absolute error")


def _time(res: ChapterResults, pub, est) -> None:
    given = (pub["throughput"] == "published") & pub["key"].isin(TIME_KEYS) & (pub["comparison"] == "point")
    res.add("plan_backtest_published_throughput_median_abs_error_frac", bt.median_abs(pub.loc[given, "error_frac"]),
            "fraction", "Backtest: median absolute error on GPU-hours and days, runs with a published throughput")
    res.add("plan_backtest_published_throughput_outcomes_count", int(given.sum()), "count",
            "Backtest: time outcomes of runs with a published throughput")
    res.add("plan_backtest_published_throughput_within_band_frac", float(pub.loc[given, "within_band"].mean()), "fraction",
            "Backtest: published time inside the P10-P90 band, runs with a published throughput")
    unstated = given & (pub["flops_counted_given"] == False)  # noqa: E712 (a column of True, False and None)
    res.add("plan_backtest_convention_unstated_outcomes_count", int(unstated.sum()), "count",
            "Backtest: of those, outcomes whose throughput's FLOP convention the source does not state")
    bounds = est[est["comparison"] == "upper bound"]
    res.add("plan_backtest_upper_bound_runs_count", len(bounds), "count",
            "Backtest: runs whose published time is an upper bound (more than the planned run)")
    res.add("plan_backtest_upper_bound_holds_count", int(bounds["holds"].sum()), "count",
            "Backtest: of those, bounds the prediction respects")
    res.add("plan_backtest_gpu_hours_failures_excluded_count",
            int((load_table("backtest_runs")["gpu_hours_failures"] == "excluded").sum()), "count",
            "Backtest: published GPU-hours that exclude failures (compared with compute alone)")
    res.add("plan_backtest_gpu_hours_failures_unknown_count",
            int((load_table("backtest_runs")["gpu_hours_failures"] == "unknown").sum()), "count",
            "Backtest: published GPU-hours that do not say (their band spans both bases)")
    est = est[est["comparison"] == "point"]
    none = est[~est["throughput_given"]]
    res.add("plan_backtest_estimated_median_abs_error_frac", bt.median_abs(none["error_frac"]), "fraction",
            "Backtest: leave-one-run-out median absolute error on time, runs with no published throughput")
    res.add("plan_backtest_estimated_runs_count", len(none), "count", "Backtest: runs with no published throughput")
    res.add("plan_backtest_all_estimated_median_abs_error_frac", bt.median_abs(est["error_frac"]), "fraction",
            "Backtest: leave-one-run-out median absolute error on time, every run's throughput withheld")
    res.add("plan_backtest_within_band_frac", float(est["within_band"].mean()), "fraction",
            "Backtest: published time inside the P10-P90 band, throughput withheld")
    res.add("plan_backtest_within_band_count", int(est["within_band"].sum()), "count",
            "Backtest: runs whose published time lies inside the P10-P90 band, throughput withheld")
    res.add("plan_backtest_published_within_band_frac", float(pub.loc[pub["comparison"] == "point", "within_band"].mean()),
            "fraction", "Backtest: published outcomes inside the P10-P90 band, as published")
    res.add("plan_backtest_memory_slope_per_decade", fit_factor(production_runs()).memory_slope, "per decade",
            "Backtest: the memory slope, log MFU per decade of memory pressure, fitted to every run")
    res.add("plan_memory_state_bytes_per_param", memory.STATE_BYTES_PER_PARAM, "bytes per parameter",
            "Memory: mixed-precision Adam state per parameter (ZeRO, Sec. 3.1)")
    res.add("plan_memory_optimizer_bytes_per_param", memory.OPTIMIZER_BYTES_PER_PARAM, "bytes per parameter",
            "Memory: of which optimizer state, sharded over the job by ZeRO stage 1")
    res.add("plan_memory_activation_bytes", memory.ACTIVATION_BYTES_PER_TOKEN_HIDDEN, "bytes per token and hidden unit",
            "Memory: activations per layer, attention scores recomputed (Korthikanti et al. 2022)")
    res.add("plan_backtest_prior_runs_count", PRIOR_RUNS, "count", "Backtest: the pooling weight, in runs")
    res.add("plan_backtest_min_group_runs_count", MIN_CLASS_RUNS, "count",
            "Backtest: runs a GPU class or size band needs for its own error and the bias target")
    variants = res.add_table("backtest_variants", variants_backtest())
    for row in variants.itertuples():
        res.add(f"plan_backtest_variant_{row.key}_estimated_median_abs_error_frac", row.estimated_median_abs_error_frac,
                "fraction", f"Backtest: {row.label}, median absolute error, runs with no published throughput")
        res.add(f"plan_backtest_variant_{row.key}_all_median_abs_error_frac", row.all_median_abs_error_frac,
                "fraction", f"Backtest: {row.label}, median absolute error, every run")
    res.add("plan_backtest_full_recompute_runs_count", int(production_runs()["full_recompute"].sum()), "count",
            "Backtest: runs whose published throughput counts full activation recomputation")
    for cls, slope in fitted_slopes(Variant("class", term="gpus")).items():
        if cls in ("A100", "H100"):
            res.add(f"plan_backtest_gpus_term_{class_slug(cls)}_slope_per_decade", slope, "per decade",
                    f"Backtest: the GPU-count form's fitted slope for {cls}, log MFU per decade of GPUs")
    priors = variants[variants["key"].str.startswith("recompute_class_slopes_prior") | (variants["key"] == "recompute_class_slopes")]
    res.add("plan_backtest_prior_sensitivity_low_frac", float(priors["estimated_median_abs_error_frac"].min()), "fraction",
            "Backtest: lowest median error over the pooling weights tried")
    res.add("plan_backtest_prior_sensitivity_high_frac", float(priors["estimated_median_abs_error_frac"].max()), "fraction",
            "Backtest: highest median error over the pooling weights tried")


def _classes(res: ChapterResults, classes) -> None:
    enough = classes[classes["enough"]]
    for row in classes.itertuples():
        c = class_slug(row.gpu_class)
        res.add(f"plan_backtest_{c}_runs_count", row.runs, "count", f"Backtest: {row.gpu_class} runs")
        res.add(f"plan_backtest_{c}_median_abs_error_frac", row.median_abs_error_frac, "fraction",
                f"Backtest: {row.gpu_class}, leave-one-run-out median absolute error on time")
        res.add(f"plan_backtest_{c}_signed_median_error_frac", row.signed_median_error_frac, "fraction",
                f"Backtest: {row.gpu_class}, leave-one-run-out signed median error on time")
        res.add(f"plan_backtest_{c}_within_band_count", row.within_band_count, "count",
                f"Backtest: {row.gpu_class}, published time inside the P10-P90 band")
    res.add("plan_backtest_classes_with_enough_runs_count", len(enough), "count",
            "Backtest: GPU classes with enough runs for their own error")
    if len(enough):
        worst = enough.loc[enough["signed_median_error_frac"].abs().idxmax()]
        res.add("plan_backtest_worst_class_signed_median_error_frac", abs(worst["signed_median_error_frac"]), "fraction",
                "Backtest: the largest |signed median error| of a GPU class with enough runs")


def _bands(res: ChapterResults, bands, classes) -> None:
    for row in bands.itertuples():
        b = class_slug(row.size_band)
        res.add(f"plan_backtest_size_{b}_runs_count", row.runs, "count", f"Backtest: runs {row.size_band}")
        res.add(f"plan_backtest_size_{b}_median_abs_error_frac", row.median_abs_error_frac, "fraction",
                f"Backtest: {row.size_band}, leave-one-run-out median absolute error on time")
        res.add(f"plan_backtest_size_{b}_signed_median_error_frac", row.signed_median_error_frac, "fraction",
                f"Backtest: {row.size_band}, leave-one-run-out signed median error on time")
    groups = pd.concat([classes.loc[classes["enough"], "signed_median_error_frac"],
                        bands.loc[bands["enough"], "signed_median_error_frac"]])
    res.add("plan_backtest_worst_group_signed_median_error_frac", float(groups.abs().max()), "fraction",
            "Backtest: the largest |signed median error| of a GPU class or size band with enough runs")


def _read_as_published_convention(res: ChapterResults) -> None:
    """BLOOM's throughput with the convention the book reads into it (hardware FLOPs with the
    recompute pass, as Megatron-DeepSpeed counts them) given, where the backtest gives none: its
    days and its energy on the source's basis."""
    r = load_table("backtest_runs").set_index("run_id", drop=False).loc["bloom_176b"]
    result = bt.plan(replace(bt.inputs_for(r), flops_counted=r["flops_counted"]))
    days = result.results["days_with_failures"]["value"]
    energy = result.results["energy_mwh"]["value"]
    res.add("plan_backtest_bloom_read_wall_days_error_frac", days / float(r["published_days"]) - 1, "fraction",
            "Backtest: BLOOM's wall-clock days with its TFLOP/s read as hardware FLOPs with full recomputation")
    res.add("plan_backtest_bloom_read_energy_error_frac", energy / float(r["published_energy_mwh"]) - 1, "fraction",
            "Backtest: BLOOM's energy (GPU TDP, no PUE) with its TFLOP/s read as hardware FLOPs with full recomputation")


def _named(res: ChapterResults, pub) -> None:
    _read_as_published_convention(res)
    for (run_id, key), stem in NAMED.items():
        match = pub[(pub["run_id"] == run_id) & (pub["key"] == key)]
        if len(match) == 1:
            m = match.iloc[0]
            res.add(f"plan_backtest_{stem}_error_frac", m["error_frac"], "fraction", f"Backtest: {m['name']}, {m['outcome']} ({m['basis']}), error")
            res.add(f"plan_backtest_{stem}_published", m["published"], "MWh" if key == "energy_mwh" else "t CO2",
                    f"Backtest: {m['name']}, {m['outcome']}, published")
            res.add(f"plan_backtest_{stem}_predicted", m["predicted"], "MWh" if key == "energy_mwh" else "t CO2",
                    f"Backtest: {m['name']}, {m['outcome']}, predicted")
