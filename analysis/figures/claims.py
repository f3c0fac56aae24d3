"""Tables of the claims ledger, drawn from the claims chapter's frames
(``analysis.chapters.claims``): filterable tables (on a phone too) with links to the sources, the
report facts and the chapters; ids only inside each row's fold."""

from __future__ import annotations

import html

import pandas as pd
from docutils.nodes import make_id

from analysis.chapters.ledger import status_label
from analysis.chapters.registry import get_section
from analysis.page.formatting import count
from analysis.page.names import fact_anchor, fact_label, fact_link, param_short_label, reader_text, source_label
from analysis.page.notebook import format_quantity
from analysis.page.tables import Html, interactive_table, markdown_table

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


KEY_STATUSES = ("corrected", "reproduced_independently")  # the seed claims the verdict counts: shown, the rest fold
FACT_KEY_STATUSES = ("corrected",)  # the report figures the verdict counts: shown, the rest fold


def _link(href: str, text: str) -> str:
    return f'<a class="reference internal" href="{html.escape(href)}">{html.escape(text)}</a>'


def _source(source_id) -> str:
    """A source as its author-year label, linked to its entry on the Sources appendix."""
    if not isinstance(source_id, str):
        return ""
    return _link(f"sources.html#{make_id('src-' + source_id)}", source_label(source_id))


def _fact(fact_id) -> str:
    """A report fact's short label (B09), linked to its entry on the Report facts appendix."""
    return _link(f"facts.html#{make_id(fact_anchor(fact_id))}", fact_label(fact_id))


def chapter_name(section: str) -> str:
    """A chapter as the sidebar names it, before any colon: 'TCO', 'Plan a run'."""
    return get_section(section).title.split(":")[0]


def _chapter(section: str, built: bool = True) -> str:
    name = chapter_name(section)
    return _link(f"{section}.html#chapter-{section}", name) if built else html.escape(name)


def original(c) -> str:
    """The original source's value of a claim row, its range, and where it is from (the fact's
    label and the source's author and year, linked)."""
    if pd.isna(c.original_value):
        return "—"
    text = html.escape(format_quantity(c.original_value, c.original_unit))
    if pd.notna(c.original_high):
        text += f" to {html.escape(format_quantity(c.original_high, c.original_unit))}"
    where = ", ".join(part for part in (_fact(c.fact_id) if isinstance(c.fact_id, str) else "", _source(c.source_id)) if part)
    return f"{text} ({where})" if where else text


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


def _more(lines: list[tuple[str, str]]) -> str:
    """A row's own fold: the lines a reader opens (each a label and HTML)."""
    body = "".join(f"<p><strong>{html.escape(label)}:</strong> {text}</p>" for label, text in lines if text)
    return f'<details class="book-row-more"><summary>More</summary>{body}</details>'


def _quantity(text: str, section: str, built: bool, also=(), more=()) -> Html:
    """The first cell of a ledger row: what is checked, the chapter that computes it (and those
    that also show it), and the row's fold."""
    where = f"{_chapter(section, built)} chapter"
    if also:
        where += "; also in " + ", ".join(_chapter(s) for s in also)
    return Html(f"{html.escape(reader_text(text, link=False))}<br><small>{where}</small>{_more(list(more))}")


def claims_table(E):
    """The seed claims ledger, filterable and sortable: what each claim says, its status beside
    it, the seed's and the original's values, the book's, the difference the status is judged by,
    and why. The rows the verdict counts (corrected, reproduced independently) are shown; the
    others wait behind the table's fold, and the filter searches them all."""
    rows = []
    for c in E.tables["seed_claims"].itertuples():
        ranges = range_text(c.claim_id, c.book_unit, E.tables["ranges"]) if c.status == "depends_on_default" else ""
        more = [("Claim", html.escape(c.claim_id)), ("Tolerance", html.escape(tolerance(c))),
                ("Reads from the report", html.escape(report_inputs_text(c))),
                ("Across the default's range", html.escape(ranges))]
        rows.append({"claim": _quantity(c.claim, c.section, c.chapter_built, more=more),
                     "status": status_label(c.status),
                     "seed": reader_text(c.seed_value, link=False) if isinstance(c.seed_value, str) else "—",
                     "original": Html(original(c)),
                     "book": format_quantity(c.book_value, c.book_unit) if pd.notna(c.book_value) else "—",
                     "difference": difference(c.difference_rel), "why": reader_text(c.explanation, link=False)})
    statuses = E.tables["seed_claims"]["status"]
    return interactive_table(rows, {"claim": "Claim", "status": "Status", "seed": "Seed says",
                                    "original": "Original source", "book": "This book", "difference": "Difference",
                                    "why": "Why"},
                             table_id="ledger-seed-claims", key=statuses.isin(KEY_STATUSES).to_numpy())


def facts_table(E):
    """The report figures the book checks, filterable and sortable: the quantity, its status beside
    it, the book's value, the report's, the difference from the nearer end of the report's range,
    and the note; what the computation read from the report is in each row's fold. The rows the
    verdict counts (corrected) are shown; the others wait behind the table's fold, and the filter
    searches them all."""
    rows = []
    frame = E.tables["report_facts_checked"]
    for f in frame.itertuples():
        report = format_quantity(f.report_value, f.unit)
        if pd.notna(f.report_high):
            report += f" to {format_quantity(f.report_high, f.unit)}"
        ranges = range_text(f.fact_id, f.unit, E.tables["ranges"]) if f.status == "depends_on_default" else ""
        more = [("Fact", _fact(f.fact_id)), ("Tolerance", html.escape(tolerance(f))),
                ("Reads from the report", html.escape(report_inputs_text(f))),
                ("Across the default's range", html.escape(ranges))]
        rows.append({"quantity": _quantity(f.quantity, f.section, True, f.also_in, more), "status": status_label(f.status),
                     "book": format_quantity(f.book_value, f.unit), "report": report,
                     "difference": difference(f.difference_rel),
                     "note": reader_text(f.note, link=False) if isinstance(f.note, str) else ""})
    return interactive_table(rows, {"quantity": "Quantity", "status": "Status", "book": "This book",
                                    "report": "Report", "difference": "Difference", "note": "Note"},
                             table_id="ledger-report-facts", key=frame["status"].isin(FACT_KEY_STATUSES).to_numpy())


def statuses_markdown() -> str:
    """A bullet list: each status, in the ledger's order, and what it means in one sentence."""
    return "\n".join(f"- **{status_label(s)}**: {meaning};" for s, meaning in STATUS_MEANING.items())


def not_checked_markdown(E) -> str:
    """The report figures the book neither computes nor compares, and why (folded: no sentence
    reads a row of it; the fact's label comes last, its source's author and year with it)."""
    rows = [(reader_text(r.quantity), format_quantity(r.value, r.unit), reader_text(r.reason), fact_link(r.fact_id))
            for r in E.tables["facts_not_checked"].itertuples()]
    return markdown_table(["Quantity", "Report", "Why the book does not check it", "Fact"], rows, key=[],
                          name="facts_not_checked", title="the report figures the book does not check")


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
