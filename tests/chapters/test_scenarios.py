"""The scenarios chapter (``analysis.chapters.scenarios``): one result per scenario and headline
output, the report-defaults column equal to the chapters' own numbers, and the changes each file
makes."""

from __future__ import annotations

import pytest

from analysis.chapters import compute_section
from analysis.chapters.bands import OUTPUTS
from analysis.data.load import fact
from analysis.params import defaults as d


@pytest.fixture(scope="module")
def E():
    return compute_section("scenarios")


def test_every_scenario_and_output_is_recorded(E):
    count = int(E["scenarios_shipped_count"])
    assert count == len(E.tables["files"]) >= 5
    assert len(E.quantities) == 1 + count * len(OUTPUTS)
    assert E.unit("neocloud_buyer__h100_tco_usd_per_gpu_hour") == "USD per GPU-hour"


def test_report_defaults_reproduce_the_report_and_the_uncertainty_points(E):
    """The first scenario is the book at its defaults: the TCO chapter's H100 TCO (about 29 % above
    SemiAnalysis's $1.42, A13) and the cost of a million Llama 3.1 405B tokens at it (SA: $1.95 at its
    basis, A34), and exactly the uncertainty chapter's point values."""
    tco = compute_section("tco")["h100_tco_usd_per_gpu_hour"]
    assert E["report_defaults__h100_tco_usd_per_gpu_hour"] == pytest.approx(tco, rel=1e-12)
    assert E["report_defaults__h100_tco_usd_per_gpu_hour"] > fact("A13_h100_usd_per_gpu_hour")
    assert E["report_defaults__llama31_405b_bf16_usd_per_million_tokens"] == pytest.approx(
        tco / (202.5 * 3600) * 1e6, rel=1e-3)
    points = compute_section("uncertainty", {"mc_draws": 1_000})
    for key in OUTPUTS:
        assert E[f"report_defaults__{key}"] == pytest.approx(points[key], rel=1e-12)


def test_cheap_power_moves_only_the_electricity_share(E):
    """Texas's 6.60 cents instead of 7.8 cents per kWh: the H100 draws 1,389 W x the PUE at the meter
    on average x the load factor (0.82 of rated), so each GPU-hour costs that x (0.078 - 0.066) less;
    the joules per token do not change."""
    saving = E["report_defaults__h100_tco_usd_per_gpu_hour"] - E["cheap_power_texas__h100_tco_usd_per_gpu_hour"]
    assert saving == pytest.approx(1.389 * d.PUE.default * d.LOAD_FACTOR.default * (0.078 - 0.066), rel=0.02)
    assert E["cheap_power_texas__llama31_405b_bf16_j_per_token"] == E["report_defaults__llama31_405b_bf16_j_per_token"]


def test_changes_table_lists_what_each_file_changes(E):
    changes = E.tables["changes"]
    mature = changes[changes["scenario"].str.startswith("GB200 with mature")].set_index("parameter")["value"]
    assert mature.to_dict() == {"gb200_nvlink_faults_per_rack_month": 0.25, "gb200_repair_hours": 24}
    assert "Report defaults" not in set(changes["scenario"])
