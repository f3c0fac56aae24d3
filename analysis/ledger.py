"""The claims ledger: every seed claim (``data/claims.csv``) and every report fact the book checks
(``data/fact_checks.csv``), joined with the chapters' results.

:func:`check_ledger` is what makes the build fail when the book drifts: a reproduced (or
corrected) value outside its tolerance, a claim without a status, or a results key that a
chapter does not produce. Claims whose chapter is not written yet stay ``pending`` and are only
listed. Tolerances apply where a chapter ran with its default parameters, the report's inputs; a
scenario build shows the same rows but does not fail on values the scenario was meant to move.

The functions here take the chapters' results as plain data (``{section: {key: (value, unit)}}``
and ``{section: ran at its defaults}``); the claims chapter (``analysis.chapters.claims``) builds
them from the chapters it needs.
"""

from __future__ import annotations

import pandas as pd

from analysis.data import CLAIM_STATUSES, load_table
from analysis.errors import ExecutionError

CHECKED = ("reproduced", "corrected")

Results = dict[str, dict[str, tuple[float, str]]]  # section -> result key -> (value, unit)


class LedgerError(ExecutionError):
    """The ledger's checks failed; the message lists every failing row."""


def _within(value: float, low: float, high: float, tolerance: float) -> bool:
    high = low if pd.isna(high) else high
    return low * (1 - tolerance) <= value <= high * (1 + tolerance)


def claims_ledger(results: Results, at_defaults: dict[str, bool]) -> pd.DataFrame:
    """One row per seed claim: seed value, original value and link, the book's value, status.
    ``results`` holds the chapters that were built; a claim of any other chapter has no book value."""
    claims = load_table("claims")
    facts = load_table("report_facts").set_index("fact_id")
    urls = load_table("sources").set_index("source_id")["url"]
    rows = []
    for c in claims.itertuples():
        fact = facts.loc[c.fact_id] if isinstance(c.fact_id, str) else None
        section_results = results.get(c.section)
        key = c.results_key if isinstance(c.results_key, str) else None
        book = section_results.get(key) if (section_results is not None and key) else None
        rows.append({
            "claim_id": c.claim_id, "claim": c.claim, "seed_value": c.seed_value, "status": c.status,
            "fact_id": c.fact_id if fact is not None else None,
            "original_value": None if fact is None else fact["value"],
            "original_high": None if fact is None else fact["value_high"],
            "original_unit": None if fact is None else fact["unit"],
            "url": urls.get(c.source_id), "source_id": c.source_id, "section": c.section,
            "results_key": key, "book_value": None if book is None else book[0],
            "book_unit": None if book is None else book[1],
            "tolerance_rel": c.tolerance_rel, "chapter_built": section_results is not None,
            "at_defaults": at_defaults.get(c.section, False), "explanation": c.explanation,
        })
    return pd.DataFrame(rows)


def facts_ledger(results: Results, at_defaults: dict[str, bool]) -> pd.DataFrame:
    """One row per checked report fact: the report's value, the book's, the difference."""
    checks = load_table("fact_checks")
    facts = load_table("report_facts").set_index("fact_id")
    rows = []
    for f in checks.itertuples():
        book = results.get(f.section, {}).get(f.results_key)
        rows.append({
            "fact_id": f.fact_id, "quantity": facts.loc[f.fact_id, "quantity"], "section": f.section,
            "results_key": f.results_key, "report_value": facts.loc[f.fact_id, "value"],
            "report_high": facts.loc[f.fact_id, "value_high"], "unit": facts.loc[f.fact_id, "unit"],
            "book_value": None if book is None else book[0], "status": f.status, "tolerance_rel": f.tolerance_rel,
            "chapter_built": f.section in results, "at_defaults": at_defaults.get(f.section, False), "note": f.note,
        })
    return pd.DataFrame(rows)


def status_counts(claims: pd.DataFrame) -> dict[str, int]:
    """How many claims have each status (every status in :data:`CLAIM_STATUSES`, zero included)."""
    return {status: int((claims["status"] == status).sum()) for status in CLAIM_STATUSES}


def checked_facts(facts: pd.DataFrame) -> pd.DataFrame:
    """The report facts whose chapter was built: the ones the book recomputes."""
    return facts[facts["chapter_built"]].reset_index(drop=True)


def ledger_failures(claims: pd.DataFrame, facts: pd.DataFrame) -> list[str]:
    """Every violated rule, one message each (empty when the ledger holds)."""
    failures = []
    for c in claims.itertuples():
        if c.status not in CLAIM_STATUSES:
            failures.append(f"{c.claim_id}: no valid status ({c.status!r})")
        if not c.chapter_built:
            if c.status != "pending":
                failures.append(f"{c.claim_id}: status {c.status} but chapter '{c.section}' has no results")
            continue
        if isinstance(c.results_key, str) and pd.isna(c.book_value):
            failures.append(f"{c.claim_id}: results key '{c.results_key}' does not exist in chapter '{c.section}'")
        elif c.status in CHECKED and c.at_defaults and not _within(c.book_value, c.original_value, c.original_high, c.tolerance_rel):
            failures.append(f"{c.claim_id}: book value {c.book_value:.6g} is outside {c.tolerance_rel:.1%} of the "
                            f"original {c.original_value:.6g} ({c.fact_id})")
    for f in facts.itertuples():
        if not f.chapter_built:
            continue
        if pd.isna(f.book_value):
            failures.append(f"{f.fact_id}: results key '{f.results_key}' does not exist in chapter '{f.section}'")
        elif f.status == "reproduced" and f.at_defaults and not _within(f.book_value, f.report_value, f.report_high, f.tolerance_rel):
            failures.append(f"{f.fact_id}: book value {f.book_value:.6g} is outside {f.tolerance_rel:.1%} of the "
                            f"report's {f.report_value:.6g} ({f.section}.{f.results_key})")
    return failures


def check_ledger(claims: pd.DataFrame, facts: pd.DataFrame) -> None:
    """Raise :class:`LedgerError` listing every failure (this fails the build)."""
    failures = ledger_failures(claims, facts)
    if failures:
        raise LedgerError("the claims ledger does not hold:\n  " + "\n  ".join(failures))
