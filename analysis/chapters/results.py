"""The results contract: every executed section writes ``<results dir>/<section>.json`` as

    {"schema_version": 1, "section": ..., "parameters": {name: value}, "names": {role: id},
     "results": {key: {"value": number, "unit": "...", "label": "...", "reads": [...]}}}

its shape described by ``docs/schemas/results.schema.json`` (a change of shape bumps
:data:`SCHEMA_VERSION` and is listed in the CHANGELOG; ``tests/test_schemas.py`` validates what the
build, ``run`` and the notebooks write). ``names`` gives the models, GPUs and runs its results are
about, by role (empty where a chapter names none), so a page names them from the results, never by
typing them.

``reads`` (where recorded) lists what the result's computation read: report facts, report rows and
parameters (:mod:`analysis.data.provenance`); the claims ledger reads it.

The summary page and later chapters read these files (or call the same functions); they never
retype a number. The results folder is ``$ANALYSIS_RESULTS_DIR`` where the build or ``run --notebook``
sets it; a notebook run on its own (papermill, JupyterLab) writes into the folder its ``start()``
chose (:func:`use_results_dir`), by default ``_build/run``, where ``python -m analysis run`` writes.
Never ``_build/results``: that is the published book's, and only the build's swap changes it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from analysis.errors import ExecutionError
from analysis.units import is_count_unit


def as_number(value, unit: str) -> float | int:
    """A result's value as a plain number: a float, or an int for a whole count (unit ``count``),
    so counts print and serialise as 22, not 22.0."""
    value = float(value)
    return int(value) if is_count_unit(unit) and value.is_integer() else value


REPO_ROOT = Path(__file__).resolve().parents[2]
SCHEMA_VERSION = 1  # of the results JSON (docs/schemas/results.schema.json)


def _csv(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text


# Where a notebook run outside the build writes (set by analysis.page.notebook.start); None: _build/run.
_OUTSIDE_FOLDER: Path | None = None


def results_dir() -> Path:
    """``$ANALYSIS_RESULTS_DIR`` inside the build; else the folder :func:`use_results_dir` set, else
    ``_build/run``."""
    if "ANALYSIS_RESULTS_DIR" in os.environ:
        return Path(os.environ["ANALYSIS_RESULTS_DIR"])
    return _OUTSIDE_FOLDER or REPO_ROOT / "_build" / "run"


def use_results_dir(folder: Path | None) -> None:
    """Where this process's chapter writes its results when no build set ``$ANALYSIS_RESULTS_DIR``
    (None: ``_build/run``)."""
    global _OUTSIDE_FOLDER
    _OUTSIDE_FOLDER = None if folder is None else Path(folder)


def results_json(section: str, parameters: dict, quantities: dict, names: dict | None = None) -> str:
    """The results file's text for a chapter's ``quantities`` (``key -> Quantity``: value, unit,
    label, reads) and ``names`` (role -> model, GPU or run id): the notebook and ``python -m
    analysis run`` write these same bytes."""
    results = {}
    for key, q in quantities.items():
        results[key] = {"value": q.value, "unit": q.unit, "label": q.label}
        if q.reads is not None:
            results[key]["reads"] = sorted(q.reads)
    doc = {"schema_version": SCHEMA_VERSION, "section": section, "parameters": parameters,
           "names": dict(sorted((names or {}).items())), "results": results}
    return json.dumps(doc, indent=2) + "\n"


def save_results(section: str, text: str, quantities: dict, folder: Path | None = None) -> None:
    """Write ``<folder>/<section>.json`` (``text``, from :func:`results_json`) atomically, and the
    same results as a CSV table (``<section>__results.csv``), offered for download on the page."""
    folder = Path(folder or results_dir())
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{section}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    lines = ["key,value,unit,label"] + [
        ",".join([key, f"{q.value:.10g}", _csv(q.unit), _csv(q.label)]) for key, q in quantities.items()]
    (folder / f"{section}__results.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def load_results(section: str, folder: Path | None = None) -> dict:
    """The results JSON of ``section``; a clear error if that section has not run."""
    path = Path(folder or results_dir()) / f"{section}.json"
    if not path.is_file():
        raise ExecutionError(f"{path}: no results for section '{section}'; run it first")
    return json.loads(path.read_text(encoding="utf-8"))
