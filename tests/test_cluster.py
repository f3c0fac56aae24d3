"""The 100k-H100 cluster arithmetic against SemiAnalysis's printed figures, and properties that
must hold whatever the inputs."""

import numpy as np
import pytest

from analysis import cluster, hardware
from analysis.data.load import fact

H100_FP8, H100_BF16 = hardware.peak_tflops("h100_sxm", "fp8"), hardware.peak_tflops("h100_sxm", "bf16")


def test_peaks_reproduce_b09():
    assert cluster.cluster_peak_flops(100_000, H100_FP8) / 1e18 == pytest.approx(fact("B09_fp8_eflops"), rel=0.005)
    assert cluster.cluster_peak_flops(100_000, H100_BF16) / 1e18 == pytest.approx(fact("B09_bf16_eflops"), rel=0.005)


def test_ratio_vs_a100_cluster_reproduces_b10_within_1pct():
    ratio = cluster.peak_ratio(100_000, H100_FP8, 20_000, hardware.peak_tflops("a100_sxm_80gb", "bf16"))
    assert ratio == pytest.approx(fact("B10_peak_ratio"), rel=0.01)


def test_b14_component_build_up_checks_c01_and_c02():
    """SA's 100k-article components (700 W + 575 W, +10 %) against its energy article's server-only
    (C01) and all-in (C02) watts per H100: 1,402.5 W against 1,389 W, within 1.5 %."""
    per_gpu = cluster.it_power_per_gpu_w(fact("B14_gpu_w"), fact("B14_server_w_per_gpu"), fact("B14_network_storage_frac"))
    assert per_gpu == pytest.approx(1_402.5)
    assert fact("B14_gpu_w") + fact("B14_server_w_per_gpu") == pytest.approx(fact("C01_w_per_gpu"))
    assert per_gpu == pytest.approx(fact("C02_w_per_gpu"), rel=0.015)


def test_annual_energy_and_bill_reproduce_b04_b05_within_1pct():
    """100k x 1,389 W (C02) x PUE 1.3 x 8,760 h = 1.582 TWh against SA's 1.59 TWh, and at $0.078/kWh
    $123.4M against its $123.9M."""
    mwh = cluster.annual_energy_mwh(cluster.facility_w(cluster.critical_it_w(100_000, fact("C02_w_per_gpu")), 1.3))
    assert mwh / 1e6 == pytest.approx(100_000 * 1_389 * 1.3 * 8_760 / 1e12)
    assert mwh / 1e6 == pytest.approx(fact("B04_annual_twh"), rel=0.01)
    assert cluster.annual_electricity_usd(mwh, fact("B05_tariff")) == pytest.approx(fact("B05_annual_cost_usd"), rel=0.01)


def test_failure_arithmetic_reproduces_b25_to_b28():
    assert cluster.first_failure_minutes(fact("B27_mttf_years"), fact("B27_links")) == pytest.approx(
        fact("B27_first_failure_min"), abs=0.005)
    assert cluster.first_failure_minutes(fact("B28_mttf_years"), fact("B28_links")) == pytest.approx(
        fact("B28_first_failure_min"), abs=0.005)
    assert cluster.gpu_days_lost_checkpoint(100_000, 100, 2.0) == pytest.approx(fact("B25_gpu_days"), rel=0.002)
    copy_s = cluster.weights_copy_seconds(fact("B26_hbm_gb"), fact("B26_backend_gbps"))
    assert copy_s == pytest.approx(fact("B26_copy_s"))
    in_memory = cluster.gpu_days_lost_in_memory(100_000, 2.0, copy_s)
    assert in_memory == pytest.approx(fact("B26_gpu_days_step") + fact("B26_gpu_days_copy"), rel=0.02)


def test_more_links_never_delay_the_first_failure():
    links = np.geomspace(1, 1e6, 50)
    minutes = cluster.first_failure_minutes(5.0, links)
    assert np.all(np.diff(minutes) < 0)


def test_first_failure_rejects_no_links():
    with pytest.raises(ValueError):
        cluster.first_failure_minutes(5.0, 0)


def test_energy_and_cost_scale_linearly():
    base = cluster.annual_energy_mwh(cluster.facility_w(1e8, 1.2))
    assert cluster.annual_energy_mwh(cluster.facility_w(1e8, 2.4)) == pytest.approx(2 * base)
    assert cluster.annual_energy_mwh(cluster.facility_w(1e8, 1.2), 0.5) == pytest.approx(base / 2)
    assert cluster.annual_electricity_usd(base, 0.10) == pytest.approx(2 * cluster.annual_electricity_usd(base, 0.05))
    assert cluster.cluster_capex_usd(100_000, 62_500) == pytest.approx(2 * cluster.cluster_capex_usd(100_000, 31_250))


def test_in_memory_recovery_loses_less_than_checkpoint_restart():
    for gpus in (1_000, 16_384, 100_000):
        assert cluster.gpu_days_lost_in_memory(gpus, 2.0, 1.6) < cluster.gpu_days_lost_checkpoint(gpus, 100, 2.0)
