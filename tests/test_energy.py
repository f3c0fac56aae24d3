"""Energy per token, household-years and carbon against SemiAnalysis's printed figures (A26-A43),
EIA's household and grid data and the Llama 3.1 model card, plus properties that must hold."""

import numpy as np
import pytest

from analysis import benchmarks, cluster, energy
from analysis.benchmarks import load_benchmarks
from analysis.data.load import fact, load_table, row
from analysis.params import defaults as d

SA = "SemiAnalysis"
KWH = d.HOUSEHOLD_KWH_PER_YEAR.default
GPT3_TOKENS, LLAMA_TOKENS = fact("A23_train_tokens"), fact("A35_train_tokens")


LOAD = d.LOAD_FACTOR.default  # the book's energy basis: the average draw, 82 % of rated while training


@pytest.fixture(scope="module")
def bench():
    """Benchmark rows with J/token at the book's default average meter power (IT power per GPU x
    PUE x load factor)."""
    meter_h100 = energy.average_meter_w_per_gpu(d.H100_IT_W_PER_GPU.default, d.PUE.default, LOAD)
    meter_gb200 = energy.average_meter_w_per_gpu(d.GB200_IT_W_PER_GPU.default, d.PUE.default, LOAD)
    return energy.add_joules_per_token(load_benchmarks(), {"h100_sxm": meter_h100, "gb200_nvl72": meter_gb200})


def _j(bench, model, precision, gpus, date=None):
    return energy.benchmark_row(bench, model, "h100_sxm", precision, gpus, SA, date)["joules_per_token"]


def _j_405b_reference():
    """Llama 3.1 405B BF16 on the book's one reference row (NVIDIA DGXC v25.02, 2,304 H100s)."""
    meter = energy.average_meter_w_per_gpu(d.H100_IT_W_PER_GPU.default, d.PUE.default, LOAD)
    return energy.joules_per_token(meter, benchmarks.reference_tokens_per_s())


# SA's figures imply one overhead of ~1.29 over 1,389 W drawn at the rating around the clock (test
# below). At that rated draw the PUE's sourced range (1.10-1.42) spans SA's overhead, so each of its
# figures lies between the book's values at the two ends of the range; at the book's basis, the
# average draw (82 % of rated), the book sits about 20 % under every one (the ledger corrects them).
PUE_LOW, PUE_HIGH = (float(load_table("distributions").set_index("param").loc["pue", end]) for end in ("low", "high"))


def _between_the_ends(book_at_default: float, sa: float, rises_with_pue: bool = True) -> bool:
    """Whether SA's figure lies between the book's at the two ends of the PUE range, at the rated
    draw all the time (the book's value at its average draw / load factor): a figure in joules
    scales with the PUE and the draw, one per joule (tokens per household-year) with their inverse;
    and whether at the book's own average draw it lies 15-25 % off SA's."""
    power = 1 if rises_with_pue else -1
    rated = book_at_default / LOAD ** power
    at_low, at_high = (rated * (end / d.PUE.default) ** power for end in (PUE_LOW, PUE_HIGH))
    return min(at_low, at_high) < sa < max(at_low, at_high) and 0.15 < abs(book_at_default / sa - 1) < 0.30


def test_joules_per_token_a28_and_a37_lie_inside_the_pues_range(bench):
    j = {"A28_gpt3_fp8_j_per_token": _j(bench, "gpt3_175b", "fp8", 128, "2024-12"),
         "A28_gpt3_bf16_j_per_token": _j(bench, "gpt3_175b", "bf16", 128, "2024-12"),
         "A37_405b_j_per_token": _j_405b_reference()}
    # 1,389 W x the PUE x 0.82 / 202.5 tokens/s
    assert j["A37_405b_j_per_token"] == pytest.approx(1_389 * d.PUE.default * 0.82 / 202.5)
    for fact_id, value in j.items():
        assert _between_the_ends(value, fact(fact_id)), fact_id
        assert value < fact(fact_id)  # the average draw sits under SA's rated draw


def test_household_figures_a29_a30_a38_a43_lie_inside_the_pues_range(bench):
    gpt3_fp8, gpt3_bf16 = _j(bench, "gpt3_175b", "fp8", 128, "2024-12"), _j(bench, "gpt3_175b", "bf16", 128, "2024-12")
    j_405b = _j_405b_reference()
    assert _between_the_ends(energy.tokens_per_household_year(gpt3_fp8, KWH), fact("A29_fp8_tokens_per_household_year"),
                             rises_with_pue=False)
    assert _between_the_ends(energy.household_years(GPT3_TOKENS, gpt3_fp8, KWH), fact("A30_gpt3_fp8_household_years"))
    assert _between_the_ends(energy.household_years(GPT3_TOKENS, gpt3_bf16, KWH), fact("A30_gpt3_bf16_household_years"))
    assert _between_the_ends(energy.tokens_per_household_year(j_405b, KWH), fact("A38_405b_tokens_per_household_year"),
                             rises_with_pue=False)
    # 15e12 tokens x J per token / (10,791 kWh x 3.6e6 J/kWh), against SA's 3,400
    assert energy.household_years(LLAMA_TOKENS, j_405b, KWH) == pytest.approx(15e12 * j_405b / (10_791 * 3.6e6))
    assert _between_the_ends(energy.household_years(LLAMA_TOKENS, j_405b, KWH), fact("A38_405b_15t_household_years"))
    for gpus, fact_id in ((64, "A43_households_64"), (2048, "A43_households_2048")):
        assert _between_the_ends(energy.household_years(LLAMA_TOKENS, _j(bench, "llama31_70b", "fp8", gpus), KWH),
                                 fact(fact_id)), fact_id


def test_household_constant_is_sa_s_and_in_the_data():
    assert KWH == fact("A26_household_kwh")
    assert energy.household_j_per_year(KWH) == pytest.approx(fact("A26_household_j"))
    assert energy.household_w(KWH) == pytest.approx(fact("A26_household_w"), rel=0.001)
    households = energy.with_kwh_per_year(load_table("household_energy"))
    us = households[households["kind"] == "us_average"]
    assert KWH in set(us["kwh_per_year"])
    low, high = energy.household_kwh_range(households, "us_average")
    state_low, state_high = energy.household_kwh_range(households, "state")
    assert state_low < low <= KWH <= high < state_high


def test_sa_figures_imply_one_meter_power_and_an_overhead_above_the_pue(bench):
    """A31: SA's figures x the throughput they rest on give one power per GPU at the meter, within
    A31's range; over the book's 1,389 W of IT that is an overhead of ~1.29, above the book's PUE
    (1.25) and inside its sourced range."""
    rows = {"A28_gpt3_fp8_j_per_token": ("gpt3_175b", "fp8", 128, "2024-12"),
            "A28_gpt3_bf16_j_per_token": ("gpt3_175b", "bf16", 128, "2024-12")}
    implied = [energy.meter_w_from_joules_per_token(
        fact(f), energy.benchmark_row(bench, m, "h100_sxm", p, g, SA, date)["tokens_per_s_per_gpu"])
        for f, (m, p, g, date) in rows.items()]
    implied.append(energy.meter_w_from_joules_per_token(fact("A37_405b_j_per_token"), benchmarks.reference_tokens_per_s()))
    for gpus, fact_id in ((64, "A43_households_64"), (2048, "A43_households_2048")):
        j = energy.joules_per_token_from_household_years(fact(fact_id), LLAMA_TOKENS, fact("A26_household_kwh"))
        implied.append(energy.meter_w_from_joules_per_token(
            j, energy.benchmark_row(bench, "llama31_70b", "h100_sxm", "fp8", gpus, SA)["tokens_per_s_per_gpu"]))
    assert max(implied) / min(implied) < 1.02  # one fixed power per GPU behind all five
    a31 = row("report_facts", "A31_allin_w_per_gpu")
    assert a31["value"] <= np.mean(implied) <= a31["value_high"]
    overhead = energy.implied_pue(np.mean(implied), d.H100_IT_W_PER_GPU.default)
    assert overhead == pytest.approx(1.29, abs=0.005)
    assert d.PUE.default < overhead < PUE_HIGH
    meter = energy.meter_w_per_gpu(d.H100_IT_W_PER_GPU.default, d.PUE.default)
    assert meter == pytest.approx(np.mean(implied) * d.PUE.default / overhead)
    # SA's power is the rating drawn around the clock: within 3 % of the book's rated meter power, and
    # a fifth above its average draw while training
    assert np.mean(implied) / meter == pytest.approx(1.0, abs=0.03)
    assert energy.average_meter_w_per_gpu(d.H100_IT_W_PER_GPU.default, d.PUE.default, LOAD) / np.mean(implied) < 0.82
    assert d.H100_IT_W_PER_GPU.default == fact("C02_w_per_gpu")
    assert energy.implied_pue(meter, fact("C01_w_per_gpu")) > d.PUE.default  # less IT, more overhead


def test_annual_energy_reproduces_sa_energy_article_example_c04():
    """The reused cluster functions give SA-C's own example: 20,480 GPUs x 1,389 W, PUE 1.25, 80 %."""
    it = cluster.critical_it_w(fact("C03_gpus"), fact("C02_w_per_gpu"))
    assert it / 1e6 == pytest.approx(fact("C03_critical_it_mw"), rel=0.005)
    mwh = cluster.annual_energy_mwh(cluster.facility_w(it, fact("C04_pue")), fact("C04_utilization"))
    assert mwh == pytest.approx(fact("C04_annual_mwh"), rel=0.001)


def test_energy_is_linear_in_tokens_and_overhead():
    tokens = np.array([1e9, 3e11, 1.5e13])
    j = energy.joules_per_token(energy.meter_w_per_gpu(1_389.0, 1.3), 500.0)
    assert energy.household_years(2 * tokens, j, KWH) == pytest.approx(2 * energy.household_years(tokens, j, KWH))
    assert energy.training_energy_j(tokens, j) == pytest.approx(tokens * j)
    j_double_pue = energy.joules_per_token(energy.meter_w_per_gpu(1_389.0, 2.6), 500.0)
    assert j_double_pue == pytest.approx(2 * j)
    assert energy.joules_per_token(1_000.0, 250.0) == pytest.approx(2 * energy.joules_per_token(1_000.0, 500.0))


def test_household_years_fall_as_household_use_rises():
    kwh = np.linspace(3_000, 20_000, 50)
    years = energy.household_years(3e11, 2.46, kwh)
    assert np.all(np.diff(years) < 0)
    assert energy.household_years(3e11, 2.46, 2 * KWH) == pytest.approx(energy.household_years(3e11, 2.46, KWH) / 2)


def test_inverse_functions_round_trip():
    j = energy.joules_per_token_from_household_years(energy.household_years(1.5e13, 1.14, KWH), 1.5e13, KWH)
    assert j == pytest.approx(1.14)
    assert energy.meter_w_from_joules_per_token(energy.joules_per_token(1_791.0, 728.0), 728.0) == pytest.approx(1_791.0)
    assert energy.implied_pue(energy.meter_w_per_gpu(1_389.0, 1.29), 1_389.0) == pytest.approx(1.29)


def test_monthly_household_figures_are_annualised_and_bad_units_refused():
    assert energy.annual_kwh(855, "month") == 10_260
    assert energy.annual_kwh(10_715, "year") == 10_715
    with pytest.raises(ValueError):
        energy.annual_kwh(855, "week")


def test_chip_swap_keeps_the_rest_of_the_build_up():
    assert energy.it_w_with_chip_swapped(1_389.0, 700.0, 700.0) == 1_389.0
    assert energy.it_w_with_chip_swapped(1_389.0, 700.0, 1_200.0) - 1_200.0 == pytest.approx(1_389.0 - 700.0)


def test_joules_per_token_refuses_no_throughput():
    with pytest.raises(ValueError):
        energy.joules_per_token(1_791.0, 0.0)


def test_carbon_reproduces_the_llama31_model_card():
    """The card's 8,930 t for 30.84M H100-hours at 700 W imply ~414 g/kWh (public_data §5);
    tonnes scale linearly with the grid intensity."""
    card = row("published_runs", "llama31_405b_card")
    kwh = energy.energy_kwh_from_gpu_hours(card["gpu_hours"], card["power_w_per_gpu"])
    assert kwh / 1e6 == pytest.approx(21.6, rel=0.002)
    g = energy.implied_g_co2_per_kwh(card["co2_location_t"], kwh)
    assert g == pytest.approx(414, rel=0.002)
    assert energy.tonnes_co2(kwh, g) == pytest.approx(card["co2_location_t"])
    assert energy.tonnes_co2(kwh, 2 * g) == pytest.approx(2 * card["co2_location_t"])
    total = load_table("published_runs")
    assert total["co2_location_t"].sum() == 11_390  # the card's total row, not stored, is the sum


def test_grid_default_follows_eia_2023_totals():
    assert d.GRID_G_CO2_PER_KWH.default == pytest.approx(1_532e12 / 4_183e9, abs=0.5)


def test_benchmark_row_is_unique_or_an_error(bench):
    with pytest.raises(ValueError, match="2 benchmark rows"):
        energy.benchmark_row(bench, "gpt3_175b", "h100_sxm", "fp8", 128, SA)
    with pytest.raises(ValueError, match="0 benchmark rows"):
        energy.benchmark_row(bench, "gpt3_175b", "h100_sxm", "fp8", 3, SA)


def test_every_benchmark_row_gets_a_positive_energy_and_fp8_beats_bf16(bench):
    assert bench["joules_per_token"].notna().all() and (bench["joules_per_token"] > 0).all()
    paired = bench.pivot_table(index=["model_id", "gpu_id", "gpus", "date", "publisher"], columns="precision",
                               values="joules_per_token").dropna()
    assert len(paired) > 20 and (paired["fp8"] < paired["bf16"]).all()
    with pytest.raises(ValueError, match="no meter power"):
        energy.add_joules_per_token(bench, {"h100_sxm": 1_791.0})


def test_average_draw_is_the_rating_times_the_load_factor():
    """The book's energy basis: 1,389 W x 1.25 x 0.82 = 1,423.7 W; a load factor of 1 is the rating."""
    assert energy.average_meter_w_per_gpu(1_389.0, 1.25, 0.82) == pytest.approx(1_423.725)
    assert energy.average_meter_w_per_gpu(1_389.0, 1.25, 1.0) == energy.meter_w_per_gpu(1_389.0, 1.25)
