"""Pure functions of the data whose tables outlive the process: :func:`stored` is
:func:`analysis.data.load.derived` (computed once per process) plus a cache entry on disk
(``_build/cache/derived/<name>-<key>/``, :mod:`analysis.data.cache`), so a fresh process (``run plan``,
a chapter's kernel, a test's command) reads the table instead of computing it again.

The plan chapter's backtest is the case in point: a leave-one-run-out fit of every model variant,
about three seconds, that no parameter reaches. An entry holds the table as data (JSON with each
column's dtype, as the table cache stores tables), the reads the computation noted
(:mod:`analysis.data.provenance`), which a hit notes again, and the tables it read, which a hit checks
against the tables a chapter's kernel may read, as the computation would have. Its manifest
records the function and the hashes of every data file, of the package's code and of the lock
file; a load compares them all and recomputes on any mismatch, saying so in one line. A table that would
not come back from JSON exactly (an index, a type JSON does not keep) is never stored.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os

import pandas as pd

from analysis.data import cache, provenance
from analysis.data.load import REPO_ROOT, TABLES_READ, check_allowed, data_dir, derived, table_from_json, table_to_json

STORE_DIR = REPO_ROOT / "_build" / "cache" / "derived"
FRAME, READS = "frame.json", "reads.json"
NAMES: set[str] = set()  # every stored function's entry name (what the build's prune keeps)


def entry_inputs(name: str) -> dict:
    """What the entry ``name`` is made from, now."""
    return {"function": name, **cache.package_hashes(REPO_ROOT), "data": cache.folder_hashes(data_dir())}


def stored(fn):
    """Keep ``fn()`` (no arguments, a DataFrame) in memory and on disk (see the module's text);
    ``ANALYSIS_TABLE_CACHE=0`` leaves the disk out."""
    name = f"{fn.__module__.removeprefix('analysis.')}.{fn.__qualname__}"
    NAMES.add(name)

    @functools.wraps(fn)
    def computed():
        return kept(name, {}, fn)

    return derived(computed)


def kept(name: str, key: dict, make) -> pd.DataFrame:
    """``make()``, a DataFrame that is a pure function of the data, the code and ``key`` (plain
    JSON: the scenario it was computed under, say), read from the entry ``name`` when that holds
    for the inputs of now, else computed and stored. Put ``name`` in :data:`NAMES`, or the build's
    prune removes its entries."""
    if os.environ.get("ANALYSIS_TABLE_CACHE", "1") == "0":
        return make()
    inputs = {**entry_inputs(name), **({"key": json.loads(json.dumps(key, sort_keys=True, default=repr))} if key else {})}
    # Inside a chapter's kernel a message would land in the executed notebook: stay quiet there.
    report = None if "ANALYSIS_RESULTS_DIR" in os.environ else cache.say
    files = cache.read(STORE_DIR, name, inputs, f"stored table {name}", report)
    entry = None if files is None else _from_files(files)
    if entry is not None:
        table, tables, reads = entry
        check_allowed(tables)  # raises as the computation would have
        provenance.note(*reads)
        return table
    seen: set[str] = set()
    TABLES_READ.append(seen)
    try:
        with provenance.recording() as recorder:
            table = make()
    finally:
        TABLES_READ.remove(seen)
    files = _as_files(table, {"reads": sorted(recorder.snapshot()), "tables": sorted(seen)})
    if files is not None:
        with contextlib.suppress(OSError):  # a read-only _build: computed, not kept
            cache.write(STORE_DIR, name, inputs, files)
    return table


def _from_files(files: dict[str, bytes]):
    """(table, tables read, reads noted) of an entry's files, or None if they do not parse."""
    with contextlib.suppress(ValueError, TypeError, KeyError):
        read = json.loads(files[READS])
        return table_from_json(files[FRAME]), [str(t) for t in read["tables"]], [str(r) for r in read["reads"]]
    return None


def _as_files(table, read: dict) -> dict[str, bytes] | None:
    """The entry's files, or None when ``table`` would not come back from them as it is."""
    if not isinstance(table, pd.DataFrame) or not isinstance(table.index, pd.RangeIndex):
        return None
    try:
        data = table_to_json(table)
    except (TypeError, ValueError):  # an object JSON cannot hold, or inf/NaN in an object column
        return None
    back = table_from_json(data)
    if not (back.equals(table) and list(back.dtypes) == list(table.dtypes)):
        return None
    return {FRAME: data, READS: json.dumps(read).encode()}
