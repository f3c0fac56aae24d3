"""The software chapter module (analysis.chapters.software): SemiAnalysis's 2024 gains and dollars
reproduced, the seed's numbers shown to be impossible, and the frontier-run extrapolation checked
by hand."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from analysis.chapters import compute_section  # noqa: E402
from analysis.data.load import fact, load_table  # noqa: E402
from analysis.figures import software as figures  # noqa: E402


@pytest.fixture(scope="module")
def E():
    return compute_section("software")


def test_mfu_34_to_54_pct_and_nvidia_confirms_december(E):
    # A18: 34 % -> 54 % BF16; A20: 29.5 % -> 39.5 % FP8; NVIDIA v25.02 prints 53.54 % and 39.52 %.
    assert (E["gpt3_175b_bf16_mfu_jan2024"], E["gpt3_175b_bf16_mfu_dec2024"]) == (0.34, 0.54)
    assert (E["gpt3_175b_fp8_mfu_jan2024"], E["gpt3_175b_fp8_mfu_dec2024"]) == (0.295, 0.395)
    assert E["gpt3_175b_bf16_mfu_dec2024_nvidia"] == pytest.approx(fact("A18_mfu_bf16_dec2024"), rel=0.01)
    assert E["gpt3_175b_fp8_mfu_dec2024_nvidia"] == pytest.approx(fact("A20_mfu_fp8_dec2024"), rel=0.01)


def test_throughput_gains_reproduce_a19_a21(E):
    assert E["gpt3_175b_bf16_throughput_gain_frac"] == pytest.approx(0.54 / 0.34 - 1)  # 58.8 %, rounded MFUs
    assert E["gpt3_175b_bf16_throughput_gain_nvidia_frac"] == pytest.approx(fact("A19_bf16_throughput_gain"), rel=0.01)
    assert E["gpt3_175b_fp8_throughput_gain_frac"] == pytest.approx(fact("A21_fp8_throughput_gain"), rel=0.01)


def test_dollars_against_the_report(E):
    """The report's dollar figures are its $1.42 basis (A13) times GPU-hours; the chapter prices the
    same hours at the book's independent TCO, so each lands off by exactly that TCO's gap."""
    from analysis.chapters.ledger import parse_uses

    # each fact once in fact_checks.csv: here as its primary result, or shown beside it on the
    # book's own cost basis (a context use)
    checks = [(key, r.fact_id) for r in load_table("fact_checks").itertuples()
              for section, key in [(r.section, r.results_key), *parse_uses(r.uses), *parse_uses(r.context_uses)]
              if section == "software" and "usd" in key]
    assert len(checks) >= 7
    gap = E["h100_tco_usd_per_gpu_hour"] / fact("A13_h100_usd_per_gpu_hour")
    for key, fact_id in checks:
        assert E[key] / fact(fact_id) == pytest.approx(gap, rel=0.015), key
    # A23 by hand: 300e9 tokens = 300,000 million tokens at the cost per million tokens.
    assert E["gpt3_175b_fp8_cost_300b_tokens_dec2024_usd"] == pytest.approx(
        300_000 * E["gpt3_175b_fp8_usd_per_million_tokens_dec2024"])
    assert E["gpt3_175b_fp8_usd_per_million_tokens_dec2024"] == pytest.approx(
        E["h100_tco_usd_per_gpu_hour"] / (728 * 3600) * 1e6, rel=0.01)  # SA: 728 tokens/s/GPU (A22)


def test_seed_numbers_are_impossible(E):
    # S11: at the seed's 5 % MFU a GPT-3 run would cost over ten times the original's $218k.
    assert E["seed_mfu_run_cost_usd"] > 10 * fact("A23_gpt3_fp8_cost_jan2024")
    assert E["seed_mfu_run_cost_multiple_ratio"] == pytest.approx(
        E["seed_mfu_run_cost_usd"] / fact("A23_gpt3_fp8_cost_jan2024"))
    # S12: $12,000 for 300B tokens is 4 cents per 1M tokens, which would need an FP8 MFU above 100 %.
    assert E["seed_cost_usd_per_million_tokens"] == pytest.approx(12_000 / 300_000)
    assert E["seed_cost_implied_fp8_mfu"] > 1
    assert E["h100_launch_year"] == 2022


def test_frontier_run_reproduces_a35_and_extrapolates_by_hand(E):
    # A35: SA's ~$29M for 15T tokens is 15e12 / 202.5 tokens/s / 3,600 s = 20.58M GPU-hours at $1.42;
    # at the book's independent TCO the same hours cost more, by the TCO's gap to $1.42 (A13).
    hours = 15e12 / 202.5 / 3600
    assert hours * fact("A13_h100_usd_per_gpu_hour") == pytest.approx(fact("A35_405b_15t_cost"), rel=0.01)
    assert E["llama31_405b_bf16_cost_15t_tokens_usd"] == pytest.approx(hours * E["h100_tco_usd_per_gpu_hour"], rel=1e-3)
    # days = 15e12 / (202.5 x 2,304) / 86,400 = 372.1.
    assert E["llama31_405b_bf16_run_15t_tokens_days"] == pytest.approx(15e12 / (202.5 * 2304) / 86_400)
    gain = E["gpt3_175b_bf16_throughput_gain_frac"]
    assert E["llama31_405b_bf16_software_saving_15t_tokens_usd"] == pytest.approx(
        E["llama31_405b_bf16_cost_15t_tokens_usd"] * gain)
    assert E["llama31_405b_bf16_software_saving_15t_tokens_days"] == pytest.approx(
        E["llama31_405b_bf16_run_15t_tokens_days"] * gain)


def test_costs_follow_the_tco_chapter():
    base, cheap = compute_section("software"), compute_section("software", {"tariff_usd_per_kwh": 0.04})
    assert cheap["h100_tco_usd_per_gpu_hour"] < base["h100_tco_usd_per_gpu_hour"]
    assert cheap["gpt3_175b_fp8_cost_300b_tokens_dec2024_usd"] == pytest.approx(
        base["gpt3_175b_fp8_cost_300b_tokens_dec2024_usd"] * cheap["h100_tco_usd_per_gpu_hour"]
        / base["h100_tco_usd_per_gpu_hour"])


def test_llama_releases_moved_little(E):
    gains = E.tables["release_gains"]
    assert len(gains) == 6  # three Llama 3.1 sizes x two precisions
    assert E["llama31_release_gain_min_frac"] == pytest.approx(207.1 / 208.4 - 1)  # 405B BF16, v24.11.1 -> v25.04
    assert E["llama31_release_gain_max_frac"] < 0.15


def test_megatron_release_to_release(E):
    """NVIDIA's newest Megatron-Bridge release (26.04.01) against the one before (26.02), system by
    system: H100 Llama 3.1 405B FP8 311 -> 328 tokens/s (+5.5 %), GB300 988 -> 1,024; the printed
    TFLOP/s follow within the newest table's rounding."""
    steps = E.tables["megatron_release_steps"]
    assert E.names["megatron_latest_release"] == "NeMo 26.04.01" and E.names["megatron_previous_release"] == "NeMo 26.02"
    assert E["megatron_h100_sxm_llama31_405b_fp8_latest_release_gain_frac"] == pytest.approx(328 / 311 - 1)
    assert E["megatron_gb300_nvl72_llama31_405b_fp8_latest_release_gain_frac"] == pytest.approx(1024 / 988 - 1)
    latest = steps[steps["release_to"] == "NeMo 26.04.01"]
    assert len(latest) == E["megatron_latest_steps_count"] == 9
    assert (latest["release_from"] == "NeMo 26.02").all()  # each step from the release just before
    assert E["megatron_latest_gain_gap_max_frac"] < 0.03
    assert figures.megatron_steps_table(E).count("\n| ") == len(steps)


def test_release_figure_and_table(E):
    fig = figures.release_figure(E)
    assert len(fig.axes[0].get_legend().get_texts()) == 4 + 2 + 2
    plt.close(fig)
    assert figures.release_gains_table(E).count("\n| ") == 6  # one line per row after the header


def test_every_number_in_the_prose_is_glued(E, monkeypatch):
    from types import SimpleNamespace

    from .test_benchmarks import unglued_prose_keys

    P = SimpleNamespace(seed_mfu_end=0.05, seed_gpt3_cost_end_usd=12_000.0)
    assert unglued_prose_keys("software", E, lambda: figures.glue_prose(E, P), figures.FACTS, monkeypatch) == []
