"""The cluster chapter (``analysis.chapters.cluster``) at the report's inputs reproduces
SemiAnalysis's 100k-H100 figures (B04-B28) within stated tolerances, and its parameters reach the
quantities they drive."""

import pytest

from analysis import hardware
from analysis.chapters import compute_section
from analysis.data.load import fact
from analysis.params import defaults as d

PUE, LOAD = d.PUE.default, d.LOAD_FACTOR.default  # IDC's cloud average (1.25); measured H100 node draw (0.82)


@pytest.fixture(scope="module")
def C():
    return compute_section("cluster", {})


def test_peaks_reproduce_b09_and_the_ratio_b10(C):
    assert C["peak_fp8_eflops"] == pytest.approx(fact("B09_fp8_eflops"), rel=0.005)
    assert C["peak_bf16_eflops"] == pytest.approx(fact("B09_bf16_eflops"), rel=0.005)
    # 100k x 1,978.9 TFLOP/s over 20k x 312 TFLOP/s = 31.7 against SA's 31.5
    assert C["peak_fp8_vs_a100_cluster_ratio"] == pytest.approx(100_000 * 1_978.9 / (20_000 * 312), rel=1e-3)
    assert C["peak_fp8_vs_a100_cluster_ratio"] == pytest.approx(fact("B10_peak_ratio"), rel=0.01)


def test_gpt4_retraining_reproduces_b12_and_b13(C):
    assert C["gpt4_retrain_days"] == pytest.approx(fact("B12_gpt4_days"), rel=0.15)  # 3.6 days; SA says "~4"
    assert C["run_flop"] == pytest.approx(fact("B13_fp8_flop_100_days"), rel=0.01)


def test_power_is_the_one_it_parameter_times_the_one_pue(C):
    """100k x 1,389 W = 138.9 MW of IT; x the PUE at the meter; the B14 build-up is a check."""
    assert C["cluster_it_w_per_gpu"] == fact("C02_w_per_gpu") == 1_389
    assert C["cluster_it_mw"] == pytest.approx(138.9)
    assert C["cluster_facility_mw"] == pytest.approx(138.9 * PUE)
    assert C["b14_buildup_it_w_per_gpu"] == pytest.approx((700 + 575) * 1.1)
    assert C["b14_buildup_it_w_per_gpu"] == pytest.approx(C["cluster_it_w_per_gpu"], rel=0.015)
    assert C["cluster_it_mw"] == pytest.approx(fact("B14_critical_it_mw"), rel=0.10)  # SA's "~150 MW" rounds up


def test_annual_energy_and_bill_against_b04_and_b05(C):
    """1.389e8 W x the PUE x the load factor x 8,760 h, and the bill at $0.078/kWh: below SA's 1.59
    TWh and $123.9M (B04, B05, corrected in the ledger), which assume the rated draw all year; at a
    load factor of 1 and a PUE of about 1.31 the same arithmetic gives SA's figures."""
    assert C["cluster_annual_energy_twh"] == pytest.approx(1.389e8 * PUE * LOAD * 8_760 / 1e12)
    assert C["cluster_annual_electricity_usd"] == pytest.approx(1.389e8 * PUE * LOAD * 8_760 / 1e3 * 0.078)
    assert C["cluster_annual_energy_twh"] < fact("B04_annual_twh") * 0.8
    assert C["cluster_annual_energy_vs_b04_pct"] == pytest.approx((C["cluster_annual_energy_twh"] / 1.59 - 1) * 100)
    full = compute_section("cluster", {"load_factor": 1.0, "pue": 1.307})
    assert full["cluster_annual_energy_twh"] == pytest.approx(fact("B04_annual_twh"), rel=0.01)
    assert full["cluster_annual_electricity_usd"] == pytest.approx(fact("B05_annual_cost_usd"), rel=0.01)


def test_capex_and_failures_reproduce_b25_to_b28(C):
    assert C["capex_usd"] == pytest.approx(100_000 * 31_250)
    assert C["report_implied_capex_usd_per_gpu"] == pytest.approx(40_000)
    assert C["first_failure_minutes"] == pytest.approx(fact("B27_first_failure_min"), abs=0.005)
    assert C["first_failure_alt_design_minutes"] == pytest.approx(fact("B28_first_failure_min"), abs=0.005)
    assert C["checkpoint_restart_lost_gpu_days"] == pytest.approx(fact("B25_gpu_days"), rel=0.005)
    assert C["weights_copy_seconds"] == pytest.approx(fact("B26_copy_s"))
    assert C["in_memory_recovery_lost_gpu_days"] == pytest.approx(
        fact("B26_gpu_days_step") + fact("B26_gpu_days_copy"), rel=0.02)


def test_pue_and_tariff_reach_power_energy_and_bill(C):
    low = compute_section("cluster", {"pue": 1.15, "tariff_usd_per_kwh": 0.039})
    assert low["cluster_it_mw"] == pytest.approx(C["cluster_it_mw"])  # IT load does not depend on the PUE
    assert low["cluster_facility_mw"] == pytest.approx(C["cluster_facility_mw"] * 1.15 / PUE)
    assert low["cluster_annual_energy_twh"] == pytest.approx(C["cluster_annual_energy_twh"] * 1.15 / PUE)
    assert low["cluster_annual_electricity_usd"] == pytest.approx(C["cluster_annual_electricity_usd"] * 1.15 / PUE / 2)


def test_another_gpu_uses_its_own_it_power():
    """GB200 uses the book's gb200_it_w_per_gpu; a GPU without a parameter swaps its chip into the
    H100 build-up (689 W of host, network and storage kept)."""
    assert compute_section("cluster", {"gpu": "gb200_nvl72"})["cluster_it_w_per_gpu"] == 1_833
    b200 = compute_section("cluster", {"gpu": "b200_hgx"})
    assert b200["cluster_it_w_per_gpu"] == pytest.approx(hardware.tdp_w("b200_hgx") + 1_389 - 700)


def test_tables_behind_the_figures(C):
    sizes = C.tables["compute_by_cluster_size"]
    assert len(sizes) == 60 and sizes["gpus"].is_monotonic_increasing
    assert sizes["fp8_sustained_eflops"].tolist() == pytest.approx((sizes["fp8_peak_eflops"] * 0.35).tolist())
    assert sizes["first_failure_minutes"].is_monotonic_decreasing
    build = C.tables["power_build_up"]
    totals = build[["chip_w", "rest_of_it_w", "facility_overhead_w"]].sum(axis=1)
    assert totals.tolist() == pytest.approx([1_402.5 * PUE, 1_389 * PUE])
