"""`python -m analysis measure`: the small model's FLOP count and gradients, the timing statistics,
the measured rows (schema, MFU, append), the CLI (CPU --quick end to end, bad input) and the book's
"Measured on the build machine" section of the rerun appendix. Nothing here asserts a speed: timings are `make bench`'s job."""

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import copy_repo, run_cli

from analysis import costs, energy
from analysis.data import load as data
from analysis.data.load import DataError, load_table
from analysis.errors import ExecutionError
from analysis.measure import gpt_numpy as g
from analysis.measure import page, report, rows
from analysis.measure.harness import SETTINGS
from analysis.measure.timing import MatmulResult, Timing, matmul_flops, summarize_seconds, time_calls

TINY = g.GPTConfig(vocab_size=11, hidden_size=8, heads=2, layers=2, seq_len=5, batch=2)
CONFIGS = [s.model for s in SETTINGS.values()]


# --- FLOP accounting of the small model ----------------------------------------------------------

@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: c.describe())
def test_flop_count_agrees_with_an_independent_count_from_the_layer_shapes(cfg):
    """6 N + 12 L h s (analysis.flops) against the matmuls read off the layer shapes. The two
    differ by exactly 6 x the bias and LayerNorm parameters, which 6 N counts as if they were matmul
    weights: 13 d per layer against 12 d^2, so under 2 % for every width measured (d >= 128)."""
    book, independent = g.flops_per_token(cfg), g.matmul_flops_per_token(cfg)
    assert book - independent == 6 * g.non_matmul_params(cfg)
    assert book == pytest.approx(independent, rel=0.02)
    d, s, v, L = cfg.hidden_size, cfg.seq_len, cfg.vocab_size, cfg.layers
    assert independent == 3 * (L * (24 * d * d + 4 * s * d) + 2 * d * v)  # per layer 12 d^2 weights x 2, QK^T and AV


def test_the_model_has_the_counted_parameters_and_runs_exactly_the_counted_matmuls():
    cfg = g.GPTConfig(vocab_size=64, hidden_size=32, heads=4, layers=3, seq_len=16, batch=2)
    model = g.TinyGPT(cfg, seed=0)
    assert sum(p.size for p in model.params.values()) == g.param_count(cfg)
    model.train_step(*g.sample_batch(cfg, seed=1))
    assert model.matmul_flops == g.matmul_flops_per_token(cfg) * cfg.tokens_per_step


def test_gradients_match_finite_differences():
    """Central differences in float64 on a tiny instance, a few entries of every parameter, with
    non-zero biases and gains so that every term of the backward pass matters."""
    model = g.TinyGPT(TINY, seed=1, dtype=np.float64)
    rng = np.random.default_rng(2)
    for name in model.params:
        model.params[name] += 0.1 * rng.standard_normal(model.params[name].shape)
    inputs, targets = g.sample_batch(TINY, seed=3)
    _, grads = model.loss_and_grads(inputs, targets)
    eps, worst = 1e-6, 0.0
    for name, p in model.params.items():
        for _ in range(3):
            idx = tuple(int(rng.integers(0, n)) for n in p.shape)
            saved = p[idx]
            p[idx] = saved + eps
            up = model.loss_and_grads(inputs, targets)[0]
            p[idx] = saved - eps
            down = model.loss_and_grads(inputs, targets)[0]
            p[idx] = saved
            numeric = (up - down) / (2 * eps)
            worst = max(worst, abs(numeric - grads[name][idx]) / max(1e-6, abs(numeric) + abs(grads[name][idx])))
    assert worst < 1e-5


def test_training_steps_lower_the_loss_and_are_deterministic():
    losses = []
    for _ in range(2):
        model = g.TinyGPT(TINY, seed=4, lr=1e-2)
        batch = g.sample_batch(TINY, seed=5)
        losses.append([model.train_step(*batch) for _ in range(5)])
    assert losses[0] == losses[1]
    assert losses[0][-1] < losses[0][0]


# --- timing ---------------------------------------------------------------------------------------

def test_time_calls_reports_median_and_spread_per_call():
    ticks = iter(np.cumsum([0, 0.01, 0, 0.02, 0, 0.03, 0, 0.05, 0, 0.04, 0, 0.01]))
    timing = time_calls(lambda: None, warmup=1, repeats=5, min_repeat_s=0.0, clock=lambda: next(ticks))
    assert timing.repeats == 5 and timing.calls_per_repeat == 1
    assert timing.seconds_median == pytest.approx(0.03)
    assert timing.seconds_p10 < timing.seconds_median < timing.seconds_p90


def test_short_calls_are_batched_to_the_minimum_repeat_time():
    clock = iter(np.arange(0, 10, 0.001))  # every clock read advances 1 ms
    timing = time_calls(lambda: None, warmup=1, repeats=3, min_repeat_s=0.01, clock=lambda: next(clock))
    assert timing.calls_per_repeat == 10


def test_a_repeated_sweep_keeps_the_faster_median_per_size():
    from analysis.measure.harness import best_of

    def result(n, seconds):
        return MatmulResult("fp32", n, n, n, matmul_flops(n, n, n), Timing(seconds, seconds, seconds, 1, 1, 1))

    kept = best_of([result(256, 0.01), result(512, 0.02)], [result(256, 0.02), result(512, 0.01)])
    assert [k.timing.seconds_median for k in kept] == [0.01, 0.01]


@pytest.mark.parametrize("samples", [[], [0.1, -1.0], [float("nan")]])
def test_bad_timing_samples_are_refused(samples):
    with pytest.raises(ValueError):
        summarize_seconds(samples, warmup=1)


# --- rows -----------------------------------------------------------------------------------------

def _info(**kw):
    base = dict(device_kind="cpu", device_name="Test CPU", cores=2, gpu_id=None, software="numpy x", seed=0,
                parameters={"quick": True})
    return rows.run_info(**(base | kw))


def _rows(info, step_s=0.5, peak_s=0.01):
    mm = MatmulResult("fp32", 512, 512, 512, matmul_flops(512, 512, 512), Timing(peak_s, peak_s * 0.9, peak_s * 1.2, 2, 7, 1))
    cfg = SETTINGS[("cpu", True)].model
    step = Timing(step_s, step_s * 0.95, step_s * 1.1, 2, 7, 1)
    return [rows.matmul_row(info, mm), rows.train_step_row(
        info, "fp32", cfg.describe(), g.param_count(cfg), cfg.seq_len, cfg.batch, g.flops_per_token(cfg), step,
        mm.tflops_median)]


def test_rows_validate_and_mfu_lies_in_the_unit_interval(tmp_path):
    path = rows.append_rows(_rows(_info()), tmp_path)
    table = data.validate_frame("measured", data.read_raw(path), path)
    step = table[table["what"] == "train_step"].iloc[0]
    assert 0 < step["mfu_vs_measured_peak"] <= 1
    assert step["tokens_per_s"] == pytest.approx(step["flops"] / step["flops_per_token"] / step["seconds_median"], rel=1e-5)
    assert set(table["basis"]) == {"measured"} and set(table["source_id"]) == {"measured_locally"}
    assert json.loads(step["parameters"])["quick"] is True


def test_a_step_faster_than_the_measured_peak_is_refused():
    with pytest.raises(ExecutionError, match="above the peak"):
        _rows(_info(), step_s=0.001, peak_s=1.0)


def test_runs_are_appended_and_nothing_is_left_behind(tmp_path):
    rows.append_rows(_rows(_info()), tmp_path)
    taken = set(rows.existing_rows(tmp_path)["run_id"])
    second = _info(taken=taken, now=None)
    rows.append_rows(_rows(second), tmp_path)
    table = rows.existing_rows(tmp_path)
    assert table["run_id"].nunique() == 2 and len(table) == 4
    assert [p.name for p in tmp_path.iterdir()] == ["benchmarks_measured.csv"]


@pytest.mark.parametrize("column,value,expect", [
    ("mfu_vs_measured_peak", "1.5", "<="),
    ("tflops_median", "7", "tflops_median must equal"),
    ("device_kind", "tpu", "isin"),
    ("parameters", "not json", "JSON object"),
])
def test_a_corrupted_row_is_rejected_with_file_line_and_column(tmp_path, column, value, expect):
    path = rows.append_rows(_rows(_info()), tmp_path)
    before = path.read_bytes()
    frame = data.read_raw(path)
    frame.loc[1, column] = value  # line 3 of the file
    frame.to_csv(path, index=False)
    with pytest.raises(DataError) as err:
        rows.existing_rows(tmp_path)
    message = str(err.value)
    assert f"{path}:3" in message and expect in message
    if "must equal" not in expect:
        assert f"column '{column}'" in message
    with pytest.raises(DataError):  # and no new run is added to a broken table
        rows.append_rows(_rows(_info(taken={"x"})), tmp_path)
    assert path.read_bytes() != before and len(data.read_raw(path)) == 2


@pytest.mark.parametrize("name,expected", [
    ("NVIDIA H100 80GB HBM3", "h100_sxm"), ("NVIDIA H200", "h200_sxm"), ("NVIDIA GB200", "gb200_nvl72"),
    ("NVIDIA B200", "b200_hgx"), ("NVIDIA A100-SXM4-80GB", "a100_sxm_80gb"), ("NVIDIA H100 PCIe", None),
    ("NVIDIA H100 NVL", None), ("NVIDIA GeForce RTX 4090", None), ("AMD EPYC", None),
])
def test_cuda_device_names_map_to_the_registry(name, expected):
    assert rows.match_gpu_id(name, load_table("gpus")) == expected


# --- the CLI ----------------------------------------------------------------------------------------

@pytest.mark.measure_quick
def test_measure_quick_runs_end_to_end_on_cpu(tmp_path):
    """The CPU --quick path CI runs: numpy only, seconds on two cores."""
    out = tmp_path / "measured"
    proc = run_cli("measure", "--quick", "--out", str(out), "--seed", "7")
    assert proc.returncode == 0, proc.stderr
    table = rows.existing_rows(out)
    settings = SETTINGS[("cpu", True)]
    assert len(table) == len(settings.sizes) * len(settings.precisions) + 1
    step = table[table["what"] == "train_step"].iloc[0]
    assert 0 < float(step["mfu_vs_measured_peak"]) <= 1
    assert step["seed"] == "7" and step["device_kind"] == "cpu" and "numpy" in step["software"]
    assert "train_step" in proc.stdout and "rows appended" in proc.stdout


@pytest.mark.parametrize("args,message", [
    (["--device", "tpu"], "invalid choice: 'tpu'"),
    (["--seed", "-1"], "--seed expects an integer"),
    (["--seed", "abc"], "--seed expects an integer"),
    (["--seed", "4294967296"], "--seed expects an integer"),
    (["--out", "{file}"], "exists and is not a folder"),
    (["--out", "{file}/sub"], "is a file"),
])
def test_bad_measure_input_exits_2_and_writes_nothing(tmp_path, args, message):
    blocker = tmp_path / "a-file"
    blocker.write_text("keep me")
    args = [a.replace("{file}", str(blocker)) for a in args]
    before = sorted(p.name for p in tmp_path.rglob("*"))
    proc = run_cli("measure", "--quick", *(args if "--out" in args else [*args, "--out", str(tmp_path / "out")]))
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == before and blocker.read_text() == "keep me"


def test_a_broken_existing_table_exits_2_before_measuring(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "benchmarks_measured.csv").write_text("run_id,date\nx,yesterday\n")
    proc = run_cli("measure", "--quick", "--out", str(out))
    assert proc.returncode == 2 and "benchmarks_measured.csv" in proc.stderr
    assert (out / "benchmarks_measured.csv").read_text() == "run_id,date\nx,yesterday\n"


def test_cuda_without_torch_exits_2_and_says_what_to_install(tmp_path):
    try:
        import torch  # noqa: F401
        pytest.skip("PyTorch is installed; this checks the message when it is not")
    except ImportError:
        pass
    proc = run_cli("measure", "--device", "cuda", "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and "requirements-gpu.txt" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_torch_model_matches_the_numpy_models_parameter_count():
    torch = pytest.importorskip("torch")
    from analysis.measure.torch_backend import build_model

    model = build_model(torch, TINY)
    assert sum(p.numel() for p in model.parameters()) == g.param_count(TINY)
    inputs, targets = (torch.tensor(a) for a in g.sample_batch(TINY, seed=0))
    assert torch.isfinite(model(inputs, targets))


# --- the book ---------------------------------------------------------------------------------------

def test_measured_cost_and_energy_go_through_the_books_functions(tmp_path):
    table = data.validate_frame("measured", data.read_raw(rows.append_rows(_rows(_info()), tmp_path)), tmp_path)
    out = report.with_cost_and_energy(report.train_steps(table), usd_per_device_hour=2.0, power_w=700.0)
    r = out.iloc[0]
    assert r["usd_per_million_tokens"] == pytest.approx(costs.usd_per_million_tokens(2.0, r["tokens_per_s"]))
    assert r["joules_per_token"] == pytest.approx(energy.joules_per_token(700.0, r["tokens_per_s"]))
    assert r["usd_per_exaflop"] == pytest.approx(2.0 / 3600 / (r["tflops_median"] * 1e12) * 1e18)
    results = report.measured_results(table, usd_per_device_hour=2.0, power_w=700.0)
    assert results["measured_joules_per_token"][0] == pytest.approx(r["joules_per_token"])
    text = page.measured_section_markdown(table, usd_per_device_hour=2.0, power_w=700.0)
    assert "Test CPU" in text and "J/token" in text and "USD per 1M tokens" in text and "\\$2 per device-hour" in text
    bench = report.measured_as_benchmarks(table)
    assert bench.loc[0, "basis"] == "measured" and bench.loc[0, "mfu"] == pytest.approx(r["mfu_vs_measured_peak"])


def test_no_measurement_reads_as_empty_and_says_how_to_make_one(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    shutil.copytree(data.DATA_DIR, folder, ignore=shutil.ignore_patterns("measured"))
    monkeypatch.setenv("ANALYSIS_DATA_DIR", str(folder))
    data.clear_cache()
    try:
        empty = report.load_measured()
        assert empty.empty and list(empty.columns) == data.schema_columns("measured")
        assert report.measured_results(empty, 1.0, 1.0) == {}
        assert "python -m analysis measure --quick" in page.measured_section_markdown(empty, 1.0, 1.0)
        values = {"tco": {"local_gpu_hour_usd": 1.0}, "energy": {"local_power_w": 1.0}}
        assert "No measurement is present" in page.measured_page(values, tmp_path)  # no results either
    finally:
        data.clear_cache()


def test_chapters_build_without_any_measurement(tmp_path):
    root = copy_repo(tmp_path / "repo")
    shutil.rmtree(root / "data" / "measured", ignore_errors=True)
    out = tmp_path / "run"
    proc = run_cli("run", "energy", "-p", "local_power_w", "700", "--notebook", "--out", str(out), cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert not any(k.startswith("measured_") for k in json.loads((out / "energy.json").read_text())["results"])


def test_the_rerun_appendix_shows_the_shipped_measurement_and_no_chapter_does(book):
    """The measurement of the build machine is shown once, in the rerun appendix, with both
    chapters' comparisons against an H100; the chapters record its results but print none of it."""
    shipped = report.train_steps(load_table("measured")).iloc[-1]
    html = book / "_build" / "html" / "book"
    rerun = (html / "rerun.html").read_text()
    assert 'id="measured"' in rerun and shipped["run_id"] in rerun.split('id="measured"')[1]
    assert "times as much energy per FLOP" in rerun and "model compute costs" in rerun
    for chapter in ("tco", "energy", "benchmarks"):
        assert shipped["run_id"] not in (html / "generated" / f"{chapter}.html").read_text(), chapter
        results = json.loads((book / "_build" / "results" / f"{chapter}.json").read_text())["results"]
        assert 0 < results["measured_mfu_vs_measured_peak"]["value"] <= 1
    assert Path(book / "data" / "measured" / "benchmarks_measured.csv").is_file()


def test_local_parameters_change_the_measured_cost(tmp_path):
    steps = report.train_steps(load_table("measured"))
    cheap, dear = (report.measured_results(steps, usd_per_device_hour=p)["measured_usd_per_million_tokens"][0]
                   for p in (1.0, 2.0))
    assert dear == pytest.approx(2 * cheap)
    assert isinstance(pd.Timestamp(steps.iloc[-1]["date"]), pd.Timestamp)
