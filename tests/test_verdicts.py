"""Every chapter's verdict sentence (``verdict(R)`` in its figures module, ``analysis.figures.<name>``)
is built from its own results, so a scenario that changes a chapter's sizes changes what its
verdict says (no size typed into it)."""

import importlib
import re

import pytest

from analysis.chapters import compute_section
from analysis.chapters.registry import SECTIONS
from analysis.data.load import load_table
from analysis.page.names import gpu_short_name, model_name

CHEAP = {"mc_draws": 1_000, "goodput_trials": 10}  # their lower bounds: precision, not arithmetic


def figures_of(name: str):
    return importlib.import_module(f"analysis.figures.{name}")


def _results(overrides: dict) -> dict:
    done: dict = {}
    return {s.name: compute_section(s.name, {**CHEAP, **overrides}, done) for s in SECTIONS}


def _verdicts(overrides: dict, results: dict | None = None) -> dict[str, str]:
    results = _results(overrides) if results is None else results
    return {name: figures_of(name).verdict(R) for name, R in results.items()}


@pytest.fixture(scope="module")
def computed() -> dict:
    return _results({})


@pytest.fixture(scope="module")
def at_defaults(computed) -> dict[str, str]:
    return _verdicts({}, computed)


def _spoken(names) -> set[str]:
    """How a verdict may say each model or GPU id: its name, and a GPU's short name and first word."""
    said = set()
    for ident in names:
        said |= {model_name(ident), gpu_short_name(ident), gpu_short_name(ident).split()[0]}
    return said


def _named_in(text: str) -> set[str]:
    """Every model name and GPU short name of data/ that ``text`` says (as a word, plural or possessive)."""
    every = _spoken(list(load_table("models")["model_id"]) + list(load_table("gpus")["gpu_id"]))
    return {n for n in every if re.search(rf"(?<![\w-]){re.escape(n)}(?:s|'s)?(?![\w])", text)}


def test_every_chapter_has_a_figures_module_with_its_verdict_and_box_keys():
    for s in SECTIONS:
        module = figures_of(s.name)
        assert callable(module.verdict) and module.ANSWER and module.ANSWER_MORE, s.name


def test_verdicts_are_one_sentence_with_numbers(at_defaults):
    for name, text in at_defaults.items():
        assert text.endswith(".") and re.search(r"\d", text), (name, text)
        assert not re.search(r"\d\.\d{4,}", text), f"{name}: an unrounded number in {text!r}"


def test_verdicts_name_only_the_models_and_gpus_their_results_name(computed, at_defaults):
    """No verdict types a model or a GPU: each one it says is one its results record (``R.names``)
    or its parameters choose (the scaling chapter's summary once said 405B of a 70B run)."""
    for name, text in at_defaults.items():
        R = computed[name]
        allowed = _spoken([*R.names.values(), *(v for v in R.parameters.values() if isinstance(v, str))])
        assert _named_in(text) <= allowed, (name, sorted(_named_in(text) - allowed), text)
    assert _named_in(at_defaults["scaling"]) == {"Llama 3.1 70B"}  # the strong_model default


def test_a_scenario_changes_the_sizes_the_verdicts_name(at_defaults):
    changed = _verdicts({"gpus": 50_000, "job_gpus": 8_192, "strong_model": "llama31_405b", "gpu": "b200_hgx"})
    assert "100,000-H100 cluster" in at_defaults["cluster"] and "50,000-B200 cluster" in changed["cluster"]
    assert "Llama 3.1 70B FP8" in at_defaults["scaling"] and "Llama 3.1 405B FP8" in changed["scaling"]
    assert "(16,384-GPU job)" in at_defaults["downtime"] and "(8,192-GPU job)" in changed["downtime"]
    assert changed["reliability"] == at_defaults["reliability"]  # Llama 3's own job: data, not a parameter
