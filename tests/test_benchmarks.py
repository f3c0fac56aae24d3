"""Benchmark data checks: every printed MFU against its printed throughput, GB200/H100 ratios
against facts A49-A51, FLOP conventions and the FP8/BF16 identity."""

import pytest

from analysis import benchmarks, flops, hardware
from analysis.data.load import fact, row

DENSE = ["gpt3_175b", "llama31_8b", "llama31_70b", "llama31_405b"]
MOE = ["deepseek_v3", "llama4_maverick"]


@pytest.fixture(scope="module")
def bench():
    return benchmarks.load_benchmarks()


@pytest.fixture(scope="module")
def check(bench):
    return benchmarks.conversion_check(bench, 0.01)


def test_every_dense_row_on_every_gpu_converts_within_1pct(check):
    dense = check[check["model_id"].isin(DENSE)]
    assert set(dense["gpu_id"]) == {"h100_sxm", "gb200_nvl72"}
    assert len(dense) >= 70
    assert dense["passes"].all(), dense.loc[~dense["passes"], ["model_id", "gpu_id", "gpus", "ratio"]]


def test_the_failures_are_the_moe_rows_and_the_typo_is_flagged(check):
    failures = check[~check["passes"]]
    assert set(failures["model_id"]) == set(MOE)
    typo = failures[failures["diagnosis"].str.contains("FP8 peak")]
    assert len(typo) == 1
    t = typo.iloc[0]
    assert (t["model_id"], t["gpu_id"], t["precision"], t["gpus"]) == ("llama4_maverick", "gb200_nvl72", "bf16", 128)
    assert t["mfu_reported"] == pytest.approx(0.1871)
    rest = failures.drop(typo.index)
    assert rest["diagnosis"].str.startswith("publisher counts").all()
    # NVIDIA's MoE FLOP counts differ from 6N_active + 12Lhs by about 8-10 %.
    assert ((rest["ratio"] - 1).abs().between(0.07, 0.11)).all()


def test_a_misprinted_dense_row_is_caught(bench):
    broken = bench.copy()
    i = broken.index[(broken["model_id"] == "llama31_70b") & broken["tokens_per_s_per_gpu_reported"].notna()][0]
    broken.loc[i, "mfu_reported"] *= 1.05
    failures = benchmarks.conversion_failures(broken, 0.01)
    assert i in failures.index
    assert failures.loc[i, "diagnosis"] == "unexplained"


@pytest.mark.parametrize("model_id,precision,fact_id", [
    ("deepseek_v3", "bf16", "A49_deepseek_ratio"),
    ("llama4_maverick", "bf16", "A50_maverick_bf16_ratio"),
    ("llama4_maverick", "fp8", "A50_maverick_fp8_ratio"),
    ("llama31_405b", "bf16", "A51_bf16_ratio_vs_h100"),
    ("llama31_405b", "fp8", "A51_fp8_ratio_vs_h100"),
])
def test_gb200_over_h100_ratios_reproduce_a49_to_a51(bench, model_id, precision, fact_id):
    assert benchmarks.throughput_ratio(bench, model_id, precision) == pytest.approx(fact(fact_id), rel=0.01)


def test_deepseek_falls_short_of_the_tco_break_even(bench):
    assert benchmarks.throughput_ratio(bench, "deepseek_v3", "bf16") < fact("A12_tco_ratio")
    assert benchmarks.throughput_ratio(bench, "llama4_maverick", "bf16") > fact("A12_tco_ratio")


def test_with_costs_prices_every_row_and_refuses_unknown_gpus(bench):
    priced = benchmarks.with_costs(bench, {"h100_sxm": 1.42, "gb200_nvl72": 1.42 * 1.6})
    assert priced["usd_per_million_tokens"].notna().all() and (priced["usd_per_million_tokens"] > 0).all()
    r = priced[(priced["source_id"] == "nv_dgxc_v25_02") & (priced["model_id"] == "llama31_405b")
               & (priced["precision"] == "bf16") & (priced["gpus"] == 2304)].iloc[0]
    assert r["usd_per_million_tokens"] == pytest.approx(fact("A34_405b_bf16_cost_per_1m"), rel=0.01)
    with pytest.raises(KeyError, match="gb200_nvl72"):
        benchmarks.with_costs(bench, {"h100_sxm": 1.42})


def test_flop_conventions_are_ordered_and_include_the_books():
    model = row("models", "llama31_70b")
    conv = benchmarks.flops_per_token_conventions(model, 8192)
    values = list(conv.values())
    book = next(v for k, v in conv.items() if k.startswith("6N + 12Lhs (this book"))
    assert book == pytest.approx(flops.model_flops_per_token(model, 8192))
    assert values[0] < values[1] < book < values[3] < values[4]  # 6N < causal < book < +embedding < HFU
    assert values[4] == pytest.approx(book * 4 / 3)  # full recomputation adds one forward pass (a third)


def test_fp8_mfu_ratio_is_throughput_ratio_times_peak_ratio(bench):
    pairs = benchmarks.precision_pairs(bench[bench["source_id"] == "nv_dgxc_v25_02"])
    assert len(pairs) >= 16
    expected = pairs["throughput_ratio"] * pairs["peak_tflops_bf16"] / pairs["peak_tflops_fp8"]
    assert pairs["mfu_ratio"].to_numpy() == pytest.approx(expected.to_numpy(), rel=0.01)
    assert (pairs["throughput_ratio"] > 1).all() and (pairs["mfu_ratio"] < 1).all()


def test_accelerated_share():
    factor = hardware.peak_tflops("h100_sxm", "fp8") / hardware.peak_tflops("h100_sxm", "bf16")
    assert benchmarks.accelerated_share(factor, factor) == pytest.approx(1.0)
    assert benchmarks.accelerated_share(1.0, factor) == pytest.approx(0.0)
    assert benchmarks.accelerated_share(1.4, 2.0) == pytest.approx(0.5714, rel=1e-3)


def test_best_rate_row_takes_the_latest_release(bench):
    r = benchmarks.best_rate_row(bench, "llama31_405b", "bf16", "h100_sxm")
    assert r["source_id"] == "nv_dgxc_v25_04" and r["gpus"] == 512


def test_publisher_peak_is_nvidias_rounded_dense_peak(bench):
    assert benchmarks.publisher_peak_tflops(bench, "h100_sxm", "bf16") == 989  # registry: 989.4
    assert benchmarks.publisher_peak_tflops(bench, "gb200_nvl72", "bf16") == 2450  # usual dense figure: 2,500
    with pytest.raises(KeyError):
        benchmarks.publisher_peak_tflops(bench, "a100_sxm", "fp8")
