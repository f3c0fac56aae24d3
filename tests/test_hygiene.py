"""Process hygiene: a SIGTERM- or SIGKILL-ed build leaves nothing that blocks or pollutes the next
one, and user-supplied text never becomes HTML in the built pages. (Cache entries are checked in
tests/test_build_speed.py, kills at every step of the swap in tests/test_swap.py.)"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli


def _start_build(root: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "analysis", "build", *args], cwd=root,
                            env={**os.environ, "PYTHONPATH": str(root)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text() if (task / "children").exists() else ""
        found |= {int(p) for p in text.split()}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def _wait(condition, seconds: float, what: str):
    """Poll ``condition`` (generous limit: a condition that never holds fails, a slow one does not)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _start_and_wait_for_workers(root: Path, scenario: Path) -> tuple[subprocess.Popen, set[int]]:
    proc = _start_build(root, "--scenario", str(scenario))
    for line in proc.stderr:
        if line.startswith("Executing"):
            break
    workers = _wait(lambda: _children(proc.pid), 120, "the pool workers to start")
    return proc, workers


def test_sigterm_is_a_clean_interrupt_and_leaves_no_worker(book, tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("parameters:\n  gpus: 23456\n")
    proc, workers = _start_and_wait_for_workers(book, scenario)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "SIGTERM received: nothing was swapped in" in err, err
    assert "Traceback" not in err, err
    _wait(lambda: not any(_alive(p) for p in workers), 30, "the workers to exit")
    assert not list((book / "_build" / "cache").glob("*/.tmp-*"))


def test_a_build_after_a_killed_build_finishes_and_clears_its_debris(book):
    """Killed (SIGKILL, no handler runs) while its first section executes, at a named point rather
    than after a timer: its workers die with it, and the next build neither waits for a lock nor
    keeps what it left."""
    killed = run_cli("build", "-p", "gpus", "34567", cwd=book, env={"ANALYSIS_FAULT_AT": "section-running"})
    assert killed.returncode == -9, killed.stderr[-2000:]
    assert list((book / "_build").glob(".stage-*/.run-*")), "expected the killed build's debris"
    after = run_cli("build", cwd=book)  # would wait forever if a worker still held the lock
    assert after.returncode == 0, after.stderr[-2000:]
    assert "waiting" not in after.stderr and "left by an interrupted build" in after.stderr
    assert not list((book / "_build" / "cache").glob("*/.tmp-*")) and not list((book / "_build").glob(".stage-*"))


def test_user_text_is_escaped_in_every_page(book, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(book, root, symlinks=True)
    markup = "<script>alert(1)</script><b>bold</b>"
    (root / "data" / "scenarios" / "zz-hostile.yaml").write_text(
        f"name: '{markup} shipped'\ndescription: 'Described with {markup} and [a link](javascript:alert(2)).'\n"
        "parameters:\n  pue: 1.31\n")
    scenario = tmp_path / "named.yaml"
    scenario.write_text(f"name: '{markup} named'\nparameters: {{}}\n")
    proc = run_cli("build", "--scenario", str(scenario), cwd=root)
    assert proc.returncode == 0, proc.stderr[-2000:]
    pages = list((root / "_build" / "html").rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in text and "<b>bold" not in text and 'href="javascript' not in text, page
        if "book" in page.relative_to(root / "_build" / "html").parts:  # every chapter page carries the banner
            assert "&lt;script&gt;alert(1)" in text, f"{page} lacks the escaped scenario name"
    scenarios_page = (root / "_build" / "html" / "book" / "generated" / "scenarios.html").read_text(encoding="utf-8")
    assert "shipped" in scenarios_page and "Described with" in scenarios_page


def test_two_runs_into_one_folder_do_not_mix(tmp_path):
    """Each run stages into a folder of its own and prints its own numbers; the folder ends with
    one run's results JSON and table, never a mixture."""
    from conftest import REPO

    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    runs = {gpus: subprocess.Popen([sys.executable, "-m", "analysis", "run", "cluster", "--out", str(out),
                                    "-p", "gpus", str(gpus)], cwd=REPO, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True) for gpus in (1000, 2000)}
    for gpus, proc in runs.items():
        stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0, stderr
        peak = next(line for line in stdout.splitlines() if "(peak_fp8_eflops)" in line).split()
        assert float(peak[-3]) == pytest.approx(gpus * 1978.9e12 / 1e18, rel=1e-3), stdout
    result = json.loads((out / "cluster.json").read_text())
    table = (out / "cluster__results.csv").read_text()
    assert f"peak_fp8_eflops,{result['results']['peak_fp8_eflops']['value']:.10g}," in table
    assert not list(tmp_path.glob(".out.partial-*"))


def test_make_venv_with_a_tampered_lock_keeps_the_working_venv(tmp_path):
    """`make venv` builds the new environment at .venv with the old one moved aside, and moves the
    old one back when the install fails: here uv's hashes in the lock are rewritten, so pip refuses
    uv (or cannot fetch it offline) before anything else is installed."""
    import re

    from conftest import REPO

    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(REPO / name, tmp_path / name)
    lines = (REPO / "requirements.txt").read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("uv=="))
    end = next(i for i in range(start, len(lines)) if not lines[i].rstrip().endswith("\\"))
    for i in range(start, end + 1):  # every hash of uv's wheels, the one for this machine among them
        lines[i] = re.sub(r"sha256:[0-9a-f]{64}", "sha256:" + "0" * 64, lines[i])
    tampered = "".join(lines)
    assert tampered != (REPO / "requirements.txt").read_text()
    (tmp_path / "requirements.txt").write_text(tampered)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / ".venv")], check=True)
    (tmp_path / ".venv" / "mine").write_text("the working environment")
    (tmp_path / ".venv" / ".requirements.sha256").write_text("stale\n")  # so make installs anew
    proc = subprocess.run(["make", "venv", f"PYTHON={sys.executable}"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "Installing from the lock failed; .venv is the one it had" in proc.stderr, proc.stderr[-2000:]
    assert (tmp_path / ".venv" / "mine").read_text() == "the working environment"
    assert not (tmp_path / ".venv.old").exists()
    python = tmp_path / ".venv" / "bin" / "python"
    assert subprocess.run([str(python), "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True,
                          check=True).stdout.strip() == str(tmp_path / ".venv")
