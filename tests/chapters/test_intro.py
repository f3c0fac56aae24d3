"""The introduction (``analysis.chapters.intro``) computes nothing: it copies the results its
summary prints from the chapters that own them, names a missing one, and every number its prose
glues is one of them."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from analysis.chapters import ChapterError, ChapterResults, compute_section
from analysis.chapters import intro as chapter
from analysis.chapters.registry import get_section
from analysis.figures import intro as figures

REPO = Path(__file__).resolve().parents[2]


def upstream() -> dict[str, ChapterResults]:
    """Each chapter the intro needs, holding the keys it reads with distinct values (1, 2, 3, ...)."""
    chapters = {name: ChapterResults(name) for name in get_section("intro").needs}
    for i, (section, key) in enumerate(chapter.READS, start=1):
        chapters[section].add(key, i, f"unit of {key}", f"label of {key}")
    for section, role in chapter.READ_NAMES:
        chapters[section].name(role, f"id of {role}")
    return chapters


def test_copies_every_key_with_its_unit_and_label():
    E = chapter.compute(SimpleNamespace(), upstream())
    for i, (_, key) in enumerate(chapter.READS, start=1):
        assert (E[key], E.unit(key), E.quantities[key].label) == (i, f"unit of {key}", f"label of {key}")


def test_cluster_size_and_gpt4_training_time():
    """100,000 GPUs (the cluster chapter's result, in its unit); GPT-4 took 90-100 days on A100s
    (B07, data/training_runs.csv)."""
    cluster = compute_section("cluster")
    E = chapter.compute(SimpleNamespace(), {**upstream(), "cluster": cluster})
    assert (E["cluster_gpus_count"], E.unit("cluster_gpus_count")) == (100_000, cluster.unit("cluster_gpus_count"))
    assert (E["gpt4_training_days_low"], E["gpt4_training_days_high"]) == (90, 100)


def test_a_missing_key_names_the_chapter_and_the_key():
    chapters = upstream()
    del chapters["energy"].quantities["gpt3_175b_fp8_j_per_token"]
    with pytest.raises(ChapterError, match="chapter 'energy' has no result 'gpt3_175b_fp8_j_per_token'"):
        chapter.compute(SimpleNamespace(), chapters)
    chapters = upstream()
    del chapters["benchmarks"].names["slowest_model"]
    with pytest.raises(ChapterError, match="chapter 'benchmarks' names no 'slowest_model'"):
        chapter.compute(SimpleNamespace(), chapters)


def test_every_glued_number_in_the_prose_is_recorded():
    E = chapter.compute(SimpleNamespace(), upstream())
    glued = set(re.findall(r"\{glue:text\}`([a-z0-9_]+)", (REPO / "notebooks" / "intro.py").read_text()))
    assert glued and glued <= set(E.quantities) | set(figures.prose_numbers(E))


def test_prose_numbers_rescale_by_hand():
    E = ChapterResults("intro")
    for key, value in (("electricity_share_of_capex_frac", 0.125), ("cluster_annual_electricity_usd", 123.4e6),
                       ("capex_usd", 4.5e9), ("llama3_effective_training_time_frac", 0.9)):
        E.add(key, value, "unit", key)
    assert figures.prose_numbers(E) == pytest.approx({
        "electricity_share_of_capex_pct": 12.5, "cluster_annual_electricity_musd": 123.4, "capex_busd": 4.5,
        "llama3_effective_training_time_pct": 90.0})


@pytest.mark.parametrize("section", sorted({s for s, _ in chapter.READS} - {"claims"}))
def test_the_owning_chapters_produce_every_key_the_intro_reads(section):
    """At the defaults, each chapter the intro reads produces the keys it reads (the claims
    chapter needs every chapter; tests/test_chapters.py computes it)."""
    produced = compute_section(section, {"mc_draws": 1_000})
    assert [key for s, key in chapter.READS if s == section and key not in produced] == []
