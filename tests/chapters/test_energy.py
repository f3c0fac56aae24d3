"""The energy chapter (``analysis.chapters.energy``): every energy figure is at the average draw
(rated x ``load_factor``); SemiAnalysis's energy figures (A28-A43) hold on SA's own basis, the rated
draw around the clock at the PUE its figures imply, and sit about a fifth above the book's (the
ledger corrects them); it uses the one reference row, the cluster chapter's power and the benchmarks
chapter's throughput ratio, reconciles the cluster's bill with the opex chapter's power item, and
moves with ``pue`` and ``load_factor``."""

import pytest

from analysis.benchmarks import reference_tokens_per_s
from analysis.chapters import compute_section
from analysis.data.load import fact
from analysis.params import defaults as d

PUE = d.PUE.default  # IDC's public-cloud average, 1.25 (data/cost_anchors.csv)
LOAD = d.LOAD_FACTOR.default  # the average draw while training, 82 % of rated (Latif et al. 2024)


@pytest.fixture(scope="module")
def at_sa_pue(E):
    """The chapter on SemiAnalysis's basis: the rated draw around the clock (load factor 1) at the
    overhead its own figures imply over 1,389 W (about 1.29)."""
    return compute_section("energy", {"pue": round(E["sa_implied_pue_ratio"], 4), "load_factor": 1.0})


@pytest.fixture(scope="module")
def done():
    out: dict = {}
    compute_section("energy", {}, out)
    return out


@pytest.fixture(scope="module")
def E(done):
    return done["energy"]


def test_meter_power_is_the_it_parameter_times_pue_and_energy_the_average_draw(E):
    assert E["h100_meter_w_per_gpu"] == pytest.approx(1_389 * PUE)
    assert E["gb200_meter_w_per_gpu"] == pytest.approx(1_833 * PUE)
    assert E["h100_average_meter_w_per_gpu"] == pytest.approx(1_389 * PUE * LOAD)
    assert E["gb200_average_meter_w_per_gpu"] == pytest.approx(1_833 * PUE * LOAD)
    assert E["load_factor_frac"] == LOAD


def test_sa_implied_overhead_is_reported_beside_the_pue(E):
    """SA's five figures imply ~1,788 W per H100 at the meter (A31: 1,780-1,790 W), an overhead of
    1.287 over 1,389 W drawn at the rating all the time, 103 % of the book's rated meter power; at the
    rated draw the book's PUE, 1.25, puts its J/token about 3 % below SA's, at its average draw about 20 %."""
    assert fact("A31_allin_w_per_gpu") <= E["sa_implied_h100_meter_w_per_gpu"] <= 1_790
    assert E["sa_implied_pue_ratio"] == pytest.approx(E["sa_implied_h100_meter_w_per_gpu"] / 1_389)
    assert E["sa_implied_pue_ratio"] == pytest.approx(1.29, abs=0.005)
    assert E["sa_implied_draw_vs_rated_ratio"] == pytest.approx(E["sa_implied_pue_ratio"] / PUE)
    assert E["j_per_token_at_rated_draw_vs_sa_pct"] == pytest.approx((PUE / E["sa_implied_pue_ratio"] - 1) * 100)
    assert E["j_per_token_vs_sa_pct"] == pytest.approx((PUE * LOAD / E["sa_implied_pue_ratio"] - 1) * 100)
    assert -22 < E["j_per_token_vs_sa_pct"] < -18
    assert E["sa_implied_h100_meter_high_w_per_gpu"] / E["sa_implied_h100_meter_low_w_per_gpu"] < 1.02


def test_joules_per_token_reproduce_a28_a37_a43_at_sas_implied_pue(E, at_sa_pue):
    """Within 2 % on SA's basis (rated draw, the overhead its figures imply); at the book's PUE and
    average draw each is lower by their ratio."""
    for key, fact_id in (("gpt3_175b_fp8_j_per_token", "A28_gpt3_fp8_j_per_token"),
                         ("gpt3_175b_bf16_j_per_token", "A28_gpt3_bf16_j_per_token"),
                         ("llama31_405b_bf16_j_per_token", "A37_405b_j_per_token"),
                         ("llama31_70b_fp8_64_gpus_j_per_token", "A43_j_per_token_64"),
                         ("llama31_70b_fp8_2048_gpus_j_per_token", "A43_j_per_token_2048")):
        assert at_sa_pue[key] == pytest.approx(fact(fact_id), rel=0.02), key
        assert E[key] == pytest.approx(at_sa_pue[key] * PUE * LOAD / round(E["sa_implied_pue_ratio"], 4)), key
    # SA's "~10 %" more energy at 2,048 GPUs: its own household-years give 472 / 440 - 1 = 7.3 %
    assert E["llama31_70b_fp8_energy_increase_frac"] == pytest.approx(472 / 440 - 1, abs=0.005)


def test_405b_uses_the_one_reference_row_as_the_band_does(E):
    """1,389 W x the PUE x the load factor / 202.5 tokens/s; the band's point estimate is the same number."""
    assert reference_tokens_per_s() == 202.5
    assert E["llama31_405b_bf16_j_per_token"] == pytest.approx(1_389 * PUE * LOAD / 202.5)
    bands = E.tables["bands"]
    assert bands.loc["llama31_405b_bf16_j_per_token", "point"] == pytest.approx(E["llama31_405b_bf16_j_per_token"])
    assert bands.loc["llama31_405b_bf16_household_years_15t_tokens", "point"] == pytest.approx(
        E["llama31_405b_bf16_household_years_15t_tokens"])
    assert (bands["p10"] < bands["p50"]).all() and (bands["p50"] < bands["p90"]).all()


def test_household_years_reproduce_a29_a30_a38_a43(E, at_sa_pue):
    """15e12 tokens x 1,389 W x the PUE x the load factor / 202.5 tokens/s / (10,791 kWh x 3.6e6 J); on
    SA's basis (rated draw, its implied overhead), SA's household-years within 2-3 % (A29, A30, A38, A43)."""
    assert E["llama31_405b_bf16_household_years_15t_tokens"] == pytest.approx(15e12 * 1_389 * PUE * LOAD / 202.5
                                                                               / (10_791 * 3.6e6))
    for key, fact_id, rel in (("llama31_405b_bf16_household_years_15t_tokens", "A38_405b_15t_household_years", 0.02),
                              ("gpt3_175b_fp8_tokens_per_household_year", "A29_fp8_tokens_per_household_year", 0.02),
                              ("gpt3_175b_fp8_household_years_300b_tokens", "A30_gpt3_fp8_household_years", 0.03),
                              ("gpt3_175b_bf16_household_years_300b_tokens", "A30_gpt3_bf16_household_years", 0.03),
                              ("llama31_70b_fp8_64_gpus_household_years_15t_tokens", "A43_households_64", 0.02),
                              ("llama31_70b_fp8_2048_gpus_household_years_15t_tokens", "A43_households_2048", 0.02)):
        assert at_sa_pue[key] == pytest.approx(fact(fact_id), rel=rel), key
    # more kWh per household, fewer household-years
    key = "llama31_405b_bf16_household_years_15t_tokens"
    assert E[f"{key}_state_low"] < E[f"{key}_us_low"] <= E[key] < E[f"{key}_us_high"] < E[f"{key}_state_high"]


def test_cluster_power_comes_from_the_cluster_chapter(E, done):
    cluster = done["cluster"]
    for key in ("cluster_it_mw", "cluster_facility_mw", "cluster_average_facility_mw", "cluster_annual_energy_twh",
                "cluster_annual_electricity_usd"):
        assert E[key] == cluster[key]
    assert E["cluster_annual_energy_twh"] < fact("B04_annual_twh")  # B04 assumes the rated draw all year
    # 100k x 1,389 W x 1.25 = 173.6 MW rated; x 0.82 x 8,760 h = 1.247 TWh a year at the average draw
    assert E["cluster_annual_energy_twh"] == pytest.approx(100_000 * 1_389 * PUE * LOAD * 8_760 / 1e12)
    assert E["cluster_average_facility_mw"] == pytest.approx(E["cluster_facility_mw"] * LOAD)
    # the same 100k GPUs as GB200: IT power scales by 1,833 / 1,389
    assert E["gb200_cluster_facility_mw"] == pytest.approx(100_000 * 1_833 * PUE / 1e6)
    assert E["cluster_households_count"] == pytest.approx(E["cluster_annual_energy_twh"] * 1e9 / 10_791)


def test_gb200_ratio_comes_from_the_benchmarks_chapter(E, done):
    ratio = done["benchmarks"]["gb200_vs_h100_llama31_405b_bf16_throughput_ratio"]
    assert E["gb200_vs_h100_llama31_405b_bf16_throughput_ratio"] == ratio
    assert ratio == pytest.approx(438.2 / 207.1)  # NVIDIA's best published rates, v25.05 and v25.04
    assert E["gb200_vs_h100_llama31_405b_bf16_energy_ratio"] == pytest.approx((1_833 / 1_389) / ratio)
    assert E["gb200_llama31_405b_bf16_j_per_token"] == pytest.approx(1_833 * PUE * LOAD / 438.2)


def test_carbon_reproduces_the_model_card(E):
    """30.84M H100-hours x 700 W = 21.6 GWh; the card's 8,930 t imply ~414 g/kWh."""
    assert E["llama31_405b_card_energy_gwh"] == pytest.approx(21.6, rel=0.002)
    assert E["llama31_405b_card_implied_grid_g_co2_per_kwh"] == pytest.approx(414, rel=0.002)
    assert E["llama31_405b_bf16_emissions_15t_tokens_tco2"] == pytest.approx(
        E["llama31_405b_bf16_energy_15t_tokens_gwh"] * 1e6 * 366 / 1e6)


def test_pue_and_load_factor_move_joules_per_token_and_household_years(E):
    low = compute_section("energy", {"pue": 1.15})
    for key in ("h100_meter_w_per_gpu", "gpt3_175b_fp8_j_per_token", "llama31_405b_bf16_j_per_token",
                "llama31_405b_bf16_household_years_15t_tokens", "cluster_annual_energy_twh"):
        assert low[key] == pytest.approx(E[key] * 1.15 / PUE), key
    assert low["sa_implied_pue_ratio"] == E["sa_implied_pue_ratio"]  # a property of SA's figures, not of ours
    assert low["j_per_token_vs_sa_pct"] < 0  # PUE 1.15 sits below SA's implied overhead
    rated = compute_section("energy", {"load_factor": 1.0})
    for key in ("gpt3_175b_fp8_j_per_token", "llama31_405b_bf16_household_years_15t_tokens",
                "llama31_405b_bf16_emissions_15t_tokens_tco2"):
        assert rated[key] == pytest.approx(E[key] / LOAD), key
    assert rated["h100_meter_w_per_gpu"] == E["h100_meter_w_per_gpu"]  # capacity stays at the rating


def test_the_two_power_bills_are_reconciled(E, done):
    """The opex chapter's power item per H100-month x 12 x 100k GPUs is the cluster chapter's yearly
    bill: both at the average draw ($97.3M at the defaults); the rated draw all year bills $118.6M."""
    assert E["opex_h100_power_usd_per_gpu_month"] == done["opex"]["h100_power_usd_per_gpu_month"]
    assert E["cluster_annual_electricity_from_opex_usd"] == pytest.approx(E["cluster_annual_electricity_usd"])
    assert E["cluster_electricity_opex_minus_cluster_usd"] == pytest.approx(0, abs=1e-3)
    assert E["cluster_annual_electricity_usd"] == pytest.approx(100_000 * 1.389 * PUE * LOAD * 8_760 * 0.078)
    assert E["cluster_annual_electricity_at_rated_draw_usd"] == pytest.approx(E["cluster_annual_electricity_usd"] / LOAD)


def test_sa_worked_example_c03_c04_and_the_household_in_joules(E):
    """SA's 2024 example by hand: 20,480 x 1,389 W = 28.45 MW of IT (C03: 28.4); x PUE 1.25 x 80 %
    utilization = 28.45 MW from the grid (C04: 28-29); x 8,760 h = 249,193 MWh (C04: 249,185);
    x $83 per MWh = $20.68M (C04: $20.7M). A household-year: 10,791 kWh x 3.6e6 J (A26)."""
    assert E["sa_example_it_mw"] == pytest.approx(20_480 * 1_389 / 1e6)
    assert E["sa_example_grid_mw"] == pytest.approx(20_480 * 1_389 * 1.25 * 0.8 / 1e6)
    assert E["sa_example_annual_mwh"] == pytest.approx(20_480 * 1_389 * 1.25 * 0.8 * 8_760 / 1e6)
    assert E["sa_example_annual_electricity_usd"] == pytest.approx(E["sa_example_annual_mwh"] * 83)
    assert E["sa_example_annual_mwh"] == pytest.approx(249_185, rel=1e-4)
    assert E["sa_example_annual_electricity_usd"] == pytest.approx(20.7e6, rel=0.001)
    assert E["household_j"] == pytest.approx(38_847_600_000)
    assert type(E["sa_example_gpus_count"]) is int
