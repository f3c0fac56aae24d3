"""Execute one chapter notebook with papermill's public API (``papermill.execute_notebook``):
``notebooks/<section>.py``, read with jupytext, runs in a kernel of its own (:func:`start_kernel`)
and is written to ``<out_dir>/<section>.ipynb``; the chapter writes its results and tables into
``ANALYSIS_RESULTS_DIR``. The build runs sections in worker processes (:func:`worker`), one at a
time each, a worker starting the next section's kernel ahead while it waits.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from analysis.build.outputs import fault_point, follow_parent
from analysis.errors import ExecutionError

# No cell of the book takes more than seconds; a cell still running after this long is hung (a
# deadlock, an endless loop from extreme inputs) and fails with its cell named.
CELL_TIMEOUT_S = int(os.environ.get("ANALYSIS_CELL_TIMEOUT_S", "600"))


class SectionFailed(ExecutionError):
    """A cell raised, the kernel died or a cell timed out while executing a section."""


def prepare(nb) -> None:
    """Readers see the parameter table that ``start()`` prints, not papermill's raw cells; timings,
    paths and random cell ids are dropped, so identical inputs give byte-identical notebooks."""
    nb.metadata.pop("papermill", None)
    for index, cell in enumerate(nb.cells):
        tags = cell.metadata.setdefault("tags", [])
        if {"parameters", "injected-parameters"} & set(tags) and "remove-cell" not in tags:
            tags.append("remove-cell")
        cell["id"] = f"cell-{index}"
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)


def _describe(section: str, source: Path, exc: BaseException) -> str:
    from nbclient.exceptions import CellTimeoutError, DeadKernelError
    from papermill.exceptions import PapermillExecutionError

    if isinstance(exc, PapermillExecutionError):
        first = next((ln for ln in (exc.source or "").splitlines() if ln.strip() and not ln.startswith("#")), "")
        return (f"section '{section}' failed in cell {exc.cell_index} of {source} (starts: {first[:80]!r}): "
                f"{exc.ename}: {exc.evalue}")
    if isinstance(exc, CellTimeoutError):
        cause = f"a cell ran longer than {CELL_TIMEOUT_S} s (ANALYSIS_CELL_TIMEOUT_S)"
    elif isinstance(exc, DeadKernelError):
        cause = "the kernel died while running a cell (out of memory, or killed)"
    else:
        cause = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return f"section '{section}' failed in {source}: {cause}"


def preload(section: str) -> list[str]:
    """Kernel options (IPython's ``exec_lines``) that import the modules the section's notebook
    imports while its kernel starts, so that a kernel started ahead of its job has them loaded when
    it comes."""
    modules = ("analysis.page.notebook", "analysis.page.tables", f"analysis.chapters.{section}", f"analysis.figures.{section}")
    lines = [f"[__import__(name) for name in {modules!r}]"]
    if os.environ.get("ANALYSIS_FAULT_AT") == "kernel-running":  # tests: the kernel is killed as it runs its first cell
        lines.append("get_ipython().events.register('pre_run_cell', lambda *_: __import__("
                     "'analysis.build.outputs', fromlist=['fault_point']).fault_point('kernel-running'))")
    return [f"--IPKernelApp.exec_lines={lines!r}"]


def start_kernel(job: dict):
    """A kernel for the section of ``job`` (:func:`execute_section`'s arguments), with its variables
    and :func:`preload`'s imports (jupyter_client's ``AsyncKernelManager.start_kernel``). Its
    sockets are files in a folder of its own (IPC), not TCP ports: a port that one worker's
    jupyter_client found free could be taken by another worker's kernel before its own bound it,
    and the kernel then died on start ("Address already in use")."""
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync

    km = AsyncKernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(tempfile.mkdtemp(prefix="kernel-"), "ipc"))
    env = {**os.environ, "ANALYSIS_RESULTS_DIR": str(Path(job["results_dir"]).resolve()),
           "ANALYSIS_ALLOWED_TABLES": ",".join(job["tables"])}
    run_sync(km.start_kernel)(env=env, cwd=str(Path(job["root"]).resolve()), extra_arguments=preload(job["section"]))
    return km


def stop_kernel(km) -> None:
    from jupyter_core.utils import run_sync

    with contextlib.suppress(RuntimeError):  # already stopped (a signal's cleanup, a dead kernel)
        run_sync(km.shutdown_kernel)(now=True)
    shutil.rmtree(Path(km.ip).parent, ignore_errors=True)  # its socket folder


def execute_section(section: str, params: dict, out_dir: Path, root: Path, results_dir: Path,
                    tables: list[str], km=None) -> Path:
    """Run ``section``'s notebook with ``params`` (the chapter writes into ``results_dir`` and may
    read ``tables``), in the kernel ``km`` started for it, or else a new one, and stop that kernel.
    Raises :class:`SectionFailed` naming the cell."""
    root, out_dir, results_dir = Path(root).resolve(), Path(out_dir), Path(results_dir).resolve()
    source = root / "notebooks" / f"{section}.py"
    try:
        # the kernel first: it starts (seconds, its imports) while papermill and jupytext are imported
        km = km or start_kernel({"section": section, "results_dir": results_dir, "root": root, "tables": tables})
        import jupytext
        import nbformat
        import papermill

        nb = jupytext.read(source)
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        executed = papermill.execute_notebook(
            nb, None, parameters=params, kernel_name="python3", cwd=str(root), progress_bar=False,
            log_output=False, execution_timeout=CELL_TIMEOUT_S, km=km)
    except Exception as exc:
        raise SectionFailed(_describe(section, source, exc)) from None
    finally:
        if km is not None:  # papermill stops only the kernels it started, and every kernel here is ours
            stop_kernel(km)
    if not (results_dir / f"{section}.json").is_file():
        raise SectionFailed(f"section '{section}' ran but wrote no results JSON; the notebook must end with save(R)")
    prepare(executed)
    nbformat.write(executed, str(out_dir / f"{section}.ipynb"))  # out_dir is a staging folder
    return out_dir / f"{section}.ipynb"


def _stop(signum, _frame):
    raise KeyboardInterrupt(signal.Signals(signum).name)


def worker(parent: int) -> int:
    """The build's worker (:mod:`.scheduler`): a JSON job per line in, a JSON answer per line out; a
    job marked ``prepare`` only starts the kernel of the job that follows. Ends at end of input, on
    SIGTERM (stopping its kernel) or when the build dies."""
    signal.signal(signal.SIGTERM, _stop)
    # Ctrl-C is the build's (it stops the workers); a handler, not SIG_IGN, which kernels inherit
    signal.signal(signal.SIGINT, lambda *_: None)
    if not follow_parent(parent):  # the build died before this process asked to follow it
        return 130
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # anything else written to standard output (by a kernel, say) goes to the log
    kernel = None  # (section, kernel manager), started ahead of its job
    try:
        for line in sys.stdin:
            job, started = json.loads(line), time.perf_counter()
            if kernel and (job.get("prepare") or kernel[0] != job["section"]):
                stop_kernel(kernel[1])
                kernel = None
            if job.pop("prepare", False):
                kernel = (job["section"], start_kernel(job))
                import papermill  # noqa: F401 (while its kernel starts, and before the job comes)
                continue
            km, kernel = kernel and kernel[1], None  # execute_section stops it, whatever happens
            fault_point("worker-running")
            try:
                execute_section(**job, km=km)
                answer = {"ok": True, "seconds": time.perf_counter() - started}
            except SectionFailed as exc:
                answer = {"ok": False, "error": str(exc)}
            answers.write(json.dumps(answer) + "\n")
            answers.flush()
    except KeyboardInterrupt:  # execute_section has stopped the kernel on its way out
        return 130
    finally:
        if kernel:
            stop_kernel(kernel[1])
    return 0


if __name__ == "__main__":
    sys.exit(worker(int(sys.argv[2])))
