"""Failure rates, Llama 3's calibration, checkpoint intervals, expected lost time and the
reliability-adjusted break-even (analysis.reliability): published values, exact limits and
properties. The goodput Monte Carlo is tested in test_goodput.py."""

import math
import shutil

import numpy as np
import pandas as pd
import pytest

from analysis import reliability as rel
from analysis.data import load as data
from analysis.data.load import load_table
from analysis.params import defaults as d
from analysis.params.parameters import ParameterError
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


# --- measured job-level failure rates (data/job_failures.csv) and the fit -----------------------------

def test_job_failure_rows_convert_to_hours_as_published():
    t = rel.job_failure_table().set_index("row_id")
    assert t.loc["kokolis_rsc_8_gpus", "mttf_hours"] == pytest.approx(47.7 * 24)  # 47.7 days = 1,144.8 h
    assert t.loc["kokolis_rsc_1024_gpus", "mttf_hours"] == pytest.approx(7.9)
    assert t.loc["kokolis_rsc1_projected_16384_gpus", "mttf_hours"] == pytest.approx(1.8)
    assert t.loc["opt_175b_1024_gpus", "mttf_hours"] == pytest.approx(16 * 24 / 40)  # "40+ restarts" in 16 days
    assert t.loc["opt_175b_1024_gpus", "relation"] == "up_to"
    # Llama 3's row holds the same counts as reliability_facts.csv: 54 days x 24 h / 419 = 3.09 h
    llama = t.loc["llama3_405b_16384_gpus"]
    assert (llama["job_gpus"], llama["failures"], llama["window_days"]) == (LLAMA_GPUS, UNEXPECTED,
                                                                          rel.item("llama3_snapshot_days"))
    assert llama["mttf_hours"] == pytest.approx(54 * 24 / 419)
    assert sorted(t.index[t["in_fit"] == "true"]) == ["kokolis_rsc_1024_gpus", "kokolis_rsc_8_gpus",
                                                       "llama3_405b_16384_gpus"]


def test_kokolis_projections_are_their_node_rate_on_the_job_s_nodes():
    """The paper's 1.8 h and 0.23 h are 1 / (N_nodes x 6.50 per 1,000 node-days) at 2,048 and
    16,384 nodes of 8 GPUs (1.80 h and 0.225 h), within the published rounding."""
    t = rel.job_failure_table().set_index("row_id")
    rsc1 = rel.gpu_mtbf_from_node_rate_hours(rel.item("kokolis_rsc1_node_failures"), 8)
    for row_id, gpus in (("kokolis_rsc1_projected_16384_gpus", 16_384), ("kokolis_rsc1_projected_131072_gpus", 131_072)):
        assert rel.job_mtbf_hours(gpus, rsc1) == pytest.approx(t.loc[row_id, "mttf_hours"], rel=0.025)


# The fitted rows come from two clusters, two GPU generations and two failure definitions; the
# fit is a least-squares line through three points, so it misses each by up to this factor (the
# largest miss, at 1,024 GPUs, is 2.2x).
FIT_TOLERANCE_FACTOR = 2.5


def test_the_fit_reproduces_the_measured_points_within_its_stated_tolerance():
    t = rel.job_failure_table()
    fitted = t[t["in_fit"] == "true"]
    ratio = fitted["mttf_hours"].to_numpy() / rel.measured_job_mtbf_hours(fitted["job_gpus"].to_numpy(dtype=float))
    assert np.all(ratio < FIT_TOLERANCE_FACTOR) and np.all(ratio > 1 / FIT_TOLERANCE_FACTOR)
    # least squares in log space: the residuals of ln MTTF sum to zero
    assert np.sum(np.log(ratio)) == pytest.approx(0.0, abs=1e-9)


def test_the_fit_is_ordinary_least_squares_in_log_log_space_by_hand():
    """Slope = cov(ln n, ln T) / var(ln n) over (8, 1,144.8 h), (1,024, 7.9 h), (16,384, 1,296/419 h)."""
    x = np.log([8.0, 1024.0, 16384.0])
    y = np.log([47.7 * 24, 7.9, 54 * 24 / 419])
    slope = np.sum((x - x.mean()) * (y - y.mean())) / np.sum((x - x.mean()) ** 2)
    fit = rel.fit_job_mttf()
    assert fit.exponent == pytest.approx(-slope)
    assert fit.exponent == pytest.approx(0.804, abs=0.001)
    assert fit.scale_hours == pytest.approx(math.exp(y.mean() - slope * x.mean()))
    assert fit.points == 3


def test_a_two_point_table_is_fitted_exactly():
    """Kokolis et al.'s two measured sizes alone: the line passes through both, with exponent
    ln(1,144.8 / 7.9) / ln(128) = 1.026, i.e. within one cluster MTTF falls almost exactly as 1/GPUs."""
    t = rel.job_failure_table()
    kokolis = t[t["row_id"].isin(["kokolis_rsc_8_gpus", "kokolis_rsc_1024_gpus"])]
    assert rel.measured_job_mtbf_hours(8, kokolis) == pytest.approx(1_144.8)
    assert rel.measured_job_mtbf_hours(1024, kokolis) == pytest.approx(7.9)
    assert rel.fit_job_mttf(kokolis).exponent == pytest.approx(math.log(1_144.8 / 7.9) / math.log(128))
    # a bare frame of job sizes and hours works too (a planner's own measurements)
    own = pd.DataFrame({"job_gpus": [64, 4096], "mttf_hours": [100.0, 2.0]})
    assert rel.measured_job_mtbf_hours(512, own) == pytest.approx(100 * (512 / 64) ** (math.log(2 / 100) / math.log(64)))


def test_measured_fit_falls_with_job_size_and_keeps_its_shape():
    sizes = np.geomspace(1, 2e6, 200)
    mtbf = rel.measured_job_mtbf_hours(sizes)
    assert isinstance(mtbf, np.ndarray) and mtbf.shape == sizes.shape
    assert np.all(np.diff(mtbf) < 0)
    assert isinstance(rel.measured_job_mtbf_hours(1024), float)
    with pytest.raises(ValueError):
        rel.measured_job_mtbf_hours(0)
    with pytest.raises(ValueError):  # one job size cannot fix a slope
        rel.fit_job_mttf(pd.DataFrame({"job_gpus": [1024, 1024], "mttf_hours": [7.9, 9.6]}))


def test_per_gpu_model_at_llama3_scale_is_the_hand_arithmetic():
    """16,384 GPUs x 1,296 h / 419 = 50,677 h per GPU; / 16,384 = 1,296 / 419 = 3.093 h per job;
    at 1,024 GPUs, 50,677 / 1,024 = 49.5 h, 6.3 times Kokolis et al.'s measured 7.9 h."""
    gpu_mtbf = 16_384 * 54 * 24 / 419
    assert rel.job_mtbf_hours(16_384, gpu_mtbf) == pytest.approx(1_296 / 419)
    assert rel.job_mtbf_hours(16_384, gpu_mtbf) == pytest.approx(3.093, abs=5e-4)
    assert rel.job_mtbf_hours(1024, gpu_mtbf) / 7.9 == pytest.approx(6.26, abs=0.01)
    assert rel.job_mtbf_hours(LLAMA_GPUS, rel.llama3_snapshot().gpu_mtbf_hours) == pytest.approx(1_296 / 419)


def test_failure_model_parameter():
    assert d.FAILURE_MODEL.default == "per-gpu"
    assert d.FAILURE_MODEL.parse("measured-fit") == "measured-fit"
    with pytest.raises(ParameterError):
        d.FAILURE_MODEL.parse("weibull")


@pytest.mark.parametrize(("edit", "expect"), [
    ({"failures": "419", "window_days": "54"}, "not both"),  # a stated MTTF and counts
    ({"in_fit": "true", "row_id": "kokolis_rsc1_projected_16384_gpus"}, "may be fitted"),  # a projection
    ({"mttf_unit": "weeks"}, "mttf_unit"),
])
def test_job_failures_schema_rejects_bad_rows(tmp_path, monkeypatch, edit, expect):
    folder = tmp_path / "data"
    shutil.copytree(data.DATA_DIR, folder)
    path = folder / "job_failures.csv"
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    row = table.index[table["row_id"] == edit.pop("row_id", "kokolis_rsc_1024_gpus")][0]
    for column, value in edit.items():
        table.loc[row, column] = value
    table.to_csv(path, index=False)
    monkeypatch.setenv("ANALYSIS_DATA_DIR", str(folder))
    data.clear_cache()
    try:
        with pytest.raises(data.DataError, match=expect):
            load_table("job_failures")
    finally:
        data.clear_cache()


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


# --- Llama 3's calibration: one loader for every chapter ---------------------------------------------

def test_llama3_snapshot_holds_the_published_counts():
    snap = rel.llama3_snapshot()
    assert (snap.gpus, snap.days, snap.unexpected, snap.planned, snap.total) == (16_384, 54, 419, 47, 466)
    assert snap.hours == 1_296
    assert snap.counts_by_category.sum() == 419
    assert snap.counts_by_category.index[0] == "GPU" and snap.counts_by_category["GPU"] == 268
    assert snap.gpu_mtbf_hours == pytest.approx(16_384 * 1_296 / 419)
    assert snap.planned_per_hour == pytest.approx(47 / 1_296)


def test_llama3_rates_split_job_stopping_and_repair_faults():
    """Every unexpected interruption stops the job: 419 / (16,384 x 1,296) per GPU-hour; those
    that need a repair are the GPU, host and unplanned-maintenance categories."""
    snap = rel.llama3_snapshot()
    rates = rel.llama3_rates(snap)
    assert rates["job"] == pytest.approx(419 / (16_384 * 1_296))
    repair_events = snap.counts_by_category[list(rel.REPAIR_CATEGORIES)].sum()
    assert rates["repair"] == pytest.approx(repair_events / (16_384 * 1_296))
    assert 0 < rates["repair"] < rates["job"]
    assert rates == rel.llama3_rates()  # loading again gives the same calibration


def test_gb200_rates_add_nvlink_faults_to_scaled_h100_rates():
    rates = {"job": 2e-5, "repair": 1.5e-5, "planned_per_hour": 0.03}
    nvlink = 1.0 / (72 * 730)  # one fault per rack-month, per GPU-hour
    out = rel.gb200_rates(nvlink_faults_per_rack_month=1.0, gpus_per_rack=72, gpu_fault_ratio=2.0, rates=rates)
    assert out["job"] == pytest.approx(2 * 2e-5 + nvlink)
    assert out["repair"] == pytest.approx(2 * 1.5e-5 + nvlink)
    assert out["planned_per_hour"] == 0.03
