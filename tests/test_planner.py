"""The planner (``analysis.planner``) and ``python -m analysis plan``: values against hand
arithmetic, the JSON keys, and bad input exiting with code 2."""

from __future__ import annotations

import json

import pytest

from analysis import defaults as d
from analysis import planner, reliability
from analysis.cli import main

KEYS = ["days", "days_with_failures", "gpu_hours", "cost_usd", "energy_mwh", "household_years", "co2_t",
        "interruptions", "goodput", "checkpoint_interval_min"]


def _llama70b(**kw):
    base = dict(model=planner.model_from_registry("llama31_70b"), tokens=15e12, gpu_id="h100_sxm", gpus=4096,
                mfu=0.40, usd_per_gpu_hour=2.0, pue=1.2, grid_g_co2_per_kwh=400.0)
    return planner.plan(planner.PlanInputs(**{**base, **kw}))


def test_days_gpu_hours_cost_energy_by_hand():
    r = _llama70b()
    # 6 N + 12 L h s: N = 70.55e9 - 128256 x 8192 untied input embedding, L = 80, h = 8192, s = 8192.
    n = 70_553_706_496 - 128_256 * 8192
    fpt = 6 * n + 12 * 80 * 8192 * 8192
    days = 15e12 * fpt / (4096 * 989.4e12 * 0.40) / 86_400
    assert r.results["days"]["value"] == pytest.approx(days, rel=1e-9)
    good = r.results["goodput"]["value"]
    assert r.results["days_with_failures"]["value"] == pytest.approx(days / good, rel=1e-9)
    gpu_hours = 4096 * days / good * 24
    assert r.results["gpu_hours"]["value"] == pytest.approx(gpu_hours, rel=1e-9)
    assert r.results["cost_usd"]["value"] == pytest.approx(2.0 * gpu_hours, rel=1e-9)
    mwh = gpu_hours * d.H100_IT_W_PER_GPU.default * 1.2 / 1e6
    assert r.results["energy_mwh"]["value"] == pytest.approx(mwh, rel=1e-9)
    assert r.results["co2_t"]["value"] == pytest.approx(mwh * 1_000 * 400 / 1e6, rel=1e-9)
    assert r.results["household_years"]["value"] == pytest.approx(mwh * 1_000 / d.HOUSEHOLD_KWH_PER_YEAR.default)


def test_failures_follow_daly_and_the_llama3_rates():
    r = _llama70b()
    mtbf = reliability.job_mtbf_hours(4096, 1.0 / reliability.llama3_rates()["job"])
    write = d.CHECKPOINT_WRITE_SECONDS.default / 3600
    interval = reliability.daly_interval(write, mtbf)
    assert r.results["checkpoint_interval_min"]["value"] == pytest.approx(interval * 60)
    good = reliability.expected_goodput(mtbf, interval, write, d.FAILURE_DETECTION_MINUTES.default / 60,
                                        d.RESTART_MINUTES.default / 60, reliability.llama3_rates()["planned_per_hour"])
    assert r.results["goodput"]["value"] == pytest.approx(good)
    # ~ wall-clock hours / MTBF unexpected failures, plus the planned ones
    wall = r.results["days_with_failures"]["value"] * 24
    assert r.results["interruptions"]["value"] == pytest.approx(
        wall / mtbf + wall * reliability.llama3_rates()["planned_per_hour"], rel=0.01)


def test_three_ways_to_give_throughput_agree():
    m = planner.model_from_registry("llama31_70b")
    fpt = planner.flops.model_flops_per_token(m)
    by_mfu = _llama70b().results["days"]["value"]
    rate = 0.40 * 989.4e12 / fpt
    by_rate = _llama70b(mfu=None, tokens_per_s_per_gpu=rate).results["days"]["value"]
    by_tflops = _llama70b(mfu=None, achieved_tflops=0.40 * 989.4, flops_counted="model").results["days"]["value"]
    assert by_rate == pytest.approx(by_mfu) and by_tflops == pytest.approx(by_mfu)
    # the same figure read as hardware FLOPs with full recomputation means fewer model FLOPs: longer
    hw = _llama70b(mfu=None, achieved_tflops=0.40 * 989.4, flops_counted="hardware-full").results["days"]["value"]
    assert hw / by_mfu == pytest.approx(planner.flops.hardware_flops_per_token(m, recompute="full") / fpt)


def test_bands_bracket_the_point_and_are_seeded():
    a, b = _llama70b(pue=None), _llama70b(pue=None)
    for key in KEYS:
        r = a.results[key]
        assert r["p10"] <= r["p50"] <= r["p90"]
        assert r == b.results[key]
    assert a.results["energy_mwh"]["p10"] < a.results["energy_mwh"]["p90"]


def test_estimated_mfu_reports_its_method_and_error():
    r = _llama70b(mfu=None)
    assert any("estimated" in n and "leave-one-out" in n for n in r.notes)
    assert 0.05 <= r.steps["mfu"] <= 0.8


def test_no_price_for_an_unmodelled_gpu_is_null_not_a_guess():
    r = _llama70b(gpu_id="h800_sxm", usd_per_gpu_hour=None)
    assert r.results["cost_usd"]["value"] is None


def test_tco_price_is_the_books_tco_for_h100():
    from analysis.chapters import compute_section
    r = _llama70b(usd_per_gpu_hour=None, pue=None)
    assert r.steps["usd_per_gpu_hour"] == pytest.approx(compute_section("tco")["h100_tco_usd_per_gpu_hour"])


# --- the command line ----------------------------------------------------------------------------

BASE = ["plan", "--model", "llama31_8b", "--tokens", "1e12", "--gpu", "h100_sxm", "--gpus", "512"]


def test_json_has_every_key_with_bands(capsys, tmp_path):
    out = tmp_path / "plan.json"
    assert main([*BASE, "--mfu", "0.4", "--json", "--out", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == KEYS
    for key in KEYS:
        assert set(doc[key]) == {"value", "unit", "p10", "p50", "p90"}
    assert json.loads(out.read_text()) == doc


def test_readable_table_prints_owning_and_renting(capsys):
    assert main([*BASE, "--mfu", "0.4"]) == 0
    text = capsys.readouterr().out
    assert "Owning (the book's TCO)" in text and "Renting (data/cloud_prices.csv)" in text


def test_params_instead_of_model(capsys):
    assert main(["plan", "--params", "7e9", "--layers", "32", "--hidden", "4096", "--seq-len", "4096", "--tokens",
                 "2e12", "--gpu", "h100_sxm", "--gpus", "256", "--mfu", "0.4", "--json"]) == 0
    days = json.loads(capsys.readouterr().out)["days"]["value"]
    assert days == pytest.approx(2e12 * (6 * 7e9 + 12 * 32 * 4096 * 4096) / (256 * 989.4e12 * 0.4) / 86_400)


@pytest.mark.parametrize("extra,flag", [
    (["--mfu", "1.5"], "--mfu"),
    (["--mfu", "abc"], "--mfu"),
    (["--gpus", "0"], "--gpus"),
    (["--gpus", "2.5"], "--gpus"),
    (["--pue", "0.8"], "--pue"),
    (["--tokens", "-1"], "--tokens"),
    (["--mfu", "0.4", "--tokens-per-s-per-gpu", "3000"], "--mfu"),
    (["--achieved-tflops", "300"], "--flops-counted"),
    (["--achieved-tflops", "300", "--flops-counted", "gpu"], "--flops-counted"),
    (["--model", "gpt5"], "--model"),
    (["--gpu", "tpu_v4"], "--gpu"),
    (["--precision", "fp4"], "--precision"),
    (["--failure-model", "guess"], "--failure-model"),
])
def test_bad_input_exits_2_naming_the_flag(extra, flag, capsys, tmp_path):
    out = tmp_path / "plan.json"
    args = list(BASE)
    for i in range(0, len(extra), 2):  # a repeated flag replaces the base one
        if extra[i] in args:
            args[args.index(extra[i]) + 1] = extra[i + 1]
        else:
            args += extra[i:i + 2]
    assert main([*args, "--out", str(out)]) == 2
    assert flag in capsys.readouterr().err
    assert not out.exists()


def test_model_and_params_conflict(capsys):
    assert main([*BASE, "--params", "7e9"]) == 2
    assert "--model" in capsys.readouterr().err


def test_fp8_on_a_gpu_without_it(capsys):
    assert main(["plan", "--model", "gpt3_175b", "--tokens", "1e12", "--gpu", "a100_sxm_80gb", "--gpus", "8",
                 "--precision", "fp8"]) == 2
    assert "--precision" in capsys.readouterr().err


def test_measured_fit_uses_the_fit_to_measured_job_failures(capsys):
    """--failure-model measured-fit takes the job MTBF from the fit to measured job failure rates
    (reliability.measured_job_mtbf_hours), which differs from the per-GPU scaling."""
    import json

    assert main([*BASE, "--mfu", "0.4", "--failure-model", "measured-fit", "--json"]) == 0
    fit = json.loads(capsys.readouterr().out)
    assert main([*BASE, "--mfu", "0.4", "--failure-model", "per-gpu", "--json"]) == 0
    per_gpu = json.loads(capsys.readouterr().out)
    assert fit["days"]["value"] == per_gpu["days"]["value"]  # failures do not change the compute time
    assert fit["interruptions"]["value"] != per_gpu["interruptions"]["value"]
