"""Capex, opex and TCO functions: known values, the report's figures, and properties."""

import numpy as np
import pytest

from analysis import capex, costs, defaults as d, opex, tco
from analysis.data import fact, load_table

SEEDS = load_table("seed_numbers").set_index("number_id")["value"]


def _capex_per_gpu():
    return (capex.per_gpu_usd(d.H100_ALLIN_USD.default, d.H100_GPUS_PER_SERVER.default),
            capex.per_gpu_usd(d.GB200_ALLIN_USD.default, d.GB200_GPUS_PER_RACK.default))


def _opex_month(it_w, capex_per_gpu, **over):
    kw = dict(it_w_per_gpu=it_w, pue=d.PUE.default, tariff_usd_per_kwh=d.TARIFF.default,
              datacenter_usd_per_kw_month=d.DATACENTER_USD_PER_KW_MONTH.default, capex_per_gpu_usd=capex_per_gpu,
              maintenance_frac_per_year=d.MAINTENANCE_FRAC_PER_YEAR.default,
              other_usd_per_gpu_month=d.OTHER_USD_PER_GPU_MONTH.default)
    return opex.opex_usd_per_gpu_month(**{**kw, **over})


def _tco(capex_per_gpu, opex_month, **over):
    kw = dict(cost_of_capital=d.COST_OF_CAPITAL.default, useful_life_years=d.USEFUL_LIFE_YEARS.default,
              utilization=d.UTILIZATION.default)
    return tco.tco_per_gpu_hour_usd(capex_per_gpu, opex_month, **{**kw, **over})


def test_per_gpu_prices_match_the_reports_division():
    h100, gb200 = _capex_per_gpu()
    assert h100 == pytest.approx(fact("A05_h100_capex_per_gpu_allin"))
    assert gb200 == pytest.approx(fact("A08_gb200_capex_per_gpu_allin"), rel=1e-4)
    assert gb200 / h100 == pytest.approx(fact("A08_allin_ratio_vs_h100"), rel=0.005)


def test_capital_recovery_factor_known_values():
    assert capex.capital_recovery_factor(0.0, 4) == pytest.approx(0.25)
    assert capex.capital_recovery_factor(0.10, 4) == pytest.approx(0.315471, rel=1e-5)  # standard annuity table
    assert capex.capital_recovery_factor(0.08, 5) == pytest.approx(0.250456, rel=1e-5)


def test_longer_life_never_raises_the_hourly_charge():
    for rate in (0.0, 0.05, 0.081, 0.2):
        charges = [capex.capex_per_gpu_hour_usd(31_250, rate, n) for n in np.linspace(1, 10, 37)]
        assert all(b <= a for a, b in zip(charges, charges[1:], strict=False))


def test_costs_scale_linearly_with_price():
    assert capex.capex_per_gpu_hour_usd(62_500, 0.08, 4) == pytest.approx(2 * capex.capex_per_gpu_hour_usd(31_250, 0.08, 4))
    assert opex.power_usd_per_gpu_month(1389, 1.3, 0.156) == pytest.approx(2 * opex.power_usd_per_gpu_month(1389, 1.3, 0.078))
    assert costs.usd_per_million_tokens(2.84, 700) == pytest.approx(2 * costs.usd_per_million_tokens(1.42, 700))
    assert costs.run_cost_usd(2e12, 1.42, 700) == pytest.approx(2 * costs.run_cost_usd(1e12, 1.42, 700))


def test_lower_utilization_raises_cost_per_used_hour():
    assert _tco(31_250, 249, utilization=0.5) == pytest.approx(2 * _tco(31_250, 249, utilization=1.0))


def test_solve_cost_of_capital_inverts_the_charge():
    rate = capex.solve_cost_of_capital(31_250, 1.0, 4)
    assert capex.capex_per_gpu_hour_usd(31_250, rate, 4) == pytest.approx(1.0, rel=1e-9)
    # below straight-line depreciation (an expensive tariff leaves little of $1.42 for capital):
    # no non-negative rate reaches it, and the nearest, 0, is the answer
    assert capex.solve_cost_of_capital(31_250, 0.1, 4) == 0.0
    assert capex.solve_cost_of_capital(31_250, -0.5, 4) == 0.0


def test_opex_defaults_reproduce_the_seeds_unverifiable_totals():
    """S09: $249 and $359 per GPU-month are calibration targets; the defaults hit them within 0.5 %."""
    h100, gb200 = _capex_per_gpu()
    assert _opex_month(d.H100_IT_W_PER_GPU.default, h100) == pytest.approx(SEEDS["S09_h100_opex"], rel=0.005)
    assert _opex_month(d.GB200_IT_W_PER_GPU.default, gb200) == pytest.approx(SEEDS["S09_gb200_opex"], rel=0.005)


def test_calibration_solves_the_two_equations():
    rate, fraction = opex.calibrate_datacenter_and_maintenance((249, 359), (1389, 1833), _capex_per_gpu(), 1.3, 0.078, 5)
    h100, gb200 = _capex_per_gpu()
    assert _opex_month(1389, h100, datacenter_usd_per_kw_month=rate, maintenance_frac_per_year=fraction) == pytest.approx(249)
    assert _opex_month(1833, gb200, datacenter_usd_per_kw_month=rate, maintenance_frac_per_year=fraction) == pytest.approx(359)


def test_tco_reproduces_the_reports_basis_and_ratio():
    h100, gb200 = _capex_per_gpu()
    h100_tco = _tco(h100, _opex_month(d.H100_IT_W_PER_GPU.default, h100))
    gb200_tco = _tco(gb200, _opex_month(d.GB200_IT_W_PER_GPU.default, gb200))
    assert h100_tco == pytest.approx(fact("A13_h100_usd_per_gpu_hour"), rel=0.01)
    assert tco.breakeven_speedup(gb200_tco, h100_tco) == pytest.approx(fact("A12_tco_ratio"), rel=0.05)


def test_cost_per_million_tokens_reproduces_the_report():
    basis = fact("A13_h100_usd_per_gpu_hour")
    # SA's MFU-derived throughputs (benchmarks.csv, SemiAnalysis rows) and NVIDIA's 405B row.
    from analysis.benchmarks import load_benchmarks, pick
    bench = load_benchmarks()
    jan = pick(bench, publisher="SemiAnalysis", model_id="gpt3_175b", precision="fp8", date="2024-01")
    dec = pick(bench, publisher="SemiAnalysis", model_id="gpt3_175b", precision="fp8", date="2024-12")
    l405 = pick(bench, source_id="nv_dgxc_v25_02", model_id="llama31_405b", precision="bf16", gpus=2304)
    assert costs.usd_per_million_tokens(basis, jan["tokens_per_s_per_gpu"]) == pytest.approx(fact("A22_fp8_cost_per_1m_jan2024"), rel=0.015)
    assert costs.usd_per_million_tokens(basis, dec["tokens_per_s_per_gpu"]) == pytest.approx(fact("A22_fp8_cost_per_1m_dec2024"), rel=0.005)
    per_m = costs.usd_per_million_tokens(basis, l405["tokens_per_s_per_gpu"])
    assert per_m == pytest.approx(fact("A34_405b_bf16_cost_per_1m"), rel=0.005)
    assert costs.run_cost_usd(fact("A35_train_tokens"), basis, l405["tokens_per_s_per_gpu"]) == pytest.approx(
        fact("A35_405b_15t_cost"), rel=0.01)


def test_breakeven_and_margin_properties():
    assert tco.breakeven_speedup(2.36, 1.42) == pytest.approx(2.36 / 1.42)
    assert tco.rental_margin(1.42, 1.42) == 0
    assert tco.rental_margin(2.84, 1.42) == pytest.approx(1.0)
    assert costs.perf_per_tco_ratio(2.0, 2.0) == costs.perf_per_tco_ratio(1.0, 1.0)


def test_build_up_rejects_all_in_below_server():
    assert capex.capex_build_up_usd(190_000, 250_000)["networking, storage, other"] == 60_000
    with pytest.raises(ValueError):
        capex.capex_build_up_usd(250_000, 190_000)


def test_system_tco_from_the_default_parameters():
    """The function every chapter uses to price a GPU-hour gives the TCO chapter's numbers."""
    params = {p.name: p.default for p in d.TCO_INPUTS}
    h100 = tco.system_tco_per_gpu_hour_usd("h100", params)
    gb200 = tco.system_tco_per_gpu_hour_usd("gb200", params)
    assert h100 == pytest.approx(fact("A13_h100_usd_per_gpu_hour"), rel=0.01)
    assert gb200 / h100 == pytest.approx(fact("A12_tco_ratio"), rel=0.05)
    assert tco.system_tco_per_gpu_hour_usd("h100", {**params, "tariff_usd_per_kwh": 0.2}) > h100
