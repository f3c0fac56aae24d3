"""Tables of the claims ledger, drawn from the claims chapter's frames
(``analysis.chapters.claims``): Markdown with links to the sources and to the chapters."""

from __future__ import annotations

import pandas as pd

from analysis.chapters.ledger import status_label
from analysis.page.formatting import count, humanize
from analysis.page.names import fact_label, param_short_label
from analysis.page.notebook import format_quantity
from analysis.page.tables import markdown_table

# One plain sentence per status: what an agreement is worth (the claims chapter prints them).
STATUS_MEANING = {
    "reproduced_independently": "the book recomputes the figure from its own sources and formulas, with no number "
                                "from the report on the way (the question it answers, which run or how many GPUs, "
                                "may come from the report)",
    "consistency": "the report's own stated inputs, run through the book's formulas, give the figure: its arithmetic "
                   "holds, which says nothing of its inputs",
    "depends_on_default": "whether the book agrees turns on a value the report does not state: inside that default's "
                          "sourced range the book passes at some values and fails at others, and the row shows it "
                          "at each end",
    "reproduced_by_calibration": "it agrees only because an input was tuned to it",
    "input_quoted": "the figure, or a unit conversion of it, is the book's own input shown back: it agrees by "
                    "construction",
    "corrected": "the figure does not hold: a seed that misquotes its source, or a report figure that its own "
                 "inputs or better sources contradict; the book shows both and says why",
    "context": "cited or compared, not expected to match; the row says why",
    "unverifiable": "no public source",
    "pending": "the chapter that settles it is not written yet",
}


def original(c) -> str:
    """The original source's value of a claim row, its range, fact id and a link to the source."""
    if pd.isna(c.original_value):
        return "—"
    text = format_quantity(c.original_value, c.original_unit)
    if pd.notna(c.original_high):
        text += f" to {format_quantity(c.original_high, c.original_unit)}"
    link = f"[{c.source_id}]({c.url})" if isinstance(c.url, str) else c.source_id
    return f"{text} ({c.fact_id}; {link})"


def _chapter(section: str) -> str:
    return f"{{ref}}`{section} <chapter-{section}>`"


def difference(value: float) -> str:
    """A relative difference from the ledger (:func:`analysis.chapters.ledger.difference_rel`): +2.0 %."""
    return "—" if pd.isna(value) else f"{value * 100:+.1f} %"


def tolerance(row) -> str:
    """The row's tolerance, with the reason when it is above the default limit."""
    if pd.isna(row.tolerance_rel):
        return "—"
    text = f"±{row.tolerance_rel * 100:.1f} %"
    return f"{text} ({row.tolerance_why})" if isinstance(row.tolerance_why, str) else text


def report_inputs_text(row) -> str:
    """The report numbers a row's computation read, as the reader knows them: fact labels (B11,
    C02) and the report's data rows, counted; "none" where the record is empty, "—" where absent."""
    if not getattr(row, "reads_recorded", False):
        return "—"
    facts, rows = [], {}
    for item in row.report_inputs:
        if ":" in item:  # a data row: "<table>:<key>"
            table = item.split(":", 1)[0]
            rows[table] = rows.get(table, 0) + 1
        else:
            facts.append(fact_label(item))
    words = {"benchmarks": "SemiAnalysis benchmark row", "training_runs": "SemiAnalysis GPT-4 estimate",
             "seed_numbers": "seed number", "network_components": "SemiAnalysis part row",
             "household_energy": "SemiAnalysis household row"}
    parts = sorted(set(facts)) + [f"{n} {words.get(t, t)}{'s' if n > 1 else ''}" for t, n in sorted(rows.items())]
    return ", ".join(parts) if parts else "none"


def range_text(row_id: str, unit: str, ranges: pd.DataFrame) -> str:
    """The book's value at each end of the sourced range of every default the row reads:
    "Power usage effectiveness 1.1: 1,528 W (−14.2 %); 1.42: 1,972 W (+10.2 %)"."""
    mine = ranges[ranges["row_id"] == row_id] if len(ranges) else ranges
    parts = []
    for r in mine.itertuples():
        if abs(r.difference_low) < 1e-12 and abs(r.difference_high) < 1e-12 and r.book_low == r.book_high:
            continue  # this default does not move the row
        parts.append(f"{param_short_label(r.param)} {r.low:g}: {format_quantity(r.book_low, unit)} "
                     f"({difference(r.difference_low)}); {r.high:g}: {format_quantity(r.book_high, unit)} "
                     f"({difference(r.difference_high)})")
    return "; ".join(parts) or "—"


def claims_markdown(E) -> str:
    """One row per seed claim: what the seed says, the original, the book's value, the
    difference the status is judged by, the status."""
    rows = []
    for c in E.tables["seed_claims"].itertuples():
        book = format_quantity(c.book_value, c.book_unit) if pd.notna(c.book_value) else "—"
        chapter = _chapter(c.section) if c.chapter_built else c.section
        ranges = range_text(c.claim_id, c.book_unit, E.tables["ranges"]) if c.status == "depends_on_default" else ""
        rows.append((f"**{c.claim_id}** {humanize(c.claim)}", humanize(c.seed_value) if isinstance(c.seed_value, str) else "—",
                     original(c), book, difference(c.difference_rel), tolerance(c), f"**{status_label(c.status)}**",
                     report_inputs_text(c), ranges, chapter, humanize(c.explanation)))
    return markdown_table(["Claim", "Seed says", "Original source", "This book", "Difference", "Tolerance", "Status",
                           "Reads from the report", "Across the default's range", "Chapter", "Why"], rows)


def facts_markdown(E) -> str:
    """One row per report figure the book checks: the report's value, the book's, the difference
    from the nearer end of the report's range, the tolerance, the status, the chapter that
    computes it and the others that show it."""
    rows = []
    for f in E.tables["report_facts_checked"].itertuples():
        report = format_quantity(f.report_value, f.unit)
        if pd.notna(f.report_high):
            report += f" to {format_quantity(f.report_high, f.unit)}"
        also = ", ".join(_chapter(s) for s in f.also_in) or "—"
        ranges = range_text(f.fact_id, f.unit, E.tables["ranges"]) if f.status == "depends_on_default" else ""
        rows.append((f.fact_id, humanize(f.quantity), report, format_quantity(f.book_value, f.unit), difference(f.difference_rel),
                     tolerance(f), status_label(f.status), report_inputs_text(f), ranges, _chapter(f.section), also,
                     humanize(f.note) if isinstance(f.note, str) else ""))
    return markdown_table(["Fact", "Quantity", "Report", "This book", "Difference", "Tolerance", "Status",
                           "Reads from the report", "Across the default's range", "Chapter", "Also in", "Note"], rows)


def statuses_markdown() -> str:
    """A bullet list: each status, in the ledger's order, and what it means in one sentence."""
    return "\n".join(f"- **{status_label(s)}**: {meaning};" for s, meaning in STATUS_MEANING.items())


def not_checked_markdown(E) -> str:
    """The report figures the book neither computes nor compares, and why."""
    rows = [(r.fact_id, humanize(r.quantity), format_quantity(r.value, r.unit), humanize(r.reason))
            for r in E.tables["facts_not_checked"].itertuples()]
    return markdown_table(["Fact", "Quantity", "Report", "Why the book does not check it"], rows)


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number."""
    return (f"Of {count(R['claims_total_count'])} seed claims the book corrects "
            f"{count(R['claims_corrected_count'])} and reproduces {count(R['claims_reproduced_independently_count'])} "
            f"from independent sources; of {count(R['facts_checked_count'])} report figures it checks, "
            f"{count(R['facts_corrected_count'])} are corrected.")


ANSWER = ["claims_total_count", "claims_reproduced_independently_count", "claims_corrected_count", "facts_checked_count",
          "facts_reproduced_independently_count", "facts_consistency_count", "facts_depends_on_default_count",
          "facts_corrected_count"]
ANSWER_MORE = "Below: what each status means, then the ledger of seed claims and the report figures the book checks."
