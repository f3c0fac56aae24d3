"""Capital cost (:mod:`analysis.capex`): the report's per-GPU prices, the capital recovery factor
against annuity tables, and the properties a capital charge must have."""

import numpy as np
import pytest

from analysis import capex
from analysis.data.load import fact
from analysis.params import defaults as d


def test_per_gpu_prices_match_the_reports_division():
    h100 = capex.per_gpu_usd(d.H100_ALLIN_USD.default, d.H100_GPUS_PER_SERVER.default)
    gb200 = capex.per_gpu_usd(d.GB200_ALLIN_USD.default, d.GB200_GPUS_PER_RACK.default)
    assert h100 == pytest.approx(fact("A05_h100_capex_per_gpu_allin"))  # $250k / 8
    assert gb200 == pytest.approx(fact("A08_gb200_capex_per_gpu_allin"), rel=1e-4)  # $3.9M / 72
    assert gb200 / h100 == pytest.approx(fact("A08_allin_ratio_vs_h100"), rel=0.005)


def test_capital_recovery_factor_known_values():
    assert capex.capital_recovery_factor(0.0, 4) == pytest.approx(0.25)
    assert capex.capital_recovery_factor(0.10, 4) == pytest.approx(0.315471, rel=1e-5)  # standard annuity table
    assert capex.capital_recovery_factor(0.08, 5) == pytest.approx(0.250456, rel=1e-5)


def test_capital_charge_by_hand():
    # $31,250 over 4 years at 8.1 %: 1.081^4 = 1.365534; CRF = 0.081 x 1.365534 / 0.365534 = 0.302593 per year;
    # 31,250 x 0.302593 / 8,760 h = $1.0795 per GPU-hour at full utilization, twice that at half.
    assert capex.capex_per_gpu_hour_usd(31_250, 0.081, 4) == pytest.approx(1.0795, rel=1e-4)
    assert capex.capex_per_gpu_hour_usd(31_250, 0.081, 4, 0.5) == pytest.approx(2 * 1.0795, rel=1e-4)


def test_longer_life_never_raises_the_hourly_charge():
    for rate in (0.0, 0.05, 0.081, 0.2):
        charges = [capex.capex_per_gpu_hour_usd(31_250, rate, n) for n in np.linspace(1, 10, 37)]
        assert all(b <= a for a, b in zip(charges, charges[1:], strict=False))


def test_charge_scales_linearly_with_price():
    assert capex.capex_per_gpu_hour_usd(62_500, 0.08, 4) == pytest.approx(2 * capex.capex_per_gpu_hour_usd(31_250, 0.08, 4))


def test_solve_cost_of_capital_inverts_the_charge():
    rate = capex.solve_cost_of_capital(31_250, 1.0, 4)
    assert capex.capex_per_gpu_hour_usd(31_250, rate, 4) == pytest.approx(1.0, rel=1e-9)
    with pytest.raises(ValueError):
        capex.solve_cost_of_capital(31_250, 0.1, 4)  # below straight-line depreciation


def test_build_up_rejects_all_in_below_server():
    assert capex.capex_build_up_usd(190_000, 250_000)["networking, storage, other"] == 60_000
    with pytest.raises(ValueError):
        capex.capex_build_up_usd(250_000, 190_000)
