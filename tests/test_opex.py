"""Operating cost (:mod:`analysis.opex`): each item by hand, the defaults from public anchors
(data/cost_anchors.csv) rather than the seed's unverifiable totals, and the implied-rate solve.
Maintenance's own build-up is tested in tests/test_maintenance.py."""

import pytest

from analysis import capex, opex
from analysis.chapters import gpu_cost
from analysis.data.load import load_table
from analysis.params import defaults as d
from analysis.params.parameters import Parameters

H100_CAPEX = capex.per_gpu_usd(d.H100_ALLIN_USD.default, d.H100_GPUS_PER_SERVER.default)
GB200_CAPEX = capex.per_gpu_usd(d.GB200_ALLIN_USD.default, d.GB200_GPUS_PER_RACK.default)
DEFAULTS = Parameters({p.name: p.default for p in d.TCO_INPUTS})


def _opex_month(it_w, maintenance_usd, **over):
    kw = dict(it_w_per_gpu=it_w, pue=d.PUE.default, tariff_usd_per_kwh=d.TARIFF.default,
              datacenter_usd_per_kw_month=d.DATACENTER_USD_PER_KW_MONTH.default,
              maintenance_usd_per_gpu_month=maintenance_usd, other_usd_per_gpu_month=d.OTHER_USD_PER_GPU_MONTH.default,
              load_factor=d.LOAD_FACTOR.default)
    return opex.opex_usd_per_gpu_month(**{**kw, **over})


def test_items_by_hand():
    # 1,389 W x 1.3 = 1,805.7 W at the meter; x 730 h = 1,318.16 kWh; x $0.078 = $102.82 at the rated draw,
    # and x 0.82 = $84.31 at the measured average draw, the book's energy basis.
    assert opex.power_usd_per_gpu_month(1389, 1.3, 0.078, 1.0) == pytest.approx(102.8166, rel=1e-5)
    assert opex.power_usd_per_gpu_month(1389, 1.3, 0.078, 0.82) == pytest.approx(84.3096, rel=1e-5)
    # 1.389 kW x $130 per kW-month = $180.57; $31,250 x 10 % / 12 = $260.42.
    assert opex.datacenter_usd_per_gpu_month(1389, 130) == pytest.approx(180.57)
    assert opex.maintenance_usd_per_gpu_month(31_250, 0.10) == pytest.approx(260.416667)


def test_power_is_linear_in_tariff_pue_and_load_factor():
    base = opex.power_usd_per_gpu_month(1389, 1.3, 0.078, 0.5)
    assert opex.power_usd_per_gpu_month(1389, 1.3, 0.156, 0.5) == pytest.approx(2 * base)
    assert opex.power_usd_per_gpu_month(1389, 2.6, 0.078, 0.5) == pytest.approx(2 * base)
    assert opex.power_usd_per_gpu_month(1389, 1.3, 0.078, 1.0) == pytest.approx(2 * base)


def test_defaults_come_from_public_anchors_not_the_seed():
    """The datacenter rate is the midpoint of CBRE's $120-140 Northern Virginia wholesale rents;
    maintenance is built from parts (tests/test_maintenance.py); none is calibrated to the seed."""
    anchors = load_table("cost_anchors").set_index("anchor_id")
    nova = anchors.loc["colo_nova_wholesale_2023"]
    assert d.DATACENTER_USD_PER_KW_MONTH.default == (nova["value"] + nova["value_high"]) / 2
    for p in (d.DATACENTER_USD_PER_KW_MONTH, d.OTHER_USD_PER_GPU_MONTH, *d.MAINTENANCE_INPUTS):
        assert p.basis != "calibrated" and p.source != "seed_000", p.name
    maintenance = gpu_cost.maintenance_usd_per_gpu_month(DEFAULTS, "h100")
    h100 = _opex_month(d.H100_IT_W_PER_GPU.default, maintenance)
    assert h100 == pytest.approx(1.389 * d.PUE.default * 0.82 * 730 * 0.078 + 180.57 + maintenance, rel=1e-5)
    assert sum(gpu_cost.opex_items_usd_per_gpu_month(DEFAULTS, "h100").values()) == pytest.approx(h100)


def test_implied_rates_solve_the_two_equations():
    rate, fraction = opex.implied_datacenter_and_maintenance((249, 359), (1389, 1833), (H100_CAPEX, GB200_CAPEX),
                                                             d.PUE.default, 0.078, 0, d.LOAD_FACTOR.default)
    for it_w, capex_per_gpu, seed in ((1389, H100_CAPEX, 249), (1833, GB200_CAPEX, 359)):
        maintenance = opex.maintenance_usd_per_gpu_month(capex_per_gpu, fraction)
        assert _opex_month(it_w, maintenance, datacenter_usd_per_kw_month=rate) == pytest.approx(seed)
    # The seed's totals need a rent below every public rate found (the lowest: $90, NoVA 2022).
    assert rate < load_table("cost_anchors").query("param == 'datacenter_usd_per_kw_month'")["value"].min()
