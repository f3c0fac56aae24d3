"""Scenarios: documented YAML files of parameter overrides (``data/scenarios/*.yaml``), and the
key results of several scenarios side by side.

A scenario changes any subset of parameters across all chapters. ``build --scenario FILE``
renders the whole book for one of them; :func:`compare` evaluates the headline outputs of many at
once through the book's point model (:func:`analysis.chapters.bands.evaluate`), which calls the
chapters' own chain functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.chapters import check_inputs
from analysis.chapters.bands import OUTPUTS, book_parameters, evaluate
from analysis.chapters.registry import SECTIONS, resolve_section
from analysis.params.grammar import csv_cell, display_text
from analysis.params.scenario_file import read

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "data" / "scenarios"


@dataclass(frozen=True)
class Scenario:
    path: Path
    name: str
    description: str
    overrides: dict
    origin: dict

    @property
    def label(self) -> str:
        """Name and file, as the banner and the compare table show them (the file name is the
        user's text too: its bidirectional and control characters are removed like the name's)."""
        return f"{self.name} ({display_text(self.path.name)})"


def load(path) -> Scenario:
    """Read and check a scenario file: YAML, known parameter names, valid values (exit code 2)."""
    path = Path(path)
    doc, origin = read(path)
    overrides = doc["parameters"]
    # names, values and the rules between them, as a build would check them
    check_inputs({s.name: resolve_section(s, overrides, origin) for s in SECTIONS}, origin)
    # read() checked both are text of bounded length and removed bidirectional and control characters
    name = doc.get("name") or display_text(path.stem) or "unnamed"
    return Scenario(path, name, doc.get("description", ""), overrides, origin)


def shipped() -> list[Scenario]:
    """The scenarios that ship with the book: the report's defaults first, then by file name."""
    paths = sorted(SCENARIO_DIR.glob("*.yaml"), key=lambda p: (p.stem != "report-defaults", p.name))
    return [load(p) for p in paths]


def key_results(scenario: Scenario) -> dict:
    """The headline outputs for one scenario (point estimates)."""
    return {k: float(v) for k, v in evaluate(book_parameters(scenario.overrides)).items()}


def column_names(scenarios: list[Scenario]) -> list[str]:
    """One distinct column name per scenario, in order: its name, with its file added where two
    scenarios share a name, and a number where one file is given twice."""
    counts = {}
    for s in scenarios:
        counts[s.name] = counts.get(s.name, 0) + 1
    names, seen = [], set()
    for s in scenarios:
        name = s.name if counts[s.name] == 1 else s.label
        candidate, n = name, 1
        while candidate in seen:
            n += 1
            candidate = f"{name} #{n}"
        seen.add(candidate)
        names.append(candidate)
    return names


def compare(scenarios: list[Scenario]) -> pd.DataFrame:
    """One row per headline output, one column per scenario, plus label and unit."""
    table = pd.DataFrame({name: key_results(s) for name, s in zip(column_names(scenarios), scenarios, strict=True)})
    table.insert(0, "unit", [OUTPUTS[k][1] for k in table.index])
    table.insert(0, "label", [OUTPUTS[k][0] for k in table.index])
    return table


SCHEMA_VERSION = 1  # of compare.csv (docs/schemas/compare-row.schema.json)


def write_csv(table: pd.DataFrame, path: Path) -> None:
    """Write :func:`compare`'s table: one row per headline output, as ``key, schema_version, label,
    unit`` and one column per scenario (the shape of ``docs/schemas/compare-row.schema.json``). A
    scenario name that a spreadsheet would read as a formula (``=...``, ``+...``, ``-...``, ``@...``)
    gets a leading apostrophe in the header."""
    out = table.rename(columns=lambda c: csv_cell(str(c)))
    out.insert(0, "schema_version", SCHEMA_VERSION)
    out.rename_axis("key").to_csv(path, lineterminator="\n")
