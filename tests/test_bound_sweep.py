"""The bound sweep: every parameter of every chapter at each end of its range, every choice of a
text parameter, each chapter with all its parameters at their lows and all at their highs, and the
whole book all-low and all-high. Each case either computes through the chapter layer
(:func:`analysis.chapters.compute_section`, no kernel) with finite results and no numpy warning,
or is refused by :mod:`analysis.params.constraints` (a ParameterError, exit code 2 before any work). A
chapter never fails on inputs the checks let through.

What keeps it to seconds: a case recomputes only the chapters whose parameters, or whose upstream
results, differ from the defaults' (a chapter is a pure function of the two, so the others would
give the default results again); and the Monte Carlo sample sizes stay at their lower bounds
(``mc_draws`` 1,000, ``goodput_trials`` 10) in every case, since they set a band's precision, not
which arithmetic runs. Their upper bounds (10 million draws, 100,000 trials: tens of seconds
each) run with ANALYSIS_SWEEP_FULL=1.
"""

import os
import warnings

import pytest

from analysis.chapters import check_inputs, compute_section
from analysis.chapters.registry import SECTIONS, all_params, in_order, resolve_section
from analysis.params.parameters import ParameterError

FULL = os.environ.get("ANALYSIS_SWEEP_FULL") == "1"
SAMPLE_SIZES = {"mc_draws": 1_000, "goodput_trials": 10}  # their lower bounds (checked below)
ORDER = in_order([s.name for s in SECTIONS])


def _bounds(params, which: str) -> dict:
    return {p.name: getattr(p, which) for p in params if p.kind is not str}


def _cases() -> list[tuple[str, dict]]:
    params = list(all_params().values())
    cases = []
    for p in params:
        if p.kind is str:
            cases += [(f"{p.name}={choice}", {p.name: choice}) for choice in p.allowed() if choice != p.default]
        else:
            cases += [(f"{p.name}=low", {p.name: p.low}), (f"{p.name}=high", {p.name: p.high})]
    for s in SECTIONS:
        if any(p.kind is not str for p in s.params):
            cases += [(f"{s.name}:all-low", _bounds(s.params, "low")), (f"{s.name}:all-high", _bounds(s.params, "high"))]
    cases += [("all-low", _bounds(params, "low")), ("all-high", _bounds(params, "high"))]
    if not FULL:  # the sample sizes' upper bounds: see the module docstring
        cases = [(name, {k: v for k, v in case.items() if k not in SAMPLE_SIZES or v == SAMPLE_SIZES[k]})
                 for name, case in cases if name not in ("mc_draws=high", "goodput_trials=high")]
    return cases


CASES = _cases()
NAMES = [name for name, _ in CASES]


def _same(a, b) -> bool:
    return a.quantities == b.quantities and a.tables.keys() == b.tables.keys() and all(
        a.tables[k].equals(b.tables[k]) for k in a.tables)


_DEFAULTS: tuple | None = None


def _defaults() -> tuple[dict, dict]:
    """Every chapter at the defaults (sample sizes at their lower bounds), and its parameters;
    computed once per process."""
    global _DEFAULTS
    if _DEFAULTS is None:
        done = {}
        for s in ORDER:
            compute_section(s.name, SAMPLE_SIZES, done)
        _DEFAULTS = done, {s.name: resolve_section(s, SAMPLE_SIZES) for s in SECTIONS}
    return _DEFAULTS


def sweep_case(case: tuple[str, dict]) -> str:
    """``"computed"``, ``"refused: ..."`` (constraints.py, before any work) or ``"FAILED ..."``
    naming the chapter and its error."""
    _, overrides = case
    done0, values0 = _defaults()
    overrides = {**SAMPLE_SIZES, **overrides}
    values = {s.name: resolve_section(s, overrides) for s in SECTIONS}
    try:
        check_inputs(values)
    except ParameterError as exc:
        return f"refused: {exc}"
    done = {}
    for s in ORDER:
        if values[s.name] == values0[s.name] and all(_same(done[n], done0[n]) for n in s.needs):
            done[s.name] = done0[s.name]  # same inputs as at the defaults: the same results
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", RuntimeWarning)
                compute_section(s.name, overrides, done)
        except Exception as exc:  # noqa: BLE001 (any failure inside a chapter is what this looks for)
            return f"FAILED in chapter {s.name}: {type(exc).__name__}: {exc}"
    return "computed"


@pytest.fixture(scope="module")
def outcomes() -> dict[str, str]:
    """Each case's outcome, computed as the tests ask for them (the defaults once)."""
    return {}


def _outcome(name: str, outcomes: dict) -> str:
    if name not in outcomes:
        outcomes[name] = sweep_case(CASES[NAMES.index(name)])
    return outcomes[name]


def test_the_sample_sizes_are_at_their_lower_bounds():
    params = all_params()
    assert all(params[name].low == value for name, value in SAMPLE_SIZES.items())


def test_the_sweep_covers_every_parameter_and_choice():
    named = {name.split("=")[0] for name, _ in CASES if "=" in name}
    assert named == set(all_params())
    choices = sum(len(p.allowed()) - 1 for p in all_params().values() if p.kind is str)
    assert sum(1 for name, _ in CASES if "=" in name and not name.endswith(("=low", "=high"))) == choices


@pytest.mark.parametrize("name", NAMES)
def test_a_chapter_computes_or_the_checks_refuse(name, outcomes):
    outcome = _outcome(name, outcomes)
    assert not outcome.startswith("FAILED"), outcome


def test_most_cases_get_through_the_checks(outcomes):
    """The sweep tests the chapters, not only the checks: most cases are computed, not refused."""
    computed = sum(_outcome(name, outcomes) == "computed" for name in NAMES)
    assert computed >= 0.8 * len(NAMES), f"{computed} of {len(NAMES)} cases computed"
