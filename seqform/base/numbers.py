"""How seqform writes a number too large to print in full: one rule, one place.

Counts (pure strategies, matrix entries, tree nodes) are exact Python integers and exact
payoffs are ``Fraction``\\ s, so either may have thousands of digits (Leduc with 13 ranks has
about ``10^6000`` pure strategy profiles), which Python refuses to turn into a string past
4 300 digits.  Such a number is written by its base-10 logarithm, computed without the
digits:

* :func:`about_text`: ``"≈ 10^190.3"`` (``"≈ -10^309.0"`` for a negative number): the one
  way any huge number is written;
* :func:`count_text`: a count, exact with thousands separated by commas (``"4,096"``) up to
  :data:`EXACT_DIGITS` digits, else :func:`about_text`;
* :func:`number_text`: an exact number (a payoff, a scale) exactly while its text is short,
  else :func:`about_text`;
* :func:`count_json`: a count for JSON, ``{"exact": str | null, "log10": float}``;
* :func:`matching_fraction`, :func:`fraction_text`: the small fraction a float stands for
  (``-0.0555…`` is ``-1/18``), the one rule the reports and the JSON documents share.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = [
    "EXACT_DIGITS",
    "FRACTION_TOLERANCE",
    "JSON_EXACT_DIGITS",
    "MAX_DENOMINATOR",
    "READABLE_DENOMINATOR",
    "about_text",
    "count_json",
    "count_log10",
    "count_text",
    "fraction_text",
    "is_readable",
    "is_short",
    "matching_fraction",
    "number_text",
]

EXACT_DIGITS = 30
"""Counts with more digits are written as ``≈ 10^k``."""

JSON_EXACT_DIGITS = 1000
"""Counts with more digits have no ``"exact"`` string in JSON (only ``"log10"``)."""

FRACTION_TOLERANCE = 1e-9
"""A float stands for a fraction when it is this close to it."""

MAX_DENOMINATOR = 1000
"""The largest denominator of the fraction a float is taken to stand for."""

READABLE_DENOMINATOR = 10**6
"""Fractions with longer denominators are shown as decimals outside exact runs."""


def count_log10(count: int) -> float:
    """``log10(count)`` for an arbitrarily large positive integer (0 gives ``-inf``)."""
    return math.log10(count) if count > 0 else float("-inf")


def is_short(count: int, max_digits: int = EXACT_DIGITS) -> bool:
    """Whether ``count`` has at most ``max_digits`` digits (never converts it to a string,
    which Python refuses above 4 300 digits)."""
    return abs(count) < 10**max_digits


def about_text(log10: float, negative: bool = False) -> str:
    """A number known by its base-10 logarithm: ``"≈ 10^190.3"``, or ``"≈ -10^190.3"``."""
    return f"≈ {'-' if negative else ''}10^{log10:.1f}"


def count_text(count: int, max_digits: int = EXACT_DIGITS) -> str:
    """Any count, however large: exact with thousands separated by commas (``"4,096"``), or
    :func:`about_text` (``"≈ 10^190.3"``) when it has more than ``max_digits`` digits.

    Parameters
    ----------
    count
        A non-negative integer.
    max_digits
        Counts with more digits than this are written as a power of ten.
    """
    if not is_short(count, max_digits):
        return about_text(count_log10(count))
    return f"{count:,}"


def number_text(number: Fraction, digits: int = 24) -> str:
    """``number`` exactly (``"-1/18"``) when numerator and denominator have at most
    ``digits`` digits, else :func:`about_text` of its magnitude (``"≈ 10^309.0"``)."""
    if number == 0:
        return "0"
    if max(abs(number.numerator), number.denominator) < 10**digits:
        return str(number)
    magnitude = count_log10(abs(number.numerator)) - count_log10(number.denominator)
    return about_text(magnitude, negative=number < 0)


def count_json(count: int) -> dict[str, str | float | None]:
    """A count for JSON: ``{"exact": str | null, "log10": float}``.

    ``"exact"`` is the integer's digits as a string, or ``null`` when it has more than
    :data:`JSON_EXACT_DIGITS` digits; ``"log10"`` is always given.
    """
    exact = str(count) if is_short(count, JSON_EXACT_DIGITS) else None
    return {"exact": exact, "log10": count_log10(count)}


def matching_fraction(
    value: float, max_denominator: int = MAX_DENOMINATOR, tol: float = FRACTION_TOLERANCE
) -> Fraction | None:
    """The fraction with denominator ``<= max_denominator`` within ``tol`` of ``value``, or
    ``None`` when there is none (always for ``nan`` and infinities)."""
    if not math.isfinite(value):
        return None
    candidate = Fraction(value).limit_denominator(max_denominator)
    return candidate if abs(float(candidate) - value) <= tol else None


def is_readable(value: Fraction) -> bool:
    """Whether ``value`` is short enough to show as a fraction everywhere: denominator up to
    :data:`READABLE_DENOMINATOR` (a long one read from a file's decimals is not)."""
    return value.denominator <= READABLE_DENOMINATOR


def fraction_text(value: float) -> str | None:
    """``"-1/18"`` for -0.0555…, ``"0"`` for 0.0, ``None`` when no small fraction matches
    (:func:`matching_fraction` with its defaults)."""
    fraction = matching_fraction(value)
    return None if fraction is None else str(fraction)
