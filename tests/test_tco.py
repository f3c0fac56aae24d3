"""Total cost of ownership (:mod:`analysis.tco`): the report's $1.42 basis and ~1.6x ratio from the
default parameters, the cost-of-capital calibration, and the properties of a GPU-hour price."""

import pytest

from analysis import capex, tco
from analysis import defaults as d
from analysis.data import fact

DEFAULTS = {p.name: p.default for p in d.TCO_INPUTS}


def test_system_tco_reproduces_the_reports_basis_and_ratio():
    h100 = tco.system_tco_per_gpu_hour_usd("h100", DEFAULTS)
    gb200 = tco.system_tco_per_gpu_hour_usd("gb200", DEFAULTS)
    assert h100 == pytest.approx(fact("A13_h100_usd_per_gpu_hour"), rel=0.01)  # $1.42
    assert tco.breakeven_speedup(gb200, h100) == pytest.approx(fact("A12_tco_ratio"), rel=0.05)  # ~1.6x


def test_system_costs_add_up():
    c = tco.system_costs("h100", DEFAULTS)
    assert c["capex_usd_per_gpu"] == 31_250
    assert c["capex_usd_per_gpu_hour"] == pytest.approx(capex.capex_per_gpu_hour_usd(31_250, 0.081, 4))
    assert c["opex_usd_per_gpu_hour"] == pytest.approx(c["opex_usd_per_gpu_month"] / 730)  # 8,760 h / 12
    assert c["tco_usd_per_gpu_hour"] == pytest.approx(c["capex_usd_per_gpu_hour"] + c["opex_usd_per_gpu_hour"])


def test_tco_rises_with_tariff_and_pue_and_falls_with_utilization():
    h100 = tco.system_tco_per_gpu_hour_usd("h100", DEFAULTS)
    assert tco.system_tco_per_gpu_hour_usd("h100", {**DEFAULTS, "tariff_usd_per_kwh": 0.2}) > h100
    assert tco.system_tco_per_gpu_hour_usd("h100", {**DEFAULTS, "pue": 1.5}) > h100
    assert tco.system_tco_per_gpu_hour_usd("h100", {**DEFAULTS, "utilization": 0.5}) == pytest.approx(2 * h100)


def test_calibrate_cost_of_capital_reproduces_the_target():
    c = tco.system_costs("h100", DEFAULTS)
    rate = tco.calibrate_cost_of_capital(1.42, c["capex_usd_per_gpu"], c["opex_usd_per_gpu_hour"], 4)
    assert tco.tco_per_gpu_hour_usd(c["capex_usd_per_gpu"], c["opex_usd_per_gpu_month"], rate, 4) == pytest.approx(1.42)
    assert rate == pytest.approx(d.COST_OF_CAPITAL.default, rel=0.01)  # the default is this solve, rounded


def test_breakeven_and_margin():
    assert tco.breakeven_speedup(2.36, 1.42) == pytest.approx(2.36 / 1.42)
    assert tco.rental_margin(1.42, 1.42) == 0
    assert tco.rental_margin(2.84, 1.42) == pytest.approx(1.0)
