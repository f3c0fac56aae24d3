"""The claims chapter (``analysis.chapters.claims``): it reads every chapter's results from
``upstream``, counts the ledger's statuses and fails when the ledger does not hold. The upstream
chapters here carry the report's own values (see ``tests/test_ledger.py``), so the test needs no
other chapter; ``tests/test_chapters.py`` runs it on the computed chapters."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from test_ledger import reported_results

from analysis.chapters import ChapterResults, Quantity
from analysis.chapters import claims as chapter
from analysis.chapters.ledger import LedgerError
from analysis.chapters.registry import CHAPTERS, get_section
from analysis.data.schemas import CLAIM_STATUSES, FACT_STATUSES


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
    """data/claims.csv: 22 claims, 1 reproduced independently, 3 consistency checks, 2 depending on a
    default, none by calibration, 3 inputs quoted, 7 corrected, 5 context, 1 unverifiable, 0 pending;
    data/fact_checks.csv: 160 figures, one row each, checked in 165 places (5 of them in two
    chapters): 11 independent, 37 consistency, 2 depending on a default, none by calibration, 71
    inputs quoted, 20 corrected, 19 context; the other 47 of the report's 207 listed as not checked,
    with why. Every count is an int."""
    E = chapter.compute(SimpleNamespace(), upstream())
    counts = {key: E[key] for key in E.quantities if E.unit(key) == "count"}
    assert counts == {"claims_total_count": 22, "claims_reproduced_independently_count": 1,
                      "claims_consistency_count": 3, "claims_depends_on_default_count": 2,
                      "claims_reproduced_by_calibration_count": 0, "claims_input_quoted_count": 3,
                      "claims_corrected_count": 7, "claims_context_count": 5, "claims_unverifiable_count": 1,
                      "claims_pending_count": 0, "facts_checked_count": 160, "facts_checked_places_count": 165,
                      "facts_shown_in_several_chapters_count": 5, "facts_reproduced_independently_count": 11,
                      "facts_consistency_count": 37, "facts_depends_on_default_count": 2,
                      "facts_reproduced_by_calibration_count": 0, "facts_input_quoted_count": 71,
                      "facts_corrected_count": 20, "facts_context_count": 19, "facts_not_checked_count": 47}
    assert all(type(n) is int for n in counts.values())
    assert sum(counts[f"facts_{s}_count"] for s in FACT_STATUSES) == counts["facts_checked_count"]
    assert sum(counts[f"claims_{s}_count"] for s in CLAIM_STATUSES) == counts["claims_total_count"]
    assert E["tolerance_without_reason_frac"] == 0.03
    assert len(E.tables["seed_claims"]) == 22 and len(E.tables["report_facts_checked"]) == 160


def test_the_ledger_page_shows_differences_that_agree_with_the_status():
    """A09's row shows +2.0 % (1.7333x against the top of SA's 1.6-1.7x), not +8.3 %; B14 is
    corrected at -7.4 %; the intro's table has an integer per status."""
    from analysis.figures import claims as figures
    from analysis.figures import intro as intro_figures

    E = chapter.compute(SimpleNamespace(), upstream_at_book_values())
    rows = re.findall(r"<tr[^>]*>.*?</tr>", str(figures.facts_table(E)))
    a09 = next(row for row in rows if ">A09</a>" in row)  # the fact's label, in the row's fold
    assert "<td>+2.0 %</td>" in a09 and "<td>consistency</td>" in a09
    b14 = next(row for row in rows if ">B14</a>" in row)
    assert "<td>-7.4 %</td>" in b14 and "<td>corrected</td>" in b14
    assert 'class="book-more-row"' in a09 and 'class="book-more-row"' not in b14  # corrected rows are shown
    intro = ChapterResults("intro")
    for key, q in E.quantities.items():
        intro.add(key, q.value, q.unit, q.label)
    table = intro_figures.status_markdown(intro)
    assert "| reproduced by calibration | 0 | 0 |" in table and ".0" not in table


def upstream_at_book_values() -> dict[str, ChapterResults]:
    """The expected upstream, with the two book values the display test reads: A09's 1.7333x
    (SA's prices, $3.9M / 72 over $250k / 8) and B14's 138.9 MW (100k x 1,389 W)."""
    chapters = upstream()
    chapters["capex"].quantities["gb200_to_h100_capex_ratio"] = Quantity(3.9e6 / 72 / (250e3 / 8), "ratio", "A09")
    chapters["cluster"].quantities["cluster_it_mw"] = Quantity(138.9, "MW", "B14")
    return chapters


def test_a_drifted_value_fails_the_chapter_at_the_defaults_only():
    chapters = upstream()
    cluster = chapters["cluster"]
    cluster.quantities["peak_fp8_eflops"] = Quantity(cluster["peak_fp8_eflops"] * 1.5, "EFLOP/s", "drifted")
    with pytest.raises(LedgerError, match="S19: status reproduced_independently but the book is"):
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


def test_counts_stay_integers_in_results_files():
    """A count is written to the results JSON as 22, not 22.0, and read back as an int; other
    units stay floats."""
    from analysis.chapters.results import as_number

    E = chapter.compute(SimpleNamespace(), upstream())
    doc = {"section": "claims", "results": {k: {"value": q.value, "unit": q.unit, "label": q.label}
                                            for k, q in E.quantities.items()}}
    back = ChapterResults.from_json(doc)
    assert type(back["claims_total_count"]) is int and back["claims_total_count"] == 22
    assert type(back["tolerance_without_reason_frac"]) is float
    assert type(as_number(3.0, "count")) is int and type(as_number(3.5, "count")) is float
    assert type(as_number(3.0, "W")) is float


def test_a_chapter_reading_a_moved_chapter_is_not_at_the_defaults():
    """A scenario that changes only the TCO chapter's tariff moves the benchmarks chapter's cost per
    token (S01, A34) too: the ledger must not hold it to the report's $1.95."""
    chapters = upstream()
    tco = chapters["tco"]
    tco.parameters = {**tco.parameters, "tariff_usd_per_kwh": 0.09}
    bench = chapters["benchmarks"]
    key = "llama31_405b_bf16_usd_per_million_tokens_2304"
    bench.quantities[key] = Quantity(bench[key] * 1.5, "USD per million tokens", "moved with the TCO")
    tco_key = "llama31_405b_bf16_usd_per_million_tokens"
    tco.quantities[tco_key] = Quantity(tco[tco_key] * 1.5, "USD per million tokens", "moved")
    _, at_defaults = chapter.ledger_inputs(chapters)
    assert not at_defaults["tco"] and not at_defaults["benchmarks"] and at_defaults["cluster"]
    assert chapter.compute(SimpleNamespace(), chapters)["claims_total_count"] == 22
