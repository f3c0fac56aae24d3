"""The planner (``analysis.planner``) and ``python -m analysis plan``: values against hand
arithmetic, the MFU estimate's leave-one-run-out honesty, both energy bases, grids, the power
budget, MoE FLOPs, the readable and JSON outputs, and bad input exiting with code 2."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analysis import flops, planner, reliability
from analysis.cli import main
from analysis.data.load import fact, load_table, row
from analysis.params import defaults as d
from analysis.planner import budget, memory, mfu, power, production_term, report

KEYS = list(planner.KEYS)


def _llama70b(**kw):
    base = dict(model=planner.model_from_registry("llama31_70b"), tokens=15e12, gpu_id="h100_sxm", gpus=4096,
                mfu=0.40, usd_per_gpu_hour=2.0, pue=1.2, grid_g_co2_per_kwh=400.0)
    return planner.plan(planner.PlanInputs(**{**base, **kw}))


def test_days_gpu_hours_cost_energy_by_hand():
    r = _llama70b()
    # 6 N + 12 L h s: N = 70.55e9 - 128256 x 8192 untied input embedding, L = 80, h = 8192, s = 8192.
    n = 70_553_706_496 - 128_256 * 8192
    fpt = 6 * n + 12 * 80 * 8192 * 8192
    days = 15e12 * fpt / (4096 * 989.4e12 * 0.40) / 86_400
    assert r.results["days"]["value"] == pytest.approx(days, rel=1e-9)
    good = r.results["goodput"]["value"]
    assert r.results["days_with_failures"]["value"] == pytest.approx(days / good, rel=1e-9)
    gpu_hours = 4096 * days / good * 24
    assert r.results["gpu_hours"]["value"] == pytest.approx(gpu_hours, rel=1e-9)
    assert r.results["cost_usd"]["value"] == pytest.approx(2.0 * gpu_hours, rel=1e-9)
    # both bases, the given PUE applied to each: all-in IT watts at the average draw (the load factor,
    # 82 % of rated, the book's energy basis), and the GPU's 700 W TDP
    facility = gpu_hours * d.H100_IT_W_PER_GPU.default * 1.2 * d.LOAD_FACTOR.default / 1e6
    tdp = gpu_hours * 700 * 1.2 / 1e6
    assert r.results["energy_facility_mwh"]["value"] == pytest.approx(facility, rel=1e-9)
    assert r.results["energy_gpu_tdp_mwh"]["value"] == pytest.approx(tdp, rel=1e-9)
    assert r.energy_basis == "facility" and r.results["energy_mwh"]["value"] == pytest.approx(facility)
    assert r.results["co2_t"]["value"] == pytest.approx(facility * 1_000 * 400 / 1e6, rel=1e-9)
    assert r.results["co2_gpu_tdp_t"]["value"] == pytest.approx(tdp * 1_000 * 400 / 1e6, rel=1e-9)
    assert r.results["household_years"]["value"] == pytest.approx(facility * 1_000 / d.HOUSEHOLD_KWH_PER_YEAR.default)


def test_gpu_tdp_basis_applies_a_pue_only_where_given():
    given, none = _llama70b(energy_basis="gpu-tdp"), _llama70b(energy_basis="gpu-tdp", pue=None)
    hours = none.results["gpu_hours"]["value"]
    assert none.results["energy_mwh"]["value"] == pytest.approx(hours * 700 / 1e6)  # no PUE unless given
    assert given.results["energy_mwh"]["value"] == pytest.approx(hours * 700 * 1.2 / 1e6)
    # the facility basis takes the book's PUE when none is given, at the average draw
    assert none.results["energy_facility_mwh"]["value"] == pytest.approx(
        hours * d.H100_IT_W_PER_GPU.default * d.PUE.default * d.LOAD_FACTOR.default / 1e6)


def test_failures_follow_daly_and_the_llama3_rates():
    r = _llama70b()
    mtbf = reliability.job_mtbf_hours(4096, 1.0 / reliability.llama3_rates()["job"])
    write = d.CHECKPOINT_WRITE_SECONDS.default / 3600
    interval = reliability.daly_interval(write, mtbf)
    assert r.results["checkpoint_interval_min"]["value"] == pytest.approx(interval * 60)
    rate, restart = reliability.llama3_rates()["planned_per_hour"], d.RESTART_MINUTES.default / 60
    per_wall_hour = rate / (1 + rate * restart)  # planned interruptions come per hour of running
    good = reliability.expected_goodput(mtbf, interval, write, d.FAILURE_DETECTION_MINUTES.default / 60,
                                        restart, per_wall_hour)
    assert r.results["goodput"]["value"] == pytest.approx(good)
    # at the book's restart the running-hour reading moves goodput by under 0.01 % from the reliability chapter's
    chapter = reliability.expected_goodput(mtbf, interval, write, d.FAILURE_DETECTION_MINUTES.default / 60, restart, rate)
    assert good == pytest.approx(chapter, rel=1e-4)
    wall = r.results["days_with_failures"]["value"] * 24
    assert r.results["interruptions"]["value"] == pytest.approx(wall / mtbf + wall * per_wall_hour, rel=0.01)


def test_three_ways_to_give_throughput_agree():
    m = planner.model_from_registry("llama31_70b")
    fpt = flops.model_flops_per_token(m)
    by_mfu = _llama70b().results["days"]["value"]
    rate = 0.40 * 989.4e12 / fpt
    by_rate = _llama70b(mfu=None, tokens_per_s_per_gpu=rate).results["days"]["value"]
    by_tflops = _llama70b(mfu=None, achieved_tflops=0.40 * 989.4, flops_counted="model").results["days"]["value"]
    assert by_rate == pytest.approx(by_mfu) and by_tflops == pytest.approx(by_mfu)
    hw = _llama70b(mfu=None, achieved_tflops=0.40 * 989.4, flops_counted="hardware-full").results["days"]["value"]
    assert hw / by_mfu == pytest.approx(flops.hardware_flops_per_token(m, recompute="full") / fpt)


def test_bands_bracket_the_point_and_are_seeded():
    a, b = _llama70b(pue=None), _llama70b(pue=None)
    for key in KEYS:
        r = a.results[key]
        assert r["p10"] <= r["p50"] <= r["p90"]
        assert r == b.results[key]
    assert a.results["energy_mwh"]["p10"] < a.results["energy_mwh"]["p90"]


def test_tco_price_is_the_tco_chapters_result():
    from analysis.chapters import compute_section

    r = _llama70b(usd_per_gpu_hour=None, pue=None)
    tco = compute_section("tco", {})
    assert r.steps["usd_per_gpu_hour"] == pytest.approx(tco["h100_tco_usd_per_gpu_hour"], rel=1e-12)
    g = _llama70b(gpu_id="gb200_nvl72", usd_per_gpu_hour=None, pue=None)
    assert g.steps["usd_per_gpu_hour"] == pytest.approx(tco["gb200_tco_usd_per_gpu_hour"], rel=1e-12)
    # a given PUE reaches the TCO the way a scenario's does
    assert _llama70b(usd_per_gpu_hour=None, pue=1.15).steps["usd_per_gpu_hour"] == pytest.approx(
        compute_section("tco", {"pue": 1.15})["h100_tco_usd_per_gpu_hour"], rel=1e-12)


def test_no_price_for_an_unmodelled_gpu_is_null_not_a_guess():
    r = _llama70b(gpu_id="h800_sxm", usd_per_gpu_hour=None)
    assert r.results["cost_usd"]["value"] is None


def test_tco_price_is_the_books_tco_for_h100():
    from analysis.chapters import compute_section
    r = _llama70b(usd_per_gpu_hour=None, pue=None)
    assert r.steps["usd_per_gpu_hour"] == pytest.approx(compute_section("tco")["h100_tco_usd_per_gpu_hour"])


# --- the MFU estimate --------------------------------------------------------------------------------------

def test_estimate_is_benchmark_times_the_pooled_production_term():
    r = _llama70b(mfu=None)
    est = r.throughput["estimate"]
    fit = mfu.fit_factor(mfu.production_runs())
    bench = mfu.benchmark_mfu("h100_sxm", "bf16", 70_553_706_496, 4096)
    assert est["benchmark_mfu"] == pytest.approx(bench)
    pressure = memory.memory_pressure(planner.model_from_registry("llama31_70b"), 4096, "h100_sxm")
    assert est["memory_pressure"] == pytest.approx(pressure)
    assert est["production_factor"] == pytest.approx(np.exp(fit.log_factor("H100", 70_553_706_496, pressure)))
    assert est["memory_factor"] == pytest.approx(np.exp(fit.memory_slope * np.log10(pressure)))
    assert r.steps["mfu"] == pytest.approx(bench * est["production_factor"])
    assert any("leave-one-run-out" in n and "H100" in n for n in r.notes)


def test_leave_one_run_out_never_sees_the_run(data_copy):
    """A run's estimate made without it does not move when that run's published time changes; every
    other run's estimate does."""
    from analysis.data import load as data

    before = {rid: mfu.estimate_mfu("h100_sxm", "bf16", 7e10, 16384, exclude_run=rid).mfu
              for rid in ("llama31_70b", "llama3_70b")}
    path = data_copy / "backtest_runs.csv"
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    table.loc[table["run_id"] == "llama31_70b", "published_gpu_hours"] = "14000000"  # twice the card's
    table.to_csv(path, index=False)
    data.clear_cache()
    after = {rid: mfu.estimate_mfu("h100_sxm", "bf16", 7e10, 16384, exclude_run=rid).mfu for rid in before}
    assert after["llama31_70b"] == pytest.approx(before["llama31_70b"], rel=1e-12)
    assert after["llama3_70b"] < before["llama3_70b"]


@pytest.mark.parametrize("variant", [mfu.MODEL, mfu.Variant("none"), mfu.Variant("shared"),
                                     mfu.Variant("class", 1.0, recompute=False)])
def test_loo_residuals_are_the_refits_without_each_run(variant):
    """The hat-matrix shortcut equals refitting without each run, one-run classes (TPU v3 and v4,
    V100) included, whose refit has no run of that class."""
    t = mfu.production_runs()
    res = mfu.loo_residuals(t, variant)
    for i in range(len(t)):
        rest = t.drop(index=t.index[i])
        r = t.iloc[i]
        term = r["log_ratio"] - (r["recompute_log"] if variant.recompute else 0.0)
        pressure = r["memory_pressure"] if variant.memory else 1.0
        expected = term - mfu.fit_factor(rest, variant).log_factor(r["gpu_class"], r["params"], pressure)
        assert res[r["run_id"]] == pytest.approx(expected, abs=1e-9)


def test_robust_loo_refits_without_each_run():
    t = mfu.production_runs()
    v = mfu.Variant("class", robust=True)
    res = mfu.loo_residuals(t, v)
    classes, codes, z, y = production_term.term_arrays(t, v)
    k = len(classes)
    for i in (0, 8, len(t) - 1):  # runs of classes with many runs: the refit keeps every class
        keep = np.arange(len(t)) != i
        coef = production_term.solve_term(codes[keep], z[keep], y[keep], k, v)
        assert res.iloc[i] == pytest.approx(y[i] - production_term.predict_term(coef, k, int(codes[i]), z[i], v), abs=1e-12)
    # a robust fit gives a far-out run less pull than least squares does
    y_out = y.copy()
    y_out[8] += 3.0
    ls, hub = mfu.Variant("class"), v
    move_ls = production_term.solve_term(codes, z, y_out, len(classes), ls) - production_term.solve_term(codes, z, y, len(classes), ls)
    move_hub = production_term.solve_term(codes, z, y_out, len(classes), hub) - production_term.solve_term(codes, z, y, len(classes), hub)
    assert np.abs(move_hub).max() < 0.5 * np.abs(move_ls).max()


def test_full_recompute_runs_are_taken_on_the_basis_of_a_run_without_it():
    """A run whose published throughput counts the recompute pass (hardware-full) did 8 N-odd FLOPs
    per token for the model's 6 N: its term is raised by the hardware / model FLOP ratio of its own
    shape (not a fitted constant), and a plan with --full-recompute gets the same ratio back."""
    t = mfu.production_runs().set_index("run_id")
    runs = load_table("backtest_runs").set_index("run_id")
    full = runs.index[runs["flops_counted"] == "hardware-full"]
    assert set(full) == set(t.index[t["full_recompute"]]) and len(full) >= 4
    for rid in full:
        ratio = mfu.recompute_factor(planner.model_from_run(runs.loc[rid]))
        assert 0.72 < ratio < 0.78  # about 6/8: the recompute pass is one more forward of the layers
        assert t.loc[rid, "recompute_log"] == pytest.approx(np.log(ratio))
    assert (t.loc[~t["full_recompute"], "recompute_log"] == 0).all()
    plain = _llama70b(mfu=None)
    full_run = _llama70b(mfu=None, full_recompute=True)
    ratio = mfu.recompute_factor(planner.model_from_registry("llama31_70b"))
    # keeping each layer's input only also lowers the memory pressure, which the memory slope reads
    a, b = plain.throughput["estimate"], full_run.throughput["estimate"]
    assert b["memory_pressure"] < a["memory_pressure"]
    pressure = b["memory_factor"] / a["memory_factor"]
    assert full_run.steps["mfu"] == pytest.approx(plain.steps["mfu"] * ratio * pressure)
    assert full_run.throughput["estimate"]["recompute_factor"] == pytest.approx(ratio)
    assert full_run.results["gpu_hours"]["value"] == pytest.approx(
        plain.results["gpu_hours"]["value"] / (ratio * pressure), rel=1e-6)


def test_full_recompute_flag(capsys):
    assert main([*BASE, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*BASE, "--json", "--full-recompute"]) == 0
    full = json.loads(capsys.readouterr().out)
    ratio = full["throughput"]["estimate"]["recompute_factor"]
    assert 0.72 < ratio < 0.78 and plain["throughput"]["estimate"]["recompute_factor"] == 1.0
    pressure = full["throughput"]["estimate"]["memory_factor"] / plain["throughput"]["estimate"]["memory_factor"]
    assert full["results"]["days"]["value"] == pytest.approx(plain["results"]["days"]["value"] / (ratio * pressure),
                                                             rel=1e-6)


def test_the_choice_among_variants_never_sees_the_run():
    """Moving one run's published time changes neither which form is chosen for it nor anything its
    prediction rests on: its error moves by exactly the factor its time moved."""
    from analysis.planner import variants

    t = mfu.production_runs()
    i = int(np.flatnonzero(t["run_id"] == "llama1_13b")[0])
    moved = t.copy()
    moved.loc[moved.index[i], "log_ratio"] += 0.5
    forms = [f for f in variants.VARIANTS if f[2] is None or not f[2].robust]  # the Huber form is slow to refit
    before, after = variants.selected_loo_residuals(t, forms), variants.selected_loo_residuals(moved, forms)
    assert after["chosen"].iloc[i] == before["chosen"].iloc[i]
    assert 1 + after["error_frac"].iloc[i] == pytest.approx((1 + before["error_frac"].iloc[i]) * np.exp(0.5))
    for key, _, v in forms[1:]:  # each row is its form's own leave-one-out error
        if key == before["chosen"].iloc[i]:
            assert before["error_frac"].iloc[i] == pytest.approx(np.exp(mfu.loo_residuals(t, v).iloc[i]) - 1)


def test_band_draws_the_measured_errors_of_the_class_or_of_all_runs():
    h100 = mfu.estimate_mfu("h100_sxm", "bf16", 7e10, 4096)
    assert h100.class_runs >= mfu.MIN_CLASS_RUNS and len(h100.ratios) == h100.class_runs
    v100 = mfu.estimate_mfu("v100_sxm2_32gb", "fp16", 1.75e11, 1024)
    assert 0 < v100.class_runs < mfu.MIN_CLASS_RUNS and len(v100.ratios) == v100.runs
    gb200 = mfu.estimate_mfu("gb200_nvl72", "bf16", 4e11, 16384)  # no published GB200 run
    assert gb200.class_runs == 0 and "class left out" in gb200.error_scope
    # a class it has never seen is estimated with a wider band than one it has 15 runs of
    def spread(e):
        return np.percentile(e.ratios, 90) / np.percentile(e.ratios, 10)

    assert spread(gb200) > spread(h100)


def test_production_term_pools_a_one_run_class_toward_all_classes():
    """A class with one run (TPU v4, PaLM) lands between that run's own term and the term of a class
    with no run, at the run's size: pooled, neither ignored nor taken whole."""
    fit = mfu.fit_factor(mfu.production_runs())
    palm = mfu.production_runs().query("gpu_class == 'TPU v4'").iloc[0]
    pooled = fit.log_factor("TPU v4", palm["params"])
    no_run = fit.log_factor("a class with no run", palm["params"])
    assert min(palm["log_ratio"], no_run) < pooled < max(palm["log_ratio"], no_run)


# --- energy bases, system kinds and grids ---------------------------------------------------------------

def test_it_power_comes_from_each_accelerators_own_system_kind():
    share = fact("B14_network_storage_frac")
    assert power.power_for("h100_sxm").it_w == d.H100_IT_W_PER_GPU.default
    assert power.power_for("gb200_nvl72").it_w == d.GB200_IT_W_PER_GPU.default
    assert power.power_for("a100_sxm_80gb").it_w == pytest.approx(6500 / 8 * (1 + share))  # DGX A100
    assert power.power_for("b200_hgx").it_w == pytest.approx(14300 / 8 * (1 + share))  # DGX B200
    v5p = load_table("accelerators").set_index("gpu_id").loc["tpu_v5p", "it_w_per_device"]
    assert power.power_for("tpu_v5p").it_w == v5p  # Google's pod power per chip
    assert power.power_for("mi300x").it_w is None  # no sourced build-up: said, not guessed


def test_dgx_h100_table_row_checks_the_books_h100_parameter():
    dgx = row("system_power", "h100_sxm")
    built = dgx["system_w"] / dgx["devices_per_system"] * (1 + fact("B14_network_storage_frac"))
    assert built == pytest.approx(d.H100_IT_W_PER_GPU.default, rel=0.02)


def test_facility_basis_without_a_build_up_is_an_error_naming_the_flag():
    with pytest.raises(planner.PlanError, match="--energy-basis facility: mi300x"):
        _llama70b(gpu_id="mi300x", energy_basis="facility")
    r = _llama70b(gpu_id="mi300x", usd_per_gpu_hour=2.0)  # default: the TDP basis, and it says so
    assert r.energy_basis == "gpu-tdp" and r.results["energy_facility_mwh"]["value"] is None


def test_grid_from_the_table_and_the_default_is_the_parameter():
    fr = _llama70b(grid_g_co2_per_kwh=None, grid_id="france")
    mwh = fr.results["energy_mwh"]["value"]
    assert fr.results["co2_t"]["value"] == pytest.approx(mwh * row("grid_carbon", "france")["kg_co2_per_kwh"])
    default = _llama70b(grid_g_co2_per_kwh=None)
    assert default.grid["g_co2_per_kwh"] == d.GRID_G_CO2_PER_KWH.default
    eia = row("grid_carbon", "us_average_eia_2023")["kg_co2_per_kwh"] * 1000
    assert d.GRID_G_CO2_PER_KWH.default == pytest.approx(eia, rel=1e-3)  # the parameter is this row
    with pytest.raises(planner.PlanError, match="--grid mars"):
        _llama70b(grid_g_co2_per_kwh=None, grid_id="mars")


def test_every_named_region_the_issue_lists_is_in_the_grid_table():
    ids = set(load_table("grid_carbon")["grid_id"])
    assert {"us_average", "france", "quebec", "texas_ercot", "iowa_mro_west", "oregon_nwpp", "ireland",
            "eu_average"} <= ids


# --- MoE -------------------------------------------------------------------------------------------------

def test_moe_flops_count_active_params_mla_attention_and_the_router():
    r = row("backtest_runs", "deepseek_v3_pretrain")
    m = planner.model_from_run(r)
    parts = flops.flops_per_token_parts(m)
    n = 37e9 - 129_280 * 7168
    assert parts["matmul"] == pytest.approx(6 * n)
    assert parts["attention"] == pytest.approx(6 * 61 * 4096 * (24_576 + 16_384))  # MLA's widths, not 12 L h s
    assert parts["router"] == pytest.approx(6 * 58 * 7168 * 256)
    assert parts["router"] / parts["matmul"] < 0.005
    dense = dict(m, attention_qk_width=None, attention_v_width=None, experts=None, moe_layers=None)
    assert flops.model_flops_per_token(dense) == pytest.approx(6 * n + 12 * 61 * 7168 * 4096)


def test_model_6n_convention_leaves_attention_out():
    m = planner.model_from_registry("gpt3_175b")
    assert flops.flops_per_token_counted(m, "model-6n") == pytest.approx(flops.flops_per_token_parts(m)["matmul"])


# --- power budget -----------------------------------------------------------------------------------------

TEMPLATE = dict(model=planner.model_from_registry("llama31_405b"), tokens=15e12, gpu_id="gb200_nvl72", gpus=1, draws=500)


def test_power_budget_fills_whole_racks_within_the_budget():
    a = budget.largest_job(planner.PlanInputs(**TEMPLATE), 50.0, "facility")
    per_gpu = d.GB200_IT_W_PER_GPU.default * d.PUE.default
    assert a.gpus % 72 == 0 and a.gpus == a.nodes * 72
    assert a.gpus * per_gpu <= 50e6 < (a.gpus + 72) * per_gpu
    it = budget.largest_job(planner.PlanInputs(**TEMPLATE), 50.0, "it")
    assert it.gpus > a.gpus  # IT power alone leaves more room
    assert a.plan.results["days_with_failures"]["value"] > 0 and a.plan.results["cost_usd"]["value"] > 0


def test_power_budget_table_covers_every_priced_accelerator():
    rows = budget.budget_table(planner.PlanInputs(**TEMPLATE), 50.0)
    priced = budget.priced_accelerators()
    assert [r["gpu_id"] for r in rows] == priced and "h100_sxm" in priced
    answered = {r["gpu_id"] for r in rows if "answer" in r}
    assert {"h100_sxm", "gb200_nvl72"} <= answered
    assert all(r["reason"] for r in rows if "answer" not in r)


def test_power_budget_below_one_node_is_an_error():
    with pytest.raises(planner.PlanError, match="--power-mw 0.1: one node of 72"):
        budget.largest_job(planner.PlanInputs(**TEMPLATE), 0.1)


# --- the readable output ----------------------------------------------------------------------------------

def test_readable_values_are_rounded_to_what_the_band_allows():
    assert report.format_value(55_562_487, "USD", 3) == "$55.6M"
    assert report.format_value(4_213_000, "GPU-hours", 2) == "4.2 million GPU-hours"
    assert report.format_value(7_602.4, "MWh", 2) == "7,600 MWh"
    assert report.format_value(0.9669, "fraction") == "96.7 %"
    assert report.significant_digits(100.0, 80.0, 125.0) == 2 and report.significant_digits(100.0, 99.0, 101.0) == 3
    assert report.format_range(15.62, 15.62, "minutes", 3) == "15.6 minutes"  # equal ends: one value
    assert report.format_range(37.2, 81.4, "days", 2) == "37 to 81 days"
    assert report.format_range(7.1e6, 1.6e7, "USD", 2) == "$7.1M to $16M"


def test_readable_table_names_gpus_and_tokens_for_people(capsys):
    assert main([*BASE, "--mfu", "0.4"]) == 0
    text = capsys.readouterr().out
    assert "1 trillion tokens on 512 H100 SXM 80GB" in text and "h100_sxm" not in text.split("\n")[0]
    assert "Owning (the book's TCO)" in text and "Renting (data/cloud_prices.csv)" in text
    assert "e+" not in text.split("- Throughput")[0]
    assert "%" in next(line for line in text.splitlines() if line.startswith("Goodput"))


# --- the command line ----------------------------------------------------------------------------------

BASE = ["plan", "--model", "llama31_8b", "--tokens", "1e12", "--gpu", "h100_sxm", "--gpus", "512"]


def test_json_has_every_key_both_bases_and_the_measured_error(capsys, tmp_path):
    out = tmp_path / "plan.json"
    assert main([*BASE, "--json", "--out", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc["results"]) == KEYS
    for key in KEYS:
        assert set(doc["results"][key]) == {"value", "unit", "label", "p10", "p50", "p90"}
    assert set(doc["energy_bases"]) == {"gpu-tdp", "facility"} and doc["energy_basis"] == "facility"
    est = doc["throughput"]["estimate"]
    assert doc["throughput"]["estimated"] and 0 < est["loo_median_abs_error_gpu_hours"] < 1
    assert json.loads(out.read_text()) == doc


def test_params_instead_of_model(capsys):
    assert main(["plan", "--params", "7e9", "--layers", "32", "--hidden", "4096", "--seq-len", "4096", "--tokens",
                 "2e12", "--gpu", "h100_sxm", "--gpus", "256", "--mfu", "0.4", "--json"]) == 0
    days = json.loads(capsys.readouterr().out)["results"]["days"]["value"]
    assert days == pytest.approx(2e12 * (6 * 7e9 + 12 * 32 * 4096 * 4096) / (256 * 989.4e12 * 0.4) / 86_400)


def test_power_budget_from_the_command_line(capsys):
    assert main(["plan", "--model", "llama31_405b", "--tokens", "15e12", "--power-mw", "50", "--gpu", "gb200_nvl72",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["power_basis"] == "facility" and doc["gpus"] % 72 == 0 and doc["budget_used_mw"] <= 50
    assert main(["plan", "--model", "llama31_405b", "--tokens", "15e12", "--power-mw", "50"]) == 0
    text = capsys.readouterr().out
    assert "facility power" in text and "H100 SXM 80GB" in text and "No answer:" in text


@pytest.mark.parametrize("extra,flag", [
    (["--mfu", "1.5"], "--mfu"),
    (["--mfu", "abc"], "--mfu"),
    (["--gpus", "0"], "--gpus"),
    (["--gpus", "2.5"], "--gpus"),
    (["--pue", "0.8"], "--pue"),
    (["--tokens", "-1"], "--tokens"),
    (["--mfu", "0.4", "--tokens-per-s-per-gpu", "3000"], "--mfu"),
    (["--flops-counted", "model"], "--flops-counted"),  # with neither --mfu nor --achieved-tflops
    (["--achieved-tflops", "300", "--flops-counted", "gpu"], "--flops-counted"),
    (["--model", "gpt5"], "--model"),
    (["--gpu", "tpu_v9"], "--gpu"),
    (["--precision", "fp4"], "--precision"),
    (["--failure-model", "guess"], "--failure-model"),
    (["--grid", "mars"], "--grid"),
    (["--energy-basis", "meter"], "--energy-basis"),
    (["--grid", "france", "--grid-kg-co2-per-kwh", "0.1"], "--grid"),
    (["--gpu", "mi300x", "--energy-basis", "facility"], "--energy-basis"),
    (["--power-mw", "50"], "--power-mw"),  # with --gpus
])
def test_bad_input_exits_2_naming_the_flag(extra, flag, capsys, tmp_path):
    out = tmp_path / "plan.json"
    args = list(BASE)
    for i in range(0, len(extra), 2):  # a repeated flag replaces the base one
        if extra[i] in args:
            args[args.index(extra[i]) + 1] = extra[i + 1]
        else:
            args += extra[i:i + 2]
    assert main([*args, "--out", str(out)]) == 2
    assert flag in capsys.readouterr().err
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args,flag", [
    (["--model", "llama31_405b", "--gpu", "gb200_nvl72", "--power-mw", "0.05"], "--power-mw"),
    (["--model", "llama31_405b", "--gpu", "mi300x", "--power-mw", "50"], "--power-mw"),
    (["--params", "7e9", "--active-params", "8e9", "--layers", "32", "--hidden", "4096", "--seq-len", "4096",
      "--gpu", "h100_sxm", "--gpus", "8"], "--active-params"),
])
def test_bad_budget_and_moe_input_exits_2(args, flag, capsys, tmp_path):
    out = tmp_path / "plan.json"
    assert main(["plan", "--tokens", "1e12", *args, "--out", str(out)]) == 2
    assert flag in capsys.readouterr().err and not out.exists()


def test_model_and_params_conflict(capsys):
    assert main([*BASE, "--params", "7e9"]) == 2
    assert "--model" in capsys.readouterr().err


def test_fp8_on_a_gpu_without_it(capsys):
    assert main(["plan", "--model", "gpt3_175b", "--tokens", "1e12", "--gpu", "a100_sxm_80gb", "--gpus", "8",
                 "--precision", "fp8"]) == 2
    assert "--precision" in capsys.readouterr().err


def test_measured_fit_uses_the_fit_to_measured_job_failures(capsys):
    assert main([*BASE, "--mfu", "0.4", "--failure-model", "measured-fit", "--json"]) == 0
    fit = json.loads(capsys.readouterr().out)["results"]
    assert main([*BASE, "--mfu", "0.4", "--failure-model", "per-gpu", "--json"]) == 0
    per_gpu = json.loads(capsys.readouterr().out)["results"]
    assert fit["days"]["value"] == per_gpu["days"]["value"]  # failures do not change the compute time
    assert fit["interruptions"]["value"] != per_gpu["interruptions"]["value"]
