"""Load and validate the tables in ``data/``. The only module that reads a CSV.

Each table has a declared pandera schema (types, units in column names, ranges, a required
``source_id`` that must exist in ``sources.csv``). A bad row raises :class:`DataError`, whose
message names the file, the line and the column. Tables are validated once per process and
cached; callers get copies.

When the book pipeline runs a section it sets ``ANALYSIS_ALLOWED_TABLES`` to the tables that the
section declares (see :mod:`analysis.sections`). Reading any other table then fails loudly, so the
section's cache key (which hashes exactly the declared files) can never miss a dependency.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pandas as pd
import pandera.pandas as pa

from analysis.errors import InputError

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT / "data"

ID = r"^[a-z0-9][a-z0-9_]*$"
DATE = r"^\d{4}(-\d{2}(-\d{2})?)?$"
MAX_ERRORS_SHOWN = 12


class DataError(InputError):
    """A data file is missing or a row breaks its table's schema."""


def _num(lo: float, hi: float, nullable: bool = False) -> pa.Column:
    return pa.Column(float, pa.Check.in_range(lo, hi), nullable=nullable, coerce=True)


def _int(lo: int, hi: int, nullable: bool = False) -> pa.Column:
    return pa.Column("Int64", pa.Check.in_range(lo, hi), nullable=nullable, coerce=True)


def _text(nullable: bool = False, regex: str | None = None, isin=None, unique=False) -> pa.Column:
    checks = []
    if regex:
        checks.append(pa.Check.str_matches(regex))
    if isin is not None:
        checks.append(pa.Check.isin(sorted(isin)))
    return pa.Column(str, checks, nullable=nullable, unique=unique)


def _bool_text() -> pa.Column:
    return _text(isin={"true", "false"})


def _source(source_ids) -> pa.Column:
    return _text(isin=source_ids)


def _sources_schema(_ids=None) -> pa.DataFrameSchema:
    kinds = {"report", "paper", "vendor-doc", "code", "dataset", "article", "model-card", "unpublished"}
    return pa.DataFrameSchema(
        {
            "source_id": _text(regex=ID, unique=True),
            "title": _text(),
            "publisher": _text(),
            "date": _text(regex=DATE),
            "url": _text(nullable=True, regex=r"^https?://\S+$"),
            "accessed": _text(regex=DATE),
            "kind": _text(isin=kinds),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["url"].notna() | (d["kind"] == "unpublished"),
                         error="url is required unless kind is 'unpublished'")],
        strict=True,
    )


def _gpus_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "gpu_id": _text(regex=ID, unique=True),
            "name": _text(),
            "bf16_dense_tflops": _num(1, 100_000),
            "fp8_dense_tflops": _num(1, 100_000, nullable=True),
            "fp4_dense_tflops": _num(1, 100_000, nullable=True),
            "tf32_dense_tflops": _num(1, 100_000, nullable=True),
            "memory_gb": _num(1, 10_000),
            "memory_bandwidth_tbs": _num(0.1, 100),
            "tdp_w": _num(50, 5_000),
            "launch_year": _int(2010, 2035),
            "source_id": _source(ids),
            "note": _text(nullable=True),
        },
        strict=True,
    )


def _models_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "model_id": _text(regex=ID, unique=True),
            "name": _text(),
            "total_params": _num(1e6, 1e14),
            "active_params": _num(1e6, 1e14),
            "layers": _int(1, 1_000),
            "hidden_size": _int(64, 1_000_000),
            "ffn_hidden_size": _int(64, 10_000_000),
            "attention_heads": _int(1, 10_000),
            "kv_heads": _int(1, 10_000),
            "seq_len": _int(1, 10_000_000),
            "vocab_size": _int(2, 10_000_000),
            "tied_embeddings": _bool_text(),
            "source_id": _source(ids),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["active_params"] <= d["total_params"],
                         error="active_params must not exceed total_params")],
        strict=True,
    )


def _benchmarks_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "model_id": _text(isin=_ids("models")),
            "gpu_id": _text(isin=_ids("gpus")),
            "precision": _text(isin={"bf16", "fp8"}),
            "gpus": _int(1, 10_000_000),
            "software": _text(),
            "date": _text(regex=DATE),
            "tp": _int(1, 1_024, nullable=True),
            "pp": _int(1, 1_024, nullable=True),
            "cp": _int(1, 1_024, nullable=True),
            "vp": _int(1, 1_024, nullable=True),
            "ep": _int(1, 4_096, nullable=True),
            "global_batch": _int(1, 10_000_000, nullable=True),
            "seq_len": _int(1, 10_000_000),
            "mfu_reported": _num(0.001, 1.0, nullable=True),
            "tokens_per_s_per_gpu_reported": _num(0.001, 1e7, nullable=True),
            "mfu_peak_tflops": _num(1, 100_000, nullable=True),
            "publisher": _text(),
            "source_id": _source(ids),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["mfu_reported"].notna() | d["tokens_per_s_per_gpu_reported"].notna(),
                         error="mfu_reported or tokens_per_s_per_gpu_reported is required")],
        strict=True,
    )


def _training_runs_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "run_id": _text(regex=ID, unique=True),
            "name": _text(),
            "gpu_id": _text(isin=_ids("gpus")),
            "gpus": _int(1, 10_000_000),
            "train_flop": _num(1e15, 1e30),
            "days_low": _num(0.01, 3_650),
            "days_high": _num(0.01, 3_650),
            "precision": _text(isin={"bf16", "fp8", "fp16", "tf32"}),
            "source_id": _source(ids),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["days_low"] <= d["days_high"], error="days_low must not exceed days_high")],
        strict=True,
    )


def _report_facts_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "fact_id": _text(regex=r"^[ABC][0-9]{2}(_[a-z0-9_]+)?$", unique=True),
            "quantity": _text(),
            "value": _num(-1e30, 1e30),
            "value_high": _num(-1e30, 1e30, nullable=True),
            "unit": _text(),
            "source_id": _source(ids),
            "confidence": _text(isin={"verbatim", "derived", "digest"}),
            "note": _text(nullable=True),
        },
        strict=True,
    )


def _cloud_prices_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "snapshot_id": _text(regex=ID, unique=True),
            "gpu_id": _text(isin=_ids("gpus")),
            "period": _text(regex=DATE),
            "low_usd_per_gpu_hour": _num(0.01, 1_000),
            "high_usd_per_gpu_hour": _num(0.01, 1_000),
            "what": _text(),
            "source_id": _source(ids),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: d["low_usd_per_gpu_hour"] <= d["high_usd_per_gpu_hour"],
                         error="low_usd_per_gpu_hour must not exceed high_usd_per_gpu_hour")],
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
            "unit": _text(),
            "source_id": _source(ids),
            "note": _text(nullable=True),
        },
        strict=True,
    )


def _llama3_interruptions_schema(ids) -> pa.DataFrameSchema:
    categories = {"GPU", "Host", "Network", "Dependency", "Unplanned maintenance", "Unknown"}
    return pa.DataFrameSchema(
        {
            "component": _text(unique=True),
            "category": _text(isin=categories),
            "count": _int(0, 100_000),
            "pct_printed": _num(0, 100),  # percent as printed by the source, not recomputed
            "source_id": _source(ids),
            "read_via": _text(nullable=True, isin=ids),
        },
        strict=True,
    )


def _reliability_facts_schema(ids) -> pa.DataFrameSchema:
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
            "source_id": _source(ids),
            "read_via": _text(nullable=True, isin=ids),
            "note": _text(nullable=True),
        },
        checks=[pa.Check(lambda d: (d["relation"] != "range") | (d["value_high"] >= d["value"]),
                         error="a range needs value_high >= value"),
                pa.Check(lambda d: (d["evidence"] != "secondary") | d["read_via"].notna()
                         | d["note"].notna(), error="secondary evidence needs read_via or a note")],
        strict=True,
    )


CLAIM_STATUSES = ("reproduced", "corrected", "context", "unverifiable", "pending")


def _claims_schema(ids) -> pa.DataFrameSchema:
    return pa.DataFrameSchema(
        {
            "claim_id": _text(regex=r"^S[0-9]{2}$", unique=True),
            "seed_file": _text(),
            "claim": _text(),
            "seed_value": _text(nullable=True),
            "fact_id": _text(nullable=True, isin=_ids("report_facts", "fact_id")),
            "source_id": _source(ids),
            "section": _text(regex=ID),
            "results_key": _text(nullable=True, regex=ID),
            "tolerance_rel": _num(0, 1, nullable=True),
            "status": _text(isin=CLAIM_STATUSES),
            "explanation": _text(),
        },
        checks=[pa.Check(lambda d: ~d["status"].isin(["reproduced", "corrected"])
                         | (d["results_key"].notna() & d["tolerance_rel"].notna() & d["fact_id"].notna()),
                         error="a reproduced or corrected claim needs fact_id, results_key and tolerance_rel")],
        strict=True,
    )


SCHEMAS = {
    "sources": _sources_schema,
    "gpus": _gpus_schema,
    "models": _models_schema,
    "benchmarks": _benchmarks_schema,
    "training_runs": _training_runs_schema,
    "report_facts": _report_facts_schema,
    "claims": _claims_schema,
    "cloud_prices": _cloud_prices_schema,
    "seed_numbers": _seed_numbers_schema,
    "llama3_interruptions": _llama3_interruptions_schema,
    "reliability_facts": _reliability_facts_schema,
}
# Tables whose validation reads other tables (foreign keys); a section that reads one of these
# depends on the others too, so its cache key must hash them all.
DEPENDS = {"gpus": ("sources",), "models": ("sources",), "training_runs": ("sources", "gpus"),
           "benchmarks": ("sources", "models", "gpus"), "report_facts": ("sources",),
           "claims": ("sources", "report_facts"), "sources": (),
           "cloud_prices": ("sources", "gpus"), "seed_numbers": ("sources",),
           "llama3_interruptions": ("sources",), "reliability_facts": ("sources",)}
KEYS = {"sources": "source_id", "gpus": "gpu_id", "models": "model_id",
        "training_runs": "run_id", "report_facts": "fact_id", "claims": "claim_id",
        "cloud_prices": "snapshot_id", "seed_numbers": "number_id",
        "llama3_interruptions": "component", "reliability_facts": "item_id"}


def data_dir() -> Path:
    """The data folder: ``data/`` beside the package, or ``$ANALYSIS_DATA_DIR`` (tests use this)."""
    return Path(os.environ.get("ANALYSIS_DATA_DIR", DATA_DIR))


def table_path(name: str) -> Path:
    """Path of table ``name`` (e.g. ``"gpus"`` -> ``data/gpus.csv``)."""
    if name not in SCHEMAS:
        raise DataError(f"unknown table '{name}'; known tables: {', '.join(SCHEMAS)}")
    return data_dir() / f"{name}.csv"


def table_closure(names) -> list[str]:
    """``names`` plus every table their validation reads, sorted."""
    todo, seen = list(names), set()
    while todo:
        name = todo.pop()
        if name not in seen:
            table_path(name)
            seen.add(name)
            todo.extend(DEPENDS[name])
    return sorted(seen)


def _check_allowed(name: str) -> None:
    allowed = os.environ.get("ANALYSIS_ALLOWED_TABLES")
    if allowed is not None and name not in allowed.split(","):
        raise DataError(
            f"table '{name}' is read but not declared by this section (declared: {allowed or 'none'}); "
            "add it to the section's tables in analysis/sections.py so its cache key covers it")


def _ids(name: str, column: str | None = None) -> list[str]:
    return _validated(name, str(data_dir()))[column or KEYS[name]].tolist()


def _format_failures(path: Path, failures: pd.DataFrame) -> str:
    lines, seen_columns = [], set()
    rows = failures.to_dict("records")
    # A value that cannot be coerced makes every later check on its column fail as a whole;
    # report the row-level failure and drop the column-wide echo.
    row_level = {r["column"] for r in rows if r["index"] is not None and not pd.isna(r["index"])}
    for r in rows:
        column = r["column"] if isinstance(r["column"], str) else None
        has_row = r["index"] is not None and not pd.isna(r["index"])
        check = str(r["check"]).replace("coerce_dtype", "type").replace("greater_than_or_equal_to", ">=")
        if has_row:
            if str(r["check"]).startswith("dtype(") and column in row_level:
                continue
            row = int(r["index"])
            where = f"{path}:{row + 2}: row {row + 1}" + (f", column '{column}'" if column else "")
            lines.append(f"{where}: value {r['failure_case']!r} fails {check}")
        elif column not in row_level and column not in seen_columns:
            seen_columns.add(column)
            lines.append(f"{path}: column '{column or r['failure_case']}': {check} ({r['failure_case']})")
    shown = lines[:MAX_ERRORS_SHOWN]
    more = f"\n  ... and {len(lines) - len(shown)} more" if len(lines) > len(shown) else ""
    return "invalid data:\n  " + "\n  ".join(shown) + more


@functools.lru_cache(maxsize=None)
def _validated(name: str, folder: str) -> pd.DataFrame:
    path = Path(folder) / f"{name}.csv"
    if not path.is_file():
        raise DataError(f"{path}: data file not found")
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""], skipinitialspace=False)
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot parse CSV: {exc}") from exc
    source_ids = None if name == "sources" else _ids("sources")
    schema = SCHEMAS[name](source_ids)
    try:
        table = schema.validate(raw, lazy=True)
    except pa.errors.SchemaErrors as exc:
        raise DataError(_format_failures(path, exc.failure_cases)) from None
    for column in table.columns:
        if column in ("tied_embeddings",):
            table[column] = table[column] == "true"
    return table


def load_table(name: str) -> pd.DataFrame:
    """Return a validated copy of table ``name`` from the data folder."""
    path = table_path(name)
    _check_allowed(name)
    return _validated(name, str(path.parent)).copy()


def row(name: str, key: str) -> pd.Series:
    """One row of a keyed table (``gpus``, ``models``, ...) by its id, with a clear error if absent."""
    table = load_table(name)
    column = KEYS[name]
    match = table[table[column] == key]
    if match.empty:
        raise DataError(f"{table_path(name)}: no row with {column} = '{key}'; "
                        f"known: {', '.join(table[column])}")
    return match.iloc[0]


def clear_cache() -> None:
    """Forget validated tables (tests that edit data files call this)."""
    _validated.cache_clear()


def fact(fact_id: str) -> float:
    """The value of a report fact (``data/report_facts.csv``), e.g. ``fact("B04")``."""
    return float(row("report_facts", fact_id)["value"])
