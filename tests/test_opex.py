"""Operating cost (:mod:`analysis.opex`): each item by hand, the seed's unverifiable totals as the
calibration's targets, and the calibration as a solve of two equations."""

import pytest

from analysis import capex, opex
from analysis import defaults as d
from analysis.data import row

H100_CAPEX = capex.per_gpu_usd(d.H100_ALLIN_USD.default, d.H100_GPUS_PER_SERVER.default)
GB200_CAPEX = capex.per_gpu_usd(d.GB200_ALLIN_USD.default, d.GB200_GPUS_PER_RACK.default)


def _opex_month(it_w, capex_per_gpu, **over):
    kw = dict(it_w_per_gpu=it_w, pue=d.PUE.default, tariff_usd_per_kwh=d.TARIFF.default,
              datacenter_usd_per_kw_month=d.DATACENTER_USD_PER_KW_MONTH.default, capex_usd_per_gpu=capex_per_gpu,
              maintenance_frac_per_year=d.MAINTENANCE_FRAC_PER_YEAR.default,
              other_usd_per_gpu_month=d.OTHER_USD_PER_GPU_MONTH.default)
    return opex.opex_usd_per_gpu_month(**{**kw, **over})


def test_items_by_hand():
    # 1,389 W x 1.3 = 1,805.7 W at the meter; x 730 h = 1,318.16 kWh; x $0.078 = $102.82.
    assert opex.power_usd_per_gpu_month(1389, 1.3, 0.078) == pytest.approx(102.8166, rel=1e-5)
    # 1.389 kW x $46 per kW-month = $63.89; $31,250 x 2.97 % / 12 = $77.34.
    assert opex.datacenter_usd_per_gpu_month(1389, 46) == pytest.approx(63.894)
    assert opex.maintenance_usd_per_gpu_month(31_250, 0.0297) == pytest.approx(77.34375)


def test_power_is_linear_in_tariff_and_pue():
    assert opex.power_usd_per_gpu_month(1389, 1.3, 0.156) == pytest.approx(2 * opex.power_usd_per_gpu_month(1389, 1.3, 0.078))
    assert opex.power_usd_per_gpu_month(1389, 2.6, 0.078) == pytest.approx(2 * opex.power_usd_per_gpu_month(1389, 1.3, 0.078))


def test_opex_defaults_reproduce_the_seeds_unverifiable_totals():
    """S09: $249 and $359 per GPU-month are calibration targets; the defaults hit them within 0.5 %."""
    assert _opex_month(d.H100_IT_W_PER_GPU.default, H100_CAPEX) == pytest.approx(row("seed_numbers", "S09_h100_opex")["value"], rel=0.005)
    assert _opex_month(d.GB200_IT_W_PER_GPU.default, GB200_CAPEX) == pytest.approx(row("seed_numbers", "S09_gb200_opex")["value"], rel=0.005)


def test_calibration_solves_the_two_equations():
    rate, fraction = opex.calibrate_datacenter_and_maintenance((249, 359), (1389, 1833), (H100_CAPEX, GB200_CAPEX),
                                                               1.3, 0.078, 5)
    assert _opex_month(1389, H100_CAPEX, datacenter_usd_per_kw_month=rate, maintenance_frac_per_year=fraction) == pytest.approx(249)
    assert _opex_month(1833, GB200_CAPEX, datacenter_usd_per_kw_month=rate, maintenance_frac_per_year=fraction) == pytest.approx(359)
    # The defaults are this solve, rounded.
    assert rate == pytest.approx(d.DATACENTER_USD_PER_KW_MONTH.default, rel=0.01)
    assert fraction == pytest.approx(d.MAINTENANCE_FRAC_PER_YEAR.default, rel=0.01)
