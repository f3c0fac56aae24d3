"""The TCO chapter (:mod:`analysis.chapters.tco`) at the defaults: the independent TCO by hand,
where it lands against the report's $1.42 per H100-hour (A13, a check it does not pass) and ~1.6x
TCO ratio (A12, within 5 %), what cost of capital would reproduce $1.42, the report's per-token
costs at its own basis (A22-A35), rental margins, the bands and the measured device."""

import numpy as np
import pytest

from analysis.chapters import compute_section
from analysis.chapters.ledger import CHECKED, _within
from analysis.data.load import fact, load_table, row
from analysis.params import defaults as d

# The H100's opex per GPU-month by hand from the defaults' sources: power 1.389 kW x the PUE (IDC's
# cloud average, 1.25) x 730 h x $0.078; space 1.389 kW x CBRE's $130 per kW-month; maintenance
# $31,250 x Meta's replacement rate (9.1 % a year) / 12.
PUE, MAINTENANCE = d.PUE.default, d.MAINTENANCE_FRAC_PER_YEAR.default
H100_OPEX_MONTH = 1.389 * PUE * 730 * 0.078 + 1.389 * 130 + 31_250 * MAINTENANCE / 12
H100_CAPEX_HOUR = 1.12540  # $31,250 x CRF(10 %, 4 y) 0.315471 / 8,760 h
H100_TCO = H100_CAPEX_HOUR + H100_OPEX_MONTH / 730


@pytest.fixture(scope="module")
def E():
    return compute_section("tco", {})


def test_tco_against_the_reports_basis_and_ratio(E):
    # about $1.83 per H100-hour, about 29 % above SA's $1.42 (A13): shown as a check, not reproduced.
    assert E["h100_tco_usd_per_gpu_hour"] == pytest.approx(H100_TCO, rel=1e-4)
    assert E["h100_tco_vs_report_pct"] == pytest.approx((H100_TCO / 1.42 - 1) * 100, abs=0.01)
    # GB200 / H100 about 1.65, +3 % from SA's ~1.6x (A12): within the ledger's 3.5 % at the defaults.
    assert E["gb200_breakeven_speedup"] == pytest.approx(fact("A12_tco_ratio"), rel=0.035)  # ~1.6x
    assert E["gb200_breakeven_speedup_vs_report_pct"] == pytest.approx(
        (E["gb200_breakeven_speedup"] / 1.6 - 1) * 100, abs=1e-9)
    assert E.unit("h100_tco_usd_per_gpu_hour") == "USD per GPU-hour"
    assert E.unit("gb200_breakeven_speedup") == "ratio"


def test_tco_is_capital_plus_opex_by_hand(E):
    # Capital: $31,250 x CRF(10 %, 4 y) 0.315471 / 8,760 h = $1.12540 per GPU-hour.
    assert E["h100_capex_usd_per_gpu_hour"] == pytest.approx(H100_CAPEX_HOUR, rel=1e-4)
    # Opex: the opex chapter's items per GPU-month / 730 h.
    assert E["h100_opex_usd_per_gpu_hour"] == pytest.approx(H100_OPEX_MONTH / 730, rel=1e-5)
    for name in ("h100", "gb200"):
        assert E[f"{name}_tco_usd_per_gpu_hour"] == pytest.approx(
            E[f"{name}_capex_usd_per_gpu_hour"] + E[f"{name}_opex_usd_per_gpu_hour"])
    assert E["h100_capex_share_of_tco_pct"] == pytest.approx(100 * H100_CAPEX_HOUR / H100_TCO, rel=1e-3)


def test_what_cost_of_capital_would_give_the_reports_basis(E):
    """$1.42 leaves about $0.71 for capital after the book's opex, below straight-line depreciation
    ($31,250 / 4 / 8,760 = $0.892): even free capital costs about $0.892 + $0.71 = $1.60, so no rate
    reproduces A13. With the seed's $249 opex it takes 8.1 % (the old calibrated default) at 4
    years; a longer life lowers the charge per year, so holding it needs a higher rate."""
    assert E["a13_h100_capex_usd_per_gpu_hour"] == pytest.approx(1.42 - E["h100_opex_usd_per_gpu_hour"])
    assert E["h100_tco_at_zero_cost_of_capital_usd_per_gpu_hour"] == pytest.approx(31_250 / 4 / 8_760 + H100_OPEX_MONTH / 730)
    check = E.tables["a13_check"].set_index(["opex", "useful_life_years"])["implied_cost_of_capital"]
    assert np.isnan(check[("the book's opex", 4.0)]) and np.isnan(check[("the book's opex", 5.0)])
    assert check[("the seed's $249 opex (S09)", 4.0)] == pytest.approx(0.081, abs=0.0005)
    assert check[("the seed's $249 opex (S09)", 5.0)] > check[("the seed's $249 opex (S09)", 4.0)]


def test_high_tariffs_do_not_break_the_chapter():
    """At $1 per kWh opex alone exceeds $1.42; the implied rates are NaN, nothing raises."""
    high = compute_section("tco", {"tariff_usd_per_kwh": 1.0})
    assert high["h100_opex_usd_per_gpu_hour"] > 1.42
    assert high.tables["a13_check"]["implied_cost_of_capital"].iloc[:2].isna().all()


def test_per_token_costs_reproduce_the_report_at_its_basis(E):
    """At the report's quoted $1.42 basis (the *_at_report_basis keys), every reproduced fact check
    holds within its tolerance: the throughput and FLOP arithmetic is the report's. At the book's
    TCO the same figures are context rows, higher by the TCO gap."""
    checks = load_table("fact_checks")
    checks = checks[checks["section"] == "tco"]
    assert len(checks) >= 7
    assert checks["results_key"].str.endswith("_at_report_basis").sum() == 5
    for f in checks[checks["status"].isin(CHECKED)].itertuples():
        r = row("report_facts", f.fact_id)
        assert _within(E[f.results_key], r["value"], r["value_high"], f.tolerance_rel), f.fact_id
    claims = load_table("claims")
    for c in claims[(claims["section"] == "tco") & claims["status"].isin(CHECKED)].itertuples():
        r = row("report_facts", c.fact_id)
        assert _within(E[c.results_key], r["value"], r["value_high"], c.tolerance_rel), c.claim_id


def test_every_priced_row_uses_its_systems_tco(E):
    rows = E.tables["usd_per_million_tokens_by_row"]
    tco_by_gpu = rows["gpu_id"].map({"h100_sxm": E["h100_tco_usd_per_gpu_hour"],
                                     "gb200_nvl72": E["gb200_tco_usd_per_gpu_hour"]})
    # USD per 1M tokens x tokens/s x 3,600 s / 1e6 = USD per GPU-hour
    assert np.allclose(rows["usd_per_million_tokens"] * rows["tokens_per_s_per_gpu"] * 3600 / 1e6, tco_by_gpu)
    assert set(rows["gpu_id"]) == {"h100_sxm", "gb200_nvl72"}


def test_breakeven_grid_passes_through_this_build(E):
    grid = E.tables["breakeven"]
    here = grid[(grid["opex_multiple"] == 1.0) & np.isclose(grid["capex_multiple"], 1.0)]
    assert here["breakeven_speedup"].item() == pytest.approx(E["gb200_breakeven_speedup"])
    line = grid[grid["opex_multiple"] == 1.0]
    assert np.all(np.diff(line["breakeven_speedup"]) > 0)  # dearer GB200, higher bar


def test_rental_margins(E):
    prices = E.tables["rental"]
    latest = prices[prices["gpu_id"] == "h100_sxm"].sort_values("period").iloc[-1]
    assert E["h100_latest_rental_margin_low_frac"] == pytest.approx(
        latest["low_usd_per_gpu_hour"] / E["h100_tco_usd_per_gpu_hour"] - 1)


def test_bands_bracket_the_point_and_share_its_keys(E):
    bands = E.tables["bands"]
    for key in ("h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "gb200_breakeven_speedup",
                "llama31_405b_bf16_usd_per_million_tokens"):
        b = bands.loc[key]
        assert b["point"] == pytest.approx(E[key], rel=1e-9)  # the band is centred on this chapter's value
        assert b["p10"] < b["p50"] < b["p90"]
        assert b["unit"] == E.unit(key)


def test_pue_moves_the_tco(E):
    lower = compute_section("tco", {"pue": 1.15})
    # Only power moves: 1,389 W x (the default PUE - 1.15) / 1,000 x $0.078 per kWh less per H100-hour.
    assert E["h100_tco_usd_per_gpu_hour"] - lower["h100_tco_usd_per_gpu_hour"] == pytest.approx(
        1.389 * (PUE - 1.15) * 0.078, rel=1e-6)


def test_measured_device_is_priced_per_model_flop(E):
    if "measured_usd_per_exaflop" not in E:
        pytest.skip("no measurement in data/measured/ (the book then says how to make one)")
    # $ per 1e18 FLOP = $ per hour / (TFLOP/s x 1e12 x 3,600 s) x 1e18
    assert E["h100_llama31_405b_bf16_usd_per_exaflop"] == pytest.approx(
        E["h100_tco_usd_per_gpu_hour"] / (E["llama31_405b_bf16_2304_model_tflops_per_gpu"] * 1e12 * 3600) * 1e18)
    assert E["measured_to_h100_usd_per_exaflop_ratio"] == pytest.approx(
        E["measured_usd_per_exaflop"] / E["h100_llama31_405b_bf16_usd_per_exaflop"])


def test_figures_and_tables(E):
    from analysis.figures import tco as figures

    assert f"**{E['h100_tco_usd_per_gpu_hour']:.3f}**" in figures.per_gpu_hour_table(E)
    lines = [ln for ln in figures.breakeven(E).axes[0].get_lines() if len(ln.get_xdata()) > 2]
    assert len(lines) == 3  # GB200 opex at 75 %, 100 % and 125 % of this build's
    table = figures.usd_per_million_tokens_table(E)
    assert table.count("\n| ") == len(E.tables["usd_per_million_tokens_by_row"]) + 1  # a row each, + the rule
    assert figures.rental_table(E).split("<details")[1].count("{ref}") == len(E.tables["rental"])  # the whole table


def test_per_token_costs_at_the_books_tco_scale_with_it(E):
    gap = E["h100_tco_usd_per_gpu_hour"] / fact("A13_h100_usd_per_gpu_hour")
    for key in ("gpt3_175b_fp8_usd_per_million_tokens", "llama31_405b_bf16_usd_per_million_tokens",
                "llama31_405b_bf16_cost_15t_tokens_usd"):
        assert E[key] == pytest.approx(E[f"{key}_at_report_basis"] * gap)
