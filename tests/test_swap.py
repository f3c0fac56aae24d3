"""A build killed at any instant (kill -9, the OOM killer, a power cut) leaves a whole book: the
previous one, or the new one, never a mixture and never none. The kills are injected at the
build's named points (``ANALYSIS_FAULT_AT``), not raced against a timer."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import run_cli

from analysis.build.site import banner_text

# In the order a build reaches them; the last one is after the new version is in place.
POINTS = ("section-running", "rendered", "version-written", "linked", "swapped")
SCENARIO = "custom parameters (h100_server_usd = 123456)"


def book_state(build: Path) -> dict:
    """Which version each of html, results and executed shows, and what each says."""
    version = os.readlink(build / "current")
    folders = {name: (build / name).resolve() for name in ("html", "results", "executed")}
    assert {p.parent for p in folders.values()} == {(build / version).resolve()}, folders
    assert (build / "html" / "index.html").is_file()
    page = (build / "html" / "book" / "generated" / "capex.html").read_text(encoding="utf-8")
    params = json.loads((build / "results" / "capex.json").read_text())["parameters"]
    notebook = (build / "executed" / "capex.ipynb").read_text(encoding="utf-8")
    new = [banner_text(SCENARIO).split(". ")[0] in page, params["h100_server_usd"] == 123456,
           "h100_server_usd = 123456" in notebook]
    assert len(set(new)) == 1, f"a mixture: banner, results, notebook new = {new}"
    return {"version": version, "new": new[0]}


def _workers_of(build: Path) -> list[int]:
    """The build's helper processes (its workers, their kernels, its renderer) still running in this
    project folder."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if any(name in cmdline for name in (b"analysis.build.execute", b"analysis.build.render", b"ipykernel")) and \
                    Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z" and \
                    Path(f"/proc/{pid}/cwd").resolve() == build.parent.resolve():
                found.append(int(pid))
        except OSError:
            continue
    return found


def test_a_kill_at_any_step_leaves_a_whole_book(book):
    import time

    build = book / "_build"
    before = book_state(build)
    assert not before["new"]
    for point in POINTS:
        proc = run_cli("build", "-p", "h100_server_usd", "123456", cwd=book, env={"ANALYSIS_FAULT_AT": point})
        assert proc.returncode == -9, (point, proc.stderr[-2000:])
        state = book_state(build)
        assert state["new"] == (point == "swapped"), point
        assert (state == before) == (point != "swapped"), point
        if point == "section-running":  # its workers and renderer die with it; its work folder stays behind
            assert list(build.glob(".stage-*/.run-*"))
            deadline = time.monotonic() + 30
            while _workers_of(build) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert _workers_of(build) == []
    assert (build / "versions" / before["version"].split("/")[-1]).is_dir()  # the previous one, kept
    after = run_cli("build", cwd=book)  # back to the defaults: the kept version, swapped back in
    assert after.returncode == 0, after.stderr[-2000:]
    assert "left by an interrupted build" in after.stderr and "swapping it back in" in after.stderr
    assert book_state(build) == before
    assert not list(build.glob(".stage-*")) and not list(build.glob(".current-*"))
    assert not list(build.glob("versions/.tmp-*")) and not list(build.glob("cache/*/.tmp-*"))


def _none_left(build: Path) -> None:
    """Wait (a generous limit: a kernel notices its worker's death within a second) until no worker,
    kernel or renderer of this build is left."""
    import time

    deadline = time.monotonic() + 60
    while _workers_of(build) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _workers_of(build) == []


@pytest.mark.parametrize("point,cause", [
    ("worker-running", r"section '\w+': its worker ended \(killed by SIGKILL\)"),
    ("kernel-running", r"section '\w+' failed in \S+\.py: the kernel died while running a cell"),
])
def test_a_worker_or_kernel_killed_fails_the_build_naming_the_chapter(book, point, cause):
    """kill -9 of one of the build's workers (as it takes a section) or of a chapter's kernel (as it
    runs its first cell), not of the build: exit 1, the chapter named, the previous book in place."""
    build = book / "_build"
    before = book_state(build)
    value = {"worker-running": "234567", "kernel-running": "234568"}[point]  # in no cache entry: sections run
    proc = run_cli("build", "-p", "h100_server_usd", value, cwd=book, env={"ANALYSIS_FAULT_AT": point})
    assert proc.returncode == 1, (point, proc.stderr[-2000:])
    assert re.search(cause, proc.stderr) and "build failed; the previous book is untouched" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert book_state(build) == before
    assert not list(build.glob(".stage-*")) and not list(build.glob("cache/*/.tmp-*"))
    _none_left(build)


def test_a_version_changed_behind_the_builds_back_is_rendered_again(book):
    """Issue 47: what an old notebook run did (wrote its results into the published version through
    _build/results, and two tables beside them) is found against the version's manifest: the next
    build says so in one line and renders the book again instead of "Book unchanged"."""
    build = book / "_build"
    published = (build / "results" / "capex.json").read_bytes()
    tampered = os.readlink(build / "current")
    doc = json.loads(published)
    doc["parameters"]["useful_life_years"] = 2.0
    (build / "results" / "capex.json").write_text(json.dumps(doc), encoding="utf-8")
    (build / "results" / "capex__extra.csv").write_text("a\n1\n", encoding="utf-8")
    proc = run_cli("build", cwd=book)
    assert proc.returncode == 0, proc.stderr[-3000:]
    said = [line for line in proc.stderr.splitlines() if "changed outside the build" in line]
    assert len(said) == 1 and "results/capex.json, results/capex__extra.csv" in said[0], proc.stderr
    assert "Book unchanged" not in proc.stderr and "Rendered in" in proc.stderr
    assert os.readlink(build / "current") != tampered and not (build / tampered).exists()
    assert (build / "results" / "capex.json").read_bytes() == published
    assert not (build / "results" / "capex__extra.csv").exists()
    again = run_cli("build", cwd=book)
    assert again.returncode == 0 and "Book unchanged" in again.stderr, again.stderr[-3000:]
