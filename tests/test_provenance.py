"""What each result reads (analysis.data.provenance): the reads are recorded as chapters compute, and
the record misses nothing. The second claim is tested by experiment: every report number (the
report facts a chapter reads as inputs, the rows of other tables that cite a report, the defaults
that equal a report fact) is moved by a small, distinct factor, every modelling chapter is
computed again, and each result that moves must have recorded a report read."""

from __future__ import annotations

import math

import pandas as pd

from analysis.chapters import ChapterResults, compute_section
from analysis.chapters.registry import CHAPTERS, all_params
from analysis.data import provenance
from analysis.data.load import fact, framing, load_table, row
from analysis.data.provenance import REPORT_SOURCES, aside, framing_reads, recording, report_reads
from analysis.params.parameters import Parameters

# The number columns of each table that hold a report's figures on its rows (moved by the test).
NUMBER_COLUMNS = {"report_facts": ("value", "value_high"),
                  "benchmarks": ("mfu_reported", "tokens_per_s_per_gpu_reported"),
                  "training_runs": ("train_flop", "days_low", "days_high"),
                  "seed_numbers": ("value", "value_2"),
                  "network_components": ("power_w", "power_w_high", "price_usd", "price_usd_high"),
                  "household_energy": ("kwh",)}


def test_reads_are_recorded_in_order_and_asides_forgotten():
    with recording():
        res = ChapterResults("test")
        res.add("before", 1.0, "ratio", "before any read")
        value = fact("B04_annual_twh")
        res.add("after", value, "TWh per year", "after a read")
        with aside():
            res.add("beside", fact("B05_annual_cost_usd"), "USD", "a comparison")
        res.add("later", 2.0, "ratio", "after the aside")
    assert res.quantities["before"].reads == frozenset()
    assert report_reads(res.quantities["after"].reads) == ["B04_annual_twh"]
    assert report_reads(res.quantities["beside"].reads) == ["B04_annual_twh", "B05_annual_cost_usd"]
    assert report_reads(res.quantities["later"].reads) == ["B04_annual_twh"]


def test_outside_a_computation_nothing_is_recorded():
    res = ChapterResults("test")
    res.add("x", fact("B04_annual_twh"), "TWh per year", "no recording")
    assert res.quantities["x"].reads is None
    assert provenance.snapshot() is None


def test_a_kernels_recording_runs_until_it_is_ended():
    provenance.begin()  # as analysis.page.notebook.start does in a chapter's kernel
    fact("B04_annual_twh")
    assert report_reads(provenance.snapshot()) == ["B04_annual_twh"]
    provenance.end()
    assert provenance.snapshot() is None


def test_framing_rows_and_parameters_are_noted():
    with recording() as r:
        framing("A35_train_tokens")
        row("training_runs", "gpt4")  # SemiAnalysis's GPT-4 estimate (B07): a report row
        row("gpus", "h100_sxm")  # a datasheet row: not the report's
        P = Parameters({"pue": 1.25, "tariff_usd_per_kwh": 0.078}, {"tariff_usd_per_kwh": "B05_tariff"})
        _ = P.pue + P.tariff_usd_per_kwh
    assert framing_reads(r.snapshot()) == ["A35_train_tokens"]
    assert report_reads(r.snapshot()) == ["B05_tariff", "training_runs:gpt4"]
    # every row read records its source, the report's or not (a datasheet's here)
    assert provenance.sources_read(r.snapshot()) == sorted({row("gpus", "h100_sxm")["source_id"], "sa_100k_2024"})
    assert provenance.params_read(r.snapshot()) == ["pue", "tariff_usd_per_kwh"]


def test_reading_a_result_carries_its_reads():
    with recording():
        up = ChapterResults("up")
        up.add("x", fact("B04_annual_twh"), "TWh per year", "x")
    with recording():
        down = ChapterResults("down")
        down.add("y", up["x"] * 2, "TWh per year", "twice x")
    assert report_reads(down.quantities["y"].reads) == ["B04_annual_twh"]


def test_every_chapter_result_is_recorded():
    done = {}
    for s in CHAPTERS:
        compute_section(s.name, {}, done)
    for name, res in done.items():
        missing = [k for k, q in res.quantities.items() if q.reads is None]
        assert not missing, f"{name}: {missing[:5]}"


def _nudge(rows: pd.DataFrame, columns, start: int) -> pd.DataFrame:
    """``rows`` with each listed number multiplied by 1 + 1e-4 x (1 + k / 97), k distinct per cell."""
    out = rows.copy()
    k = start
    for column in columns:
        if column not in out.columns:
            continue
        for i in out.index[out[column].notna()]:
            k += 1
            out.loc[i, column] = float(out.loc[i, column]) * (1 + 1e-4 * (1 + k % 97 / 97))
    return out


def _framing_only(done: dict) -> set[str]:
    """Report facts that every chapter reads only as framing (never as an input)."""
    framed, inputs = set(), set()
    for res in done.values():
        for q in res.quantities.values():
            framed |= set(framing_reads(q.reads))
            inputs |= {t.split(":", 1)[1] for t in q.reads or () if t.startswith("fact:")}
    return framed - inputs


def test_every_result_that_moves_with_a_report_number_recorded_one(data_copy):
    """Move every report number by about 0.01 % (framing facts excepted) and recompute: a result
    that moves must list a report fact or row among its reads."""
    base = {}
    for s in CHAPTERS:
        compute_section(s.name, {}, base)
    keep = _framing_only(base)
    start = 0
    for table, columns in NUMBER_COLUMNS.items():
        path = data_copy / f"{table}.csv"
        raw = pd.read_csv(path, dtype=str, keep_default_na=False)
        frame = load_table(table)
        mine = frame["source_id"].isin(REPORT_SOURCES)
        if table == "report_facts":
            mine &= ~frame["fact_id"].isin(keep)
        moved = _nudge(frame[mine], columns, start)
        start += 1000
        for column in columns:
            if column in raw.columns:
                raw.loc[mine.to_numpy(), column] = [("" if pd.isna(v) else repr(float(v))) for v in moved[column]]
        raw.to_csv(path, index=False)
    from analysis.data import load as data
    data.clear_cache()
    overrides = {p.name: p.default * (1 + 1e-4) for p in all_params().values()
                 if p.fact and p.fact not in keep and isinstance(p.default, float)}
    nudged = {}
    for s in CHAPTERS:
        compute_section(s.name, overrides, nudged)
    silent = []
    for name, res in base.items():
        for key, q in res.quantities.items():
            other = nudged[name].quantities.get(key)
            if other is None or math.isclose(q.value, other.value, rel_tol=1e-9, abs_tol=1e-12):
                continue
            if not report_reads(q.reads):
                silent.append(f"{name}.{key}")
    assert not silent, f"{len(silent)} results move with the report's numbers but record no report read: {silent[:20]}"


def test_a_memo_hit_notes_the_first_calls_reads_again():
    """A memoized step read in a second chapter of one process must carry the same reads as in a
    fresh kernel (python -m analysis run computes a need, then the chapter, in one process)."""
    calls = []

    @provenance.memoized
    def step(x):
        calls.append(x)
        provenance.note("fact:B01_example")
        return x * 2

    with provenance.recording() as first:
        assert step(3) == 6
    with provenance.recording() as second:
        assert step(3) == 6
    assert calls == [3]  # computed once
    assert first.snapshot() == second.snapshot() == {"fact:B01_example"}
    with provenance.recording() as third:
        step(4)
    assert calls == [3, 4] and third.snapshot() == {"fact:B01_example"}
