"""The scaling chapter module (analysis.chapters.scaling): weak scaling against SemiAnalysis's and
NVIDIA's figures, the strong-scaling model's results against hand arithmetic, and its figures."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from analysis.chapters import ChapterError, compute_section  # noqa: E402
from analysis.data.load import fact  # noqa: E402
from analysis.figures import scaling as figures  # noqa: E402
from analysis.units import SECONDS_PER_DAY  # noqa: E402


@pytest.fixture(scope="module")
def E():
    return compute_section("scaling")


def test_reads_the_benchmarks_and_tco_chapters(E):
    bench, tco = compute_section("benchmarks"), compute_section("tco")
    for key in ("llama31_70b_fp8_mfu_relative_drop_64_to_2048_frac", "llama31_70b_fp8_mfu_relative_drop_nvidia_frac"):
        assert E[key] == bench[key]
    assert E["h100_tco_usd_per_gpu_hour"] == tco["h100_tco_usd_per_gpu_hour"]


def test_405b_mfu_holds_sa_values_at_2304_gpus(E):
    # A32: ~43 % FP8 and ~54 % BF16 at every size; NVIDIA v25.02 prints 42.83 % and 54.23 % at 2,304.
    assert E["llama31_405b_largest_gpus"] == fact("A01_gpus_max_405b")
    assert E["llama31_405b_fp8_mfu_2304"] == pytest.approx(fact("A32_405b_fp8_mfu"), rel=0.01)
    assert E["llama31_405b_bf16_mfu_2304"] == pytest.approx(fact("A32_405b_bf16_mfu"), rel=0.01)


def test_weak_scaling_keeps_over_94_pct(E):
    assert len(E.tables["weak"]) == 8  # four models x two precisions
    assert 0.94 < E["weak_efficiency_min_frac"] < E["weak_efficiency_max_frac"] <= 1
    assert E["llama31_70b_fp8_nvidia_pp"] == 4  # where SA's text says PP 8
    assert E["weak_efficiency_same_model_frac"] > 0.9


def test_strong_scaling_hand_arithmetic(E):
    # Reference: NVIDIA's Llama 3.1 70B FP8 on 64 H100s, 1,566.8 tokens/s/GPU, 128 sequences of 8,192 tokens:
    # a step is 128 x 8,192 / (64 x 1,566.8) = 10.457 s.
    assert E["strong_ref_step_seconds"] == pytest.approx(128 * 8192 / (64 * 1566.8))
    assert E["strong_batch_limit_gpus"] == 128 * 4 * 4 * 2  # one sequence per TP 4 x PP 4 x CP 2 replica
    assert E["strong_step_at_max_seconds"] == pytest.approx(
        E["strong_compute_at_max_seconds"] + E["strong_bubble_seconds"] + E["strong_comm_at_max_seconds"])
    assert E["strong_speedup_at_max_ratio"] == pytest.approx(E["strong_ref_step_seconds"] / E["strong_step_at_max_seconds"])
    assert E["strong_efficiency_at_max_frac"] == pytest.approx(E["strong_speedup_at_max_ratio"] / (2048 / 64))
    # A ring all-reduce of 70.55e9 / 16 FP32 gradients among 128 GPUs at 50 GB/s: 2 x 127/128 x 17.6 GB / 50 GB/s.
    assert E["strong_comm_at_max_seconds"] == pytest.approx(2 * 127 / 128 * 70.55e9 / 16 * 4 / 50e9, rel=0.01)


def test_strong_run_days_and_cost(E):
    # 15T tokens in steps of 128 x 8,192 tokens at the measured step time, on 64 GPUs at the TCO price.
    days = 15e12 / (128 * 8192) * E["strong_ref_step_seconds"] / SECONDS_PER_DAY
    assert E["strong_run_at_ref_days"] == pytest.approx(days)
    assert E["strong_run_cost_at_ref_usd"] == pytest.approx(64 * days * 24 * E["h100_tco_usd_per_gpu_hour"])
    assert E["strong_run_cost_at_max_usd"] > E["strong_run_cost_at_ref_usd"]


def test_last_gpus_cost_more_per_unit_of_speed_up(E):
    assert E["strong_marginal_block_gpus"] == 1000
    assert E["strong_last_block_start_gpus"] == 2048 - 1000
    assert E["strong_last_block_vs_first_block_cost_ratio"] == pytest.approx(
        E["strong_last_block_usd_per_speedup"] / E["strong_first_block_usd_per_speedup"])
    assert E["strong_last_block_vs_first_block_cost_ratio"] > 1
    assert E["strong_last_block_cost_increase_frac"] > E["strong_last_block_speed_gain_frac"] > 0
    assert E["strong_efficiency_at_max_frac"] < 0.5  # strong and weak scaling behave differently (S14)


def test_overlap_mimicked_by_fewer_gradient_bytes_raises_efficiency(E):
    overlapped = compute_section("scaling", {"grad_bytes_per_param": 1.0})
    assert overlapped["strong_efficiency_at_max_frac"] > E["strong_efficiency_at_max_frac"]


def test_a_sweep_that_cannot_grow_is_refused():
    with pytest.raises(ChapterError, match="strong_max_gpus"):
        compute_section("scaling", {"strong_max_gpus": 64})


def test_figures(E):
    P = type("P", (), {"strong_model": "llama31_70b", "strong_precision": "fp8", "backend_gbps": 400.0,
                       "grad_bytes_per_param": 4.0, "llama3_train_tokens": 15e12})()
    fig = figures.efficiency_figure(E, P)
    strong_line = fig.axes[0].lines[0]
    assert strong_line.get_ydata()[-1] == pytest.approx(E["strong_efficiency_at_max_frac"] * 100)
    plt.close(fig)
    fig = figures.cost_figure(E, P)
    assert max(fig.axes[0].lines[0].get_ydata()) == pytest.approx(E["strong_run_cost_at_max_usd"] / 1e6)
    plt.close(fig)
    assert "→" in figures.weak_table(E)


def test_every_number_in_the_prose_is_glued(E, monkeypatch):
    from types import SimpleNamespace

    from .test_benchmarks import unglued_prose_keys

    P = SimpleNamespace(strong_model="llama31_70b", strong_precision="fp8")
    assert unglued_prose_keys("scaling", E, lambda: figures.glue_prose(E, P), figures.FACTS, monkeypatch) == []
