"""The uncertainty chapter (``analysis.chapters.uncertainty``): point values under the owning
chapters' keys and units, ordered bands, and tornado bars labelled with what each input means."""

from __future__ import annotations

import pytest

from analysis.chapters import compute_section
from analysis.chapters import uncertainty as chapter
from analysis.chapters.bands import OUTPUTS
from analysis.chapters.registry import get_section, resolve_section
from analysis.data.load import fact
from analysis.params import defaults as d
from analysis.params.parameters import Parameters


@pytest.fixture(scope="module")
def E():
    return compute_section("uncertainty")


def test_point_values_are_the_tco_chapters(E):
    """The point values are the TCO chapter's independent estimate, which lands about 29 % from
    SemiAnalysis's $1.42 per H100-hour (A13) and so from its $1.95 per million Llama 3.1 405B
    tokens (A34): the TCO / (202.5 tokens/s x 3,600 s) x 1e6."""
    tco = compute_section("tco", {})
    assert E["h100_tco_usd_per_gpu_hour"] == pytest.approx(tco["h100_tco_usd_per_gpu_hour"])
    assert E["llama31_405b_bf16_usd_per_million_tokens"] == pytest.approx(tco["llama31_405b_bf16_usd_per_million_tokens"])
    assert E["llama31_405b_bf16_usd_per_million_tokens"] / fact("A34_405b_bf16_cost_per_1m") == pytest.approx(
        E["h100_tco_usd_per_gpu_hour"] / fact("A13_h100_usd_per_gpu_hour"), rel=0.005)


def test_joules_per_token_and_household_years_by_hand(E):
    """1,389 W of IT per H100 x the PUE (IDC's 1.25) x the average draw (0.82 of rated) at the meter,
    over NVIDIA's 202.5 tokens/s/GPU (DGXC v25.02) = J per token; 15e12 tokens x that / 3.6e6 J per
    kWh / 10,791 kWh per household-year = household-years."""
    j = 1389 * d.PUE.default * d.LOAD_FACTOR.default / 202.5
    assert E["llama31_405b_bf16_j_per_token"] == pytest.approx(j, rel=1e-9)
    assert E["llama31_405b_bf16_household_years_15t_tokens"] == pytest.approx(15e12 * j / 3.6e6 / 10_791, rel=1e-9)


def test_point_values_use_the_owners_keys_units_and_values(E):
    """The TCO chapter owns the TCO keys: same key, same unit, same value here."""
    tco = compute_section("tco")
    for key in ("h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "gb200_breakeven_speedup"):
        assert (E[key], E.unit(key)) == (pytest.approx(tco[key], rel=1e-12), tco.unit(key))
    for key, (_, unit) in OUTPUTS.items():
        assert E.unit(key) == unit and E.unit(f"{key}_p50") == unit


def test_every_band_is_recorded_and_ordered(E):
    for key in OUTPUTS:
        p10, p50, p90 = E[f"{key}_p10"], E[f"{key}_p50"], E[f"{key}_p90"]
        assert p10 < p50 < p90, key
        assert E.tables["bands"].loc[key, "p50"] == p50
    assert E["monte_carlo_draws_count"] == 100_000


def test_fewer_draws_are_recorded_and_move_the_bands_not_the_points(E):
    few = compute_section("uncertainty", {"mc_draws": 2_000})
    assert few["monte_carlo_draws_count"] == 2_000
    assert few["h100_tco_usd_per_gpu_hour"] == E["h100_tco_usd_per_gpu_hour"]
    assert few["h100_tco_usd_per_gpu_hour_p90"] != E["h100_tco_usd_per_gpu_hour_p90"]


def test_tornado_bars_carry_the_parameter_descriptions(E):
    cost = E.tables["tornado_cost"].set_index("param")
    assert len(cost) == chapter.TORNADO_BARS
    # the top driver is the bar with the largest swing, named by its parameter's description
    top = cost["swing"].idxmax()
    assert chapter.top_driver(E, "tornado_cost") == cost.loc[top, "label"] == chapter.input_labels()[top]
    assert cost.loc["tariff_usd_per_kwh", "label"] == "Electricity tariff"
    assert cost.loc["mfu_scale", "label"] == chapter.EXTRA_LABELS["mfu_scale"]
    breakeven = E.tables["tornado_breakeven"]
    assert breakeven["label"].str.len().min() > 5 and breakeven["swing"].is_monotonic_decreasing


def test_maintenance_share_of_the_tco_band(E):
    """Holding maintenance's components (every one with a sourced range) at this build's values, with
    the same draws of everything else, narrows the H100 TCO's P10-P90 band; the share is what it
    loses. The full band is the chapter's own."""
    assert set(chapter.MAINTENANCE_INPUTS) <= set(E.tables["inputs"]["param"])
    width = E["h100_tco_usd_per_gpu_hour_p90"] - E["h100_tco_usd_per_gpu_hour_p10"]
    assert E["h100_tco_band_width_usd_per_gpu_hour"] == pytest.approx(width, rel=1e-9)
    assert 0 < E["h100_tco_band_width_without_maintenance_usd_per_gpu_hour"] < width
    assert E["maintenance_share_of_h100_tco_band_pct"] == pytest.approx(
        (1 - E["h100_tco_band_width_without_maintenance_usd_per_gpu_hour"] / width) * 100)
    # holding nothing leaves the band as it is; holding every drawn input leaves no band at all
    from analysis.chapters.bands import band_width_held

    P = Parameters(resolve_section(get_section("uncertainty"), {"mc_draws": 2_000}))
    assert band_width_held(P, "h100_tco_usd_per_gpu_hour", ())["share"] == 0
    every = [name for name in E.tables["inputs"]["param"] if name != "mfu_scale"]
    assert band_width_held(P, "h100_tco_usd_per_gpu_hour", every)["share"] == pytest.approx(1)


def test_inputs_table_shows_this_builds_value_inside_its_range(E):
    inputs = E.tables["inputs"].set_index("param")
    assert inputs.loc["pue", "value"] == d.PUE.default and inputs.loc["mfu_scale", "value"] == 1.0
    assert ((inputs["low"] <= inputs["value"]) & (inputs["value"] <= inputs["high"])).all()
    changed = compute_section("uncertainty", {"tariff_usd_per_kwh": 0.12, "mc_draws": 1_000})
    assert changed.tables["inputs"].set_index("param").loc["tariff_usd_per_kwh", "value"] == 0.12
