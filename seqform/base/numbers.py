"""How seqform writes a value, a probability or a fraction, in text and in JSON: one rule
per kind of number.  Counts (pure strategies, matrix entries, tree nodes), however large,
are :mod:`seqform.base.counts`'.

In text (every report and message):

* a value (a game value, an expected payoff, a gain): :func:`value_text`, ten places (ten
  significant digits below :data:`SMALLEST_FIXED`, however small, so that only 0 is written
  as 0; fifteen from :data:`LARGEST_FIXED` up, the digits a float carries) and the
  fraction it equals, ``-0.0555555556 (= -1/18)``, or is near (``≈``: a float within
  :data:`FRACTION_TOLERANCE` of it but not within :data:`EQUAL_TOLERANCE`);
* a value beside its scale (the game's payoff range, a spot's pot), in a report that writes
  values to a fixed number of places (a lock table, a spot's EV, ``play``'s totals):
  :func:`scaled_text`, those places while the scale is ordinary (``7.5818``), else significant
  digits down to ``10^-places`` of the scale (``7.582e-12`` for a pot of ``1e-11``), and a
  value within :data:`SCALE_ROUND_OFF` of the scale (:func:`is_round_off`) as 0; a value
  with a fraction beside its scale: :func:`value_text` with ``scale``, round-off as ``≈ 0``
  and no fraction the scale's round-off could fake (``+0.03125 (= 1/32)`` for a gain of
  round-off in a game of payoffs ``10^15``); a small number whose size is the news (an
  exploitability, a NashConv, a gap): :func:`scaled_text` with ``digits``, significant
  digits in scientific notation (``8.74e-05``) and round-off beside the scale as ``≈ 0``;
* a probability: :func:`probability_text`, four places and a small fraction
  (``0.6667 (2/3)``); in exact runs the fraction alone (:func:`exact_probability_text`).

The fraction shown beside a float (:func:`matching_fraction`, :func:`fraction_text`) is the
one with the smallest denominator up to ``max_denominator`` within ``tol`` of it
(``-0.0555…`` is ``-1/18``); a float with no such fraction is shown alone.  A ``Fraction`` is
shown as a fraction when it is readable (denominator up to :data:`READABLE_DENOMINATOR`,
:func:`is_readable`) or comes from an exact run; a long one outside an exact run (a decimal
of a strategy file read exactly) is shown as the decimal it stands for, with the small
fraction that matches.

In JSON (every document):

* a value that may be exact (:func:`json_number`): a ``Fraction`` as its string
  (``"-1/18"``), anything else as a float;
* a value given as a float whatever it is (:func:`json_float`): the nearest float
  (:func:`float_of`), or ``null`` beyond the float range (an exact key beside it holds the
  number);
* an integer limit (:func:`json_int`): the integer, or ``null`` beyond
  :data:`~seqform.base.counts.JSON_EXACT_DIGITS` digits.
"""

from __future__ import annotations

import decimal
import math
import sys
from fractions import Fraction
from numbers import Rational
from typing import Any

from seqform.base.counts import JSON_EXACT_DIGITS, is_short

__all__ = [
    "EQUAL_TOLERANCE",
    "FRACTION_TOLERANCE",
    "LARGEST_FIXED",
    "MAX_DENOMINATOR",
    "READABLE_DENOMINATOR",
    "SCALE_ROUND_OFF",
    "SMALLEST_FIXED",
    "decimal_text",
    "exact_probability_text",
    "float_of",
    "fraction_text",
    "is_readable",
    "is_round_off",
    "json_float",
    "json_int",
    "json_number",
    "matching_fraction",
    "probability_text",
    "scaled_text",
    "short_number",
    "value_text",
]

FRACTION_TOLERANCE = 1e-9
"""A float stands for a fraction when it is this close to it."""

EQUAL_TOLERANCE = 1e-12
"""A float is written as equal to its fraction (``=``, else ``≈``) when it is this close to
it, relative to ``max(1, |value|)``: a simplex vertex is that accurate, an interior point
or a file's ten decimals (``0.3333333333``) are not."""

SMALLEST_FIXED = 1e-4
"""Values smaller than this, and not 0, are written with ten significant digits,
``-5.555555556e-08``: in ten fixed places Kuhn poker in millionths of a chip kept three
digits of its value, and in billionths none (``-0.0000000001``).  There is no floor: what is
round-off depends on the game's payoffs, which a value does not know (Kuhn poker in
``1e-15`` chips has the value ``-5.555555556e-17``), so only 0 is written as 0."""

LARGEST_FIXED = 1e5
"""Values from this size up are written with :data:`FLOAT_DIGITS` significant digits, not
ten places: a float carries 15 to 17 significant digits, so ten places of ``1e9 / 3`` were
float noise (``333333333.3333333135``); from ``10^15`` in scientific notation
(``+3.33333333333333e+19``, not ``33333333333333331968``)."""

FLOAT_DIGITS = 15
"""The significant digits every float carries (``sys.float_info.dig``)."""

SCALE_ROUND_OFF = EQUAL_TOLERANCE
"""A float within this share of its scale (the game's payoff range, a spot's pot) of 0 is
round-off (:func:`is_round_off`): the certificate, whose tolerance is 1e-9 of the payoff
range, never tells such a value from 0, and a float computation in that game is no closer."""

COARSEST_PLACE = 1e-2
"""Fixed places are written while their last place is at most this share of the scale
(:func:`scaled_text`): four places show a pot of 0.01 to 1 % of it, and a pot of ``1e-11``
not at all (``0.0000``)."""

MAX_DENOMINATOR = 1000
"""The largest denominator of the fraction a float is taken to stand for."""

READABLE_DENOMINATOR = 10**6
"""Fractions with longer denominators are shown as decimals outside exact runs."""


def matching_fraction(
    value: float, max_denominator: int = MAX_DENOMINATOR, tol: float = FRACTION_TOLERANCE
) -> Fraction | None:
    """The fraction with denominator ``<= max_denominator`` within ``tol`` of ``value``, or
    ``None`` when there is none (always for ``nan`` and infinities).

    Two guards keep the match a claim the float can support, whatever the payoff unit:
    a value that is not 0 matches 0 only at round-off's level (:data:`EQUAL_TOLERANCE`;
    Kuhn poker in billionths of a chip, value ``-5.6e-11``, was written as ``0``); and a
    fraction that is not whole is matched only where the float's spacing is finer than half
    the distance between two such fractions (``1 / max_denominator²``), so below about
    ``2·10^9`` for the default: beyond it any value has such a fraction among its neighbours
    (a CFR estimate of ``-5.6e10`` was written as ``-39056446220269/703``).
    """
    if not math.isfinite(value):
        return None
    candidate = Fraction(value).limit_denominator(max_denominator)
    if candidate == 0 and abs(value) > EQUAL_TOLERANCE:
        return None
    if candidate.denominator > 1 and 2 * math.ulp(value) * max_denominator**2 > 1:
        return None
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


def float_of(number: Rational) -> float:
    """``number`` as the nearest float, or ``±inf`` beyond the float range (about
    ``1.8e308``), where ``float()`` raises ``OverflowError``; the float routes refuse such
    payoffs (:func:`seqform.game.requirements.require_float_payoffs`), the exact ones keep
    the exact number."""
    try:
        return float(number)
    except OverflowError:
        return math.inf if Fraction(number) > 0 else -math.inf


# --- in text ------------------------------------------------------------------------------------

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


def value_text(value: Any, exact: bool = False, scale: Rational | float | None = None) -> str:
    """The one way to write a value: ``-0.0555555556 (= -1/18)``.

    Ten places with a sign, then the fraction it equals: the value itself when it is a
    ``Fraction`` that is readable (:func:`~seqform.base.numbers.is_readable`) or the answer
    of an exact run (``exact``, however long), else the small fraction within
    :data:`~seqform.base.numbers.FRACTION_TOLERANCE` (a float, or a long fraction read from
    a file's decimals), written ``≈`` unless the value is within :data:`EQUAL_TOLERANCE` of
    it (``+0.3333333333 (≈ 1/3)`` for a file's decimals, which are not 1/3); nothing for a
    whole number or when no small fraction matches.

    Given the ``scale`` of the value (the game's payoff range), a float is also judged by
    it: within :data:`SCALE_ROUND_OFF` of it from 0 it is round-off, written ``≈ 0``
    (:func:`is_round_off`), and a fraction that is not whole is shown only where the
    scale's round-off is finer than half the distance between two such fractions
    (``1 / MAX_DENOMINATOR²``), so below payoff ranges of about ``5·10^5``: in a game of
    payoffs ``10^15`` a gain of round-off, ``0.03125``, is not ``1/32``.  An exact value
    (a ``Fraction``) is what it is at any scale.
    """
    fraction: Fraction | None
    relation = "="
    if isinstance(value, Fraction | int) and (exact or is_readable(Fraction(value))):
        fraction = Fraction(value)
    else:
        number = float(value)
        if number != 0 and scale is not None and is_round_off(number, scale):
            return "≈ 0"
        fraction = matching_fraction(number)
        if fraction is not None and fraction.denominator > 1 and not _fraction_fits(scale):
            fraction = None
        if fraction is not None and not _equal_as_float(number, fraction):
            relation = "≈"
    shown = decimal_text(value)
    if fraction is None or fraction.denominator == 1:
        return shown
    return f"{shown} ({relation} {fraction})"


def _usable_scale(scale: Rational | float | None) -> float | None:
    """``scale`` as a positive finite float, or None when there is none to judge by."""
    if scale is None:
        return None
    number = float_of(scale) if isinstance(scale, Rational) else float(scale)
    return number if math.isfinite(number) and number > 0 else None


def is_round_off(value: float, scale: Rational | float | None) -> bool:
    """Whether ``value`` is round-off beside ``scale`` (the game's payoff range, a spot's
    pot): at most :data:`SCALE_ROUND_OFF` of it from 0.  Nothing is round-off without a
    scale (None, 0, not finite)."""
    size = _usable_scale(scale)
    return size is not None and abs(value) <= SCALE_ROUND_OFF * size


def _fraction_fits(scale: Rational | float | None) -> bool:
    """Whether the round-off of ``scale`` is finer than half the distance between two
    fractions of denominators up to :data:`MAX_DENOMINATOR` (no scale: nothing to judge)."""
    size = _usable_scale(scale)
    return size is None or 2 * SCALE_ROUND_OFF * size * MAX_DENOMINATOR**2 <= 1


def _fixed_fits(places: int, scale: float) -> bool:
    """Whether ``places`` fixed places suit ``scale``: their last place at most
    :data:`COARSEST_PLACE` of it, and not below its round-off (:data:`SCALE_ROUND_OFF`)."""
    last = 10.0**-places
    return SCALE_ROUND_OFF * scale <= last <= COARSEST_PLACE * scale


def scaled_text(
    value: Rational | float,
    scale: Rational | float | None,
    places: int = 4,
    sign: bool = False,
    digits: int | None = None,
) -> str:
    """A value of a report that writes values to ``places`` fixed places, beside its
    ``scale`` (the game's payoff range, a spot's pot): the same text in any unit.

    * While the places suit the scale (their last place at most :data:`COARSEST_PLACE` of
      it and not below its round-off), or without a scale, the fixed places
      (``7.5818``, ``-0.2778``): a report in ordinary units reads as it always has.
    * Otherwise significant digits down to ``10^-places`` of the scale's power of ten (at
      least one, at most :data:`FLOAT_DIGITS`): Kuhn poker's ``-0.2778`` in payoffs of
      ``10^15`` is ``-2.778e+14``, not ``-277777777777777.7500``, and in payoffs of
      ``10^-15`` ``-2.778e-16``, not ``-0.0000``.
    * A float that is round-off beside the scale (:func:`is_round_off`) is 0: the fixed
      places' zero, or ``≈ 0`` (``0`` when it is 0).  An exact value (a ``Fraction``) is
      never round-off.
    * With ``digits``, for a number whose size is the news (an exploitability, a gap), that
      many significant digits in scientific notation (``8.74e-05``), round-off ``≈ 0``:
      not ``2.78e-17`` for Kuhn poker in chips and ``2.91e-11`` in millionths of a chip.

    Parameters
    ----------
    value
        The number to write.
    scale
        What the value is measured against: the payoff range, or a spot's pot; None for
        the fixed places whatever the value.
    places
        The fixed places the report writes in ordinary units.
    sign
        Write ``+`` before a positive value (and before 0).
    digits
        Significant digits in scientific notation instead of ``places`` (None: the
        places).
    """
    number = float_of(value) if isinstance(value, Rational) else float(value)
    plus = "+" if sign else ""
    size = _usable_scale(scale)
    if not math.isfinite(number):
        return f"{number:{plus}}"
    round_off = not isinstance(value, Rational) and number != 0 and is_round_off(number, size)
    if digits is not None and (round_off or number == 0):
        return "≈ 0" if round_off else f"{plus}0"
    if digits is not None:
        return f"{number:{plus}.{digits - 1}e}"
    if round_off:
        number = 0.0
    if size is None or _fixed_fits(places, size):
        text = f"{number:{plus}.{places}f}"
        return f"{0.0:{plus}.{places}f}" if float(text) == 0 else text  # no "-0.0000"
    if number == 0:
        return "≈ 0" if round_off else f"{plus}0"
    last = math.floor(math.log10(size)) - places
    digits = min(max(math.floor(math.log10(abs(number))) - last + 1, 1), FLOAT_DIGITS)
    return f"{number:{plus}.{digits - 1}e}"


def _equal_as_float(value: float, fraction: Fraction) -> bool:
    """Whether ``value`` is within :data:`EQUAL_TOLERANCE` of ``fraction``, relative to
    ``max(1, |value|)``: what a float can show of an equality."""
    return abs(float(fraction) - value) <= EQUAL_TOLERANCE * max(1.0, abs(value))


def decimal_text(value: Any) -> str:
    """A value in decimals, with a sign: ten places (``-0.0555555556``); ten significant digits
    in scientific notation below :data:`SMALLEST_FIXED` however small, so that only 0 is
    written as 0 (``-5.555555556e-17``); :data:`FLOAT_DIGITS` significant digits from
    :data:`LARGEST_FIXED` up (``+333333333.333333``, ``+3.33333333333333e+19``); and an
    exact value beyond the floats (payoffs of 1e309 and more) computed in decimals."""
    try:
        number = float(value)
    except OverflowError:  # an exact value above the floats
        return _exact_scientific(Fraction(value), 11)
    magnitude = abs(number)
    if magnitude < sys.float_info.min and isinstance(value, Rational) and value != 0:
        return _exact_scientific(Fraction(value), 10)  # an exact value below the floats
    if magnitude == 0:
        return f"{0.0:+.10f}"  # -0.0 too: a sign on 0 says nothing
    if SMALLEST_FIXED <= magnitude < LARGEST_FIXED:
        return f"{number:+.10f}"
    if magnitude < SMALLEST_FIXED:
        return f"{number:+.9e}"
    return f"{number:+#.{FLOAT_DIGITS}g}".removesuffix(".")  # '#' keeps the trailing zeros


def _exact_scientific(value: Fraction, digits: int) -> str:
    """``value`` in scientific notation with ``digits`` significant digits, computed in
    decimals (for exact values the floats cannot hold)."""
    with decimal.localcontext() as context:
        context.prec = digits
        return f"{decimal.Decimal(value.numerator) / value.denominator:+.{digits - 1}e}"


# --- in JSON ------------------------------------------------------------------------------------


def json_number(value: Any) -> Any:
    """A Fraction as its string (``"-1/18"``), anything else as a float."""
    return str(Fraction(value)) if isinstance(value, Fraction) else float(value)


def json_float(value: Any) -> float | None:
    """A number for JSON: the nearest float, or ``None`` (``null``) beyond the floats."""
    number = float_of(value) if isinstance(value, Rational) else float(value)
    return number if math.isfinite(number) or math.isnan(number) else None


def json_int(count: int) -> int | None:
    """An integer for JSON, or ``None`` when it has more than
    :data:`~seqform.base.counts.JSON_EXACT_DIGITS` digits."""
    return count if is_short(count, JSON_EXACT_DIGITS) else None
