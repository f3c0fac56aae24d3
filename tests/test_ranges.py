"""Every value the book calls valid gives an answer. Over every parameter's declared range, the
model functions the chapters call return finite numbers, or the inputs break a rule between
parameters and the error (exit code 2) names them. Hypothesis draws the combinations
(derandomized: the same examples every run); two real executions of every chapter, with every
parameter at its low and at its high bound, check the notebooks themselves."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis import capex, cluster, constraints, opex, reliability, uncertainty
from analysis.params import ParameterError
from analysis.sections import SECTIONS, all_params, get_section
from analysis.tco import system_tco_per_gpu_hour_usd

from conftest import REPO

PARAMS = all_params()
TOKENS_PER_S, RATES = uncertainty.reference_tokens_per_s(), reliability.llama3_rates()
SETTINGS = settings(derandomize=True, max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def strategy(p):
    if p.kind is str:
        return st.sampled_from(p.allowed())
    if p.kind is int:
        return st.integers(int(p.low), int(p.high))
    return st.floats(p.low, p.high, allow_nan=False)


def values_of(names) -> st.SearchStrategy:
    """Random values of ``names``, each inside its declared range, edges included."""
    def one(name):
        p = PARAMS[name]
        edges = [] if p.kind is str else [p.low, p.high]
        edges = [int(e) if p.kind is int else float(e) for e in edges]
        return st.one_of(st.sampled_from(edges), strategy(p)) if edges else strategy(p)
    return st.fixed_dictionaries({name: one(name) for name in names})


def _finite(results: dict) -> None:
    bad = {k: v for k, v in results.items() if not np.all(np.isfinite(v))}
    assert not bad, bad


def _checked(section: str, values: dict) -> bool:
    """False when the values break a rule between parameters; the message must name them."""
    try:
        constraints.check({section: values})
    except ParameterError as exc:
        assert sum(f"'{name}'" in str(exc) for name in values) >= 2, exc
        return False
    return True


@SETTINGS
@given(values_of([p.name for p in get_section("uncertainty").params]))
def test_headline_model_is_finite_over_the_ranges(values):
    """The point model behind the uncertainty, scenarios and compare outputs (TCO, break-even with
    downtime, dollars per token, joules, household-years)."""
    if _checked("uncertainty", values):
        _finite(uncertainty.evaluate(uncertainty.build_values(values), TOKENS_PER_S, RATES))


@SETTINGS
@given(values_of([p.name for p in get_section("capex").params] + [p.name for p in get_section("opex").params]))
def test_capex_opex_and_tco_calls_are_finite_over_the_ranges(values):
    """What the capex, opex and tco chapters compute from their parameters."""
    if not (_checked("capex", values) and _checked("opex", values)):
        return
    per_gpu = {"h100": capex.per_gpu_usd(values["h100_allin_usd"], values["h100_gpus_per_server"]),
               "gb200": capex.per_gpu_usd(values["gb200_allin_usd"], values["gb200_gpus_per_rack"])}
    capex.capex_build_up_usd(values["h100_server_usd"], values["h100_allin_usd"])
    capex.capex_build_up_usd(values["gb200_rack_usd"], values["gb200_allin_usd"])
    it_w = {"h100": values["h100_it_w_per_gpu"], "gb200": values["gb200_it_w_per_gpu"]}
    months = {name: opex.opex_usd_per_gpu_month(
        it_w_per_gpu=it_w[name], pue=values["pue"], tariff_usd_per_kwh=values["tariff_usd_per_kwh"],
        datacenter_usd_per_kw_month=values["datacenter_usd_per_kw_month"], capex_per_gpu_usd=per_gpu[name],
        maintenance_frac_per_year=values["maintenance_frac_per_year"],
        other_usd_per_gpu_month=values["other_usd_per_gpu_month"]) for name in per_gpu}
    assert months["h100"] > 0 and math.isfinite(months["gb200"] / months["h100"])
    tco = {name: system_tco_per_gpu_hour_usd(name, values) for name in per_gpu}
    _finite(tco)
    hourly_opex = months["h100"] / (opex.HOURS_PER_MONTH * values["utilization"])
    for years in (values["useful_life_years"], values["useful_life_years"] + 1):
        rate = capex.solve_cost_of_capital(per_gpu["h100"], 1.42 - hourly_opex, years, values["utilization"])
        assert 0.0 <= rate <= 5.0


@SETTINGS
@given(values_of([p.name for p in get_section("cluster").params]))
def test_cluster_calls_are_finite_over_the_ranges(values):
    from analysis import hardware

    peaks = {dtype: hardware.peak_tflops(values["gpu"], dtype) for dtype in ("fp8", "bf16")}
    it_w = cluster.it_power_per_gpu_w(hardware.tdp_w(values["gpu"]), values["server_w_per_gpu"],
                                      values["network_storage_frac"])
    facility = cluster.facility_w(cluster.critical_it_w(values["gpus"], it_w), values["pue"])
    mwh = cluster.annual_energy_mwh(facility, values["load_factor"])
    _finite({
        "peak": cluster.cluster_peak_flops(values["gpus"], peaks[values["dtype"]]),
        "usd": cluster.annual_electricity_usd(mwh, values["tariff_usd_per_kwh"]),
        "capex": cluster.cluster_capex_usd(values["gpus"], values["capex_per_gpu_usd"]),
        "first_failure": cluster.first_failure_minutes(values["link_mttf_years"], values["gpus"] * values["links_per_gpu"]),
        "lost": cluster.gpu_days_lost_checkpoint(values["gpus"], values["checkpoint_interval_steps"],
                                                 values["step_time_s"]),
        "copy": cluster.weights_copy_seconds(hardware.memory_gb(values["gpu"]), values["backend_gbps"]),
    })


# Numerical settings whose high bound only costs time (10 million Monte Carlo draws, 100,000
# goodput runs: minutes on two cores); they ran at their high bounds once, by hand, and passed.
COMPUTE_BUDGET = ("mc_draws", "goodput_trials")


@pytest.mark.parametrize("bound", ["low", "high"])
def test_every_chapter_runs_with_every_parameter_at_a_bound(bound, tmp_path):
    """All thirteen sections executed (2 processes) with every numeric parameter at its ``bound``
    and every text parameter at its last choice for "high"; where a rule between parameters
    forbids the extreme (all opex items 0; a job too large to make progress), the first parameter
    the rule names keeps its default."""
    from analysis.pipeline.build import execute_sections, resolve_all

    overrides = {}
    for name, p in PARAMS.items():
        if name in COMPUTE_BUDGET:
            overrides[name] = p.default
        elif p.kind is str:
            overrides[name] = p.allowed()[-1] if bound == "high" else p.default
        else:
            overrides[name] = p.kind(getattr(p, bound))
    while True:  # a broken rule names its parameters: put the first one back to its default
        values = resolve_all(overrides)
        try:
            constraints.check(values)
            break
        except ParameterError as exc:
            first = str(exc).split("'")[1]
            assert overrides[first] != PARAMS[first].default, exc
            overrides[first] = PARAMS[first].default
    results, notebooks = tmp_path / "results", tmp_path / "notebooks"
    results.mkdir()
    notebooks.mkdir()
    records, _ = execute_sections(values, REPO, 2, tmp_path / "cache", results, notebooks)
    assert len(records) == len(SECTIONS)
