"""Realization plans and behavioural strategies, and the map between them.

A behavioural strategy gives, at each information set ``h`` of a player, a probability
``b(a | h)`` for each action.  Its realization plan (KMvS 1996, §3) is the product of the
behaviour probabilities along each sequence:

    x[empty] = 1,    x[h, a] = x[parent(h)] * b(a | h).

Conversely a plan ``x`` gives back ``b(a | h) = x[h, a] / x[parent(h)]`` wherever the
player's own plan reaches ``h`` (``x[parent(h)] > 0``); the two maps are inverse there
(Kuhn 1953; KMvS 1996, Prop. 3.2).

Unreached information sets
--------------------------
Where ``x[parent(h)] <= tol`` the plan says nothing about ``h``: any behaviour there gives
the same plan and so the same payoffs against every opponent.  The rule used here is:
if the plan still puts mass on ``h``'s sequences (numerically), the behaviour is their
normalised proportions; otherwise it is uniform over ``h``'s actions.  Either way ``h``
is flagged ``unreached`` and every display and JSON output says so.  (``--refine`` in the
CLI computes an equilibrium that also plays sensibly there.)

Both kinds of strategy are stored on the player's sequence indices
(see :mod:`seqform.forms.sequence_form`): a behavioural strategy is the array ``b`` with
``b[s] = b(a | h)`` for the sequence ``s = (h, a)`` and ``b[0] = 1``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from seqform.game.compiled import PlayerSequences

__all__ = [
    "BehaviouralStrategy",
    "behaviour_from_plan",
    "infoset_depths",
    "plan_from_behaviour",
    "uniform_behaviour",
]

REACH_TOLERANCE = 1e-12


@dataclass(frozen=True)
class BehaviouralStrategy:
    """Action probabilities at every information set of one player.

    table : the player's information sets and sequences
    probabilities : per sequence ``(h, a)``, the probability ``b(a | h)``; index 0 is 1
    unreached : per information set, True where the player's own plan reaches it with
        probability at most the tolerance (its behaviour follows the documented rule)
    """

    table: PlayerSequences
    probabilities: np.ndarray
    unreached: np.ndarray

    @property
    def player(self) -> int:
        return self.table.player

    def at(self, infoset: str | int) -> dict[str, float]:
        """The action probabilities at one information set, by name or index."""
        index = self.table.index_of_infoset()[infoset] if isinstance(infoset, str) else infoset
        sequences = self.table.sequences_of(index)
        return {
            action: float(self.probabilities[sequence])
            for action, sequence in zip(self.table.actions[index], sequences, strict=True)
        }

    def as_dict(self) -> dict[str, dict[str, float]]:
        """Information-set name -> action -> probability."""
        return {name: self.at(index) for index, name in enumerate(self.table.infosets)}


def behaviour_from_plan(
    table: PlayerSequences, plan: np.ndarray, tol: float = REACH_TOLERANCE
) -> BehaviouralStrategy:
    """Behavioural strategy of a realization plan (see the module docstring for the rule).

    Parameters
    ----------
    table
        The player's sequence table.
    plan
        A realization plan ``x`` with ``E x = e`` (up to solver round-off).
    tol
        Information sets whose parent sequence has plan value ``<= tol`` are unreached.
    """
    plan = np.maximum(np.asarray(plan, dtype=float), 0.0)
    probabilities = np.ones(table.num_sequences)
    unreached = np.zeros(table.num_infosets, dtype=bool)
    counts = np.fromiter((len(a) for a in table.actions), dtype=np.int64, count=table.num_infosets)
    if table.num_infosets:
        # Sequences of one information set are consecutive: sum them by reduceat.
        starts = table.first_sequence
        order_ok = np.all(np.diff(starts) == counts[:-1])
        if not order_ok:
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
        # Remove solver round-off so each information set sums to exactly one.
        sums = np.add.reduceat(probabilities[1:], starts - 1)
        probabilities[1:] /= sums[per_sequence_infoset]
    return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=unreached)


def infoset_depths(table: PlayerSequences) -> np.ndarray:
    """Depth of each information set in the player's own information-set tree (roots 0)."""
    depth = np.zeros(table.num_infosets, dtype=np.int64)
    if not table.num_infosets:
        return depth
    parent_infoset = table.sequence_infoset[table.parent_sequence]  # -1 below the root
    has_parent = parent_infoset >= 0
    # Parents have smaller indices, so repeating "depth = depth(parent) + 1" settles in
    # as many rounds as the tree is deep.
    while True:
        updated = np.where(has_parent, depth[np.maximum(parent_infoset, 0)] + 1, 0)
        if np.array_equal(updated, depth):
            return depth
        depth = updated


def plan_from_behaviour(strategy: BehaviouralStrategy) -> np.ndarray:
    """Realization plan ``x[h, a] = x[parent(h)] * b(a | h)`` (KMvS 1996, §3).

    Computed for all information sets of one depth at once, shallowest first.
    """
    table = strategy.table
    plan = np.ones(table.num_sequences)
    if not table.num_infosets:
        return plan
    depth = infoset_depths(table)
    sequences = np.arange(1, table.num_sequences)
    sequence_depth = depth[table.sequence_infoset[1:]]
    parents = table.parent_sequence[table.sequence_infoset[1:]]
    for level in range(int(depth.max()) + 1):
        at_level = sequences[sequence_depth == level]
        plan[at_level] = plan[parents[at_level - 1]] * strategy.probabilities[at_level]
    return plan


def uniform_behaviour(table: PlayerSequences) -> BehaviouralStrategy:
    """The strategy that picks every action of every information set with equal odds."""
    counts = np.fromiter((len(a) for a in table.actions), dtype=float, count=table.num_infosets)
    probabilities = np.ones(table.num_sequences)
    probabilities[1:] = 1.0 / counts[table.sequence_infoset[1:]]
    return BehaviouralStrategy(
        table=table,
        probabilities=probabilities,
        unreached=np.zeros(table.num_infosets, dtype=bool),
    )
