"""The opex chapter (:mod:`analysis.chapters.opex`) at the defaults: each item by hand from the
public rates, the seed's unverifiable $249 and $359 per GPU-month (S09) as a check the model does
not pass, the rates those totals would need, and the response to tariff and PUE."""

import numpy as np
import pytest

from analysis.chapters import compute_section
from analysis.data import fact, load_table, row
from analysis.ledger import CHECKED, _within


@pytest.fixture(scope="module")
def E():
    return compute_section("opex", {})


def test_totals_against_the_seeds_unverifiable_ones(E):
    """H100 $543.80 (102.82 + 180.57 + 260.42 + 0) and GB200 $825.36 (135.68 + 238.29 + 451.39 + 0)
    a month: 118 % and 130 % above the seed's $249 and $359, which no public text contains (S09)."""
    assert E["h100_opex_usd_per_gpu_month"] == pytest.approx(543.80, abs=0.01)
    assert E["gb200_opex_usd_per_gpu_month"] == pytest.approx(825.36, abs=0.01)
    assert E["h100_opex_vs_seed_pct"] == pytest.approx((543.80 / 249 - 1) * 100, abs=0.01)
    assert E["gb200_opex_vs_seed_pct"] == pytest.approx((825.36 / 359 - 1) * 100, abs=0.01)
    # A10: the opex gap (825.36 / 543.80 = 1.518x) stays below the capex gap (1.733x).
    assert E["gb200_to_h100_opex_ratio"] == pytest.approx(825.36 / 543.80, rel=1e-4)
    assert E["gb200_to_h100_opex_ratio"] < E["gb200_to_h100_capex_ratio"]
    assert E["gb200_to_h100_power_ratio"] == pytest.approx(1833 / 1389)


def test_h100_items_by_hand(E):
    # power: 1,389 W x 1.3 PUE / 1,000 x 730 h x $0.078 per kWh = $102.82
    assert E["h100_power_usd_per_gpu_month"] == pytest.approx(1.389 * 1.3 * 730 * 0.078)
    # datacenter: 1.389 kW x $130 per kW-month = $180.57; maintenance: $31,250 x 10 % / 12 = $260.42;
    # other: not estimated, $0.
    assert E["h100_datacenter_usd_per_gpu_month"] == pytest.approx(1.389 * 130)
    assert E["h100_maintenance_usd_per_gpu_month"] == pytest.approx(31_250 * 0.10 / 12)
    assert E["h100_other_usd_per_gpu_month"] == 0
    assert E.tables["items"]["h100"].sum() == pytest.approx(E["h100_opex_usd_per_gpu_month"])


def test_chip_power_is_the_reports(E):
    assert E["gb200_chip_w"] == fact("A11_gb200_chip_w")  # 1,200 W (S08)
    assert E["gb200_it_w_per_gpu"] == 1833


def test_the_seeds_totals_would_need_a_rent_below_the_market(E):
    """The seed's $249 / $359 solved for the two rates: about $52 per kW-month and 2.8 % a year. The
    rent is below every public rate in data/cost_anchors.csv (lowest: $90, NoVA wholesale, 2022)."""
    assert E["seed_implied_datacenter_usd_per_kw_month"] == pytest.approx(52.3, abs=0.1)
    assert E["seed_implied_maintenance_pct_per_year"] == pytest.approx(2.82, abs=0.01)
    assert E["seed_implied_datacenter_usd_per_kw_month"] < E["colocation_anchor_low_usd_per_kw_month"] == 90
    assert E["colocation_anchor_low_usd_per_kw_month"] < E["datacenter_usd_per_kw_month"] < E["colocation_anchor_high_usd_per_kw_month"]


def test_opex_responds_to_pue_and_tariff(E):
    lower = compute_section("opex", {"pue": 1.15})
    # Only power moves: 1,389 W x (1.3 - 1.15) / 1,000 x 730 h x $0.078 = $11.86 less.
    assert E["h100_opex_usd_per_gpu_month"] - lower["h100_opex_usd_per_gpu_month"] == pytest.approx(
        1.389 * 0.15 * 730 * 0.078)
    curve = E.tables["vs_tariff"]
    h100 = curve[(curve["system"] == "h100") & np.isclose(curve["pue"], 1.3)]
    slope = np.polyfit(h100["tariff_usd_per_kwh"], h100["usd_per_gpu_month"], 1)[0]
    assert slope == pytest.approx(1.389 * 1.3 * 730)  # USD per GPU-month per USD per kWh
    at_build = np.interp(0.078, h100["tariff_usd_per_kwh"], h100["usd_per_gpu_month"])
    assert at_build == pytest.approx(E["h100_opex_usd_per_gpu_month"])


def test_the_ledger_rows_it_settles_hold(E):
    """Every claim of this chapter names a result it records; checked ones within the row's tolerance."""
    claims = load_table("claims")
    for c in claims[claims["section"] == "opex"].itertuples():
        assert c.results_key in E, c.claim_id
        if c.status in CHECKED:
            r = row("report_facts", c.fact_id)
            assert _within(E[c.results_key], r["value"], r["value_high"], c.tolerance_rel), c.claim_id


def test_figures_and_table_show_the_items(E):
    from analysis.figures import opex as figures

    bars = figures.breakdown(E).axes[0].patches
    assert sum(b.get_height() for b in bars) == pytest.approx(E["h100_opex_usd_per_gpu_month"] + E["gb200_opex_usd_per_gpu_month"])
    assert len(figures.vs_tariff(E, 0.078).axes[0].get_lines()) == 2 * 3 + 1  # 2 systems x 3 PUEs, + the tariff marker
    assert f"**{E['gb200_opex_usd_per_gpu_month']:,.1f}**" in figures.items_table(E)
