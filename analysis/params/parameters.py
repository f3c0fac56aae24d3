"""Parameters: one definition each (default, unit, valid range, justification, source), and the
validation every value passes before papermill injects it into a notebook.

Values come from three places, all checked here: ``-p NAME VALUE`` on the command line (strings),
a scenario YAML file (YAML scalars) and the defaults. A value is converted to the parameter's
declared type, must be finite and inside its range, or one of its choices. Nothing is ever
evaluated: a string such as ``__import__('os')`` is just an invalid number.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from analysis.data import provenance
from analysis.data.load import load_table
from analysis.data.schemas import KEYS
from analysis.errors import InputError, clip, echo
from analysis.params.grammar import parse_number


class ParameterError(InputError):
    """A parameter value or name is invalid."""


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:g}"


def registry_ids(table: str, *given: str) -> tuple[str, ...]:
    """The ids of ``table``'s rows (``data/<table>.csv``, in file order) with a value in every
    column of ``given``: the valid choices of a parameter that names a row of it."""
    rows = load_table(table)
    for column in given:
        rows = rows[rows[column].notna()]
    return tuple(rows[KEYS[table]])


@dataclass(frozen=True)
class Param:
    """One model input. ``source`` is a ``data/sources.csv`` id; ``basis`` says how the default
    follows from it (``cited``, ``derived``, ``calibrated`` or ``assumption``) and ``why`` explains.
    When the default is a report's number, ``fact`` names its row in ``data/report_facts.csv`` and
    a test keeps the two equal."""

    name: str
    default: float | int | str
    unit: str
    description: str
    why: str
    source: str | None = None
    basis: str = "cited"
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    choices_from: str | None = field(default=None)  # a registry (``"gpus"``) that lists the choices
    fact: str | None = None  # a data/report_facts.csv id whose value the default must equal (tested)

    @property
    def kind(self) -> type:
        return type(self.default)

    def allowed(self) -> tuple[str, ...] | None:
        """The valid choices of a text parameter."""
        if self.choices_from == "gpus":
            return registry_ids("gpus")
        if self.choices_from == "gpus_with_fp8":  # the chapters compute an FP8 peak and a power build-up
            return registry_ids("gpus", "fp8_dense_tflops", "tdp_w")
        return self.choices

    def describe_range(self) -> str:
        if self.kind is str:
            return "one of: " + ", ".join(self.allowed() or ())
        kind = "an integer" if self.kind is int else "a number"
        return f"{kind} from {_fmt(self.low)} to {_fmt(self.high)}"

    def parse(self, raw) -> float | int | str:
        """Convert ``raw`` (a CLI string or a YAML scalar) and check it; raise ParameterError."""
        where, shown = f"parameter '{self.name}'", clip(raw)
        expected = f"expected {self.describe_range()} ({self.unit})"
        if self.kind is str:
            value = raw if isinstance(raw, str) else str(raw)
            if value not in (self.allowed() or ()):
                raise ParameterError(f"{where}: {expected}; got {shown}")
            return value
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise ParameterError(f"{where}: {expected}; got {shown}")
        try:  # text: the one number grammar of the command line and scenario files (analysis.params.grammar)
            number = parse_number(raw) if isinstance(raw, str) else float(raw)
        except ValueError as exc:
            raise ParameterError(f"{where}: {expected}; got {shown}, which is not a number ({exc})") from None
        except OverflowError:  # an integer beyond any float
            raise ParameterError(f"{where}: {expected}; got {shown}, which is out of range") from None
        if not math.isfinite(number):
            raise ParameterError(f"{where}: {expected}; got {shown}, which is not finite")
        if self.kind is int:
            if number != int(number):
                raise ParameterError(f"{where}: {expected}; got {shown}, which is not a whole number")
            number = int(number)
        if not (self.low <= number <= self.high):
            raise ParameterError(f"{where}: {expected}; got {shown}, which is out of range")
        return number

    def __post_init__(self):
        if self.kind is not str and (self.low is None or self.high is None):
            raise TypeError(f"numeric parameter {self.name} needs low and high")
        if self.basis not in ("cited", "derived", "calibrated", "assumption"):
            raise TypeError(f"parameter {self.name}: unknown basis {self.basis!r}")


class Parameters:
    """A chapter's validated parameter values, read as attributes (``P.pue``), read-only.

    Reading a name that is not among them is an error that lists them, so a chapter can use only
    the parameters its section declares (``analysis.chapters.registry``; ``tests/test_chapters.py`` checks
    that it uses every one). Values may be numpy arrays: the Monte Carlo bands and the what-if grids
    evaluate a chapter's chain functions on many inputs at once.

    Each read is noted for the claims ledger (:mod:`analysis.data.provenance`): ``param:<name>``, and
    ``fact:<id>`` for a parameter left at a default that is a report's number (``facts``: name ->
    fact id, :func:`analysis.chapters.tracked_parameters`). Outside a chapter's computation a note
    is a no-op."""

    __slots__ = ("_values", "_facts")

    def __init__(self, values: Mapping[str, object], facts: Mapping[str, str] | None = None):
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "_facts", dict(facts or {}))

    def __getattr__(self, name: str):
        values = object.__getattribute__(self, "_values")
        try:
            value = values[name]
        except KeyError:
            raise AttributeError(f"no parameter '{name}' here; these are: {', '.join(sorted(values))}") from None
        fact = object.__getattribute__(self, "_facts").get(name)
        provenance.note(f"param:{name}", *((f"fact:{fact}",) if fact else ()))
        return value

    def __setattr__(self, name, value):
        raise AttributeError("parameters are read-only; use replace()")

    def __contains__(self, name: str) -> bool:
        return name in self._values

    def __repr__(self) -> str:
        return f"Parameters({self._values!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Parameters) and self._values == other._values

    __hash__ = None

    def _derive(self, values: dict) -> Parameters:
        # a parameter moved off its default no longer stands on the report's number
        facts = {n: f for n, f in self._facts.items() if values.get(n) is self._values.get(n)}
        return type(self)(values, facts)

    def replace(self, **changes) -> Parameters:
        """These parameters with ``changes`` (names it already has)."""
        unknown = sorted(set(changes) - set(self._values))
        if unknown:
            raise AttributeError(f"no parameter {', '.join(map(repr, unknown))} to replace")
        return self._derive({**self._values, **changes})

    def as_dict(self) -> dict[str, object]:
        """The values as a plain dict, for display and records: not noted as reads, so a chapter
        passes parameters on as ``Parameters`` (whose reads are noted), never as this dict."""
        return dict(self._values)


def resolve(params: dict[str, Param], overrides: dict[str, object]) -> dict[str, object]:
    """Defaults of ``params`` with ``overrides`` applied, every value validated. Names in
    ``overrides`` that ``params`` lacks are ignored here (a scenario spans all sections); call
    :func:`check_names` first to reject names that no section knows."""
    values = {}
    for name, param in params.items():
        values[name] = param.parse(overrides[name]) if name in overrides else param.parse(param.default)
    return values


def check_names(known: dict[str, Param], overrides: dict[str, object], origin: dict[str, str] | None = None):
    """Reject names that are not parameters of any section, suggesting near misses."""
    for name in overrides:
        if name not in known:
            near = difflib.get_close_matches(name, known, n=3) if isinstance(name, str) and len(name) < 200 else []
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            where = (origin or {}).get(name, "")
            shown = echo(name) if isinstance(name, str) else clip(name)
            shown = shown[1:-1] if shown != name else shown  # the quotes are the message's
            raise ParameterError(f"{where}unknown parameter '{shown}'{hint} "
                                 "(`python -m analysis params SECTION` lists them)")

