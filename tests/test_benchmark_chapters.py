"""The benchmarks, scaling and software chapters as built pages: the seed claims they settle (S01,
S11, S12, S14, S15) and what their pages must show. Their results are tested without a notebook in
tests/chapters/test_benchmarks.py, test_scaling.py and test_software.py."""

import json
import re

import pytest

from analysis.data.load import fact, load_table
from analysis.params import defaults as d


def _results(book, section):
    return json.loads((book / "_build" / "results" / f"{section}.json").read_text())["results"]


def _text(book, section):
    html = (book / "_build" / "html" / "book" / "generated" / f"{section}.html").read_text()
    return re.sub(r"\s+", " ", re.sub("<[^>]+>", " ", html))


def _claim(claim_id):
    return load_table("claims").set_index("claim_id").loc[claim_id]


def test_claims_s01_s11_s12_s14_s15_are_settled():
    claims = load_table("claims").set_index("claim_id")
    expected = {"S01": ("tco", "consistency"), "S11": ("software", "corrected"),  # S01: at the report's own $1.42
                "S12": ("tco", "corrected"), "S14": ("scaling", "input_quoted"), "S15": ("software", "context")}
    for claim_id, (section, status) in expected.items():
        assert (claims.loc[claim_id, "section"], claims.loc[claim_id, "status"]) == (section, status), claim_id


@pytest.mark.parametrize("claim_id", ["S01", "S11", "S12", "S14"])
def test_claim_results_are_in_the_built_book(book, claim_id):
    c = _claim(claim_id)
    value = _results(book, c["section"])[c["results_key"]]["value"]
    assert value == pytest.approx(fact(c["fact_id"]), rel=c["tolerance_rel"])
    assert claim_id in _text(book, c["section"])


def test_s11_page_shows_the_seed_value_corrected(book):
    c = _claim("S11")
    assert fact("A18_mfu_bf16_dec2024") / d.SEED_MFU_END.default > 10
    page = _text(book, "software")
    assert c["seed_value"] in page and "corrected" in page


def test_s12_seed_years_are_wrong():
    c = _claim("S12")
    assert "2024" in c["explanation"] and "2022" in c["seed_value"]


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
