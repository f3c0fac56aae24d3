"""The chapter layer as a whole (``analysis.chapters``): every chapter computes without a
notebook, a quantity has one value wherever it appears (at the defaults, and under random scenarios
drawn by hypothesis over every parameter's declared range), a parameter reaches every result that
physically depends on it, and each chapter reads exactly the parameters its section declares."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, Phase, assume, example, given, settings
from hypothesis import strategies as st

from analysis.chapters import ChapterResults, check_inputs, compute_section, module_for
from analysis.chapters.registry import SECTIONS, all_params, get_section, resolve_section
from analysis.params.parameters import ParameterError, Parameters

NAMES = [s.name for s in SECTIONS]


@pytest.fixture(scope="module")
def at_defaults():
    done: dict = {}
    for name in NAMES:
        if name not in done:
            compute_section(name, {}, done)
    return done


def test_every_chapter_computes_without_a_notebook(at_defaults):
    assert sorted(at_defaults) == sorted(NAMES)


def test_a_quantity_has_one_value_in_every_chapter(at_defaults):
    seen: dict[tuple[str, str], tuple[str, float]] = {}
    clashes = []
    for name, chapter in at_defaults.items():
        for key, q in chapter.quantities.items():
            first = seen.setdefault((key, q.unit), (name, q.value))
            if not math.isclose(first[1], q.value, rel_tol=1e-9, abs_tol=1e-12):
                clashes.append(f"{key} [{q.unit}]: {first[1]!r} in {first[0]}, {q.value!r} in {name}")
    assert clashes == []


# Results that physically depend on the facility overhead: the power at the meter, the energy
# and the electricity it buys, and every cost that includes that electricity.
PUE_DEPENDENT = {
    "cluster": ["cluster_facility_mw", "cluster_annual_energy_twh", "cluster_annual_electricity_usd"],
    "opex": ["h100_opex_usd_per_gpu_month", "gb200_opex_usd_per_gpu_month"],
    "tco": ["h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour"],
    "energy": ["h100_meter_w_per_gpu", "gb200_meter_w_per_gpu", "gpt3_175b_fp8_j_per_token",
               "llama31_405b_bf16_j_per_token", "llama31_405b_bf16_household_years_15t_tokens",
               "cluster_annual_energy_twh"],
    "benchmarks": ["llama31_405b_bf16_usd_per_million_tokens_2304"],
}


@pytest.mark.parametrize("section", sorted(PUE_DEPENDENT))
def test_pue_reaches_every_result_that_depends_on_it(section, at_defaults):
    changed = compute_section(section, {"pue": 1.15})
    for key in PUE_DEPENDENT[section]:
        before, after = at_defaults[section][key], changed[key]
        assert after < before, f"{section}.{key}: {before} at the default PUE, {after} at 1.15"


# --- parameters travel by attribute, and each chapter reads exactly the ones it declares ----------

class RecordingParameters(Parameters):
    """Parameters that note every name read (replace() shares the record)."""

    __slots__ = ("_reads",)

    def __init__(self, values, reads: set | None = None):
        super().__init__(values)
        object.__setattr__(self, "_reads", set() if reads is None else reads)

    def __getattr__(self, name):
        value = super().__getattr__(name)
        object.__getattribute__(self, "_reads").add(name)
        return value

    def _derive(self, values):
        return type(self)(values, self._reads)


def _variants(section) -> list[dict]:
    """The defaults, and each choice of each text parameter (a chapter may read a parameter in one
    branch only: the GB200 IT power when the cluster is built of GB200s)."""
    out = [{}]
    for p in section.params:
        if p.kind is str:
            out += [{p.name: choice} for choice in p.allowed() if choice != p.default]
    return out


@pytest.mark.parametrize("name", [s.name for s in SECTIONS if s.params])
def test_a_chapter_reads_every_parameter_it_declares_and_no_other(name, at_defaults):
    """Its section's parameter list is what its ``compute`` reads: reading an undeclared name is
    an AttributeError (Parameters), and every declared one is read under some choice of the text
    parameters, so no parameter is listed (and offered to readers) without moving anything."""
    section = get_section(name)
    reads: set[str] = set()
    for overrides in _variants(section):
        values = resolve_section(section, overrides)
        try:
            check_inputs({name: values})
        except ParameterError:
            continue  # a choice that contradicts another parameter's default
        module_for(name).compute(RecordingParameters(values, reads), {n: at_defaults[n] for n in section.needs})
    assert set(section.param_map) - reads == set(), "declared but never read"
    assert reads - set(section.param_map) == set()


def test_the_recorder_sees_reads_through_replace():
    P = RecordingParameters({"a": 1, "b": 2})
    assert P.replace(a=3).a == 3 and P._reads == {"a"}
    with pytest.raises(AttributeError, match="no parameter 'c' here; these are: a, b"):
        P.c  # noqa: B018


# --- one value per key under any scenario ---------------------------------------------------------

PARAMS = all_params()
# Numerical settings held at their cheapest: they change how finely a band or a goodput Monte Carlo
# is sampled, not which chain computes a key.
FIXED = {"mc_draws": PARAMS["mc_draws"].low, "goodput_trials": PARAMS["goodput_trials"].low}
# Sections without parameters or needs give the same results under every scenario: computed once.
CONSTANT = [s.name for s in SECTIONS if not s.params and not s.needs]


def _value(p) -> st.SearchStrategy:
    if p.kind is str:
        return st.sampled_from(p.allowed())
    edges = [int(p.low), int(p.high)] if p.kind is int else [float(p.low), float(p.high)]
    inside = st.integers(int(p.low), int(p.high)) if p.kind is int else st.floats(p.low, p.high, allow_nan=False)
    return st.one_of(st.sampled_from(edges), inside)


SCENARIOS = st.fixed_dictionaries({}, optional={name: _value(p) for name, p in sorted(PARAMS.items())
                                                if name not in FIXED})


@pytest.fixture(scope="module")
def constant_chapters():
    done: dict = {}
    for name in CONSTANT:
        compute_section(name, {}, done)
    return done


def compute_all(overrides: dict, constant: dict) -> dict:
    done = dict(constant)
    for s in SECTIONS:
        if s.name not in done:
            compute_section(s.name, overrides, done)
    return done


def shared_key_clashes(chapters: dict) -> list[str]:
    """Each result key recorded by two or more chapters, where their values or units differ."""
    by_key: dict[str, list] = {}
    for name, chapter in chapters.items():
        for key, q in chapter.quantities.items():
            by_key.setdefault(key, []).append((name, q.value, q.unit))
    clashes = []
    for key, seen in sorted(by_key.items()):
        first = seen[0]
        for other in seen[1:]:
            if other[2] != first[2] or not math.isclose(other[1], first[1], rel_tol=1e-9, abs_tol=1e-12):
                clashes.append(f"{key}: {first[1]!r} {first[2]} in {first[0]}, {other[1]!r} {other[2]} in {other[0]}")
    return clashes


def test_the_clash_check_finds_a_clash():
    a, b = ChapterResults("a"), ChapterResults("b")
    a.add("x", 1.0, "minutes", "x")
    b.add("x", 2.0, "minutes", "x")
    a.add("y", 1.0, "minutes", "y")
    b.add("y", 1.0, "hours", "y")
    assert shared_key_clashes({"a": a, "b": b}) == ["x: 1.0 minutes in a, 2.0 minutes in b",
                                                    "y: 1.0 minutes in a, 1.0 hours in b"]


# Each example computes the whole book (about 3 s); no shrinking, so a failure reports the scenario
# it found without minutes of search.
@settings(derandomize=True, max_examples=8, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
@given(drawn=SCENARIOS)
@example(drawn={"node_ports_per_transceiver": 2})  # 52.56 minutes in the cluster chapter, 26.28 in reliability
@example(drawn={"llama3_train_tokens": 1e13})  # the software chapter's 15T-token run cost followed it, the TCO's not
def test_a_result_key_has_one_value_and_unit_in_every_chapter_under_any_scenario(drawn, constant_chapters):
    """Random scenarios over every parameter's declared range (edges included; any subset of the
    parameters changed, the rest at their defaults): every chapter computes, and a key that two
    chapters record has one value and one unit. Scenarios that break a rule between parameters
    (exit code 2, naming them: tests/test_ranges.py) are skipped."""
    overrides = {**drawn, **FIXED}
    try:
        check_inputs({s.name: resolve_section(s, overrides) for s in SECTIONS})
        chapters = compute_all(overrides, constant_chapters)
    except ParameterError:
        assume(False)
    assert shared_key_clashes(chapters) == []
