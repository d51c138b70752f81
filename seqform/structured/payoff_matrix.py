"""The explicit payoff matrix ``A`` of a structured game (small sizes), and its size.

``A = sum_z M_z ⊗ e_{s0(z)} e_{s1(z)}ᵀ`` (:mod:`seqform.structured.products`): each public
leaf's private matrix ``M_z`` is written densely (``H0 × H1``, from the rule's ``dense``)
into the rows ``sequence_index[0][:, s0(z)]`` and columns ``sequence_index[1][:, s1(z)]``.
That is for tests and the exact LP route on small games; :func:`payoff_nnz` counts the
non-zeros of ``A`` without forming it (from the level histograms per group of leaves sharing
rule kind, levels and public cards; leaves that share their ``(s0, s1)`` summed as integer
``H0 × H1`` matrices), so the factored LP can report it beside its own size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import Constant, PayoffRule, Sign, StructuredGame, hands_clash_free
from seqform.structured.leaf_groups import LeafGroup, leaf_groups

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
    return hands_clash_free(*game.hands)


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


def _nonzero_pairs(rule: PayoffRule, levels0: np.ndarray, levels1: np.ndarray) -> int:
    """How many pairs ``(h0, h1)`` of the given hands' levels have ``rule(l0, l1) != 0``,
    counted from the level histograms ``n0``, ``n1`` (exact integers, no pair visited):
    a constant all ``|h0| |h1|`` or none; a sign all but the equal levels,
    ``|h0| |h1| - sum_l n0(l) n1(l)``; a threshold the pairs with ``l0 + l1 >= q`` (a
    running count over player 1's sorted levels), their complement, all or none."""
    total = len(levels0) * len(levels1)
    if isinstance(rule, Constant):
        return total if rule.payoff != 0 else 0
    if isinstance(rule, Sign):
        if rule.stake == 0:
            return 0
        values0, counts0 = np.unique(levels0, return_counts=True)
        values1, counts1 = np.unique(levels1, return_counts=True)
        _, at0, at1 = np.intersect1d(values0, values1, assume_unique=True, return_indices=True)
        return total - int(np.dot(counts0[at0].astype(object), counts1[at1].astype(object)))
    sorted1 = np.sort(np.asarray(levels1, dtype=np.int64))
    below = np.searchsorted(sorted1, rule.quantity - np.asarray(levels0, dtype=np.int64))
    reached = total - int(below.sum(dtype=np.int64))
    return (reached if rule.if_reached != 0 else 0) + (
        total - reached if rule.otherwise != 0 else 0
    )


def _nonzero_at(rule: PayoffRule, levels0: np.ndarray, levels1: np.ndarray) -> np.ndarray:
    """Elementwise ``rule(levels0[i], levels1[i]) != 0`` (aligned arrays)."""
    if isinstance(rule, Constant):
        return np.full(len(levels0), rule.payoff != 0)
    if isinstance(rule, Sign):
        return (levels0 != levels1) & (rule.stake != 0)
    reached = levels0 + levels1 >= rule.quantity
    return np.where(reached, rule.if_reached != 0, rule.otherwise != 0)


def _live_hands(game: StructuredGame, group: LeafGroup, player: int) -> np.ndarray:
    """The player's hands that can reach the group's leaves: valid under its public cards
    and of non-zero weight."""
    valid = number_public_tree(game).hand_valid[player][group.cards]
    weighted = np.asarray([w != 0 for w in game.hands[player].weights], dtype=bool)
    return np.flatnonzero(valid & weighted)


def _clashing_pairs(game: StructuredGame, live0: np.ndarray, live1: np.ndarray) -> np.ndarray:
    """Shape (k, 2): the pairs of live hands that hold a common card (one-card hands: each
    card is held by at most one hand of each player, so at most ``min(H0, H1)`` pairs;
    two-card hands: by card, each pair once)."""
    if game.hands[0].card_matrix.shape[1] == 2:
        return _clashing_two_card_pairs(game, live0, live1)
    cards0, cards1 = game.hands[0].cards[live0], game.hands[1].cards[live1]
    held0, held1 = cards0 >= 0, cards1 >= 0
    _, at0, at1 = np.intersect1d(
        cards0[held0], cards1[held1], assume_unique=True, return_indices=True
    )
    return np.stack([live0[held0][at0], live1[held1][at1]], axis=1)


def _clashing_two_card_pairs(
    game: StructuredGame, live0: np.ndarray, live1: np.ndarray
) -> np.ndarray:
    """:func:`_clashing_pairs` for two-card hands: the pairs holding each card, joined by
    card (at most 51 hands of a player hold a card), without the repeats of a pair that
    shares both cards."""
    holders = []
    for player, live in ((0, live0), (1, live1)):
        cards = game.hands[player].card_matrix[live]
        holders.append((cards.reshape(-1), np.repeat(live, 2)))
    found = []
    for card in np.intersect1d(holders[0][0], holders[1][0]).tolist():
        first = holders[0][1][holders[0][0] == card]
        second = holders[1][1][holders[1][0] == card]
        found.append(np.stack(np.meshgrid(first, second, indexing="ij"), axis=-1).reshape(-1, 2))
    if not found:
        return np.zeros((0, 2), dtype=np.int64)
    return np.unique(np.concatenate(found), axis=0)


def _leaf_nnz(game: StructuredGame, group: LeafGroup, rule: PayoffRule) -> int:
    """``nnz(M_z)`` for one leaf of the group: the live pairs with a non-zero rule value
    (:func:`_nonzero_pairs`) minus the clashing pairs among them."""
    live0, live1 = _live_hands(game, group, 0), _live_hands(game, group, 1)
    levels0, levels1 = group.levels[0][live0], group.levels[1][live1]
    clashes = _clashing_pairs(game, live0, live1)
    clashing = _nonzero_at(rule, group.levels[0][clashes[:, 0]], group.levels[1][clashes[:, 1]])
    return _nonzero_pairs(rule, levels0, levels1) - int(clashing.sum())


def _integer_values(rule: PayoffRule, chance: Fraction) -> tuple[Fraction, ...]:
    """The leaf's exact payoffs ``chance_z · rule``: a constant's payoff, a sign's stake, a
    threshold's ``if_reached`` and ``otherwise``."""
    if isinstance(rule, Constant):
        return (chance * rule.payoff,)
    if isinstance(rule, Sign):
        return (chance * rule.stake,)
    return (chance * rule.if_reached, chance * rule.otherwise)


def _scaled_dense(
    rule: PayoffRule,
    numbers: tuple[int, ...],
    levels0: np.ndarray,
    levels1: np.ndarray,
    dtype: type,
) -> np.ndarray:
    """Shape (H0, H1): the leaf's payoffs ``chance_z · rule(l0, l1)`` times the bucket's
    common denominator, as integers (``numbers`` from :func:`_integer_values`, scaled)."""
    if isinstance(rule, Constant):
        return np.full((len(levels0), len(levels1)), numbers[0], dtype=dtype)
    if isinstance(rule, Sign):
        signs = np.sign(levels0[:, None] - levels1[None, :]).astype(dtype)
        return signs * numbers[0]
    reached = (levels0[:, None] + levels1[None, :]) >= rule.quantity
    return np.where(reached, numbers[0], numbers[1]).astype(dtype)


def _shared_nnz(game: StructuredGame, leaves: np.ndarray, live: np.ndarray) -> int:
    """The non-zeros of ``A`` at the rows and columns of leaves sharing one ``(s0, s1)``:
    there ``A[h0, h1] = sum_z chance_z rule_z(l0(h0), l1(h1))`` over the leaves ``z`` where
    both hands are valid, which may cancel (a hand winning on one river card and losing on
    another).  Summed exactly as integers (every payoff times the common denominator),
    in int64 when the sum cannot overflow it, else Python integers; ``live`` is the
    ``(H0, H1)`` mask of pairs that hold no common card and have non-zero weights."""
    numbering = number_public_tree(game)
    rules = [numbering.leaf_rules[leaf] for leaf in leaves.tolist()]
    exact = [
        _integer_values(rule, numbering.leaf_chance[leaf])
        for rule, leaf in zip(rules, leaves.tolist(), strict=True)
    ]
    scale = math.lcm(*(value.denominator for values in exact for value in values))
    numbers = [tuple(int(value * scale) for value in values) for values in exact]
    largest = max((abs(n) for values in numbers for n in values), default=0)
    dtype = np.int64 if largest * len(leaves) < 2**62 else object
    total = np.zeros(live.shape, dtype=dtype)
    zeros = (np.zeros(game.num_hands(0), np.int64), np.zeros(game.num_hands(1), np.int64))
    for rule, leaf, values in zip(rules, leaves.tolist(), numbers, strict=True):
        levels = numbering.leaf_levels[leaf] or zeros
        valid0, valid1 = (numbering.hand_valid[p][numbering.leaf_cards[leaf]] for p in (0, 1))
        dense = _scaled_dense(rule, values, np.asarray(levels[0]), np.asarray(levels[1]), dtype)
        total += np.where(valid0[:, None] & valid1[None, :], dense, 0)
    return int(np.count_nonzero((total != 0) & live))


def _live_pairs(game: StructuredGame) -> np.ndarray:
    """Shape (H0, H1): the pairs of non-zero weight that hold no common card."""
    weights0 = np.asarray([w != 0 for w in game.hands[0].weights], dtype=bool)
    weights1 = np.asarray([w != 0 for w in game.hands[1].weights], dtype=bool)
    return _clash_free(game) & weights0[:, None] & weights1[None, :]


def payoff_nnz(game: StructuredGame) -> int:
    """The non-zeros of ``A``, counted without forming it, in time linear in the hands per
    group of leaves (exact integers).

    Per leaf ``z``, ``nnz(M_z)`` = the pairs of live hands (valid under the public cards,
    non-zero weight) whose levels give a non-zero rule value — from the level histograms,
    ``sum over (l0, l1) with rule(l0, l1) != 0 of n0(l0) n1(l1)`` — minus those of them
    that clash on a card; leaves of a group with the same rule pattern share the count.
    Leaves that share their ``(s0, s1)`` (a public chance after both players' last actions:
    a turn's all-in called, the river dealt) add up in ``A``, so each such set is summed
    over the ``H0 × H1`` pairs in integers (:func:`_shared_nnz`).
    """
    numbering = number_public_tree(game)
    pairs = numbering.leaf_sequences
    shared = np.zeros(len(pairs), dtype=bool)
    buckets: list[np.ndarray] = []
    if len(pairs):
        _, inverse, counts = np.unique(pairs, axis=0, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
        shared = counts[inverse] > 1
        order = np.argsort(inverse[shared], kind="stable")
        members = np.flatnonzero(shared)[order]
        if len(members):
            _, starts = np.unique(inverse[members], return_index=True)
            buckets = np.split(members, starts[1:])
    count = 0
    for group in leaf_groups(game):
        counted: dict[object, int] = {}
        for position, leaf in enumerate(group.leaves.tolist()):
            if group.chance_exact[position] == 0 or shared[leaf]:
                continue
            rule = numbering.leaf_rules[leaf]
            key = _pattern_key(rule)
            if key not in counted:
                counted[key] = _leaf_nnz(game, group, rule)
            count += counted[key]
    if buckets:
        live = _live_pairs(game)
        count += sum(_shared_nnz(game, bucket, live) for bucket in buckets)
    return count
