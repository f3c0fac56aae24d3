"""The plan chapter (analysis.chapters.plan): the walk-through is the planner's arithmetic, one run
is set beside the energy and TCO chapters' and Meta's numbers for it, the FLOP-convention example
reproduces Narayanan et al., and the backtest over the published runs meets the targets it is held
to, measured leave-one-run-out on the sourced data (not on tuned constants)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from analysis.chapters import compute_section  # noqa: E402
from analysis.chapters import plan as chapter  # noqa: E402
from analysis.data.load import load_table, row  # noqa: E402
from analysis.figures import plan as figures  # noqa: E402
from analysis.planner import backtest as bt  # noqa: E402
from analysis.planner import mfu  # noqa: E402

T = chapter.TARGETS


@pytest.fixture(scope="module")
def E():
    return compute_section("plan", {})


# --- the published runs ------------------------------------------------------------------------------------

def test_backtest_covers_the_runs_the_issue_asks_for():
    runs = load_table("backtest_runs")
    assert len(runs) >= 25
    classes = set(runs["gpu_id"].map(mfu.gpu_class))
    assert {"A100", "H100", "V100", "TPU v4"} <= classes and "h800_sxm" in set(runs["gpu_id"])
    assert (runs["gpu_id"] == "mi250x").any()  # an AMD run: OLMo on LUMI
    assert set(runs["architecture"]) == {"dense", "moe"}
    assert {"deepseek_v3_pretrain", "llama4_scout", "llama4_maverick"} <= set(runs["run_id"])
    assert runs["params"].min() < 2e9 and runs["total_params"].max() >= 1e12  # 1B to 1T
    assumed = runs[runs["gpus_basis"] == "assumed"]
    assert assumed["note"].str.contains("assumed").all()  # each assumed GPU count says what was assumed


def test_every_run_has_a_primary_source_and_a_published_outcome():
    runs = load_table("backtest_runs")
    sources = load_table("sources").set_index("source_id")
    assert runs["source_id"].isin(sources.index).all()
    outcomes = runs[["published_days", "published_gpu_hours", "published_energy_mwh", "published_co2_t",
                     "achieved_tflops_per_gpu"]].notna().any(axis=1)
    assert outcomes.all()


def test_published_cards_reproduce_on_their_own_basis():
    """The LLaMA paper's Table 15 and Meta's Llama 3.1 card, as the rows hold them: GPU-hours x
    400 W x PUE 1.1 is the published MWh, and x 0.385 the CO2; 30.84M H100-hours x 700 W is 21.6 GWh."""
    r = row("backtest_runs", "llama1_65b")
    mwh = r["published_gpu_hours"] * 0.4 * r["energy_pue"] / 1e3
    assert mwh == pytest.approx(r["published_energy_mwh"], rel=0.005)
    assert mwh * row("grid_carbon", r["grid_id"])["kg_co2_per_kwh"] == pytest.approx(r["published_co2_t"], rel=0.005)
    card = row("backtest_runs", "llama31_405b")
    assert card["published_gpu_hours"] * 0.7 / 1e6 == pytest.approx(21.59, rel=1e-3)


# --- the targets -------------------------------------------------------------------------------------------

def test_published_throughput_reproduces_published_time(E):
    assert E["plan_backtest_published_throughput_outcomes_count"] >= 8
    assert E["plan_backtest_published_throughput_median_abs_error_frac"] <= T["published_throughput_median_abs_error_frac"]
    assert E["plan_backtest_published_throughput_within_band_frac"] >= T["published_throughput_within_band_frac"]


def test_an_unstated_flop_convention_widens_the_band_to_every_convention(E):
    """BLOOM's 150 TFLOP/s come without their FLOP count: the backtest gives no --flops-counted, the
    point reads them as 6N plus attention (months short by the recompute share) and the band spans
    the conventions; given the recompute pass, the months come back within a percent."""
    table = E.tables["backtest"].set_index(["run_id", "key"])
    bloom = table.loc[("bloom_176b", "days_with_failures")]
    assert bloom["flops_counted"] == "model" and bloom["flops_counted_given"] is False
    assert -0.30 < bloom["error_frac"] < -0.20 and bloom["within_band"]
    assert abs(E["plan_backtest_bloom_read_wall_days_error_frac"]) < 0.01
    gpt3 = table.loc[("narayanan_gpt3_175b", "days")]  # stated by the source: a narrow band
    assert gpt3["flops_counted_given"] is True and gpt3["p90"] / gpt3["p10"] < 1.2 < bloom["p90"] / bloom["p10"]
    assert E["plan_backtest_convention_unstated_outcomes_count"] >= 2


def test_each_published_time_is_compared_on_its_own_basis(E):
    """DeepSeek's GPU-hours are a rate times tokens (no failures): set against compute alone; Meta's
    Llama 3.1 card counts total GPU time (failures in): against paid GPU-hours; Phi-3's days include
    post-training: an upper bound, checked apart and kept out of the medians and the fit."""
    table = E.tables["backtest_estimated"].set_index("run_id")
    assert table.loc["deepseek_v3_pretrain", "basis"] == "failures excluded"
    assert table.loc["llama31_70b", "basis"] == "failures included"
    assert table.loc["llama2_70b", "basis"].startswith("failures not said")
    phi = table.loc["phi3_medium"]
    assert phi["comparison"] == "upper bound" and phi["holds"] and phi["predicted"] < phi["published"]
    assert "phi3_medium" not in set(mfu.production_runs()["run_id"])
    assert E["plan_backtest_upper_bound_runs_count"] == 1 == E["plan_backtest_upper_bound_holds_count"]
    runs = load_table("backtest_runs")
    timed = runs["published_days"].notna() | runs["published_gpu_hours"].notna()
    assert runs.loc[timed, ["time_ablations", "time_later_stages"]].notna().all().all()
    assert (runs["gpus_basis"] == "upper bound").sum() >= 1  # Falcon's "up to 4,096"


def test_estimated_error_on_runs_without_a_throughput_misses_the_15_percent_target_and_says_so(E):
    """Issue 46 asks at most 15 %; the planner's memory-aware form, built from physics and not tuned,
    measures 19.4 % over 21 runs (20.7 % without the memory term). The page prints the miss."""
    measured = E["plan_backtest_estimated_median_abs_error_frac"]
    assert T["estimated_median_abs_error_frac"] == 0.15
    assert 0.15 < measured < 0.20  # no better than the target, no worse than the old bound
    row = next(line for line in figures.targets_table(E).splitlines() if line.startswith("| Median error on time"))
    assert row.rstrip().endswith("| no |")


def test_estimated_error_is_what_the_page_reports_and_beats_the_benchmark_fit(E):
    table = E.tables["backtest_estimated"]
    none = table[~table["throughput_given"] & (table["comparison"] == "point")]
    assert len(none) >= 15
    assert E["plan_backtest_estimated_median_abs_error_frac"] == pytest.approx(none["error_frac"].abs().median())
    assert E["plan_backtest_estimated_median_abs_error_frac"] < 0.30
    # the planner's own pass through plan() and its row of the variants table are one measurement
    assert E["plan_backtest_variant_recompute_class_slopes_memory_estimated_median_abs_error_frac"] == pytest.approx(
        E["plan_backtest_estimated_median_abs_error_frac"], abs=1e-9)
    assert (E["plan_backtest_variant_recompute_class_slopes_memory_estimated_median_abs_error_frac"]
            < E["plan_backtest_variant_benchmark_only_estimated_median_abs_error_frac"] - 0.10)


def test_the_memory_term_is_physics_with_the_physical_sign(E):
    """A model pressing harder on memory needs more model parallelism, so its slope must not be
    positive; and it lowers the error of the planner's earlier form on these runs."""
    assert E["plan_backtest_memory_slope_per_decade"] < 0
    assert (E["plan_backtest_variant_recompute_class_slopes_memory_estimated_median_abs_error_frac"]
            < E["plan_backtest_variant_recompute_class_slopes_estimated_median_abs_error_frac"])
    table = E.tables["backtest_estimated"].set_index("run_id")
    # 16 bytes a parameter of state over 80 GB: a 405B model needs tens of GPUs per copy, a 1B one a share of one
    assert table.loc["llama31_405b", "memory_pressure"] > 10 > 1 > table.loc["llama32_1b", "memory_pressure"]
    # the same model on 40 GB A100s presses twice as hard as on 80 GB ones, nearly (activations aside)
    assert table.loc["mpt_7b", "memory_pressure"] > 1.5 * table.loc["llama1_7b", "memory_pressure"]


@pytest.mark.parametrize("form", ["class_factors", "shared_slope", "class_slopes", "class_slopes_prior_1",
                                  "class_slopes_prior_4"])
def test_counting_full_recomputation_lowers_the_error_of_every_form(E, form):
    """The recompute ratio is known, not fitted; on the sourced runs it helps every form of the term
    on both measures, not just the planner's."""
    for scope in ("estimated", "all"):
        new = E[f"plan_backtest_variant_recompute_{form}_{scope}_median_abs_error_frac"]
        assert new < E[f"plan_backtest_variant_{form}_{scope}_median_abs_error_frac"]


def test_the_choice_among_forms_is_measured_inside_the_leave_one_out(E):
    """Picking the form with the lowest error would let the pick see every run; the page prints the
    pick made again without each run, and the planner keeps its form fixed instead."""
    table = E.tables["backtest_variants"]
    assert table["key"].iloc[-1] == "selected" and len(table) >= 15
    assert {"recompute_ridge_class", "recompute_params_per_gpu_class", "recompute_gpus_class",
            "recompute_class_slopes_huber"} <= set(table["key"])
    selected = E["plan_backtest_variant_selected_estimated_median_abs_error_frac"]
    assert selected > E["plan_backtest_variant_recompute_gpus_class_estimated_median_abs_error_frac"]


def test_no_gpu_class_or_size_band_with_enough_runs_is_biased_beyond_20_percent(E):
    classes, sizes = E.tables["backtest_by_class"], E.tables["backtest_by_size"]
    enough = classes[classes["runs"] >= mfu.MIN_CLASS_RUNS]
    assert set(enough["gpu_class"]) >= {"A100", "H100"}
    assert (enough["signed_median_error_frac"].abs() <= T["class_signed_median_error_frac"]).all()
    bands = sizes[sizes["runs"] >= mfu.MIN_CLASS_RUNS]
    assert set(bands["size_band"]) == {"3B to 30B", "over 30B"} and set(sizes["size_band"]) >= {"under 3B"}
    assert (bands["signed_median_error_frac"].abs() <= T["class_signed_median_error_frac"]).all()
    assert E["plan_backtest_worst_group_signed_median_error_frac"] <= T["class_signed_median_error_frac"]


def test_band_holds_the_published_time_for_70_to_90_percent_of_runs(E):
    table = E.tables["backtest_estimated"]
    points = table[table["comparison"] == "point"]
    assert len(table) >= 25
    assert T["within_band_frac"] <= points["within_band"].mean() <= T["within_band_max_frac"]
    assert E["plan_backtest_within_band_frac"] == pytest.approx(points["within_band"].mean())
    # the band is wide where evidence is thin: single-run classes get the pooled errors
    widths = (table["p90"] / table["p10"]).groupby(table["gpu_class"]).median()
    assert widths[["TPU v4", "V100"]].min() > widths[["A100", "H100"]].max()


@pytest.mark.parametrize("key,target", [("plan_backtest_bloom_read_energy_error_frac", "bloom_energy_error_frac"),
                                        ("plan_backtest_llama_65b_energy_error_frac", "llama_65b_energy_error_frac"),
                                        ("plan_backtest_llama31_405b_co2_error_frac", "llama31_405b_co2_error_frac")])
def test_published_energy_and_co2_on_their_sources_basis(E, key, target):
    assert abs(E[key]) <= T[target]
    # on the GPU-TDP basis energy is GPU-hours x watts, so BLOOM's energy error is its GPU-hours error
    assert E["plan_backtest_bloom_176b_energy_mwh_error_frac"] == pytest.approx(
        E["plan_backtest_bloom_176b_gpu_hours_error_frac"], abs=1e-3)


def test_published_values_are_the_issues(E):
    assert E["plan_backtest_bloom_energy_published"] == 433
    assert E["plan_backtest_llama_65b_energy_published"] == 449
    assert E["plan_backtest_llama31_405b_co2_published"] == 8930


def test_each_estimate_is_made_without_its_run(E):
    """The estimated pass equals the MFU estimate with the run excluded, run by run (a run that
    recomputed fully is planned as one: its throughput is withheld, not its setup)."""
    from analysis.planner import model_from_run

    runs = load_table("backtest_runs").set_index("run_id")
    table = E.tables["backtest_estimated"]
    for r in table.itertuples():
        x = runs.loc[r.run_id]
        recompute = mfu.recompute_factor(model_from_run(x)) if x["flops_counted"] == "hardware-full" else 1.0
        est = mfu.estimate_mfu(x["gpu_id"], x["precision"], float(x["params"]), int(x["gpus"]), exclude_run=r.run_id,
                               recompute=recompute, memory_pressure=r.memory_pressure)
        assert r.mfu_estimated == pytest.approx(est.mfu)


def test_backtest_has_an_error_for_every_comparison(E):
    table = E.tables["backtest"]
    assert (table["error_frac"] == table["predicted"] / table["published"] - 1).all()
    for r in table.itertuples():
        slug = r.key if r.key != "days_with_failures" else "wall_days"
        assert E[f"plan_backtest_{r.run_id}_{slug}_error_frac"] == pytest.approx(r.error_frac)
    compared = set(table["run_id"])
    skipped = set(E.tables["backtest_not_compared"]["run_id"])
    timed = set(E.tables["backtest_estimated"]["run_id"])
    assert set(load_table("backtest_runs")["run_id"]) <= compared | skipped | timed


# --- the walk-through, one run, the FLOP convention ---------------------------------------------------------

def test_narayanan_example(E):
    assert E["plan_gpt3_hardware_full_days"] == pytest.approx(34, rel=0.03)
    assert E["plan_gpt3_as_model_flops_days"] / E["plan_gpt3_hardware_full_days"] == pytest.approx(
        1 / E["plan_gpt3_hardware_to_model_flops_ratio"])
    assert 0.24 < E["plan_gpt3_misread_shortfall_frac"] < 0.26


def test_walkthrough_is_the_planners_arithmetic(E):
    p = "plan_llama31_405b"
    rate = E[f"{p}_achieved_tflops"] * 1e12 / E[f"{p}_flops_per_token"]
    assert E[f"{p}_tokens_per_s_per_gpu"] == pytest.approx(rate)
    assert E[f"{p}_days"] == pytest.approx(E[f"{p}_tokens"] / (E[f"{p}_gpus"] * rate) / 86_400)
    assert E[f"{p}_gpu_hours"] == pytest.approx(E[f"{p}_gpus"] * E[f"{p}_days_with_failures"] * 24)
    assert E[f"{p}_cost_usd"] == pytest.approx(E[f"{p}_gpu_hours"] * E[f"{p}_usd_per_gpu_hour"])
    assert E[f"{p}_energy_gpu_tdp_mwh"] == pytest.approx(E[f"{p}_gpu_hours"] * 700 / 1e6)
    assert E[f"{p}_energy_facility_mwh"] == pytest.approx(E[f"{p}_gpu_hours"] * E[f"{p}_meter_w_per_gpu"] / 1e6)
    # within 5 % of the model card's GPU-hours, which include Meta's restarts and other stages
    assert E[f"{p}_gpu_hours"] == pytest.approx(E[f"{p}_published_gpu_hours"], rel=0.05)


def test_one_run_reads_the_energy_and_tco_chapters(E):
    energy, tco = compute_section("energy", {}), compute_section("tco", {})
    o = "plan_one_run"
    assert E[f"{o}_clean_pass_energy_gwh"] == energy["llama31_405b_bf16_energy_15t_tokens_gwh"]
    assert E[f"{o}_clean_pass_household_years"] == energy["llama31_405b_bf16_household_years_15t_tokens"]
    assert E[f"{o}_clean_pass_cost_usd"] == tco["llama31_405b_bf16_cost_15t_tokens_usd"]
    assert E[f"{o}_card_energy_gwh"] == pytest.approx(21.588)  # Meta's 30.84M H100-hours x 700 W
    assert E[f"{o}_card_co2_t"] == 8930
    assert abs(E[f"{o}_gpu_tdp_vs_card_energy_error_frac"]) < 0.05
    # what differs is said: the throughput and failures (GPU-hours), and the basis (watts per GPU-hour)
    assert E[f"{o}_plan_vs_clean_gpu_hours_ratio"] > 1.2
    assert E[f"{o}_facility_vs_tdp_ratio"] == pytest.approx(E["plan_llama31_405b_meter_w_per_gpu"] / 700)


def test_power_budget_example(E):
    assert E["plan_budget_gpus"] == E["plan_budget_racks"] * 72
    assert E["plan_budget_gpus"] * E["plan_budget_w_per_gpu"] <= E["plan_budget_power_mw"] * 1e6


def test_figures_and_tables_render_for_readers(E):
    fig = figures.backtest(E)
    assert len(fig.axes[0].get_yticklabels()) == len(E.tables["backtest_estimated"])
    plt.close(fig)
    for table in (figures.backtest_table(E), figures.estimated_table(E), figures.class_table(E),
                  figures.targets_table(E), figures.one_run_table(E), figures.variants_table(E),
                  figures.walkthrough_table(E)):
        assert "_" not in table.replace("\\_", "")  # no internal ids in reader text
        assert "e+" not in table


def test_not_compared_runs_say_why():
    table = bt.not_compared()
    assert len(table) and table["reason"].str.contains("no sourced").all()
    assert np.isin(table["gpu_id"], ["v100_sxm2_32gb", "tpu_v3", "mi250x"]).all()
