"""The energy chapter (``analysis.chapters.energy``): SemiAnalysis's energy figures (A28-A43) hold
at the PUE its own figures imply and move with the book's PUE (the ledger marks them as depending on
that default), it uses the one reference row, the cluster chapter's power and the benchmarks
chapter's throughput ratio, and moves with ``pue``."""

import pytest

from analysis.benchmarks import reference_tokens_per_s
from analysis.chapters import compute_section
from analysis.data.load import fact
from analysis.params import defaults as d

PUE = d.PUE.default  # IDC's public-cloud average, 1.25 (data/cost_anchors.csv)


@pytest.fixture(scope="module")
def at_sa_pue(E):
    """The chapter at the overhead SemiAnalysis's own figures imply over 1,389 W (about 1.29)."""
    return compute_section("energy", {"pue": round(E["sa_implied_pue_ratio"], 4)})


@pytest.fixture(scope="module")
def done():
    out: dict = {}
    compute_section("energy", {}, out)
    return out


@pytest.fixture(scope="module")
def E(done):
    return done["energy"]


def test_meter_power_is_the_it_parameter_times_pue(E):
    assert E["h100_meter_w_per_gpu"] == pytest.approx(1_389 * PUE)
    assert E["gb200_meter_w_per_gpu"] == pytest.approx(1_833 * PUE)


def test_sa_implied_overhead_is_reported_beside_the_pue(E):
    """SA's five figures imply ~1,788 W per H100 at the meter (A31: 1,780-1,790 W), an overhead of
    1.287 over 1,389 W; the book's PUE, 1.25, puts its J/token about 3 % below SA's."""
    assert fact("A31_allin_w_per_gpu") <= E["sa_implied_h100_meter_w_per_gpu"] <= 1_790
    assert E["sa_implied_pue_ratio"] == pytest.approx(E["sa_implied_h100_meter_w_per_gpu"] / 1_389)
    assert E["sa_implied_pue_ratio"] == pytest.approx(1.29, abs=0.005)
    assert E["j_per_token_vs_sa_pct"] == pytest.approx((PUE / E["sa_implied_pue_ratio"] - 1) * 100)
    assert E["sa_implied_h100_meter_high_w_per_gpu"] / E["sa_implied_h100_meter_low_w_per_gpu"] < 1.02


def test_joules_per_token_reproduce_a28_a37_a43_at_sas_implied_pue(E, at_sa_pue):
    """Within 2 % at the overhead SA's figures imply; at the book's PUE each is lower by its ratio."""
    for key, fact_id in (("gpt3_175b_fp8_j_per_token", "A28_gpt3_fp8_j_per_token"),
                         ("gpt3_175b_bf16_j_per_token", "A28_gpt3_bf16_j_per_token"),
                         ("llama31_405b_bf16_j_per_token", "A37_405b_j_per_token"),
                         ("llama31_70b_fp8_64_gpus_j_per_token", "A43_j_per_token_64"),
                         ("llama31_70b_fp8_2048_gpus_j_per_token", "A43_j_per_token_2048")):
        assert at_sa_pue[key] == pytest.approx(fact(fact_id), rel=0.02), key
        assert E[key] == pytest.approx(at_sa_pue[key] * PUE / round(E["sa_implied_pue_ratio"], 4)), key
    # SA's "~10 %" more energy at 2,048 GPUs: its own household-years give 472 / 440 - 1 = 7.3 %
    assert E["llama31_70b_fp8_energy_increase_frac"] == pytest.approx(472 / 440 - 1, abs=0.005)


def test_405b_uses_the_one_reference_row_as_the_band_does(E):
    """1,389 W x the PUE / 202.5 tokens/s; the band's point estimate is the same number."""
    assert reference_tokens_per_s() == 202.5
    assert E["llama31_405b_bf16_j_per_token"] == pytest.approx(1_389 * PUE / 202.5)
    bands = E.tables["bands"]
    assert bands.loc["llama31_405b_bf16_j_per_token", "point"] == pytest.approx(E["llama31_405b_bf16_j_per_token"])
    assert bands.loc["llama31_405b_bf16_household_years_15t_tokens", "point"] == pytest.approx(
        E["llama31_405b_bf16_household_years_15t_tokens"])
    assert (bands["p10"] < bands["p50"]).all() and (bands["p50"] < bands["p90"]).all()


def test_household_years_reproduce_a29_a30_a38_a43(E, at_sa_pue):
    """15e12 tokens x 1,389 W x the PUE / 202.5 tokens/s / (10,791 kWh x 3.6e6 J); at the overhead SA's
    figures imply, SA's household-years within 2-3 % (A29, A30, A38, A43)."""
    assert E["llama31_405b_bf16_household_years_15t_tokens"] == pytest.approx(15e12 * 1_389 * PUE / 202.5
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
    for key in ("cluster_it_mw", "cluster_facility_mw", "cluster_annual_energy_twh", "cluster_annual_electricity_usd"):
        assert E[key] == cluster[key]
    assert E["cluster_annual_energy_twh"] < fact("B04_annual_twh")  # B04 assumes the rated draw all year
    # the same 100k GPUs as GB200: IT power scales by 1,833 / 1,389
    assert E["gb200_cluster_facility_mw"] == pytest.approx(100_000 * 1_833 * PUE / 1e6)
    assert E["cluster_households_count"] == pytest.approx(E["cluster_annual_energy_twh"] * 1e9 / 10_791)


def test_gb200_ratio_comes_from_the_benchmarks_chapter(E, done):
    ratio = done["benchmarks"]["gb200_vs_h100_llama31_405b_bf16_throughput_ratio"]
    assert E["gb200_vs_h100_llama31_405b_bf16_throughput_ratio"] == ratio
    assert ratio == pytest.approx(438.2 / 207.1)  # NVIDIA's best published rates, v25.05 and v25.04
    assert E["gb200_vs_h100_llama31_405b_bf16_energy_ratio"] == pytest.approx((1_833 / 1_389) / ratio)
    assert E["gb200_llama31_405b_bf16_j_per_token"] == pytest.approx(1_833 * PUE / 438.2)


def test_carbon_reproduces_the_model_card(E):
    """30.84M H100-hours x 700 W = 21.6 GWh; the card's 8,930 t imply ~414 g/kWh."""
    assert E["llama31_405b_card_energy_gwh"] == pytest.approx(21.6, rel=0.002)
    assert E["llama31_405b_card_implied_grid_g_co2_per_kwh"] == pytest.approx(414, rel=0.002)
    assert E["llama31_405b_bf16_emissions_15t_tokens_tco2"] == pytest.approx(
        E["llama31_405b_bf16_energy_15t_tokens_gwh"] * 1e6 * 366 / 1e6)


def test_pue_moves_joules_per_token_and_household_years(E):
    low = compute_section("energy", {"pue": 1.15})
    for key in ("h100_meter_w_per_gpu", "gpt3_175b_fp8_j_per_token", "llama31_405b_bf16_j_per_token",
                "llama31_405b_bf16_household_years_15t_tokens", "cluster_annual_energy_twh"):
        assert low[key] == pytest.approx(E[key] * 1.15 / PUE), key
    assert low["sa_implied_pue_ratio"] == E["sa_implied_pue_ratio"]  # a property of SA's figures, not of ours
    assert low["j_per_token_vs_sa_pct"] < 0  # PUE 1.15 sits below SA's implied overhead


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
