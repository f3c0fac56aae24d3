"""Unit constants and conversions. Pure, no I/O.

Conventions: a year is 365 days (8,760 h), which is what SemiAnalysis uses when it turns
an MTTF in years into minutes (26.28 min = 5 x 525,600 min / 100,000). 1 kWh = 3.6e6 J exactly
(NIST SP 811).
"""

SECONDS_PER_MINUTE = 60.0
SECONDS_PER_HOUR = 3_600.0
SECONDS_PER_DAY = 86_400.0
HOURS_PER_DAY = 24.0
DAYS_PER_YEAR = 365.0
HOURS_PER_YEAR = HOURS_PER_DAY * DAYS_PER_YEAR
MINUTES_PER_YEAR = HOURS_PER_YEAR * 60.0
JOULES_PER_KWH = 3.6e6

TERA = 1e12
PETA = 1e15
EXA = 1e18


def tflops_to_flops(tflops: float) -> float:
    """TFLOP/s -> FLOP/s."""
    return tflops * TERA


def flops_to_eflops(flops: float) -> float:
    """FLOP/s -> EFLOP/s."""
    return flops / EXA


def w_to_mw(watts: float) -> float:
    """Watts -> megawatts."""
    return watts / 1e6


def mwh_to_twh(mwh: float) -> float:
    """Megawatt-hours -> terawatt-hours."""
    return mwh / 1e6


def years_to_minutes(years: float) -> float:
    """Years (365 d) -> minutes."""
    return years * MINUTES_PER_YEAR


def seconds_to_days(seconds: float) -> float:
    """Seconds -> days."""
    return seconds / SECONDS_PER_DAY


def gbps_to_gbytes_per_s(gbps: float) -> float:
    """Link rate in Gbit/s -> GB/s (decimal gigabytes)."""
    return gbps / 8.0


def rounding_floor(stated: float, significant_digits: int = 2) -> float:
    """The smallest value that rounds to ``stated`` at its significant digits ("~$3.9M" -> 3.85M)."""
    import math

    step = 10 ** (math.floor(math.log10(abs(stated))) - significant_digits + 1)
    return stated - step / 2
