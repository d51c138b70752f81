"""Behavioural strategies and realization plans in exact rational arithmetic.

The maps are those of :mod:`seqform.forms.strategies` (KMvS 1996, §3), with ``Fraction``
entries: ``x[h, a] = x[parent(h)] · b(a | h)`` and, where the player's own plan reaches
``h`` (``x[parent(h)] > 0``), ``b(a | h) = x[h, a] / x[parent(h)]``.  Where the plan does
not reach ``h`` (``x[parent(h)] = 0``, exactly) the behaviour there changes no payoff; it
is uniform unless the caller supplies another (:func:`exact_strategy_from_plan`), and the
information set is flagged ``unreached``.

:func:`round_strategy` turns a float behavioural strategy into a nearby exact one: each
probability becomes the simplest fraction within reach of it
(``Fraction.limit_denominator``, i.e. the best rational approximation of bounded
denominator, by continued fractions), and the largest one at each information set is set
so that the information set sums to exactly one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.compiled import PlayerSequences

__all__ = [
    "ExactStrategy",
    "exact_plan",
    "exact_strategy_from_plan",
    "round_strategy",
]

ROUNDING_DENOMINATOR = 100_000  # largest denominator tried when rounding a float strategy


@dataclass(frozen=True)
class ExactStrategy:
    """Exact action probabilities at every information set of one player.

    table : the player's information sets and sequences
    probabilities : per sequence ``(h, a)``, ``b(a | h)`` as a Fraction; index 0 is 1
    unreached : per information set, True where the player's own plan gives its parent
        sequence probability exactly 0
    """

    table: PlayerSequences
    probabilities: tuple[Fraction, ...]
    unreached: tuple[bool, ...]

    @property
    def player(self) -> int:
        return self.table.player

    def at(self, infoset: str | int) -> dict[str, Fraction]:
        """The action probabilities at one information set, by name or index."""
        index = self.table.index_of_infoset()[infoset] if isinstance(infoset, str) else infoset
        return {
            action: self.probabilities[sequence]
            for action, sequence in zip(
                self.table.actions[index], self.table.sequences_of(index), strict=True
            )
        }

    def as_behaviour(self) -> dict[str, list[Fraction]]:
        """Information-set name -> probabilities in action order (for the exact tree walk)."""
        return {
            name: [self.probabilities[s] for s in self.table.sequences_of(index)]
            for index, name in enumerate(self.table.infosets)
        }

    def to_float(self) -> BehaviouralStrategy:
        """The same strategy in floating point."""
        return BehaviouralStrategy(
            table=self.table,
            probabilities=np.array([float(p) for p in self.probabilities]),
            unreached=np.array(self.unreached, dtype=bool),
        )


def exact_plan(strategy: ExactStrategy) -> list[Fraction]:
    """Realization plan ``x[h, a] = x[parent(h)] · b(a | h)``, exactly."""
    table = strategy.table
    plan = [Fraction(1)] * table.num_sequences
    for infoset in range(table.num_infosets):
        parent = plan[int(table.parent_sequence[infoset])]
        for sequence in table.sequences_of(infoset):
            plan[sequence] = parent * strategy.probabilities[sequence]
    return plan


def exact_strategy_from_plan(
    table: PlayerSequences,
    plan: Sequence[Fraction],
    unreached_behaviour: Callable[[int], Sequence[Fraction]] | None = None,
) -> ExactStrategy:
    """The behavioural strategy of an exact realization plan.

    Parameters
    ----------
    table
        The player's sequence table.
    plan
        A realization plan with ``E x = e`` exactly.
    unreached_behaviour
        Gives the probabilities at an unreached information set (by index); the default
        is uniform.
    """
    probabilities = [Fraction(1)] * table.num_sequences
    unreached = [False] * table.num_infosets
    for infoset in range(table.num_infosets):
        sequences = table.sequences_of(infoset)
        parent = Fraction(plan[int(table.parent_sequence[infoset])])
        if parent > 0:
            for sequence in sequences:
                probabilities[sequence] = Fraction(plan[sequence]) / parent
            continue
        unreached[infoset] = True
        if unreached_behaviour is None:
            chosen = [Fraction(1, len(sequences))] * len(sequences)
        else:
            chosen = [Fraction(p) for p in unreached_behaviour(infoset)]
        for sequence, probability in zip(sequences, chosen, strict=True):
            probabilities[sequence] = probability
    return ExactStrategy(
        table=table, probabilities=tuple(probabilities), unreached=tuple(unreached)
    )


def round_strategy(
    strategy: BehaviouralStrategy, max_denominator: int = ROUNDING_DENOMINATOR
) -> ExactStrategy | None:
    """A nearby exact strategy (module docstring), or None if rounding breaks a sum."""
    table = strategy.table
    probabilities = [Fraction(1)] * table.num_sequences
    for infoset in range(table.num_infosets):
        sequences = list(table.sequences_of(infoset))
        floats = [float(strategy.probabilities[s]) for s in sequences]
        largest = max(range(len(sequences)), key=floats.__getitem__)
        rounded = [
            Fraction(min(max(p, 0.0), 1.0)).limit_denominator(max_denominator) for p in floats
        ]
        rounded[largest] = 1 - sum((r for k, r in enumerate(rounded) if k != largest), Fraction(0))
        if rounded[largest] < 0:
            return None
        for sequence, value in zip(sequences, rounded, strict=True):
            probabilities[sequence] = value
    return ExactStrategy(
        table=table,
        probabilities=tuple(probabilities),
        unreached=tuple(bool(u) for u in strategy.unreached),
    )


def exact_strategy_from_mapping(
    table: PlayerSequences, mapping: Mapping[str, Mapping[str, Fraction]]
) -> ExactStrategy:
    """An exact strategy from ``{infoset: {action: probability}}`` (every set given)."""
    probabilities = [Fraction(1)] * table.num_sequences
    for index, name in enumerate(table.infosets):
        given = mapping[name]
        for action, sequence in zip(table.actions[index], table.sequences_of(index), strict=True):
            probabilities[sequence] = Fraction(given[action])
    return ExactStrategy(
        table=table,
        probabilities=tuple(probabilities),
        unreached=(False,) * table.num_infosets,
    )
