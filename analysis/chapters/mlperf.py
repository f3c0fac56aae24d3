"""MLPerf Training, priced: every LLM result of v4.0-v5.1 (``data/mlperf_training.csv``, scored by
MLPerf's rule) as GPU-hours to the quality target, dollars at each tier of the price ladder
(:mod:`analysis.prices`), megawatt-hours at the atlas's all-in power x PUE and at the chip's TDP,
MLPerf Power's measurement where there is one, scaling per accelerator and benchmark, vendors side
by side, and the planner (:func:`analysis.planner.plan`) checked against the pretraining results."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import atlas, mlperf, planner, prices
from analysis.chapters import ChapterResults
from analysis.data.load import derived, load_table

ROUNDS_PUBLISHED = ("v4.0", "v4.1", "v5.0", "v5.1", "v6.0")  # the rounds the issue asks for
PLANNER_DRAWS = 20  # only the planner's point estimate is used; its bands are not shown here
TCO_KEYS = {"h100_sxm": "h100_tco_usd_per_gpu_hour", "gb200_nvl72": "gb200_tco_usd_per_gpu_hour"}


def _tier_column(tier: str) -> str:
    return "usd_" + "".join(c if c.isalnum() else "_" for c in tier).strip("_").replace("__", "_")


def priced(results: pd.DataFrame, ladder: pd.DataFrame, power_w: dict[str, float], tdp_w: dict[str, float],
           pue: float, load_factor: float) -> pd.DataFrame:
    """``results`` with dollars at every tier (``usd_<tier>``, NaN where the accelerator has no price
    in that tier), the list price and its tier, and MWh at the average draw, all-in power x PUE x
    ``load_factor`` (the book's energy basis), and at chip TDP (the basis most papers publish)."""
    out = results.copy()
    for tier in prices.TIERS:
        by_gpu = ladder[ladder["tier"] == tier].set_index("gpu_id")["usd_per_gpu_hour"]
        out[_tier_column(tier)] = out["gpu_hours"] * out["gpu_id"].map(by_gpu)
    listed = {g: prices.list_price(ladder, g) for g in out["gpu_id"].dropna().unique()}
    out["list_tier"] = out["gpu_id"].map(lambda g: listed[g][1] if isinstance(g, str) and listed.get(g) else "")
    out["usd_list"] = out["gpu_hours"] * out["gpu_id"].map(lambda g: listed[g][0] if isinstance(g, str) and listed.get(g) else np.nan)
    out["it_w_per_accelerator"] = out["gpu_id"].map(power_w)
    out["mwh_all_in"] = mlperf.mwh(out["gpu_hours"], out["it_w_per_accelerator"] * pue * load_factor)
    out["mwh_tdp"] = mlperf.mwh(out["gpu_hours"], out["gpu_id"].map(tdp_w))
    out["mwh_measured"] = mlperf.mwh_from_joules(out["energy_j"])
    return out


def planner_check(results: pd.DataFrame, benchmarks: pd.DataFrame, convergence: pd.DataFrame) -> pd.DataFrame:
    """For each distinct pretraining result on a GPU the planner can plan: the reference's tokens to
    target at the result's batch size, the planner's time without failures at its BF16 MFU estimate,
    and its error against MLPerf's score. Rows the planner cannot plan carry the reason."""
    bench = benchmarks.set_index("benchmark")
    rows = []
    for r in results.itertuples():
        b = bench.loc[r.benchmark]
        if b["kind"] != "pretraining" or pd.isna(b["model_id"]) or not isinstance(r.gpu_id, str):
            continue
        points = convergence[(convergence["round"] == r.round) & (convergence["benchmark"] == r.benchmark)]
        if points.empty or pd.isna(r.global_batch_size):
            continue
        tokens, inside = mlperf.tokens_to_target(points, float(r.global_batch_size), int(b["seq_len"]))
        row = {"result_id": r.result_id, "round": r.round, "benchmark": r.benchmark, "gpu_id": r.gpu_id,
               "submitter": r.submitter, "accelerators": r.accelerators, "global_batch_size": r.global_batch_size,
               "tokens_to_target": tokens, "batch_within_reference": inside, "score_minutes": r.score_minutes,
               "predicted_minutes": np.nan, "mfu": np.nan, "error_frac": np.nan, "why_not": ""}
        minutes, mfu, why = _planned(b["model_id"], tokens, r.gpu_id, int(r.accelerators))
        row.update(predicted_minutes=minutes, mfu=mfu, why_not=why, error_frac=minutes / r.score_minutes - 1)
        rows.append(row)
    return pd.DataFrame(rows)


@derived
def planner_table() -> pd.DataFrame:
    """:func:`planner_check` on every distinct scored result. It reads the results' sizes, batches
    and scores, never their prices or power, and no parameter reaches the planner here, so it is
    a pure function of the data: computed once per process and data folder."""
    results = mlperf.distinct(mlperf.scored(load_table("mlperf_training")))
    return planner_check(results, load_table("mlperf_benchmarks"), load_table("mlperf_convergence"))


@derived
def _planned(model_id: str, tokens: float, gpu_id: str, gpus: int) -> tuple[float, float, str]:
    """The planner's time without failures (minutes) and MFU for one run, or why it cannot plan it.
    No parameter of this chapter reaches it, so one process asks the planner once per run and data
    folder (a test's edited copy of the data is another folder, not the book's)."""
    try:
        plan = planner.plan(planner.PlanInputs(model=planner.model_from_registry(model_id), tokens=tokens,
                                               gpu_id=gpu_id, gpus=gpus, precision="bf16", draws=PLANNER_DRAWS))
    except planner.PlanError as exc:  # a missing table is the build's error, not a run it cannot plan
        return float("nan"), float("nan"), str(exc)
    return plan.results["days"]["value"] * 24 * 60, plan.steps["mfu"], ""


def _power(P) -> tuple[dict[str, float], dict[str, float], pd.DataFrame]:
    acc = load_table("accelerators").set_index("gpu_id")
    gpus = load_table("gpus").set_index("gpu_id")
    it_w = {g: atlas.it_w_per_device(g, acc, gpus, P.h100_it_w_per_gpu, P.gb200_it_w_per_gpu) for g in acc.index}
    return it_w, gpus["tdp_w"].to_dict(), acc


def compute(P, upstream) -> ChapterResults:
    res = ChapterResults("mlperf")
    raw = load_table("mlperf_training")
    results = mlperf.scored(raw)
    res.add("mlperf_results_count", len(raw), "count", "LLM results in MLPerf Training v4.0-v5.1 read here")
    res.add("mlperf_results_scored_count", len(results), "count", "Results with a valid score")
    res.add("mlperf_rounds_read_count", raw["round"].nunique(), "count", "MLPerf Training rounds read")
    res.add("mlperf_rounds_published_count", len(ROUNDS_PUBLISHED), "count", "MLPerf Training rounds v4.0-v6.0")
    res.add("mlperf_benchmarks_count", raw["benchmark"].nunique(), "count", "LLM benchmarks with results")
    res.add("mlperf_submitters_count", raw["submitter"].nunique(), "count", "Submitters of LLM results")
    res.add("mlperf_results_unregistered_count", raw["gpu_id"].isna().sum(), "count",
            "Results on accelerators outside the book's registry (not priced)")
    res.add("mlperf_results_with_log_defects_count", raw["log_defects"].notna().sum(), "count",
            "Results with a malformed log line the score does not read")
    res.add("mlperf_scaled_results_count", (raw["scaling_factor"] > 1).sum(), "count",
            "Results whose score the review scaled up (RCP normalisation)")
    for (round_, bench), n in raw.groupby(["round", "benchmark"]).size().items():
        res.add(f"mlperf_{round_.replace('.', '_')}_{bench}_results_count", n, "count", f"{bench} results in {round_}")

    # prices: the ladder, with the book's own TCO as the last tier
    book_tco = {g: upstream["tco"][key] for g, key in TCO_KEYS.items()}
    ladder = res.add_table("ladder", prices.cloud_ladder(book_tco))
    it_w, tdp_w, acc = _power(P)
    table = priced(results, ladder, it_w, tdp_w, P.pue, P.load_factor)
    table["vendor"] = table["gpu_id"].map(acc["vendor"])
    table = res.add_table("results", table)
    res.add("mlperf_pue", P.pue, "ratio", "Facility PUE the all-in energy uses")
    res.add("mlperf_load_factor_frac", P.load_factor, "fraction",
            "Average draw as a share of the rated power, the all-in energy's basis (parameter)")

    # the headline: Llama 3.1 405B on 5,120 GB200 GPUs in v5.1
    top = table[(table["benchmark"] == "llama31_405b") & (table["round"] == "v5.1")].sort_values("score_minutes").iloc[0]
    res.name("fastest_model", top["benchmark"])  # the benchmark is named by its model's id
    res.name("fastest_round", top["round"])
    res.add("mlperf_405b_fastest_accelerators", top["accelerators"], "count", "Llama 3.1 405B, v5.1: GPUs of the fastest result")
    res.add("mlperf_405b_fastest_minutes", top["score_minutes"], "minutes", "Llama 3.1 405B, v5.1: fastest score")
    res.add("mlperf_405b_fastest_gpu_hours", top["gpu_hours"], "GPU-hours", "Llama 3.1 405B, v5.1: GPU-hours of the fastest result")
    for tier, key in (("on-demand", "on_demand"), ("3-year", "3_year"), ("owning (SemiAnalysis model)", "sa_owning"),
                      ("owning (the book's TCO)", "book_tco")):
        res.add(f"mlperf_405b_fastest_usd_{key}", top[_tier_column(tier)], "USD",
                f"Llama 3.1 405B, v5.1 fastest: cost at the {tier} tier")
        res.add(f"mlperf_gb200_usd_per_gpu_hour_{key}", ladder.set_index(["gpu_id", "tier"]).loc[("gb200_nvl72", tier), "usd_per_gpu_hour"],
                "USD per GPU-hour", f"GB200: price per GPU-hour, {tier} tier")
    res.add("mlperf_405b_fastest_mwh_all_in", top["mwh_all_in"], "MWh",
            "Llama 3.1 405B, v5.1 fastest: MWh at the average draw (all-in power x PUE x load factor)")
    res.add("mlperf_405b_fastest_mwh_tdp", top["mwh_tdp"], "MWh", "Llama 3.1 405B, v5.1 fastest: MWh at chip TDP only")

    # scaling
    steps = res.add_table("scaling", mlperf.scaling_steps(mlperf.distinct(table)))
    gb200 = steps[(steps["benchmark"] == "llama31_405b") & (steps["gpu_id"] == "gb200_nvl72") & (steps["round"] == "v5.1")]
    for r in gb200.itertuples():
        tag = f"{r.accelerators_from}_{r.accelerators_to}"
        res.add(f"mlperf_405b_gb200_v5_1_gpu_hours_{r.accelerators_to}", r.gpu_hours_to, "GPU-hours",
                f"Llama 3.1 405B, GB200, v5.1: GPU-hours at {r.accelerators_to:,} GPUs")
        res.add(f"mlperf_405b_gb200_v5_1_efficiency_{tag}", r.efficiency_per_doubling, "fraction",
                f"Llama 3.1 405B, GB200, v5.1: efficiency per doubling, {r.accelerators_from:,} to {r.accelerators_to:,} GPUs")
    res.add("mlperf_405b_gb200_v5_1_gpu_hours_512", gb200["gpu_hours_from"].iloc[0], "GPU-hours",
            "Llama 3.1 405B, GB200, v5.1: GPU-hours at 512 GPUs")
    res.add("mlperf_scaling_steps_count", len(steps), "count", "Steps up in system size with the same accelerator and round")
    res.add("mlperf_scaling_efficiency_per_doubling_median", steps["efficiency_per_doubling"].median(), "fraction",
            "Median efficiency per doubling of system size, every step")

    # vendors side by side
    vendors = res.add_table("cross_vendor", mlperf.cross_vendor(table, acc["vendor"].to_dict()))
    res.add("mlperf_cross_vendor_rows_count", len(vendors), "count", "Results in a same-benchmark, same-size, two-vendor comparison")

    # MLPerf Power beside the estimate
    power = table[table["mwh_measured"].notna()]
    power = res.add_table("power", mlperf.distinct(power))
    # MLPerf Power meters the nodes (and switches) at the wall, not the facility: compare with IT power
    ratio = power["mwh_measured"] / (power["mwh_all_in"] / P.pue)  # both at an average draw, neither with the PUE
    res.add("mlperf_power_results_count", len(power), "count", "Distinct results with an MLPerf Power measurement")
    res.add("mlperf_power_measured_over_estimate_min_ratio", ratio.min(), "ratio",
            "MLPerf Power's measured energy over the all-in IT estimate (no PUE), lowest")
    res.add("mlperf_power_measured_over_estimate_max_ratio", ratio.max(), "ratio",
            "MLPerf Power's measured energy over the all-in IT estimate (no PUE), highest")
    res.add("mlperf_power_unscorable_count", raw["energy_scope"].fillna("").str.startswith("not scorable").sum(), "count",
            "Results whose power logs MLPerf's own summarizer cannot score")

    # the planner against the pretraining results
    check = res.add_table("planner", planner_table())
    done = check[check["error_frac"].notna()]
    res.add("mlperf_planner_checked_count", len(done), "count", "Pretraining results the planner predicted")
    res.add("mlperf_planner_not_planned_count", (check["why_not"] != "").sum(), "count",
            "Pretraining results on accelerators the planner cannot plan (no TDP)")
    res.add("mlperf_planner_median_abs_error_frac", done["error_frac"].abs().median(), "fraction",
            "Planner vs MLPerf: median absolute error of the time to target")
    res.add("mlperf_planner_median_error_frac", done["error_frac"].median(), "fraction",
            "Planner vs MLPerf: median signed error (positive: the planner is slower)")
    for bench in ("gpt3", "llama31_405b", "llama31_8b"):
        sub = done[done["benchmark"] == bench]
        res.add(f"mlperf_planner_{bench}_median_error_frac", sub["error_frac"].median(), "fraction",
                f"Planner vs MLPerf on {bench}: median signed error")

    # the price ladder's coverage and spread
    spread = res.add_table("spread", prices.spread(ladder))
    atlas_ids = set(acc.index)
    res.add("mlperf_ladder_accelerators_count", len(atlas_ids & set(ladder["gpu_id"])), "count",
            "Atlas accelerators with at least one tier price")
    res.add("mlperf_atlas_accelerators_count", len(atlas_ids), "count", "Accelerators in the atlas")
    tpu7x = spread.set_index("gpu_id").loc["tpu7x_ironwood"]
    res.add("mlperf_tpu7x_dearest_usd_per_gpu_hour", tpu7x["dearest_usd"], "USD per GPU-hour", "TPU7x: dearest tier price")
    res.add("mlperf_tpu7x_cheapest_usd_per_gpu_hour", tpu7x["cheapest_usd"], "USD per GPU-hour", "TPU7x: cheapest tier price")
    res.add("mlperf_tpu7x_spread_ratio", tpu7x["spread_ratio"], "ratio", "TPU7x: dearest over cheapest tier price")
    return res
