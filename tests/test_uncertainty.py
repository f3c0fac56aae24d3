"""The Monte Carlo (analysis.uncertainty, analysis.chapters.bands): deterministic, centred where the
inputs are symmetric, and driven by the chapters' own chain functions."""

import numpy as np
import pandas as pd
import pytest

from analysis import uncertainty
from analysis.chapters import bands, compute_section
from analysis.chapters.registry import all_params
from analysis.data.load import load_table


@pytest.fixture(scope="module")
def P():
    return bands.book_parameters()


def test_same_seed_same_draws(P):
    a = bands.band_frame(P.replace(mc_draws=5_000, mc_seed=7))
    b = bands.band_frame(P.replace(mc_draws=5_000, mc_seed=7))
    c = bands.band_frame(P.replace(mc_draws=5_000, mc_seed=8))
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)


def test_every_distribution_names_a_model_input():
    table = load_table("distributions")
    assert set(table["param"]) <= set(all_params()) | {bands.MFU_SCALE}
    sources = set(load_table("sources")["source_id"])
    assert set(table["source_id"]) <= sources


def test_draws_peak_at_this_builds_value_and_skip_inputs_a_chapter_lacks(P):
    """A triangular draw's mode is the parameter's value; an input the parameters lack (a chapter
    that does not use it) is drawn around the middle of its range, and the others' draws do not
    change (the generator's stream is the same)."""
    table = uncertainty.distributions()
    full = uncertainty.draw({"tariff_usd_per_kwh": 0.078, "pue": 1.3}, 20_000, 3, table)
    fewer = uncertainty.draw({"pue": 1.3}, 20_000, 3, table)
    np.testing.assert_array_equal(full["pue"], fewer["pue"])
    assert not np.array_equal(full["tariff_usd_per_kwh"], fewer["tariff_usd_per_kwh"])
    drawn, scale = bands.draws(P, 20_000, 3)
    assert drawn.pue.shape == (20_000,) and scale.shape == (20_000,)
    assert drawn.gpus == P.gpus  # not an uncertain input: unchanged


def test_p50_is_close_to_the_point_where_inputs_are_symmetric(P):
    """With every range symmetric around this build's value, the median equals the point estimate
    for a quantity linear in one input (the H100 TCO in the tariff) and stays close for the rest."""
    table = uncertainty.distributions()
    symmetric = table.loc[["tariff_usd_per_kwh"]].copy()
    v = P.tariff_usd_per_kwh
    symmetric.loc["tariff_usd_per_kwh", ["low", "high"]] = [v * 0.5, v * 1.5]
    drawn, _ = bands.draws(P, 20_001, 3, symmetric)
    out = bands.evaluate(drawn, ["h100_tco_usd_per_gpu_hour"])
    point = bands.evaluate(P, ["h100_tco_usd_per_gpu_hour"])
    assert np.median(out["h100_tco_usd_per_gpu_hour"]) == pytest.approx(point["h100_tco_usd_per_gpu_hour"], rel=0.002)
    full = bands.band_frame(P.replace(mc_draws=20_000, mc_seed=1))
    assert full.loc["h100_tco_usd_per_gpu_hour", "p50"] == pytest.approx(point["h100_tco_usd_per_gpu_hour"], rel=0.05)


def test_bands_are_ordered_and_bracket_the_median(P):
    frame = bands.band_frame(P.replace(mc_draws=10_000, mc_seed=1))
    assert (frame["p10"] <= frame["p50"]).all() and (frame["p50"] <= frame["p90"]).all()
    assert (frame["p10"] < frame["p90"]).all()
    assert list(frame.index) == list(bands.OUTPUTS)


def test_evaluate_at_the_defaults_reproduces_the_chapters(P):
    """The point model is the chapters' chain functions: the TCO chapter's H100 TCO (about 29 % above
    SA's $1.42, A13) and the $/1M tokens at it, the TCO / (202.5 tokens/s x 3,600 s) x 1e6 (SA's
    $1.95 at its own basis, A34), and the energy and downtime chapters' values."""
    point = bands.evaluate(P)
    tco, energy, downtime = (compute_section(s, {"mc_draws": 1_000}) for s in ("tco", "energy", "downtime"))
    h100 = tco["h100_tco_usd_per_gpu_hour"]
    assert point["h100_tco_usd_per_gpu_hour"] == h100
    assert point["llama31_405b_bf16_usd_per_million_tokens"] == pytest.approx(h100 / (202.5 * 3600) * 1e6, rel=1e-3)
    assert point["llama31_405b_bf16_j_per_token"] == energy["llama31_405b_bf16_j_per_token"]
    assert point["gb200_breakeven_speedup_with_downtime"] == pytest.approx(
        downtime["gb200_breakeven_speedup_with_downtime"], rel=1e-12)


def test_evaluate_needs_only_the_parameters_its_outputs_read(P):
    """The energy outputs read the IT power, the PUE and the household basis, nothing of the TCO;
    an output whose parameters are missing is an error naming them, not a silent default."""
    from analysis.params.parameters import Parameters

    energy_only = Parameters({"h100_it_w_per_gpu": 1389.0, "pue": 1.3, "load_factor": 0.82,
                              "household_kwh_per_year": 10_791.0})
    out = bands.evaluate(energy_only, bands.ENERGY_KEYS)
    assert out["llama31_405b_bf16_j_per_token"] == pytest.approx(1389 * 1.3 * 0.82 / 202.5)
    with pytest.raises(AttributeError, match="no parameter '[a-z0-9_]+' here; these are: h100_it_w_per_gpu, "):
        bands.evaluate(energy_only, ["h100_tco_usd_per_gpu_hour"])
    with pytest.raises(KeyError, match="no band output"):
        bands.evaluate(P, ["not_an_output"])


def test_tornado_ranks_by_swing_and_swings_cost_with_prices(P):
    t = bands.tornado_frame(P, "llama31_405b_bf16_usd_per_million_tokens")
    assert list(t["swing"]) == sorted(t["swing"], reverse=True)
    tariff = t.set_index("param").loc["tariff_usd_per_kwh"]
    assert tariff["at_high"] > tariff["base"] > tariff["at_low"]
    household = t.set_index("param").loc["household_kwh_per_year"]
    assert household["swing"] == 0  # the cost of a token does not depend on households
    scale = t.set_index("param").loc[bands.MFU_SCALE]
    assert scale["at_low"] == pytest.approx(scale["base"] / 0.9)  # 10 % less throughput, 1/0.9 the cost


def test_tornado_by_hand():
    """tornado() moves one input at a time and ranks by swing."""
    table = pd.DataFrame({"low": [1.0, 0.0], "high": [3.0, 10.0]}, index=pd.Index(["a", "b"], name="param"))
    t = uncertainty.tornado(lambda changes: 2 * changes.get("a", 2.0) + 0.1 * changes.get("b", 5.0), table)
    assert list(t["param"]) == ["a", "b"]
    assert t.loc[0, ["at_low", "at_high", "swing", "base"]].tolist() == pytest.approx([2.5, 6.5, 4.0, 4.5])
