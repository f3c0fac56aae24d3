"""The goodput Monte Carlo (analysis.goodput): seeded, in agreement with the exact long-run
expectation of analysis.reliability, and reproducing Meta's published bound for Llama 3 405B."""

import numpy as np
import pytest

from analysis import goodput
from analysis import reliability as rel
from analysis.params import defaults as d

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


def _llama3_inputs():
    return goodput.llama3_simulation_inputs(d.CHECKPOINT_WRITE_SECONDS.default, d.FAILURE_DETECTION_MINUTES.default,
                                            d.RESTART_MINUTES.default)


def test_llama3_inputs_are_the_published_counts_and_the_given_assumptions():
    """16,384 GPUs, 54 days (1,296 h), 419 unexpected and 47 planned interruptions; 10 s write,
    2 min detection and 5 min restart converted to hours; the interval is Daly's for the job MTBF."""
    inputs = goodput.llama3_simulation_inputs(10.0, 2.0, 5.0)
    assert inputs["gpus"] == 16_384
    assert inputs["run_hours"] == 54 * 24
    assert inputs["gpu_mtbf_hours"] == pytest.approx(16_384 * 1_296 / 419)
    assert inputs["planned_per_hour"] == pytest.approx(47 / 1_296)
    assert (inputs["write_hours"], inputs["detection_hours"], inputs["restart_hours"]) == pytest.approx(
        (10 / 3_600, 2 / 60, 5 / 60))
    assert inputs["interval_hours"] == pytest.approx(rel.daly_interval(10 / 3_600, 1_296 / 419))


def test_llama3_inputs_reproduce_metas_effective_training_time():
    """With Llama 3's counts and the book's default assumptions, runs clear Meta's '>90 %'."""
    ratios = goodput.simulate_goodput(**_llama3_inputs(), trials=1_000, seed=d.GOODPUT_SEED.default)
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


def test_benchmark_times_the_simulation():
    """Only that it runs and returns a duration; no wall-clock threshold (machines differ)."""
    seconds = goodput.benchmark_seconds(_llama3_inputs(), trials=10, repeats=1)
    assert np.isfinite(seconds) and seconds > 0
