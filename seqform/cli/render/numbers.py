"""How every command writes a number: the house format.

* A count or size: :func:`count_text`, thousands separated by commas (``1,093``), a power of
  ten beyond 30 digits (``≈ 10^336.7``).
* A value (a game value, an expected payoff, a gain): :func:`value_text`, ten places and the
  fraction it equals, ``-0.0555555556 (= -1/18)``, in every command and certificate.
* A probability: :func:`probability_text`, four places and a small fraction
  (``0.6667 (2/3)``); in exact runs the fraction alone.

The fraction shown beside a float is the one with the smallest denominator up to
``max_denominator`` within ``tol`` of it (``-0.0555555556  (= -1/18)``); a float with no such
fraction is shown alone.

A ``Fraction`` is shown as a fraction when it is readable (denominator up to
:data:`~seqform.base.numbers.READABLE_DENOMINATOR`) or comes from an exact run; a long one
outside an exact run (a decimal of a strategy file read exactly,
``6666666666666667/10000000000000000``) is shown as the decimal it stands for, with the small
fraction that matches (``0.6667 (2/3)``).  The rules for the fraction and for readable are
:mod:`seqform.base.numbers`'s, which the JSON documents share.
"""

from __future__ import annotations

import decimal
from fractions import Fraction
from typing import Any

# The one format of a count (``4,096``; ``≈ 10^336.7`` when long) and the one rule for the
# fraction a float stands for are defined in the room below every other (every room's
# messages and the JSON documents need them); every report takes them from here.
from seqform.base.numbers import count_text, is_readable, matching_fraction

__all__ = [
    "count_text",
    "exact_probability_text",
    "probability_text",
    "short_number",
    "value_text",
]

SHORT_MAX_DENOMINATOR = 100  # fractions shown beside probabilities and in compact cells
SHORT_TOLERANCE = 1e-7


def short_number(value: Any) -> str:
    """Compact: fractions as they are, floats to 4 places (or a small fraction if one matches)."""
    if isinstance(value, Fraction | int):
        return str(Fraction(value))
    exact = matching_fraction(
        float(value), max_denominator=SHORT_MAX_DENOMINATOR, tol=SHORT_TOLERANCE
    )
    return str(exact) if exact is not None else f"{float(value):.4f}"


def probability_text(probability: float, max_denominator: int = SHORT_MAX_DENOMINATOR) -> str:
    """``"0.6667 (2/3)"``: four places, and the fraction when one matches and is not whole."""
    exact = matching_fraction(probability, max_denominator=max_denominator)
    shown = f" ({exact})" if exact is not None and exact.denominator > 1 else ""
    return f"{probability:.4f}{shown}"


def exact_probability_text(probability: Fraction, long_fractions: bool = True) -> str:
    """An exact probability: ``"1/3"``; a long fraction as :func:`probability_text` of its float
    unless ``long_fractions`` (an exact run, whose fractions are the answer)."""
    if long_fractions or is_readable(probability):
        return str(probability)
    return probability_text(float(probability))


def value_text(value: Any, exact: bool = False) -> str:
    """The one way to write a value: ``-0.0555555556 (= -1/18)``.

    Ten places with a sign, then the fraction it equals: the value itself when it is a
    ``Fraction`` that is readable (:func:`~seqform.base.numbers.is_readable`) or the answer
    of an exact run (``exact``, however long), else the small fraction within
    :data:`~seqform.base.numbers.FRACTION_TOLERANCE` (a float, or a long fraction read from
    a file's decimals); nothing for a whole number or when no small fraction matches.
    """
    fraction: Fraction | None
    if isinstance(value, Fraction | int) and (exact or is_readable(Fraction(value))):
        fraction = Fraction(value)
    else:
        fraction = matching_fraction(float(value))
    shown = _decimal_text(value)
    return shown if fraction is None or fraction.denominator == 1 else f"{shown} (= {fraction})"


def _decimal_text(value: Any) -> str:
    """Ten places with a sign; an exact value beyond the floats (payoffs of 1e309 and more)
    in scientific notation, computed in decimals."""
    try:
        return f"{float(value):+.10f}"
    except OverflowError:
        exact = Fraction(value)
        with decimal.localcontext() as context:
            context.prec = 11
            return f"{decimal.Decimal(exact.numerator) / exact.denominator:+.10e}"
