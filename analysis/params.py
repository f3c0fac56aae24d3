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
from dataclasses import dataclass, field

from analysis.errors import InputError, clip
from analysis.hardware import gpu_ids


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
            return tuple(gpu_ids())
        if self.choices_from == "gpus_with_fp8":  # the chapters compute an FP8 peak and a power build-up
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
        try:
            number = float(raw.replace("_", "")) if isinstance(raw, str) else float(raw)
        except ValueError:
            raise ParameterError(f"{where}: {expected}; got {shown}, which is not a number") from None
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
    for name in overrides:
        if name not in known:
            near = difflib.get_close_matches(name, known, n=3) if isinstance(name, str) and len(name) < 200 else []
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            where = (origin or {}).get(name, "")
            shown = name if isinstance(name, str) and len(name) <= 80 else clip(name)[1:-1]
            raise ParameterError(f"{where}unknown parameter '{shown}'{hint} "
                                 "(`python -m analysis params SECTION` lists them)")

