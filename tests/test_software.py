"""Software gains: SemiAnalysis's gains and dollars reproduced from its MFUs, and the seed's
numbers shown to be impossible."""

import pandas as pd
import pytest

from analysis import costs, hardware, software
from analysis.benchmarks import load_benchmarks, sweep
from analysis.data.load import fact


@pytest.fixture(scope="module")
def bench():
    return load_benchmarks()


def _sa_gpt3(bench, precision, date):
    rows = sweep(bench, "gpt3_175b", precision, "sa_gb200_2025")
    return rows[rows["date"] == date].iloc[0]


def test_gains_reproduce_a19_and_a21():
    # A19: SA's 57 % follows from NVIDIA's unrounded 53.54 % (v25.02) over 34 %; its rounded 54 % gives 58.8 %.
    assert 1 + software.throughput_gain(fact("A18_mfu_bf16_jan2024"), 0.5354) == pytest.approx(
        1 + fact("A19_bf16_throughput_gain"), rel=0.01)
    assert software.throughput_gain(fact("A18_mfu_bf16_jan2024"), fact("A18_mfu_bf16_dec2024")) == pytest.approx(0.588, abs=0.001)
    assert software.throughput_gain(fact("A20_mfu_fp8_jan2024"), fact("A20_mfu_fp8_dec2024")) == pytest.approx(
        fact("A21_fp8_throughput_gain"), rel=0.01)


def test_gpt3_dollars_reproduce_a22_a23_within_1pct(bench):
    price = fact("A13_h100_usd_per_gpu_hour")
    for date, per_m, run in (("2024-01", "A22_fp8_cost_per_1m_jan2024", "A23_gpt3_fp8_cost_jan2024"),
                             ("2024-12", "A22_fp8_cost_per_1m_dec2024", "A23_gpt3_fp8_cost_dec2024")):
        rate = _sa_gpt3(bench, "fp8", date)["tokens_per_s_per_gpu"]
        assert costs.usd_per_million_tokens(price, rate) == pytest.approx(fact(per_m), rel=0.011)
        assert costs.run_cost_usd(fact("A23_train_tokens"), price, rate) == pytest.approx(fact(run), rel=0.01)


def test_implied_mfu_inverts_the_cost(bench):
    r = _sa_gpt3(bench, "fp8", "2024-12")
    mfu = software.implied_mfu_from_cost(1.42, fact("A22_fp8_cost_per_1m_dec2024"), r["flops_per_token"],
                                         hardware.peak_tflops("h100_sxm", "fp8"))
    assert mfu == pytest.approx(fact("A20_mfu_fp8_dec2024"), rel=0.01)


def test_seed_end_cost_would_need_more_than_the_peak(bench):
    """S12: $12,000 for GPT-3's 300B tokens is impossible on H100 at $1.42/GPU-hour."""
    r = _sa_gpt3(bench, "fp8", "2024-12")
    per_m = 12_000 / (fact("A23_train_tokens") / 1e6)
    mfu = software.implied_mfu_from_cost(1.42, per_m, r["flops_per_token"], hardware.peak_tflops("h100_sxm", "fp8"))
    assert mfu > 1.0


def test_cost_before_gain():
    assert software.cost_before_gain_usd(100.0, 0.57) == pytest.approx(157.0)
    # GPT-3 FP8: Dec cost x (1 + 34 % gain) is the Jan cost (A21, A23).
    assert software.cost_before_gain_usd(fact("A23_gpt3_fp8_cost_dec2024"), fact("A21_fp8_throughput_gain")) == pytest.approx(
        fact("A23_gpt3_fp8_cost_jan2024"), rel=0.01)


def test_release_series_is_one_row_per_release_in_date_order(bench):
    series = software.release_series(bench, "llama31_405b", "bf16")
    assert series["date"].is_monotonic_increasing
    assert not series.duplicated(["software", "publisher"]).any()
    assert set(series["gpus"]) == {576, 512}  # v25.04 publishes 512 where earlier releases had 576
    gain = software.first_last_gain(series[series["publisher"] == "NVIDIA"])
    assert gain["gain"] == pytest.approx(207.1 / 208.4 - 1)


def test_release_steps_pair_each_release_with_the_next():
    """Three releases of one system give two steps, each the gain from one to the next, in tokens/s
    and in printed TFLOP/s (equal when nothing but the speed changed)."""
    rows = pd.DataFrame({"gpu_id": "h100_sxm", "model_id": "llama31_405b", "precision": "fp8",
                         "release": ["26.02", "25.11", "26.04.01"], "date": ["2026-02", "2025-11", "2026-04"],
                         "tokens_per_s": [311.0, 292.0, 328.0], "tflops_printed": [784.0, 737.0, 827.0]})
    steps = software.release_steps(rows)
    assert list(zip(steps["release_from"], steps["release_to"], strict=True)) == [("25.11", "26.02"), ("26.02", "26.04.01")]
    assert steps["throughput_gain"].tolist() == pytest.approx([311 / 292 - 1, 328 / 311 - 1])
    assert steps["printed_tflops_gain"].tolist() == pytest.approx([784 / 737 - 1, 827 / 784 - 1])
