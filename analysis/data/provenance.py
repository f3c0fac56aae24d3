"""What each result reads from the reports, recorded while a chapter computes.

A ledger row may call itself *reproduced independently* only when no number from the report lies
on its computation's path. Nobody types that path by hand: while a chapter computes, every read is
noted here, and :meth:`analysis.chapters.ChapterResults.add` attaches to each new result what has
been noted so far (:func:`snapshot`). A note is a short tag:

- ``fact:<id>``: a report fact read as an input (:func:`analysis.data.load.fact`, or
  ``row("report_facts", id)``);
- ``frame:<id>``: a report fact read only to frame the question (which run, how many tokens or
  GPUs; :func:`analysis.data.load.framing`), which an independent result may do;
- ``row:<table>:<key>``: a data row whose ``source_id`` is one of :data:`REPORT_SOURCES`;
- ``src:<source_id>``: the source of any data row read (:func:`note_rows`, ``row(table, id)``), a
  report's or not, so a fact computed from cells of its own source (NVIDIA's table a ratio was
  formed from) is known to quote it, not to reproduce it;
- ``param:<name>``: a parameter the chapter read (:class:`analysis.params.parameters.Parameters`); when the value is the
  default and that default is a report fact (``Param.fact``), the fact is noted too;
- reading another result (upstream or the chapter's own) notes everything that result read.

A result carries every read made before it in its chapter, in time order. That over-counts (a
report number read early is attached to every later result) but cannot miss a read that feeds it,
since a value is always computed before it is recorded. Code that only compares with the report,
and feeds nothing computed later, runs inside :func:`aside`: its reads are attached to the results
added inside the block and dropped at its end. A test (tests/test_provenance.py) checks the claim
that nothing is missed: it moves every report number a little and asserts that every result that
moves recorded a report read.
"""

from __future__ import annotations

import functools
from contextlib import contextmanager

# The sources whose numbers the ledger checks: SemiAnalysis's two reports and its 2024 energy
# article, and the two second-hand seeds. A data row citing one of them is the report's number.
REPORT_SOURCES = frozenset({"sa_gb200_2025", "sa_100k_2024", "sa_energy_2024", "seed_000", "seed_001"})
KINDS = ("fact", "frame", "row", "param", "src")


class Recorder:
    """The reads of one chapter's computation: the main list, and one set per open :func:`aside`."""

    def __init__(self) -> None:
        self.reads: set[str] = set()
        self.asides: list[set[str]] = []

    def note(self, tags) -> None:
        (self.asides[-1] if self.asides else self.reads).update(tags)

    def snapshot(self) -> frozenset[str]:
        return frozenset(self.reads.union(*self.asides))


_STACK: list[Recorder] = []


def note(*tags: str) -> None:
    """Record ``tags`` in every computation under way (a chapter computed inside another's notes
    into both, so nothing it reads escapes the outer one)."""
    for recorder in _STACK:
        recorder.note(tags)


# A data row's key (:func:`_row_key`): its id column, else these parts joined.
ID_COLUMNS = ("row_id", "run_id", "number_id", "snapshot_id", "component_id", "anchor_id", "item_id")
PART_COLUMNS = ("model_id", "gpu_id", "precision", "gpus", "date")


def note_source(source_id) -> None:
    """Record that a row of ``source_id`` was read (``src:<source_id>``), whoever published it."""
    if _STACK and isinstance(source_id, str):
        note(f"src:{source_id}")


def note_rows(table: str, rows) -> None:
    """Record the source of every row among ``rows`` (a DataFrame or one row, a Series), and the
    rows whose ``source_id`` is a report's, keyed by ``key`` columns where the table has them, else
    by the row's position."""
    if not _STACK or rows is None:
        return
    if not hasattr(rows, "columns"):  # one row: no frame is built around it
        note_source(rows.get("source_id"))
        if rows.get("source_id") in REPORT_SOURCES:
            note(f"row:{table}:{_row_key(rows.to_dict(), rows.name)}")
        return
    if "source_id" not in rows.columns:
        return
    # plain arrays, not a filtered frame: this runs for every benchmark row a chapter picks
    sources = rows["source_id"].to_numpy(dtype=object)
    note(*(f"src:{s}" for s in set(sources) if isinstance(s, str)))
    hits = [i for i, source in enumerate(sources) if source in REPORT_SOURCES]
    if hits:
        columns = {c: rows[c].to_numpy(dtype=object) for c in (*ID_COLUMNS, *PART_COLUMNS) if c in rows.columns}
        note(*(f"row:{table}:{_row_key({c: v[i] for c, v in columns.items()}, rows.index[i])}" for i in hits))


def _row_key(r: dict, name) -> str:
    """A readable key of a data row (``r``, its values by column; ``name``, its index label): its
    id column if it has one, else model/GPU/precision/size/date, else its label."""
    for column in ID_COLUMNS:
        if isinstance(r.get(column), str):
            return r[column]
    parts = [str(r[c]) for c in PART_COLUMNS if c in r]
    return "/".join(parts) if parts else str(name)


def snapshot() -> frozenset[str] | None:
    """What the innermost computation under way has read so far; None outside any computation."""
    return _STACK[-1].snapshot() if _STACK else None


@contextmanager
def recording():
    """Record the reads of one chapter's computation (``analysis.chapters.compute_section``)."""
    recorder = Recorder()
    _STACK.append(recorder)
    try:
        yield recorder
    finally:
        _STACK.remove(recorder)


def begin() -> Recorder:
    """Start recording for the rest of a notebook kernel, which computes one chapter
    (``analysis.page.notebook.start``); any recorder left by an earlier chapter is dropped."""
    _STACK[:] = [Recorder()]
    return _STACK[0]


def end() -> None:
    """Stop every recording under way: the kernel's (or a test's) chapter is done, and what runs
    next in this process records nothing unless it starts its own computation."""
    _STACK.clear()


@contextmanager
def aside():
    """A block that only sets results beside the report's figures: what it reads is attached to
    the results added inside it and forgotten at its end. Its values must feed nothing computed
    after it (tests/test_provenance.py moves the report's numbers and checks)."""
    recorders = list(_STACK)
    for recorder in recorders:
        recorder.asides.append(set())
    try:
        yield
    finally:
        for recorder in recorders:
            recorder.asides.pop()


def memoized(fn):
    """Memoize ``fn`` (hashable arguments) with what it reads: the first call records its reads,
    and every later call notes them again, so a result computed after a memo hit (a second chapter
    in one process, ``python -m analysis run`` computing a need first) carries the same reads as
    one computed in a fresh kernel. A call that raises is not memoized. ``fn.cache_clear()``
    forgets."""
    memo: dict = {}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        key = (args, tuple(sorted(kwargs.items())))
        if key not in memo:
            recorder = Recorder()
            _STACK.append(recorder)
            try:
                value = fn(*args, **kwargs)
            finally:
                _STACK.remove(recorder)
            memo[key] = (value, recorder.snapshot())
        value, reads = memo[key]
        note(*sorted(reads))
        return value

    wrapper.cache_clear = memo.clear
    return wrapper


def report_reads(reads) -> list[str]:
    """The report numbers among ``reads``: facts read as inputs and report rows, sorted."""
    return sorted(t.split(":", 1)[1] for t in reads or () if t.startswith(("fact:", "row:")))


def framing_reads(reads) -> list[str]:
    """The report facts among ``reads`` that only frame the question, sorted."""
    return sorted(t.split(":", 1)[1] for t in reads or () if t.startswith("frame:"))


def params_read(reads) -> list[str]:
    """The parameters among ``reads``, sorted."""
    return sorted(t.split(":", 1)[1] for t in reads or () if t.startswith("param:"))


def sources_read(reads) -> list[str]:
    """The sources whose rows were read, sorted (``src:`` tags: a report's or any other)."""
    return sorted(t.split(":", 1)[1] for t in reads or () if t.startswith("src:"))
