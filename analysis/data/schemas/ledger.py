"""Schemas of the ledger's tables: report_facts, claims, fact_checks and seed_numbers, and the
ledger's statuses and tolerance rule."""

from __future__ import annotations

from pathlib import Path

from analysis.data.schemas.columns import ID, UNITS, _num, _source, _text, pa

# Every section of the book is one notebook, notebooks/<section>.py (analysis.chapters.registry.Section.notebook;
# tests/test_layers.py keeps the two lists equal). fact_checks.csv's sections are checked against the
# notebooks, not the section registry: the registry imports the parameters, which read the GPU table,
# so a schema that imported it would close an import circle (data -> schemas -> sections -> params ->
# hardware -> data).
NOTEBOOKS_DIR = Path(__file__).resolve().parents[3] / "notebooks"


def _report_facts_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "fact_id": _text(regex=r"^[ABC][0-9]{2}(_[a-z0-9_]+)?$", unique=True),
            "quantity": _text(),
            "value": _num(-1e30, 1e30),
            "value_high": _num(-1e30, 1e30, nullable=True),
            "unit": _text(isin=UNITS),
            "source_id": _source(ids("sources")),
            "confidence": _text(isin={"verbatim", "derived", "digest"}),
            "note": _text(nullable=True),
        },
        strict=True,
    )


# Statuses of the claims ledger (data/README.md). The first four say the book's value agrees with
# the original within the row's tolerance at the defaults, and how much that agreement is worth:
# recomputed with no number from the report on its path (the framing of the question aside); the
# report's own stated inputs run through the book's formulas (a check of its arithmetic, not of its
# facts); reproduced only because an input was calibrated to it; or the figure itself (or a unit
# conversion of it) is the input, shown back. ``depends_on_default``: whether the book agrees turns
# on a default the report does not state, inside that default's sourced range (the ledger shows the
# value at each end). What the computation read is recorded as it runs (analysis.data.provenance), and
# the ledger's rules check the first two statuses against it.
AGREEING_STATUSES = ("reproduced_independently", "consistency", "reproduced_by_calibration", "input_quoted")
JUDGED_STATUSES = (*AGREEING_STATUSES, "depends_on_default", "corrected")  # statuses with a tolerance
FACT_STATUSES = (*AGREEING_STATUSES, "depends_on_default", "corrected", "context")
CLAIM_STATUSES = (*FACT_STATUSES, "unverifiable", "pending")
# Above this relative tolerance a row must say why (tolerance_why): the source's own rounding.
TOLERANCE_WITHOUT_REASON = 0.03
USES = r"^[a-z0-9_]+:[a-z0-9_]+(;[a-z0-9_]+:[a-z0-9_]+)*$"  # section:results_key;section:results_key


def _tolerance_checks() -> list[pa.Check]:
    """Rules shared by claims.csv and fact_checks.csv: a tolerance above 3 % says why; an agreeing
    or corrected row has a tolerance to be judged by."""
    return [
        pa.Check(lambda d: d["tolerance_rel"].isna() | (d["tolerance_rel"] <= TOLERANCE_WITHOUT_REASON)
                 | d["tolerance_why"].notna(),
                 error=f"a tolerance_rel above {TOLERANCE_WITHOUT_REASON} needs tolerance_why (the source's rounding)"),
        pa.Check(lambda d: ~d["status"].isin(JUDGED_STATUSES) | d["tolerance_rel"].notna(),
                 error="a reproduced, consistency, input_quoted, depends_on_default or corrected row needs tolerance_rel"),
    ]


def _claims_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "claim_id": _text(regex=r"^S[0-9]{2}$", unique=True),
            "seed_file": _text(),
            "claim": _text(),
            "seed_value": _text(nullable=True),
            "fact_id": _text(nullable=True, isin=ids("report_facts", "fact_id")),
            "source_id": _source(ids("sources")),
            "section": _text(regex=ID),
            "results_key": _text(nullable=True, regex=ID),
            "tolerance_rel": _num(0, 1, nullable=True),
            "status": _text(isin=CLAIM_STATUSES),
            "explanation": _text(),
            "tolerance_why": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: ~d["status"].isin(JUDGED_STATUSES)
                         | (d["results_key"].notna() & d["tolerance_rel"].notna() & d["fact_id"].notna()),
                         error="a reproduced, consistency, input_quoted, depends_on_default or corrected claim "
                               "needs fact_id, results_key and tolerance_rel"),
                *_tolerance_checks()],
        strict=True,
    )


def _seed_numbers_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "number_id": _text(regex=r"^S[0-9]{2}_[a-z0-9_]+$", unique=True),
            "claim_id": _text(regex=r"^S[0-9]{2}$"),
            "quantity": _text(),
            "value": _num(-1e30, 1e30),
            "value_2": _num(-1e30, 1e30, nullable=True),
            "unit": _text(isin=UNITS),
            "source_id": _source(ids("sources")),
            "note": _text(nullable=True),
        },
        strict=True,
    )


def section_names() -> list[str]:
    """The book's sections: the names of its notebooks, sorted."""
    return sorted(path.stem for path in NOTEBOOKS_DIR.glob("*.py"))


def _fact_checks_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "fact_id": _text(isin=ids("report_facts", "fact_id")),
            "section": _text(isin=section_names()),  # caught at load with its line, not at execution
            "results_key": _text(regex=ID),
            "tolerance_rel": _num(0, 1, nullable=True),
            "status": _text(isin=FACT_STATUSES),
            "source_id": _source(ids("sources")),  # the fact's source, repeated so every row cites one
            "note": _text(nullable=True),
            "uses": _text(nullable=True, regex=USES),  # other chapters that show the same fact
            # places that show the fact beside a different number on another basis (a cost at the
            # book's own TCO against the report's at its $1.42): shown, never counted as checks
            "context_uses": _text(nullable=True, regex=USES),
            "tolerance_why": _text(nullable=True),
        },
        checks=[*_tolerance_checks(),
                pa.Check(lambda d: d["status"].isin(AGREEING_STATUSES) | d["note"].notna(),
                         error="a corrected or context fact needs a note that says why it differs")],
        unique=["fact_id"],  # one check per fact; the other chapters that show it are its uses
        strict=True,
    )


def _facts_not_checked_schema(ids) -> pa.DataFrameSchema:
    """Report facts the book neither computes nor compares, each with the reason
    (``data/facts_not_checked.csv``); a fact is checked, a claim's, read by a chapter, or here."""
    return pa.DataFrameSchema(
        {
            "fact_id": _text(isin=ids("report_facts", "fact_id"), unique=True),
            "source_id": _source(ids("sources")),  # the fact's source, repeated so every row cites one
            "reason": _text(),
        },
        strict=True,
    )
