"""Build the whole book: execute stale sections (2-process pool), generate the appendices, run
``jupyter-book build`` on a staged copy, and swap the result into ``_build/html`` only when every
step succeeded. A failure names the section, cell and error and leaves the previous book as it was.

Caching: a section is re-executed only when its content key changes. The key hashes the
notebook, its validated parameters, the data files it reads (with the tables their validation
reads), the ``analysis`` package, ``requirements.txt`` and the results of the sections it needs.
When no key and no book page changed, the previous HTML is kept and Sphinx does not run at all.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from html import escape as html_escape
from pathlib import Path

from analysis import constraints
from analysis.data import load_table, table_closure, table_file, table_path
from analysis.errors import ExecutionError, InputError
from analysis.pipeline import outputs
from analysis.pipeline.pages import assumptions_page, data_page, facts_page, sources_page, stage_front_matter
from analysis.pipeline.runner import RunRecord, SectionFailed, timed_execute
from analysis.schemas import SCHEMAS
from analysis.sections import SECTIONS, Section, resolve_section, run_order

REPO_ROOT = Path(__file__).resolve().parents[2]
BOOK_FILES = ("_config.yml", "_toc.yml")
CACHE_ENTRIES = 8
PROJECT_FILES = ("analysis", "notebooks", "book", "data", "_config.yml", "_toc.yml", "requirements.txt")
CHECKSUMS = ".sha256"  # in each cache entry: the sha256 of every other file in it

# Set once the finished book has been swapped in, so an interrupt arriving later is not reported
# as "nothing was swapped in".
SWAPPED_IN = False
_LOCK_FD: dict[str, int] = {}  # the build lock's descriptor, which pool workers close at start


@dataclass
class BuildReport:
    records: list[RunRecord] = field(default_factory=list)
    sphinx_seconds: float = 0.0
    unchanged: bool = False
    seconds: float = 0.0


def _digest_files(h, paths, root: Path) -> None:
    for path in sorted(paths):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())


def package_files(root: Path) -> list[Path]:
    return [p for p in (root / "analysis").rglob("*.py") if "__pycache__" not in p.parts]


def book_source_files(root: Path) -> list[Path]:
    files = [root / f for f in BOOK_FILES]
    files += [p for p in (root / "book").rglob("*") if p.is_file() and "generated" not in p.parts]
    return files


def section_key(section: Section, params: dict, root: Path, dep_results: dict[str, bytes]) -> str:
    """Content hash of everything a section's output depends on."""
    h = hashlib.sha256()
    h.update(json.dumps(params, sort_keys=True).encode())
    data = [root / "data" / table_file(t) for t in table_closure(section.tables)]
    for absent in (p for p in data if not p.is_file()):  # an optional table (data/measured/) may be absent
        h.update(b"absent:" + str(absent.relative_to(root)).encode())
    extra = [p for pattern in section.files for p in sorted(root.glob(pattern))]
    _digest_files(h, [root / section.notebook, root / "requirements.txt", *(p for p in data if p.is_file()),
                      *extra, *package_files(root)], root)
    for name in sorted(dep_results):
        h.update(name.encode() + dep_results[name])
    return h.hexdigest()[:20]


def resolve_all(overrides: dict, origin: dict | None = None) -> dict[str, dict]:
    """Validated parameters of every section, after validating every data table the sections
    read. Raises an InputError (exit code 2) before anything is written."""
    for name in table_closure([t for s in SECTIONS for t in s.tables]):
        load_table(name)
    return {s.name: resolve_section(s, overrides, origin) for s in SECTIONS}


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


class _Workers:
    """One process pool for the whole build, started when the first section must run and shared
    by every level."""

    def __init__(self, jobs: int):
        self.jobs, self.pool = jobs, None

    def run(self, jobs_to_run) -> tuple[list[RunRecord], list[str]]:
        records, errors = [], []
        if not jobs_to_run:
            return records, errors
        # Workers start inside submit(). Signals wait until all are launched, so none is left
        # half-started and unregistered (and so not killed); a pending one then acts at once.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, outputs.STOP_SIGNALS)
        try:
            if self.pool is None:
                # Forked (fast, and no half-started child reading its setup from a dead parent).
                # die_with_parent closes the build lock's inherited descriptor, so only this
                # process holds the lock, and makes every worker die with this process.
                self.pool = ProcessPoolExecutor(
                    max_workers=max(1, self.jobs), mp_context=multiprocessing.get_context("fork"),
                    initializer=outputs.die_with_parent, initargs=(os.getpid(), _LOCK_FD.get("fd")))
            futures = {self.pool.submit(timed_execute, args): args[0].name for args in jobs_to_run}
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        for future, name in futures.items():
            try:
                record = future.result()
                records.append(record)
                _log(f"  {name:<12} ran in {record.seconds:5.1f} s")
            except SectionFailed as exc:
                errors.append(str(exc))
                _log(f"  {name:<12} FAILED")
        return records, errors

    def close(self, abort: bool) -> None:
        """Shut the pool down; ``abort`` (Ctrl-C, SIGTERM, SIGHUP, a failure) kills running sections."""
        if self.pool is None:
            return
        if abort:
            for process in list((self.pool._processes or {}).values()):  # no public API kills workers
                with contextlib.suppress(OSError):
                    process.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)


def _entry_digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file() and p.name != CHECKSUMS}


def seal_entry(folder: Path) -> None:
    """Record the checksum of every file of a finished cache entry."""
    (folder / CHECKSUMS).write_text(json.dumps(_entry_digests(folder), sort_keys=True), encoding="utf-8")


def entry_is_intact(folder: Path, section: str) -> bool:
    """Whether a cache entry has its results and notebook and every file matches its checksum."""
    try:
        recorded = json.loads((folder / CHECKSUMS).read_text(encoding="utf-8"))
        return ({f"{section}.json", f"{section}.ipynb"} <= set(recorded)
                and recorded == _entry_digests(folder))
    except (OSError, ValueError):
        return False


def execute_sections(values: dict[str, dict], root: Path, jobs: int, cache_root: Path,
                     results_out: Path, notebooks_out: Path) -> tuple[list[RunRecord], dict[str, str]]:
    """Run or fetch from cache every section; copy outputs to ``results_out``/``notebooks_out``."""
    keys, records = {}, []
    workers, completed = _Workers(jobs), False
    try:
        _execute_levels(values, root, workers, cache_root, results_out, notebooks_out, keys, records)
        completed = True
    finally:
        workers.close(abort=not completed)
    return records, keys


def _execute_levels(values, root, workers, cache_root, results_out, notebooks_out, keys, records) -> None:
    """Level by level: fetch each section from the cache or run it; fills ``keys`` and ``records``."""
    for level in run_order([s.name for s in SECTIONS]):
        todo = []
        try:  # on any failure or Ctrl-C, no half-written cache entry survives
            for section in level:
                deps = {n: (results_out / f"{n}.json").read_bytes() for n in section.needs}
                key = keys[section.name] = section_key(section, values[section.name], root, deps)
                cached = cache_root / section.name / key
                if cached.is_dir() and not entry_is_intact(cached, section.name):
                    _log(f"  {section.name:<12} cached result is corrupt or incomplete ({cached}); recomputing")
                    shutil.rmtree(cached, ignore_errors=True)
                if cached.is_dir():
                    os.utime(cached)  # most recently used: kept longest by _prune
                    records.append(RunRecord(section.name, 0.0, cached=True))
                    _log(f"  {section.name:<12} unchanged (cached)")
                    continue
                work = cache_root / section.name / f".tmp-{key}-{os.getpid()}"
                todo.append((section, values[section.name], work, root, work))
                shutil.rmtree(work, ignore_errors=True)
                work.mkdir(parents=True)
                for n in section.needs:
                    shutil.copy2(results_out / f"{n}.json", work / f"{n}.json")
            ran, errors = workers.run(todo)
            if errors:
                raise ExecutionError("build failed; the previous book is untouched.\n  " + "\n  ".join(errors))
        except BaseException:
            for args in todo:
                shutil.rmtree(args[2], ignore_errors=True)
            raise
        records += ran
        for section, _, work, _, _ in todo:
            final = cache_root / section.name / keys[section.name]
            for n in section.needs:
                (work / f"{n}.json").unlink()
            seal_entry(work)
            shutil.rmtree(final, ignore_errors=True)
            work.rename(final)
            _prune(cache_root / section.name)
        for section in level:
            cached = cache_root / section.name / keys[section.name]
            shutil.copy2(cached / f"{section.name}.json", results_out / f"{section.name}.json")
            shutil.copy2(cached / f"{section.name}.ipynb", notebooks_out / f"{section.name}.ipynb")
            for table in cached.glob(f"{section.name}__*.csv"):  # chapter data offered as downloads
                (notebooks_out / "data").mkdir(exist_ok=True)
                shutil.copy2(table, notebooks_out / "data" / table.name)


def _prune(folder: Path) -> None:
    """Keep the CACHE_ENTRIES most recently used results of a section (switching between a few
    scenarios then re-executes nothing)."""
    entries = sorted((p for p in folder.iterdir() if not p.name.startswith(".tmp-")),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[CACHE_ENTRIES:]:
        shutil.rmtree(old, ignore_errors=True)


def _stage_sources(root: Path, src: Path, scenario: str | None = None) -> None:
    for name in BOOK_FILES:
        shutil.copy2(root / name, src / name)
    if scenario:  # every page of a scenario build says which scenario it shows; the theme inserts
        # the announcement as raw HTML, so the user's text is escaped here
        import yaml

        config = yaml.safe_load((src / "_config.yml").read_text(encoding="utf-8"))
        config.setdefault("html", {})["announcement"] = (
            f"Scenario: {html_escape(scenario)}. The numbers on this page are not the report's defaults; "
            "the Assumptions appendix lists what changed.")
        (src / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    shutil.copytree(root / "book", src / "book", ignore=shutil.ignore_patterns("generated"))


def _sphinx(src: Path, out: Path) -> None:
    exe = Path(sys.executable).parent / "jupyter-book"
    cmd = [str(exe), "build", str(src), "--path-output", str(out), "-W", "-n", "--keep-going", "--quiet"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 and "No space left on device" in proc.stdout + proc.stderr:
        raise ExecutionError("jupyter-book build failed: no space left on device; the previous book is untouched")
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-30:])
        raise ExecutionError(f"jupyter-book build failed; the previous book is untouched.\n{tail}")


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
        _LOCK_FD["fd"] = lock.fileno()
        try:
            yield
        finally:
            _LOCK_FD.pop("fd", None)


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
    debris = [*build_dir.glob(".stage-*"), *build_dir.glob(".old-*"), *build_dir.glob("cache/*/.tmp-*")]
    for path in debris:
        shutil.rmtree(path, ignore_errors=True)
    if debris:
        _log(f"Removed {len(debris)} folder(s) left by an interrupted build.")


def _build_locked(values: dict, jobs: int, root: Path, build_dir: Path, scenario: str | None) -> BuildReport:
    global SWAPPED_IN
    started = time.perf_counter()
    stage = build_dir / f".stage-{os.getpid()}"
    src, results = stage / "src", stage / "results"
    generated = src / "book" / "generated"
    try:
        results.mkdir(parents=True)
        src.mkdir()
        _stage_sources(root, src, scenario)
        _write_whatif_grids(src, values)
        stage_front_matter(src, root)  # footer stamp (commit, date) and the landing page
        generated.mkdir(parents=True)
        _log(f"Executing {len(SECTIONS)} sections ({jobs} processes):")
        records, keys = execute_sections(values, root, jobs, build_dir / "cache", results, generated)
        (generated / "assumptions.md").write_text(assumptions_page(values, scenario), encoding="utf-8")
        (generated / "sources.md").write_text(sources_page(), encoding="utf-8")
        (generated / "facts.md").write_text(facts_page(), encoding="utf-8")
        (generated / "data").mkdir(exist_ok=True)
        for name in SCHEMAS:
            if table_path(name).is_file():  # optional tables (a measurement not yet made) may be absent
                shutil.copy2(table_path(name), generated / "data" / f"{name}.csv")
        (generated / "data_tables.md").write_text(data_page(), encoding="utf-8")
        h = hashlib.sha256(json.dumps(keys, sort_keys=True).encode())
        _digest_files(h, [p for p in src.rglob("*") if p.is_file()], src)
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
            _sphinx(src, stage / "out")
            report.sphinx_seconds = time.perf_counter() - t0
            new_html = stage / "out" / "_build" / "html"
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
        shutil.rmtree(stage, ignore_errors=True)


def _write_whatif_grids(src: Path, values: dict[str, dict]) -> None:
    """The what-if panels' grids (analysis.whatif), at this build's parameters, into the staged
    book's static folder (served as _static/whatif/<panel>.js)."""
    from analysis.whatif import GRID_FOLDER, write_grids

    seconds = write_grids(src / "book" / "static" / GRID_FOLDER, {k: v for s in values.values() for k, v in s.items()})
    _log(f"What-if grids: {len(seconds)} panels in {sum(seconds.values()):.1f} s")


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
