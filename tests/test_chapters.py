"""The chapter layer as a whole (``analysis.chapters``): every chapter computes without a
notebook, a quantity has one value wherever it appears, and a parameter reaches every result that
physically depends on it."""

from __future__ import annotations

import math

import pytest

from analysis.chapters import compute_section
from analysis.sections import SECTIONS

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
