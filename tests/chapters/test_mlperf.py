"""The MLPerf chapter (analysis.chapters.mlperf): each dollar figure is GPU-hours x a named tier's
price, energy follows the atlas's power and the PUE, the planner check is the planner's own answer,
and the figures and tables render."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from analysis import planner  # noqa: E402
from analysis.chapters import compute_section  # noqa: E402
from analysis.data.load import load_table  # noqa: E402
from analysis.figures import mlperf as figures  # noqa: E402


@pytest.fixture(scope="module")
def E():
    return compute_section("mlperf")


def test_every_result_is_counted_once_per_round_and_benchmark(E):
    per = sum(q.value for k, q in E.quantities.items() if k.startswith("mlperf_v") and k.endswith("_results_count"))
    assert per == E["mlperf_results_count"] == len(load_table("mlperf_training"))
    assert E["mlperf_rounds_read_count"] == 4 < E["mlperf_rounds_published_count"]  # v6.0 is the gap


def test_headline_dollars_are_gpu_hours_times_the_tier_price(E):
    hours = E["mlperf_405b_fastest_gpu_hours"]
    assert hours == pytest.approx(E["mlperf_405b_fastest_minutes"] * E["mlperf_405b_fastest_accelerators"] / 60)
    assert E["mlperf_gb200_usd_per_gpu_hour_on_demand"] == 16.0  # Oracle's GB200 list price
    assert E["mlperf_gb200_usd_per_gpu_hour_sa_owning"] == 1.86  # SemiAnalysis's registry
    tco = compute_section("tco")["gb200_tco_usd_per_gpu_hour"]
    assert E["mlperf_gb200_usd_per_gpu_hour_book_tco"] == pytest.approx(tco)
    for key in ("on_demand", "3_year", "sa_owning", "book_tco"):
        assert E[f"mlperf_405b_fastest_usd_{key}"] == pytest.approx(hours * E[f"mlperf_gb200_usd_per_gpu_hour_{key}"])
    assert E["mlperf_405b_fastest_usd_on_demand"] > E["mlperf_405b_fastest_usd_book_tco"] > E["mlperf_405b_fastest_usd_sa_owning"]


def test_energy_uses_the_atlas_power_and_the_pue(E):
    hours = E["mlperf_405b_fastest_gpu_hours"]
    gb200_it_w = compute_section("atlas")["atlas_gb200_it_w_per_device"]
    # all-in power x PUE x the average draw while training (the book's energy basis)
    assert E["mlperf_405b_fastest_mwh_all_in"] == pytest.approx(
        hours * gb200_it_w * E["mlperf_pue"] * E["mlperf_load_factor_frac"] / 1e6)
    assert E["mlperf_load_factor_frac"] == 0.82
    assert E["mlperf_405b_fastest_mwh_tdp"] == pytest.approx(hours * 1200 / 1e6)  # GB200 TDP, data/gpus.csv
    lower = compute_section("mlperf", {"pue": 1.1})
    assert lower["mlperf_405b_fastest_mwh_all_in"] < E["mlperf_405b_fastest_mwh_all_in"]
    assert lower["mlperf_405b_fastest_mwh_tdp"] == E["mlperf_405b_fastest_mwh_tdp"]


def test_mlperf_power_is_a_measurement_below_the_design_build_up(E):
    power = E.tables["power"]
    assert len(power) == E["mlperf_power_results_count"] >= 3
    assert (power["mwh_measured"] > 0).all()
    # measured at the wall, so compared with IT watts (no PUE): below the all-in build-up, above a third of it
    assert 0.3 < E["mlperf_power_measured_over_estimate_min_ratio"] <= E["mlperf_power_measured_over_estimate_max_ratio"] < 1.0


def test_planner_check_is_the_planners_own_answer(E):
    check = E.tables["planner"]
    done = check[check["error_frac"].notna()]
    assert len(done) == E["mlperf_planner_checked_count"] >= 40
    r = done.iloc[0]
    bench = load_table("mlperf_benchmarks").set_index("benchmark").loc[r["benchmark"]]
    again = planner.plan(planner.PlanInputs(model=planner.model_from_registry(bench["model_id"]), tokens=r["tokens_to_target"],
                                            gpu_id=r["gpu_id"], gpus=int(r["accelerators"]), precision="bf16", draws=20))
    assert r["predicted_minutes"] == pytest.approx(again.results["days"]["value"] * 1440)
    assert E["mlperf_planner_median_abs_error_frac"] == pytest.approx(done["error_frac"].abs().median())
    assert (check.loc[check["error_frac"].isna(), "gpu_id"].str.startswith("tpu")).all()  # only TPUs go unplanned


def test_the_planner_check_follows_the_data_it_is_computed_from(tmp_path, monkeypatch):
    """The check's planner answers are kept per run and per state of the data: a process that
    computed the check on an edited copy of a table the planner reads (as a test does) gets the
    book's answers again on the book's data, and never stores the copy's under the book's key. A
    memo keyed on the run alone once did, and a later test read the copy's answer from the store."""
    import shutil

    import pandas as pd

    from analysis.chapters import mlperf
    from analysis.data import load as data

    monkeypatch.setenv("ANALYSIS_TABLE_CACHE", "0")  # computed here, not read from a stored entry

    def first_planned():
        data.clear_cache()
        check = mlperf.planner_table()
        return check.loc[check["error_frac"].notna(), "predicted_minutes"].iloc[0]

    book = first_planned()
    folder = shutil.copytree(data.DATA_DIR, tmp_path / "data")
    runs = pd.read_csv(folder / "backtest_runs.csv", dtype=str, keep_default_na=False)
    runs.loc[runs["run_id"] == "llama31_70b", "published_gpu_hours"] = "14000000"  # moves the production term
    runs.to_csv(folder / "backtest_runs.csv", index=False)
    monkeypatch.setenv("ANALYSIS_DATA_DIR", str(folder))
    assert first_planned() != pytest.approx(book, rel=1e-6)
    monkeypatch.delenv("ANALYSIS_DATA_DIR")
    assert first_planned() == book
    data.clear_cache()


def test_scaling_steps_and_cross_vendor_rows(E):
    steps = E.tables["scaling"]
    assert (steps["efficiency_per_doubling"] > 0).all()
    # one submitter, one software stack: no step is far better than perfect scaling (across
    # submitters it can be: Juniper's 32-H100 LoRA result is four times slower per GPU than
    # Supermicro's 64, which is why the table names both ends)
    same = steps[steps["same_framework"] & (steps["submitter_from"] == steps["submitter_to"])]
    assert len(same) >= 20 and (same["efficiency_per_doubling"] < 1.2).all()
    assert E["mlperf_405b_gb200_v5_1_gpu_hours_5120"] > E["mlperf_405b_gb200_v5_1_gpu_hours_2560"]
    vendors = E.tables["cross_vendor"]
    for _, g in vendors.groupby(["round", "benchmark", "accelerators"]):
        assert g["vendor"].nunique() >= 2


def test_ladder_covers_the_atlas_and_prices_ironwood(E):
    assert E["mlperf_ladder_accelerators_count"] == E["mlperf_atlas_accelerators_count"] - 2  # A100, Trainium2
    assert (E["mlperf_tpu7x_dearest_usd_per_gpu_hour"], E["mlperf_tpu7x_cheapest_usd_per_gpu_hour"]) == (12.0, 1.21)
    assert E["mlperf_tpu7x_spread_ratio"] == pytest.approx(12.0 / 1.21)
    prices = load_table("cloud_prices")
    assert prices["tier"].notna().all() and prices["evidence"].notna().all() and prices["date"].notna().all()


def test_figures_and_tables_render(E):
    for fig in (figures.scaling_figure(E), figures.tiers_figure(E)):
        assert fig.axes and fig.get_size_inches()[0] <= 7.5
        plt.close(fig)
    assert figures.headline_table(E).count("\n") >= 4
    assert figures.cross_vendor_table(E).count("<tr") == E["mlperf_cross_vendor_rows_count"] + 1
    for table in (figures.ladder_table, figures.spread_table, figures.power_table):
        text = table(E)
        assert "|" in text and "nan" not in text.lower().split("|")
    assert figures.scaling_table(E).count("<tr") == (E.tables["scaling"]["benchmark"] != "llama2_70b_lora").sum() + 1
    assert figures.planner_table(E).count("<tr") == E["mlperf_planner_checked_count"] + 1
    assert figures.results_table(E).count("<tr") == len(E.tables["results"]) + 1
    assert not np.isnan(E.tables["results"]["gpu_hours"]).any()
