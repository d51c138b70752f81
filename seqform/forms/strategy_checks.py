"""What a mapping of probabilities must be to be a player's behavioural strategy: numbers in
[0, 1], summing to 1 at each information set, on the set's own actions.

:func:`seqform.forms.strategies.behaviour_from_mapping` checks every strategy given as
``{infoset: {action: probability}}`` or ``{infoset: [p, ...]}`` here, so that ``certify``,
``exploit``, ``resolve`` and every file reader refuse what is no strategy instead of
measuring it: ``{J: {z: 1}}`` was read as all-zero play and certified as an equilibrium.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from numbers import Real
from typing import Any

import numpy as np

from seqform.game.sequences import PlayerSequences

__all__ = [
    "MAPPING_SUM_TOLERANCE",
    "PROBABILITY_SLACK",
    "check_actions",
    "check_numbers",
    "check_probabilities",
]

MAPPING_SUM_TOLERANCE = 1e-6
"""How far the probabilities given at one information set may be from summing to 1 (the
tolerance of the strategy files ``exploit`` and ``play`` read)."""
PROBABILITY_SLACK = 1e-9
"""How far outside [0, 1] a given float probability may be (a solver's rounding)."""


def check_probabilities(table: PlayerSequences, probabilities: np.ndarray) -> None:
    """Every given probability in [0, 1] and each information set's summing to 1
    (:data:`MAPPING_SUM_TOLERANCE`, exactly 1 where they are exact), else ValueError naming
    the information set: a strategy that is not one gives no certificate."""
    if not table.num_infosets:
        return
    values = probabilities[1:].astype(float)
    starts = table.first_sequence.astype(np.int64) - 1
    sums = np.add.reduceat(values, starts)
    outside = (
        ~np.isfinite(values) | (values < -PROBABILITY_SLACK) | (values > 1 + PROBABILITY_SLACK)
    )
    if outside.any():
        sequence = int(np.flatnonzero(outside)[0]) + 1
        name = table.infosets[int(table.sequence_infoset[sequence])]
        raise ValueError(
            f"the strategy of player {table.player + 1} gives {float(values[sequence - 1]):g} at "
            f"information set {name!r}: a probability is a number in [0, 1]"
        )
    if probabilities.dtype == object:
        exact_sums = [
            sum(probabilities[1:][start : start + count], Fraction(0))
            for start, count in zip(starts.tolist(), table.action_counts().tolist(), strict=True)
        ]
        off = [k for k, total in enumerate(exact_sums) if total != 1]
    else:
        off = np.flatnonzero(np.abs(sums - 1.0) > MAPPING_SUM_TOLERANCE).tolist()
    if off:
        name = table.infosets[off[0]]
        raise ValueError(
            f"the strategy of player {table.player + 1} has probabilities summing to "
            f"{sums[off[0]]:.12g}, not 1, at information set {name!r}"
        )


def check_actions(
    table: PlayerSequences, name: str, actions: Sequence[str], given: Mapping[str, Any]
) -> None:
    """``given``'s actions at information set ``name`` are its ``actions``, but that an
    action the set does not have may be given probability 0 (a tree's blueprint on a
    structured game, whose information set lacks it), never more."""
    unknown = [key for key in given if key not in actions and given[key] != 0]
    if unknown:
        raise ValueError(
            f"the strategy of player {table.player + 1} names action {unknown[0]!r} at "
            f"information set {name!r}, whose actions are {', '.join(actions)}"
        )


def check_numbers(table: PlayerSequences, values: Sequence[Any]) -> None:
    """Every one of ``values`` is a real number (not a bool, not text)."""
    for value in values:
        if not isinstance(value, Real) or isinstance(value, bool):
            raise ValueError(
                f"the strategy of player {table.player + 1} gives {value!r} as a probability"
            )
