"""Stored tables (analysis.build.stored): a fresh process reads what an earlier one computed, with the
same reads noted, and an entry that is tampered with, made for other data or unreadable as a
table is recomputed with one line."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from analysis.build import stored
from analysis.chapters import mlperf, plan_backtest
from analysis.data import cache, provenance
from analysis.data.load import clear_cache, load_table

CALLS = []


def _table() -> pd.DataFrame:
    CALLS.append(1)
    provenance.note("fact:test_fact")
    gpus = load_table("gpus")
    return pd.DataFrame({"gpu_id": gpus["gpu_id"], "peak": gpus[gpus.columns[1]].astype(str)})


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(stored, "STORE_DIR", tmp_path / "derived")
    CALLS.clear()
    clear_cache()
    yield tmp_path / "derived"
    clear_cache()


def _read(fn):
    clear_cache()  # as a fresh process would: nothing in memory
    with provenance.recording() as recorder:
        table = fn()
    return table, recorder.snapshot()


def test_a_second_process_reads_the_table_and_its_reads(store):
    fn = stored.stored(_table)
    first, reads = _read(fn)
    second, reads_again = _read(fn)
    assert len(CALLS) == 1 and second.equals(first) and list(second.dtypes) == list(first.dtypes)
    assert reads == reads_again and "fact:test_fact" in reads
    (entry,) = store.iterdir()
    assert json.loads((entry / stored.READS).read_text()) == {"reads": sorted(reads), "tables": ["gpus"]}


def test_a_kernel_that_may_not_read_the_table_is_refused_as_if_it_computed_it(store, monkeypatch):
    from analysis.data.load import DataError

    fn = stored.stored(_table)
    _read(fn)
    monkeypatch.setenv("ANALYSIS_ALLOWED_TABLES", "models")
    with pytest.raises(DataError, match="table 'gpus' is read but not declared"):
        _read(fn)
    assert len(CALLS) == 1


def test_a_tampered_entry_is_recomputed_with_one_line(store, capsys):
    fn = stored.stored(_table)
    good, _ = _read(fn)
    (entry,) = store.iterdir()
    frame = json.loads((entry / stored.FRAME).read_text())
    frame[0][2][0] = "H999"  # a different first GPU id
    (entry / stored.FRAME).write_text(json.dumps(frame))
    again, _ = _read(fn)
    err = capsys.readouterr().err
    assert len(CALLS) == 2 and again.equals(good)
    assert err.count("recomputing") == 1 and "frame.json changed since it was written" in err


def test_an_entry_for_other_data_is_not_read(store, data_copy):
    fn = stored.stored(_table)
    _read(fn)
    (data_copy / "README.md").write_text("edited\n")  # any file of the data folder: another key
    _read(fn)
    assert len(CALLS) == 2 and len(list(store.iterdir())) == 1  # the entry for the old data is dropped


def test_a_table_json_would_not_give_back_is_computed_every_time(store):
    fn = stored.stored(lambda: pd.DataFrame({"x": [1.0]}, index=["a"]))
    assert _read(fn)[0].index.tolist() == ["a"] and _read(fn)[0].index.tolist() == ["a"]
    assert not store.exists() or not list(store.iterdir())


def test_the_stored_tables_read_back_as_computed(store, monkeypatch):
    """The plan chapter's three backtest tables and the MLPerf chapter's planner check, stored
    and read back: the same frames and reads as computed with the disk left out. (The claims
    chapter's range table is checked through its results: tests/test_build_speed.py compares
    `run claims`, which reads it, with the notebook that computed it, byte for byte.)"""
    for fn in (plan_backtest.published_backtest, plan_backtest.estimated_backtest, plan_backtest.variants_backtest,
               mlperf.planner_table):
        monkeypatch.setenv("ANALYSIS_TABLE_CACHE", "0")
        computed, reads = _read(fn)
        monkeypatch.delenv("ANALYSIS_TABLE_CACHE")
        _read(fn)  # writes the entry
        back, reads_back = _read(fn)
        assert back.equals(computed) and list(back.dtypes) == list(computed.dtypes), fn.__name__
        assert reads_back == reads, fn.__name__
    assert len(list(store.iterdir())) == 4
    assert all(cache.read(store, e.name.rsplit("-", 1)[0], stored.entry_inputs(e.name.rsplit("-", 1)[0]), "entry")
               for e in store.iterdir())


def test_the_ledger_kernel_stores_its_range_table_ahead_and_the_chapter_reads_it(store, tmp_path, monkeypatch):
    """``Section.ahead``: the build's kernel for the claims ledger, started while the ledger still
    waits on its last need (in a clean build the plan chapter, which runs alone at the end),
    stores the range table from the results published so far; the ledger, given every chapter,
    then reads that entry and computes no range, and its table and results are the ones it computes
    with no store at all."""
    from analysis.build.execute import preload
    from analysis.chapters import claims, compute_section
    from analysis.chapters.registry import get_section
    from analysis.chapters.results import Results

    done: dict = {}
    for name in get_section("claims").needs:
        compute_section(name, {}, done)
    monkeypatch.setenv("ANALYSIS_TABLE_CACHE", "0")
    expected = compute_section("claims", {}, dict(done))
    monkeypatch.delenv("ANALYSIS_TABLE_CACHE")
    folder = tmp_path / "published"
    for name, chapter in done.items():
        if name != "plan":  # still running
            results = Results(name, chapter.parameters)
            results.record(chapter, glue=False)
            results.save(folder)
    def entries():
        return sorted(p.name for p in store.iterdir() if p.name.startswith(claims.RANGES_ENTRY + "-"))

    assert entries() == []
    clear_cache()
    claims.store_range_table_ahead(str(folder))
    assert len(entries()) == 1
    monkeypatch.setattr(claims, "range_table", lambda *args: pytest.fail("the ledger computed its ranges again"))
    clear_cache()
    read = compute_section("claims", {}, dict(done))
    pd.testing.assert_frame_equal(read.tables["ranges"], expected.tables["ranges"])
    assert len(expected.tables["ranges"]) > 0
    assert {k: q.value for k, q in read.quantities.items()} == {k: q.value for k, q in expected.quantities.items()}
    # the kernel started ahead for the ledger does it (with the folder the build publishes to); no other does
    assert f"store_range_table_ahead')({str(folder)!r})" in preload("claims", str(folder))[0]
    assert "ahead" not in preload("tco", str(folder))[0] and "store_" not in preload("claims")[0]
