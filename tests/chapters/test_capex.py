"""The capex chapter (:mod:`analysis.chapters.capex`) at the defaults: the report's prices per GPU,
the capital charge by hand, the seed's prices against the report's, and the ledger rows it settles."""

import numpy as np
import pytest

from analysis.chapters import compute_section
from analysis.chapters.ledger import CHECKED, _within
from analysis.data.load import fact, load_table, row


@pytest.fixture(scope="module")
def E():
    return compute_section("capex", {})


def test_prices_per_gpu_are_the_reports(E):
    assert E["h100_server_usd_per_gpu"] == pytest.approx(fact("A05_h100_capex_per_gpu_server"))  # $190k / 8
    assert E["h100_capex_usd_per_gpu"] == pytest.approx(fact("A05_h100_capex_per_gpu_allin"))  # $250k / 8
    assert E["gb200_capex_usd_per_gpu"] == pytest.approx(fact("A08_gb200_capex_per_gpu_allin"), rel=1e-3)  # $3.9M / 72
    # The stated prices give 1.73x, within 3 % of the top of the report's 1.6-1.7x (A09).
    assert E["gb200_to_h100_capex_ratio"] == pytest.approx(54_166.67 / 31_250, rel=1e-6)
    assert E["gb200_to_h100_capex_ratio"] <= row("report_facts", "A09_allin_capex_ratio")["value_high"] * 1.03
    # "~$3.9M" rounds anything from $3.85M: 3.85e6 / 72 / 31,250 = 1.711x.
    assert E["gb200_to_h100_capex_ratio_at_rounding_floor"] == pytest.approx(3.85e6 / 72 / 31_250)


def test_capital_charge_by_hand(E):
    # CRF(10 %, 4 years) = 0.1 x 1.1^4 / (1.1^4 - 1) = 0.1 x 1.4641 / 0.4641 = 0.315471.
    assert E["capital_recovery_factor_per_year"] == pytest.approx(0.315471, rel=1e-5)
    # H100: 31,250 x 0.315471 / 8,760 h = $1.12540; GB200: 54,166.67 x 0.315471 / 8,760 = $1.95069.
    assert E["h100_capex_usd_per_gpu_hour"] == pytest.approx(1.12540, rel=1e-4)
    assert E["gb200_capex_usd_per_gpu_hour"] == pytest.approx(1.95069, rel=1e-4)


def test_seed_prices_against_the_report(E):
    assert E["seed_to_report_h100_server_price_pct"] == pytest.approx(10_000 / 190_000 * 100)  # S03 / A03
    assert E["seed_gb200_rack_million_usd"] == pytest.approx(1.1)  # S05
    assert E["seed_gb200_allin_million_usd"] == pytest.approx(1.5)  # S06


def test_figure_frames(E):
    build_up = E.tables["build_up"]
    assert build_up.groupby("system")["usd_per_gpu"].sum().to_dict() == pytest.approx(
        {"h100": E["h100_capex_usd_per_gpu"], "gb200": E["gb200_capex_usd_per_gpu"]})
    curve = E.tables["charge_vs_life"]
    here = curve[(curve["rate_multiple"] == 1.0) & np.isclose(curve["useful_life_years"], 4.0)]
    assert here["usd_per_gpu_hour"].item() == pytest.approx(E["h100_capex_usd_per_gpu_hour"])
    straight = curve[(curve["rate_multiple"] == 0.0) & np.isclose(curve["useful_life_years"], 4.0)]
    assert straight["usd_per_gpu_hour"].item() == pytest.approx(31_250 / 4 / 8_760)


def test_a_dearer_rack_raises_the_gb200_charge_only(E):
    dearer = compute_section("capex", {"gb200_allin_usd": 4.68e6})  # 20 % dearer
    assert dearer["gb200_capex_usd_per_gpu_hour"] == pytest.approx(1.2 * E["gb200_capex_usd_per_gpu_hour"])
    assert dearer["h100_capex_usd_per_gpu_hour"] == E["h100_capex_usd_per_gpu_hour"]


def test_the_ledger_rows_it_settles_hold(E):
    """Every fact check and claim of this chapter names a result it records, within the row's tolerance."""
    checks = load_table("fact_checks")
    for f in checks[checks["section"] == "capex"].itertuples():
        r = row("report_facts", f.fact_id)
        assert _within(E[f.results_key], r["value"], r["value_high"], f.tolerance_rel), f.fact_id
    claims = load_table("claims")
    for c in claims[(claims["section"] == "capex") & claims["fact_id"].notna()].itertuples():
        r = row("report_facts", c.fact_id)
        if c.status in CHECKED:  # the book's value is the original source's, within the tolerance
            assert _within(E[c.results_key], r["value"], r["value_high"], c.tolerance_rel), c.claim_id


def test_figures_draw_what_the_frames_hold(E):
    from analysis.figures import capex as figures

    fig = figures.charge_vs_life(E)
    curves = [line for line in fig.axes[0].get_lines() if len(line.get_xdata()) > 1]
    assert len(curves) == 4  # straight line, half, this build's and twice this build's cost of capital
    bars = figures.build_up(E).axes[0].patches
    assert sum(b.get_height() for b in bars) == pytest.approx(E["h100_capex_usd_per_gpu"] + E["gb200_capex_usd_per_gpu"])
