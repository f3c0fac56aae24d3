"""FLOP accounting against NVIDIA's published per-token figures and its benchmark tables."""

import math

import pytest

from analysis import flops
from analysis.data import load_table, row

# NVIDIA's DGXC benchmark READMEs state model FLOPs per sample (report_facts.md, header):
# GPT-3 175B 2.20e15 per 2,048-token sample; Llama 3.1 70B 3.94e15, 405B 2.17e16 and
# 8B 4.74e14 per 8,192-token sample.
NVIDIA_FLOPS_PER_TOKEN = {
    "gpt3_175b": 2.20e15 / 2048,
    "llama31_70b": 3.94e15 / 8192,
    "llama31_405b": 2.17e16 / 8192,
    "llama31_8b": 4.74e14 / 8192,
}


@pytest.mark.parametrize("model_id,expected", NVIDIA_FLOPS_PER_TOKEN.items())
def test_flops_per_token_matches_nvidia_within_1pct(model_id, expected):
    got = flops.model_flops_per_token(row("models", model_id))
    assert got == pytest.approx(expected, rel=0.01)


def test_attention_term_is_palm_12lhs():
    # PaLM App. B: 12 * L * H * Q * T with H*Q = hidden size.
    assert flops.attention_flops_per_token(96, 12288, 2048) == 12 * 96 * 12288 * 2048


def test_moe_uses_active_parameters():
    m = row("models", "deepseek_v3")
    per_token = flops.model_flops_per_token(m)
    assert per_token < 6 * m["total_params"] / 10  # far below the dense-equivalent count
    assert per_token > 6 * (m["active_params"] - m["vocab_size"] * m["hidden_size"])


def test_untied_input_embedding_is_not_a_matmul():
    assert flops.matmul_params(1e9, 1000, 100, tied_embeddings=False) == 1e9 - 1e5
    assert flops.matmul_params(1e9, 1000, 100, tied_embeddings=True) == 1e9


def test_mfu_and_tokens_per_s_are_inverse():
    f = 4.81e11
    for tok in (10.0, 1566.8, 13_881.8):
        mfu = flops.mfu_from_tokens_per_s(tok, f, 989.4)
        assert flops.tokens_per_s_from_mfu(mfu, f, 989.4) == pytest.approx(tok, rel=1e-12)


def test_nvidia_dense_rows_convert_within_1pct():
    """Where NVIDIA publishes both MFU and tokens/s/GPU for a dense model on H100, the package's
    conversion reproduces the MFU from the throughput within 1 %."""
    bench = load_table("benchmarks")
    both = bench[bench["mfu_reported"].notna() & bench["tokens_per_s_per_gpu_reported"].notna()
                 & bench["model_id"].isin(list(NVIDIA_FLOPS_PER_TOKEN)) & (bench["gpu_id"] == "h100_sxm")]
    assert len(both) >= 60
    for r in both.itertuples():
        model = row("models", r.model_id)
        peak = r.mfu_peak_tflops if not math.isnan(r.mfu_peak_tflops) else row("gpus", r.gpu_id)[f"{r.precision}_dense_tflops"]
        mfu = flops.mfu_from_tokens_per_s(r.tokens_per_s_per_gpu_reported,
                                          flops.model_flops_per_token(model, r.seq_len), peak)
        assert mfu == pytest.approx(r.mfu_reported, rel=0.01), (r.model_id, r.precision, r.gpus, r.software)


def test_training_time_and_implied_mfu_are_inverse():
    days = flops.training_time_days(2.15e25, 20_000, 312.0, 0.42)
    assert flops.implied_mfu(2.15e25, 20_000, 312.0, days) == pytest.approx(0.42)


def test_sa_gpt4_retrain_arithmetic():
    # B12: 2.15e25 / (1.98e20 * 0.35) = 3.6 days (SemiAnalysis rounds to ~4).
    assert flops.training_time_days(2.15e25, 100_000, 1978.9, 0.35) == pytest.approx(3.59, rel=0.005)
    # B13: a 100-day run delivers ~6e26 FLOP at 35 % FP8 MFU.
    assert flops.flop_in_run(100_000, 1978.9, 0.35, 100) == pytest.approx(6e26, rel=0.01)


def test_time_scales_inversely_with_gpus_and_mfu():
    base = flops.training_time_days(1e25, 1000, 989.4, 0.4)
    assert flops.training_time_days(1e25, 2000, 989.4, 0.4) == pytest.approx(base / 2)
    assert flops.training_time_days(1e25, 1000, 989.4, 0.8) == pytest.approx(base / 2)


def test_benchmarks_get_both_figures_and_say_which_was_derived():
    from analysis.benchmarks import load_benchmarks

    bench = load_benchmarks()
    assert bench["mfu"].notna().all() and bench["tokens_per_s_per_gpu"].notna().all()
    assert set(bench["basis"]) <= {"reported", "derived mfu", "derived tokens/s"}
    sa = bench[(bench["publisher"] == "SemiAnalysis") & (bench["model_id"] == "gpt3_175b")
               & (bench["precision"] == "fp8") & (bench["date"] == "2024-12")].iloc[0]
    assert sa["basis"] == "derived tokens/s"
    # SA's Dec 2024 cost per 1M tokens at its $/H100-hour basis (A22, A13) implies ~728 tokens/s/GPU;
    # the MFU-derived throughput must agree.
    from analysis.data import fact
    implied = fact("A13_h100_usd_per_gpu_hour") / 3600 / (fact("A22_fp8_cost_per_1m_dec2024") / 1e6)
    assert sa["tokens_per_s_per_gpu"] == pytest.approx(implied, rel=0.01)
