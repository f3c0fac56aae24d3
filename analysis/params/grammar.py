"""The grammar of text a user types, one definition for every door it comes in by.

* Numbers: ``-p NAME VALUE``, the planner's flags and scenario files accept one grammar, ASCII
  decimal (``250000``, ``0.078``, ``1.5e12``). Python's ``float()`` also takes ``1_000`` and digits of
  other scripts (``١٠٠٠``, Arabic-Indic); YAML 1.1 reads ``0100`` as octal 64 and ``1:30`` as 90.
  None of these is what anyone means in a parameter, so each is refused with its reason. The words
  ``inf`` and ``nan`` parse (as a float) so that the caller can say "not finite" about them.
* Shown text: a scenario's name and description appear in the banner of every page, the compare
  table, chart and CSV. Bidirectional controls (U+202A-202E, U+2066-2069, U+200E/F, U+061C) would
  reorder the sentence around them (a right-to-left override makes a warning read backwards), and
  control characters would move a terminal's cursor: both are removed.
* CSV cells: a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a
  formula to a spreadsheet. Such text cells get a leading apostrophe, as OWASP recommends
  (https://owasp.org/www-community/attacks/CSV_Injection).
"""

from __future__ import annotations

import argparse
import math
import re
import unicodedata

from analysis.errors import clip

# ASCII digits only; no leading zero before more digits (YAML 1.1's octal), no '_' separators.
DECIMAL = re.compile(r"[-+]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
NOT_FINITE = re.compile(r"[-+]?\.?(?:inf|infinity|nan)", re.IGNORECASE)
MAX_DIGITS = 400  # more digits than any range needs; Python refuses to convert 4,300 and up

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")
NOT_DECIMAL = "write it in decimal digits"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def why_not_decimal(text: str) -> str | None:
    """``None`` if ``text`` (surrounding spaces aside) is a decimal number or a not-finite word;
    otherwise why not, in a few words."""
    text = text.strip(" \t")
    if DECIMAL.fullmatch(text) or NOT_FINITE.fullmatch(text):
        return None if len(text) <= MAX_DIGITS else f"more than {MAX_DIGITS} characters"
    if "_" in text:
        return "write it without '_' separators"
    if any(c.isdigit() and not c.isascii() for c in text):
        return "write it with the digits 0-9"
    if re.fullmatch(r"[-+]?0[0-9]+(?:\.[0-9]*)?", text):
        return "a leading zero is not allowed (YAML would read 0100 as octal 64)"
    return NOT_DECIMAL


def parse_number(text: str) -> float:
    """``text`` as a float, under :data:`DECIMAL` (or ``inf``/``nan``); ValueError(reason) if not."""
    reason = why_not_decimal(text)
    if reason is not None:
        raise ValueError(reason)
    return float(text.strip(" \t"))


def display_text(text: str) -> str:
    """``text`` safe to show inside a sentence: bidirectional controls and control characters
    removed, runs of whitespace made one space, ends trimmed."""
    text = _BIDI.sub("", text)
    text = "".join(" " if c.isspace() else c for c in text if c.isspace() or unicodedata.category(c) != "Cc")
    return " ".join(text.split())


def csv_cell(text: str) -> str:
    """A text cell that no spreadsheet evaluates: a leading formula character gets an apostrophe."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


# A command-line word that is a value, though it starts with '-': argparse takes "-inf", "-nan" and
# "-1e5" for unknown flags (it knows only plain negative numbers such as "-5"), so ``--gpus -inf``
# would get "expected one argument" instead of the range. No flag of the CLI looks like this.
NEGATIVE_VALUE = re.compile(r"-(?:[\d.]|inf|nan)", re.IGNORECASE)


def number_flag(flag: str, kind=float, low: float = 0.0, high: float = math.inf, low_open: bool = True):
    """An argparse type: a number of ``kind`` in (low, high] (or [low, high]) under the grammar of
    :func:`parse_number`, naming ``flag`` when not."""
    def parse(text: str):
        expects = "an integer" if kind is int else "a number"
        try:
            number = parse_number(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{flag} expects {expects}, got {clip(text)} ({exc})") from None
        if kind is int and math.isfinite(number) and not number.is_integer():
            raise argparse.ArgumentTypeError(f"{flag} expects {expects}, got {clip(text)}")
        if not (number > low if low_open else number >= low) or number > high or not math.isfinite(number):
            bound = f"{'above' if low_open else 'at least'} {_shown(low)}" + (f" and at most {_shown(high)}" if high < math.inf else "")
            raise argparse.ArgumentTypeError(f"{flag} must be {bound}, got {clip(text)}")
        return int(number) if kind is int else number
    return parse


def _shown(bound: float) -> str:
    return f"{bound:,.0f}" if float(bound).is_integer() and abs(bound) < 1e9 else f"{bound:g}"
