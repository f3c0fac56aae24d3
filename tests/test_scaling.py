"""Weak scaling against SemiAnalysis's and NVIDIA's sweeps; the strong-scaling model's calibration
and the properties it must have."""

import numpy as np
import pytest

from analysis import scaling
from analysis.benchmarks import load_benchmarks, sweep
from analysis.data.load import fact, row


@pytest.fixture(scope="module")
def bench():
    return load_benchmarks()


def test_sa_70b_fp8_drop_is_6_8_pct_not_10():
    drop = scaling.relative_drop(fact("A39_70b_fp8_mfu_64"), fact("A39_70b_fp8_mfu_2048"))
    assert drop == pytest.approx(0.068, abs=0.0005)
    assert drop < fact("A39_sa_stated_drop") * 0.75  # SA's "~10 %" overstates it


def test_weak_scaling_table_reproduces_sa_sweeps(bench):
    table = scaling.weak_scaling_table(bench, "sa_gb200_2025").set_index(["model_id", "precision"])
    assert table.loc[("llama31_70b", "fp8"), "mfu_drop"] == pytest.approx(0.068, abs=0.0005)
    bf16 = table.loc[("llama31_70b", "bf16"), "mfu_drop"]
    assert fact("A40_drop") <= bf16 <= row("report_facts", "A40_drop")["value_high"]  # SA: "1-2 %"
    assert table.loc[("llama31_405b", "fp8"), "mfu_drop"] == 0  # SA states ~43 % at every size
    assert ("gpt3_175b", "bf16") not in table.index  # Jan vs Dec 2024 at 128 GPUs is software, not scaling


def test_nvidia_405b_sweep_is_flat_at_sa_values(bench):
    for precision, fact_id in (("fp8", "A32_405b_fp8_mfu"), ("bf16", "A32_405b_bf16_mfu")):
        s = sweep(bench, "llama31_405b", precision, "nv_dgxc_v25_02")
        assert s["gpus"].iloc[-1] == fact("A01_gpus_max_405b")
        assert s["mfu"].to_numpy() == pytest.approx(fact(fact_id), rel=0.02)
        assert s["mfu"].iloc[-1] == pytest.approx(fact(fact_id), rel=0.01)


def test_weak_sweeps_keep_layout_and_lose_little(bench):
    table = scaling.weak_scaling_table(bench, "nv_dgxc_v25_02")
    assert len(table) == 8  # four models x two precisions
    assert (table["efficiency"] > 0.9).all() and (table["efficiency"] <= 1.0).all()


def _model(gpus, grad_bytes=4.0, pp=4, vp=5, batch=128):
    return scaling.strong_scaling(gpus, 64, 10.457, 70.55e9, 4, pp, 2, vp, batch, grad_bytes, 400.0)


def test_strong_model_is_calibrated_on_the_measured_step():
    frame = _model([64.0])
    assert frame["step_s"].iloc[0] == pytest.approx(10.457)
    assert frame["speedup"].iloc[0] == pytest.approx(1.0) and frame["efficiency"].iloc[0] == pytest.approx(1.0)


def test_strong_efficiency_never_rises_with_more_gpus():
    gpus = np.arange(64, 4097, 32, dtype=float)
    for grad_bytes in (0.0, 2.0, 4.0):
        frame = _model(gpus, grad_bytes)
        assert np.all(np.diff(frame["efficiency"]) <= 1e-12)
        assert np.all(np.diff(frame["step_s"]) < 0)  # still faster, just less and less so


def test_without_fixed_costs_strong_scaling_is_perfect():
    frame = _model(np.array([64.0, 512.0, 1024.0]), grad_bytes=0.0, pp=1, vp=1)
    assert frame["efficiency"].to_numpy() == pytest.approx(1.0)


def test_gradient_exchange_never_shrinks_and_bubble_is_constant():
    frame = _model(np.array([64.0, 128.0, 1024.0, 4096.0]))
    assert np.all(np.diff(frame["comm_s"]) >= 0)
    assert frame["bubble_s"].nunique() == 1
    # Ring all-reduce of a 70.55B / 16 shard in FP32 over 50 GB/s approaches 2 x 0.353 s.
    assert frame["comm_s"].iloc[-1] == pytest.approx(2 * 70.55e9 / 16 * 4 / 50e9, rel=0.01)


def test_batch_limits_the_cluster():
    assert scaling.max_gpus_for_batch(128, 4, 4, 2) == 4096
    assert scaling.max_gpus_for_batch(256, 4, 8, None) == 8192  # an empty CP degree is 1
    with pytest.raises(ValueError, match="exceed"):
        _model(np.array([64.0, 8192.0]))


def test_last_gpus_cost_more_per_unit_of_speed_up():
    gpus = np.array([64.0, 1064.0, 1048.0, 2048.0])
    frame = _model(gpus).set_index("gpus")
    days = scaling.time_to_train_days(15e12, 128 * 8192, frame["step_s"])
    cost = scaling.cluster_run_cost_usd(frame.index.to_numpy(), days, 1.42)
    first = scaling.marginal_usd_per_speedup(cost[0], cost[1], frame["speedup"].iloc[0], frame["speedup"].iloc[1])
    last = scaling.marginal_usd_per_speedup(cost[2], cost[3], frame["speedup"].iloc[2], frame["speedup"].iloc[3])
    assert last > first > 0
    assert np.all(np.diff(np.sort(cost)) > 0)  # more GPUs, bigger bill


def test_time_and_cost_arithmetic():
    assert scaling.time_to_train_days(86_400 * 10, 10, 1.0) == pytest.approx(1.0)
    assert scaling.cluster_run_cost_usd(1000, 1.0, 2.0) == pytest.approx(48_000)
    assert scaling.marginal_usd_per_day_saved(100.0, 300.0, 10.0, 8.0) == pytest.approx(100.0)


def test_step_time_from_rate_matches_nvidia_recipe(bench):
    r = sweep(bench, "llama31_70b", "fp8", "nv_dgxc_v25_02").iloc[0]
    step = scaling.step_time_from_rate_s(r["global_batch"], r["seq_len"], r["gpus"], r["tokens_per_s_per_gpu"])
    assert step * r["gpus"] * r["tokens_per_s_per_gpu"] == pytest.approx(r["global_batch"] * r["seq_len"])
