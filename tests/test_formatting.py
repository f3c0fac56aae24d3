"""The one number-formatting layer (analysis.page.formatting): money, counts, fractions, FLOP, years,
plurals, and format_quantity's choice by unit."""

import math
import re

import pytest

from analysis.page import formatting as F

SCI = re.compile(r"\d\.?\d*e[+-]?\d+", re.I)


@pytest.mark.parametrize("value, expected", [
    (0, "$0"), (0.038, "$0.038"), (0.0004, "$0.0004"), (1.95, "$1.95"), (38.2, "$38.20"),
    (162_984.4, "$163,000"), (54_166.67, "$54,170"), (31_250, "$31,250"), (212_500, "$212,500"), (3.1e6, "$3.1M"), (124_600_000, "$125M"),
    (2.126e9, "$2.13B"), (0.55, "$0.55"), (4.2e12, "$4.2T"), (-5, "-$5.00"), (999_999, "$1M"), (9_999.4, "$9,999"),
])
def test_money(value, expected):
    assert F.money(value) == expected


@pytest.mark.parametrize("value, expected", [
    (11.0, "11"), (2304, "2,304"), (100_000, "100,000"), (15.8e9, "15.8 billion"), (2.5e6, "2.5 million"),
])
def test_count(value, expected):
    assert F.count(value) == expected


def test_an_expected_count_is_rounded_for_readers():
    """A mean count (628.95 expected interruptions) prints whole from 10 on; below, 3 digits."""
    assert F.count(628.95) == "629" and F.count(87.6) == "88" and F.count(0.5) == "0.5"


@pytest.mark.parametrize("n, word, expected", [
    (1, "month", "1 month"), (2, "month", "2 months"), (1.0, "row", "1 row"), (0, "row", "0 rows"),
    (1.5, "day", "1.5 days"), (3, "household-year", "3 household-years"), (2, "GPU", "2 GPUs"),
    (2, "claim", "2 claims"), (2, "entry", "2 entries"),
])
def test_plural(n, word, expected):
    assert F.plural(n, word) == expected


@pytest.mark.parametrize("value, expected", [
    (0.381, "38.1 %"), (0.35, "35 %"), (0.0682, "6.8 %"), (0.005, "0.5 %"), (0.00042, "0.042 %"), (1.0, "100 %"),
])
def test_percent(value, expected):
    assert F.percent(value) == expected


def test_percent_with_fixed_digits():
    assert F.percent(0.3808, 1) == "38.1 %"


@pytest.mark.parametrize("value, expected", [
    (5.98e26, "5.98 × 10²⁶"), (1e18, "1 × 10¹⁸"), (9.999e20, "1 × 10²¹"), (-3.2e-5, "-3.2 × 10⁻⁵"),
])
def test_power_of_ten(value, expected):
    assert F.power_of_ten(value) == expected


def test_flop_counts_for_people():
    assert F.flop(5.98e26) == "5.98 × 10²⁶ FLOP"
    assert F.flop(512) == "512 FLOP"


def test_year_has_no_separator():
    assert F.year(2010.0) == "2010"


@pytest.mark.parametrize("value, unit, expected", [
    (2.125e5, "USD", "$212,500"), (3.1e6, "USD", "$3.1M"), (1.42, "USD per GPU-hour", "$1.42 per GPU-hour"),
    (0.078, "USD/kWh", "$0.078 per kWh"), (31_250, "USD/GPU", "$31,250 per GPU"),
    (1.2e8, "USD/yr", "$120M per year"), (0.55, "USD per 1e18 FLOP", "$0.55 per 10¹⁸ FLOP"),
    (0.0682, "fraction", "6.8 %"), (0.1, "fraction of IT", "10 % of IT"), (0.09, "fraction/yr", "9 % per year"),
    (0.09, "fraction per year", "9 % per year"), (2.289, "x", "2.29x"), (1.3, "ratio", "1.3"),
    (5.98e26, "FLOP", "5.98 × 10²⁶ FLOP"), (11.0, "claims", "11 claims"), (1.0, "rows", "1 row"),
    (1.0, "months", "1 month"), (2.0, "months", "2 months"), (100_000, "GPUs", "100,000 GPUs"),
    (1, "GPUs", "1 GPU"), (18, "count", "18"), (1402.3, "W", "1,402 W"), (1.594, "TWh/yr", "1.59 TWh/yr"),
    (150.2, "MW", "150 MW"), (2010, "year", "2010"), (4.21, "days", "4.21 days"), (2.5, "GPUs", "2.5 GPUs"),
    (15.8e9, "tokens", "15.8 billion tokens"), (0.42, "J/token", "0.42 J/token"),
])
def test_format_quantity_picks_by_unit(value, unit, expected):
    assert F.format_quantity(value, unit) == expected


@pytest.mark.parametrize("unit", ["USD", "USD per GPU-hour", "GPUs", "rows", "W", "MW", "days", "x", "fraction"])
@pytest.mark.parametrize("value", [1e-7, 0.003, 1.0, 7.5, 123.0, 2.125e5, 3.1e6, 5.98e13, 7e17])
def test_no_scientific_notation_outside_flop(value, unit):
    text = F.format_quantity(value, unit)
    assert not SCI.search(text), text
    if F.is_count_unit(unit) and float(value).is_integer() and value < 1e6:
        assert not re.search(r"\d\.0\b", text), text


def test_non_finite_is_refused():
    with pytest.raises(ValueError):
        F.format_quantity(math.nan, "USD")


def test_humanize_rewrites_e_notation_in_text():
    assert F.humanize("1.98e20 x 0.35 x 8.64e6 s = 5.98e26.") == "1.98 × 10²⁰ x 0.35 x 8.64 × 10⁶ s = 5.98 × 10²⁶."
    assert F.humanize("~2.15e25 BF16 FLOP, h100_sxm and e5m2") == "~2.15 × 10²⁵ BF16 FLOP, h100_sxm and e5m2"
