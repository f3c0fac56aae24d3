"""The claims ledger: every seed claim (``data/claims.csv``) and every report fact the book
checks (``data/fact_checks.csv``, one row per fact), joined with the chapters' results.

A status says what an agreement is worth (``data/README.md``): ``reproduced_independently`` (no
number from the report on the computation's path, the question's framing aside), ``consistency``
(the report's own stated inputs through the book's formulas: a check of its arithmetic),
``reproduced_by_calibration`` (an input was calibrated so that it comes out), ``input_quoted``
(the figure, or a unit conversion of it, is the book's input, shown back), ``depends_on_default``
(whether the book agrees turns on a default inside its sourced range), ``corrected`` (the
book's value differs and the row says why), ``context`` (compared or cited, not expected to
match), ``unverifiable``, ``pending``.

What a row's computation read is recorded as it runs (:mod:`analysis.data.provenance`), not typed:
each row lists the report numbers on its path (``report_inputs``) and the sources whose rows it read
(``sources_read``), and the rules check the statuses against them: an independent row reads no
report number and no cell of the fact's own source (a ratio recomputed from the very table cells
it was formed from is ``input_quoted``), a consistency row reads some report number. Where the
chapters were also computed at each end of the sourced range of every default a row reads
(``ranges``, from the claims chapter), an agreeing row must hold at both ends, a
``depends_on_default`` row must pass somewhere in the range and fail somewhere, and a corrected
fact must fail across it.

:func:`check_ledger` is what makes the build fail when the book drifts. The difference a row
shows (:func:`difference_rel`) is the one its status is judged by: an agreeing row must lie within
its tolerance, a corrected fact outside it; a result key that a chapter does not produce, a claim
without a status or a use that shows another value fails too. A fact shown in several chapters is
one row: its primary ``section``/``results_key`` and its ``uses``, each checked. Tolerances apply
where a chapter ran with its default parameters, the report's inputs; a scenario build shows the
same rows but does not fail on values the scenario was meant to move.

The functions here take the chapters' results as plain data (``{section: {key: (value, unit)}}``
and ``{section: ran at its defaults}``); the claims chapter (``analysis.chapters.claims``) builds
them from the chapters it needs.
"""

from __future__ import annotations

import math

import pandas as pd

from analysis.data.load import CLAIM_STATUSES, load_table
from analysis.data.provenance import framing_reads, params_read, report_reads, sources_read
from analysis.data.schemas import AGREEING_STATUSES, FACT_STATUSES, JUDGED_STATUSES
from analysis.errors import ExecutionError

# section -> result key -> (value, unit) or (value, unit, reads): reads as analysis.data.provenance
# records them (None where they were not recorded)
Values = dict[str, dict[str, tuple]]
# Statuses a row's recorded reads are checked against, and those whose agreement must survive the
# sourced range of every default the row reads (input_quoted and calibrated rows agree by construction).
READ_CHECKED = ("reproduced_independently", "consistency")
RANGE_CHECKED = (*READ_CHECKED, "depends_on_default", "corrected")
SAME = 1e-9  # relative: a use shows the same number as the fact's primary result


class LedgerError(ExecutionError):
    """The ledger's checks failed; the message lists every failing row."""


def difference_rel(value: float, low: float, high: float | None = None) -> float:
    """How far ``value`` lies outside the source's figure ``low`` (or its range ``low``-``high``),
    relative to the nearer end: 0 inside the range, ``value / high - 1`` above it, ``value / low - 1``
    below it; NaN without a value. A09's 1.73x against SA's 1.6-1.7x is +2.0 %, not +8.3 %."""
    if value is None or low is None or pd.isna(value) or pd.isna(low):
        return math.nan
    high = low if high is None or pd.isna(high) else high
    if value > high:
        return value / high - 1
    if value < low:
        return value / low - 1
    return 0.0


def within(difference: float, tolerance: float) -> bool:
    """Whether a difference from :func:`difference_rel` lies within a relative tolerance."""
    return not pd.isna(difference) and not pd.isna(tolerance) and abs(difference) <= tolerance * (1 + 1e-12)


CHECKED = JUDGED_STATUSES  # statuses with a tolerance (a claim's corrected: the book agrees)


def _book(results: Values, section: str, key: str | None):
    """(value, unit, reads) of a result, or None; reads is None where they were not recorded."""
    found = results.get(section, {}).get(key) if key else None
    if found is None:
        return None
    return (found[0], found[1], found[2] if len(found) > 2 else None)


def read_columns(reads) -> dict:
    """The ledger's columns for what a result read: the report numbers on its path, the report
    facts that only frame its question, the parameters it read, and whether any of it was recorded."""
    return {"report_inputs": report_reads(reads), "framing": framing_reads(reads),
            "params_read": params_read(reads), "sources_read": sources_read(reads), "reads_recorded": reads is not None}


def _within(value: float, low: float, high: float, tolerance: float) -> bool:
    """Whether ``value`` lies within ``tolerance`` of the source's figure or range (the chapter
    tests' shorthand for :func:`within` of :func:`difference_rel`)."""
    return within(difference_rel(value, low, high), tolerance)


def parse_uses(uses) -> list[tuple[str, str]]:
    """``"energy:key_a;software:key_b"`` -> ``[("energy", "key_a"), ("software", "key_b")]``."""
    if not isinstance(uses, str) or not uses:
        return []
    return [tuple(use.split(":", 1)) for use in uses.split(";")]


def status_label(status: str) -> str:
    """A status as readers see it: ``reproduced_independently`` -> ``reproduced independently``."""
    return status.replace("_", " ")


def claims_ledger(results: Values, at_defaults: dict[str, bool]) -> pd.DataFrame:
    """One row per seed claim: seed value, original value and link, the book's value, the
    difference, status. ``results`` holds the chapters that were built; a claim of any other
    chapter has no book value. ``fact_status`` is the status of the claim's fact in
    ``fact_checks.csv``, if it has a row there."""
    claims = load_table("claims")
    facts = load_table("report_facts").set_index("fact_id")
    fact_status = load_table("fact_checks").set_index("fact_id")["status"]
    urls = load_table("sources").set_index("source_id")["url"]
    rows = []
    for c in claims.itertuples():
        fact = facts.loc[c.fact_id] if isinstance(c.fact_id, str) else None
        section_results = results.get(c.section)
        key = c.results_key if isinstance(c.results_key, str) else None
        book = _book(results, c.section, key)
        original, high = (None, None) if fact is None else (fact["value"], fact["value_high"])
        rows.append({
            "claim_id": c.claim_id, "claim": c.claim, "seed_value": c.seed_value, "status": c.status,
            "fact_id": c.fact_id if fact is not None else None,
            "fact_status": fact_status.get(c.fact_id) if fact is not None else None,
            "original_value": original, "original_high": high,
            "original_unit": None if fact is None else fact["unit"],
            "url": urls.get(c.source_id), "source_id": c.source_id, "section": c.section,
            "results_key": key, "book_value": None if book is None else book[0],
            "book_unit": None if book is None else book[1],
            "difference_rel": difference_rel(None if book is None else book[0], original, high),
            "tolerance_rel": c.tolerance_rel, "tolerance_why": c.tolerance_why,
            "chapter_built": section_results is not None,
            "at_defaults": at_defaults.get(c.section, False), "explanation": c.explanation,
            **read_columns(None if book is None else book[2]),
        })
    return pd.DataFrame(rows)


def _facts_by_id() -> dict[str, dict]:
    """The report's facts by id, each a dict of its columns: no pandas lookup per value."""
    return load_table("report_facts").set_index("fact_id").to_dict("index")


def fact_uses(results: Values, at_defaults: dict[str, bool]) -> pd.DataFrame:
    """One row per place a checked fact is shown: its primary result (``primary`` True) and each
    of its ``uses``, with the book's value there and its difference from the report's."""
    checks, facts = load_table("fact_checks"), _facts_by_id()
    rows = []
    for f in checks.itertuples():
        low, high = facts[f.fact_id]["value"], facts[f.fact_id]["value_high"]
        places = [(f.section, f.results_key, False), *((s, k, False) for s, k in parse_uses(f.uses)),
                  *((s, k, True) for s, k in parse_uses(f.context_uses))]
        for i, (section, key, context) in enumerate(places):
            book = _book(results, section, key)
            value = None if book is None else book[0]
            rows.append({"fact_id": f.fact_id, "primary": i == 0, "context": context, "section": section,
                         "results_key": key,
                         "book_value": value, "difference_rel": difference_rel(value, low, high),
                         "chapter_built": section in results, "at_defaults": at_defaults.get(section, False),
                         "reads": None if book is None else book[2]})
    return pd.DataFrame(rows)


def facts_ledger(results: Values, at_defaults: dict[str, bool]) -> pd.DataFrame:
    """One row per checked report fact: the report's value, the book's (at the primary result),
    the difference, the tolerance, the status and where else the book shows it (``also_in``)."""
    checks, facts = load_table("fact_checks"), _facts_by_id()
    places = fact_uses(results, at_defaults)
    primaries = {r["fact_id"]: r for r in places[places["primary"]].to_dict("records")}  # each fact's first place
    rows = []
    for f in checks.itertuples():
        primary, fact = primaries[f.fact_id], facts[f.fact_id]
        rows.append({
            "fact_id": f.fact_id, "quantity": fact["quantity"], "section": f.section,
            "results_key": f.results_key, "uses": f.uses if isinstance(f.uses, str) else None,
            "also_in": [s for s, _ in parse_uses(f.uses)],
            "report_value": fact["value"], "report_high": fact["value_high"],
            "unit": fact["unit"], "book_value": primary["book_value"],
            "difference_rel": primary["difference_rel"], "status": f.status, "source_id": f.source_id,
            "tolerance_rel": f.tolerance_rel,
            "tolerance_why": f.tolerance_why, "chapter_built": bool(primary["chapter_built"]),
            "at_defaults": bool(primary["at_defaults"]), "note": f.note, **read_columns(primary["reads"]),
        })
    return pd.DataFrame(rows)


def status_counts(claims: pd.DataFrame) -> dict[str, int]:
    """How many claims have each status (every status in :data:`CLAIM_STATUSES`, zero included)."""
    return {status: int((claims["status"] == status).sum()) for status in CLAIM_STATUSES}


def fact_status_counts(facts: pd.DataFrame) -> dict[str, int]:
    """How many checked facts have each status (every status in :data:`FACT_STATUSES`)."""
    return {status: int((facts["status"] == status).sum()) for status in FACT_STATUSES}


def checked_facts(facts: pd.DataFrame) -> pd.DataFrame:
    """The report facts whose chapter was built: the ones the book recomputes, one row each."""
    return facts[facts["chapter_built"]].reset_index(drop=True)


def _judge(row_id: str, status: str, difference: float, tolerance: float, outside_expected: bool) -> list[str]:
    """The failure, if any, of a row whose difference at the defaults disagrees with its status."""
    if status in AGREEING_STATUSES and not within(difference, tolerance):
        return [f"{row_id}: status {status} but the book is {difference:+.2%} from the original, "
                f"outside its {tolerance:.1%} tolerance"]
    if status == "corrected" and outside_expected and within(difference, tolerance):
        return [f"{row_id}: status corrected but the book is within {tolerance:.1%} of the original "
                f"({difference:+.2%}): nothing to correct"]
    if status == "corrected" and not outside_expected and not within(difference, tolerance):
        return [f"{row_id}: status corrected, so the book should agree with the original, but it is "
                f"{difference:+.2%} from it, outside its {tolerance:.1%} tolerance"]
    return []


def _judge_reads(row_id: str, status: str, report_inputs: list[str], recorded: bool, source_id: str | None = None,
                 sources: list[str] | None = None) -> list[str]:
    """An independent row reads no report number and no row of its own source ``source_id`` (the
    table its figure was formed from: reading it back quotes it); a consistency row reads a report
    number (else it is independent)."""
    if not recorded or status not in READ_CHECKED:
        return []
    if status == "reproduced_independently" and report_inputs:
        return [f"{row_id}: status reproduced_independently but its computation reads the report's "
                f"{', '.join(report_inputs)}: a consistency check at most"]
    if status == "reproduced_independently" and isinstance(source_id, str) and source_id in (sources or ()):
        return [f"{row_id}: status reproduced_independently but its computation reads rows of its own source "
                f"{source_id}, the cells the figure was formed from: input_quoted"]
    if status == "consistency" and not report_inputs:
        return [f"{row_id}: status consistency but its computation reads no report number: it is independent"]
    return []


def crosses(differences, tolerance: float) -> tuple[bool, bool]:
    """Over the span of ``differences`` (the book's at the default and at each end of a range),
    whether some value within it passes (the span meets the tolerance band) and whether every one
    does (the span lies inside it). The book's values move monotonically with one default here, so
    the span is the ends' and the default's."""
    values = [d for d in differences if not pd.isna(d)]
    if not values:
        return False, False
    low, high = min(values), max(values)
    band = tolerance * (1 + 1e-12)
    return low <= band and high >= -band, low >= -band and high <= band


def _judge_range(row_id: str, status: str, difference: float, tolerance: float, row_ranges: pd.DataFrame,
                 outside_expected: bool) -> list[str]:
    """Rules across the sourced range of each default the row reads (one ``ranges`` row each)."""
    if status not in RANGE_CHECKED or (status == "corrected" and not outside_expected):
        return []
    spans, fails = {}, []
    for r in row_ranges.itertuples():
        spans[r.param] = crosses((difference, r.difference_low, r.difference_high), tolerance)
        if not spans[r.param][1]:
            fails.append(f"{r.param} {r.low:g}: {r.difference_low:+.1%}, {r.high:g}: {r.difference_high:+.1%}")
    if status in READ_CHECKED and fails:
        return [f"{row_id}: status {status} but across its defaults' sourced ranges the book leaves its "
                f"{tolerance:.1%} tolerance ({'; '.join(fails)}): depends_on_default"]
    if status == "depends_on_default":
        if not spans:
            return [f"{row_id}: status depends_on_default but it reads no default with a sourced range"]
        if all(inside for _, inside in spans.values()):
            return [f"{row_id}: status depends_on_default but the book holds across every range it reads"]
        if not any(meets for meets, inside in spans.values() if not inside):
            return [f"{row_id}: status depends_on_default but no value in the ranges it reads brings the book "
                    f"within {tolerance:.1%} ({'; '.join(fails)}): corrected"]
    if status == "corrected" and any(meets for meets, _ in spans.values()):
        where = [p for p, (meets, _) in spans.items() if meets]
        return [f"{row_id}: status corrected but the book comes within {tolerance:.1%} inside the sourced "
                f"range of {', '.join(where)}: depends_on_default"]
    return []


def ledger_failures(claims: pd.DataFrame, facts: pd.DataFrame, uses: pd.DataFrame | None = None,
                    ranges: pd.DataFrame | None = None) -> list[str]:
    """Every violated rule, one message each (empty when the ledger holds). ``uses`` (from
    :func:`fact_uses`) adds the checks of each fact's other places; without it only the primary
    results are checked. ``ranges`` (one row per ledger row and ranged default it reads:
    ``row_id``, ``param``, ``low``, ``high``, ``difference_low``, ``difference_high``) adds the
    rules across the defaults' sourced ranges, for the rows it covers.

    Claims: an agreeing status needs the book within tolerance of the original; ``corrected``
    means the seed is wrong, so the book agrees with the original, unless the fact itself is
    corrected in fact_checks.csv (then the book must differ from it). Facts: an agreeing status
    needs the book within tolerance, ``corrected`` needs it outside. Both: an independent row reads
    no report number and a consistency row reads one; with ``ranges``, an independent or consistency
    row holds across them, a ``depends_on_default`` row passes somewhere in them and fails somewhere,
    and a corrected fact fails across them."""
    failures = []
    by_row = {} if ranges is None else dict(tuple(ranges.groupby("row_id")))
    empty = pd.DataFrame(columns=["param", "low", "high", "difference_low", "difference_high"])
    for c in claims.itertuples():
        if c.status not in CLAIM_STATUSES:
            failures.append(f"{c.claim_id}: no valid status ({c.status!r})")
        if not c.chapter_built:
            if c.status != "pending":
                failures.append(f"{c.claim_id}: status {c.status} but chapter '{c.section}' has no results")
            continue
        if isinstance(c.results_key, str) and pd.isna(c.book_value):
            failures.append(f"{c.claim_id}: results key '{c.results_key}' does not exist in chapter '{c.section}'")
        elif c.at_defaults and isinstance(c.results_key, str):
            failures += _judge(c.claim_id, c.status, c.difference_rel, c.tolerance_rel, c.fact_status == "corrected")
            failures += _judge_reads(c.claim_id, c.status, c.report_inputs, c.reads_recorded, c.source_id,
                                     c.sources_read)
            if ranges is not None and c.reads_recorded:  # which defaults a row reads is known only when recorded
                failures += _judge_range(c.claim_id, c.status, c.difference_rel, c.tolerance_rel,
                                         by_row.get(c.claim_id, empty), c.fact_status == "corrected")
    for f in facts.itertuples():
        if f.status not in FACT_STATUSES:
            failures.append(f"{f.fact_id}: no valid status ({f.status!r})")
        if not f.chapter_built:
            continue
        if pd.isna(f.book_value):
            failures.append(f"{f.fact_id}: results key '{f.results_key}' does not exist in chapter '{f.section}'")
        elif f.at_defaults:
            failures += _judge(f.fact_id, f.status, f.difference_rel, f.tolerance_rel, True)
            failures += _judge_reads(f.fact_id, f.status, f.report_inputs, f.reads_recorded, f.source_id,
                                     f.sources_read)
            if ranges is not None and f.reads_recorded:
                failures += _judge_range(f.fact_id, f.status, f.difference_rel, f.tolerance_rel,
                                         by_row.get(f.fact_id, empty), True)
    if uses is not None:
        primary = uses[uses["primary"]].set_index("fact_id")
        for u in uses[~uses["primary"] & uses["chapter_built"]].itertuples():
            where = f"{u.fact_id} (use {u.section}.{u.results_key})"
            value, defaults = primary.loc[u.fact_id, "book_value"], primary.loc[u.fact_id, "at_defaults"]
            if pd.isna(u.book_value):
                failures.append(f"{where}: results key '{u.results_key}' does not exist in chapter '{u.section}'")
            elif u.context:  # another basis, shown for comparison: it only has to exist
                continue
            elif u.at_defaults and defaults and not pd.isna(value) and not math.isclose(u.book_value, value,
                                                                                          rel_tol=SAME):
                failures.append(f"{where}: shows {u.book_value:.6g}, not the primary result's "
                                f"{value:.6g}; a use is the same number shown elsewhere")
    return failures


def check_ledger(claims: pd.DataFrame, facts: pd.DataFrame, uses: pd.DataFrame | None = None,
                 ranges: pd.DataFrame | None = None) -> None:
    """Raise :class:`LedgerError` listing every failure (this fails the build)."""
    failures = ledger_failures(claims, facts, uses, ranges)
    if failures:
        raise LedgerError("the claims ledger does not hold:\n  " + "\n  ".join(failures))
