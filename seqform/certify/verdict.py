"""The certificate's data and its verdict: NashConv, exploitability and the payoff range they
are judged against (the overview and the equations are in :mod:`seqform.certify`).

The verdict (:func:`is_certified`) is scale-invariant: the exploitability relative to the
game's *payoff range* (:func:`payoff_range`, the largest terminal payoff of player 0 less
the smallest) must be at most :data:`EQUILIBRIUM_TOLERANCE`.  Multiplying every payoff by
``c > 0`` multiplies the exploitability and the range by ``c`` and leaves the verdict as it
was; an absolute tolerance would call a game in thousandths of a chip solved by any
profile and one in billions of chips never solved.  The exploitability is at most the
range, so the relative exploitability lies in ``[0, 1]``.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.game.compiled import FlatTree
from seqform.game.model import Game

__all__ = [
    "EQUILIBRIUM_TOLERANCE",
    "Certificate",
    "CertificateOverflowError",
    "NPlayerCertificate",
    "Number",
    "clamped_gain",
    "is_certified",
    "payoff_range",
    "relative_exploitability",
    "require_finite",
]

Number = float | Fraction

EQUILIBRIUM_TOLERANCE = 1e-9
"""A profile whose exploitability (NashConv / 2) is at most this fraction of the game's payoff
range is certified an equilibrium (:func:`is_certified`): the verdict every report and
document gives, and the exit code of ``solve``."""


FLOAT_RANGE = "±1.8e308"


class CertificateOverflowError(ValueError):
    """A float certificate left the float range: the payoffs, summed, pass ``±1.8e308``,
    so a best response or NashConv is ``inf`` or ``nan``.  Raised rather than reporting
    such a number; the message names the sum and the way out (smaller payoffs)."""


def require_finite(numbers: Any, what: str) -> None:
    """Raise :class:`CertificateOverflowError` unless every float in ``numbers`` is finite."""
    if not np.isfinite(np.asarray(numbers, dtype=float)).all():
        raise CertificateOverflowError(
            f"{what} overflows the float range (its payoff sums pass {FLOAT_RANGE}); "
            "scale the game's payoffs down"
        )


@dataclass(frozen=True)
class Certificate:
    """How far a strategy profile is from equilibrium, measured by best responses.

    value : player 0's expected payoff under the profile
    best_response_values : (best player 0 can get against player 1's strategy,
        best player 1 can get against player 0's strategy), each to the deviating player
    gains : each player's gain from deviating, ``best_response_values[i] - payoff_i``,
        never negative (round-off below 0 is reported as 0)
    nash_conv : NashConv, ``gains[0] + gains[1]``
    payoff_range : the game's largest terminal payoff less its smallest (:func:`payoff_range`),
        the scale :func:`is_certified` judges ``exploitability`` against
    """

    value: Number
    best_response_values: tuple[Number, Number]
    gains: tuple[Number, Number]
    nash_conv: Number
    payoff_range: Number

    @property
    def exploitability(self) -> Number:
        """NashConv / 2: the mean of the two players' gains."""
        return self.nash_conv / 2

    @property
    def relative_exploitability(self) -> Number:
        """The exploitability as a fraction of :attr:`payoff_range` (in ``[0, 1]``)."""
        return relative_exploitability(self.exploitability, self.payoff_range)

    @classmethod
    def from_best_responses(
        cls, value: Number, best_first: Number, best_second: Number, payoff_range: Number
    ) -> Certificate:
        """The certificate from player 0's value, each player's best-response value and the
        game's payoff range."""
        gains = (clamped_gain(best_first - value), clamped_gain(best_second + value))
        return cls(
            value=value,
            best_response_values=(best_first, best_second),
            gains=gains,
            nash_conv=gains[0] + gains[1],
            payoff_range=payoff_range,
        )


def clamped_gain(gain: Number) -> Number:
    """A best-response gain, never negative: a best response is at least as good as any
    strategy, so a float gain below 0 is round-off (exact gains are never below 0)."""
    if gain > 0:
        return gain
    return Fraction(0) if isinstance(gain, Fraction) else 0.0


def relative_exploitability(exploitability: Number, scale: Number) -> Number:
    """``exploitability / scale``; 0 for a game whose payoffs are all equal (``scale`` 0),
    where every profile is an equilibrium."""
    if scale <= 0:
        return Fraction(0) if isinstance(scale, Fraction) else 0.0
    return exploitability / scale


def is_certified(certificate: Certificate) -> bool:
    """Whether ``certificate`` proves an equilibrium: the exploitability within
    :data:`EQUILIBRIUM_TOLERANCE` of the payoff range (exact certificates compared by their
    float)."""
    return float(certificate.relative_exploitability) <= EQUILIBRIUM_TOLERANCE  # within [0, 1]


_EXACT_RANGES: weakref.WeakKeyDictionary[FlatTree, Fraction] = weakref.WeakKeyDictionary()


def payoff_range(game: Game, exact: bool = False) -> Number:
    """Player 0's largest terminal payoff less the smallest (0 for a game without terminals).

    A Fraction when ``exact`` (computed once per tree), else a float.
    """
    flat = game.flat
    if not exact:
        floats = flat.terminal_payoff
        return float(np.ptp(floats)) if len(floats) else 0.0
    found = _EXACT_RANGES.get(flat)
    if found is None:
        exact_payoffs = flat.terminal_payoff_exact
        found = max(exact_payoffs) - min(exact_payoffs) if exact_payoffs else Fraction(0)
        _EXACT_RANGES[flat] = found
    return found


@dataclass(frozen=True)
class NPlayerCertificate:
    """How far a profile of ``n`` players is from a Nash equilibrium (floats).

    values : each player's expected payoff under the profile
    best_response_values : each player's best payoff against the others' strategies
    gains : ``best_response_values[i] - values[i]``, each player's gain from deviating,
        never negative (round-off below 0 is reported as 0)
    nash_conv : the sum of the gains (0 exactly at a Nash equilibrium)
    """

    values: tuple[float, ...]
    best_response_values: tuple[float, ...]
    gains: tuple[float, ...]
    nash_conv: float
