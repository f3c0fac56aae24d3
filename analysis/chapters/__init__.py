"""The chapter layer: one module per chapter maps the domain functions in :mod:`analysis` to the
quantities, tables and figure data the chapter shows, the way pvlib's ModelChain sits over its
model functions.

Every chapter module defines

    def compute(P, upstream) -> ChapterResults

where ``P`` is the chapter's validated parameters (attribute access: ``P.pue``) and ``upstream``
maps each section in the chapter's ``needs`` to its :class:`ChapterResults`. A notebook calls it
once and records the result; tests call it directly, so every number a chapter prints is computed
by tested code, and :func:`compute_section` runs any chapter (and the chapters it needs) without
a notebook kernel.

Layers: domain modules (``analysis/*.py``) never import this package, the parameter definitions
or the presentation helpers; chapter modules import domain modules and data; notebooks import
chapter modules and the presentation helpers.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field

import pandas as pd

from analysis.chapters.registry import get_section, resolve_section
from analysis.chapters.results import as_number, results_json, save_results
from analysis.data import provenance
from analysis.params import constraints
from analysis.params.parameters import Parameters


class ChapterError(ValueError):
    """A chapter's computation was given inputs it cannot use (names the parameters)."""


@dataclass(frozen=True)
class Quantity:
    """One result: a finite number, its unit (spelled as in :mod:`analysis.units`' names), a
    reader-facing label and what its computation read (:mod:`analysis.data.provenance`: report facts,
    report rows, parameters; None where it was not recorded)."""

    value: float
    unit: str
    label: str
    reads: frozenset[str] | None = None


class Quantities(dict):
    """A chapter's quantities by key; looking one up notes what it read, so a result computed from
    another carries that one's reads too (iterating does not: listing results reads no value)."""

    def __getitem__(self, key: str) -> Quantity:
        q = super().__getitem__(key)
        if q.reads:
            provenance.note(*q.reads)
        return q


@dataclass
class ChapterResults:
    """The quantities a chapter computes, in order, plus the tables behind its figures: the one
    results type of the book (a notebook calls it ``R``; ``upstream`` maps needs to theirs)."""

    section: str
    quantities: dict[str, Quantity] = field(default_factory=Quantities)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    # the parameters the chapter ran with (set by compute_section and from_json): the claims
    # ledger applies the report's tolerances only to chapters that ran at the report's inputs
    parameters: dict = field(default_factory=dict)
    # the models, GPUs and runs its results are about, by role (``"gpu": "h100_sxm"``): the ids
    # a page names through analysis.page.names, so no verdict types a model or a GPU
    names: dict[str, str] = field(default_factory=dict)

    def name(self, role: str, ident: str) -> str:
        """Record that the results are about ``ident`` (a model, GPU or run id) in ``role``; returns it."""
        if self.names.get(role, ident) != ident:
            raise ChapterError(f"{self.section}: name {role} recorded twice ({self.names[role]}, {ident})")
        self.names[role] = str(ident)
        return self.names[role]

    def add(self, key: str, value: float, unit: str, label: str) -> float:
        """Record ``value`` under ``key``; returns it as a float for further arithmetic (a whole
        count, unit ``count``, as an int)."""
        value = as_number(value, unit)  # a whole count as an int: it prints as 22, not 22.0
        if not math.isfinite(value):
            raise ChapterError(f"{self.section}: result {key} is not finite ({value})")
        if key in self.quantities:
            raise ChapterError(f"{self.section}: result {key} recorded twice")
        self.quantities[key] = Quantity(value, unit, label, provenance.snapshot())
        return value

    def add_table(self, name: str, table: pd.DataFrame) -> pd.DataFrame:
        self.tables[name] = table
        return table

    def __getitem__(self, key: str) -> float:
        return self.quantities[key].value

    def __contains__(self, key: str) -> bool:
        return key in self.quantities

    def unit(self, key: str) -> str:
        return self.quantities[key].unit

    def to_json(self) -> str:
        """The results file's text (:mod:`analysis.chapters.results`): what the chapter's notebook
        and ``python -m analysis run`` write, byte for byte."""
        return results_json(self.section, self.parameters, self.quantities, self.names)

    def save(self, folder) -> None:
        """Write the results JSON and its CSV twin into ``folder``."""
        save_results(self.section, self.to_json(), self.quantities, folder)

    @classmethod
    def from_json(cls, doc: dict) -> ChapterResults:
        """Rebuild from a results JSON (``analysis.chapters.results``): quantities only, no tables."""
        out = cls(doc["section"], parameters=dict(doc.get("parameters", {})), names=dict(doc.get("names", {})))
        for key, r in doc["results"].items():
            reads = frozenset(r["reads"]) if "reads" in r else None
            out.quantities[key] = Quantity(as_number(r["value"], r["unit"]), r["unit"], r["label"], reads)
        return out


QUANTILES = ("p10", "p50", "p90")


def read_bands(uncertainty: ChapterResults, keys) -> pd.DataFrame:
    """Point, P10, P50 and P90 (with label and unit) of ``keys``, indexed by key, as the
    uncertainty chapter computed them (its results ``KEY`` and ``KEY_p10`` ...): the band a
    chapter prints beside its own value, read from ``upstream["uncertainty"]``, not recomputed."""
    rows = {key: {"label": uncertainty.quantities[key].label, "unit": uncertainty.unit(key), "point": uncertainty[key],
                  **{q: uncertainty[f"{key}_{q}"] for q in QUANTILES}} for key in keys}
    return pd.DataFrame.from_dict(rows, orient="index")


def module_for(section: str):
    """The chapter module of ``section`` (``analysis.chapters.<section>``)."""
    return importlib.import_module(f"analysis.chapters.{section}")


def compute_section(name: str, overrides: dict | None = None,
                    _done: dict[str, ChapterResults] | None = None) -> ChapterResults:
    """Compute chapter ``name`` with ``overrides`` applied to the defaults, after the chapters it
    needs, without a notebook. Used by tests, the planner and the what-if grids."""
    done = {} if _done is None else _done
    section = get_section(name)
    for need in section.needs:
        if need not in done:
            done[need] = compute_section(need, overrides, done)
    values = resolve_section(section, dict(overrides or {}))
    with provenance.recording():
        result = module_for(name).compute(tracked_parameters(section, values), {n: done[n] for n in section.needs})
    result.parameters = values
    done[name] = result
    return result


def tracked_parameters(section, values: dict) -> Parameters:
    """``values`` as a chapter's ``P`` that notes each read, with the report fact behind every
    parameter left at a default that is a report's number (``Param.fact``)."""
    facts = {p.name: p.fact for p in section.params if p.fact and values.get(p.name) == p.default}
    return Parameters(values, facts)


def check_inputs(values_by_section: dict[str, dict], origin: dict[str, str] | None = None) -> None:
    """Refuse, before any chapter runs, parameters that contradict each other: the rules between
    parameters (:func:`analysis.params.constraints.check`) and each chapter's own
    ``check_inputs(P, origin)``, where its module defines one (whether the network's fabric exists,
    whether a job makes progress). Raises a ParameterError naming both parameters (exit code 2)."""
    origin = origin or {}
    for section, values in values_by_section.items():
        P = Parameters(values)
        constraints.check(P, section, origin)
        own = getattr(module_for(section), "check_inputs", None)
        if own is not None:
            own(P, origin)
