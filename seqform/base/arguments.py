"""The checks of a public function's numeric arguments, written once.

(Enumerated options are checked where their choices are defined: methods, solvers and
backends by :mod:`seqform.routes.policy`, export formats by :mod:`seqform.io.export`.)

Each check returns the value it was given (converted where that is unambiguous: an integral
``numpy`` integer to ``int``, a real number to ``float``) or raises naming the argument and
the value: :class:`TypeError` for the wrong kind of value (``time_limit='5'``, ``player=1.5``,
``True`` where a count is wanted), :class:`ValueError` for a value of the right kind out of
range (``time_limit=-1``, ``nan``, ``player=5``).  A value that is silently ignored or that
fails deep inside a solver with ``IndexError`` is what these checks exist to prevent.
"""

from __future__ import annotations

import math
import numbers

__all__ = ["require_count", "require_player", "require_seconds", "require_time_limit"]


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def require_count(name: str, value: object, minimum: int = 0) -> int:
    """``value`` as an ``int`` at least ``minimum``.

    Raises
    ------
    TypeError
        For anything but an integer (``bool`` included: ``True`` is not a count).
    ValueError
        For an integer below ``minimum``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__} {_shown(value)}")
    count = int(value)
    if count < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {count}")
    return count


def require_player(name: str, value: object, players: int) -> int:
    """``value`` as a player index of a game of ``players`` players (``0 .. players - 1``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be a player index (an integer), not {type(value).__name__} "
            f"{_shown(value)}"
        )
    player = int(value)
    if not 0 <= player < players:
        raise ValueError(
            f"{name} must be a player index from 0 to {players - 1} (players are numbered "
            f"from 0), got {player}"
        )
    return player


def require_time_limit(name: str, value: object) -> float | None:
    """``value`` as a time limit: ``None`` (no limit) or :func:`require_seconds`."""
    if value is None:
        return None
    return _seconds(name, value, " (None for no limit)")


def require_seconds(name: str, value: object) -> float:
    """``value`` as a number of seconds: finite and ``>= 0`` (0 stops at the first check).

    Raises
    ------
    TypeError
        For anything but a real number (``None`` and a string ``'5'`` included).
    ValueError
        For a negative number, ``nan`` or an infinity.
    """
    return _seconds(name, value, "")


def _seconds(name: str, value: object, no_limit: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a number of seconds{no_limit}, not {type(value).__name__} "
            f"{_shown(value)}"
        )
    seconds = float(value)
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(
            f"{name} must be a finite number of seconds >= 0{no_limit}, got {_shown(value)}"
        )
    return seconds
