"""Build the whole book: execute stale sections (:mod:`analysis.pipeline.execute`: 2 processes,
kernels forked, each section cached by a content key), generate the appendices, run
``jupyter-book build`` on a staged copy, and swap the result into ``_build/html`` only when every
step succeeded. A failure names the section, cell and error and leaves the previous book as it was.
When no key and no book page changed, the previous HTML is kept and Sphinx does not run at all.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from analysis import constraints
from analysis.data import data_dir, load_table, table_closure, table_path
from analysis.errors import InputError
from analysis.pipeline import render
from analysis.pipeline.execute import LOCK_FD, digest_files, execute_sections, package_digest
from analysis.pipeline.pages import assumptions_page, data_page, facts_page, sources_page, stage_front_matter
from analysis.pipeline.runner import RunRecord
from analysis.schemas import SCHEMAS
from analysis.sections import SECTIONS, resolve_section

REPO_ROOT = Path(__file__).resolve().parents[2]
BOOK_FILES = ("_config.yml", "_toc.yml")
PROJECT_FILES = ("analysis", "notebooks", "book", "data", "_config.yml", "_toc.yml", "requirements.txt")

# Set once the finished book has been swapped in, so an interrupt arriving later is not reported
# as "nothing was swapped in".
SWAPPED_IN = False


@dataclass
class BuildReport:
    records: list[RunRecord] = field(default_factory=list)
    sphinx_seconds: float = 0.0
    unchanged: bool = False
    seconds: float = 0.0


def book_source_files(root: Path) -> list[Path]:
    files = [root / f for f in BOOK_FILES]
    files += [p for p in (root / "book").rglob("*") if p.is_file() and "generated" not in p.parts]
    return files


def resolve_all(overrides: dict, origin: dict | None = None) -> dict[str, dict]:
    """Validated parameters of every section, after validating every data table the sections
    read. Raises an InputError (exit code 2) before anything is written."""
    for name in table_closure([t for s in SECTIONS for t in s.tables]):
        load_table(name)
    return {s.name: resolve_section(s, overrides, origin) for s in SECTIONS}


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _stage_sources(root: Path, src: Path) -> None:
    for name in BOOK_FILES:
        shutil.copy2(root / name, src / name)
    # Every page of a scenario build says which scenario it shows: the theme's banner holds a
    # marker that analysis.pipeline.render replaces after rendering (or removes at the defaults).
    import yaml

    config = yaml.safe_load((src / "_config.yml").read_text(encoding="utf-8"))
    config.setdefault("html", {})["announcement"] = render.MARKER
    (src / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    shutil.copytree(root / "book", src / "book", ignore=shutil.ignore_patterns("generated"))


@contextlib.contextmanager
def _interrupts_deferred():
    """Ignore Ctrl-C, SIGTERM and SIGHUP during the swaps, so results, notebooks and HTML change
    together; by then the build is complete, so an interrupt arriving there is reported, not acted on."""
    received = []
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    previous = {sig: signal.signal(sig, lambda *_: received.append(True)) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if received:
        _log("Interrupt received while swapping in the finished book; the build completed.")


def _swap(new: Path, current: Path) -> None:
    """Replace ``current`` by ``new``: two renames, so the old copy is whole until the last moment."""
    old = current.with_name(f".old-{current.name}-{os.getpid()}")
    if current.exists():
        current.rename(old)
    new.rename(current)
    shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def _build_lock(build_dir: Path):
    """One build at a time per ``_build/``: a second one waits, and says why."""
    # open() gives a close-on-exec descriptor (kernels never get it); forked workers close theirs.
    with open(build_dir / ".build.lock", "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "unknown"
            _log(f"Another build (pid {holder}) is using {build_dir}; waiting for it to finish ...")
            fcntl.flock(lock, fcntl.LOCK_EX)
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        LOCK_FD["fd"] = lock.fileno()
        try:
            yield
        finally:
            LOCK_FD.pop("fd", None)


def build_book(overrides: dict | None = None, origin: dict | None = None, jobs: int = 2,
               root: Path = REPO_ROOT, scenario: str | None = None) -> BuildReport:
    """Build the book into ``root/_build/html``; see the module docstring."""
    root = Path(root).resolve()
    values = resolve_all(overrides or {}, origin)
    constraints.check(values, origin)
    build_dir = root / "_build"
    with contextlib.ExitStack() as stack:
        try:
            build_dir.mkdir(exist_ok=True)
            stack.enter_context(_build_lock(build_dir))
            probe = build_dir / f".write-probe-{os.getpid()}"
            probe.mkdir()
            probe.rmdir()
        except PermissionError as exc:
            raise InputError(f"{build_dir}: not writable ({exc.strerror}); the build writes its output there") from None
        _clear_debris(build_dir)
        return _build_locked(values, jobs, root, build_dir, scenario)


def _clear_debris(build_dir: Path) -> None:
    """Remove what a killed build left behind. Called under the build lock, so nothing of these
    belongs to a build still running."""
    debris = [*build_dir.glob(".stage-*"), *build_dir.glob(".old-*"), *build_dir.glob("cache/*/.tmp-*")]  # whatif/.tmp-* are files
    for path in debris:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    if debris:
        _log(f"Removed {len(debris)} folder(s) left by an interrupted build.")


def _build_locked(values: dict, jobs: int, root: Path, build_dir: Path, scenario: str | None) -> BuildReport:
    global SWAPPED_IN
    started = time.perf_counter()
    stage = build_dir / f".stage-{os.getpid()}"
    src, results = stage / "src", stage / "results"
    generated = src / "book" / "generated"
    renderer = render.Renderer(build_dir / ".render")
    try:
        results.mkdir(parents=True)
        src.mkdir()
        _stage_sources(root, src)
        inputs = _package_and_data_digest(root)
        _write_whatif_grids(src, values, inputs, build_dir / "cache")
        stage_front_matter(src, root)  # footer stamp (commit, date) and the landing page
        generated.mkdir(parents=True)
        _log(f"Executing {len(SECTIONS)} sections ({jobs} processes):")
        # Sphinx starts up beside the first executing chapter (nothing executes: it starts at the end).
        records, keys = execute_sections(values, root, jobs, build_dir / "cache", results, generated,
                                         on_first_run=lambda: renderer.start(src))
        (generated / "assumptions.md").write_text(assumptions_page(values, scenario), encoding="utf-8")
        (generated / "sources.md").write_text(sources_page(), encoding="utf-8")
        (generated / "facts.md").write_text(facts_page(), encoding="utf-8")
        (generated / "data").mkdir(exist_ok=True)
        for name in SCHEMAS:
            if table_path(name).is_file():  # optional tables (a measurement not yet made) may be absent
                shutil.copy2(table_path(name), generated / "data" / f"{name}.csv")
        (generated / "data_tables.md").write_text(_data_page_cached(inputs, build_dir / "cache"), encoding="utf-8")
        h = hashlib.sha256(json.dumps([keys, scenario], sort_keys=True).encode())
        digest_files(h, [p for p in src.rglob("*") if p.is_file()], src)
        build_hash = h.hexdigest()
        html = build_dir / "html"
        report = BuildReport(records=records)
        marker = html / ".build-hash"
        if marker.is_file() and marker.read_text() == build_hash and (build_dir / "results").is_dir():
            report.unchanged = True
            _log("Book unchanged: keeping _build/html.")
        else:
            _log("Rendering with jupyter-book ...")
            t0 = time.perf_counter()
            new_html = stage / "html"
            renderer.finish(src, new_html, scenario)
            report.sphinx_seconds = time.perf_counter() - t0
            (new_html / ".build-hash").write_text(build_hash)
            with _interrupts_deferred():
                _swap(results, build_dir / "results")
                _swap(generated, build_dir / "executed")
                _swap(new_html, html)
                SWAPPED_IN = True
            _log(f"Rendered in {report.sphinx_seconds:.1f} s: {html / 'index.html'}")
        report.seconds = time.perf_counter() - started
        return report
    finally:
        renderer.cancel()
        shutil.rmtree(stage, ignore_errors=True)


def _package_and_data_digest(root: Path) -> str:
    """Hash of the package's code and every data file this process reads (``data_dir()``): the
    inputs of the what-if grids and the Data appendix besides the parameters."""
    h = hashlib.sha256(package_digest(root))
    folder = data_dir()
    digest_files(h, [p for p in folder.rglob("*") if p.is_file()], folder)
    return h.hexdigest()


def _data_page_cached(inputs: str, cache_root: Path) -> str:
    """The Data appendix (:func:`data_page`: every schema, built with pandera, a quarter second),
    cached by ``inputs`` (:func:`_package_and_data_digest`)."""
    cached = cache_root / "pages" / f"data_tables-{inputs[:20]}.md"
    if cached.is_file():
        return cached.read_text(encoding="utf-8")
    text = data_page()
    cached.parent.mkdir(parents=True, exist_ok=True)
    for old in cached.parent.glob("data_tables-*.md"):
        old.unlink()
    tmp = cached.with_name(f".tmp-{os.getpid()}.md")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(cached)
    return text


def _write_whatif_grids(src: Path, values: dict[str, dict], inputs: str, cache_root: Path) -> None:
    """The what-if panels' grids (analysis.whatif), at this build's parameters, into the staged
    book's static folder (served as _static/whatif/<panel>.js). Each panel's grid is cached by a
    hash of the parameters it is computed from and ``inputs`` (the package and the data)."""
    from analysis.whatif import GRID_FOLDER, PANELS, base_values, grid_script

    flat = {k: v for s in values.values() for k, v in s.items()}
    code = hashlib.sha256(inputs.encode())
    dest, folder = src / "book" / "static" / GRID_FOLDER, cache_root / "whatif"
    dest.mkdir(parents=True, exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    computed, started = [], time.perf_counter()
    for panel in PANELS.values():
        h = code.copy()
        h.update(json.dumps(base_values(panel, flat), sort_keys=True).encode())
        cached = folder / f"{panel.name}-{h.hexdigest()[:20]}.js"
        if not cached.is_file():
            for old in folder.glob(f"{panel.name}-*.js"):  # one entry per panel: the last build's
                old.unlink()
            tmp = folder / f".tmp-{panel.name}-{os.getpid()}"
            tmp.write_text(grid_script(panel, flat), encoding="utf-8")
            tmp.rename(cached)
            computed.append(panel.name)
        shutil.copyfile(cached, dest / f"{panel.name}.js")
    _log(f"What-if grids: {len(computed)} of {len(PANELS)} panels computed in {time.perf_counter() - started:.1f} s")


def copy_project(dest: Path, root: Path = REPO_ROOT) -> Path:
    """A working copy of the project's sources, data and book pages at ``dest`` (no build outputs,
    no .venv): tests and the benchmark build there, never in the developer's ``_build/``."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        src = Path(root) / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "generated"))
        else:
            shutil.copy2(src, dest / name)
    return dest
