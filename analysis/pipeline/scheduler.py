"""Execute the book's sections, or take them from the cache, each as soon as the sections it
needs are done.

A section's cache entry (:mod:`analysis.cache`, ``<cache>/sections/<section>-<key>/``) holds its
executed notebook, results JSON and tables. It is made from, and its manifest records: the
notebook, the validated parameters, the data files it reads (with the tables their validation
reads) and its other declared files, the ``analysis`` package, the lock file and the results of
the sections it needs. The eight most recently used entries of each section are kept.

Sections execute in ``jobs`` worker processes (``python -m analysis.pipeline.execute --worker``),
each of which imports papermill once and then runs one section at a time, each in a new kernel,
on a line of JSON read from its standard input; it answers with one line. A section starts when
the sections it needs are done, not when a whole level is (the claims chapter needs every other
one; the rest need one or two), so the workers stay busy. On a failure, Ctrl-C or SIGTERM the
workers are stopped (each stops its kernel) and no half-written entry is left.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from analysis import cache
from analysis.data import table_closure, table_file
from analysis.errors import ExecutionError
from analysis.pipeline.outputs import fault_point
from analysis.sections import SECTIONS, Section, run_order

ENTRIES_PER_SECTION = 8


@dataclass
class RunRecord:
    section: str
    seconds: float
    cached: bool


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def package_hashes(root: Path) -> dict[str, str]:
    """The ``analysis`` package's code and the lock file, hashed once per build."""
    code = [p for p in (root / "analysis").rglob("*.py") if "__pycache__" not in p.parts]
    return {"package": cache.sha256(json.dumps(cache.file_hashes(code, root)).encode()),
            "lock": cache.file_hashes([root / "requirements.txt"], root)["requirements.txt"]}


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
        self.jobs, self.root, self.procs, self.idle, self.busy, self.logs = jobs, root, [], [], {}, {}
        self.selector = selectors.DefaultSelector()

    def _start(self) -> subprocess.Popen:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(self.root), os.environ.get("PYTHONPATH")]))}
        log = tempfile.TemporaryFile()  # the kernels' messages: shown only if the worker dies
        proc = subprocess.Popen([sys.executable, "-m", "analysis.pipeline.execute", "--worker", str(os.getpid())],
                                cwd=self.root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=log, text=True, start_new_session=True)
        self.logs[proc] = log
        self.procs.append(proc)
        self.selector.register(proc.stdout, selectors.EVENT_READ, proc)
        return proc

    def free(self) -> bool:
        return bool(self.idle) or len(self.procs) < self.jobs

    def submit(self, job: dict, tag) -> None:
        proc = self.idle.pop() if self.idle else self._start()
        proc.stdin.write(json.dumps(job) + "\n")
        proc.stdin.flush()
        self.busy[proc] = tag

    def wait(self) -> tuple[object, dict]:
        """The next answer: (tag, {"ok", "seconds" | "error"})."""
        while True:
            for key, _ in self.selector.select():
                proc = key.data
                line = proc.stdout.readline()
                tag = self.busy.pop(proc)
                if not line:  # the worker died
                    self.selector.unregister(proc.stdout)
                    self.logs[proc].seek(0)
                    tail = self.logs[proc].read().decode(errors="replace").strip().splitlines()[-5:]
                    return tag, {"ok": False, "error": f"section '{tag[0].name}': its worker process ended "
                                 f"(exit status {proc.wait()}): {' | '.join(tail)}"}
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


def execute_sections(values: dict[str, dict], root: Path, jobs: int, cache_root: Path, results_out: Path,
                     notebooks_out: Path, only: list[str] | None = None) -> tuple[list[RunRecord], dict[str, str]]:
    """Run, or take from the cache, every section (or those ``only`` names and what they need);
    copy results to ``results_out``, notebooks to ``notebooks_out`` and each chapter's tables to
    ``notebooks_out/data``. Returns the records and each section's cache key."""
    root = Path(root).resolve()
    folder = Path(cache_root) / "sections"
    folder.mkdir(parents=True, exist_ok=True)
    pending = [s for level in run_order(only or [s.name for s in SECTIONS]) for s in level]
    package, keys, records, done, errors = package_hashes(root), {}, [], set(), []
    workers, work_dirs, completed = Workers(jobs, root), [], False
    ready: list[tuple[Section, dict, dict]] = []  # not in the cache: waiting for a worker
    try:
        while pending or ready or workers.busy:
            for section in [s for s in pending if set(s.needs) <= done] if not errors else []:
                pending.remove(section)
                needs = {n: (results_out / f"{n}.json").read_bytes() for n in section.needs}
                inputs = section_inputs(section, values[section.name], root, needs, package)
                keys[section.name] = cache.key_of(inputs)
                files = cache.read(folder, section.name, inputs, f"  {section.name}")
                if files is None:
                    ready.append((section, inputs, needs))
                    continue
                _publish(files, section.name, results_out, notebooks_out)
                records.append(RunRecord(section.name, 0.0, cached=True))
                done.add(section.name)
                _log(f"  {section.name:<12} unchanged (cached)")
            while ready and workers.free() and not errors:
                section, inputs, needs = ready.pop(0)
                work = folder / f".tmp-run-{section.name}-{os.getpid()}"
                shutil.rmtree(work, ignore_errors=True)
                work.mkdir()
                work_dirs.append(work)
                for n, data in needs.items():
                    (work / f"{n}.json").write_bytes(data)
                job = {"section": section.name, "params": values[section.name], "out_dir": str(work),
                       "root": str(root), "results_dir": str(work), "tables": table_closure(section.tables)}
                workers.submit(job, (section, inputs, work))
                fault_point("section-running")
            if not workers.busy:
                if errors or not pending:
                    break
                if not any(set(s.needs) <= done for s in pending):
                    raise ExecutionError(f"sections {', '.join(s.name for s in pending)} wait on each other")
                continue  # sections taken from the cache made others ready
            (section, inputs, work), answer = workers.wait()
            if not answer["ok"]:
                errors.append(answer["error"])
                _log(f"  {section.name:<12} FAILED")
                continue
            for n in section.needs:
                (work / f"{n}.json").unlink()
            files = {p.name: p.read_bytes() for p in sorted(work.iterdir()) if p.is_file()}
            cache.write(folder, section.name, inputs, files, keep=ENTRIES_PER_SECTION)
            _publish(files, section.name, results_out, notebooks_out)
            records.append(RunRecord(section.name, answer["seconds"], cached=False))
            done.add(section.name)
            _log(f"  {section.name:<12} ran in {answer['seconds']:5.1f} s")
        if errors:
            raise ExecutionError("build failed; the previous book is untouched.\n  " + "\n  ".join(errors))
        completed = True
    finally:
        workers.stop(abort=not completed)
        for work in work_dirs:  # on any failure or Ctrl-C, no half-written entry survives
            shutil.rmtree(work, ignore_errors=True)
    return records, keys


def _publish(files: dict[str, bytes], section: str, results_out: Path, notebooks_out: Path) -> None:
    for name, data in files.items():
        if name == f"{section}.json":
            (results_out / name).write_bytes(data)
        elif name == f"{section}.ipynb":
            (notebooks_out / name).write_bytes(data)
        elif name.startswith(f"{section}__") and name.endswith(".csv"):  # chapter data offered as downloads
            (notebooks_out / "data").mkdir(exist_ok=True)
            (notebooks_out / "data" / name).write_bytes(data)

