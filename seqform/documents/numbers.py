"""How a JSON document writes a number.

JSON has floats, and Python refuses to write an integer of over 4 300 digits, while
seqform's numbers are floats, exact ``Fraction``\\ s and counts of any size.  A document
writes:

* a value that may be exact (:func:`json_number`): a ``Fraction`` as its string
  (``"-1/18"``), anything else as a float;
* a value given as a float whatever it is (:func:`json_float`): the nearest float, or
  ``null`` beyond the float range (an exact payoff of ``1e400``; an exact key beside it holds
  the number);
* an integer limit (:func:`json_int`): the integer, or ``null`` when it has more than
  :data:`~seqform.base.numbers.JSON_EXACT_DIGITS` digits (its ``log10`` is given beside it);
* a count: :func:`seqform.base.numbers.count_json`, ``{"exact": str | null, "log10": float}``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Rational
from typing import Any

from seqform.base.numbers import JSON_EXACT_DIGITS, is_short
from seqform.game.checks import float_of

__all__ = ["json_float", "json_int", "json_number"]


def json_number(value: Any) -> Any:
    """A Fraction as its string (``"-1/18"``), anything else as a float."""
    return str(Fraction(value)) if isinstance(value, Fraction) else float(value)


def json_float(value: Any) -> float | None:
    """A number for JSON: the nearest float, or ``None`` (``null``) beyond the floats."""
    number = float_of(value) if isinstance(value, Rational) else float(value)
    return number if math.isfinite(number) or math.isnan(number) else None


def json_int(count: int) -> int | None:
    """An integer for JSON, or ``None`` when it has more than
    :data:`~seqform.base.numbers.JSON_EXACT_DIGITS` digits."""
    return count if is_short(count, JSON_EXACT_DIGITS) else None
