"""The results contract: every executed section writes ``<results dir>/<section>.json`` as

    {"section": ..., "parameters": {name: value},
     "results": {key: {"value": number, "unit": "...", "label": "...", "reads": [...]}}}

``reads`` (where recorded) lists what the result's computation read: report facts, report rows and
parameters (:mod:`analysis.data.provenance`); the claims ledger reads it.

The summary page and later chapters read these files (or call the same functions); they never
retype a number. The results folder is ``$ANALYSIS_RESULTS_DIR``, set by the pipeline, else
``_build/results``.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from analysis.errors import ExecutionError
from analysis.page.formatting import is_count_unit


def as_number(value, unit: str) -> float | int:
    """A result's value as a plain number: a float, or an int for a whole count (unit ``count``),
    so counts print and serialise as 22, not 22.0."""
    value = float(value)
    return int(value) if is_count_unit(unit) and value.is_integer() else value


REPO_ROOT = Path(__file__).resolve().parents[2]


def _csv(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text


def results_dir() -> Path:
    return Path(os.environ.get("ANALYSIS_RESULTS_DIR", REPO_ROOT / "_build" / "results"))


class Results:
    """Collects a section's results; :meth:`add` also glues each value for the prose."""

    def __init__(self, section: str, parameters: dict):
        self.section = section
        self.parameters = dict(parameters)
        self.results: dict[str, dict] = {}
        self.tables: list[str] = []
        self.upstream: dict = {}  # section -> ChapterResults of the sections it needs (notebook.start)

    def add(self, key: str, value: float, unit: str, label: str, glue: bool = True, reads=None) -> None:
        """Record ``value`` under ``key`` (and glue it as ``key`` for ``{glue:text}``), with what
        its computation read (``reads``, when recorded). Returns nothing, so a cell ending in
        ``R.add(...)`` prints nothing; read values from ``R[key]``."""
        value = as_number(value, unit)
        if not math.isfinite(value):
            raise ExecutionError(f"result {key} is not finite: {value}")
        if key in self.results:
            raise ExecutionError(f"result {key} recorded twice")
        self.results[key] = {"value": value, "unit": unit, "label": label}
        if reads is not None:
            self.results[key]["reads"] = sorted(reads)
        if glue:
            from myst_nb import glue as myst_glue

            # a whole count is an int (as_number), so the prose reads "11 reproduced", not "11.0"
            myst_glue(key, value, display=False)

    def __getitem__(self, key: str) -> float:
        return self.results[key]["value"]

    def record(self, chapter, glue: bool = True) -> None:
        """Add (and, with ``glue``, glue) every quantity of a :class:`analysis.chapters.ChapterResults`,
        with what each read."""
        for key, q in chapter.quantities.items():
            self.add(key, q.value, q.unit, q.label, glue=glue, reads=q.reads)

    def add_table(self, name: str, table, title: str) -> None:
        """Write ``table`` (a DataFrame) as ``<results dir>/<section>__<name>.csv`` and show a
        download link: the data behind a chapter's table or figure, for readers to reuse."""
        from IPython.display import Markdown, display

        if not name.replace("_", "").isalnum():
            raise ExecutionError(f"table name {name!r} must be letters, digits and underscores")
        folder = results_dir()
        folder.mkdir(parents=True, exist_ok=True)
        filename = f"{self.section}__{name}.csv"
        table.to_csv(folder / filename, index=False, float_format="%.6g", lineterminator="\n")
        self.tables.append(filename)
        display(Markdown(f"{{download}}`Download the data: {title} (CSV) <data/{filename}>`"))

    def to_dict(self) -> dict:
        return {"section": self.section, "parameters": self.parameters, "results": self.results}

    def to_json(self) -> str:
        """The results file's text (``python -m analysis run`` writes the same bytes)."""
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def save(self, folder: Path | None = None) -> None:
        """Write ``<folder>/<section>.json`` atomically (returns nothing, so a notebook's last cell
        prints nothing)."""
        folder = Path(folder or results_dir())
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.section}.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(self.to_json(), encoding="utf-8")
        tmp.replace(path)
        # the same results as a table, offered for download on the chapter's page (see notebook.start)
        lines = ["key,value,unit,label"] + [
            ",".join([key, f"{r['value']:.10g}", _csv(r["unit"]), _csv(r["label"])]) for key, r in self.results.items()]
        (folder / f"{self.section}__results.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def load_results(section: str, folder: Path | None = None) -> dict:
    """The results JSON of ``section``; a clear error if that section has not run."""
    path = Path(folder or results_dir()) / f"{section}.json"
    if not path.is_file():
        raise ExecutionError(f"{path}: no results for section '{section}'; run it first")
    return json.loads(path.read_text(encoding="utf-8"))


def result_value(section: str, key: str, folder: Path | None = None) -> float:
    """One result value; error naming the section and key if it is absent."""
    results = load_results(section, folder)["results"]
    if key not in results:
        raise ExecutionError(f"section '{section}' has no result '{key}'; it has: {', '.join(results)}")
    return results[key]["value"]
