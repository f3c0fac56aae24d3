"""The claims ledger's checks: they hold on the built book, and each rule can fail."""

import re
from pathlib import Path

import pytest

from analysis.data import load_table
from analysis.ledger import LedgerError, check_ledger, claims_ledger, facts_ledger, ledger_failures
from analysis.sections import CHAPTERS

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def built(book, monkeypatch):
    monkeypatch.setenv("ANALYSIS_RESULTS_DIR", str(book / "_build" / "results"))
    names = [s.name for s in CHAPTERS]
    return claims_ledger(names), facts_ledger(names)


def test_the_ledger_holds_on_the_built_book(built):
    claims, facts = built
    assert ledger_failures(claims, facts) == []
    assert list(claims["claim_id"]) == [f"S{i:02d}" for i in range(1, 23)]
    assert (facts["chapter_built"]).all() or set(facts.loc[~facts["chapter_built"], "section"]).isdisjoint(
        s.name for s in CHAPTERS)


def test_out_of_tolerance_claim_fails(built):
    claims, facts = built
    i = claims.index[claims["status"] == "reproduced"][0]
    claims.loc[i, "book_value"] = claims.loc[i, "original_value"] * 1.5
    with pytest.raises(LedgerError, match=claims.loc[i, "claim_id"] + ": book value"):
        check_ledger(claims, facts)


def test_missing_status_and_missing_key_fail(built):
    claims, facts = built
    claims.loc[0, "status"] = None
    i = claims.index[claims["status"] == "corrected"][0]
    claims.loc[i, "book_value"] = float("nan")
    failures = ledger_failures(claims, facts)
    assert any("no valid status" in f for f in failures)
    assert any(claims.loc[i, "claim_id"] + ": results key" in f for f in failures)


def test_out_of_tolerance_fact_fails(built):
    claims, facts = built
    i = facts.index[facts["status"] == "reproduced"][0]
    facts.loc[i, "book_value"] = facts.loc[i, "report_value"] * 2
    assert any(facts.loc[i, "fact_id"] in f for f in ledger_failures(claims, facts))


def test_a_non_pending_claim_needs_its_chapter(built):
    claims, facts = built
    claims.loc[0, ["chapter_built", "status"]] = [False, "reproduced"]
    assert any("has no results" in f for f in ledger_failures(claims, facts))


def test_every_comparison_in_a_chapter_is_in_the_ledger():
    """Each (result, fact) pair a chapter sets side by side is a checked row of fact_checks.csv."""
    checks = {(r.section, r.results_key, r.fact_id) for r in load_table("fact_checks").itertuples()}
    for section in CHAPTERS:
        source = (REPO / section.notebook).read_text()
        figures = REPO / "analysis" / "figures" / f"{section.name}.py"  # where a chapter's pairs may now live
        source += figures.read_text() if figures.is_file() else ""
        for key, fact_id in re.findall(r'\("([a-z0-9_]+)", "([ABC][0-9]{2}[a-z0-9_]*)"\)', source):
            assert (section.name, key, fact_id) in checks, f"{section.name}: {key} vs {fact_id} not in fact_checks.csv"


def test_tolerances_apply_only_at_the_reports_inputs(built):
    claims, facts = built
    i = claims.index[claims["status"] == "reproduced"][0]
    claims.loc[i, "book_value"] = claims.loc[i, "original_value"] * 1.5
    claims.loc[i, "at_defaults"] = False  # the chapter ran with a scenario
    assert ledger_failures(claims, facts) == []
