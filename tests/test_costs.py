"""Dollars per token (:mod:`analysis.costs`) against SemiAnalysis's printed figures, and the
properties a price per token must have."""

import numpy as np
import pytest

from analysis import costs
from analysis.benchmarks import load_benchmarks, pick
from analysis.data.load import fact
from analysis.params import defaults as d


def test_sa_cost_per_million_tokens_reproduced():
    # A13 x A22: $1.42 per GPU-hour at 728 tokens/s/GPU is SA's 54.2 cents per 1M GPT-3 tokens.
    assert costs.usd_per_million_tokens(fact("A13_h100_usd_per_gpu_hour"), 728.0) == pytest.approx(
        fact("A22_fp8_cost_per_1m_dec2024"), rel=0.01)
    # A34: Llama 3 405B BF16 at NVIDIA's 202.5 tokens/s/GPU is SA's $1.95 per 1M tokens.
    assert costs.usd_per_million_tokens(fact("A13_h100_usd_per_gpu_hour"), 202.5) == pytest.approx(
        fact("A34_405b_bf16_cost_per_1m"), rel=0.01)


def test_cost_per_million_tokens_from_the_benchmark_rows():
    """SA's MFU-derived throughputs (benchmarks.csv, SemiAnalysis rows) and NVIDIA's 405B row, at the
    report's $1.42 basis, give its printed costs."""
    basis = fact("A13_h100_usd_per_gpu_hour")
    bench = load_benchmarks()
    jan = pick(bench, publisher="SemiAnalysis", model_id="gpt3_175b", precision="fp8", date="2024-01")
    dec = pick(bench, publisher="SemiAnalysis", model_id="gpt3_175b", precision="fp8", date="2024-12")
    l405 = pick(bench, source_id="nv_dgxc_v25_02", model_id="llama31_405b", precision="bf16", gpus=2304)
    assert costs.usd_per_million_tokens(basis, jan["tokens_per_s_per_gpu"]) == pytest.approx(fact("A22_fp8_cost_per_1m_jan2024"), rel=0.015)
    assert costs.usd_per_million_tokens(basis, dec["tokens_per_s_per_gpu"]) == pytest.approx(fact("A22_fp8_cost_per_1m_dec2024"), rel=0.005)
    assert costs.usd_per_million_tokens(basis, l405["tokens_per_s_per_gpu"]) == pytest.approx(fact("A34_405b_bf16_cost_per_1m"), rel=0.005)
    assert costs.run_cost_usd(fact("A35_train_tokens"), basis, l405["tokens_per_s_per_gpu"]) == pytest.approx(
        fact("A35_405b_15t_cost"), rel=0.01)


def test_sa_run_costs_reproduced():
    # A23: GPT-3 on 300B tokens, 728 tok/s -> ~$162k; A35: Llama 3 405B on 15T tokens -> ~$29.1M.
    price = fact("A13_h100_usd_per_gpu_hour")
    assert costs.run_cost_usd(fact("A23_train_tokens"), price, 728.0) == pytest.approx(
        fact("A23_gpt3_fp8_cost_dec2024"), rel=0.01)
    assert costs.run_cost_usd(fact("A35_train_tokens"), price, 202.5) == pytest.approx(
        fact("A35_405b_15t_cost"), rel=0.01)


def test_cost_is_linear_in_price_and_inverse_in_throughput():
    prices = np.linspace(0.5, 5.0, 10)
    per_m = costs.usd_per_million_tokens(prices, 500.0)
    assert np.allclose(per_m / prices, per_m[0] / prices[0])
    assert costs.usd_per_million_tokens(1.42, 1000.0) == pytest.approx(costs.usd_per_million_tokens(1.42, 500.0) / 2)
    assert costs.run_cost_usd(2e12, 1.42, 700) == pytest.approx(2 * costs.run_cost_usd(1e12, 1.42, 700))


def test_token_rate_from_cost_is_the_inverse():
    for rate in (10.0, 202.5, 728.0, 14_000.0):
        per_m = costs.usd_per_million_tokens(2.0, rate)
        assert costs.tokens_per_s_per_gpu_from_usd_per_million(2.0, per_m) == pytest.approx(rate, rel=1e-12)
    # SA's 72 cents implies ~544 tokens/s/GPU (A22 note), within the rounding of "72 cents".
    assert costs.tokens_per_s_per_gpu_from_usd_per_million(1.42, 0.72) == pytest.approx(544, rel=0.01)


def test_gpu_hours_do_not_depend_on_price():
    hours = costs.run_gpu_hours(1e12, 1000.0)
    assert costs.run_cost_usd(1e12, 3.0, 1000.0) == pytest.approx(hours * 3.0)


def test_break_even_is_the_tco_ratio():
    assert costs.perf_per_tco_ratio(1.6, 1.6) == pytest.approx(1.0)
    assert costs.perf_per_tco_ratio(2.27, 1.6) > 1 > costs.perf_per_tco_ratio(1.52, 1.6)
    # A GPU that is r times faster at t times the price trains a token for t / r of the cost.
    h100 = costs.usd_per_million_tokens(1.42, 600.0)
    gb200 = costs.usd_per_million_tokens(1.42 * 1.6, 600.0 * 2.0)
    assert gb200 / h100 == pytest.approx(1 / costs.perf_per_tco_ratio(2.0, 1.6))


@pytest.mark.parametrize("param,fact_id", [
    (d.GPT3_TRAIN_TOKENS, "A23_train_tokens"),
    (d.LLAMA3_TRAIN_TOKENS, "A35_train_tokens"),
    (d.STRONG_MAX_GPUS, "A01_gpus_max"),
    (d.BACKEND_GBPS, "A02_ib_gbps_per_link"),
])
def test_cited_defaults_equal_the_facts_they_cite(param, fact_id):
    """A parameter whose default is 'cited' from a report fact carries exactly that value."""
    assert param.basis == "cited"
    assert param.default == pytest.approx(fact(fact_id))


def test_gpu_hours_cost():
    # DeepSeek-V3, Table 1: 2,788K GPU-hours at $2 = $5.576M
    assert costs.gpu_hours_cost_usd(2.788e6, 2.0) == pytest.approx(5.576e6)
