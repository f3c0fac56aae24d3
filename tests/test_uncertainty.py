"""The Monte Carlo: deterministic, centred where the inputs are symmetric, fast enough to rerun,
and driven by the book's own functions."""

import numpy as np
import pandas as pd
import pytest

from analysis import reliability, uncertainty
from analysis.chapters.bands import model_values
from analysis.data import load_table


@pytest.fixture(scope="module")
def values():
    return model_values()


def test_same_seed_same_draws(values):
    a = uncertainty.simulate(values, 5_000, seed=7)
    b = uncertainty.simulate(values, 5_000, seed=7)
    c = uncertainty.simulate(values, 5_000, seed=8)
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)


def test_every_distribution_names_a_model_input(values):
    table = load_table("distributions")
    assert set(table["param"]) <= set(values)
    sources = set(load_table("sources")["source_id"])
    assert set(table["source_id"]) <= sources


def test_p50_is_close_to_the_point_where_inputs_are_symmetric(values):
    """With every range symmetric around this build's value, the median equals the point estimate
    for a quantity linear in one input (the H100 TCO in the tariff) and stays close for the rest."""
    table = uncertainty.distributions()
    symmetric = table.loc[["tariff_usd_per_kwh"]].copy()
    v = values["tariff_usd_per_kwh"]
    symmetric.loc["tariff_usd_per_kwh", ["low", "high"]] = [v * 0.5, v * 1.5]
    draws = uncertainty.draw(values, 20_001, 3, symmetric)
    out = uncertainty.evaluate(draws, uncertainty.reference_tokens_per_s(), reliability.llama3_rates())
    point = uncertainty.evaluate(values, uncertainty.reference_tokens_per_s(), reliability.llama3_rates())
    assert np.median(out["h100_tco_usd_per_gpu_hour"]) == pytest.approx(point["h100_tco_usd_per_gpu_hour"], rel=0.002)
    full = uncertainty.simulate(values, 20_000, seed=1)
    assert full["h100_tco_usd_per_gpu_hour"].median() == pytest.approx(point["h100_tco_usd_per_gpu_hour"], rel=0.05)


def test_bands_are_ordered_and_bracket_the_median(values):
    samples = uncertainty.simulate(values, 10_000, seed=1)
    point = uncertainty.evaluate(values, uncertainty.reference_tokens_per_s(), reliability.llama3_rates())
    bands = uncertainty.bands(samples, {k: float(v) for k, v in point.items()})
    assert (bands["p10"] <= bands["p50"]).all() and (bands["p50"] <= bands["p90"]).all()
    assert (bands["p10"] < bands["p90"]).all()


def test_evaluate_at_the_defaults_reproduces_the_chapters(values):
    """The point estimate goes through the chapters' functions: the TCO chapter's H100 TCO (about
    29 % above SA's $1.42, A13) and the $/1M tokens at it, the TCO / (202.5 tokens/s x 3,600 s) x 1e6
    (SA's $1.95 at its own basis, A34)."""
    from analysis import tco
    from analysis.chapters import compute_section

    point = uncertainty.evaluate(values, uncertainty.reference_tokens_per_s(), reliability.llama3_rates())
    h100 = compute_section("tco")["h100_tco_usd_per_gpu_hour"]
    assert point["h100_tco_usd_per_gpu_hour"] == pytest.approx(tco.system_tco_per_gpu_hour_usd("h100", values))
    assert point["h100_tco_usd_per_gpu_hour"] == pytest.approx(h100, rel=1e-12)
    assert point["llama31_405b_bf16_usd_per_million_tokens"] == pytest.approx(h100 / (202.5 * 3600) * 1e6, rel=1e-3)


def test_tornado_ranks_by_swing_and_swings_cost_with_prices(values):
    t = uncertainty.tornado(values, "llama31_405b_bf16_usd_per_million_tokens")
    assert list(t["swing"]) == sorted(t["swing"], reverse=True)
    tariff = t.set_index("param").loc["tariff_usd_per_kwh"]
    assert tariff["at_high"] > tariff["base"] > tariff["at_low"]
    household = t.set_index("param").loc["household_kwh_per_year"]
    assert household["swing"] == 0  # the cost of a token does not depend on households
