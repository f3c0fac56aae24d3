"""Every value the book calls valid gives an answer. Over every parameter's declared range, the
chapter computations (analysis.chapters) return finite numbers, or the inputs break a rule between
parameters and the error (exit code 2) names them. Hypothesis draws the combinations
(derandomized: the same examples every run); two executions of every chapter's notebook, with
every parameter at its low and at its high bound, check the notebooks and their figures themselves."""

import numpy as np
import pytest
from conftest import run_notebooks_in_process
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.chapters import check_inputs, compute_section
from analysis.chapters.registry import SECTIONS, all_params, get_section
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


def _finite(results: dict) -> None:
    bad = {k: v for k, v in results.items() if not np.all(np.isfinite(v))}
    assert not bad, bad


def _checked(section: str, values: dict) -> bool:
    """False when the values break a rule between parameters; the message must name them."""
    try:
        check_inputs({section: values})
    except ParameterError as exc:
        assert sum(f"'{name}'" in str(exc) for name in values) >= 2, exc
        return False
    return True


# Numerical settings whose high bound only costs time (10 million Monte Carlo draws, 100,000
# goodput runs: minutes on two cores); they ran at their high bounds once, by hand, and passed.
COMPUTE_BUDGET = ("mc_draws", "goodput_trials")
# Each example computes the chapter itself (its module's compute, over the chapters it needs at
# their defaults, computed once): every number the chapter prints, without a notebook kernel.
CHAPTER_SETTINGS = settings(derandomize=True, max_examples=10, deadline=None,
                            suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def at_defaults():
    done: dict = {}
    for s in SECTIONS:
        compute_section(s.name, {}, done)
    return done


@pytest.mark.parametrize("section", [s.name for s in SECTIONS if s.params])
def test_every_chapter_computes_over_its_ranges(section, at_defaults):
    """Random combinations of the chapter's parameters, edges included: every result is finite, or
    the inputs break a rule between parameters and the error names them (exit code 2)."""
    from analysis.chapters import module_for
    from analysis.chapters.registry import resolve_section
    from analysis.params.parameters import Parameters

    sec = get_section(section)
    names = [p.name for p in sec.params if p.name not in COMPUTE_BUDGET]
    upstream = {need: at_defaults[need] for need in sec.needs}

    @CHAPTER_SETTINGS
    @given(values_of(names))
    def check(values):
        P = resolve_section(sec, values)
        if not _checked(section, P):
            return
        try:
            chapter = module_for(section).compute(Parameters(P), upstream)
        except ParameterError as exc:
            assert sum(f"'{name}'" in str(exc) for name in values) >= 2, exc
            return
        _finite({key: q.value for key, q in chapter.quantities.items()})

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
