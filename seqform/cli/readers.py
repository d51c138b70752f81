"""Readers of option values for the argument parser (:mod:`seqform.cli.parser`): each turns
the text of an option into a number or raises ``argparse.ArgumentTypeError``, which argparse
reports as a usage error (exit 2) naming the option.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from fractions import Fraction

from seqform.base.limits import LIMITS

__all__ = [
    "growth_factor",
    "max_entries",
    "opponent_name",
    "positive_number",
    "positive_seconds",
    "whole_number",
]


def positive_seconds(text: str) -> float:
    """Read ``--time-limit``: a positive number of seconds."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < seconds < math.inf:  # nan and inf too: "no limit" is leaving it out
        raise argparse.ArgumentTypeError(
            f"the time limit must be a positive, finite number of seconds, got {text!r}"
        )
    return seconds


def whole_number(minimum: int) -> Callable[[str], int]:
    """A reader of counts and seeds (``--iterations``, ``--seed``): a whole number >= minimum."""

    def read(text: str) -> int:
        try:
            value = int(text.strip().replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {text!r}")
        return value

    return read


def positive_number(text: str) -> float:
    """Read a tolerance such as ``--target-exploitability``: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def growth_factor(text: str) -> float:
    """Read ``qre --max-accel``: a number from :data:`~seqform.qre.trace.MIN_ACCEL` to
    :data:`~seqform.qre.trace.MAX_ACCEL`, the range
    :class:`~seqform.qre.trace.TraceSettings` accepts (imported only when the option is
    given)."""
    from seqform.qre.trace import MAX_ACCEL, MIN_ACCEL

    value = positive_number(text)
    if not MIN_ACCEL <= value <= MAX_ACCEL:
        raise argparse.ArgumentTypeError(
            f"must be at least {MIN_ACCEL} (below it the trace takes too many steps to end) "
            f"and at most {MAX_ACCEL:g} (beyond it steps overshoot and are halved back, "
            f"which only costs time), got {text!r}"
        )
    return value


MAX_LIMIT_DIGITS = LIMITS.limit_digits  # why: seqform.base.limits


def max_entries(text: str) -> int:
    """Read a size limit written as ``10000000``, ``1e7`` or ``10^7``, exactly, up to
    ``10^100000`` (a limit no game comes near; larger ones are refused, not computed).  The
    work is bounded before anything is computed: an exponent beyond 100,000 either way, a
    fractional base raised to a power (never whole) and a value far below 1 are refused."""
    cleaned = text.strip().replace("_", "").replace("**", "^").lower()
    wrong = argparse.ArgumentTypeError(
        f"expected a whole number of entries such as 10000000, 1e7 or 10^7, got {text!r}"
    )
    base_text, power, exponent_text = cleaned.partition("^" if "^" in cleaned else "e")
    try:
        base = Fraction(base_text)
        exponent = int(exponent_text) if power else 0
    except (ValueError, ZeroDivisionError):
        raise wrong from None
    too_large = argparse.ArgumentTypeError(
        f"the limit must be at most 10^{MAX_LIMIT_DIGITS}, got {text!r}"
    )
    if power == "e" and exponent > MAX_LIMIT_DIGITS:
        raise too_large
    if abs(exponent) > MAX_LIMIT_DIGITS:  # 1e-100000000 would take minutes to compute
        raise argparse.ArgumentTypeError(
            f"the exponent must be between -{MAX_LIMIT_DIGITS} and {MAX_LIMIT_DIGITS}, got {text!r}"
        )
    if power == "^" and base.denominator != 1 and exponent > 0:
        raise wrong  # never whole; computing 1.0000001^1000000000 exactly would not end
    size = math.log10(abs(base)) if base else 0.0
    digits = exponent * size if power == "^" else exponent + size
    if digits > MAX_LIMIT_DIGITS:
        raise too_large
    if base and digits < -1:  # far below 1: refused without computing it
        raise argparse.ArgumentTypeError(f"the limit must be at least 1, got {text!r}")
    try:
        value = base**exponent if power == "^" else base * Fraction(10) ** exponent
    except ZeroDivisionError:  # 0 to a negative power
        raise argparse.ArgumentTypeError(
            f"the limit must be a whole number, got {text!r}, which divides by zero"
        ) from None
    if value.denominator != 1:
        raise wrong
    if value < 1:
        raise argparse.ArgumentTypeError(f"the limit must be at least 1, got {text!r}")
    return int(value)


def opponent_name(text: str) -> str:
    """Read ``exploit --opponent``: one of the named Kuhn opponents (imported only when the
    option is given)."""
    from seqform.questions.exploit import NAMED_OPPONENTS

    if text not in NAMED_OPPONENTS:
        raise argparse.ArgumentTypeError(
            f"unknown opponent {text!r}; named opponents: {', '.join(NAMED_OPPONENTS)}"
        )
    return text
