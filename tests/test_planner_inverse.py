"""Planning backwards (analysis.planner.inverse, ``plan --days``, ``plan --budget-usd``) against
hand-worked answers: the inverse of a forward plan returns its GPUs, a budget's tokens priced back
return the budget, the chance of a deadline is the share of the plan's own draws; and the issue's
bad inputs exit 2 naming the flag, with nothing written. Also the planner's refusals and notes of
issue 47 (impossible plans, in-range restarts, /dev/stdout, --full-recompute with a given rate)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from analysis import flops, planner
from analysis.cli import main
from analysis.planner import core, failures, inverse, inverse_table, strong

MODEL = "llama31_70b"


def _template(**kw):
    base = dict(model=planner.model_from_registry(MODEL), tokens=15e12, gpu_id="h100_sxm", gpus=8, draws=1_000)
    return planner.PlanInputs(**{**base, **kw})


# --- a deadline ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("model,gpus", [("llama31_70b", 4096), ("llama31_405b", 24_576)])
def test_the_inverse_of_a_forward_plan_returns_its_gpus(model, gpus):
    """Plan a whole-node job forward (24,576 GPUs: past the largest published run, so the
    strong-scaling model carries it), then ask for its own days back: the same job."""
    t = _template(model=planner.model_from_registry(model))
    forward = planner.plan(replace(t, gpus=gpus, strong_scaling=True))
    answer = inverse.deadline_job(t, forward.results["days_with_failures"]["value"])
    assert answer.feasible and answer.gpus == gpus
    assert answer.plan.results["days_with_failures"]["value"] == pytest.approx(forward.results["days_with_failures"]["value"])
    if gpus > strong.evidence_gpus():
        assert answer.plan.throughput["strong_scaling"]["efficiency"] < 1


def test_deadline_by_hand_at_a_given_mfu():
    """At a given MFU (below the largest published job, no strong scaling) the wall-clock days of N
    GPUs are tokens x FLOPs per token / (N x peak x MFU) / goodput(N): the smallest whole node
    count within 60 days, found by walking the nodes one by one."""
    t = _template(mfu=0.40)
    fpt = flops.model_flops_per_token(t.model)
    peak = core.peak_tflops("h100_sxm", "bf16") * 1e12

    def wall_days(n):
        rec = failures.Recovery.of()
        good = failures.goodput(n, recovery=rec)
        return 15e12 * fpt / (n * peak * 0.40) / 86_400 / good

    nodes = next(k for k in range(1, 10_000) if wall_days(8 * k) <= 60)
    answer = inverse.deadline_job(t, 60)
    assert answer.gpus == 8 * nodes and answer.nodes == nodes and answer.per_node == 8
    assert answer.plan.results["days_with_failures"]["value"] == pytest.approx(wall_days(8 * nodes), rel=1e-9)
    assert wall_days(8 * (nodes - 1)) > 60


def test_chance_of_the_deadline_is_the_share_of_the_plans_own_draws():
    t = _template()
    a = inverse.deadline_job(t, 60)
    draws = a.plan.samples["days_with_failures"]
    assert a.chance == pytest.approx(np.mean(draws <= 60))
    assert 0.2 < a.chance < 0.8  # the point just meets it, so the draws split about it
    assert a.gpus_for_chance is not None and a.gpus_for_chance > a.gpus
    at = inverse._plan_at(t, a.gpus_for_chance)
    below = inverse._plan_at(t, a.gpus_for_chance - 8)
    assert inverse.chance_of(at, 60) >= inverse.CHANCE > inverse.chance_of(below, 60)
    assert a.chance_at_that == pytest.approx(inverse.chance_of(at, 60))


def test_a_deadline_no_size_meets_gives_the_fastest_and_says_so():
    t = _template(model=planner.model_from_registry("llama31_405b"))
    a = inverse.deadline_job(t, 10)
    assert not a.feasible and a.fastest_days > 10
    assert a.plan.results["days_with_failures"]["value"] == pytest.approx(a.fastest_days)
    wall, _, _ = inverse.time_curve(replace(t, strong_scaling=True), np.array([a.gpus - 8.0, a.gpus, a.gpus + 8.0]))
    assert wall[1] <= wall[0] and wall[1] <= wall[2]  # the fastest size
    assert a.gpus_for_chance is None


def test_more_gpus_are_not_free_past_the_largest_published_job():
    """Past 16,384 GPUs the rate per GPU falls (strong scaling); a 70B model's 16M-token batch feeds
    at most 1,953 copies of 8 GPUs, so past that size time stops falling at all (and the extra GPUs
    only add failures)."""
    t = _template(model=planner.model_from_registry("llama31_405b"))
    gpus = np.array([8192.0, 16384.0, 32768.0, 65536.0])
    wall, hours, rate = inverse.time_curve(replace(t, strong_scaling=True), gpus)
    assert rate[2] < rate[1] and rate[3] < rate[2]
    assert hours[3] > hours[2] > hours[1]  # each doubling buys less: more GPU-hours for the same tokens
    small = _template()
    wall70, _, _ = inverse.time_curve(replace(small, strong_scaling=True), np.array([16384.0, 32768.0]))
    assert wall70[0] <= wall70[1] < 1.1 * wall70[0]


def test_power_budget_is_an_extra_limit_on_the_deadline():
    t = _template(model=planner.model_from_registry("llama31_405b"))
    free = inverse.deadline_job(t, 10)
    capped = inverse.deadline_job(t, 10, power_mw=20.0)
    assert capped.max_gpus < free.max_gpus and capped.gpus <= capped.max_gpus
    assert "power budget" in capped.limit_why


# --- a budget ----------------------------------------------------------------------------------------------

def test_a_budgets_tokens_priced_back_return_the_budget():
    """$20M by 60 days at $2 an H100-hour: the smallest whole-node job that can spend it in time is
    ceil(20e6 / (2 x 8 x 24 x 60)) nodes; the tokens it buys, planned on that job, cost $20M."""
    t = _template(tokens=1e12)
    a = inverse.spend(t, 2e7, 2.0, "the given price", days=60, tokens_given=False)
    nodes = math.ceil(2e7 / (2.0 * 8 * 24 * 60))
    assert a.gpus == 8 * nodes and a.buys == "tokens"
    back = planner.plan(replace(t, gpus=a.gpus, tokens=a.tokens, usd_per_gpu_hour=2.0, strong_scaling=True))
    assert back.results["cost_usd"]["value"] == pytest.approx(2e7, rel=1e-9)
    assert back.results["days_with_failures"]["value"] <= 60
    assert a.tokens_band[0] < a.tokens < a.tokens_band[1]


def test_a_budget_with_tokens_buys_the_fastest_job_it_can_pay_for():
    t = _template()
    a = inverse.spend(t, 2e7, 2.0, "the given price")
    assert a.feasible and a.plan.results["cost_usd"]["value"] <= 2e7
    faster = [g for g in (a.gpus + 8.0, a.gpus * 2.0)]
    wall, hours, _ = inverse.time_curve(replace(t, usd_per_gpu_hour=2.0, strong_scaling=True), np.array(faster))
    assert all(h * 2.0 > 2e7 or w >= a.days["value"] - 1e-9 for w, h in zip(wall, hours, strict=True))


def test_a_budget_too_small_for_the_tokens_says_what_it_buys():
    t = _template(model=planner.model_from_registry("llama31_405b"))
    a = inverse.spend(t, 2e7, 2.0, "the given price")
    assert not a.feasible and a.tokens < 15e12 and "does not buy" in a.note
    assert a.plan.results["cost_usd"]["value"] == pytest.approx(2e7, rel=1e-9)


def test_every_accelerator_table_is_sorted_by_the_answer_and_says_which_throughput_is_estimated():
    t = _template(gpu_id=None, tokens=1e12)
    rows = inverse_table.spend_table(t, 2e7, 60, tokens_given=False)
    answered = [r for r in rows if "answer" in r]
    tokens = [r["answer"].tokens for r in answered]
    assert tokens == sorted(tokens, reverse=True) and len(answered) >= 10
    assert {r["evidence"] for r in answered} == {"own", "estimated"}
    assert {r["gpu_id"] for r in answered if r["evidence"] == "own"} >= {"h100_sxm", "gb200_nvl72"}
    best = inverse_table.best_of(rows, "tokens")
    assert best["index"] == 0 and best["distinguishable"] in (True, False)
    a, b = answered[0]["answer"], answered[1]["answer"]
    assert best["distinguishable"] == (a.tokens_band[0] > b.tokens_band[1])
    # tiers: the book's TCO and SemiAnalysis's owning price for H100 both appear
    tiers = {r["tier"] for r in answered if r["gpu_id"] == "h100_sxm"}
    assert {"owning (the book's TCO)", "owning (SemiAnalysis model)"} <= tiers


# --- the command line -------------------------------------------------------------------------------------

DEADLINE = ["plan", "--model", MODEL, "--tokens", "15e12", "--gpu", "h100_sxm", "--days", "60"]


def test_deadline_and_budget_from_the_command_line(capsys):
    assert main([*DEADLINE, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema_version"] == planner.SCHEMA_VERSION == 2 and doc["mode"] == "deadline"
    assert doc["gpus"] % 8 == 0 and doc["plan"]["results"]["days_with_failures"]["value"] <= 60
    assert 0 < doc["chance_of_meeting"] < 1 and doc["gpus_for_90_percent"] > doc["gpus"]
    assert {"value", "p10", "p90"} <= set(doc["meter_mw"]) and doc["plan"]["schema_version"] == 2
    assert main(DEADLINE) == 0
    text = capsys.readouterr().out
    assert "H100 SXM 80GB" in text and "For a 90 % chance" in text and "power at the meter" in text
    assert main(["plan", "--model", MODEL, "--budget-usd", "2e7", "--days", "60", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["mode"] == "budget" and doc["buys"] == "tokens" and doc["best"]["index"] == 0
    assert all(r["plan"] is None or r["plan"]["results"]["cost_usd"]["value"] <= 2e7 * (1 + 1e-9) for r in doc["rows"])
    assert main(["plan", "--model", MODEL, "--tokens", "15e12", "--days", "60"]) == 0
    text = capsys.readouterr().out
    assert "best" in text and "estimated" in text and "distinguishable" in text


def test_every_plan_json_carries_its_schema_version(capsys):
    for args in (["--gpus", "512", "--mfu", "0.4"], ["--power-mw", "50"]):
        assert main(["plan", "--model", MODEL, "--tokens", "1e12", "--gpu", "h100_sxm", *args, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["schema_version"] == 2


@pytest.mark.parametrize("args,flag", [
    (["--days", "0"], "--days"),
    (["--days", "-3"], "--days"),
    (["--days", "inf"], "--days"),
    (["--days", "nan"], "--days"),
    (["--days", "60", "--gpus", "512"], "--days"),
    (["--days", "1e-7"], "--days"),  # shorter than one optimizer step
    (["--budget-usd", "0"], "--budget-usd"),
    (["--budget-usd", "-1e6"], "--budget-usd"),
    (["--budget-usd", "inf"], "--budget-usd"),
    (["--budget-usd", "5"], "--budget-usd"),  # below one node-hour of H100
    (["--budget-usd", "2e7", "--gpus", "64"], "--budget-usd"),
])
def test_bad_inverse_input_exits_2_naming_the_flag(args, flag, capsys, tmp_path):
    out = tmp_path / "plan.json"
    assert main(["plan", "--model", MODEL, "--tokens", "15e12", "--gpu", "h100_sxm", *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert flag in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_budget_without_tokens_or_days_says_what_it_needs(capsys):
    assert main(["plan", "--model", MODEL, "--gpu", "h100_sxm", "--budget-usd", "2e7"]) == 2
    assert "--tokens" in capsys.readouterr().err


# --- what a plan refuses and what it only notes (issue 47) -----------------------------------------------

def test_a_plan_that_cannot_fit_one_step_is_refused(capsys, tmp_path):
    out = tmp_path / "plan.json"
    assert main(["plan", "--params", "1e15", "--layers", "10000", "--hidden", "1e7", "--seq-len", "1e8", "--tokens",
                 "1e18", "--gpu", "h100_sxm", "--gpus", "1", "--mfu", "1e-9", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--gpus 1" in err and "does not fit" in err and not out.exists()
    # 405B needs its 6.5 TB of state and activations on at least 82 H100s
    assert main(["plan", "--model", "llama31_405b", "--tokens", "1e12", "--gpu", "h100_sxm", "--gpus", "64"]) == 2
    assert "give --gpus 82 or more" in capsys.readouterr().err


def test_unusual_but_possible_inputs_plan_with_a_note(capsys):
    """A 10,000-minute restart on a 64-GPU job is slow, not impossible: planned interruptions come
    per hour of running, so their share of the wall clock stays below one."""
    assert main(["plan", "--model", "llama31_8b", "--tokens", "1e12", "--gpu", "h100_sxm", "--gpus", "64",
                 "--restart-minutes", "10000", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert 0 < doc["results"]["goodput"]["value"] < 0.5 and math.isfinite(doc["results"]["days_with_failures"]["value"])
    assert any(n.startswith("Unusual: a goodput") for n in doc["notes"])
    assert main(["plan", "--model", "llama31_8b", "--tokens", "1e12", "--gpu", "h100_sxm", "--gpus", "64", "--mfu",
                 "0.005", "--json"]) == 0
    assert any("Unusual: an MFU" in n for n in json.loads(capsys.readouterr().out)["notes"])


def test_out_to_dev_stdout_is_refused(capsys):
    assert main(["plan", "--model", MODEL, "--tokens", "1e12", "--gpu", "h100_sxm", "--gpus", "64", "--mfu", "0.4",
                 "--out", "/dev/stdout"]) == 2
    assert "--out /dev/stdout" in capsys.readouterr().err


def test_full_recompute_with_a_given_throughput_is_refused(capsys):
    assert main(["plan", "--model", MODEL, "--tokens", "1e12", "--gpu", "h100_sxm", "--gpus", "64", "--mfu", "0.4",
                 "--full-recompute"]) == 2
    err = capsys.readouterr().err
    assert "--full-recompute" in err and "--flops-counted" in err


# --- the FLOP convention of a given figure -----------------------------------------------------------------

def test_a_given_mfu_without_its_convention_spans_the_conventions(capsys):
    """0.40 MFU read as 6N plus attention (the planner's count) is the point; the band reaches from
    6N alone (fewer FLOPs a token, more tokens a second) to hardware FLOPs with the recompute pass."""
    base = ["plan", "--model", MODEL, "--tokens", "15e12", "--gpu", "h100_sxm", "--gpus", "4096", "--mfu", "0.4"]
    assert main([*base, "--json"]) == 0
    open_doc = json.loads(capsys.readouterr().out)
    assert main([*base, "--flops-counted", "model", "--json"]) == 0
    stated = json.loads(capsys.readouterr().out)
    a, b = open_doc["results"]["days"], stated["results"]["days"]
    assert a["value"] == pytest.approx(b["value"])  # the assumed convention is the planner's own
    assert (a["p90"] - a["p10"]) > 2 * (b["p90"] - b["p10"])
    m = planner.model_from_registry(MODEL)
    hw = flops.flops_per_token_counted(m, "hardware-full") / flops.model_flops_per_token(m)
    assert open_doc["throughput"]["convention_ratios"]["hardware-full"] == pytest.approx(1 / hw)
    assert open_doc["throughput"]["flops_counted"] == "model" and open_doc["throughput"]["flops_counted_given"] is False
    assert main(base) == 0
    assert "read as counting 6N plus attention" in capsys.readouterr().out
    assert main([*base, "--flops-counted", "model-6n", "--json"]) == 0
    six = json.loads(capsys.readouterr().out)["results"]["days"]["value"]
    assert six == pytest.approx(b["value"] * flops.flops_per_token_counted(m, "model-6n") / flops.model_flops_per_token(m))
