"""Every chapter's verdict sentence (``verdict(R)`` in its figures module, ``analysis.figures.<name>``)
is built from its own results, so a scenario that changes a chapter's sizes changes what its
verdict says (no size typed into it)."""

import importlib
import re

import pytest

from analysis.chapters import compute_section
from analysis.chapters.registry import SECTIONS

CHEAP = {"mc_draws": 1_000, "goodput_trials": 10}  # their lower bounds: precision, not arithmetic


def figures_of(name: str):
    return importlib.import_module(f"analysis.figures.{name}")


def _verdicts(overrides: dict) -> dict[str, str]:
    done: dict = {}
    return {s.name: figures_of(s.name).verdict(compute_section(s.name, {**CHEAP, **overrides}, done)) for s in SECTIONS}


@pytest.fixture(scope="module")
def at_defaults() -> dict[str, str]:
    return _verdicts({})


def test_every_chapter_has_a_figures_module_with_its_verdict_and_box_keys():
    for s in SECTIONS:
        module = figures_of(s.name)
        assert callable(module.verdict) and module.ANSWER and module.ANSWER_MORE, s.name


def test_verdicts_are_one_sentence_with_numbers(at_defaults):
    for name, text in at_defaults.items():
        assert text.endswith(".") and re.search(r"\d", text), (name, text)
        assert not re.search(r"\d\.\d{4,}", text), f"{name}: an unrounded number in {text!r}"


def test_a_scenario_changes_the_sizes_the_verdicts_name(at_defaults):
    changed = _verdicts({"gpus": 50_000, "job_gpus": 8_192})
    assert "100,000-H100 cluster" in at_defaults["cluster"] and "50,000-H100 cluster" in changed["cluster"]
    assert "(16,384-GPU job)" in at_defaults["downtime"] and "(8,192-GPU job)" in changed["downtime"]
    assert changed["reliability"] == at_defaults["reliability"]  # Llama 3's own job: data, not a parameter
