"""Unit constants and conversions. Pure, no I/O.

Conventions: a year is 365 days (8,760 h), which is what SemiAnalysis uses when it turns
an MTTF in years into minutes (26.28 min = 5 x 525,600 min / 100,000). 1 kWh = 3.6e6 J exactly
(NIST SP 811).
"""

import math

SECONDS_PER_MINUTE = 60.0
SECONDS_PER_HOUR = 3_600.0
SECONDS_PER_DAY = 86_400.0
HOURS_PER_DAY = 24.0
DAYS_PER_YEAR = 365.0
HOURS_PER_YEAR = HOURS_PER_DAY * DAYS_PER_YEAR
HOURS_PER_MONTH = HOURS_PER_YEAR / 12  # 730 h
MINUTES_PER_HOUR = SECONDS_PER_HOUR / SECONDS_PER_MINUTE
MINUTES_PER_YEAR = HOURS_PER_YEAR * MINUTES_PER_HOUR
JOULES_PER_KWH = 3.6e6

TERA = 1e12
PETA = 1e15
EXA = 1e18




def w_to_mw(watts: float) -> float:
    """Watts -> megawatts."""
    return watts / 1e6



def years_to_minutes(years: float) -> float:
    """Years (365 d) -> minutes."""
    return years * MINUTES_PER_YEAR



def gbps_to_gbytes_per_s(gbps: float) -> float:
    """Link rate in Gbit/s -> GB/s (decimal gigabytes)."""
    return gbps / 8.0


def rounding_floor(stated: float, significant_digits: int = 2) -> float:
    """The smallest value that rounds to ``stated`` at its significant digits ("~$3.9M" -> 3.85M)."""
    step = 10 ** (math.floor(math.log10(abs(stated))) - significant_digits + 1)
    return stated - step / 2


# Units whose values are whole things: formatted as integers, pluralised by the number.
# singular -> plural; a unit is recognised in either form.
COUNT_UNITS = {
    "GPU": "GPUs", "row": "rows", "claim": "claims", "fact": "facts", "scenario": "scenarios",
    "household": "households", "chip": "chips", "port": "ports", "node": "nodes", "site": "sites",
    "iteration": "iterations", "step": "steps", "sequence": "sequences", "token": "tokens",
    "draw": "draws", "simulated run": "simulated runs", "server": "servers", "rack": "racks",
    "link": "links", "failure": "failures", "interruption": "interruptions", "file": "files",
    "parameter": "parameters", "source": "sources", "chapter": "chapters", "table": "tables",
    "figure": "figures", "benchmark": "benchmarks", "job": "jobs", "page": "pages",
}
# Units that pluralise but may hold fractions (1.5 days).
MEASURE_UNITS = {
    "day": "days", "hour": "hours", "minute": "minutes", "month": "months", "year": "years",
    "week": "weeks", "second": "seconds", "household-year": "household-years", "GPU-day": "GPU-days",
    "GPU-hour": "GPU-hours", "GPU-month": "GPU-months", "GPU-year": "GPU-years",
}
PLURALS = {**COUNT_UNITS, **MEASURE_UNITS}
SINGULARS = {v: k for k, v in PLURALS.items()}


def is_count_unit(unit: str) -> bool:
    """Whether ``unit`` counts whole things ('GPUs', 'rows', 'count', ...)."""
    unit = unit.strip()
    return unit in ("count", "number") or unit in COUNT_UNITS or unit in SINGULARS and SINGULARS[unit] in COUNT_UNITS
