"""Build the whole book: validate everything, execute the stale sections
(:mod:`analysis.pipeline.scheduler`), generate the appendices, render with ``jupyter-book build``
(:mod:`analysis.pipeline.render`) and put the new version in place in one step.

Each finished build is one folder, ``_build/versions/<build hash>/`` with ``html/``, ``results/``
and ``executed/`` (the executed notebooks and generated pages). ``_build/current`` is a symlink to
it, and ``_build/html``, ``_build/results`` and ``_build/executed`` are fixed symlinks through
``current``, so a build appears by one ``rename()`` of a new symlink over ``current``: a kill at
any instant leaves the old book or the new one, never a mixture and never none. The previous
version is kept until the next build succeeds. A build whose hash is the current one's renders
nothing; one whose version is still kept (back to the defaults after a scenario) only swaps.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from analysis import cache, constraints
from analysis.appendices import assumptions_page, data_page, facts_page, sources_page, stage_front_matter
from analysis.data import data_dir, load_table, table_closure, table_path
from analysis.errors import InputError
from analysis.pipeline import render
from analysis.pipeline.outputs import fault_point
from analysis.pipeline.scheduler import RunRecord, execute_sections, package_hashes
from analysis.schemas import SCHEMAS
from analysis.sections import SECTIONS, resolve_section

REPO_ROOT = Path(__file__).resolve().parents[2]
PROJECT_FILES = ("analysis", "notebooks", "book", "data", "_config.yml", "_toc.yml", "requirements.txt")
LINKS = ("html", "results", "executed")
SWAPPED_IN = False  # set once the new version is in place: an interrupt after that is reported as such


@dataclass
class BuildReport:
    records: list[RunRecord] = field(default_factory=list)
    sphinx_seconds: float = 0.0
    unchanged: bool = False
    seconds: float = 0.0


def resolve_all(overrides: dict, origin: dict | None = None) -> dict[str, dict]:
    """Validated parameters of every section, after validating every data table the sections
    read. Raises an InputError (exit code 2) before anything is written."""
    for name in table_closure([t for s in SECTIONS for t in s.tables]):
        load_table(name)
    return {s.name: resolve_section(s, overrides, origin) for s in SECTIONS}


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


@contextlib.contextmanager
def _build_lock(build_dir: Path):
    """One build at a time per ``_build/``: a second one waits, and says why."""
    with open(build_dir / ".build.lock", "a+") as lock:  # not inherited by any child process
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            _log(f"Another build (pid {lock.read().strip() or 'unknown'}) is using {build_dir}; waiting for it to finish ...")
            fcntl.flock(lock, fcntl.LOCK_EX)
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        yield


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
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
            raise InputError(f"{build_dir}: not writable ({exc.strerror}); the build writes its output there") from None
        _clear_debris(build_dir)
        return _build_locked(values, jobs, root, build_dir, scenario)


def _clear_debris(build_dir: Path) -> None:
    """Remove what a killed build left (called under the lock: none of it is a running build's),
    and give a ``_build/`` of the layout before versions its links."""
    debris = [*build_dir.glob(".stage-*"), *build_dir.glob(".old-*"), *build_dir.glob(".current-*"),
              *build_dir.glob("versions/.tmp-*"), *build_dir.glob("cache/*/.tmp-*")]
    for path in debris:
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    if debris:
        _log(f"Removed {len(debris)} file(s) or folder(s) left by an interrupted build.")
    if any((build_dir / name).is_dir() and not (build_dir / name).is_symlink() for name in LINKS):
        legacy = build_dir / "versions" / "legacy"  # a book built before versions: becomes one
        legacy.mkdir(parents=True, exist_ok=True)
        for name in LINKS:
            if (build_dir / name).is_dir() and not (build_dir / name).is_symlink():
                (build_dir / name).rename(legacy / name)
        _swap_to(build_dir, legacy.name)
    for name in LINKS:
        if not (build_dir / name).is_symlink():
            (build_dir / name).symlink_to(Path("current") / name)


def _swap_to(build_dir: Path, version: str) -> None:
    """Point ``_build/current`` at ``versions/<version>``: one rename() of a new symlink."""
    new = build_dir / f".current-{os.getpid()}"
    new.unlink(missing_ok=True)
    new.symlink_to(Path("versions") / version)
    fault_point("linked")
    os.replace(new, build_dir / "current")


def _current_version(build_dir: Path) -> str | None:
    link = build_dir / "current"
    return Path(os.readlink(link)).name if link.is_symlink() else None


def _build_locked(values: dict, jobs: int, root: Path, build_dir: Path, scenario: str | None) -> BuildReport:
    started = time.perf_counter()
    stage = build_dir / f".stage-{os.getpid()}"
    src, results = stage / "src", stage / "results"
    generated = src / "book" / "generated"
    try:
        results.mkdir(parents=True)
        src.mkdir()
        for name in ("_config.yml", "_toc.yml"):
            shutil.copy2(root / name, src / name)
        _set_marker(src / "_config.yml")
        shutil.copytree(root / "book", src / "book", ignore=shutil.ignore_patterns("generated"))
        inputs = {**package_hashes(root), "data": cache.file_hashes([p for p in data_dir().rglob("*") if p.is_file()], data_dir())}
        _write_whatif_grids(src, values, inputs, build_dir / "cache")
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
        (generated / "data_tables.md").write_text(_cached_text(build_dir / "cache", "data_tables", inputs, data_page),
                                                  encoding="utf-8")
        staged = cache.file_hashes([p for p in src.rglob("*") if p.is_file()], src)
        version = cache.key_of({"keys": keys, "scenario": scenario, "sources": staged})
        report = BuildReport(records=records)
        if version == _current_version(build_dir):
            report.unchanged = True
            _log("Book unchanged: keeping _build/html.")
        elif (build_dir / "versions" / version).is_dir():  # still kept: the version before the current one
            _log("Book as the previous build left it: swapping it back in.")
            _swap_in(build_dir, version)
        else:
            _log("Rendering with jupyter-book ...")
            new = build_dir / "versions" / f".tmp-{version}"
            new.mkdir(parents=True)
            t0 = time.perf_counter()
            render.render(src, build_dir / ".render", new / "html", scenario)
            report.sphinx_seconds = time.perf_counter() - t0
            fault_point("rendered")
            results.rename(new / "results")
            generated.rename(new / "executed")
            new.rename(new.with_name(version))
            fault_point("version-written")
            _swap_in(build_dir, version)
            _log(f"Rendered in {report.sphinx_seconds:.1f} s: {build_dir / 'html' / 'index.html'}")
        _prune_cache(build_dir / "cache")
        report.seconds = time.perf_counter() - started
        return report
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _swap_in(build_dir: Path, version: str) -> None:
    """Swap ``version`` in (interrupts wait until it is done) and drop versions older than the
    one it replaces."""
    global SWAPPED_IN
    previous = _current_version(build_dir)
    received = []
    handlers = {s: signal.signal(s, lambda *_: received.append(True)) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        _swap_to(build_dir, version)
        SWAPPED_IN = True
    finally:
        for s, handler in handlers.items():
            signal.signal(s, handler)
    fault_point("swapped")
    for old in (build_dir / "versions").iterdir():
        if old.name not in (version, previous):
            shutil.rmtree(old, ignore_errors=True)
    if received:
        _log("Interrupt received while swapping in the finished book; the build completed.")


def _prune_cache(cache_root: Path) -> None:
    """Remove what no current key can reach: entries of tables, sections and pages that no longer
    exist, and anything else (an older cache layout, stray files)."""
    from analysis.whatif import PANELS

    names = {"tables": set(SCHEMAS), "sections": {s.name for s in SECTIONS},
             "pages": {"data_tables", *(f"whatif-{p}" for p in PANELS)}}
    for child in sorted(cache_root.iterdir()):
        if child.name not in names:
            shutil.rmtree(child) if child.is_dir() else child.unlink()
            continue
        for entry in child.iterdir():
            if not entry.is_dir() or entry.name.rsplit("-", 1)[0] not in names[child.name]:
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()


def _set_marker(config_path: Path) -> None:
    """The theme's banner holds a marker that :func:`render.announce` replaces after rendering."""
    import yaml

    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    config.setdefault("html", {})["announcement"] = render.MARKER
    config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


def _cached_text(cache_root: Path, name: str, inputs: dict, make) -> str:
    """``make()``, a generated page or script, cached under ``pages/`` by what it is made from."""
    files = cache.read(cache_root / "pages", name, inputs, f"page {name}")
    if files is not None:
        return files["text"].decode("utf-8")
    text = make()
    cache.write(cache_root / "pages", name, inputs, {"text": text.encode("utf-8")})
    return text


def _write_whatif_grids(src: Path, values: dict[str, dict], inputs: dict, cache_root: Path) -> None:
    """The what-if panels' grids (analysis.whatif), at this build's parameters, into the staged
    book's static folder (served as _static/whatif/<panel>.js), each cached by the parameters it is
    computed from and ``inputs`` (the package and the data)."""
    from analysis.whatif import GRID_FOLDER, PANELS, base_values, grid_script

    flat = {k: v for s in values.values() for k, v in s.items()}
    dest = src / "book" / "static" / GRID_FOLDER
    dest.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for panel in PANELS.values():
        made = {**inputs, "panel": panel.name, "values": base_values(panel, flat)}
        text = _cached_text(cache_root, f"whatif-{panel.name}", made, lambda p=panel: grid_script(p, flat))
        (dest / f"{panel.name}.js").write_text(text, encoding="utf-8")
    _log(f"What-if grids: {len(PANELS)} panels in {time.perf_counter() - started:.1f} s")


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

