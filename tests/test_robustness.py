"""Robustness: a table-driven corpus of bad inputs (each exits 2, names the input and writes
nothing), concurrent builds, and Ctrl-C during a build."""

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_cli

from analysis import data
from analysis.cli import main

MARKER = Path("/tmp/analysis-robustness-injected")
INJECT = f"__import__('os').system('touch {MARKER}')"

# (id, CLI arguments after `run cluster`, text the message must contain)
PARAMETER_CASES = [
    ("int-not-a-number", ["-p", "gpus", "abc"], "parameter 'gpus'"),
    ("int-fraction", ["-p", "gpus", "1.5"], "not a whole number"),
    ("int-zero", ["-p", "gpus", "0"], "out of range"),
    ("int-negative", ["-p", "gpus", "-5"], "out of range"),
    ("int-huge", ["-p", "gpus", "1e12"], "out of range"),
    ("int-nan", ["-p", "gpus", "nan"], "not finite"),
    ("int-inf", ["-p", "gpus", "inf"], "not finite"),
    ("int-minus-inf", ["-p", "gpus", "-inf"], "argument -p/--param"),  # argparse reads "-inf" as an option
    ("int-empty", ["-p", "gpus", ""], "parameter 'gpus'"),
    ("float-low", ["-p", "pue", "0.5"], "parameter 'pue'"),
    ("float-high", ["-p", "pue", "3.5"], "out of range"),
    ("float-nan-caps", ["-p", "pue", "NaN"], "not finite"),
    ("float-overflow", ["-p", "tariff_usd_per_kwh", "1e400"], "not finite"),
    ("price-negative", ["-p", "tariff_usd_per_kwh", "-0.1"], "parameter 'tariff_usd_per_kwh'"),
    ("fraction-above-one", ["-p", "mfu_fp8", "1.5"], "parameter 'mfu_fp8'"),
    ("steps-fraction", ["-p", "checkpoint_interval_steps", "10.5"], "not a whole number"),
    ("choice-unknown", ["-p", "gpu", "h100"], "one of:"),
    ("choice-empty", ["-p", "gpu", ""], "parameter 'gpu'"),
    ("choice-case", ["-p", "dtype", "FP8"], "parameter 'dtype'"),
    ("inject-number", ["-p", "gpus", INJECT], "not a number"),
    ("inject-choice", ["-p", "gpu", INJECT], "parameter 'gpu'"),
    ("inject-quote", ["-p", "dtype", "fp8'; import os; os.system('touch " + str(MARKER) + "') #"], "parameter 'dtype'"),
    ("unknown-name", ["-p", "gpu_count", "5"], "unknown parameter 'gpu_count'"),
    ("unknown-name-case", ["-p", "PUE", "1.2"], "unknown parameter 'PUE'"),
    ("other-chapter-range", ["-p", "cost_of_capital", "0.9"], "parameter 'cost_of_capital'"),
    ("life-zero", ["-p", "useful_life_years", "0"], "parameter 'useful_life_years'"),
    ("missing-value", ["-p", "gpus"], "expected 2 arguments"),
]

SCENARIO_CASES = [
    ("malformed", "parameters: [unclosed\n", "not valid YAML"),
    ("python-tag", f"parameters: !!python/object/apply:os.system ['touch {MARKER}']\n", "not valid YAML"),
    ("top-level-list", "- gpus: 5\n", "expected a mapping"),
    ("parameters-list", "parameters: [1, 2]\n", "expected a mapping"),
    ("unknown-top-key", "parameters: {}\nextra: 1\n", "unknown top-level key"),
    ("unknown-name", "parameters:\n  pue: 1.2\n  tarif: 0.05\n", ":3: unknown parameter 'tarif'"),
    ("wrong-type", "parameters:\n  pue: high\n", ":2: parameter 'pue'"),
    ("bool-value", "parameters:\n  gpus: true\n", ":2: parameter 'gpus'"),
    ("mapping-value", "parameters:\n  pue: {a: 1}\n", ":2: parameter 'pue'"),
    ("empty-file", "", "expected a mapping"),
    ("not-utf8", b"\xff\xfe\x00parameters", "scenario"),
]

# (id, table, edit(frame) -> frame, text the message must contain)
DATA_CASES = [
    ("missing-source-id", "gpus", lambda f: f.assign(source_id=f["source_id"].where(f.index != 1, "")), "gpus.csv:3"),
    ("unknown-source-id", "models", lambda f: f.assign(source_id=f["source_id"].where(f.index != 0, "nowhere")), "models.csv:2"),
    ("bad-unit", "report_facts", lambda f: f.assign(unit=f["unit"].where(f.index != 4, "furlongs")), "report_facts.csv:6"),
    ("negative-price", "cloud_prices", lambda f: f.assign(low_usd_per_gpu_hour=f["low_usd_per_gpu_hour"].where(f.index != 2, "-1")), "cloud_prices.csv:4"),
    ("duplicate-id", "gpus", lambda f: pd.concat([f, f.iloc[[1]]]), "gpu_id"),
    ("wrong-type", "models", lambda f: f.assign(layers=f["layers"].where(f.index != 2, "eighty")), "models.csv:4"),
    ("mfu-above-one", "benchmarks", lambda f: f.assign(mfu_reported=f["mfu_reported"].where(f.index != 0, "53.5")), "benchmarks.csv:2"),
    ("extra-column", "training_runs", lambda f: f.assign(surprise="1"), "surprise"),
    ("bad-date", "sources", lambda f: f.assign(date=f["date"].where(f.index != 0, "yesterday")), "sources.csv:2"),
    ("unknown-status", "claims", lambda f: f.assign(status=f["status"].where(f.index != 0, "probably")), "claims.csv:2"),
]


def _run_in_process(args, capsys):
    code = main(args)
    return code, capsys.readouterr().err


@pytest.fixture
def clean_state(tmp_path, monkeypatch):
    MARKER.unlink(missing_ok=True)
    monkeypatch.delenv("ANALYSIS_DATA_DIR", raising=False)
    data.clear_cache()
    yield tmp_path / "out"
    data.clear_cache()
    assert not MARKER.exists(), "an injected string was executed"


@pytest.mark.parametrize("case", PARAMETER_CASES, ids=[c[0] for c in PARAMETER_CASES])
def test_bad_parameter(case, clean_state, capsys):
    _, args, expect = case
    code, err = _run_in_process(["run", "cluster", "--out", str(clean_state), *args], capsys)
    assert code == 2 and expect in err and not clean_state.exists(), err


@pytest.mark.parametrize("case", SCENARIO_CASES, ids=[c[0] for c in SCENARIO_CASES])
def test_bad_scenario_file(case, clean_state, tmp_path, capsys):
    _, text, expect = case
    scenario = tmp_path / "bad.yaml"
    scenario.write_bytes(text if isinstance(text, bytes) else text.encode())
    code, err = _run_in_process(["run", "cluster", "--out", str(clean_state), "--scenario", str(scenario)], capsys)
    assert code == 2 and expect in err and str(scenario) in err and not clean_state.exists(), err


def test_missing_scenario_file(clean_state, capsys):
    code, err = _run_in_process(["build", "--scenario", "/nonexistent/s.yaml"], capsys)
    assert code == 2 and "/nonexistent/s.yaml" in err


@pytest.mark.parametrize("case", DATA_CASES, ids=[c[0] for c in DATA_CASES])
def test_bad_data_row(case, clean_state, tmp_path, monkeypatch, capsys):
    _, table, edit, expect = case
    folder = tmp_path / "data"
    shutil.copytree(data.DATA_DIR, folder)
    path = folder / f"{table}.csv"
    edit(pd.read_csv(path, dtype=str, keep_default_na=False)).to_csv(path, index=False)
    monkeypatch.setenv("ANALYSIS_DATA_DIR", str(folder))
    code, err = _run_in_process(["run", "cluster", "--out", str(clean_state)], capsys)
    assert code == 2 and expect in err and f"{table}.csv" in err and not clean_state.exists(), err


def test_unparseable_and_missing_data_files(clean_state, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "data"
    shutil.copytree(data.DATA_DIR, folder)
    monkeypatch.setenv("ANALYSIS_DATA_DIR", str(folder))
    (folder / "gpus.csv").write_text('gpu_id,name\n"unclosed,quote\n')
    code, err = _run_in_process(["run", "cluster", "--out", str(clean_state)], capsys)
    assert code == 2 and "gpus.csv" in err
    data.clear_cache()
    shutil.copy2(data.DATA_DIR / "gpus.csv", folder / "gpus.csv")
    (folder / "claims.csv").unlink()
    code, err = _run_in_process(["run", "cluster", "--out", str(clean_state)], capsys)
    assert code == 2 and "claims.csv: data file not found" in err and not clean_state.exists()


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode() + p.read_bytes())
    return h.hexdigest()


def _start_build(root: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.Popen([sys.executable, "-m", "analysis", "build", *args], cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_concurrent_builds_wait_for_each_other(book, tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("parameters:\n  tariff_usd_per_kwh: 0.09\n")
    first = _start_build(book, "--scenario", str(scenario))
    time.sleep(0.5)
    second = _start_build(book, "--scenario", str(scenario))
    out1, err1 = first.communicate(timeout=300)
    out2, err2 = second.communicate(timeout=300)
    assert first.returncode == 0 and second.returncode == 0, err1 + err2
    assert "waiting for it to finish" in err1 + err2
    assert (book / "_build" / "html" / "index.html").is_file()
    assert not list((book / "_build").glob(".stage-*"))
    assert run_cli("build", cwd=book).returncode == 0  # back to the defaults for the other tests


def _wait_for_line(proc: subprocess.Popen, prefix: str) -> list[str]:
    """Lines of the build's stderr up to the first that starts with ``prefix`` (a marker, not a sleep)."""
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if line.startswith(prefix):
            return seen
    raise AssertionError("the build ended before printing " + repr(prefix) + ":\n" + "".join(seen))


# CTRL_C_REPEAT=20 runs it 20 times in one session (how its reliability was measured).
@pytest.mark.parametrize("attempt", range(int(os.environ.get("CTRL_C_REPEAT", "1"))))
def test_ctrl_c_leaves_the_previous_book_intact(book, tmp_path, attempt):
    before_html, before_results = _digest(book / "_build" / "html"), _digest(book / "_build" / "results")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"parameters:\n  gpus: {12345 + attempt}\n")
    # SIG_IGN for SIGINT is inherited by children (a background job of a non-interactive shell gets
    # it). The build must still act on Ctrl-C: start it that way, as `make test` may have been.
    proc = subprocess.Popen([sys.executable, "-m", "analysis", "build", "--scenario", str(scenario)], cwd=book,
                            env={**os.environ, "PYTHONPATH": str(book)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    # "Executing" is printed before the first chapter starts; the chapters then take seconds each
    # and nothing is swapped in before all of them and the render have finished.
    seen = _wait_for_line(proc, "Executing")
    proc.send_signal(signal.SIGINT)
    _, rest = proc.communicate(timeout=300)
    err = "".join(seen) + rest
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert _digest(book / "_build" / "html") == before_html
    assert _digest(book / "_build" / "results") == before_results
    assert not list((book / "_build").glob(".stage-*"))
    assert not list((book / "_build" / "cache").glob("*/.tmp-*"))
