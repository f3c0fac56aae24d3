"""The defaults issues 25 and 43 re-sourced stand on their own sources: the PUE, the load factor and
the maintenance components (tested against their anchors in tests/test_maintenance.py) cite no
report, their ranges are those anchors, and SemiAnalysis's public owning costs sit beside the TCO."""

from __future__ import annotations

import pytest

from analysis.chapters import compute_section
from analysis.data.load import load_table
from analysis.data.provenance import REPORT_SOURCES
from analysis.params import defaults as d


def anchor(anchor_id: str) -> float:
    return float(load_table("cost_anchors").set_index("anchor_id").loc[anchor_id, "value"])


def span(param: str) -> tuple[float, float]:
    row = load_table("distributions").set_index("param").loc[param]
    return float(row["low"]), float(row["high"])


def test_the_resourced_defaults_cite_no_report():
    ranged = load_table("distributions").set_index("param")
    maintenance = (d.GPU_SWAP_SHARE, d.GPU_SHARE_OF_SERVER_PRICE, d.WARRANTY_YEARS, d.SWAP_PERSON_HOURS,
                   d.TECHNICIAN_USD_PER_HOUR, d.SPARES_RESTOCK_DAYS)
    for p in (d.PUE, d.LOAD_FACTOR, *maintenance):
        assert p.fact is None and p.source not in REPORT_SOURCES, p.name
        assert ranged.loc[p.name, "source_id"] not in REPORT_SOURCES, p.name


def test_pue_is_the_cloud_average_and_its_range_the_fleets():
    """1.25: IDC's public-cloud average (as AWS quotes it); range Google's fleet 1.10 to Equinix's 1.42,
    with the hyperscalers' and the Uptime survey's figures beside them."""
    assert d.PUE.default == anchor("pue_idc_cloud_average")
    assert span("pue") == (anchor("pue_google_fleet_2023"), anchor("pue_equinix_fleet_2023"))
    assert anchor("pue_aws_fleet_2024") < d.PUE.default < anchor("pue_uptime_average_2023")
    pues = load_table("cost_anchors").query("param == 'pue'")
    assert len(pues) >= 6 and pues["source_id"].nunique() >= 5


def test_load_factor_is_the_measured_draw():
    """0.82: the highest draw of an 8-H100 node training an LLM over its rated 10.2 kW (8.4 kW);
    range from the compute-intensive average (0.76) to the rated draw all year (1.0)."""
    assert d.LOAD_FACTOR.default == anchor("load_h100_node_llm_peak") == pytest.approx(8.4 / 10.2, abs=0.005)
    assert span("load_factor") == (anchor("load_h100_node_intensive_mean"), 1.0)


def test_semianalysis_owning_costs_beside_the_tco():
    """The InferenceX registry (PR #659's July 2026 model, rounded by #661; TPUv7 by #1072/#1083): H100
    $1.17, GB200 $1.86 (1.59x), GB300 $2.31, B200 $1.73, MI355X $1.50, TPU7x $1.21; H100 1.37 kW and
    GB200 1.87 kW all-in."""
    sa = load_table("owning_cost_anchors")
    owning = sa[sa["basis"] == "hyperscaler_owning"].set_index("gpu_id")["owning_usd_per_gpu_hour"].to_dict()
    assert owning == {"h100_sxm": 1.17, "b200_hgx": 1.73, "gb200_nvl72": 1.86, "gb300_nvl72": 2.31, "mi355x": 1.50,
                      "tpu7x_ironwood": 1.21}
    assert sa["source_id"].eq("semianalysis_inferencex_registry").all()
    tco = compute_section("tco")
    assert tco["sa_registry_gb200_to_h100_owning_ratio"] == pytest.approx(1.86 / 1.17)
    assert tco["sa_registry_h100_all_in_w_per_gpu"] == 1370 and tco["sa_registry_gb200_all_in_w_per_gpu"] == 1870
    assert tco["h100_tco_vs_sa_registry_pct"] == pytest.approx((tco["h100_tco_usd_per_gpu_hour"] / 1.17 - 1) * 100)
    assert len(tco.tables["owning_anchors"]) == len(sa)
    # A12 is shown beside the registry's ratio (a context use)
    checks = load_table("fact_checks").set_index("fact_id")
    assert checks.loc["A12_tco_ratio", "context_uses"] == "tco:sa_registry_gb200_to_h100_owning_ratio"


def test_utilization_stands_beside_every_tco_headline():
    from analysis.figures import intro, tco

    for answer in (tco.ANSWER, intro.ANSWER):
        i = answer.index("utilization_pct")
        assert answer[i - 1] == "gb200_tco_usd_per_gpu_hour" and "h100_tco_usd_per_gpu_hour" in answer
    assert compute_section("tco")["utilization_pct"] == d.UTILIZATION.default * 100
