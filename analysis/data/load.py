"""Load and validate the tables in ``data/``. The only module that reads a CSV.

Each table has a declared pandera schema (types, units in column names, ranges, a required
``source_id`` that must exist in ``sources.csv``). A bad row raises :class:`DataError`, whose
message names the file, the line and the column. Tables are validated once per process and
cached; callers get copies.

When the book pipeline runs a section it sets ``ANALYSIS_ALLOWED_TABLES`` to the tables that the
section declares (see :mod:`analysis.chapters.registry`). Reading any other table then fails loudly, so the
section's cache key (which hashes exactly the declared files) can never miss a dependency.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import importlib.metadata
import io
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.data import cache, provenance
from analysis.data.positions import cell_position, line_of, record_lines
from analysis.data.schemas import CLAIM_STATUSES, DEPENDS, FILES, KEYS, OPTIONAL, SCHEMAS, UNITS  # noqa: F401 (re-exported)
from analysis.errors import InputError, clip
from analysis.params.grammar import why_not_decimal

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = REPO_ROOT / "data"

MAX_ERRORS_SHOWN = 12
# A column of these names holds another table's keys: a bad value is named as missing from there.
FOREIGN_KEYS = {"source_id": "sources", "gpu_id": "gpus", "model_id": "models", "fact_id": "report_facts"}
# Words a reader understands, for pandera's internal check names.
CHECK_WORDS = {"column_in_schema": "is not a column of this table", "column_in_dataframe": "is missing",
               "coerce_dtype": "type", "greater_than_or_equal_to": ">=", "less_than_or_equal_to": "<=",
               "field_uniqueness": "must be unique", "multiple_fields_uniqueness": "must be unique together",
               "str_matches": "must match", "not_nullable": "must not be empty"}
NOT_A_NUMBER = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity", "na", "n/a",
                "null", "none"}


class DataError(InputError):
    """A data file is missing or a row breaks its table's schema."""


def data_dir() -> Path:
    """The data folder: ``data/`` beside the package, or ``$ANALYSIS_DATA_DIR`` (tests use this)."""
    return Path(os.environ.get("ANALYSIS_DATA_DIR", DATA_DIR))


def table_file(name: str) -> str:
    """Path of table ``name`` inside the data folder: ``<name>.csv``, or its entry in ``FILES``
    (``"measured"`` -> ``measured/benchmarks_measured.csv``)."""
    if name not in SCHEMAS:
        raise DataError(f"unknown table '{name}'; known tables: {', '.join(SCHEMAS)}")
    return FILES.get(name, f"{name}.csv")


def table_path(name: str) -> Path:
    """Path of table ``name`` (e.g. ``"gpus"`` -> ``data/gpus.csv``)."""
    return data_dir() / table_file(name)


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
    """Raise unless table ``name`` may be read here: a chapter's kernel may read only the tables
    its section declares (``ANALYSIS_ALLOWED_TABLES``), which its cache key covers."""
    allowed = os.environ.get("ANALYSIS_ALLOWED_TABLES")
    if allowed is not None and name not in allowed.split(","):
        raise DataError(
            f"table '{name}' is read but not declared by this section (declared: {allowed or 'none'}); "
            "add it to the section's tables in analysis/chapters/registry.py so its cache key covers it")


def _ids(name: str, column: str | None = None) -> list[str]:
    return _validated(name, str(data_dir()))[column or KEYS[name]].tolist()


def _check_words(check: str) -> str:
    for internal, words in CHECK_WORDS.items():
        check = check.replace(internal, words)
    return check


def _column_name(column) -> str:
    text = str(column)
    if text.startswith("Unnamed: "):  # pandas's name for a header cell left empty
        return f"(column {int(text.split()[1]) + 1}, whose header is empty)"
    return clip(text, 60)


def _format_failures(path: Path, failures: pd.DataFrame, lines: list[int] | None = None) -> str:
    out, seen_columns, seen_rows = [], set(), set()
    # Column checks first; a check across columns fails once per column of the row: report it once.
    rows = sorted(failures.to_dict("records"), key=lambda r: r.get("schema_context") == "DataFrameSchema")
    # A value that cannot be coerced makes every later check on its column fail as a whole;
    # report the row-level failure and drop the column-wide echo.
    row_level = {r["column"] for r in rows if r["index"] is not None and not pd.isna(r["index"])}
    for r in rows:
        column = r["column"] if isinstance(r["column"], str) else None
        has_row = r["index"] is not None and not pd.isna(r["index"])
        check = _check_words(str(r["check"]))
        table = FOREIGN_KEYS.get(column or "")
        if table and check.startswith("isin(") and f"{table}.csv" != path.name:
            check = f"is not a {column} in {path.parent / (table + '.csv')}"
        if has_row:
            if str(r["check"]).startswith("dtype(") and column in row_level:
                continue
            row = int(r["index"])
            if r.get("schema_context") == "DataFrameSchema":
                if (row, check) not in seen_rows:
                    seen_rows.add((row, check))
                    out.append(f"{path}:{line_of(lines, row)}: row {row + 1}: fails {check}")
                continue
            where = f"{path}:{line_of(lines, row)}: row {row + 1}" + (f", column '{column}'" if column else "")
            verb = "" if check.startswith("is not") else "fails "
            out.append(f"{where}: value {clip(r['failure_case'])} {verb}{check}")
        elif column not in row_level and column not in seen_columns:
            seen_columns.add(column)
            name = _column_name(column or r["failure_case"])
            if "is not a column" in check or "is missing" in check:
                out.append(f"{path}: column {name} {check}")
            else:
                out.append(f"{path}: column {name}: {check} ({clip(r['failure_case'])})")
    shown = out[:MAX_ERRORS_SHOWN]
    more = f"\n  ... and {len(out) - len(shown)} more" if len(out) > len(shown) else ""
    return "invalid data:\n  " + "\n  ".join(shown) + more


def read_raw(path: Path) -> pd.DataFrame:
    """A CSV file as text cells (empty cells are missing), or a DataError naming the file. The
    line each row starts on is kept in ``attrs["lines"]`` for messages."""
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""], skipinitialspace=False)
        if isinstance(path, (str, os.PathLike)):  # callers also pass text buffers
            raw.attrs["lines"] = record_lines(Path(path))
        return raw
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError, csv.Error) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DataError(f"{path}: cannot parse CSV: {reason}") from None
    except OSError as exc:  # no permission to read it: the file is the user's to fix, not a folder to write
        raise DataError(f"{path}: cannot read the data file: {exc.strerror or exc}") from None


def validate_frame(name: str, raw: pd.DataFrame, path: Path) -> pd.DataFrame:
    """Validate text cells ``raw`` against table ``name``'s schema; errors name ``path``, line and
    column as if ``raw`` were that file (row 0 is line 2). Writers call this before writing."""
    from pandera.errors import SchemaErrors  # noqa: PLC0415 (pandera loads only when a table changed)

    lines = raw.attrs.get("lines")
    _refuse_literal_not_a_number(raw, path, lines)
    schema = SCHEMAS[name](_ids)
    _refuse_non_decimal(raw, path, lines, [c for c, col in schema.columns.items()
                                           if pd.api.types.is_numeric_dtype(col.dtype.type)])
    try:
        return schema.validate(raw, lazy=True)
    except SchemaErrors as exc:
        raise DataError(_format_failures(path, exc.failure_cases, lines)) from None


def _where(path: Path, lines: list[int] | None, raw: pd.DataFrame, row: int, column) -> str:
    """``FILE:LINE:COLUMN: row N, column 'NAME'`` of a cell (its line and character column in the
    file when ``raw`` was read from it, else the line it would be on)."""
    position = line_of(lines, row)
    if lines and isinstance(path, Path) and column in raw.columns:
        found = cell_position(path, position, list(raw.columns).index(column))
        position = f"{found[0]}:{found[1]}" if found else position
    return f"{path}:{position}: row {row + 1}, column {_column_name(column)}"


def _refuse_literal_not_a_number(raw: pd.DataFrame, path: Path, lines: list[int] | None) -> None:
    """Only an empty cell means "missing": a literal NaN (or inf) would be read as a number and
    slip past every nullable column's checks."""
    for column in raw.columns:
        cells = raw[column].dropna().astype(str).str.strip().str.lower()
        bad = cells[cells.isin(NOT_A_NUMBER)]
        if len(bad):
            row = int(bad.index[0])
            raise DataError(f"{_where(path, lines, raw, row, column)}: {clip(raw[column][row])} is not a value; "
                            "leave the cell empty for missing")


def _refuse_non_decimal(raw: pd.DataFrame, path: Path, lines: list[int] | None, numeric: list[str]) -> None:
    """A number in a data table is written as on the command line and in scenario files
    (:mod:`analysis.params.grammar`): ASCII decimal. pandas would read ``1_000`` as 1000 and
    Arabic-Indic digits as their value; a NUL byte or any other character is refused with the
    grammar's reason, at FILE:LINE:COLUMN of its cell, every such cell at once."""
    found = []
    for column in [c for c in numeric if c in raw.columns]:
        for row, cell in raw[column].dropna().items():
            why = why_not_decimal(str(cell))
            if why is not None:
                found.append(f"{_where(path, lines, raw, int(row), column)}: {clip(cell)} is not a decimal number ({why})")
    if found:
        more = f"\n  ... and {len(found) - MAX_ERRORS_SHOWN} more" if len(found) > MAX_ERRORS_SHOWN else ""
        raise DataError("invalid data:\n  " + "\n  ".join(found[:MAX_ERRORS_SHOWN]) + more)


def schema_columns(name: str) -> list[str]:
    """The columns of table ``name``, in order."""
    return list(SCHEMAS[name](lambda *_: []).columns)


# Validated tables are also kept on disk between processes (pandera takes about a second to
# import and validate them all; the cached JSON loads in milliseconds), as data only: each column's
# dtype and values in JSON, never a pickle. An entry (analysis.data.cache) records what it was validated
# from: the bytes of the table and of every table its validation reads, the validating code and
# the library versions; a load compares them all and validates afresh, saying so, on any mismatch.
# ANALYSIS_TABLE_CACHE=0 turns it off; a folder that cannot be read or written is bypassed (one line).
TABLE_CACHE_DIR = REPO_ROOT / "_build" / "cache" / "tables"
TABLE_FILE = "table.json"


@functools.cache
def _validating_code() -> dict:
    """The hashes of the code that validates a table, and the versions of the libraries it uses."""

    schemas = sorted(Path(__file__).with_name("schemas").glob("*.py"))  # the schemas package, by name
    code = [Path(__file__), Path(cache.__file__), Path(__file__).parents[1] / "errors.py", *schemas]
    return {"pandas": pd.__version__, "pandera": importlib.metadata.version("pandera"),
            "code": cache.file_hashes(code, REPO_ROOT)}


def _table_inputs(name: str, folder: str) -> dict:

    data = cache.file_hashes([Path(folder) / table_file(dep) for dep in table_closure([name])], Path(folder))
    return {"table": name, **_validating_code(), "data": data}


def table_to_json(table: pd.DataFrame) -> bytes:
    """A validated table as data: ``[[column, dtype, values]]`` (missing values as null)."""
    columns = [[str(c), str(table[c].dtype), [None if v is pd.NA or v != v else v for v in table[c].tolist()]]
               for c in table.columns]
    return json.dumps(columns, allow_nan=False, ensure_ascii=False).encode()


def table_from_json(data: bytes) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(values, dtype=dtype) for c, dtype, values in json.loads(data)})


@functools.cache
def _validated(name: str, folder: str) -> pd.DataFrame:

    if os.environ.get("ANALYSIS_TABLE_CACHE", "1") == "0":
        return _validate_file(name, folder)
    inputs = _table_inputs(name, folder)
    # Inside a chapter's kernel a message would land in the executed notebook: stay quiet there.
    report = None if "ANALYSIS_RESULTS_DIR" in os.environ else cache.say
    files = cache.read(TABLE_CACHE_DIR, name, inputs, f"table {name}", report)
    if files is not None:
        with contextlib.suppress(ValueError, TypeError, KeyError):
            return table_from_json(files[TABLE_FILE])
    table = _validate_file(name, folder)
    cache.write(TABLE_CACHE_DIR, name, inputs, {TABLE_FILE: table_to_json(table)}, report=report)
    return table


def _validate_file(name: str, folder: str) -> pd.DataFrame:
    path = Path(folder) / table_file(name)
    if os.path.exists(path) and not path.is_file():  # a FIFO would block the reader, /dev/zero never end
        raise DataError(f"{path}: not a regular file; a data table is a CSV file")
    if not path.is_file() and name in OPTIONAL:
        raw = pd.read_csv(io.StringIO(",".join(schema_columns(name)) + "\n"), dtype=str)  # header only
    elif not path.is_file():
        raise DataError(f"{path}: data file not found")
    else:
        raw = read_raw(path)
        if raw.empty and name not in OPTIONAL:
            raise DataError(f"{path}: has a header but no rows")
    table = validate_frame(name, raw, path)
    table.attrs.clear()  # the line numbers of the raw file: for messages only, and not cached
    for column in table.columns:
        if column in ("tied_embeddings",):
            table[column] = table[column] == "true"
    return table


def load_table(name: str) -> pd.DataFrame:
    """Return a validated copy of table ``name`` from the data folder."""
    table_path(name)
    _check_allowed(name)
    return _validated(name, str(data_dir())).copy()


def matching_positions(table: pd.DataFrame, where: dict) -> np.ndarray:
    """Positions of the rows of ``table`` whose columns equal every ``column: value`` of ``where``
    (a missing value matches nothing): one mask, where a filtered copy per criterion costs ms each."""
    keep = np.ones(len(table), dtype=bool)
    for column, value in where.items():
        keep &= table[column].eq(value).fillna(False).to_numpy(dtype=bool)
    return np.flatnonzero(keep)


def row(name: str, key: str) -> pd.Series:
    """One row of a keyed table (``gpus``, ``models``, ...) by its id, with a clear error if absent.
    A report fact, or a row whose source is a report's, is noted as read (:mod:`analysis.data.provenance`)."""
    table_path(name)
    _check_allowed(name)
    folder = str(data_dir())
    position = _row_positions(name, folder).get(key)
    if position is None:
        column = KEYS[name]
        raise DataError(f"{table_path(name)}: no row with {column} = '{key}'; "
                        f"known: {', '.join(_validated(name, folder)[column])}")
    found = _validated(name, folder).iloc[position].copy()  # a copy: the cached table stays as read
    provenance.note_source(found.get("source_id"))
    if name == "report_facts":
        provenance.note(f"fact:{key}")
    elif found.get("source_id") in provenance.REPORT_SOURCES:
        provenance.note(f"row:{name}:{key}")
    return found


@functools.cache
def _row_positions(name: str, folder: str) -> dict[str, int]:
    """Row position of each id of keyed table ``name`` (the first, where an id repeats)."""
    positions: dict[str, int] = {}
    for i, key in enumerate(_validated(name, folder)[KEYS[name]]):
        positions.setdefault(key, i)
    return positions


_DERIVED: list = []  # the memo of each @derived function (its cache_clear)


def derived(fn):
    """Memoize ``fn``, a pure function of the data tables (and of hashable arguments): computed
    once per data folder and allowed-table set, until :func:`clear_cache`. A memo hit notes the
    reads of the first call again (:func:`analysis.data.provenance.memoized`). A DataFrame comes back
    as a copy, so a caller that edits it changes no one else's."""

    @provenance.memoized
    def computed(args, folder, allowed):
        return fn(*args)

    _DERIVED.append(computed.cache_clear)

    @functools.wraps(fn)
    def wrapper(*args):
        value = computed(args, str(data_dir()), os.environ.get("ANALYSIS_ALLOWED_TABLES"))
        return value.copy() if isinstance(value, pd.DataFrame) else value
    return wrapper


def clear_cache() -> None:
    """Forget validated tables and what was derived from them (tests that edit data files call this)."""
    _validated.cache_clear()
    _row_positions.cache_clear()
    for forget in _DERIVED:
        forget()


def fact(fact_id: str) -> float:
    """The value of a report fact (``data/report_facts.csv``), e.g. ``fact("B04_annual_twh")``, read
    as an input: the result it feeds rests on the report's number (noted as ``fact:<id>``)."""
    return float(row("report_facts", fact_id)["value"])


def framing(fact_id: str) -> float:
    """The value of a report fact read only to frame the question the book answers (which run,
    how many tokens, how many GPUs), not as an input a check could agree by: noted as
    ``frame:<id>``, which a result reproduced independently may carry."""
    facts = load_table("report_facts").set_index("fact_id")
    if fact_id not in facts.index:
        row("report_facts", fact_id)  # raises, naming the file and the known ids
    provenance.note(f"frame:{fact_id}")
    return float(facts.loc[fact_id, "value"])
