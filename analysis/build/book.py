"""Build the whole book: validate everything, execute the stale sections (:mod:`.scheduler`),
generate the appendices, render with ``jupyter-book build`` (:mod:`.render`) and put the new
version in place in one step.

A finished build is one folder, ``_build/versions/<hash>/`` (``html/``, ``results/``,
``executed/``). ``_build/current`` is a symlink to it, and ``_build/html``, ``results`` and
``executed`` are fixed symlinks through ``current``: the new book appears by one ``rename()`` of a
new symlink over ``current``, so a kill at any instant leaves the old book or the new one, never a
mixture or none. The previous version is kept until the next build succeeds; a build whose hash
is the current one's renders nothing, and one whose version is still kept only swaps. Each version
records the sha256 of its every file (``manifest.json``); only the build writes a version, so one
whose files differ from its manifest was changed behind its back, and is rendered again.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from analysis.build import render, site
from analysis.build.outputs import fault_point
from analysis.build.scheduler import RunRecord, execute_sections
from analysis.chapters import check_inputs
from analysis.chapters.registry import SECTIONS, resolve_section
from analysis.data import cache
from analysis.data.load import data_dir, load_table, table_closure, table_path
from analysis.data.schemas import SCHEMAS
from analysis.errors import InputError
from analysis.measure.page import measured_page
from analysis.page import appendices
from analysis.page.whatif import GRID_FOLDER, PANELS

REPO_ROOT = Path(__file__).resolve().parents[2]
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


@contextlib.contextmanager
def _build_lock(build_dir: Path):
    """One build at a time per ``_build/``: a second one waits, and says why."""
    with open(build_dir / ".build.lock", "a+") as lock:  # not inherited by any child process
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            cache.say(f"Another build (pid {lock.read().strip() or 'unknown'}) is using {build_dir}; waiting for it to finish ...")
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
    build_dir = root / "_build"
    # Jupyter Book loads (seconds of one core) while this process checks every input on the other
    renderer = render.Renderer(root / "_config.yml", build_dir / ".render")
    with contextlib.ExitStack() as stack:
        stack.callback(renderer.stop)
        values = resolve_all(overrides or {}, origin)
        check_inputs(values, origin)
        try:
            build_dir.mkdir(exist_ok=True)
            stack.enter_context(_build_lock(build_dir))
            _clear_debris(build_dir)
            (build_dir / f".stage-{os.getpid()}").mkdir()  # and find out whether it can write there at all
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
            raise InputError(f"{build_dir}: not writable ({exc.strerror}); the build writes its output there") from None
        return _build_locked(values, jobs, root, build_dir, scenario, renderer)


def _clear_debris(build_dir: Path) -> None:
    """Remove what a killed build left (under the lock: none of it is a running build's), and
    make a ``_build/`` of the layout before versions (real folders) one version."""
    debris = [*build_dir.glob(".stage-*"), *build_dir.glob(".old-*"), *build_dir.glob(".current-*"),
              *build_dir.glob("versions/.tmp-*"), *build_dir.glob("cache/*/.tmp-*")]
    for path in debris:
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    if debris:
        cache.say(f"Removed {len(debris)} file(s) or folder(s) left by an interrupted build.")
    for name in LINKS:
        if (build_dir / name).is_dir() and not (build_dir / name).is_symlink():
            (build_dir / "versions" / "legacy").mkdir(parents=True, exist_ok=True)
            (build_dir / name).rename(build_dir / "versions" / "legacy" / name)
            _swap_to(build_dir, "legacy")
        if not (build_dir / name).is_symlink():
            (build_dir / name).symlink_to(Path("current") / name)


def _swap_to(build_dir: Path, version: str) -> None:
    """Point ``_build/current`` at ``versions/<version>``: one rename() of a new symlink."""
    new = build_dir / f".current-{os.getpid()}"
    new.unlink(missing_ok=True)
    new.symlink_to(Path("versions") / version)
    fault_point("linked")
    os.replace(new, build_dir / "current")


def table_of_contents(root: Path) -> str:
    """``root``'s ``_toc.yml`` with its Chapters part filled from the chapter registry, in book
    order (the introduction is the root page): what Jupyter Book reads."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    (part,) = [p for p in toc["parts"] if p["caption"] == "Chapters"]
    part["chapters"] = [{"file": f"book/generated/{s.name}"} for s in SECTIONS if s.name != "intro"]
    return yaml.safe_dump(toc, sort_keys=False)


def _current_version(build_dir: Path) -> str | None:
    link = build_dir / "current"
    return Path(os.readlink(link)).name if link.is_symlink() else None


def _build_locked(values: dict, jobs: int, root: Path, build_dir: Path, scenario: str | None,
                  renderer: render.Renderer) -> BuildReport:
    started = time.perf_counter()
    stage, cache_root = build_dir / f".stage-{os.getpid()}", build_dir / "cache"
    src, results, generated = stage / "src", stage / "results", stage / "src" / "book" / "generated"
    try:
        results.mkdir(parents=True)
        src.mkdir()
        _stage_config(root / "_config.yml", src / "_config.yml")
        shutil.copytree(root / "book", src / "book", ignore=shutil.ignore_patterns("generated"))
        (src / "_toc.yml").write_text(table_of_contents(root), encoding="utf-8")
        inputs = {**cache.package_hashes(root), "data": cache.folder_hashes(data_dir())}
        (src / "book" / "static" / GRID_FOLDER).mkdir(parents=True, exist_ok=True)
        for panel, text in appendices.whatif_scripts(values, inputs, cache_root).items():
            (src / "book" / "static" / GRID_FOLDER / f"{panel}.js").write_text(text, encoding="utf-8")
        appendices.stage_front_matter(src, root)  # footer stamp (commit, date) and the landing page
        generated.mkdir(parents=True)
        cache.say(f"Executing {len(SECTIONS)} sections ({jobs} processes):")
        records, keys = execute_sections(values, root, jobs, cache_root, results, generated)
        pages = {"assumptions": appendices.assumptions_page(values, scenario), "sources": appendices.sources_page(),
                 "facts": appendices.facts_page(), "measured": measured_page(values, results),
                 "data_tables": appendices.cached_text(cache_root, "data_tables", inputs, appendices.data_page)}
        for name, text in pages.items():
            (generated / f"{name}.md").write_text(text, encoding="utf-8")
        (generated / "data").mkdir(exist_ok=True)
        for name in SCHEMAS:
            if table_path(name).is_file():  # optional tables (a measurement not yet made) may be absent
                shutil.copy2(table_path(name), generated / "data" / f"{name}.csv")
        staged = cache.folder_hashes(src)
        version = cache.key_of({"keys": keys, "scenario": scenario, "sources": staged})
        current = _current_version(build_dir)
        report = BuildReport(records=records, unchanged=current is not None and current.split(".")[0] == version)
        kept = _kept_version(build_dir, version, current)
        tampered = [name for name in (current if report.unchanged else None, kept) if name and _say_if_changed(build_dir, name)]
        report.unchanged = report.unchanged and current not in tampered
        if report.unchanged:
            cache.say("Book unchanged: keeping _build/html.")
        elif kept and kept not in tampered:  # still kept: the version before the current one
            cache.say("Book as the previous build left it: swapping it back in.")
            _swap_in(build_dir, kept)
        else:
            cache.say("Rendering with jupyter-book ...")
            name = _fresh_name(build_dir / "versions", version)
            new = build_dir / "versions" / f".tmp-{name}"
            t0 = time.perf_counter()
            renderer.render(src, new / "html", scenario)
            report.sphinx_seconds = time.perf_counter() - t0
            fault_point("rendered")
            results.rename(new / "results")
            generated.rename(new / "executed")
            _write_manifest(new)
            new.rename(new.with_name(name))
            fault_point("version-written")
            _swap_in(build_dir, name)
            for old in tampered:  # a version changed behind the build's back is never swapped in again
                shutil.rmtree(build_dir / "versions" / old, ignore_errors=True)
            cache.say(f"Rendered in {report.sphinx_seconds:.1f} s: {build_dir / 'html' / 'index.html'}")
        cache.prune(cache_root, {"tables": set(SCHEMAS), "sections": {s.name for s in SECTIONS},
                                 "pages": {"data_tables", *(f"whatif-{p}" for p in PANELS)}})
        report.seconds = time.perf_counter() - started
        return report
    finally:
        shutil.rmtree(stage, ignore_errors=True)


# Each version records the sha256 of every file it holds, written before it is put in place: a
# version whose files differ (a notebook run that wrote into it, a hand edit) is rendered again.
MANIFEST = "manifest.json"


def _version_files(folder: Path) -> dict[str, str]:
    return {k: v for k, v in cache.folder_hashes(folder).items() if k != MANIFEST}


def _write_manifest(folder: Path) -> None:
    (folder / MANIFEST).write_text(json.dumps(_version_files(folder), indent=1, sort_keys=True) + "\n", encoding="utf-8")


def changed_files(folder: Path) -> list[str]:
    """The files of a finished version that differ from its manifest (changed, added or removed);
    ``[MANIFEST]`` where it has none (a version from before manifests, or a damaged one)."""
    try:
        recorded = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [MANIFEST]
    now = _version_files(folder)
    return sorted(k for k in recorded.keys() | now.keys() if recorded.get(k) != now.get(k))


def _say_if_changed(build_dir: Path, name: str) -> bool:
    changed = changed_files(build_dir / "versions" / name)
    if changed:
        shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
        cache.say(f"The built book in _build/versions/{name} was changed outside the build ({shown}); "
                  "rendering it again.")
    return bool(changed)


def _kept_version(build_dir: Path, version: str, current: str | None) -> str | None:
    """The kept version (not the current one) made from the same inputs, if any. A version's folder
    is named by its hash, with ``.N`` added when it replaced a changed one of that hash."""
    kept = [p.name for p in (build_dir / "versions").glob(f"{version}*")
            if p.name.split(".")[0] == version and p.name != current and p.is_dir()]
    return sorted(kept)[0] if kept else None


def _fresh_name(versions: Path, version: str) -> str:
    """``version``, or ``version.N`` where a folder of that name exists (a changed version, still current)."""
    n, name = 1, version
    while (versions / name).exists():
        n, name = n + 1, f"{version}.{n + 1}"
    return name


def _swap_in(build_dir: Path, version: str) -> None:
    """Swap ``version`` in (interrupts wait until it is done), then drop the versions older than
    the one it replaced."""
    global SWAPPED_IN
    previous, received = _current_version(build_dir), []
    stops = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    handlers = {s: signal.signal(s, lambda *_: received.append(True)) for s in stops}
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
        cache.say("Interrupt received while swapping in the finished book; the build completed.")


def _stage_config(source: Path, dest: Path) -> None:
    """The theme's banner holds a marker that :func:`analysis.build.site.announce` replaces after rendering."""

    config = yaml.safe_load(source.read_text(encoding="utf-8"))
    config.setdefault("html", {})["announcement"] = site.MARKER
    dest.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
