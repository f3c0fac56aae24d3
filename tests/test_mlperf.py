"""analysis.data.mlperf_logs (the rebuild script: MLPerf's scoring rule, bad input) and analysis.mlperf
(GPU-hours, scaling, reference convergence), on small hand-made logs and on the committed table."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from analysis import mlperf, prices
from analysis.data import mlperf_logs
from analysis.data.load import load_table

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _log(path, start_ms, minutes, status="success", org="Acme", batch=64, extra=""):
    lines = [
        f'0: :::MLLOG {{"namespace": "", "time_ms": {start_ms - 5}, "event_type": "POINT_IN_TIME", "key": "submission_org", "value": "{org}", "metadata": {{}}}}',
        f':::MLLOG {{"namespace": "", "time_ms": {start_ms - 4}, "event_type": "POINT_IN_TIME", "key": "submission_division", "value": "closed", "metadata": {{}}}}',
        f':::MLLOG {{"namespace": "", "time_ms": {start_ms - 3}, "event_type": "POINT_IN_TIME", "key": "global_batch_size", "value": {batch}, "metadata": {{}}}}',
        f':::MLLOG {{"namespace": "", "time_ms": {start_ms}, "event_type": "INTERVAL_START", "key": "run_start", "value": null, "metadata": {{}}}}',
        extra,
        f':::MLLOG {{"namespace": "", "time_ms": {start_ms + minutes * 60_000}, "event_type": "INTERVAL_END", "key": "run_stop", "value": null, "metadata": {{"status": "{status}"}}}}',
        "some other output",
    ]
    path.write_text("\n".join(line for line in lines if line) + "\n", encoding="utf-8")


def _checkout(root, minutes=(10.0, 12.0, 11.0), benchmark="llama31_405b", system=None, scaling=None):
    folder = root / "Acme" / "results" / "acme_n64" / benchmark
    folder.mkdir(parents=True)
    for i, m in enumerate(minutes):
        _log(folder / f"result_{i}.txt", 1_700_000_000_000 + i * 10**7, m)
    if scaling is not None:
        (folder / "scaling.json").write_text(json.dumps({"scaling_factor": scaling}))
    (root / "Acme" / "systems").mkdir(parents=True)
    desc = system or {"submitter": "Acme", "division": "closed", "status": "cloud", "system_name": "Acme 64",
                      "number_of_nodes": "16", "accelerators_per_node": "4",
                      "accelerator_model_name": "NVIDIA Blackwell GPU (GB200)", "framework": "NeMo 25.09"}
    (root / "Acme" / "systems" / "acme_n64.json").write_text(json.dumps(desc, indent=4))
    return folder


def _run(tmp_path, root, *extra):
    out = tmp_path / "out.csv"
    code = mlperf_logs.main([f"v5.1={root}@{COMMIT}", "--out", str(out), *extra])
    return code, out


def test_olympic_drops_the_fastest_and_slowest():
    assert mlperf_logs.olympic([3.0, 1.0, 2.0], [True] * 3) == (2.0, [2])
    score, keep = mlperf_logs.olympic([5.0, 1.0, 2.0, 4.0, 3.0], [True] * 5)
    assert score == pytest.approx(3.0) and sorted(keep) == [2, 3, 4]  # the runs of 2, 3 and 4 minutes


def test_one_failed_run_is_the_slowest_and_two_invalidate():
    # the failed run (9.0, not converged) is dropped as the slowest; the fastest converged one too
    assert mlperf_logs.olympic([9.0, 1.0, 2.0, 3.0], [False, True, True, True])[0] == pytest.approx(2.5)
    assert mlperf_logs.olympic([9.0, 1.0, 2.0, 3.0], [False, False, True, True])[0] is None


def test_rebuild_scores_a_checkout_and_applies_the_scaling_factor(tmp_path):
    root = tmp_path / "repo"
    _checkout(root, scaling=1.1)
    code, out = _run(tmp_path, root)
    assert code == 0
    row = pd.read_csv(out).iloc[0]
    assert row["olympic_minutes"] == pytest.approx(11.0)  # 10, 11, 12 -> the middle one
    assert row["score_minutes"] == pytest.approx(12.1)
    assert (row["accelerators"], row["gpu_id"], row["submitter"], row["commit"]) == (64, "gb200_nvl72", "Acme", COMMIT)
    assert row["path"] == "Acme/results/acme_n64/llama31_405b"
    assert row["repository"] == "mlcommons/training_results_v5.1"


def test_a_run_without_run_stop_is_a_failed_run(tmp_path):
    root = tmp_path / "repo"
    folder = _checkout(root, minutes=(10.0, 12.0, 11.0, 13.0))
    text = (folder / "result_3.txt").read_text().splitlines()
    (folder / "result_3.txt").write_text("\n".join(line for line in text if "run_stop" not in line))
    code, out = _run(tmp_path, root)
    row = pd.read_csv(out).iloc[0]
    assert code == 0 and row["runs_converged"] == 3 and row["olympic_minutes"] == pytest.approx(11.5)


def test_a_malformed_line_of_an_unscored_key_is_skipped_and_recorded(tmp_path):
    root = tmp_path / "repo"
    folder = _checkout(root)
    bad = ':::MLLOG {"namespace": "", "time_ms": 1, "key": "init_start", "value": nullXorkspace/x.py"}}'
    _log(folder / "result_0.txt", 1_700_000_000_000, 10.0, extra=bad)
    code, out = _run(tmp_path, root)
    assert code == 0
    assert pd.read_csv(out).iloc[0]["log_defects"] == "result_0.txt:5"


@pytest.mark.parametrize("breakage, where", [
    ("run_stop", "result_1.txt:5"),
    ("system", "acme_n64.json:7"),
    ("benchmark", "not in data/mlperf_benchmarks.csv"),
])
def test_bad_input_exits_2_naming_file_and_line_and_writes_nothing(tmp_path, capsys, breakage, where):
    root = tmp_path / "repo"
    folder = _checkout(root, benchmark="bert_xl" if breakage == "benchmark" else "llama31_405b")
    if breakage == "run_stop":
        text = (folder / "result_1.txt").read_text().replace('"key": "run_stop", "value": null,', '"key": "run_stop", "value": nul,')
        (folder / "result_1.txt").write_text(text)
    if breakage == "system":
        path = root / "Acme" / "systems" / "acme_n64.json"
        desc = json.loads(path.read_text())
        desc["accelerators_per_node"] = ""
        path.write_text(json.dumps(desc, indent=4))
    out = tmp_path / "out.csv"
    out.write_text("previous\n")
    code = mlperf_logs.main([f"v5.1={root}@{COMMIT}", "--out", str(out)])
    assert code == 2
    assert where in capsys.readouterr().err
    assert out.read_text() == "previous\n"  # untouched
    assert not list(tmp_path.glob(".out.csv.*"))  # no temporary file left


def test_a_checkout_without_a_commit_must_be_a_git_repository(tmp_path, capsys):
    root = tmp_path / "repo"
    _checkout(root)
    assert mlperf_logs.main([f"v5.1={root}", "--out", str(tmp_path / "o.csv")]) == 2
    assert "give its commit" in capsys.readouterr().err
    assert not (tmp_path / "o.csv").exists()


def test_the_committed_table_reproduces_the_published_405b_scaling():
    # issue 29: 405B at 2,560 -> 5,120 Blackwell GPUs takes 802 -> 853 GPU-hours; 5,120 GPUs in 10 minutes
    results = mlperf.scored(load_table("mlperf_training"))
    gb200 = results[(results["benchmark"] == "llama31_405b") & (results["round"] == "v5.1")
                    & (results["gpu_id"] == "gb200_nvl72")].set_index("accelerators")
    assert gb200.loc[2560, "gpu_hours"] == pytest.approx(802, abs=0.5)
    assert gb200.loc[5120, "gpu_hours"] == pytest.approx(853, abs=0.5)
    assert gb200.loc[5120, "score_minutes"] == pytest.approx(10.0, abs=0.05)


def test_every_committed_result_names_its_log_folder_and_commit():
    table = load_table("mlperf_training")
    assert table["commit"].str.fullmatch(r"[0-9a-f]{40}").all()
    assert (table["path"].str.split("/").str[1] == "results").all()
    assert (table["path"].str.split("/").str[3] == table["benchmark"]).all()
    # the pretraining benchmarks run 3 (GPT-3, 405B) or 10 (8B) times, fine-tuning 10 (the rules)
    runs = table.groupby("benchmark")["runs"].min().to_dict()
    assert runs == {"gpt3": 3, "llama31_405b": 3, "llama31_8b": 10, "llama2_70b_lora": 10}


def test_gpu_hours_and_scaling_efficiency_by_hand():
    assert mlperf.gpu_hours(30.0, 512) == pytest.approx(256.0)
    rows = pd.DataFrame({"benchmark": "b", "gpu_id": "h100_sxm", "round": "v5.0", "accelerators": [8, 32, 32],
                         "score_minutes": [60.0, 20.0, 18.0], "submitter": "x", "framework": "f"})
    rows["gpu_hours"] = mlperf.gpu_hours(rows["score_minutes"], rows["accelerators"])
    step = mlperf.scaling_steps(rows).iloc[0]
    assert step["efficiency"] == pytest.approx(8.0 / 9.6)  # 8 GPU-hours -> 9.6 (the faster 32-GPU result)
    assert step["efficiency_per_doubling"] == pytest.approx(math.sqrt(8.0 / 9.6))


def test_tokens_to_target_interpolates_between_reference_batch_sizes():
    points = pd.DataFrame({"batch_size": [1000, 2000], "mean_to_converge": [300.0, 500.0], "unit": "samples"})
    assert mlperf.tokens_to_target(points, 1500, 8192) == (400.0 * 8192, True)
    assert mlperf.tokens_to_target(points, 4000, 8192) == (500.0 * 8192, False)


def test_price_ladder_names_each_tier_of_tpu7x():
    ladder = prices.ladder(load_table("cloud_prices"))
    tpu = ladder[ladder["gpu_id"] == "tpu7x_ironwood"].set_index("tier")["usd_per_gpu_hour"].to_dict()
    # 3-year: Google's transcribed $5.40, not SemiAnalysis's modelled $2.00 (weaker evidence)
    assert tpu == {"on-demand": 12.0, "spot/flex": 6.0, "1-year": 8.4, "3-year": 5.4, "owning (SemiAnalysis model)": 1.21}
    assert prices.list_price(ladder, "tpu7x_ironwood") == (12.0, "on-demand")
    spread = prices.spread(ladder).set_index("gpu_id").loc["tpu7x_ironwood"]
    assert spread["spread_ratio"] == pytest.approx(12.0 / 1.21)
