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
retype a number. Where the files go is the caller's: the build and ``run`` name a folder, and a
notebook's page helpers (:func:`analysis.page.notebook.results_dir`) name its own.
"""

from __future__ import annotations

import json
from pathlib import Path

from analysis.errors import ExecutionError
from analysis.units import is_count_unit


def as_number(value, unit: str) -> float | int:
    """A result's value as a plain number: a float, or an int for a whole count (unit ``count``),
    so counts print and serialise as 22, not 22.0."""
    value = float(value)
    return int(value) if is_count_unit(unit) and value.is_integer() else value


SCHEMA_VERSION = 1  # of the results JSON (docs/schemas/results.schema.json)


def _csv(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text


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


def save_results(section: str, text: str, quantities: dict, folder: Path) -> None:
    """Write ``<folder>/<section>.json`` (``text``, from :func:`results_json`) atomically, and the
    same results as a CSV table (``<section>__results.csv``), offered for download on the page."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{section}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    lines = ["key,value,unit,label"] + [
        ",".join([key, f"{q.value:.10g}", _csv(q.unit), _csv(q.label)]) for key, q in quantities.items()]
    (folder / f"{section}__results.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def load_results(section: str, folder: Path) -> dict:
    """The results JSON of ``section`` in ``folder``; a clear error if that section has not run."""
    path = Path(folder) / f"{section}.json"
    if not path.is_file():
        raise ExecutionError(f"{path}: no results for section '{section}'; run it first")
    return json.loads(path.read_text(encoding="utf-8"))
