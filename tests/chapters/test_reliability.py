"""The reliability chapter module (analysis.chapters.reliability) against Llama 3's published
figures and hand arithmetic, and its figures and reader tables (analysis.figures.reliability)."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from analysis.chapters import compute_section  # noqa: E402
from analysis.data.load import fact  # noqa: E402
from analysis.figures import reliability as figures  # noqa: E402

# Llama 3 405B (Meta 2024, via DCD and Lockwood): 419 unexpected interruptions in 54 days on 16,384 GPUs.
GPUS, DAYS, UNEXPECTED = 16_384, 54, 419
HOURS = DAYS * 24  # 1,296 h
WRITE_H, DETECT_H, RESTART_H = 10 / 3_600, 2 / 60, 5 / 60  # the defaults: 10 s, 2 min, 5 min


@pytest.fixture(scope="module")
def E():
    return compute_section("reliability")


def test_llama3_rates_reproduce_the_published_arithmetic(E):
    assert E["llama3_unexpected_interruptions_per_day"] == pytest.approx(419 / 54)  # 7.76 a day
    assert E["llama3_gpu_mtbf_hours"] == pytest.approx(16_384 * 1_296 / 419)  # 50,677 h
    assert E["llama3_gpu_mtbf_hours"] == pytest.approx(50_677, rel=1e-4)
    assert E["llama3_job_mtbf_hours"] == pytest.approx(1_296 / 419)  # 3.09 h, DCD's "every three hours"
    assert E["llama3_job_mtbf_hours"] == pytest.approx(E["llama3_published_hours_between_failures"], rel=0.05)
    assert E["llama3_gpu_class_frac"] == pytest.approx(268 / 419)
    assert E["llama3_gpu_class_mtbf_hours"] == pytest.approx(16_384 * 1_296 / 268)


def test_the_misprinted_share_is_the_faulty_gpu_row(E):
    """Meta prints 30.1 % for 148 faulty-GPU interruptions; 148 / 419 is 35.3 %."""
    assert figures.misprinted_component(E) == "Faulty GPU"
    assert E["llama3_misprinted_count"] == 148
    assert E["llama3_misprinted_counts_pct"] == pytest.approx(148 / 419 * 100)
    assert E["llama3_misprinted_printed_pct"] == pytest.approx(30.1)


def test_job_mtbf_at_cluster_size_and_links_only(E):
    # 100,000 GPUs at 50,677 h each: 0.507 h = 30.4 minutes
    assert E["cluster_job_mtbf_minutes"] == pytest.approx(16_384 * 1_296 / 419 / 100_000 * 60)
    # SemiAnalysis: 5-year link MTTF over 100k links (B27, 26.28 min)
    assert E["first_failure_minutes"] == pytest.approx(fact("B27_first_failure_min"), rel=1e-3)
    # GB200: Llama 3's rate plus one NVLink fault per 72-GPU rack-month (730 h)
    gb200_rate = 419 / (16_384 * 1_296) + 1 / (72 * 730)
    assert E["gb200_gpu_mtbf_hours"] == pytest.approx(1 / gb200_rate)
    table = E.tables["job_mtbf_by_size"]
    assert np.all(np.diff(table["h100_all_causes_hours"]) < 0)
    assert np.all(table["gb200_hours"] < table["h100_all_causes_hours"])


def test_measured_job_mttf_beside_the_per_gpu_projection(E):
    """Kokolis et al. measured 7.9 h at 1,024 GPUs and 47.7 days at 8 GPUs; Llama 3's per-GPU rate
    projects 50,677 h / 1,024 = 49.5 h and 50,677 / 8 = 6,335 h: measured jobs failed 6.3 and 5.5
    times as often, while the two Kokolis points themselves fall almost exactly as 1/GPUs."""
    gpu_mtbf = GPUS * HOURS / UNEXPECTED
    assert E["kokolis_1024_gpus_job_mttf_hours"] == pytest.approx(7.9)
    assert E["kokolis_8_gpus_job_mttf_hours"] == pytest.approx(47.7 * 24)
    assert E["per_gpu_job_mtbf_1024_gpus_hours"] == pytest.approx(gpu_mtbf / 1024)
    assert E["measured_vs_projected_failure_rate_1024_gpus_ratio"] == pytest.approx(gpu_mtbf / 1024 / 7.9)
    assert E["measured_vs_projected_failure_rate_1024_gpus_ratio"] == pytest.approx(6.26, abs=0.01)
    assert E["measured_vs_projected_failure_rate_8_gpus_ratio"] == pytest.approx(gpu_mtbf / 8 / (47.7 * 24))
    assert E["kokolis_job_mttf_exponent"] == pytest.approx(math.log(47.7 * 24 / 7.9) / math.log(128))
    # Kokolis et al.'s own node-rate model at 128 nodes: 1,000 / 6.50 node-days / 128 x 24 = 28.8 h
    assert E["kokolis_node_model_1024_gpus_job_mttf_hours"] == pytest.approx(1_000 / 6.50 / 128 * 24)
    assert E["opt_175b_max_hours_between_restarts"] == pytest.approx(16 * 24 / 40)


def test_fit_against_the_projection_at_1024_gpus_llama3_and_the_cluster(E):
    from analysis import reliability as rel

    for name, gpus in (("1024_gpus", 1024), ("llama3", GPUS), ("cluster", 100_000)):
        fit = rel.measured_job_mtbf_hours(gpus)
        assert E[f"fit_job_mtbf_{name}_hours"] == pytest.approx(fit)
        assert E[f"fit_vs_per_gpu_failure_rate_{name}_ratio"] == pytest.approx(GPUS * HOURS / UNEXPECTED / gpus / fit)
    assert E["fit_vs_per_gpu_failure_rate_1024_gpus_ratio"] > E["fit_vs_per_gpu_failure_rate_llama3_ratio"] > 1
    # the fit's slope is shallower than 1/GPUs, so it meets the projection once, beyond the cluster
    a, b = E["job_mttf_fit_scale_hours"], E["job_mttf_fit_exponent"]
    meet = E["fit_meets_per_gpu_gpus"]
    assert a * meet ** -b == pytest.approx(GPUS * HOURS / UNEXPECTED / meet)
    assert meet > 100_000
    assert 1 < E["job_mttf_fit_max_misfit_ratio"] < 2.5
    table = E.tables["measured_job_failures"]
    assert len(table) == 6 and set(table["kind"]) == {"measured", "counted", "projected"}


def test_failure_model_switches_the_modelled_job_but_not_llama3s_run():
    """measured-fit: the cluster's job MTBF is the fit at 100,000 GPUs; Daly's interval and the
    goodput follow it; everything about Llama 3's own 54 days stays on its counts."""
    from analysis import reliability as rel

    base = compute_section("reliability", {"goodput_trials": 200})
    fitted = compute_section("reliability", {"failure_model": "measured-fit", "goodput_trials": 200})
    mtbf = rel.measured_job_mtbf_hours(100_000)
    assert fitted["cluster_job_mtbf_minutes"] == pytest.approx(mtbf * 60)
    assert base["cluster_job_mtbf_minutes"] == pytest.approx(GPUS * HOURS / UNEXPECTED / 100_000 * 60)
    assert fitted["cluster_daly_interval_minutes"] == pytest.approx(rel.daly_interval(WRITE_H, mtbf) * 60)
    assert fitted["cluster_daly_interval_minutes"] != pytest.approx(base["cluster_daly_interval_minutes"])
    assert fitted["cluster_goodput_frac"] < base["cluster_goodput_frac"]  # the fit fails more often at 100k
    by_size = fitted.tables["goodput_by_size"]
    assert not np.allclose(by_size["daly_interval_frac"], base.tables["goodput_by_size"]["daly_interval_frac"])
    for key in ("llama3_job_mtbf_hours", "young_interval_minutes", "daly_interval_minutes",
                "llama3_effective_training_time_frac", "llama3_max_recovery_minutes"):
        assert fitted[key] == base[key]
    assert figures.failure_model_text(fitted) == "fit to measured job failure rates"


def test_young_and_daly_intervals_by_hand(E):
    """Write 10 s, Llama 3's job MTBF M = 1,296 / 419 h: Young sqrt(2 delta M); Daly
    sqrt(2 delta M) (1 + sqrt(delta / 2M) / 3 + delta / 18M) - delta."""
    m = HOURS / UNEXPECTED
    young = math.sqrt(2 * WRITE_H * m)
    x = WRITE_H / (2 * m)
    daly = young * (1 + math.sqrt(x) / 3 + x / 9) - WRITE_H
    assert E["young_interval_minutes"] == pytest.approx(young * 60)  # ~7.87 min
    assert E["daly_interval_minutes"] == pytest.approx(daly * 60)  # ~7.75 min
    m_cluster = GPUS * HOURS / UNEXPECTED / 100_000
    x = WRITE_H / (2 * m_cluster)
    daly_cluster = math.sqrt(2 * WRITE_H * m_cluster) * (1 + math.sqrt(x) / 3 + x / 9) - WRITE_H
    assert E["cluster_daly_interval_minutes"] == pytest.approx(daly_cluster * 60)
    assert E["sa_checkpoint_interval_minutes"] == pytest.approx(100 * 2 / 60)  # 100 steps of 2 s


def test_sync_checkpoint_estimate(E):
    # 16,384 GPUs x 4 GB at 2 TB/s sustained = 32.8 s
    assert E["llama3_sync_checkpoint_seconds"] == pytest.approx(16_384 * 4 / 2_000)


def test_goodput_clears_metas_bound_and_falls_with_size(E):
    published = E["llama3_published_effective_training_time_frac"]
    assert published == 0.90
    assert E["llama3_effective_training_time_frac"] > published  # Meta: "more than 90 %"
    assert E["llama3_effective_training_time_p5_frac"] > published
    assert E["llama3_effective_training_time_frac"] < 0.95  # a failure every ~3 h is not free
    assert abs(E["llama3_effective_training_time_frac"] - E["llama3_expected_goodput_frac"]) < 0.002
    assert E["cluster_goodput_frac"] < E["llama3_expected_goodput_frac"]
    assert E["cluster_goodput_frac"] < E["cluster_in_memory_goodput_frac"]
    shares = E.tables["time_shares"].set_index("state")
    assert np.allclose(shares.sum(), 1.0)


def test_recovery_budget_keeps_llama3_at_metas_bound(E):
    """The largest detection + restart at which the analytic goodput is exactly 90 %."""
    from analysis import reliability as rel

    m = HOURS / UNEXPECTED
    tau = rel.daly_interval(WRITE_H, m)
    budget_h = E["llama3_max_recovery_minutes"] / 60
    planned_share = 47 / HOURS * RESTART_H  # planned restarts keep the assumed restart time
    at_budget = rel.expected_goodput(m, tau, WRITE_H, DETECT_H, budget_h - DETECT_H) * (1 - planned_share)
    assert at_budget == pytest.approx(0.90)
    assert E["recovery_minutes"] == 7.0 and E["llama3_max_recovery_minutes"] > 7.0


def test_sa_lost_gpu_days(E):
    assert E["checkpoint_restart_lost_gpu_days"] == pytest.approx(fact("B25_gpu_days"), rel=0.005)  # 99 x 2 s x 100k
    assert E["in_memory_step_lost_gpu_days"] == pytest.approx(100_000 * 2 / 86_400)
    assert E["weights_copy_seconds"] == pytest.approx(80 * 8 / 400)  # 80 GB at 400 Gbit/s
    assert E["in_memory_recovery_lost_gpu_days"] == pytest.approx(
        E["in_memory_step_lost_gpu_days"] + E["in_memory_copy_lost_gpu_days"])  # B26: 2.3 + 1.85


def test_a_parameter_reaches_its_results():
    slower = compute_section("reliability", {"restart_minutes": 30.0, "goodput_trials": 200})
    base = compute_section("reliability", {"goodput_trials": 200})
    assert slower["llama3_effective_training_time_frac"] < base["llama3_effective_training_time_frac"]
    assert slower["cluster_goodput_frac"] < base["cluster_goodput_frac"]
    assert slower["young_interval_minutes"] == base["young_interval_minutes"]


def test_figures_and_tables_render(E):
    for make in (figures.causes, figures.job_mtbf, figures.intervals, figures.llama3_goodput, figures.goodput_by_size):
        fig = make(E)
        assert fig.axes
        plt.close(fig)
    measured = figures.measured_table(E)
    assert measured.count("\n") == 2 + 5  # header, rule and six rows
    assert "<src-kokolis_2024>" in measured and "<src-metaseq_opt_chronicles>" in measured
    assert figures.failure_model_text(E).startswith("per-GPU scaling")
    table = figures.categories_table(E)
    assert "**all unexpected**" in table and "| GPU | 268 |" in table
    assert figures.time_shares_table(E).count("\n") == 2 + 5  # header, rule and six states
    assert figures.largest_losses(E)[0] != "useful training"
    assert figures.recovery_budget_text(E).startswith("stays under")
    assert figures.mtbf_to_gpus(figures.mtbf_to_gpus(10.0, 50_000.0), 50_000.0) == pytest.approx(10.0)
