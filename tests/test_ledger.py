"""The claims ledger's rules (``analysis.ledger``): they hold when every chapter reproduces its
figures, and each rule fails on its own. The chapters' results here are the report's own values,
so the tests need no build; the claims chapter (``tests/chapters/test_claims.py``) and the
cross-chapter test (``tests/test_chapters.py``) run the ledger on the computed chapters."""

import re
from pathlib import Path

import pandas as pd
import pytest

from analysis.data import load_table
from analysis.ledger import (
    LedgerError,
    check_ledger,
    checked_facts,
    claims_ledger,
    facts_ledger,
    ledger_failures,
    status_counts,
)
from analysis.sections import CHAPTERS

REPO = Path(__file__).resolve().parent.parent


def reported_results() -> dict:
    """Every key that claims.csv and fact_checks.csv name, at the original source's value (a
    claim or fact without one gets 1.0): a book that reproduces every figure exactly."""
    facts = load_table("report_facts").set_index("fact_id")
    results = {s.name: {} for s in CHAPTERS}
    for table in ("claims", "fact_checks"):
        for r in load_table(table).itertuples():
            if isinstance(r.results_key, str):
                value = float(facts.loc[r.fact_id, "value"]) if isinstance(r.fact_id, str) else 1.0
                results[r.section][r.results_key] = (value, "unit")
    return results


@pytest.fixture
def ledger():
    results = reported_results()
    at_defaults = {name: True for name in results}
    return claims_ledger(results, at_defaults), facts_ledger(results, at_defaults)


def test_the_ledger_holds_when_every_figure_is_reproduced(ledger):
    claims, facts = ledger
    assert ledger_failures(claims, facts) == []
    assert list(claims["claim_id"]) == [f"S{i:02d}" for i in range(1, 23)]
    assert claims["chapter_built"].all() and facts["chapter_built"].all()


def test_status_counts_and_checked_facts(ledger):
    """data/claims.csv: 11 reproduced, 6 corrected, 4 context, 1 unverifiable, none pending;
    data/fact_checks.csv: 80 checks, all of built chapters (five of them the report's cost figures at
    its own $1.42 basis, beside the same figures at the book's independent TCO)."""
    claims, facts = ledger
    assert status_counts(claims) == {"reproduced": 11, "corrected": 6, "context": 4, "unverifiable": 1,
                                     "pending": 0}
    assert len(checked_facts(facts)) == 80


def test_out_of_tolerance_claim_fails(ledger):
    claims, facts = ledger
    i = claims.index[claims["status"] == "reproduced"][0]
    claims.loc[i, "book_value"] = claims.loc[i, "original_value"] * 1.5
    with pytest.raises(LedgerError, match=claims.loc[i, "claim_id"] + ": book value"):
        check_ledger(claims, facts)


def test_a_value_just_inside_its_tolerance_holds(ledger):
    """S19 (peak FP8 EFLOP/s, B09) has a 1 % tolerance: 0.9 % high holds, 1.1 % high fails."""
    claims, facts = ledger
    i = claims.index[claims["claim_id"] == "S19"][0]
    claims.loc[i, "book_value"] = claims.loc[i, "original_value"] * 1.009
    assert ledger_failures(claims, facts) == []
    claims.loc[i, "book_value"] = claims.loc[i, "original_value"] * 1.011
    assert [f[:4] for f in ledger_failures(claims, facts)] == ["S19:"]


def test_missing_status_and_missing_key_fail(ledger):
    claims, facts = ledger
    claims.loc[0, "status"] = None
    i = claims.index[claims["status"] == "corrected"][0]
    claims.loc[i, "book_value"] = float("nan")
    failures = ledger_failures(claims, facts)
    assert any("no valid status" in f for f in failures)
    assert any(claims.loc[i, "claim_id"] + ": results key" in f for f in failures)


def test_a_key_the_chapter_does_not_produce_fails():
    results = reported_results()
    del results["cluster"]["peak_fp8_eflops"]
    at_defaults = {name: True for name in results}
    failures = ledger_failures(claims_ledger(results, at_defaults), facts_ledger(results, at_defaults))
    assert any(f.startswith("S19: results key 'peak_fp8_eflops'") for f in failures)
    assert any(f.startswith("B09_fp8_eflops: results key") for f in failures)


def test_out_of_tolerance_fact_fails(ledger):
    claims, facts = ledger
    i = facts.index[facts["status"] == "reproduced"][0]
    facts.loc[i, "book_value"] = facts.loc[i, "report_value"] * 2
    assert any(facts.loc[i, "fact_id"] in f for f in ledger_failures(claims, facts))


def test_a_non_pending_claim_needs_its_chapter(ledger):
    claims, facts = ledger
    claims.loc[0, ["chapter_built", "status"]] = [False, "reproduced"]
    assert any("has no results" in f for f in ledger_failures(claims, facts))


def test_tolerances_apply_only_at_the_reports_inputs(ledger):
    claims, facts = ledger
    i = claims.index[claims["status"] == "reproduced"][0]
    claims.loc[i, "book_value"] = claims.loc[i, "original_value"] * 1.5
    claims.loc[i, "at_defaults"] = False  # the chapter ran with a scenario
    assert ledger_failures(claims, facts) == []


def test_every_comparison_in_a_chapter_is_in_the_ledger():
    """Each (result, fact) pair a chapter sets side by side (in its notebook, chapter module or
    figures module) is a checked row of fact_checks.csv."""
    checks = {(r.section, r.results_key, r.fact_id) for r in load_table("fact_checks").itertuples()}
    for section in CHAPTERS:
        paths = [REPO / section.notebook, REPO / "analysis" / "chapters" / f"{section.name}.py",
                 REPO / "analysis" / "figures" / f"{section.name}.py"]
        source = "\n".join(p.read_text() for p in paths if p.is_file())
        for key, fact_id in re.findall(r'\("([a-z0-9_]+)", "([ABC][0-9]{2}[a-z0-9_]*)"\)', source):
            assert (section.name, key, fact_id) in checks, f"{section.name}: {key} vs {fact_id} not in fact_checks.csv"


def test_book_values_keep_their_units():
    results = {"cluster": {"peak_fp8_eflops": (197.9, "EFLOP/s")}}
    claims = claims_ledger(results, {"cluster": True})
    row = claims.set_index("claim_id").loc["S19"]
    assert (row["book_value"], row["book_unit"]) == (197.9, "EFLOP/s")
    assert pd.isna(claims.set_index("claim_id").loc["S01", "book_value"])  # benchmarks not built
