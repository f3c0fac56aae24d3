"""The benchmarks, scaling and software chapters as built: their required results, the seed
claims they settle (S01, S11, S12, S14, S15) and what their pages must show."""

import json
import re

import pytest

from analysis import defaults as d
from analysis.data import fact, load_table

REQUIRED = {
    "benchmarks": ["llama3_70b_fp8_mfu_relative_drop_64_to_2048", "llama3_405b_bf16_tokens_per_s_per_gpu_2304",
                   "gb200_vs_h100_deepseek_v3_throughput_ratio"],
    "software": ["gpt3_175b_bf16_mfu_jan2024", "gpt3_175b_bf16_mfu_dec2024", "gpt3_175b_fp8_mfu_jan2024",
                 "gpt3_175b_fp8_mfu_dec2024", "gpt3_175b_fp8_cost_300b_tokens_jan2024_usd",
                 "gpt3_175b_fp8_cost_300b_tokens_dec2024_usd"],
    "scaling": ["llama3_405b_fp8_mfu_2304", "strong_efficiency_at_max", "strong_last_block_usd_per_speedup"],
}


def _results(book, section):
    return json.loads((book / "_build" / "results" / f"{section}.json").read_text())["results"]


def _text(book, section):
    html = (book / "_build" / "html" / "book" / "generated" / f"{section}.html").read_text()
    return re.sub(r"\s+", " ", re.sub("<[^>]+>", " ", html))


def _claim(claim_id):
    return load_table("claims").set_index("claim_id").loc[claim_id]


@pytest.mark.parametrize("section", REQUIRED)
def test_required_results_are_present(book, section):
    assert set(REQUIRED[section]) <= set(_results(book, section))


def test_chapter_results_match_the_report(book):
    bench, soft = _results(book, "benchmarks"), _results(book, "software")
    assert bench["llama3_70b_fp8_mfu_relative_drop_64_to_2048"]["value"] == pytest.approx(0.068, abs=0.0005)
    assert bench["llama3_405b_bf16_tokens_per_s_per_gpu_2304"]["value"] == pytest.approx(202.5)
    assert bench["gb200_vs_h100_deepseek_v3_throughput_ratio"]["value"] == pytest.approx(fact("A49_deepseek_ratio"), rel=0.01)
    assert soft["gpt3_175b_fp8_cost_300b_tokens_jan2024_usd"]["value"] == pytest.approx(fact("A23_gpt3_fp8_cost_jan2024"), rel=0.01)
    assert soft["gpt3_175b_fp8_throughput_gain"]["value"] == pytest.approx(fact("A21_fp8_throughput_gain"), rel=0.01)
    assert soft["llama3_405b_15t_cost_usd"]["value"] == pytest.approx(fact("A35_405b_15t_cost"), rel=0.01)


def test_claims_s01_s11_s12_s14_s15_are_settled():
    claims = load_table("claims").set_index("claim_id")
    expected = {"S01": ("benchmarks", "reproduced"), "S11": ("software", "corrected"),
                "S12": ("software", "corrected"), "S14": ("scaling", "reproduced"), "S15": ("software", "context")}
    for claim_id, (section, status) in expected.items():
        assert (claims.loc[claim_id, "section"], claims.loc[claim_id, "status"]) == (section, status), claim_id


def test_s01_cost_per_million_tokens_reproduced(book):
    c = _claim("S01")
    value = _results(book, "benchmarks")[c["results_key"]]["value"]
    assert value == pytest.approx(fact(c["fact_id"]), rel=c["tolerance_rel"])
    assert "S01" in _text(book, "benchmarks")


def test_s11_seed_mfu_corrected(book):
    """The seed's 2.5 % -> 5 % is an order of magnitude below the original's 34 % -> 54 %, which
    NVIDIA's own table confirms independently."""
    c = _claim("S11")
    results = _results(book, "software")
    assert results[c["results_key"]]["value"] == pytest.approx(fact(c["fact_id"]), rel=c["tolerance_rel"])
    assert fact("A18_mfu_bf16_dec2024") / d.SEED_MFU_END.default > 10
    assert results["seed_mfu_run_cost_usd"]["value"] > 10 * fact("A23_gpt3_fp8_cost_jan2024")
    page = _text(book, "software")
    assert c["seed_value"] in page and "corrected" in page


def test_s12_seed_cost_corrected(book):
    """The original's $162k (Dec 2024) is reproduced; the seed's $12,000 would need an MFU above 100 %."""
    c = _claim("S12")
    results = _results(book, "software")
    assert results[c["results_key"]]["value"] == pytest.approx(fact(c["fact_id"]), rel=c["tolerance_rel"])
    assert results[c["results_key"]]["value"] > 10 * d.SEED_GPT3_COST_END_USD.default
    assert results["seed_cost_implied_fp8_mfu"]["value"] > 1.0
    assert "2024" in c["explanation"] and "2022" in c["seed_value"]


def test_s14_weak_scaling_flat_and_strong_scaling_not(book):
    c = _claim("S14")
    results = _results(book, "scaling")
    assert results[c["results_key"]]["value"] == pytest.approx(fact(c["fact_id"]), rel=c["tolerance_rel"])
    assert results["weak_efficiency_same_model"]["value"] > 0.9
    assert results["strong_efficiency_at_max"]["value"] < 0.5  # the two behave differently
    assert results["strong_last_block_vs_first_block_cost_ratio"]["value"] > 1


def test_s15_recommendations_cited_as_context(book):
    c = _claim("S15")
    assert c["fact_id"] == "A15_pytorch_parity_months" and not isinstance(c["results_key"], str)
    page = _text(book, "software")
    assert "native PyTorch" in page and "diagnostics" in page
    assert f"{fact('A15_pytorch_parity_months'):.0f} month" in page
    assert f"{fact('A14_a3mega_mfu_gap_dense') * 100:.0f} % below-average MFU" in page


def test_benchmarks_page_reports_the_misprint_and_the_paywall(book):
    page = _text(book, "benchmarks")
    assert "18.71 %" in page and "FP8 peak" in page
    assert "paywall" in page and "NVIDIA" in page
    results = _results(book, "benchmarks")
    assert results["conversion_dense_failures"]["value"] == 0
    assert results["typo_rows"]["value"] == 1
