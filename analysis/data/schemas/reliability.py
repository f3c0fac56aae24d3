"""Schemas of the reliability tables: llama3_interruptions, reliability_facts and job_failures."""

from __future__ import annotations

from analysis.data.schemas.columns import ID, _bool_text, _int, _num, _source, _text, pa


def _llama3_interruptions_schema(ids) -> pa.DataFrameSchema:
    categories = {"GPU", "Host", "Network", "Dependency", "Unplanned maintenance", "Unknown"}
    sources = ids("sources")
    return pa.DataFrameSchema(
        {
            "component": _text(unique=True),
            "category": _text(isin=categories),
            "count": _int(0, 100_000),
            "pct_printed": _num(0, 100),  # percent as printed by the source, not recomputed
            "source_id": _source(sources),
            "read_via": _text(nullable=True, isin=sources),
        },
        strict=True,
    )


def _reliability_facts_schema(ids) -> pa.DataFrameSchema:
    sources = ids("sources")
    return pa.DataFrameSchema(
        {
            "item_id": _text(regex=ID, unique=True),
            "subject": _text(regex=ID),
            "quantity": _text(),
            "value": _num(-1e30, 1e30),
            "value_high": _num(-1e30, 1e30, nullable=True),
            "relation": _text(isin={"equals", "about", "more_than", "up_to", "range"}),
            "unit": _text(),
            "evidence": _text(isin={"primary", "secondary", "derived"}),
            "source_id": _source(sources),
            "read_via": _text(nullable=True, isin=sources),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: (d["relation"] != "range") | (d["value_high"] >= d["value"]),
                         error="a range needs value_high >= value"),
                pa.Check(lambda d: (d["evidence"] != "secondary") | d["read_via"].notna()
                         | d["note"].notna(), error="secondary evidence needs read_via or a note")],
        strict=True,
    )


def _job_failures_schema(ids) -> pa.DataFrameSchema:
    """Measured (and projected) job-level mean time to failure by job size. A row states the MTTF
    (``mttf_value`` in ``mttf_unit``) or the counts it follows from (``failures`` in
    ``window_days``), never both; ``in_fit`` rows feed ``reliability.fit_job_mttf``."""
    sources = ids("sources")
    stated = lambda d: d["mttf_value"].notna()  # noqa: E731
    counted = lambda d: d["failures"].notna() & d["window_days"].notna()  # noqa: E731
    return pa.DataFrameSchema(
        {
            "row_id": _text(regex=ID, unique=True),
            "cluster": _text(),
            "accelerator": _text(),
            "job_gpus": _int(1, 10_000_000),
            "kind": _text(isin={"measured", "counted", "projected"}),
            "relation": _text(isin={"equals", "about", "up_to"}),  # of the MTTF: 'up_to' for "40+ restarts"
            "mttf_value": _num(0, 1e7, nullable=True),
            "mttf_unit": _text(nullable=True, isin={"minutes", "hours", "days"}),
            "failures": _num(0, 1e9, nullable=True),
            "window_days": _num(0, 1e5, nullable=True),
            "in_fit": _bool_text(),
            "evidence": _text(isin={"primary", "secondary"}),
            "source_id": _source(sources),
            "read_via": _text(nullable=True, isin=sources),
            "location": _text(),
            "quote": _text(),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: stated(d) != counted(d),
                         error="give mttf_value (with mttf_unit) or failures and window_days, not both"),
                pa.Check(lambda d: stated(d) == d["mttf_unit"].notna(), error="mttf_value needs mttf_unit"),
                pa.Check(lambda d: d["failures"].notna() == d["window_days"].notna(),
                         error="failures and window_days go together"),
                pa.Check(lambda d: (d["in_fit"] != "true") | ((d["kind"] != "projected") & (d["relation"] == "equals")),
                         error="only measured or counted rows with relation 'equals' may be fitted"),
                pa.Check(lambda d: (d["evidence"] != "secondary") | d["read_via"].notna(),
                         error="secondary evidence needs read_via")],
        strict=True,
    )
