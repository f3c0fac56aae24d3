"""Execute one section: read ``notebooks/<section>.py`` with jupytext, run it with papermill's
Python API and the validated parameters, and write the executed ``.ipynb`` and results JSON.

The kernel runs with the repository as working directory and ``PYTHONPATH``, with
``ANALYSIS_RESULTS_DIR`` pointing at the folder that receives ``<section>.json`` and
``ANALYSIS_ALLOWED_TABLES`` listing the data tables the section declared.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import jupytext
import nbformat

from analysis.data import table_closure
from analysis.errors import ExecutionError
from analysis.pipeline import kernels
from analysis.pipeline.kernels import NOISE
from analysis.sections import Section

HIDDEN_TAGS = ("parameters", "injected-parameters")
# No cell of the book takes more than seconds; a cell still running after this long is hung (a
# deadlock, an endless loop from extreme inputs) and fails with its cell named.
CELL_TIMEOUT_S = int(os.environ.get("ANALYSIS_CELL_TIMEOUT_S", "600"))


class _DropUnknownParameterWarnings(logging.Filter):
    """Parameter cells hold no assignments (each parameter is defined once, in analysis/defaults.py,
    and the runner injects every one), so papermill's "Passed unknown parameter" is expected."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Passed unknown parameter")


logging.getLogger("papermill").addFilter(_DropUnknownParameterWarnings())


class SectionFailed(ExecutionError):
    """A cell raised while executing a section."""


@dataclass
class RunRecord:
    section: str
    seconds: float
    cached: bool


def _hide_parameter_cells(nb) -> None:
    """Readers see the parameter table that ``start()`` prints, not papermill's raw cells."""
    for cell in nb.cells:
        tags = cell.metadata.setdefault("tags", [])
        if any(t in tags for t in HIDDEN_TAGS) and "remove-cell" not in tags:
            tags.append("remove-cell")


def _strip_volatile_metadata(nb) -> None:
    """Drop timings and paths papermill records and number the cells (nbformat would give them
    random ids), so identical inputs give byte-identical notebooks."""
    nb.metadata.pop("papermill", None)
    for index, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{index}"
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)


def _describe_failure(section: str, nb_path: Path, exc) -> str:
    cell_index, source = getattr(exc, "cell_index", None), getattr(exc, "source", "") or ""
    first = next((ln for ln in source.splitlines() if ln.strip() and not ln.startswith("#")), "")
    where = f"cell {cell_index}" if cell_index is not None else "a cell"
    ename, evalue = getattr(exc, "ename", type(exc).__name__), getattr(exc, "evalue", str(exc))
    return (f"section '{section}' failed in {where} of {nb_path} (starts: {first[:80]!r}): "
            f"{ename}: {evalue}")


def _describe_crash(section: str, nb_path: Path, exc) -> str:
    """A failure that is not a cell's exception, in one line."""
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    if isinstance(exc, CellTimeoutError):
        preview = str(exc).split("preview of the cell contents:")[-1].strip().splitlines()
        first = next((ln.strip() for ln in preview if ln.strip() and not ln.strip().startswith("#")), "")
        cause = f"a cell ran longer than {CELL_TIMEOUT_S} s (ANALYSIS_CELL_TIMEOUT_S) (starts: {first[:80]!r})"
    elif isinstance(exc, DeadKernelError):
        cause = "the kernel died while running a cell (out of memory, or killed)"
    else:
        cause = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return f"section '{section}' failed in {nb_path}: {cause}"


def execute_section(section: Section, params: dict, out_dir: Path, root: Path,
                    results_dir: Path | None = None) -> Path:
    """Run ``section`` with ``params``; write ``out_dir/<name>.ipynb`` and
    ``(results_dir or out_dir)/<name>.json``. Raises :class:`SectionFailed` naming the cell."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    root = Path(root).resolve()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    results_dir = Path(results_dir or out_dir).resolve()
    source = root / section.notebook
    nb = jupytext.read(source)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    env = {
        "ANALYSIS_RESULTS_DIR": str(results_dir),
        "ANALYSIS_ALLOWED_TABLES": ",".join(table_closure(section.tables)),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
        "PYTHONHASHSEED": "0",
    }
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    target = out_dir / f"{section.name}.ipynb"
    # The kernel is forked from this process where it can be (analysis.pipeline.kernels), and
    # killed once the last cell's outputs are in: a polite shutdown waits up to 2.5 s for a
    # kernel that the shutdown's interrupt caught at the wrong moment, and nothing is left to save.
    options = dict(parameters=params, kernel_name="python3", cwd=str(root), progress_bar=False,
                   log_output=False, report_mode=False, execution_timeout=CELL_TIMEOUT_S,
                   kernel_manager_class=kernels.manager_for(root), shutdown_kernel="immediate")
    try:
        try:
            executed = papermill.execute_notebook(nb, None, **options)
        except RuntimeError as exc:  # a kernel that dies while starting (seen on an overloaded machine)
            if "Kernel died" not in str(exc) and "kernel_info" not in str(exc):
                raise
            executed = papermill.execute_notebook(nb, None, **options)
    except PapermillExecutionError as exc:
        raise SectionFailed(_describe_failure(section.name, source, exc)) from None
    except Exception as exc:  # kernel death, a cell timeout, bad notebook JSON, ...
        raise SectionFailed(_describe_crash(section.name, source, exc)) from None
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    if not (results_dir / f"{section.name}.json").is_file():
        raise SectionFailed(f"section '{section.name}' ran but wrote no results JSON; "
                            "the notebook must end with R.save()")
    _hide_parameter_cells(executed)
    _strip_volatile_metadata(executed)
    tmp = target.with_suffix(".ipynb.tmp")
    nbformat.write(executed, str(tmp))
    tmp.replace(target)
    return target




@contextlib.contextmanager
def _filtered_kernel_stderr():
    """Capture file descriptor 2 (inherited by the kernel process) and replay it without noise."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            capture.seek(0)
            for line in capture.read().decode(errors="replace").splitlines():
                if line.strip() and not any(n in line for n in NOISE):
                    print(line, file=sys.stderr)


def timed_execute(args) -> RunRecord:
    """Pool entry point: ``(section, params, out_dir, root, results_dir)`` -> RunRecord."""
    start = time.perf_counter()
    with _filtered_kernel_stderr():
        execute_section(*args)
    return RunRecord(args[0].name, time.perf_counter() - start, cached=False)
