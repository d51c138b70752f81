"""The explicit payoff matrix ``A`` of a structured game (small sizes), and its size.

``A = sum_z M_z ⊗ e_{s0(z)} e_{s1(z)}ᵀ`` (:mod:`seqform.structured.products`): each public
leaf's private matrix ``M_z`` is written densely (``H0 × H1``, from the rule's ``dense``)
into the rows ``sequence_index[0][:, s0(z)]`` and columns ``sequence_index[1][:, s1(z)]``.
That is for tests and the exact LP route on small games; :func:`payoff_nnz` counts the
non-zeros of ``A`` without forming it (one dense pattern per group of leaves sharing rule
kind, levels and public cards), so the factored LP can report it beside its own size.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.game.public_numbering import number_public_tree
from seqform.game.public_tree import Constant, PayoffRule, Sign, StructuredGame
from seqform.structured.products import LeafGroup, leaf_groups

__all__ = ["PayoffEntries", "payoff_entries", "payoff_matrix", "payoff_nnz"]


@dataclass(frozen=True)
class PayoffEntries:
    """The non-zero entries of ``A``: ``A[rows[i], columns[i]] = values[i]`` (exact), no
    two entries at the same place."""

    rows: np.ndarray
    columns: np.ndarray
    values: tuple[Fraction, ...]
    shape: tuple[int, int]


def _clash_free(game: StructuredGame) -> np.ndarray:
    """Shape (H0, H1): True where the two hands hold no common card."""
    first, second = game.hands[0].cards[:, None], game.hands[1].cards[None, :]
    return (first < 0) | (second < 0) | (first != second)


def _pattern(game: StructuredGame, group: LeafGroup, leaf: int) -> np.ndarray:
    """Shape (H0, H1): where ``M_z`` of the group's ``leaf``-th leaf is non-zero."""
    numbering = number_public_tree(game)
    valid0 = numbering.hand_valid[0][group.cards]
    valid1 = numbering.hand_valid[1][group.cards]
    weights0 = np.asarray([w != 0 for w in game.hands[0].weights])
    weights1 = np.asarray([w != 0 for w in game.hands[1].weights])
    rule = numbering.leaf_rules[int(group.leaves[leaf])]
    values = rule.dense(group.levels[0], group.levels[1])
    nonzero = np.asarray(values != 0, dtype=bool)
    live = _clash_free(game) & (valid0 & weights0)[:, None] & (valid1 & weights1)[None, :]
    return nonzero & live & (group.chance_exact[leaf] != 0)


def _pattern_key(rule: PayoffRule) -> tuple[object, ...]:
    """What decides where a rule is non-zero: not a sign's stake, only whether it is 0."""
    if isinstance(rule, Constant):
        return ("constant", rule.payoff != 0)
    if isinstance(rule, Sign):
        return ("sign", rule.stake != 0)
    return ("threshold", rule.quantity, rule.if_reached != 0, rule.otherwise != 0)


def payoff_entries(game: StructuredGame) -> PayoffEntries:
    """Every non-zero entry of ``A``, exact (object arithmetic: small games only)."""
    numbering = number_public_tree(game)
    index0, index1 = numbering.sequence_index
    weights0 = np.asarray(game.hands[0].weights, dtype=object)
    weights1 = np.asarray(game.hands[1].weights, dtype=object)
    totals: dict[tuple[int, int], Fraction] = {}
    for group in leaf_groups(game):
        for position, leaf in enumerate(group.leaves.tolist()):
            rule = numbering.leaf_rules[leaf]
            pattern = _pattern(game, group, position)
            hands0, hands1 = np.nonzero(pattern)
            values = rule.dense(group.levels[0], group.levels[1])[hands0, hands1]
            scale = group.chance_exact[position]
            s0, s1 = (int(s) for s in group.sequences[position])
            rows, columns = index0[hands0, s0].tolist(), index1[hands1, s1].tolist()
            for row, column, value, w0, w1 in zip(
                rows, columns, values, weights0[hands0], weights1[hands1], strict=True
            ):
                totals[row, column] = (
                    totals.get((row, column), Fraction(0)) + scale * w0 * w1 * value
                )
    kept = [(place, value) for place, value in totals.items() if value != 0]
    shape = (numbering.num_sequences(0), numbering.num_sequences(1))
    return PayoffEntries(
        rows=np.asarray([place[0] for place, _ in kept], dtype=np.int64),
        columns=np.asarray([place[1] for place, _ in kept], dtype=np.int64),
        values=tuple(value for _, value in kept),
        shape=shape,
    )


def payoff_matrix(game: StructuredGame) -> sp.csr_array:
    """``A`` as a float sparse matrix (rows: player 0's game sequences, columns: player 1's),
    from :func:`payoff_entries`."""
    entries = payoff_entries(game)
    values = np.asarray([float(v) for v in entries.values], dtype=float)
    return sp.csr_array((values, (entries.rows, entries.columns)), shape=entries.shape)


def payoff_nnz(game: StructuredGame) -> int:
    """The non-zeros of ``A``, counted without forming it.

    Per group of leaves, one dense ``H0 × H1`` pattern per distinct rule; leaves that share
    their ``(s0, s1)`` (a public chance after both players' last actions) would add up in
    ``A``, so those are counted from :func:`payoff_entries` instead.
    """
    numbering = number_public_tree(game)
    pairs = numbering.leaf_sequences
    if len(np.unique(pairs, axis=0)) != len(pairs):
        return len(payoff_entries(game).values)
    count = 0
    for group in leaf_groups(game):
        counted: dict[object, int] = {}
        for position, leaf in enumerate(group.leaves.tolist()):
            key = (_pattern_key(numbering.leaf_rules[leaf]), group.chance_exact[position] != 0)
            if key not in counted:
                counted[key] = int(_pattern(game, group, position).sum())
            count += counted[key]
    return count
