"""Parameters: one definition each (default, unit, valid range, justification, source), and the
validation every value passes before papermill injects it into a notebook.

Values come from three places, all checked here: ``-p NAME VALUE`` on the command line (strings),
a scenario YAML file (YAML scalars) and the defaults. A value is converted to the parameter's
declared type, must be finite and inside its range, or one of its choices. Nothing is ever
evaluated: a string such as ``__import__('os')`` is just an invalid number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from analysis.errors import InputError, clip
from analysis.inputs import parse_number


class ParameterError(InputError):
    """A parameter value or name is invalid."""


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:g}"


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
            from analysis.hardware import gpu_ids
            return tuple(gpu_ids())
        if self.choices_from == "gpus_with_fp8":  # the chapters compute an FP8 peak and a power build-up
            from analysis.hardware import gpu_ids
            return tuple(gpu_ids(with_dtype="fp8", with_tdp=True))
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
        try:  # text: the one number grammar of the command line and scenario files (analysis.inputs)
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
    import difflib
    for name in overrides:
        if name not in known:
            near = difflib.get_close_matches(name, known, n=3) if isinstance(name, str) and len(name) < 200 else []
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            where = (origin or {}).get(name, "")
            shown = name if isinstance(name, str) and len(name) <= 80 else clip(name)[1:-1]
            raise ParameterError(f"{where}unknown parameter '{shown}'{hint} "
                                 "(`python -m analysis params SECTION` lists them)")


def load_scenario(path: str | Path) -> tuple[dict[str, object], dict[str, str]]:
    """Read a scenario file: a YAML mapping with an optional ``name`` and ``description`` and a
    ``parameters`` mapping of name -> value (see :mod:`analysis.scenario_file` for the limits).
    Returns the overrides and, per name, ``"FILE:LINE: "`` for messages."""
    from analysis.scenario_file import read

    doc, origin = read(path)
    return doc["parameters"], origin
