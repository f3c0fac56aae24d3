"""Shared fixtures. The expensive one, ``book``, builds the whole book once per test run in a
throwaway copy of the repository (each pytest-xdist worker gets its own copy of that build), so
tests never touch the developer's own ``_build/``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


PROJECT_FILES = ("analysis", "notebooks", "book", "data", "_config.yml", "_toc.yml", "requirements.txt", "LICENSE",
                 "CITATION.cff")  # the site serves LICENSE and CITATION.cff at its root


def copy_repo(dest: Path, root: Path = REPO) -> Path:
    """A copy of the project's sources, data and book pages at ``dest`` (no build outputs, no
    .venv): tests build there, never in the developer's ``_build/``. Python's bytecode cache comes
    along (a module compiled from other bytes is compiled again: each file records its source's
    size and time), so a command in the copy need not compile the package again."""
    Path(dest).mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        if (root / name).is_dir():
            shutil.copytree(root / name, Path(dest) / name, ignore=shutil.ignore_patterns("generated"))
        else:
            shutil.copy2(root / name, Path(dest) / name)
    return Path(dest)


def run_cli(*args: str, cwd: Path = REPO, env=None) -> subprocess.CompletedProcess:
    """``python -m analysis ARGS`` in ``cwd`` (whose ``analysis`` package is imported)."""
    full_env = {**os.environ, "PYTHONPATH": str(cwd), **(env or {})}
    return subprocess.run([sys.executable, "-m", "analysis", *args], cwd=cwd, capture_output=True,
                          text=True, env=full_env, timeout=600)


def run_notebooks_in_process(values: dict[str, dict], folder: Path) -> Path:
    """Execute every chapter's notebook with ``values`` (``{section: parameters}``) in one IPython
    shell (tests/notebooks_in_process.py, a process of its own); assert that all ran, each with its
    parameters. Returns the folder of their results JSON, under ``folder``."""
    import json

    from analysis.chapters.registry import SECTIONS

    (folder / "values.json").write_text(json.dumps(values), encoding="utf-8")
    (folder / "results").mkdir()
    proc = subprocess.run([sys.executable, str(REPO / "tests" / "notebooks_in_process.py"), str(folder / "values.json"),
                           str(folder / "results")], cwd=REPO, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    for s in SECTIONS:
        assert json.loads((folder / "results" / f"{s.name}.json").read_text())["parameters"] == values[s.name], s.name
    return folder / "results"


@pytest.fixture(scope="session")
def book(tmp_path_factory) -> Path:
    """Root of a repository copy whose book has been built once with default parameters: this
    worker's own copy (tests rebuild it under scenarios, then back), of one build per test run."""
    built = _book_built_once(tmp_path_factory)
    root = tmp_path_factory.mktemp("book") / "repo"
    shutil.copytree(built, root, symlinks=True)  # _build's links are relative: the copy is whole
    return root


def _book_built_once(tmp_path_factory) -> Path:
    """The default book, built once per test run. Under pytest-xdist (``make test`` runs two
    workers) the first worker that needs it builds it in the run's shared temporary folder, holding
    a lock, and the other waits for it instead of building a second copy on the same two cores."""
    import fcntl

    here = tmp_path_factory.getbasetemp()
    shared = here.parent if os.environ.get("PYTEST_XDIST_WORKER") else here
    built = shared / "book-built" / "repo"
    with open(shared / "book-built.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (built.parent / "complete").exists():
            shutil.rmtree(built.parent, ignore_errors=True)
            copy_repo(built)
            proc = run_cli("build", cwd=built)
            assert proc.returncode == 0, proc.stderr[-3000:]
            (built.parent / "complete").write_text("built\n")
    return built


# The browser tests (test_browser.py, test_browser_whatif.py): Playwright driving a Chromium, the one
# $BOOK_CHROMIUM names (the GitHub workflow points it at Playwright's own build, installed with
# `python -m playwright install --with-deps chromium`), else Debian's /usr/bin/chromium.
CHROMIUM = Path(os.environ.get("BOOK_CHROMIUM") or "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
needs_chromium = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no Chromium at {CHROMIUM}: set BOOK_CHROMIUM to "
                                    "one (python -m playwright install chromium), or on Debian apt-get install chromium")


def open_page(page, url: str):
    """Go to ``url`` and return once the page is whole: its ``load`` event (the document parsed, its
    DOMContentLoaded handlers run, every image and script in) and its web fonts. Not Playwright's
    "networkidle", which can fire while a long page is still being parsed
    (https://github.com/microsoft/playwright/issues/42598): a check then sees half a page."""
    page.goto(url, wait_until="load")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    return page


def serve_folder(folder: Path):
    """Serve ``folder`` on localhost in a background thread: (server, base URL)."""
    import functools
    import http.server
    import threading

    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # no line per request in the test output
            pass

    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for every browser test of the session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield b
        b.close()


# Files whose tests take minutes (whole builds, every notebook executed, the browser pass), queued
# first and alternating between those that need the built book and those that do not: the second
# xdist worker starts on heavy work while the first builds the book, and the run ends on short
# tests instead of one worker finishing a long file alone (make test passes --no-loadscope-reorder,
# so the workers take the files in this order).
HEAVY_FIRST = ("tests/test_book.py", "tests/test_ranges.py", "tests/test_shipped_scenarios.py",
               "tests/test_bound_sweep.py", "tests/test_browser.py", "tests/test_chapters.py",
               "tests/test_robustness.py", "tests/test_figure_text.py", "tests/test_swap.py",
               "tests/test_build_speed.py", "tests/test_hygiene.py", "tests/test_measure.py", "tests/test_papermill.py")


def pytest_collection_modifyitems(items):
    rank = {path: i for i, path in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable within a file


def pytest_terminal_summary(terminalreporter):
    """Say loudly when the browser tests did not run: a green run without them never looked at
    the HTML in a browser (`.ci/run` finds or installs a Chromium so that CI always runs them)."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "test_browser.py" in r.nodeid]
    if skipped:
        terminalreporter.write_sep("!", f"{len(skipped)} BROWSER TESTS SKIPPED: no Chromium at {CHROMIUM}, the "
                                   "HTML was not checked in a browser (set BOOK_CHROMIUM, or run .ci/run)",
                                   red=True, bold=True)


@pytest.fixture(autouse=True)
def no_recording_left_over():
    """A test that opens a chapter as a notebook does (``analysis.page.notebook.start``) leaves its
    recorder running, as a kernel would; end it, so that no later test in this process (whatever
    the order the tests run in) sees a computation under way."""
    yield
    from analysis.data import provenance

    provenance.end()


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A writable copy of data/ that the loader reads instead of the real one."""
    import shutil

    from analysis.data import load as data

    folder = tmp_path / "data"
    shutil.copytree(data.DATA_DIR, folder)
    monkeypatch.setenv("ANALYSIS_DATA_DIR", str(folder))
    data.clear_cache()
    yield folder
    data.clear_cache()
