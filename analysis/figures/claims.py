"""Tables of the claims ledger, drawn from the claims chapter's frames
(``analysis.chapters.claims``): Markdown with links to the sources and to the chapters."""

from __future__ import annotations

import pandas as pd

from analysis.formatting import humanize
from analysis.ledger import status_label
from analysis.notebook import format_quantity
from analysis.tables import markdown_table


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
    """A relative difference from the ledger (:func:`analysis.ledger.difference_rel`): +2.0 %."""
    return "—" if pd.isna(value) else f"{value * 100:+.1f} %"


def tolerance(row) -> str:
    """The row's tolerance, with the reason when it is above the default limit."""
    if pd.isna(row.tolerance_rel):
        return "—"
    text = f"±{row.tolerance_rel * 100:.1f} %"
    return f"{text} ({row.tolerance_why})" if isinstance(row.tolerance_why, str) else text


def claims_markdown(E) -> str:
    """One row per seed claim: what the seed says, the original, the book's value, the
    difference the status is judged by, the status."""
    rows = []
    for c in E.tables["seed_claims"].itertuples():
        book = format_quantity(c.book_value, c.book_unit) if pd.notna(c.book_value) else "—"
        chapter = _chapter(c.section) if c.chapter_built else c.section
        rows.append((f"**{c.claim_id}** {humanize(c.claim)}", humanize(c.seed_value) if isinstance(c.seed_value, str) else "—",
                     original(c), book, difference(c.difference_rel), tolerance(c), f"**{status_label(c.status)}**",
                     chapter, humanize(c.explanation)))
    return markdown_table(["Claim", "Seed says", "Original source", "This book", "Difference", "Tolerance", "Status",
                           "Chapter", "Why"], rows)


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
        rows.append((f.fact_id, humanize(f.quantity), report, format_quantity(f.book_value, f.unit), difference(f.difference_rel),
                     tolerance(f), status_label(f.status), _chapter(f.section), also,
                     humanize(f.note) if isinstance(f.note, str) else ""))
    return markdown_table(["Fact", "Quantity", "Report", "This book", "Difference", "Tolerance", "Status",
                           "Chapter", "Also in", "Note"], rows)

ANSWER = ["claims_total_count", "claims_reproduced_independently_count", "claims_corrected_count", "facts_checked_count", "facts_reproduced_independently_count", "facts_corrected_count"]
ANSWER_MORE = "Below: what each status means, then the ledger of seed claims and the report figures the book checks."
