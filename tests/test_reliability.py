"""Failure rates, checkpoint intervals, expected lost time, the goodput Monte Carlo and the
reliability-adjusted break-even: published values, exact limits and properties."""

import math

import numpy as np
import pytest

from analysis import defaults as d
from analysis import goodput, reliability as rel
from analysis.data import load_table
from analysis.units import HOURS_PER_DAY

LLAMA_GPUS = rel.item("llama3_gpus")
LLAMA_HOURS = rel.item("llama3_snapshot_days") * HOURS_PER_DAY
UNEXPECTED = rel.item("llama3_interruptions_unexpected")


# --- data and calibration ---------------------------------------------------------------------------

def test_cause_table_adds_up_to_the_published_totals():
    causes = load_table("llama3_interruptions")
    assert len(causes) == 18
    assert causes["count"].sum() == UNEXPECTED
    assert UNEXPECTED + rel.item("llama3_interruptions_planned") == rel.item("llama3_interruptions_total")
    gpu = causes[causes["category"] == "GPU"]
    assert gpu["count"].sum() == 268
    assert gpu["pct_printed"].sum() == pytest.approx(58.7)  # the share Meta's text quotes


def test_only_one_printed_share_disagrees_with_its_count():
    """Every printed percentage is count / 419 rounded to 0.1, except the faulty-GPU row."""
    causes = load_table("llama3_interruptions")
    off = causes[(causes["count"] / UNEXPECTED * 100 - causes["pct_printed"]).abs() > 0.05]
    assert off["component"].tolist() == ["Faulty GPU"]


def test_llama3_calibration_matches_the_published_arithmetic():
    """419 interruptions over 16,384 GPUs x 1,296 h: ~50,700 h per GPU, ~79,000 h for GPU-class
    causes (public_data.md, section 3.1), one job failure every ~3 h (DCD)."""
    mtbf = rel.gpu_mtbf_hours(UNEXPECTED, LLAMA_GPUS, LLAMA_HOURS)
    assert mtbf == pytest.approx(50_677, rel=1e-4)
    assert rel.gpu_mtbf_hours(268, LLAMA_GPUS, LLAMA_HOURS) == pytest.approx(79_230, rel=1e-3)
    assert rel.job_mtbf_hours(LLAMA_GPUS, mtbf) == pytest.approx(rel.item("llama3_hours_between_failures"), rel=0.05)
    assert UNEXPECTED / rel.item("llama3_snapshot_days") == pytest.approx(7.759, rel=1e-3)


def test_component_rates_add_up_to_the_job_rate():
    causes = load_table("llama3_interruptions")
    rates = rel.rate_per_gpu_hour(causes["count"].astype(float), LLAMA_GPUS, LLAMA_HOURS)
    job_rate = rel.job_failure_rate_per_hour(LLAMA_GPUS, rates)
    assert job_rate == pytest.approx(UNEXPECTED / LLAMA_HOURS)
    assert 1 / job_rate == pytest.approx(rel.job_mtbf_hours(LLAMA_GPUS, rel.gpu_mtbf_hours(UNEXPECTED, LLAMA_GPUS,
                                                                                            LLAMA_HOURS)))


def test_more_gpus_never_lower_the_job_failure_rate():
    rates = np.array([1e-5, 3e-6, 2e-7])
    sizes = np.unique(np.geomspace(1, 2e6, 200).round())
    job = rel.job_failure_rate_per_hour(sizes, rates)
    assert np.all(np.diff(job) > 0)
    assert np.all(np.diff(rel.job_mtbf_hours(sizes, 50_000.0)) < 0)
    with pytest.raises(ValueError):
        rel.job_mtbf_hours(0, 50_000.0)


def test_node_rate_and_rack_month_conversions():
    # Kokolis RSC-1: 6.50 failures per 1,000 node-days, 8 GPUs per node -> ~29,500 h per GPU
    assert rel.gpu_mtbf_from_node_rate_hours(6.50, 8) == pytest.approx(29_538, rel=1e-4)
    # one fault per rack-month over 72 GPUs, converted back to rack-months
    assert rel.per_gpu_rate_from_rack_month(1.0, 72) * 72 * 730 == pytest.approx(1.0)
    assert rel.per_link_mttf_years(1, 8_760, 1) == pytest.approx(1.0)


def test_job_size_parameter_is_llama3s_published_size():
    assert d.JOB_GPUS.default == LLAMA_GPUS


# --- checkpoint intervals ---------------------------------------------------------------------------

def test_young_known_value_and_units():
    assert rel.young_interval(5.0, 1_440.0) == pytest.approx(120.0)  # minutes: sqrt(2 x 5 x 1,440)
    assert rel.young_interval(5.0 * 60, 1_440.0 * 60) == pytest.approx(120.0 * 60)  # same in seconds


@pytest.mark.parametrize("mtbf_min,published_min,rounding", [
    (24 * 60, 117, 0.5), (6 * 60, 57, 0.5), (15, 9.1, 0.05)])
def test_daly_reproduces_dalys_published_examples(mtbf_min, published_min, rounding):
    """Daly (2006), figures 3-5: checkpoint time 5 min with MTBF 24 h, 6 h and 15 min."""
    assert abs(rel.daly_interval(5.0, mtbf_min) - published_min) <= rounding


def test_daly_switches_to_the_mtbf_at_twice_the_mtbf():
    m = 10.0
    assert rel.daly_interval(2 * m, m) == m
    assert rel.daly_interval(5 * m, m) == m
    just_below = rel.daly_interval(2 * m * (1 - 1e-12), m)
    assert just_below == pytest.approx(8 / 9 * m, rel=1e-6)  # 2M (1 + 1/3 + 1/9) - 2M
    both = rel.daly_interval(np.array([m, 2 * m]), m)
    assert both[1] == m and both[0] < m


def test_daly_is_young_less_two_thirds_of_the_write_for_small_writes():
    delta, m = 1.0, 1e6
    assert rel.daly_interval(delta, m) == pytest.approx(rel.young_interval(delta, m) - 2 * delta / 3, abs=0.01)
    assert rel.daly_interval(delta, m) < rel.young_interval(delta, m)


def test_checkpoint_transfer_time():
    # 16,384 GPUs x 4 GB at 2 TB/s = 32.8 s
    assert rel.checkpoint_transfer_seconds(4.0, 16_384, 2.0) == pytest.approx(32.768)


# --- expected time split ----------------------------------------------------------------------------

def test_time_shares_sum_to_one_and_are_non_negative():
    for args in [(3.0, 0.13, 0.003, 0.03, 0.08, 0.036), (0.5, 2.0, 0.5, 0.0, 0.0, 0.0), (100.0, 0.1, 0.0, 1.0, 1.0, 0.0)]:
        shares = rel.expected_time_fractions(*args)
        assert sum(shares.values()) == pytest.approx(1.0)
        assert min(shares.values()) >= 0


def test_expected_goodput_exact_limits():
    # no failures: only checkpoint writes cost time
    assert rel.expected_goodput(1e12, 1.0, 0.25, 0.1, 0.1) == pytest.approx(0.8, rel=1e-9)
    # no writes, no downtime: tau / (M (exp(tau / M) - 1))
    tau, m = 0.5, 2.0
    assert rel.expected_goodput(m, tau, 0.0, 0.0, 0.0) == pytest.approx(tau / (m * math.expm1(tau / m)))
    # planned restarts scale the rest down by (1 - rate x restart)
    base = rel.expected_goodput(3.0, 0.2, 0.01, 0.05, 0.1)
    assert rel.expected_goodput(3.0, 0.2, 0.01, 0.05, 0.1, planned_per_hour=0.5) == pytest.approx(base * 0.95)


def test_first_order_approximation_agrees_when_terms_are_small():
    args = (50.0, 0.5, 0.005, 0.05, 0.1)
    exact_lost = 1 - rel.expected_goodput(*args)
    assert rel.first_order_lost_fraction(*args) == pytest.approx(exact_lost, rel=0.02)


def test_longer_restarts_and_more_gpus_lower_goodput():
    restarts = np.linspace(0, 1, 11)
    assert np.all(np.diff(rel.expected_goodput(3.0, 0.13, 0.003, 0.03, restarts)) < 0)
    mtbfs = rel.job_mtbf_hours(np.geomspace(1e3, 1e6, 20), 50_677.0)
    assert np.all(np.diff(rel.expected_goodput(mtbfs, rel.daly_interval(0.003, mtbfs), 0.003, 0.03, 0.08)) < 0)


def test_max_recovery_time_inverts_expected_goodput():
    m, tau, w = 3.09, 0.13, 0.003
    budget = rel.max_recovery_time(0.9, m, tau, w)
    assert rel.expected_goodput(m, tau, w, budget / 2, budget / 2) == pytest.approx(0.9)


# --- the Monte Carlo --------------------------------------------------------------------------------

def _sim(**over):
    kw = dict(gpus=1_000, gpu_mtbf_hours=2_000.0, run_hours=20_000.0, interval_hours=0.5, write_hours=0.05,
              detection_hours=0.1, restart_hours=0.2, trials=200, seed=7)
    kw.update(over)
    return kw


def test_simulation_is_seeded():
    a = goodput.simulate_goodput(**_sim())
    assert np.array_equal(a, goodput.simulate_goodput(**_sim()))
    assert not np.array_equal(a, goodput.simulate_goodput(**_sim(seed=8)))
    assert a.shape == (200,)


@pytest.mark.parametrize("over", [
    {},  # job MTBF 2 h, half-hour interval
    {"write_hours": 0.0, "detection_hours": 0.0, "restart_hours": 0.0},
    {"interval_hours": 3.0, "gpu_mtbf_hours": 1_500.0},  # interval close to the MTBF
    {"planned_per_hour": 0.05},
])
def test_simulation_agrees_with_the_analytic_expectation(over):
    kw = _sim(**over)
    sim = goodput.simulate_goodput(**kw).mean()
    expected = rel.expected_goodput(rel.job_mtbf_hours(kw["gpus"], kw["gpu_mtbf_hours"]), kw["interval_hours"],
                                    kw["write_hours"], kw["detection_hours"], kw["restart_hours"],
                                    kw.get("planned_per_hour", 0.0))
    assert sim == pytest.approx(expected, rel=0.01)


def test_simulation_without_failures_only_pays_for_checkpoints():
    ratios = goodput.simulate_goodput(**_sim(gpu_mtbf_hours=1e15, run_hours=110.0, interval_hours=1.0,
                                             write_hours=0.1))
    assert np.allclose(ratios, 100.0 / 110.0)  # 100 whole segments of 1 h compute + 0.1 h write


def test_llama3_inputs_reproduce_metas_effective_training_time():
    """With Llama 3's counts and the book's default assumptions, runs clear Meta's '>90 %'."""
    ratios = goodput.simulate_goodput(**goodput.llama3_simulation_inputs(), trials=1_000, seed=d.GOODPUT_SEED.default)
    published = rel.item("llama3_effective_training_time")
    assert ratios.mean() > published
    assert np.percentile(ratios, 5) > published
    assert ratios.mean() < 0.95  # a failure every ~3 h cannot be nearly free


def test_small_chunks_give_the_same_distribution(monkeypatch):
    kw = _sim(trials=300)
    expected = goodput.simulate_goodput(**kw).mean()
    monkeypatch.setattr(goodput, "MAX_CELLS", 500)  # ~40 trials per chunk
    chunked = goodput.simulate_goodput(**kw)
    assert chunked.shape == (300,)
    assert chunked.mean() == pytest.approx(expected, rel=0.01)


def test_simulation_rejects_bad_inputs():
    with pytest.raises(ValueError):
        goodput.simulate_goodput(**_sim(gpus=0))
    with pytest.raises(ValueError):
        goodput.simulate_goodput(**_sim(restart_hours=-1.0))


# --- downtime and the reliability-adjusted break-even ------------------------------------------------

def test_domain_unavailability():
    assert rel.domain_unavailability(0.0, 72, 48) == 0.0
    assert rel.domain_unavailability(1e-3, 10, 100) == pytest.approx(0.5)  # x = 1 -> 1 / 2
    small = rel.domain_unavailability(1e-5, 8, 24)
    assert small < rel.domain_unavailability(1e-5, 72, 24) < rel.domain_unavailability(1e-5, 72, 48)


def test_reliability_adjusted_breakeven():
    assert rel.reliability_adjusted_breakeven(2.36, 0.9, 1.42, 0.9) == pytest.approx(2.36 / 1.42)
    assert rel.reliability_adjusted_breakeven(2.36, 0.8, 1.42, 0.9) == pytest.approx(2.36 / 1.42 * 0.9 / 0.8)
    extra = rel.max_extra_loss(2.0, 1.6)
    assert extra == pytest.approx(0.2)
    assert rel.reliability_adjusted_breakeven(1.6, 1 - extra, 1.0, 1.0) == pytest.approx(2.0)


def test_useful_share_combines_goodput_and_downtime():
    good, down, useful = rel.useful_share(16_384, 2e-5, 1.5e-5, 8, 24, 0.003, 0.03, 0.08)
    assert useful == pytest.approx(good * (1 - down))
    worse = rel.useful_share(16_384, 4e-5, 3e-5, 72, 48, 0.003, 0.03, 0.08)
    assert worse[0] < good and worse[1] > down
