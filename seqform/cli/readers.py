"""Readers of option values for the argument parser (:mod:`seqform.cli.parser`): each turns
the text of an option into a number or raises ``argparse.ArgumentTypeError``, which argparse
reports as a usage error (exit 2) naming the option.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["max_entries", "positive_number", "positive_seconds", "whole_number"]


def positive_seconds(text: str) -> float:
    """Read ``--time-limit``: a positive number of seconds."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"the time limit must be positive, got {text!r}")
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


def max_entries(text: str) -> int:
    """Read a size limit written as ``10000000``, ``1e7`` or ``10^7``."""
    cleaned = text.strip().replace("_", "").replace("**", "^")
    try:
        if "^" in cleaned:
            base, exponent = cleaned.split("^")
            value = int(base) ** int(exponent)
        else:
            number = float(cleaned)
            if not number.is_integer():
                raise ValueError(cleaned)
            value = int(cleaned) if cleaned.isdigit() else int(number)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(
            f"expected a whole number of entries such as 10000000, 1e7 or 10^7, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"the limit must be at least 1, got {text!r}")
    return value
