"""Robustness: a table-driven corpus of bad inputs (each exits 2, names the input and writes
nothing), concurrent builds, and Ctrl-C during a build."""

import errno
import fcntl
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_cli

from analysis.cli import main
from analysis.data import load as data

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
    ("int-minus-inf", ["-p", "gpus", "-inf"], "not finite"),  # argparse alone would read "-inf" as a flag
    ("float-minus-exponent", ["-p", "pue", "-1e5"], "out of range"),  # so "-1e5", unlike "-5"
    ("float-minus-nan", ["-p", "pue", "-nan"], "not finite"),
    ("int-underscores", ["-p", "gpus", "1_000"], "without '_' separators"),
    ("int-arabic-indic", ["-p", "gpus", "١٠٠٠"], "with the digits 0-9"),
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
    # pandas reads each of these as a number; the command line's grammar does not (issue 47)
    ("number-underscores", "gpus", lambda f: f.assign(tdp_w=f["tdp_w"].where(f.index != 1, "1_000")),
     "without '_' separators"),
    ("number-arabic-indic", "gpus", lambda f: f.assign(tdp_w=f["tdp_w"].where(f.index != 1, "\u0667\u0660\u0660")),
     "with the digits 0-9"),
    ("number-nul-byte", "gpus", lambda f: f.assign(tdp_w=f["tdp_w"].where(f.index != 1, "700\x00")), "'700\\x00'"),
]


def _run_in_process(args, capsys):
    code = main(args)
    return code, capsys.readouterr().err


REPO = Path(__file__).resolve().parent.parent


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


def test_a_data_file_that_is_a_fifo_is_refused_not_read(clean_state, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "data"
    shutil.copytree(data.DATA_DIR, folder)
    monkeypatch.setenv("ANALYSIS_DATA_DIR", str(folder))
    (folder / "gpus.csv").unlink()
    os.mkfifo(folder / "gpus.csv")  # opened for reading, it would wait for a writer forever
    code, err = _run_in_process(["run", "cluster", "--out", str(clean_state)], capsys)
    assert code == 2 and f"{folder / 'gpus.csv'}: not a regular file" in err, err


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


def test_concurrent_builds_wait_for_each_other(book):
    """A build that finds another holding ``_build/.build.lock`` says so, writes nothing while it
    waits, and finishes once the lock is free. The test holds the lock itself (as a running build
    does, with flock), so the wait is certain rather than a race between two builds' timings."""
    before = _digest(book / "_build" / "html"), _digest(book / "_build" / "results")
    with open(book / "_build" / ".build.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        lock.seek(0)
        lock.truncate()
        lock.write("4242")
        lock.flush()
        second = _start_build(book)
        seen = _wait_for_line(second, "Another build")
        assert "pid 4242" in seen[-1] and "waiting for it to finish" in seen[-1], seen
        assert second.poll() is None, "the build did not wait for the lock"
        assert not list((book / "_build").glob(".stage-*")), "the waiting build wrote a staging folder"
        assert (_digest(book / "_build" / "html"), _digest(book / "_build" / "results")) == before
    out, err = second.communicate(timeout=300)  # the lock is free: an unchanged build, done at once
    assert second.returncode == 0, "".join(seen) + err
    assert (book / "_build" / "html" / "index.html").is_file()
    assert not list((book / "_build").glob(".stage-*"))
    assert (_digest(book / "_build" / "html"), _digest(book / "_build" / "results")) == before


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


# --- output paths, planner outputs, pipes and interrupts (issue 27) --------------------------------------

PLAN = ["plan", "--model", "llama31_70b", "--tokens", "1e12", "--gpu", "h100_sxm", "--gpus", "1024"]
OUT_COMMANDS = {"run": ["run", "cluster"], "plan": PLAN, "compare": ["compare", str(data.DATA_DIR / "scenarios" /
                                                                               "report-defaults.yaml")],
                "measure": ["measure", "--quick"]}


def _special(kind: str, tmp_path: Path) -> tuple[str, str]:
    """An --out that must be refused, and the words the message must contain."""
    a_file = tmp_path / "f.txt"
    a_file.write_text("x")
    if kind == "fifo":
        os.mkfifo(tmp_path / "fifo")
        return str(tmp_path / "fifo"), "FIFO"
    if kind == "link-loop":
        (tmp_path / "a").symlink_to(tmp_path / "b")
        (tmp_path / "b").symlink_to(tmp_path / "a")
        return str(tmp_path / "a" / "x"), "--out"
    if kind == "too-long":
        return str(tmp_path / ("n" * 5_000)), "cannot be used"
    return {"empty": ("", "the path is empty"), "sys": ("/sys/x", "under /sys"), "proc": ("/proc/x", "under /proc"),
            "device": ("/dev/null", "under /dev"), "under-a-file": (str(a_file / "sub"), f"{a_file} is a file"),
            "root": ("/", "root folder")}[kind]


@pytest.mark.parametrize("command", OUT_COMMANDS)
@pytest.mark.parametrize("kind", ["fifo", "empty", "sys", "proc", "device", "under-a-file", "link-loop", "too-long"])
def test_a_bad_out_exits_2_at_once_naming_the_flag(command, kind, tmp_path):
    """Checked before any work (the planner's FIFO used to hang after computing). A subprocess with a
    timeout: a hang fails the test instead of stopping the suite."""
    target, words = _special(kind, tmp_path)
    proc = subprocess.run([sys.executable, "-m", "analysis", *OUT_COMMANDS[command], "--out", target],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 2 and "--out" in proc.stderr and words in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") <= 2 and proc.stdout == "", proc.stderr  # usage line at most, one sentence


def test_plan_out_needs_an_existing_folder(tmp_path, capsys):
    code, err = _run_in_process([*PLAN, "--out", str(tmp_path / "no" / "such" / "p.json")], capsys)
    assert code == 2 and f"the folder {tmp_path / 'no' / 'such'} does not exist" in err, err
    code, err = _run_in_process([*PLAN, "--out", str(tmp_path)], capsys)
    assert code == 2 and "is a folder; give a file name" in err, err


def test_plan_out_is_written_whole_under_a_path_with_spaces_and_accents(tmp_path, capsys):
    folder = tmp_path / "mes plans à moi"
    folder.mkdir()
    target = folder / "plan été.json"
    target.write_text("old")
    code, _ = _run_in_process([*PLAN, "--out", str(target)], capsys)
    assert code == 0 and json.loads(target.read_text())["results"]["days"]["unit"] == "days"
    assert sorted(p.name for p in folder.iterdir()) == ["plan été.json"]  # no temporary file left


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder this process cannot write: permissions for a normal user; for root (whom permissions
    do not stop), a read-only bind mount, or a skip where mounting is not allowed."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    if subprocess.run(["mount", "--bind", "-o", "ro", str(folder), str(folder)], capture_output=True).returncode:
        pytest.skip("running as root without permission to mount a read-only folder")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.mark.parametrize("command", OUT_COMMANDS)
def test_a_read_only_out_exits_2(command, read_only_folder, capsys):
    target = read_only_folder / ("p.json" if command == "plan" else "out")
    code, err = _run_in_process([*OUT_COMMANDS[command], "--out", str(target)], capsys)
    assert code == 2 and f"the folder {read_only_folder} is not writable" in err, err


def test_a_read_only_build_folder_exits_2(tmp_path):
    from conftest import copy_repo

    root = copy_repo(tmp_path / "repo")
    build = root / "_build"
    build.mkdir()
    if os.geteuid() == 0:
        if subprocess.run(["mount", "--bind", "-o", "ro", str(build), str(build)], capture_output=True).returncode:
            pytest.skip("running as root without permission to mount a read-only folder")
    else:
        build.chmod(0o555)
    try:
        proc = run_cli("build", cwd=root)
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(build)], check=True)
        build.chmod(0o755)
    assert proc.returncode == 2 and str(build) in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("flag", ["--mfu", "--tokens-per-s-per-gpu"])
def test_a_plan_that_overflows_is_refused_naming_the_flag(flag, capsys):
    code, err = _run_in_process([*PLAN, flag, "1e-300", "--json"], capsys)
    assert code == 2 and err.startswith(f"error: {flag} 1e-300:") and "not a finite number" in err, err
    assert "RuntimeWarning" not in err and err.count("\n") == 1


def test_plan_json_is_strict_json(capsys):
    def refuse(word):
        raise AssertionError(f"{word} is not JSON")

    for extra in ([], ["--mfu", "0.0001"], ["--tokens-per-s-per-gpu", "0.001", "--failure-model", "measured-fit"]):
        assert main([*PLAN, *extra, "--json"]) == 0
        doc = json.loads(capsys.readouterr().out, parse_constant=refuse)
        assert doc["results"]["days"]["value"] > 0


def test_negative_plan_values_get_the_range(capsys):
    for value in ("-inf", "-1e5", "-5"):
        code, err = _run_in_process([*PLAN[:-2], "--gpus", value], capsys)
        assert code == 2 and "--gpus must be at least 1 and at most 10,000,000" in err and repr(value) in err, err


def test_plan_into_a_closed_pipe_is_quiet():
    """`plan --json | head -c 10`: the reader leaves early. No "Broken pipe", exit 0 (the recipe of
    Python's signal documentation). The pipe is closed before the process starts, so its first
    write fails every time."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([sys.executable, "-m", "analysis", *PLAN, "--json"], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    finally:
        os.close(write_end)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


@pytest.mark.parametrize("command,words", [
    (["run", "cluster"], "the run stopped; results reach --out only when a run completes"),
    (PLAN, "planning stopped; --out is written only when a plan completes"),
])
def test_run_and_plan_say_their_own_sentence_on_ctrl_c(command, words, tmp_path, monkeypatch, capsys):
    """Ctrl-C arrives as KeyboardInterrupt inside the command (here, at its parameter checks)."""
    from analysis import chapters, planner

    def interrupt(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(chapters, "check_inputs", interrupt)
    monkeypatch.setattr(planner, "plan", interrupt)
    out = tmp_path / ("p.json" if command is PLAN else "out")
    code, err = _run_in_process([*command, "--out", str(out)], capsys)
    assert code == 130 and err == f"interrupted: {words}\n", err
    assert "book" not in err and not out.exists()


@pytest.mark.parametrize("errno_,code", [(errno.EROFS, 2), (errno.EACCES, 2), (errno.ENOSPC, 1), (errno.EIO, 1)])
def test_os_errors_map_to_exit_codes(errno_, code):
    from analysis.cli import os_error_exit

    got, message = os_error_exit(OSError(errno_, os.strerror(errno_), "/x/_build/html"))
    assert got == code and "/x/_build/html" in message


def test_first_not_finite_walks_nested_results():
    from analysis.errors import first_not_finite

    assert first_not_finite({"a": {"value": 1.0, "p10": [0.5, 2]}, "b": "text", "c": True}) is None
    assert first_not_finite({"a": {"value": 1.0}, "b": {"value": 2.0, "p90": float("nan")}})[0] == "b.p90"
    assert first_not_finite([1, {"x": float("-inf")}]) == ("1.x", float("-inf"))


def test_finite_or_refused_names_the_input_whose_default_gives_finite_numbers():
    from analysis.errors import InputError, finite_or_refused

    def compute(flag):  # --rate 0 is the trouble; without it (its default, 1) the result is finite
        rate = {"--size": 0.0, "--rate": 1.0}.get(flag, 0.0) if flag else 0.0
        return {"days": {"value": 1.0 / rate if rate else float("inf")}}

    with pytest.raises(InputError, match=r"^--rate 0: with this value the plan's days would be inf"):
        finite_or_refused(compute, {"--size": 5.0, "--rate": 0.0}, lambda r: r, "plan")
    with pytest.raises(InputError, match=r"arithmetic overflows .* with --tokens 1e\+18; give less extreme"):
        finite_or_refused(lambda flag: None if flag else 10.0 ** 400, {"--tokens": 1e18}, lambda r: r, "plan")
    assert finite_or_refused(lambda flag: {"days": 3.0}, {"--rate": 1.0}, lambda r: r) == {"days": 3.0}


# --- user text echoed (issue 47) -----------------------------------------------------------------

ESC, RLO = "\x1b[2J", "\u202e"
LONG = "1" * 100_000
# (id, arguments): each repeats hostile user text in its one-line error
ECHO_CASES = [
    ("section-escape", ["run", f"cluster{ESC}"]),
    ("choice-escape", ["run", "cluster", "-p", "gpu", f"h100_sxm{ESC}"]),
    ("name-bidi", ["run", "cluster", "-p", f"gp{RLO}u", "5"]),
    ("name-long", ["run", "cluster", "-p", "g" * 100_000, "5"]),
    ("value-long", ["run", "cluster", "-p", "gpus", LONG]),
    ("stray-argument-escape", ["run", "cluster", f"x{ESC}"]),
    ("planner-choice-escape", [*PLAN[:5], "--gpu", f"h100_sxm{ESC}{RLO}", "--gpus", "8"]),
    ("planner-number-long", [*PLAN[:-2], "--gpus", LONG]),
    ("scenario-path-escape", ["run", "cluster", "--scenario", f"/nonexistent/{ESC}{RLO}.yaml"]),
]


@pytest.mark.parametrize("case", ECHO_CASES, ids=[c[0] for c in ECHO_CASES])
def test_user_text_in_a_message_is_escaped_and_clipped(case, clean_state, capsys):
    code, err = _run_in_process(case[1], capsys)
    assert code == 2 and err.startswith(("error: ", "usage: ")), err[:500]
    assert "\x1b" not in err and RLO not in err, ascii(err[:500])
    assert len(err) < 3_000, len(err)  # a 100 kB value is not echoed whole
    assert "\\x1b" in err or "\\u202e" in err or "characters)" in err, err[:500]  # shown, escaped or cut


def test_echo_and_terminal_safe_text():
    from analysis.errors import echo, terminal_safe

    assert echo("h100_sxm") == "h100_sxm" and echo("é ü") == "é ü"
    assert echo(f"a{ESC}") == "'a\\x1b[2J'" and echo(f"a{RLO}b") == "'a\\u202eb'"
    assert echo("x" * 1_000).endswith("... (1,002 characters)") and len(echo("x" * 1_000)) < 240
    assert terminal_safe(f"line {ESC}\nnext\t{RLO}") == "line \\x1b[2J\nnext\\t\\u202e"
    assert len(terminal_safe("y" * 10_000)) < 2_100
