"""Behavioural strategies, float or exact, and the one map between them and realization plans.

A behavioural strategy gives, at each information set ``h`` of a player, a probability
``b(a | h)`` for each action.  Its realization plan (KMvS 1996, §3) is the product of the
behaviour probabilities along each sequence:

    x[empty] = 1,    x[h, a] = x[parent(h)] * b(a | h).

Conversely a plan ``x`` gives back ``b(a | h) = x[h, a] / x[parent(h)]`` wherever the
player's own plan reaches ``h`` (``x[parent(h)] > 0``); the two maps are inverse there
(Kuhn 1953; KMvS 1996, Prop. 3.2).

One type, two number kinds
--------------------------
:class:`BehaviouralStrategy` is stored on the player's sequence indices
(see :mod:`seqform.forms.sequence_form`): ``probabilities[s] = b(a | h)`` for the sequence
``s = (h, a)`` and ``probabilities[0] = 1``.  The array is either ``float64`` (from the
float LP) or an object array of ``fractions.Fraction`` (``exact``); every function here
keeps the kind it is given, so exact strategies stay exact.

Unreached information sets
--------------------------
Where the plan does not reach ``h`` it says nothing about ``h``: any behaviour there gives
the same plan and so the same payoffs against every opponent; ``h`` is flagged
``unreached`` and every display and JSON output says so.

* Float plans: ``h`` is unreached when ``x[parent(h)] <= tol``.  If the plan still puts
  mass on ``h``'s sequences (numerically), the behaviour is their normalised proportions;
  otherwise it is uniform over ``h``'s actions.
* Exact plans: ``h`` is unreached when ``x[parent(h)] == 0`` exactly.  The behaviour there
  is uniform unless the caller supplies another (``unreached_behaviour``).

(``--refine`` in the CLI computes an equilibrium that also plays sensibly there.)

:func:`round_strategy` turns a float strategy into a nearby exact one: each probability
becomes the simplest fraction within reach of it (``Fraction.limit_denominator``, the best
rational approximation of bounded denominator, by continued fractions), and the largest
one at each information set is set so that the information set sums to exactly one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational
from typing import Any

import numpy as np

from seqform.forms.strategy_checks import check_actions, check_numbers, check_probabilities
from seqform.game.sequences import PlayerSequences

__all__ = [
    "BehaviouralStrategy",
    "behaviour_from_mapping",
    "behaviour_from_plan",
    "behaviour_with_reach",
    "infoset_depths",
    "plan_from_behaviour",
    "round_strategy",
    "uniform_behaviour",
]

REACH_TOLERANCE = 1e-12  # float plans: a parent sequence at most this is unreached
ROUNDING_DENOMINATOR = 100_000  # largest denominator tried when rounding a float strategy

Probability = float | Fraction


@dataclass(frozen=True, eq=False)
class BehaviouralStrategy:
    """Action probabilities at every information set of one player, float or exact.

    table : the player's information sets and sequences
    probabilities : per sequence ``(h, a)``, the probability ``b(a | h)``; index 0 is 1.
        ``float64``, or an object array of Fractions for an exact strategy
    unreached : per information set, True where the player's own plan does not reach it
        (its behaviour follows the rule of the module docstring)
    """

    table: PlayerSequences
    probabilities: np.ndarray
    unreached: np.ndarray

    @property
    def player(self) -> int:
        return self.table.player

    @property
    def exact(self) -> bool:
        """True when the probabilities are Fractions."""
        return self.probabilities.dtype == object

    def to_float(self) -> BehaviouralStrategy:
        """The same strategy in floating point (itself if already float)."""
        if not self.exact:
            return self
        probabilities = np.array([float(p) for p in self.probabilities], dtype=float)
        return BehaviouralStrategy(self.table, probabilities, self.unreached)

    def at(self, infoset: str | int) -> dict[str, Probability]:
        """The action probabilities at one information set, by name or index."""
        index = self.table.index_of_infoset()[infoset] if isinstance(infoset, str) else infoset
        convert = _exact_number if self.exact else float
        return {
            action: convert(self.probabilities[sequence])
            for action, sequence in zip(
                self.table.actions[index], self.table.sequences_of(index), strict=True
            )
        }

    def as_dict(self) -> dict[str, dict[str, Probability]]:
        """Information-set name -> action -> probability."""
        return {name: self.at(index) for index, name in enumerate(self.table.infosets)}


def _exact_number(value: Any) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(value)


def _exact_array(values: Sequence[Any] | np.ndarray) -> np.ndarray:
    """An object array of Fractions."""
    out = np.empty(len(values), dtype=object)
    out[:] = [_exact_number(v) for v in values]
    return out


def _plan_array(plan: Sequence[Any] | np.ndarray) -> np.ndarray:
    """A plan as float64, or as an object array of Fractions if it holds only exact numbers
    (a sequence of ints and Fractions, or an object array)."""
    if isinstance(plan, np.ndarray) and plan.dtype != object:
        return plan.astype(float, copy=False)
    if all(isinstance(v, Rational) for v in plan):
        return _exact_array(plan)
    return np.asarray(plan, dtype=float)


def _action_counts(table: PlayerSequences) -> np.ndarray:
    return table.action_counts()


def behaviour_from_plan(
    table: PlayerSequences,
    plan: Sequence[Any] | np.ndarray,
    tol: float = REACH_TOLERANCE,
    unreached_behaviour: Callable[[int], Sequence[Fraction]] | None = None,
) -> BehaviouralStrategy:
    """Behavioural strategy of a realization plan (module docstring for the rule).

    Parameters
    ----------
    table
        The player's sequence table.
    plan
        A realization plan ``x`` with ``E x = e``: floats (up to solver round-off), or
        Fractions (exactly), which give an exact strategy.
    tol
        Float plans: information sets whose parent sequence has plan value ``<= tol`` are
        unreached.  Exact plans use ``== 0``.
    unreached_behaviour
        Exact plans: the probabilities at an unreached information set (by index); the
        default is uniform.
    """
    values = _plan_array(plan)
    if values.dtype == object:
        return _exact_behaviour_from_plan(table, values, unreached_behaviour)
    return _float_behaviour_from_plan(table, values, tol)


def _float_behaviour_from_plan(
    table: PlayerSequences, plan: np.ndarray, tol: float
) -> BehaviouralStrategy:
    plan = np.maximum(plan, 0.0)
    probabilities = np.ones(table.num_sequences)
    unreached = np.zeros(table.num_infosets, dtype=bool)
    if table.num_infosets:
        counts = _action_counts(table)
        # Sequences of one information set are consecutive: sum them by reduceat.
        starts = table.first_sequence
        if not np.all(np.diff(starts) == counts[:-1]):
            raise ValueError("sequence table is not in the documented consecutive order")
        mass = np.add.reduceat(plan[1:], starts - 1)
        parent_mass = plan[table.parent_sequence]
        unreached = parent_mass <= tol
        denominator = np.where(unreached, mass, parent_mass)
        use_uniform = denominator <= tol
        per_sequence_infoset = table.sequence_infoset[1:]
        ratio = plan[1:] / np.where(use_uniform, 1.0, denominator)[per_sequence_infoset]
        uniform = 1.0 / counts[per_sequence_infoset]
        probabilities[1:] = np.where(use_uniform[per_sequence_infoset], uniform, ratio)
        # Remove solver round-off so each information set sums to exactly one.  A plan
        # that breaks E x = e (a solver's point at a time limit) can leave a reached
        # information set no mass at all: uniform there, never 0/0.
        sums = np.add.reduceat(probabilities[1:], starts - 1)
        empty = ~(sums > tol)
        probabilities[1:] = np.where(empty[per_sequence_infoset], uniform, probabilities[1:])
        probabilities[1:] /= np.where(empty, 1.0, sums)[per_sequence_infoset]
    return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=unreached)


def _exact_behaviour_from_plan(
    table: PlayerSequences,
    plan: np.ndarray,
    unreached_behaviour: Callable[[int], Sequence[Fraction]] | None,
) -> BehaviouralStrategy:
    probabilities = _exact_array([1] * table.num_sequences)
    unreached = np.zeros(table.num_infosets, dtype=bool)
    for infoset in range(table.num_infosets):
        sequences = table.sequences_of(infoset)
        parent = plan[int(table.parent_sequence[infoset])]
        if parent != 0:
            chosen = [plan[s] / parent for s in sequences]
        else:
            unreached[infoset] = True
            if unreached_behaviour is None:
                chosen = [Fraction(1, len(sequences))] * len(sequences)
            else:
                chosen = [_exact_number(p) for p in unreached_behaviour(infoset)]
        probabilities[sequences.start : sequences.stop] = chosen
    return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=unreached)


def infoset_depths(table: PlayerSequences) -> np.ndarray:
    """Depth of each information set in the player's own information-set tree (roots 0),
    read-only (:meth:`~seqform.game.sequences.PlayerSequences.infoset_depths`)."""
    return table.infoset_depths()


def plan_from_behaviour(strategy: BehaviouralStrategy) -> np.ndarray:
    """Realization plan ``x[h, a] = x[parent(h)] * b(a | h)`` (KMvS 1996, §3).

    Computed for the information sets of one depth at a time, shallowest first, a slice of
    at most :data:`PLAN_CHUNK` of them at once (a flop has tens of millions of sequences:
    no temporary as long as the table); exact (an object array of Fractions) for an exact
    strategy.
    """
    table = strategy.table
    if strategy.exact:
        plan = _exact_array([1] * table.num_sequences)
    else:
        plan = np.ones(table.num_sequences)
    if not table.num_infosets:
        return plan
    depth = infoset_depths(table)
    by_depth = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[by_depth], np.arange(int(depth.max()) + 2))
    del depth
    counts = table.action_counts()
    for level in range(len(bounds) - 1):
        for low in range(int(bounds[level]), int(bounds[level + 1]), PLAN_CHUNK):
            infosets = by_depth[low : min(low + PLAN_CHUNK, int(bounds[level + 1]))]
            repeats = counts[infosets]
            first = np.repeat(table.first_sequence[infosets].astype(np.int64), repeats)
            starts = np.repeat(np.cumsum(repeats) - repeats, repeats)
            sequences = first + (np.arange(len(first)) - starts)
            parents = np.repeat(plan[table.parent_sequence[infosets]], repeats)
            plan[sequences] = parents * strategy.probabilities[sequences]
    return plan


PLAN_CHUNK = 1 << 20
"""Information sets per slice of :func:`plan_from_behaviour`."""


def uniform_behaviour(table: PlayerSequences, exact: bool = False) -> BehaviouralStrategy:
    """The strategy that picks every action of every information set with equal odds."""
    counts = _action_counts(table)
    if exact:
        probabilities = _exact_array(
            [1] + [Fraction(1, int(counts[h])) for h in table.sequence_infoset[1:]]
        )
    else:
        probabilities = np.ones(table.num_sequences)
        probabilities[1:] = 1.0 / counts[table.sequence_infoset[1:]]
    return BehaviouralStrategy(
        table=table,
        probabilities=probabilities,
        unreached=np.zeros(table.num_infosets, dtype=bool),
    )


def behaviour_from_mapping(
    table: PlayerSequences,
    mapping: Mapping[str, Mapping[str, Any] | Sequence[Any]],
) -> BehaviouralStrategy:
    """A strategy from ``{infoset: {action: probability}}`` or ``{infoset: [p, ...]}``.

    Every information set must be given; lists are in the information set's action order
    and actions missing from a mapping get 0.  Exact when every probability is an int or a
    Fraction, else float.  Information sets that the strategy's own plan does not reach
    (:func:`plan_from_behaviour`: parent sequence 0, or at most :data:`REACH_TOLERANCE` for
    floats) are flagged unreached; their probabilities are kept as given.

    Raises
    ------
    KeyError
        If an information set of the player is missing.
    ValueError
        If a list has the wrong length, a mapping gives a positive probability to an action
        the information set does not have, a probability is not a number in [0, 1], or an
        information set's do not sum to 1 (:mod:`seqform.forms.strategy_checks`).
    """
    rows: list[Sequence[Any]] = []
    for index, name in enumerate(table.infosets):
        try:
            given = mapping[name]
        except KeyError:
            raise KeyError(
                f"the strategy of player {table.player + 1} has no information set {name!r}"
            ) from None
        actions = table.actions[index]
        if isinstance(given, Mapping):
            check_actions(table, name, actions, given)
            rows.append([given.get(action, 0) for action in actions])
        elif len(given) != len(actions):
            raise ValueError(
                f"the strategy gives {len(given)} probabilities at information set {name!r}, "
                f"which has {len(actions)} actions"
            )
        else:
            rows.append(list(given))
    flat = [p for row in rows for p in row]
    exact = all(isinstance(p, Rational) and not isinstance(p, bool) for p in flat)
    if exact:
        probabilities = _exact_array([1, *flat])
    else:
        check_numbers(table, flat)
        probabilities = np.array([1.0, *flat], dtype=float)
    check_probabilities(table, probabilities)
    return behaviour_with_reach(table, probabilities)


def behaviour_with_reach(table: PlayerSequences, probabilities: np.ndarray) -> BehaviouralStrategy:
    """The strategy of ``probabilities`` (float or exact, not checked), with the information
    sets its own plan does not reach flagged unreached: parent sequence at most
    :data:`REACH_TOLERANCE` (:func:`plan_from_behaviour`), compared as arrays."""
    as_given = BehaviouralStrategy(
        table=table, probabilities=probabilities, unreached=np.zeros(table.num_infosets, bool)
    )
    parent_mass = plan_from_behaviour(as_given)[table.parent_sequence]
    unreached = np.asarray(parent_mass.astype(float) <= REACH_TOLERANCE, dtype=bool)
    return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=unreached)


def round_strategy(
    strategy: BehaviouralStrategy, max_denominator: int = ROUNDING_DENOMINATOR
) -> BehaviouralStrategy | None:
    """A nearby exact strategy (module docstring), or None if rounding breaks a sum.

    Each distinct probability is rounded once (an LP's strategy repeats 0 and 1 at most of
    its sequences), and the largest of each information set, the first if tied, found by
    segment (``reduceat``) over the sets' contiguous sequences.
    """
    table = strategy.table
    floats = np.asarray(strategy.probabilities, dtype=float)
    known = {0.0: Fraction(0), 1.0: Fraction(1)}
    rounded: list[Fraction] = [Fraction(1)]  # the empty sequence
    for p in np.clip(floats[1:], 0.0, 1.0).tolist():
        value = known.get(p)
        if value is None:
            value = known[p] = Fraction(p).limit_denominator(max_denominator)
        rounded.append(value)
    first = table.first_sequence.astype(np.int64)
    stop = first + table.action_counts()
    for start, end, big in zip(
        first.tolist(), stop.tolist(), _first_largest(floats, first).tolist(), strict=True
    ):
        rest = sum(rounded[start:big], Fraction(0)) + sum(rounded[big + 1 : end], Fraction(0))
        rounded[big] = 1 - rest
        if rounded[big] < 0:
            return None
    probabilities = np.empty(len(rounded), dtype=object)
    probabilities[:] = rounded
    return BehaviouralStrategy(
        table=table, probabilities=probabilities, unreached=strategy.unreached.astype(bool)
    )


def _first_largest(values: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Per information set, the index of its largest value, the first if tied: the sets'
    sequences are contiguous from ``first[i]`` and cover ``values[1:]`` (index 0 is the
    empty sequence), in any order of the sets."""
    if len(first) == 0:
        return first
    order = np.argsort(first, kind="stable")
    starts = first[order]
    ends = np.append(starts[1:], len(values))
    largest = np.maximum.reduceat(values, starts)
    owner = np.repeat(np.arange(len(starts)), ends - starts)
    index = np.arange(starts[0], len(values))
    at_max = np.where(values[starts[0] :] == largest[owner], index, len(values))
    found = np.empty(len(first), dtype=np.int64)
    found[order] = np.minimum.reduceat(at_max, starts - starts[0])
    return found
