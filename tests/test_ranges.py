"""Every value the book calls valid gives an answer: a chapter computes with finite results and no
numpy warning (ChapterResults refuses a result that is not finite), or the inputs break a rule
between parameters and the error (exit code 2, before any work) names them. A chapter never fails
on inputs the checks let through. Three ways over the declared ranges:

- the bound sweep: every parameter of every chapter at each end of its range, every choice of a
  text parameter, each chapter with all its parameters at their lows and all at their highs, and the
  whole book all-low and all-high, through the chapter layer (no kernel);
- random combinations of each chapter's parameters, edges included (hypothesis, derandomized: the
  same examples every run);
- every chapter's notebook executed with every parameter at its low and at its high bound (the
  notebooks and their figures themselves).

What keeps the sweep to seconds: a case recomputes only the chapters whose parameters, or whose
upstream results, differ from the defaults' (a chapter is a pure function of the two, so the others
would give the default results again); and the Monte Carlo sample sizes stay at their lower bounds
(``mc_draws`` 1,000, ``goodput_trials`` 10), since they set a band's precision, not which
arithmetic runs. Their upper bounds (10 million draws, 100,000 trials: tens of seconds each) run
with ANALYSIS_SWEEP_FULL=1.
"""

import os
import warnings

import pytest
from conftest import run_notebooks_in_process
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.chapters import check_inputs, compute_section
from analysis.chapters.registry import SECTIONS, all_params, get_section, in_order, resolve_section
from analysis.params.parameters import ParameterError

PARAMS = all_params()


def strategy(p):
    if p.kind is str:
        return st.sampled_from(p.allowed())
    if p.kind is int:
        return st.integers(int(p.low), int(p.high))
    return st.floats(p.low, p.high, allow_nan=False)


def values_of(names) -> st.SearchStrategy:
    """Random values of ``names``, each inside its declared range, edges included."""
    def one(name):
        p = PARAMS[name]
        edges = [] if p.kind is str else [p.low, p.high]
        edges = [int(e) if p.kind is int else float(e) for e in edges]
        return st.one_of(st.sampled_from(edges), strategy(p)) if edges else strategy(p)
    return st.fixed_dictionaries({name: one(name) for name in names})


# Numerical settings whose high bound only costs time (10 million Monte Carlo draws, 100,000
# goodput runs: minutes on two cores); they ran at their high bounds once, by hand, and passed.
COMPUTE_BUDGET = ("mc_draws", "goodput_trials")
# Each example computes the chapter and the chapters that its changed parameters reach.
CHAPTER_SETTINGS = settings(derandomize=True, max_examples=10, deadline=None,
                            suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("section", [s.name for s in SECTIONS if s.params])
def test_every_chapter_computes_over_its_ranges(section):
    """Random combinations of the chapter's parameters, edges included, across the book (a shared
    parameter moves every chapter that takes it): computed, or refused by a rule that names the two
    parameters it found in conflict (the sweep's own test, :func:`sweep_case`)."""
    names = [p.name for p in get_section(section).params if p.name not in COMPUTE_BUDGET]

    @CHAPTER_SETTINGS
    @given(values_of(names))
    def check(values):
        outcome = sweep_case((section, values))
        assert not outcome.startswith("FAILED"), outcome
        if outcome.startswith("refused"):
            assert sum(f"'{name}'" in outcome for name in PARAMS) >= 2, outcome

    check()


@pytest.mark.parametrize("bound", ["low", "high"])
def test_every_chapter_runs_with_every_parameter_at_a_bound(bound, tmp_path):
    """Every chapter's notebook executed (tests/notebooks_in_process.py: papermill's parameters,
    IPython's shell and formatters, no kernel) with every numeric parameter at its ``bound`` and
    every text parameter at its last choice for "high"; where a rule between parameters forbids
    the extreme (all opex items 0; a job too large to make progress), the first parameter the
    rule names keeps its default. Each chapter's results record the parameters it ran with."""
    from analysis.build.book import resolve_all

    overrides = {}
    for name, p in PARAMS.items():
        if name in COMPUTE_BUDGET:
            overrides[name] = p.default
        elif p.kind is str:
            overrides[name] = p.allowed()[-1] if bound == "high" else p.default
        else:
            overrides[name] = p.kind(getattr(p, bound))
    while True:  # a broken rule names its parameters: put the first one back to its default
        values = resolve_all(overrides)
        try:
            check_inputs(values)
            break
        except ParameterError as exc:
            first = str(exc).split("'")[1]
            assert overrides[first] != PARAMS[first].default, exc
            overrides[first] = PARAMS[first].default
    run_notebooks_in_process(values, tmp_path)


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
    """``"computed"``, ``"refused: ..."`` (the rules between parameters, before any work, or a
    chapter's own refusal, both exit 2) or ``"FAILED ..."`` naming the chapter and its error."""
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
        except ParameterError as exc:  # a chapter's own refusal of inputs it cannot use: exit 2 too
            return f"refused: {exc}"
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
