"""The pure strategies of one player, full or reduced, enumerated with their 0/1 plans.

A pure strategy picks an action at every information set; its realization plan
(KMvS 1996, §3) has ``x[h, a] = 1`` when the strategy picks ``a`` at ``h`` and its own
earlier choices lead to ``h`` (``x[parent(h)] = 1``).  The reduced pure strategies are the
distinct plans, built by the recursion ``R(s)`` of :mod:`seqform.forms.normal_counts`; the
counts there are checked before anything is enumerated here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from seqform.base.counts import count_at_most
from seqform.forms.normal_counts import (
    DEFAULT_MAX_ENTRIES,
    NormalFormTooLargeError,
    count_pure_strategies,
    count_reduced_strategies,
    count_text,
)
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.sequences import PlayerSequences

__all__ = ["PureStrategies", "pure_strategies"]


@dataclass(frozen=True)
class PureStrategies:
    """The pure strategies of one player, full or reduced, with their realization plans.

    table : the player's sequence table
    reduced : True for the reduced normal form (one strategy per distinct plan)
    choices : int array, shape (strategies, information sets): the action index chosen at
        each information set; -1 where the strategy's own earlier choices exclude it
        (reduced strategies only)
    plans : csc_array, shape (sequences, strategies): column ``k`` is the 0/1 realization
        plan of strategy ``k`` (the matrix ``P`` of :mod:`seqform.forms.normal_form`)

    Order: lexicographic in the choices, the first information set most significant.
    """

    table: PlayerSequences
    reduced: bool
    choices: np.ndarray
    plans: sp.csc_array

    def __len__(self) -> int:
        return int(self.choices.shape[0])

    def label(self, index: int) -> str:
        """``"J:b Jpb:p Q:p Qpb:b K:b Kpb:b"``; excluded information sets are left out."""
        table = self.table
        parts = [
            f"{table.infosets[infoset]}:{table.actions[infoset][choice]}"
            for infoset, choice in enumerate(self.choices[index].tolist())
            if choice >= 0
        ]
        return " ".join(parts) if parts else "∅"

    def labels(self) -> list[str]:
        """The labels of all strategies, in order."""
        return [self.label(index) for index in range(len(self))]

    def behaviour(self, index: int) -> BehaviouralStrategy:
        """Strategy ``index`` as a 0/1 behavioural strategy.

        Excluded information sets (reduced strategies) get their first action and are
        flagged ``unreached``; no payoff depends on them.
        """
        table = self.table
        probabilities = np.zeros(table.num_sequences)
        probabilities[0] = 1.0
        choices = self.choices[index]
        for infoset, choice in enumerate(choices.tolist()):
            probabilities[int(table.first_sequence[infoset]) + max(choice, 0)] = 1.0
        return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=choices < 0)


def _full_choices(table: PlayerSequences) -> np.ndarray:
    sizes = [len(actions) for actions in table.actions]
    if not sizes:
        return np.zeros((1, 0), dtype=np.int64)
    digits = np.unravel_index(np.arange(math.prod(sizes)), sizes)
    return np.stack(digits, axis=1).astype(np.int64)


def _plans_of_choices(table: PlayerSequences, choices: np.ndarray) -> np.ndarray:
    """0/1 plans, shape (strategies, sequences), of fully specified choices."""
    plans = np.zeros((choices.shape[0], table.num_sequences), dtype=bool)
    plans[:, 0] = True
    # Parents precede their information sets, so one pass in index order suffices.
    for infoset in range(table.num_infosets):
        reached = np.flatnonzero(plans[:, int(table.parent_sequence[infoset])])
        plans[reached, int(table.first_sequence[infoset]) + choices[reached, infoset]] = True
    return plans


def _reduced_plans(table: PlayerSequences) -> np.ndarray:
    """The distinct 0/1 plans, shape (strategies, sequences), by the recursion ``R(s)``."""
    width = table.num_sequences
    entered: list[list[int]] = [[] for _ in range(width)]
    for infoset in range(table.num_infosets):
        entered[int(table.parent_sequence[infoset])].append(infoset)
    per_infoset: dict[int, np.ndarray] = {}

    def after(sequence: int) -> np.ndarray:
        # Every combination of the options of the information sets entered from here, the
        # first information set most significant.
        combined = np.zeros((1, width), dtype=bool)
        for infoset in entered[sequence]:
            options = per_infoset.pop(infoset)
            combined = (combined[:, None, :] | options[None, :, :]).reshape(-1, width)
        return combined

    for infoset in reversed(range(table.num_infosets)):
        blocks = []
        for sequence in table.sequences_of(infoset):
            block = after(sequence)
            block[:, sequence] = True
            blocks.append(block)
        per_infoset[infoset] = np.concatenate(blocks)
    root = after(0)
    root[:, 0] = True
    return root


def _choices_of_plans(table: PlayerSequences, plans: np.ndarray) -> np.ndarray:
    choices = np.full((plans.shape[0], table.num_infosets), -1, dtype=np.int64)
    for infoset in range(table.num_infosets):
        block = plans[:, table.sequences_of(infoset).start : table.sequences_of(infoset).stop]
        chosen = block.any(axis=1)
        choices[chosen, infoset] = block[chosen].argmax(axis=1)
    return choices


def pure_strategies(
    table: PlayerSequences, *, reduced: bool = False, max_strategies: int = DEFAULT_MAX_ENTRIES
) -> PureStrategies:
    """Enumerate one player's pure strategies (or reduced pure strategies) with their plans.

    Parameters
    ----------
    table
        The player's sequence table.
    reduced
        Merge strategies with the same realization plan (the reduced normal form).
    max_strategies
        Refuse, before enumerating anything, if there are more strategies than this.

    Raises
    ------
    NormalFormTooLargeError
        If the exact count exceeds ``max_strategies``.
    """
    count = count_reduced_strategies(table) if reduced else count_pure_strategies(table)
    if not count_at_most(count, max_strategies):
        kind = "reduced pure strategies" if reduced else "pure strategies"
        raise NormalFormTooLargeError(
            f"player {table.player + 1} has {count_text(count)} {kind}, more than the limit "
            f"of {count_text(max_strategies)}"
        )
    if reduced:
        plans = _reduced_plans(table)
        choices = _choices_of_plans(table, plans)
    else:
        choices = _full_choices(table)
        plans = _plans_of_choices(table, choices)
    return PureStrategies(
        table=table,
        reduced=reduced,
        choices=choices,
        plans=sp.csc_array(plans.T, dtype=float),
    )
