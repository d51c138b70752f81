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


def _leaf_nnz(
    rule: PayoffRule,
    levels: tuple[np.ndarray, np.ndarray],
    valid: tuple[np.ndarray, np.ndarray],
    clashes: np.ndarray,
) -> int:
    """``nnz(M_z)`` of a leaf: the live pairs with a non-zero rule value
    (:func:`_nonzero_pairs`) minus the clashing pairs among them.

    valid : per player, the hands live at the leaf (valid under its public cards, non-zero
        weight); clashes : the game's clashing pairs of weighted hands (:func:`_clashing_pairs`)
    """
    live0, live1 = np.flatnonzero(valid[0]), np.flatnonzero(valid[1])
    pairs = clashes[valid[0][clashes[:, 0]] & valid[1][clashes[:, 1]]]
    clashing = _nonzero_at(rule, levels[0][pairs[:, 0]], levels[1][pairs[:, 1]])
    return _nonzero_pairs(rule, levels[0][live0], levels[1][live1]) - int(clashing.sum())


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
        signs *= numbers[0]
        return signs
    reached = (levels0[:, None] + levels1[None, :]) >= rule.quantity
    return np.where(reached, numbers[0], numbers[1]).astype(dtype)


def _shared_nnz(game: StructuredGame, leaves: np.ndarray, live: np.ndarray) -> int:
    """The non-zeros of ``A`` at the rows and columns of leaves sharing one ``(s0, s1)``:
    there ``A[h0, h1] = sum_z chance_z rule_z(l0(h0), l1(h1))`` over the leaves ``z`` where
    both hands are valid, which may cancel (a hand winning on one river card and losing on
    another).  Summed exactly as integers: every payoff times the common denominator, then
    divided by the common factor of all (a bucket's runouts share their stake and chance,
    so its numbers are mostly ±1), in the narrowest integer type the sum cannot overflow
    (int16 for up to 32,767 runouts of ±1: a quarter of int64's memory traffic), else
    Python integers; ``live`` is the ``(H0, H1)`` mask of pairs that hold no common card
    and have non-zero weights."""
    numbering = number_public_tree(game)
    rules = [numbering.leaf_rules[leaf] for leaf in leaves.tolist()]
    exact: dict[tuple[int, Fraction], tuple[Fraction, ...]] = {}  # leaves share rule and chance
    chances = [numbering.leaf_chance[leaf] for leaf in leaves.tolist()]
    keys = [(id(rule), chance) for rule, chance in zip(rules, chances, strict=True)]
    for rule, key in zip(rules, keys, strict=True):
        if key not in exact:
            exact[key] = _integer_values(rule, key[1])
    scale = math.lcm(*(value.denominator for values in exact.values() for value in values))
    scaled = {key: [int(value * scale) for value in values] for key, values in exact.items()}
    common = math.gcd(*(n for values in scaled.values() for n in values)) or 1
    numbers = {key: tuple(n // common for n in values) for key, values in scaled.items()}
    largest = max((abs(n) for values in numbers.values() for n in values), default=0)
    dtype = _sum_type(largest * len(leaves))
    total: np.ndarray = np.zeros(live.shape, dtype=dtype)
    zeros = (np.zeros(game.num_hands(0), np.int64), np.zeros(game.num_hands(1), np.int64))
    for rule, leaf, key in zip(rules, leaves.tolist(), keys, strict=True):
        values = numbers[key]
        levels = numbering.leaf_levels[leaf] or zeros
        valid0, valid1 = (numbering.hand_valid[p][numbering.leaf_cards[leaf]] for p in (0, 1))
        dense = _scaled_dense(rule, values, np.asarray(levels[0]), np.asarray(levels[1]), dtype)
        dense *= valid0[:, None]
        dense *= valid1[None, :]
        total += dense
    return int(np.count_nonzero((total != 0) & live))


def _sum_type(bound: int) -> type:
    """The narrowest integer type holding sums up to ``bound`` in magnitude, else
    ``object`` (Python integers)."""
    for dtype in (np.int16, np.int32, np.int64):
        if bound < np.iinfo(dtype).max:
            return dtype
    return object


def _live_pairs(game: StructuredGame) -> np.ndarray:
    """Shape (H0, H1): the pairs of non-zero weight that hold no common card."""
    weights0 = np.asarray([w != 0 for w in game.hands[0].weights], dtype=bool)
    weights1 = np.asarray([w != 0 for w in game.hands[1].weights], dtype=bool)
    return _clash_free(game) & weights0[:, None] & weights1[None, :]


def _shared_buckets(pairs: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Per leaf whether another leaf has its ``(s0, s1)``, and those leaves in buckets of
    one ``(s0, s1)`` each."""
    shared = np.zeros(len(pairs), dtype=bool)
    if not len(pairs):
        return shared, []
    _, inverse, counts = np.unique(pairs, axis=0, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    shared = counts[inverse] > 1
    order = np.argsort(inverse[shared], kind="stable")
    members = np.flatnonzero(shared)[order]
    if not len(members):
        return shared, []
    _, starts = np.unique(inverse[members], return_index=True)
    return shared, np.split(members, starts[1:])


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
    shared, buckets = _shared_buckets(numbering.leaf_sequences)
    weighted = [np.asarray([w != 0 for w in game.hands[p].weights], dtype=bool) for p in (0, 1)]
    clashes = _clashing_pairs(game, np.flatnonzero(weighted[0]), np.flatnonzero(weighted[1]))
    zeros = (np.zeros(game.num_hands(0), np.int64), np.zeros(game.num_hands(1), np.int64))
    patterns: dict[int, tuple[object, ...]] = {}  # per rule object (leaves share a few)
    counted: dict[tuple[object, ...], int] = {}
    count = 0
    for rule, levels, cards, chance, apart in zip(
        numbering.leaf_rules,
        numbering.leaf_levels,
        numbering.leaf_cards.tolist(),
        numbering.leaf_chance,
        shared.tolist(),
        strict=True,
    ):
        if apart or chance == 0:
            continue
        pattern = patterns.get(id(rule))
        if pattern is None:
            pattern = patterns[id(rule)] = _pattern_key(rule)
        pair = zeros if levels is None else levels
        key = (id(pair[0]), id(pair[1]), cards, pattern)
        if key not in counted:
            valid = (
                numbering.hand_valid[0][cards] & weighted[0],
                numbering.hand_valid[1][cards] & weighted[1],
            )
            counted[key] = _leaf_nnz(rule, pair, valid, clashes)
        count += counted[key]
    if buckets:
        live = _live_pairs(game)
        count += sum(_shared_nnz(game, bucket, live) for bucket in buckets)
    return count
