"""analysis.figures.verdicts: every chapter's verdict sentence is built from its own results, so a
scenario that changes a chapter's sizes changes what its verdict says (no size typed into it)."""

import re

import pytest

from analysis.chapters import compute_section
from analysis.chapters.registry import SECTIONS
from analysis.figures.verdicts import VERDICTS, verdict

CHEAP = {"mc_draws": 1_000, "goodput_trials": 10}  # their lower bounds: precision, not arithmetic


def _verdicts(overrides: dict) -> dict[str, str]:
    done: dict = {}
    out = {}
    for name in VERDICTS:
        chapter = compute_section(name, {**CHEAP, **overrides}, done)
        out[name] = verdict(name, lambda key, c=chapter: c.quantities[key].value)
    return out


@pytest.fixture(scope="module")
def at_defaults() -> dict[str, str]:
    return _verdicts({})


def test_every_chapter_with_an_in_short_box_has_a_verdict():
    assert set(VERDICTS) == {s.name for s in SECTIONS}


def test_verdicts_are_one_sentence_with_numbers(at_defaults):
    for name, text in at_defaults.items():
        assert text.endswith(".") and re.search(r"\d", text), (name, text)
        assert not re.search(r"\d\.\d{4,}", text), f"{name}: an unrounded number in {text!r}"


def test_a_scenario_changes_the_sizes_the_verdicts_name(at_defaults):
    changed = _verdicts({"gpus": 50_000, "job_gpus": 8_192})
    assert "100,000-H100 cluster" in at_defaults["cluster"] and "50,000-H100 cluster" in changed["cluster"]
    assert "(16,384-GPU job)" in at_defaults["downtime"] and "(8,192-GPU job)" in changed["downtime"]
    assert changed["reliability"] == at_defaults["reliability"]  # Llama 3's own job: data, not a parameter
