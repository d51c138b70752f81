"""How seqform writes a count, in text and in JSON, however large.

Counts (pure strategies, matrix entries, tree nodes) are exact Python integers, and exact
payoffs are ``Fraction``\\ s, so either may have thousands of digits (Leduc with 13 ranks
has about ``10^6000`` pure strategy profiles), which Python refuses to turn into a string past
4 300 digits.  Such a number is written by its base-10 logarithm, computed without the
digits:

* in text, :func:`count_text`, exact with thousands separated by commas (``"4,096"``) up to
  :data:`EXACT_DIGITS` digits, else :func:`about_text` (``"≈ 10^190.3"``, the one way any
  huge number is written; an exponent from 10,000 up has its thousands separated too,
  ``"≈ 10^6,516,016.0"``); an exact number (a payoff, a scale): :func:`number_text`, exactly
  while its text is short;
* a count too large to compute exactly (:class:`LogCount`, Rhode Island hold'em's
  ``10^(10^7)`` pure strategies): its base-10 logarithm, summed from its factors
  (:func:`count_product`), and written as any huge count is;
* in JSON, :func:`count_json`: ``{"exact": str | null, "log10": float}``, ``"exact"`` null
  for a :class:`LogCount` or beyond :data:`JSON_EXACT_DIGITS` digits.

Values, probabilities and the other numbers are :mod:`seqform.base.numbers`'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

__all__ = [
    "EXACT_DIGITS",
    "JSON_EXACT_DIGITS",
    "Count",
    "LogCount",
    "about_text",
    "count_at_most",
    "count_json",
    "count_log10",
    "count_plus",
    "count_power",
    "count_product",
    "count_text",
    "is_short",
    "number_text",
]

EXACT_DIGITS = 30
"""Counts with more digits are written as ``≈ 10^k``."""

JSON_EXACT_DIGITS = 1000
"""Counts with more digits have no ``"exact"`` string in JSON (only ``"log10"``)."""


@dataclass(frozen=True)
class LogCount:
    """A positive count known only by its base-10 logarithm: one whose digits would take
    too long to compute (``36^6,516,016``), and which would be written as ``≈ 10^k`` anyway.

    log10 : ``log10`` of the count, computed from its factors (:func:`count_product`)
    """

    log10: float


Count: TypeAlias = int | LogCount
"""A count: an exact integer, or a :class:`LogCount` when exact is out of reach."""


def count_log10(count: Count) -> float:
    """``log10(count)`` for an arbitrarily large positive integer (0 gives ``-inf``), or a
    :class:`LogCount`'s logarithm."""
    if isinstance(count, LogCount):
        return count.log10
    return math.log10(count) if count > 0 else float("-inf")


def is_short(count: Count, max_digits: int = EXACT_DIGITS) -> bool:
    """Whether ``count`` has at most ``max_digits`` digits (never converts it to a string,
    which Python refuses above 4 300 digits); a :class:`LogCount` never is."""
    if isinstance(count, LogCount):
        return False
    return abs(count) < 10**max_digits


def count_product(*counts: Count, max_digits: int = JSON_EXACT_DIGITS) -> Count:
    """The product of ``counts``: exact while it has at most ``max_digits`` digits (beyond
    them it is written by its logarithm anyway), else the :class:`LogCount` whose logarithm
    is the sum of the factors' (the digits are never computed)."""
    exact = [count for count in counts if isinstance(count, int)]
    if len(exact) == len(counts) and sum(count_log10(c) for c in exact if c > 0) < max_digits:
        return math.prod(exact)
    if any(count == 0 for count in counts):
        return 0
    return LogCount(math.fsum(count_log10(count) for count in counts))


def count_power(base: Count, exponent: int, max_digits: int = JSON_EXACT_DIGITS) -> Count:
    """``base ** exponent`` as :func:`count_product` gives it: exact while at most
    ``max_digits`` digits, else by its logarithm ``exponent · log10(base)``."""
    if isinstance(base, int) and (
        base == 0 or exponent == 0 or exponent * count_log10(base) < max_digits
    ):
        return base**exponent
    return LogCount(exponent * count_log10(base))


def count_plus(count: Count, more: Count) -> Count:
    """``count + more``, exact when both are, else by its logarithm
    (``h + log10(1 + 10^(l - h))`` for the larger logarithm ``h`` and the smaller ``l``)."""
    if isinstance(count, int) and isinstance(more, int):
        return count + more
    high, low = sorted((count_log10(count), count_log10(more)), reverse=True)
    return LogCount(high + math.log10(1 + 10 ** (low - high)))


def count_at_most(count: Count, limit: int) -> bool:
    """Whether ``count <= limit``; a :class:`LogCount` is compared by its logarithm (it has
    more than :data:`JSON_EXACT_DIGITS` digits, so any limit it is near is one too)."""
    if isinstance(count, LogCount):
        return limit > 0 and count.log10 <= count_log10(limit)
    return count <= limit


def about_text(log10: float, negative: bool = False) -> str:
    """A number known by its base-10 logarithm: ``"≈ 10^190.3"``, or ``"≈ -10^190.3"``; an
    exponent from 10,000 up with its thousands separated, ``"≈ 10^6,516,016.0"``."""
    exponent = f"{log10:,.1f}" if abs(log10) >= 10_000 else f"{log10:.1f}"
    return f"≈ {'-' if negative else ''}10^{exponent}"


def count_text(count: Count, max_digits: int = EXACT_DIGITS) -> str:
    """Any count, however large: exact with thousands separated by commas (``"4,096"``), or
    :func:`about_text` (``"≈ 10^190.3"``) when it has more than ``max_digits`` digits.

    Parameters
    ----------
    count
        A non-negative integer.
    max_digits
        Counts with more digits than this are written as a power of ten.
    """
    if isinstance(count, LogCount) or not is_short(count, max_digits):
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


def count_json(count: Count) -> dict[str, str | float | None]:
    """A count for JSON: ``{"exact": str | null, "log10": float}``.

    ``"exact"`` is the integer's digits as a string, or ``null`` when it has more than
    :data:`JSON_EXACT_DIGITS` digits or is a :class:`LogCount`; ``"log10"`` is always given.
    """
    exact = str(count) if is_short(count, JSON_EXACT_DIGITS) else None
    return {"exact": exact, "log10": count_log10(count)}
