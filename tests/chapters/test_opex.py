"""The opex chapter (:mod:`analysis.chapters.opex`) at the defaults: each item by hand from the
public rates, the seed's unverifiable $249 and $359 per GPU-month (S09) as a check the model does
not pass, the rates those totals would need, and the response to tariff and PUE."""

import re

import numpy as np
import pytest

from analysis import maintenance
from analysis.chapters import compute_section, gpu_cost
from analysis.chapters.ledger import CHECKED, _within
from analysis.data.load import fact, load_table, row
from analysis.params import defaults as d
from analysis.params.parameters import Parameters

# Each item by hand from the defaults' sources: IT kW x the PUE (IDC's 1.25) x the measured average
# draw (82 % of rated, Latif et al.) x 730 h x $0.078 (the report's tariff); IT kW x CBRE's $130 per
# kW-month (rated: capacity); maintenance built from its parts (by hand in tests/test_maintenance.py).
PUE, LOAD = d.PUE.default, 0.82
CAPEX = {"h100": 250_000 / 8, "gb200": 3_900_000 / 72}
IT_KW = {"h100": 1.389, "gb200": 1.833}
DEFAULTS = Parameters({p.name: p.default for p in d.TCO_INPUTS})


def opex(system: str) -> float:
    kw = IT_KW[system]
    return kw * PUE * LOAD * 730 * 0.078 + kw * 130 + gpu_cost.maintenance_usd_per_gpu_month(DEFAULTS, system)


@pytest.fixture(scope="module")
def E():
    return compute_section("opex", {})


def test_totals_against_the_seeds_unverifiable_ones(E):
    """Power + space + maintenance + 0 a month, set against the seed's $249 and $359, which no public
    text contains (S09): a check, not a target."""
    assert E["h100_opex_usd_per_gpu_month"] == pytest.approx(opex("h100"), rel=1e-6)
    assert E["gb200_opex_usd_per_gpu_month"] == pytest.approx(opex("gb200"), rel=1e-6)
    assert E["h100_opex_vs_seed_pct"] == pytest.approx((opex("h100") / 249 - 1) * 100, abs=0.01)
    assert E["gb200_opex_vs_seed_pct"] == pytest.approx((opex("gb200") / 359 - 1) * 100, abs=0.01)
    # A10: the opex gap stays below the capex gap (1.733x).
    assert E["gb200_to_h100_opex_ratio"] == pytest.approx(opex("gb200") / opex("h100"), rel=1e-4)
    assert E["gb200_to_h100_opex_ratio"] < E["gb200_to_h100_capex_ratio"]
    assert E["gb200_to_h100_power_ratio"] == pytest.approx(1833 / 1389)


def test_h100_items_by_hand(E):
    # power: 1,389 W x the PUE x 0.82 / 1,000 x 730 h x $0.078 per kWh
    assert E["h100_power_usd_per_gpu_month"] == pytest.approx(1.389 * PUE * LOAD * 730 * 0.078)
    # datacenter: 1.389 kW x $130 per kW-month = $180.57; maintenance: the parts build-up; other: $0.
    assert E["h100_datacenter_usd_per_gpu_month"] == pytest.approx(1.389 * 130)
    assert E["h100_maintenance_usd_per_gpu_month"] == pytest.approx(gpu_cost.maintenance_usd_per_gpu_month(DEFAULTS, "h100"))
    assert E["h100_other_usd_per_gpu_month"] == 0
    assert E.tables["items"]["h100"].sum() == pytest.approx(E["h100_opex_usd_per_gpu_month"])


def test_chip_power_is_the_reports(E):
    assert E["gb200_chip_w"] == fact("A11_gb200_chip_w")  # 1,200 W (S08)
    assert E["gb200_it_w_per_gpu"] == 1833


def test_the_seeds_totals_would_need_a_rent_below_the_market(E):
    """The seed's $249 / $359 solved for the two rates (two equations, two unknowns, by hand here): a
    rent far below every public rate in data/cost_anchors.csv (lowest: $90, NoVA wholesale, 2022)."""
    power = {s: IT_KW[s] * PUE * LOAD * 730 * 0.078 for s in IT_KW}
    a = np.array([[IT_KW["h100"], CAPEX["h100"] / 12], [IT_KW["gb200"], CAPEX["gb200"] / 12]])
    rent, share = np.linalg.solve(a, [249 - power["h100"], 359 - power["gb200"]])
    assert E["seed_implied_datacenter_usd_per_kw_month"] == pytest.approx(rent)
    assert E["seed_implied_maintenance_pct_per_year"] == pytest.approx(share * 100)
    assert E["seed_implied_datacenter_usd_per_kw_month"] < E["colocation_anchor_low_usd_per_kw_month"] == 90
    assert E["colocation_anchor_low_usd_per_kw_month"] < E["datacenter_usd_per_kw_month"] < E["colocation_anchor_high_usd_per_kw_month"]


def test_opex_responds_to_pue_and_tariff(E):
    lower = compute_section("opex", {"pue": 1.15})
    # Only power moves: 1,389 W x (the PUE - 1.15) x 0.82 / 1,000 x 730 h x $0.078 less.
    assert E["h100_opex_usd_per_gpu_month"] - lower["h100_opex_usd_per_gpu_month"] == pytest.approx(
        1.389 * (PUE - 1.15) * LOAD * 730 * 0.078)
    rated = compute_section("opex", {"load_factor": 1.0})
    assert rated["h100_power_usd_per_gpu_month"] == pytest.approx(E["h100_power_usd_per_gpu_month"] / LOAD)
    assert rated["h100_datacenter_usd_per_gpu_month"] == E["h100_datacenter_usd_per_gpu_month"]  # capacity: rated
    curve = E.tables["vs_tariff"]
    h100 = curve[(curve["system"] == "h100") & np.isclose(curve["pue"], PUE)]
    slope = np.polyfit(h100["tariff_usd_per_kwh"], h100["usd_per_gpu_month"], 1)[0]
    assert slope == pytest.approx(1.389 * PUE * LOAD * 730)  # USD per GPU-month per USD per kWh
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


def test_maintenance_build_up_beside_what_it_replaced(E):
    """The build-up's items add up to the maintenance item; the earlier default (Llama 3's GPU and
    HBM3 faults at the whole all-in capex, 9.1 % a year) and the support contract stand beside it."""
    table = E.tables["maintenance"]
    for name in ("h100", "gb200"):
        rows = table[table["system"] == name].set_index("item")["usd_per_gpu_month"]
        assert rows[["GPUs replaced", "other parts", "labour", "spares pool"]].sum() == pytest.approx(
            E[f"{name}_maintenance_usd_per_gpu_month"])
        assert rows["total, parts"] == pytest.approx(E[f"{name}_maintenance_usd_per_gpu_month"])
        assert rows["earlier default"] == pytest.approx(CAPEX[name] * maintenance.earlier_default_frac_per_year() / 12)
        assert rows["total, parts"] < rows["earlier default"] < rows["support contract"]
    assert E["earlier_default_maintenance_pct_per_year"] == pytest.approx((148 + 72) / 16_384 * 365 / 54 * 100)
    assert E["out_of_warranty_pct"] == pytest.approx((4 - 3) / 4 * 100)
    # the support basis makes the contract the maintenance item
    contract = compute_section("opex", {"maintenance_basis": "support contract"})
    assert contract["h100_maintenance_usd_per_gpu_month"] == pytest.approx(E["h100_support_contract_usd_per_gpu_month"])
    # every anchor the chapter lists bears on a parameter it shows
    assert set(E.tables["anchors"]["param"]) <= {"datacenter_usd_per_kw_month", *(p.name for p in d.MAINTENANCE_INPUTS)}


def test_figures_and_table_show_the_items(E):
    from analysis.figures import opex as figures

    bars = figures.breakdown(E).axes[0].patches
    assert sum(b.get_height() for b in bars) == pytest.approx(E["h100_opex_usd_per_gpu_month"] + E["gb200_opex_usd_per_gpu_month"])
    assert len(figures.vs_tariff(E, 0.078).axes[0].get_lines()) == 2 * 3 + 1  # 2 systems x 3 PUEs, + the tariff marker
    assert f"**{E['gb200_opex_usd_per_gpu_month']:,.1f}**" in figures.items_table(E)
    table = figures.maintenance_table(E)
    assert table.count("\n| ") == len(E.tables["maintenance"]) // 2  # a row per item, both systems in columns
    bars = figures.maintenance_build_up(E).axes[0].patches
    assert len(bars) == 2 * (4 + 2)  # four stacked items and two comparison bars per system
    shown = re.sub(r"<src-[a-z0-9_]+>", "", figures.anchors_table(E))  # the link targets are ids; the text is not
    assert "{ref}" in figures.anchors_table(E) and not re.search(r"\b[a-z0-9]+_[a-z0-9_]+\b", shown)
