"""Execute the book's sections, or take them from the cache, each as soon as those it needs are
done (not a whole level: the claims chapter needs every other one, the rest one or two).

A section's cache entry (``<cache>/sections/<section>-<key>/``, :mod:`analysis.data.cache`: its eight
most recently used are kept) holds its executed notebook, results JSON and tables; its manifest
records what they were made from: the notebook, the parameters, the data files it reads, its other
declared files, the ``analysis`` package, the lock file and the results of the sections it needs.

``jobs`` worker processes (:func:`analysis.build.execute.worker`) import papermill once and run
one section at a time, each in a new kernel: a line of JSON in on standard input, one out. On a
failure, Ctrl-C or SIGTERM they are stopped (each stops its kernel), and no half entry is left.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from analysis.build.outputs import fault_point
from analysis.chapters.registry import SECTIONS, Section, in_order
from analysis.data import cache
from analysis.data.load import table_closure, table_file
from analysis.errors import ExecutionError

ENTRIES_PER_SECTION = 8


class Progress:
    """``[i/N] chapter ... s`` as each section finishes. On a terminal the line is rewritten in place
    (carriage return, erase line); in CI (``$CI``), with ``TERM=dumb`` or into a file or pipe it
    stays one plain line each, so a log keeps every one."""

    def __init__(self, total: int, stream=None):
        self.total, self.count, self.stream, self.pending = total, 0, stream or sys.stderr, False
        self.in_place = self.stream.isatty() and not os.environ.get("CI") and os.environ.get("TERM", "") != "dumb"

    def finished(self, name: str, seconds: float | None) -> None:
        self.count += 1
        counter = f"[{self.count:>{len(str(self.total))}}/{self.total}]"  # [ 7/18]: the names stay in one column
        self.line(f"{counter} {name:<12} " + ("from the cache" if seconds is None else f"ran in {seconds:5.1f} s"))

    def line(self, text: str, keep: bool = False) -> None:
        """Show ``text``; ``keep``: a line that must stay (a failure, a cache problem), never overwritten."""
        if self.in_place and not keep:
            self.stream.write("\r\x1b[K" + text)
            self.pending = True
        else:
            self.end()
            self.stream.write(text + "\n")
        self.stream.flush()

    def end(self) -> None:
        if self.pending:
            self.stream.write("\n")
            self.stream.flush()
            self.pending = False


@dataclass
class RunRecord:
    section: str
    seconds: float
    cached: bool


def chain_lengths() -> dict[str, int]:
    """For each section, the number of sections on the longest chain from it to the last one
    (itself included, each needing the one before): the build starts the longest chains first, so
    that the chain from the uncertainty chapter to the introduction waits on no other chapter."""
    after = {s.name: [t.name for t in SECTIONS if s.name in t.needs] for s in SECTIONS}
    lengths: dict[str, int] = {}
    for s in reversed(in_order([s.name for s in SECTIONS])):  # each after every section that needs it
        lengths[s.name] = 1 + max((lengths[t] for t in after[s.name]), default=0)
    return lengths


def section_inputs(section: Section, params: dict, root: Path, needs: dict[str, bytes], package: dict) -> dict:
    """Everything a section's outputs are made from (the manifest of its cache entry)."""
    data = Path(os.environ.get("ANALYSIS_DATA_DIR", root / "data"))
    return {"section": section.name, "parameters": params, **package,
            "notebook": cache.file_hashes([root / section.notebook], root),
            "data": cache.file_hashes([data / table_file(t) for t in table_closure(section.tables)], data),
            "files": cache.file_hashes([p for g in section.files for p in root.glob(g)], root),
            "needs": {n: cache.sha256(needs[n]) for n in sorted(needs)}}


class Workers:
    """``jobs`` worker processes, started on first use; :meth:`stop` ends them and their kernels."""

    def __init__(self, jobs: int, root: Path):
        self.jobs, self.root, self.procs, self.idle, self.busy, self.logs, self.prepared = jobs, root, [], [], {}, {}, {}
        self.selector = selectors.DefaultSelector()

    def _start(self) -> subprocess.Popen:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(self.root), os.environ.get("PYTHONPATH")]))}
        log = tempfile.TemporaryFile()  # the kernels' messages: shown only if the worker dies
        proc = subprocess.Popen([sys.executable, "-m", "analysis.build.execute", "--worker", str(os.getpid())],
                                cwd=self.root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=log, text=True, start_new_session=True)
        self.logs[proc] = log
        self.procs.append(proc)
        self.selector.register(proc.stdout, selectors.EVENT_READ, proc)
        return proc

    def free(self) -> bool:
        return bool(self.idle) or len(self.procs) < self.jobs

    def submit(self, job: dict, tag=None) -> None:
        """Run ``job`` on an idle worker: the one that started its kernel, else one with none
        waiting, else a new one, else any. With no ``tag``, only have a worker with nothing to
        do start the kernel the job will run in (``prepare``), if none has yet."""
        mine = [p for p in self.idle if self.prepared.get(p) == job["section"]]
        empty = [p for p in self.idle if p not in self.prepared] + ([None] if len(self.procs) < self.jobs else [])
        choice = (empty if tag is None else mine or empty or self.idle)[:1] if not (tag is None and mine) else []
        if not choice:
            return
        proc = self._start() if choice[0] is None else self.idle.pop(self.idle.index(choice[0]))
        proc.stdin.write(json.dumps({**job, "prepare": tag is None}) + "\n")
        proc.stdin.flush()
        if tag is None:
            self.prepared[proc] = job["section"]
            self.idle.append(proc)
        else:
            self.prepared.pop(proc, None)
            self.busy[proc] = tag

    def wait(self) -> tuple[object, dict]:
        """The next answer: (tag, {"ok", "seconds" | "error"})."""
        proc = self.selector.select()[0][0].data  # blocks until a worker answers or ends
        line, tag = proc.stdout.readline(), self.busy.pop(proc)
        if not line:  # the worker died
            self.selector.unregister(proc.stdout)
            self.logs[proc].seek(0)
            tail = " | ".join(self.logs[proc].read().decode(errors="replace").strip().splitlines()[-5:])
            code = proc.wait()
            how = f"killed by {_signal_name(-code)}" if code < 0 else f"exit code {code}"
            return tag, {"ok": False, "error": f"section '{tag[0].name}': its worker ended ({how})" + (f": {tail}" if tail else "")}
        self.idle.append(proc)
        return tag, json.loads(line)

    def stop(self, abort: bool) -> None:
        for proc in self.procs:
            if abort and proc.poll() is None:
                proc.terminate()  # SIGTERM: papermill shuts the kernel down, the worker exits
            proc.stdin.close()
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            self.logs[proc].close()
        self.selector.close()


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def execute_sections(values: dict[str, dict], root: Path, jobs: int, cache_root: Path, results_out: Path,
                     notebooks_out: Path, work_root: Path | None = None) -> tuple[list[RunRecord], dict[str, str]]:
    """Run, or take from the cache, every section; copy results to ``results_out``, notebooks to
    ``notebooks_out`` and each chapter's tables to ``notebooks_out/data``. A section runs in a
    folder of its own under ``work_root`` (the folder above ``results_out`` unless given), not in
    the cache, which the build can do without. Returns the records and each section's cache key."""
    root, folder = Path(root).resolve(), Path(cache_root) / "sections"
    work_root = Path(work_root or Path(results_out).parent)
    lengths = chain_lengths()
    pending = sorted(SECTIONS, key=lambda s: -lengths[s.name])  # stable: the book's order among equals
    package, keys, records, done, errors, ready = cache.package_hashes(root), {}, [], set(), [], []
    workers, completed, progress = Workers(jobs, root), False, Progress(len(SECTIONS))

    def job(section: Section, work: Path) -> dict:  # execute_section's arguments
        return {"section": section.name, "params": values[section.name], "out_dir": str(work), "root": str(root),
                "results_dir": str(work), "tables": table_closure(section.tables)}

    def finish(section: Section, files: dict[str, bytes], seconds: float | None) -> None:
        _publish(files, section.name, results_out, notebooks_out)
        records.append(RunRecord(section.name, seconds or 0.0, cached=seconds is None))
        done.add(section.name)
        progress.finished(section.name, seconds)

    try:
        while (pending or ready or workers.busy) and not (errors and not workers.busy):
            # every section whose needs are done, again as long as the cache completes some: a kernel
            # is then started ahead for a section that must run, not for one the cache would answer
            while unlocked := [s for s in pending if set(s.needs) <= done and not errors]:
                for section in unlocked:
                    pending.remove(section)
                    needs = {n: (results_out / f"{n}.json").read_bytes() for n in section.needs}
                    inputs = section_inputs(section, values[section.name], root, needs, package)
                    keys[section.name] = cache.key_of(inputs)
                    files = cache.read(folder, section.name, inputs, f"  {section.name}",
                                       report=lambda message: progress.line(message, keep=True))
                    if files is None:
                        ready.append((section, inputs, needs))
                    else:
                        finish(section, files, None)
            ready.sort(key=lambda item: -lengths[item[0].name])  # stable: first ready first among equals
            while ready and workers.free() and not errors:
                section, inputs, needs = ready.pop(0)
                work = work_root / f".run-{section.name}-{os.getpid()}"  # removed with any failure
                work.mkdir(exist_ok=True)
                for n, data in needs.items():
                    (work / f"{n}.json").write_bytes(data)
                workers.submit(job(section, work), (section, inputs, work))
                fault_point("section-running")
            running = {tag[0].name for tag in workers.busy.values()}
            for section in [s for s in pending if set(s.needs) <= done | running][:1] if not errors else []:
                work = work_root / f".run-{section.name}-{os.getpid()}"  # its kernel, started now
                work.mkdir(exist_ok=True)
                workers.submit(job(section, work))
            if not workers.busy:
                if pending and not any(set(s.needs) <= done for s in pending):
                    raise ExecutionError(f"sections {', '.join(s.name for s in pending)} wait on each other")
                continue  # sections taken from the cache made others ready
            (section, inputs, work), answer = workers.wait()
            if not answer["ok"]:
                errors.append(answer["error"])
                progress.line(f"  {section.name:<12} FAILED", keep=True)
                continue
            read = {f"{n}.json" for n in section.needs}  # the inputs beside the outputs
            files = {p.name: p.read_bytes() for p in sorted(work.iterdir()) if p.name not in read}
            cache.write(folder, section.name, inputs, files, keep=ENTRIES_PER_SECTION)
            finish(section, files, answer["seconds"])
        if errors:
            raise ExecutionError("build failed; the previous book is untouched.\n  " + "\n  ".join(errors))
        completed = True
    finally:
        progress.end()
        workers.stop(abort=not completed)
        for work in work_root.glob(f".run-*-{os.getpid()}"):  # no half-written entry survives
            shutil.rmtree(work, ignore_errors=True)
    return records, keys


def _publish(files: dict[str, bytes], section: str, results_out: Path, notebooks_out: Path) -> None:
    (notebooks_out / "data").mkdir(exist_ok=True)
    for name, data in files.items():  # the chapter's tables are offered as downloads, in data/
        folder = {f"{section}.json": results_out, f"{section}.ipynb": notebooks_out}.get(name, notebooks_out / "data")
        (folder / name).write_bytes(data)
