"""The book's one number-formatting layer, for tables and prose alike. Pure functions, no I/O.

    money(212_500)                 -> '$212,500'
    money(3.1e6)                   -> '$3.1M'
    money(1.95)                    -> '$1.95'
    count(11.0)                    -> '11'
    plural(1, "month")             -> '1 month'
    percent(0.0682)                -> '6.8 %'
    flop(5.98e26)                  -> '5.98 × 10²⁶ FLOP'
    year(2010.0)                   -> '2010'
    format_quantity(0.35, "fraction") -> '35 %'

Conventions (the book's, applied everywhere):

- **Money**: a dollar sign and thousands separators; cents below $100 ($1.95, $38.20), a tenth of
  a cent below $1 ($0.038), whole dollars from $100 to $1M ($212,500), then M / B / T with three
  significant digits ($3.1M, $124M, $2.13B). Never scientific notation.
- **Counts** (GPUs, rows, claims, ...): integers with separators; from a million on, words
  ("15.8 billion tokens"). Singular for exactly one ("1 row").
- **Fractions** (the unit ``fraction``) are percentages with the book's thin spacing ("38.1 %").
- **FLOP counts** are the only numbers in powers of ten, written for people: 5.98 × 10²⁶.
- **Years** have no separator (2010, not 2,010).
- Everything else: three significant digits below 100, whole numbers with separators above,
  powers of ten only from 10¹⁵ on.
"""

from __future__ import annotations

import math
import re

from analysis.units import PLURALS, SINGULARS, is_count_unit

__all__ = ["number", "plain", "money", "count", "plural", "percent", "ratio", "times", "flop", "power_of_ten",
           "year", "format_quantity", "result_value", "unit_label", "param_value", "humanize", "is_count_unit", "is_money_unit", "SUPERSCRIPT"]

SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
MINUS = "-"

_WORDS = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))
_MONEY = ((1e12, "T"), (1e9, "B"), (1e6, "M"))


def _finite(value) -> float:
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"cannot format {value!r} for readers")
    return value


def _sig(value: float, digits: int = 3, separators: bool = True) -> str:
    """``value`` to ``digits`` significant digits in positional notation, trailing zeros after
    the decimal point dropped: 0.06823 -> '0.0682', 1234.5 -> '1,235' (never '1.23e+03')."""
    if value == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    text = f"{value:,.{decimals}f}" if separators else f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def power_of_ten(value: float, digits: int = 3) -> str:
    """Scientific notation for people: 5.98e26 -> '5.98 × 10²⁶' (no 'e+26')."""
    value = _finite(value)
    if value == 0:
        return "0"
    exponent = math.floor(math.log10(abs(value)))
    mantissa = round(value / 10 ** exponent, digits - 1)
    if abs(mantissa) >= 10:  # 9.999 rounded up to 10.0
        mantissa, exponent = mantissa / 10, exponent + 1
    head = _sig(mantissa, digits)
    return f"{head} × 10{str(exponent).translate(SUPERSCRIPT)}" if exponent else head


def number(value, digits: int = 3) -> str:
    """A plain number: ``digits`` significant digits below 100 (0.0682, 1.29, 42.5), whole numbers
    with separators from 100 (1,402), powers of ten from 10¹⁵ (1.2 × 10¹⁸)."""
    value = _finite(value)
    if abs(value) >= 1e15:
        return power_of_ten(value, digits)
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return _sig(value, digits)


def plain(value, digits: int = 6) -> str:
    """A value as given, to ``digits`` significant digits, never in e-notation (a parameter's
    value: 31250.0 -> '31,250', 0.078 -> '0.078', 1e-05 -> '0.00001'); powers of ten from 10¹⁵."""
    value = _finite(value)
    if abs(value) >= 1e15:
        return power_of_ten(value, digits)
    return _sig(value, digits)


def money(value, digits: int = 3) -> str:
    """US dollars: '$0.038', '$1.95', '$38.20', '$212,500', '$3.1M', '$2.13B'. From $10,000 on at
    most four significant digits ('$54,170', not '$54,167'): no dollar figure in the book is known
    to the dollar at that size."""
    value = _finite(value)
    sign, v = ("-" if value < 0 else ""), abs(value)
    if 1e4 <= v < 1e6:
        v = float(f"{v:.4g}")
    if v >= 1e6:
        scale, suffix = next((s, x) for s, x in _MONEY if v >= s)
        if v / scale >= 1000:  # beyond trillions
            return f"{sign}${power_of_ten(v, digits)}"
        return f"{sign}${_sig(v / scale, digits)}{suffix}"
    if v >= 100:
        return f"{sign}${v:,.0f}"
    if v >= 1:
        return f"{sign}${v:,.2f}"
    if v == 0:
        return "$0"
    if v >= 0.001:  # a tenth of a cent, at least two decimals: $0.038, $0.55
        text = f"{v:.3f}"
        return f"{sign}${text[:-1] if text.endswith('0') else text}"
    return f"{sign}${_sig(v, 2)}"


def count(value) -> str:
    """A count: an integer with separators ('11', '2,304'); from a million on, in words
    ('15.8 billion'). An expected count (a mean: 628.95 interruptions, 87.6 GPUs failing an hour)
    rounds to a whole number from 10 on, and keeps three significant digits below ('0.5')."""
    value = _finite(value)
    for scale, word in _WORDS:
        if abs(value) >= scale:
            return f"{_sig(value / scale, 3)} {word}"
    if abs(value - round(value)) > 1e-6 * max(1.0, abs(value)) and abs(value) < 10:
        return _sig(value, 3)
    return f"{int(round(value)):,}"


def plural(n, singular: str, plural_form: str | None = None, fmt=None) -> str:
    """'1 month', '2 months', '1.5 days', '0 rows'. ``fmt`` formats the number (default: count for
    whole numbers, three significant digits otherwise); ``plural_form`` overrides the 's'."""
    n = _finite(n)
    if fmt is None:
        fmt = count if float(n).is_integer() else number
    word = singular if n == 1 else (plural_form or PLURALS.get(singular) or _pluralise(singular))
    return f"{fmt(n)} {word}"


def _pluralise(word: str) -> str:
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def percent(fraction, digits: int | None = None) -> str:
    """A fraction as a percentage, with the book's spacing: 0.381 -> '38.1 %', 0.35 -> '35 %',
    0.0682 -> '6.8 %', 0.00042 -> '0.042 %'. ``digits`` fixes the decimals."""
    value = _finite(fraction) * 100
    if digits is not None:
        return f"{value:,.{digits}f} %"
    if value == 0:
        return "0 %"
    if abs(value) >= 10:
        text = f"{value:,.1f}"
    elif abs(value) >= 0.1:
        text = f"{value:.2g}" if abs(value) < 1 else f"{value:.1f}"
    else:
        text = _sig(value, 2)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text} %"


def times(value, digits: int = 3) -> str:
    """A multiple: 2.289 -> '2.29x', 1200 -> '1,200x'."""
    return f"{number(value, digits)}x"


def ratio(value, digits: int = 3) -> str:
    """A dimensionless ratio such as PUE: 1.3 -> '1.3'."""
    return number(value, digits)


def flop(value, unit: str = "FLOP", digits: int = 3) -> str:
    """A FLOP count for people: 5.98e26 -> '5.98 × 10²⁶ FLOP' (below a million: '512 FLOP')."""
    value = _finite(value)
    text = power_of_ten(value, digits) if abs(value) >= 1e6 else number(value, digits)
    return f"{text} {unit}".strip()


def year(value) -> str:
    """A calendar year, no separator: 2010.0 -> '2010'."""
    return str(int(round(_finite(value))))


def is_money_unit(unit: str) -> bool:
    return unit.strip().startswith(("USD", "$"))


_PER = {"yr": "year", "GPU": "GPU", "kWh": "kWh", "server": "server", "rack": "rack",
        "GPU-hour": "GPU-hour", "GPU-month": "GPU-month", "day": "day"}


def _money_unit(rest: str) -> str:
    """'USD/GPU' -> 'per GPU', 'USD per 1e18 FLOP' -> 'per 10¹⁸ FLOP', 'USD' -> ''."""
    rest = rest.strip()
    if rest.startswith("/"):
        rest = "per " + rest[1:].strip()
    rest = re.sub(r"\bper yr\b|/yr\b", "per year", rest)
    rest = re.sub(r"\b1e(\d+)\b", lambda m: "10" + m.group(1).translate(SUPERSCRIPT), rest)
    return rest


def _unit_for(unit: str, value: float) -> str:
    """The unit's singular or plural form to go with ``value``."""
    if value == 1 and unit in SINGULARS:
        return SINGULARS[unit]
    if value != 1 and unit in PLURALS and unit not in SINGULARS:
        return PLURALS[unit]
    return unit


_UNIT_LABELS = {"fraction": "share, 0 to 1", "x": "times", "USD": "US dollars"}


def unit_label(unit: str) -> str:
    """A unit as a table heading or parameter list shows it to readers: 'fraction' -> 'share, 0 to
    1', 'fraction of IT' -> 'share of IT, 0 to 1', 'USD/kWh' -> 'US dollars per kWh'."""
    unit = (unit or "").strip()
    if unit in _UNIT_LABELS:
        return _UNIT_LABELS[unit]
    if unit.startswith("fraction"):
        rest = unit[len("fraction"):].strip().replace("/yr", "per year").lstrip("/ ")
        return f"share {rest}, 0 to 1"
    if unit.startswith("USD"):
        rest = _money_unit(unit[3:])
        return f"US dollars {rest}".strip()
    return unit


def param_value(value, unit: str) -> str:
    """A parameter's value as entered, with its reading for fractions: 0.35 -> '0.35 (35 %)'."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        text = str(value) if (unit or "").strip() in ("seed", "year") else f"{value:,}"
    else:
        text = plain(value)
    if (unit or "").strip().startswith("fraction"):
        text += f" ({percent(value)})"
    return text


_ENOTATION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)e([+-]?\d+)\b", re.I)


def humanize(text) -> str:
    """Free text (a data note, a claim) with e-notation rewritten for people:
    '1.98e20 x 0.35' -> '1.98 × 10²⁰ x 0.35'. Other text is unchanged."""
    if not isinstance(text, str):
        return text
    return _ENOTATION.sub(lambda m: power_of_ten(float(m.group(0)), 4), text)


def result_value(value, unit: str) -> str:
    """A chapter's result as its answer box (and ``python -m analysis run``) shows it: a
    dimensionless ratio as a multiple ('1.73x'), anything else as :func:`format_quantity` writes it
    ('$31,250 per GPU', '139 MW', '35 %')."""
    if (unit or "").strip() in ("ratio", ""):
        return times(value)
    return format_quantity(value, unit)


def format_quantity(value, unit: str) -> str:
    """``value`` with its unit, for readers; picks the format from the unit string:

    ========================================  =============================================
    unit                                      example
    ========================================  =============================================
    ``USD``, ``USD per GPU-hour``, ``USD/kWh``  '$124M', '$1.42 per GPU-hour', '$0.078 per kWh'
    ``fraction``, ``fraction of IT``           '35 %', '10 % of IT'
    ``fraction per year``, ``fraction/yr``     '9 % per year'
    ``x``                                      '2.29x'
    ``ratio``                                  '1.3'
    ``FLOP``, ``FLOP/token``                   '5.98 × 10²⁶ FLOP'
    ``GPUs``, ``rows``, ``claims``, ``count``  '100,000 GPUs', '1 row', '18'
    ``days``, ``months``, ``household-years``  '1 month', '4.2 days'
    ``year`` (a calendar year)                 '2010'
    anything else (``W``, ``MW``, ``TWh/yr``)   '1,402 W', '1.59 TWh/yr'
    ========================================  =============================================
    """
    value = _finite(value)
    unit = (unit or "").strip()
    if is_money_unit(unit):
        rest = _money_unit(unit[3:] if unit.startswith("USD") else unit[1:])
        return f"{money(value)} {rest}".strip()
    if unit.startswith("fraction"):
        rest = unit[len("fraction"):].strip()
        if rest.startswith("/"):
            rest = "per " + {"yr": "year"}.get(rest[1:].strip(), rest[1:].strip())
        return f"{percent(value)} {rest}".strip()
    if unit in ("%", "percent"):
        return percent(value / 100)
    if unit == "x":
        return times(value)
    if unit in ("ratio", ""):
        return ratio(value)
    if unit.startswith("FLOP"):
        return flop(value, unit)
    if unit in ("year", "calendar year", "launch year"):
        return year(value)
    if unit in ("count", "number"):
        return count(value)
    if is_count_unit(unit):
        whole = float(value).is_integer() or abs(value) >= 1e6
        return f"{count(value) if whole else number(value)} {_unit_for(unit, value)}"
    if unit in PLURALS or unit in SINGULARS:
        return f"{number(value)} {_unit_for(unit, value)}"
    return f"{number(value)} {unit}"
