"""Column helpers shared by every table schema of :mod:`analysis.data.schemas`, the id and date
patterns, the closed list of units, and ``pa``: pandera, imported only when a schema is built."""

from __future__ import annotations


class _Pandera:
    """pandera, imported when a schema is first built (validating a table), not when this module
    is: with the validated tables cached on disk (:mod:`analysis.data.load`), most processes never
    validate, and pandera's import is a sixth of a second of every command's start."""

    def __getattr__(self, name: str):
        import pandera.pandas

        return getattr(pandera.pandas, name)


pa = _Pandera()

ID = r"^[a-z0-9][a-z0-9_]*$"
# Units a report fact or seed number may carry: a closed list, so a typo ("kwh", "USD/hr") is caught.
UNITS = {
    "EFLOP/s", "FLOP", "GB", "GPU-days", "GPUs", "Gbps", "J", "J/token", "MW", "MWh/yr", "TB", "TWh/yr", "USD",
    "USD per 1M tokens", "USD/GPU", "USD/GPU-hour", "USD per GPU-month", "USD/kWh", "USD/rack", "USD/server",
    "USD/yr", "W", "chips", "count", "days", "fraction", "fraction/yr", "household-years", "iterations", "kJ/h",
    "kW", "kWh/yr", "m", "minutes", "months", "nodes", "ports", "s", "sequences", "sites", "steps", "tokens",
    "tokens/household-year", "tokens/s/GPU", "x", "years", "g CO2/kWh", "t CO2", "GWh", "GPU-hours", "h",
}
DATE = r"^\d{4}(-\d{2}(-\d{2})?)?$"


def _num(lo: float, hi: float, nullable: bool = False) -> pa.Column:
    return pa.Column(float, pa.Check.in_range(lo, hi), nullable=nullable, coerce=True)


def _int(lo: int, hi: int, nullable: bool = False) -> pa.Column:
    return pa.Column("Int64", pa.Check.in_range(lo, hi), nullable=nullable, coerce=True)


def _text(nullable: bool = False, regex: str | None = None, isin=None, unique=False) -> pa.Column:
    checks = []
    if regex:
        checks.append(pa.Check.str_matches(regex))
    if isin is not None:
        checks.append(pa.Check.isin(sorted(isin)))
    return pa.Column(str, checks, nullable=nullable, unique=unique)


def _bool_text() -> pa.Column:
    return _text(isin={"true", "false"})


def _source(source_ids) -> pa.Column:
    return _text(isin=source_ids)
