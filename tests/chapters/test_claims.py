"""The claims chapter (``analysis.chapters.claims``): it reads every chapter's results from
``upstream``, counts the ledger's statuses and fails when the ledger does not hold. The upstream
chapters here carry the report's own values (see ``tests/test_ledger.py``), so the test needs no
other chapter; ``tests/test_chapters.py`` runs it on the computed chapters."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from test_ledger import reported_results

from analysis.chapters import ChapterResults, Quantity
from analysis.chapters import claims as chapter
from analysis.ledger import LedgerError
from analysis.sections import CHAPTERS, get_section


def upstream(at_defaults: bool = True) -> dict[str, ChapterResults]:
    chapters = {}
    for name, results in reported_results().items():
        params = {p.name: p.default for p in get_section(name).params}
        if not at_defaults and params:
            params[next(iter(params))] = "changed"
        chapters[name] = ChapterResults(name, parameters=params)
        for key, (value, unit) in results.items():
            chapters[name].add(key, value, unit, key)
    return chapters


def test_counts_every_status_and_every_checked_figure():
    """data/claims.csv: 22 claims, 11 reproduced, 6 corrected, 4 context, 1 unverifiable, 0 pending;
    data/fact_checks.csv: 80 figures recomputed, 61 of them reproduced. The 19 context rows include
    the report's H100 basis (A13) and its cost figures priced at the book's independent TCO, which
    land off by that TCO's gap; the same cost figures at the report's quoted basis are reproduced."""
    E = chapter.compute(SimpleNamespace(), upstream())
    counts = {key: E[key] for key in E.quantities}
    assert counts == {"claims_total_count": 22, "claims_reproduced_count": 11, "claims_corrected_count": 6,
                      "claims_context_count": 4, "claims_unverifiable_count": 1, "claims_pending_count": 0,
                      "facts_checked_count": 80, "facts_reproduced_count": 61}
    assert {E.unit(key) for key in E.quantities} == {"count"}
    assert len(E.tables["seed_claims"]) == 22 and len(E.tables["report_facts_checked"]) == 80


def test_a_drifted_value_fails_the_chapter_at_the_defaults_only():
    chapters = upstream()
    cluster = chapters["cluster"]
    cluster.quantities["peak_fp8_eflops"] = Quantity(cluster["peak_fp8_eflops"] * 1.5, "EFLOP/s", "drifted")
    with pytest.raises(LedgerError, match="S19: book value"):
        chapter.compute(SimpleNamespace(), chapters)
    scenario = upstream(at_defaults=False)
    scenario["cluster"].quantities["peak_fp8_eflops"] = cluster.quantities["peak_fp8_eflops"]
    assert chapter.compute(SimpleNamespace(), scenario)["claims_total_count"] == 22


def test_a_missing_chapter_fails_the_chapter():
    chapters = upstream()
    del chapters["capex"]
    with pytest.raises(LedgerError, match="S03: status corrected but chapter 'capex' has no results"):
        chapter.compute(SimpleNamespace(), chapters)


def test_ran_at_defaults_compares_every_parameter():
    cluster = {p.name: p.default for p in get_section("cluster").params}
    assert chapter.ran_at_defaults("cluster", cluster)
    assert not chapter.ran_at_defaults("cluster", {**cluster, "gpus": 50_000})
    assert not chapter.ran_at_defaults("cluster", {})  # unknown parameters: not at the defaults
    assert chapter.ran_at_defaults("scenarios", {})  # a chapter without parameters


def test_needs_every_modelling_chapter():
    assert set(get_section("claims").needs) == {s.name for s in CHAPTERS}
