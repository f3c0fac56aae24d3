"""Execute sections, or fetch them from the cache, as soon as the sections they need are done.

A section is re-executed only when its content key changes. The key hashes the notebook, its
validated parameters, the data files it reads (with the tables their validation reads), the
``analysis`` package, ``requirements.txt`` and the results of the sections it needs. A cache
entry (``<cache>/<section>/<key>/``) holds the executed notebook, the results JSON and the
chapter's downloadable tables, with a checksum of each; a corrupt entry is recomputed.

Scheduling: a section starts when the sections it needs are done, not when a whole level is
(the claims chapter needs every other one; the rest need one or two), so two processes stay busy.
Kernels are forked from a process that has imported what every chapter imports
(:mod:`analysis.pipeline.kernels`); ``jobs=0`` runs sections in this process, one at a time
(``python -m analysis run``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import os
import shutil
import signal
import sys
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from analysis.data import table_closure, table_file
from analysis.errors import ExecutionError
from analysis.pipeline import kernels, outputs
from analysis.pipeline.runner import RunRecord, SectionFailed, timed_execute
from analysis.sections import SECTIONS, Section, run_order

CACHE_ENTRIES = 8
CHECKSUMS = ".sha256"  # in each cache entry: the sha256 of every other file in it
LOCK_FD: dict[str, int] = {}  # the build lock's descriptor, which pool workers close at start


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def digest_files(h, paths, root: Path) -> None:
    for path in sorted(paths):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())


def package_files(root: Path) -> list[Path]:
    return [p for p in (root / "analysis").rglob("*.py") if "__pycache__" not in p.parts]


def package_digest(root: Path) -> bytes:
    """Hash of the ``analysis`` package's code (read once per build, not once per section)."""
    h = hashlib.sha256()
    digest_files(h, package_files(root), root)
    return h.digest()


def section_key(section: Section, params: dict, root: Path, dep_results: dict[str, bytes],
                package: bytes | None = None) -> str:
    """Content hash of everything a section's output depends on (``package``: :func:`package_digest`)."""
    h = hashlib.sha256(package if package is not None else package_digest(root))
    h.update(json.dumps(params, sort_keys=True).encode())
    data = [root / "data" / table_file(t) for t in table_closure(section.tables)]
    for absent in (p for p in data if not p.is_file()):  # an optional table (data/measured/) may be absent
        h.update(b"absent:" + str(absent.relative_to(root)).encode())
    extra = [p for pattern in section.files for p in sorted(root.glob(pattern))]
    digest_files(h, [root / section.notebook, root / "requirements.txt", *(p for p in data if p.is_file()),
                     *extra], root)
    for name in sorted(dep_results):
        h.update(name.encode() + dep_results[name])
    return h.hexdigest()[:20]


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


class _Workers:
    """One process pool for the whole build, started when the first section must run; with
    ``jobs=0``, sections run in this process instead."""

    def __init__(self, jobs: int):
        self.jobs, self.pool = jobs, None

    def submit(self, args) -> Future:
        if not kernels.warm_kernel_ready(args[3]):
            kernels.preload()  # before the pool forks, so every worker (and kernel) inherits it
        if self.jobs == 0:
            future = Future()
            try:
                future.set_result(timed_execute(args))
            except SectionFailed as exc:
                future.set_exception(exc)
            return future
        # Workers start inside submit(). Signals wait until all are launched, so none is left
        # half-started and unregistered (and so not killed); a pending one then acts at once.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, outputs.STOP_SIGNALS)
        try:
            if self.pool is None:
                # Forked (fast, and no half-started child reading its setup from a dead parent).
                # die_with_parent closes the build lock's inherited descriptor, so only this
                # process holds the lock, and makes every worker die with this process.
                self.pool = ProcessPoolExecutor(
                    max_workers=self.jobs, mp_context=multiprocessing.get_context("fork"),
                    initializer=outputs.die_with_parent, initargs=(os.getpid(), LOCK_FD.get("fd")))
            return self.pool.submit(timed_execute, args)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def close(self, abort: bool) -> None:
        """Shut the pool down; ``abort`` (Ctrl-C, SIGTERM, SIGHUP, a failure) kills running sections."""
        if self.pool is None:
            return
        if abort:
            for process in list((self.pool._processes or {}).values()):  # no public API kills workers
                with contextlib.suppress(OSError):
                    process.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)


def execute_sections(values: dict[str, dict], root: Path, jobs: int, cache_root: Path,
                     results_out: Path, notebooks_out: Path, only: list[str] | None = None,
                     always_run: tuple[str, ...] = (), cache_writable: bool = True,
                     tables_out: Path | None = None, on_first_run=None) -> tuple[list[RunRecord], dict[str, str]]:
    """Run or fetch from the cache every section (or the sections ``only`` names and those they
    need); copy results to ``results_out``, notebooks to ``notebooks_out`` and each chapter's
    downloadable tables to ``tables_out`` (default ``notebooks_out/data``). Sections in
    ``always_run`` are executed even when cached; with ``cache_writable`` false nothing is
    written to the cache. ``on_first_run()`` is called once, before the first section executes."""
    outs = (results_out, notebooks_out, tables_out or notebooks_out / "data")
    order = [s for level in run_order(only or [s.name for s in SECTIONS]) for s in level]
    keys, records, done, running, errors = {}, [], set(), {}, []
    made: set[Path] = set()  # work folders not yet finished: removed if anything goes wrong
    package = package_digest(root)
    workers, completed = _Workers(jobs), False
    try:
        pending = list(order)
        while pending or running:
            ready = [] if errors else [s for s in pending if set(s.needs) <= done]
            for section in ready:
                pending.remove(section)
                deps = {n: (results_out / f"{n}.json").read_bytes() for n in section.needs}
                key = keys[section.name] = section_key(section, values[section.name], root, deps, package)
                entry = cache_root / section.name / key
                if section.name not in always_run and _fetch(entry, section.name, outs, cache_writable):
                    records.append(RunRecord(section.name, 0.0, cached=True))
                    done.add(section.name)
                    _log(f"  {section.name:<12} unchanged (cached)")
                    continue
                if on_first_run is not None:
                    on_first_run()
                    on_first_run = None
                work = (cache_root / section.name if cache_writable else results_out / ".work") / f".tmp-{key}-{os.getpid()}"
                shutil.rmtree(work, ignore_errors=True)
                made.add(work)
                work.mkdir(parents=True)
                for n in section.needs:
                    shutil.copy2(results_out / f"{n}.json", work / f"{n}.json")
                running[workers.submit((section, values[section.name], work, root, work))] = (section, work)
            if not running:
                if ready:
                    continue  # sections fetched from the cache may have made others ready
                if pending and not errors:
                    raise ExecutionError(f"sections {', '.join(s.name for s in pending)} wait on each other")
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                section, work = running.pop(future)
                try:
                    record = future.result()
                except SectionFailed as exc:
                    errors.append(str(exc))
                    shutil.rmtree(work, ignore_errors=True)
                    _log(f"  {section.name:<12} FAILED")
                    continue
                records.append(record)
                _log(f"  {section.name:<12} ran in {record.seconds:5.1f} s")
                for n in section.needs:
                    (work / f"{n}.json").unlink()
                _publish(work, section.name, *outs)
                if cache_writable:
                    seal_entry(work)
                    final = cache_root / section.name / keys[section.name]
                    shutil.rmtree(final, ignore_errors=True)
                    work.rename(final)
                    made.discard(work)
                    _prune(cache_root / section.name)
                done.add(section.name)
        if errors:
            raise ExecutionError("build failed; the previous book is untouched.\n  " + "\n  ".join(errors))
        completed = True
    finally:
        workers.close(abort=not completed)
        for work in made:  # on any failure or Ctrl-C, no half-written cache entry survives
            shutil.rmtree(work, ignore_errors=True)
        if not cache_writable:
            shutil.rmtree(results_out / ".work", ignore_errors=True)
    return records, keys


def _fetch(entry: Path, section: str, outs: tuple[Path, Path, Path], writable: bool) -> bool:
    """Copy a cached section's outputs out, if its entry is there and intact; a corrupt entry is
    removed (when the cache is writable) and the section recomputed."""
    if not entry.is_dir():
        return False
    if not entry_is_intact(entry, section):
        _log(f"  {section:<12} cached result is corrupt or incomplete ({entry}); recomputing")
        if writable:
            shutil.rmtree(entry, ignore_errors=True)
        return False
    try:
        _publish(entry, section, *outs)
    except OSError:  # pruned by a build running beside this ``run``: compute it instead
        return False
    if writable:
        os.utime(entry)  # most recently used: kept longest by _prune
    return True


def _publish(folder: Path, section: str, results_out: Path, notebooks_out: Path, tables_out: Path) -> None:
    shutil.copy2(folder / f"{section}.json", results_out / f"{section}.json")
    shutil.copy2(folder / f"{section}.ipynb", notebooks_out / f"{section}.ipynb")
    for table in sorted(folder.glob(f"{section}__*.csv")):  # chapter data offered as downloads
        tables_out.mkdir(exist_ok=True)
        shutil.copy2(table, tables_out / table.name)


def _prune(folder: Path) -> None:
    """Keep the CACHE_ENTRIES most recently used results of a section (switching between a few
    scenarios then re-executes nothing)."""
    entries = sorted((p for p in folder.iterdir() if not p.name.startswith(".tmp-")),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[CACHE_ENTRIES:]:
        shutil.rmtree(old, ignore_errors=True)
