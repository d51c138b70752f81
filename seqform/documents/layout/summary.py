"""How much of a strategy a text report shows: every information set up to a size, a summary
beyond it.  The command line's ``--strategies`` offers the same choices.

A summary counts a player's information sets, those its own play reaches and those of them
it mixes, and shows the :data:`MOST_MIXED` most mixed reached ones, ranked by the entropy of
their action probabilities (``-sum p log2 p``, in bits; ties in table order).  The ranking
works on arrays (:func:`mixed_of`, :func:`most_mixed`), so that it is one computation
whether it reads a document's information-set objects
(:func:`seqform.documents.layout.strategies.mixed_sets`) or a strategy's own arrays
(:func:`seqform.documents.objects.strategy_summary_json`, which spares a text report the
objects of millions of information sets).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "MIXED_TOLERANCE",
    "MOST_MIXED",
    "STRATEGY_CHOICES",
    "SUMMARY_ABOVE",
    "MixedSets",
    "mixed_of",
    "most_mixed",
    "summarises",
]

SUMMARY_ABOVE = 40  # information sets of both players; above, text reports summarise
MOST_MIXED = 10  # information sets shown in a summary, per player
STRATEGY_CHOICES = ("auto", "all", "summary")  # the values of --strategies
MIXED_TOLERANCE = 1e-9  # an information set is mixed when no action has probability above 1 - this


def summarises(choice: str, infosets: int) -> bool:
    """Whether a text report with ``--strategies choice`` summarises strategies of
    ``infosets`` information sets (both players together, or one player's alone: a player
    with more than :data:`SUMMARY_ABOVE` makes the total larger too)."""
    return choice == "summary" or (choice == "auto" and infosets > SUMMARY_ABOVE)


@dataclass(frozen=True)
class MixedSets:
    """The reached information sets of a strategy that mix, with their entropies.

    positions : indices into the reached information sets, in table order
    entropies : per mixed set, ``-sum p log2 p`` over its actions (bits)
    """

    positions: np.ndarray
    entropies: np.ndarray


def mixed_of(sizes: np.ndarray, probabilities: np.ndarray) -> MixedSets:
    """Which information sets mix (no action above ``1 -`` :data:`MIXED_TOLERANCE`) and their
    entropies, from each set's number of actions ``sizes`` and all their probabilities
    ``probabilities`` (float64, set after set), by array sums per set: a CFR average on a
    spot's turn has millions of sets, nearly all mixed, and per-set Python sums cost as
    much as the run's last minute."""
    if not len(sizes):
        return MixedSets(np.zeros(0, dtype=np.int64), np.zeros(0))
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    # the largest is nan where a set has a nan (a run that overflowed): mixed, not pure
    mixed = ~(np.maximum.reduceat(probabilities, starts) >= 1 - MIXED_TOLERANCE)
    positive = np.where(probabilities > 0, probabilities, 1.0)
    terms = np.where(probabilities > 0, probabilities * np.log2(positive), 0.0)
    entropies = -np.add.reduceat(terms, starts)
    positions = np.flatnonzero(mixed)
    return MixedSets(positions, entropies[positions])


def most_mixed(mixed: MixedSets) -> list[int]:
    """The positions (into the reached sets, in table order) of the :data:`MOST_MIXED` sets
    of highest entropy, ties to the earlier set."""
    ranked = np.argsort(-mixed.entropies, kind="stable")[:MOST_MIXED]
    return sorted(mixed.positions[ranked].tolist())
