"""``A y`` and ``Aᵀ x`` of a structured game without forming ``A`` (floats or exact).

For a structured game (:mod:`seqform.game.public.tree`) the sequence-form payoff matrix is
``A = sum_z M_z ⊗ e_{s0(z)} e_{s1(z)}ᵀ`` with the private payoff matrix

    M_z[h0, h1] = chance_z · w0[h0] w1[h1] · valid_z(h0) valid_z(h1) · [no card clash]
                  · rule_z(l0[h0], l1[h1]).

So ``(A y)[(h0, s)] = sum_{z: s0(z) = s} chance_z w0[h0] valid_z(h0) ·
sum_{h1 no clash} rule_z(l0[h0], l1[h1]) v_z[h1]`` with ``v_z = w1 · valid_z · Y[:, s1(z)]``
(``Y`` the plan as an ``(H1, S1)`` hand matrix, :func:`hand_matrix`).  The inner sum costs
``O(H)`` per leaf instead of ``O(H²)``, by the structure of the rule (Johanson, Waugh,
Bowling and Zinkevich, IJCAI 2011, §4.2; the bidiagonal differencing of Farina and
Sandholm, AAAI 2022): with ``T = sum v``, ``E[l]`` the sum of ``v`` over hands of level
``l`` and ``P[l] = sum_{l' < l} E[l']``,

    Constant c :  c T
    Sign k     :  k (2 P[l0] + E[l0] - T)         (to player 0's hand of level l0)
                  k (T - 2 P[l1] - E[l1])         (to player 1's hand of level l1)
    Threshold  :  b T + (a - b) (T - P[q - l])    (a if l0 + l1 >= q, else b)

and then the one clashing opponent hand (the hand holding the same card, when hands hold
cards) is taken out: ``- rule(l0, l1) v[partner]``.  Leaves are processed in groups that
share a rule kind, levels and public cards, a column per leaf, so the cost is
``O(|Z| · H)`` in a few numpy calls per group; what does not depend on the plan (the
groups, the hands in level order, each (hand, leaf)'s game sequence) is built once per game
by :mod:`seqform.structured.leaf_groups`, and the groups' sums are added onto the
sequences in one ``np.bincount``.  The same code runs on object arrays for the exact
certificate: Fractions in and out, python-flint's ``fmpq`` inside (:func:`_to_fmpq`),
whose arithmetic is in C, 5 to 7 times as fast as ``Fraction``'s on these sums.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import StructuredGame
from seqform.structured.leaf_factors import float_factors, rule_values
from seqform.structured.leaf_groups import (
    CONSTANT,
    SIGN,
    LeafGroup,
    Rows,
    as_numbers,
    leaf_groups,
    leaf_index,
)

__all__ = [
    "LeafGroup",
    "hand_matrix",
    "leaf_groups",
    "payoff_to_first",
    "payoff_to_second",
    "sequence_vector",
]


def hand_matrix(game: StructuredGame, player: int, vector: np.ndarray) -> np.ndarray:
    """View a vector on the player's game sequences as an ``(H_p, S_p)`` array: column 0
    repeats ``vector[0]``, invalid (hand, sequence) pairs are 0; the vector's dtype."""
    index = number_public_tree(game).sequence_index[player]
    vector = np.asarray(vector)
    matrix = np.where(index >= 0, vector[np.maximum(index, 0)], 0)
    return matrix.astype(vector.dtype, copy=False)


def sequence_vector(game: StructuredGame, player: int, matrix: np.ndarray) -> np.ndarray:
    """The inverse of :func:`hand_matrix` for sums: entry 0 adds column 0 over the hands,
    every other game sequence takes its (hand, public sequence) entry."""
    index = number_public_tree(game).sequence_index[player]
    valid = index >= 0
    valid[:, 0] = False
    vector = np.empty(int(index.max(initial=0)) + 1, dtype=matrix.dtype)
    vector[0] = matrix[:, 0].sum()
    vector[index[valid]] = matrix[valid]
    return vector


def _shared_card_sums(
    game: StructuredGame, group: LeafGroup, player: int, weighted: np.ndarray, exact: bool
) -> np.ndarray:
    """``sum_{c in h} sum_{h' holding c} rule_z(h, h') weighted[h', z]`` per own two-card
    hand ``h`` and leaf ``z``: the rule's sums of :func:`_group_sums` restricted, card by
    card, to the opponent hands that hold the card (hold'em card removal by inclusion and
    exclusion: a hand sharing both cards, the twin, is counted twice and added back once
    by the caller).  The opponent's (card, level) incidences are sorted by card then level,
    so each restricted prefix sum ``P_c(m) = sum_{h' holding c, l' < m}`` is a difference
    of one cumulative sum at two ``searchsorted`` positions: ``O(H Z log H)`` in all."""
    own_levels, other_levels = group.levels[player], group.levels[1 - player]
    other_cards = game.hands[1 - player].card_matrix
    span = int(max(own_levels.max(initial=0), other_levels.max(initial=0))) + 2
    holders = np.repeat(np.arange(len(other_cards)), 2)
    keys = other_cards.reshape(-1) * span + other_levels[holders]
    order = np.argsort(keys, kind="stable")
    keys, holders = keys[order], holders[order]
    rows = weighted[holders]
    running = np.concatenate([np.zeros_like(weighted[:1]), np.cumsum(rows, axis=0)])

    def prefix(card: np.ndarray, level: np.ndarray) -> np.ndarray:
        """``P_card(level)`` per query row (levels clipped to ``[0, span)``)."""
        at = np.searchsorted(keys, card * span + np.clip(level, 0, span - 1))
        start = np.searchsorted(keys, card * span)
        return running[at] - running[start]

    first, second = group.rule_numbers(exact)
    if exact:
        first, second = _to_fmpq(first), _to_fmpq(second)
    parts = []
    for column in game.hands[player].card_matrix.T:
        card_total = prefix(column, np.full(len(column), span - 1))
        if group.kind == CONSTANT:
            part = first * card_total
        elif group.kind == SIGN:
            below = prefix(column, own_levels)
            at_or_below = prefix(column, own_levels + 1)
            signed = below + at_or_below - card_total  # below − above
            part = (signed if player == 0 else -signed) * first
        else:
            needed = group.quantity[None, :] - own_levels[:, None]
            reached = card_total - np.stack(
                [prefix(column, needed[:, z]) for z in range(needed.shape[1])], axis=1
            )
            part = second * card_total + (first - second) * reached
        parts.append(part)
    return parts[0] + parts[1]


def _to_fmpq(values: np.ndarray) -> np.ndarray:
    """An object array of Fractions (or integers) as python-flint's ``fmpq``, the same
    shape.  ``fmpq`` and ``Fraction`` do not mix (a TypeError, never a float), so every
    exact number of a product passes through here first."""
    import flint  # a dependency, imported where used (CLI start-up)

    array = np.asarray(values, dtype=object)
    out = np.empty(array.shape, dtype=object)
    out.flat[:] = [flint.fmpq(int(v.numerator), int(v.denominator)) for v in array.flat]
    return out


def _to_fractions(values: np.ndarray) -> np.ndarray:
    """The inverse of :func:`_to_fmpq` (an untouched integer 0 too)."""
    out = np.empty(values.shape, dtype=object)
    out.flat[:] = [Fraction(int(v.numerator), int(v.denominator)) for v in values.flat]
    return out


def _read(matrix: np.ndarray, rows: Rows) -> np.ndarray:
    """``matrix[rows]``: a view for a slice, a gather (``np.take``, faster than fancy
    indexing for whole rows) for indices."""
    return matrix[rows] if isinstance(rows, slice) else np.take(matrix, rows, axis=0)


def _column_sums(matrix: np.ndarray, exact: bool) -> np.ndarray:
    """``matrix.sum(axis=0)``; for floats as ``1ᵀ M`` (a BLAS product: numpy's own sum down
    the long axis of a tall, narrow array is some 30 times slower)."""
    if exact:
        return matrix.sum(axis=0)
    return np.ones(len(matrix)) @ matrix


def _group_sums(
    group: LeafGroup, player: int, weighted: np.ndarray, chance: np.ndarray, exact: bool
) -> np.ndarray:
    """``chance_z · sum_{h'} rule_z(h, h') weighted[h', z]`` over all opponent hands (clashes
    included), per own hand ``h`` and leaf ``z`` of the group (``chance``: a row), by the
    running sums (module docstring): one cumulative sum over the opponent's hands in level
    order, read where each level starts (:class:`~seqform.structured.leaf_groups.LeafGroup`),
    gives every ``P[l]``; a threshold's ``b T + (a − b)(T − P)`` is ``a T − (a − b) P``."""
    own_levels = group.levels[player]
    first, second = group.rule_numbers(exact)
    if exact:
        first, second = _to_fmpq(first), _to_fmpq(second)
    first, second = first * chance, second * chance
    if group.kind == CONSTANT:
        total = _column_sums(weighted, exact)
        return np.broadcast_to(first * total[None, :], (len(own_levels), len(total))) * 1
    order = group.level_order[1 - player]
    running = np.empty((len(order) + 1, weighted.shape[1]), dtype=weighted.dtype)
    running[0] = 0
    in_order = group.in_level_order[1 - player]
    np.cumsum(weighted if in_order else np.take(weighted, order, axis=0), axis=0, out=running[1:])
    total = running[-1]
    if group.kind == SIGN:  # E[l] + 2 P[l] - T = P[l + 1] + P[l] - T
        above, at_level = (_read(running, rows) for rows in group.sign_rows[player])
        at = np.add(above, at_level)
        at -= total[None, :]
        return (at if player == 0 else -at) * first
    return first * total[None, :] - (first - second) * np.take(running, group.reached_at[player])


def _scatter(game: StructuredGame, player: int, values: np.ndarray, exact: bool) -> np.ndarray:
    """Every group's ``(H, n)`` sums, raveled in group order, added onto the player's game
    sequences through the slots (:class:`~seqform.structured.leaf_groups.LeafIndex`)."""
    index = leaf_index(game)
    size = index.num_sequences[player] + 1  # the last entry collects pairs that do not exist
    if not exact:
        return np.bincount(index.slots[player], weights=values, minlength=size)[:-1]
    result = np.zeros(size, dtype=object)  # integer zeros, which add to fmpq
    np.add.at(result, index.slots[player], values)
    return result[:-1]


def _product(game: StructuredGame, player: int, plan: np.ndarray) -> np.ndarray:
    """``A y`` (player 0's rows, plan ``y``) or ``Aᵀ x`` (player 1's rows, plan ``x``)."""
    if plan.dtype != object:
        return _float_product(game, player, plan)
    numbering, index = number_public_tree(game), leaf_index(game)
    other = 1 - player
    padded = _to_fmpq(np.concatenate([plan, np.zeros(1, dtype=object)]))  # dump slot: 0
    weights = tuple(_to_fmpq(as_numbers(game.hands[p].weights, True)) for p in (0, 1))
    two_cards, partner = index.two_cards[player], index.partner[player]
    clashing = np.flatnonzero(partner >= 0)
    values = np.empty(len(index.slots[player]), dtype=plan.dtype)  # the groups' sums, raveled
    start = 0
    for group in index.groups:
        other_valid = numbering.hand_valid[other][group.cards]
        own_valid = numbering.hand_valid[player][group.cards]
        weighted = padded[group.slots[other]] * (weights[other] * other_valid)[:, None]
        chance = _to_fmpq(as_numbers(group.chance_exact, True))[None, :]
        sums = _group_sums(group, player, weighted, chance, True)
        if two_cards:  # every hand sharing a card, less the twin counted once per card
            sums -= _shared_card_sums(game, group, player, weighted, True) * chance
        if len(clashing):
            mates = partner[clashing]
            rule = _to_fmpq(
                rule_values(
                    group, group.levels[player][clashing], group.levels[other][mates], player, True
                )
            )
            sums[clashing] += (1 if two_cards else -1) * rule * weighted[mates] * chance
        own = (weights[player] * own_valid)[:, None]
        np.multiply(sums, own, out=values[start : start + sums.size].reshape(sums.shape))
        start += sums.size
    return _to_fractions(_scatter(game, player, values, True))


def _float_product(game: StructuredGame, player: int, plan: np.ndarray) -> np.ndarray:
    """:func:`_product` in floats, with the factors that do not depend on the plan multiplied
    out once per game (:class:`~seqform.structured.leaf_factors.FloatFactors`): per group a
    gather of the plan, one running sum, and each result written once into its slice of the
    raveled sums."""
    index = leaf_index(game)
    other = 1 - player
    padded = np.concatenate([plan, np.zeros(1)])  # the dump slot reads 0
    values = np.empty(len(index.slots[player]))  # the groups' sums, raveled
    start = 0
    for group, both in zip(index.groups, float_factors(game), strict=True):
        factors = both[player]
        weighted = np.take(padded, group.slots[other])  # faster than padded[slots]
        weighted *= factors.opponent[:, None]
        out = values[start : start + factors.scale.size].reshape(factors.scale.shape)
        start += factors.scale.size
        if group.kind == CONSTANT:
            np.multiply(factors.scale, _column_sums(weighted, False)[None, :], out=out)
        else:
            running = np.empty((len(weighted) + 1, weighted.shape[1]))
            running[0] = 0.0
            in_order = group.in_level_order[other]
            ordered = weighted if in_order else np.take(weighted, group.level_order[other], 0)
            np.cumsum(ordered, axis=0, out=running[1:])
            total = running[-1][None, :]
            if group.kind == SIGN:  # (P[l + 1] + P[l] − T) · scale
                above, at_level = (_read(running, rows) for rows in group.sign_rows[player])
                np.add(above, at_level, out=out)
                out -= total
                out *= factors.scale
            else:  # a T − (a − b) P, times own and chance
                assert factors.step is not None
                np.multiply(factors.scale, total, out=out)
                out -= factors.step * np.take(running, group.reached_at[player])
        if factors.removal is not None:  # every hand sharing a card, less the twin per card
            out -= _shared_card_sums(game, group, player, weighted, False) * factors.removal
        clash = factors.clash
        if clash is not None:
            mates_weighted = weighted if clash.mates is None else weighted[clash.mates]
            if clash.rows is None:
                out += clash.coefficient * mates_weighted
            else:
                out[clash.rows] += clash.coefficient * mates_weighted
    return _scatter(game, player, values, False)


def payoff_to_first(game: StructuredGame, y: np.ndarray) -> np.ndarray:
    """``A @ y``: player 0's expected payoff per own sequence, in ``O(|Z| H)``.

    Floats, or exact when ``y`` is an object array of Fractions.
    """
    y = np.asarray(y)
    return _product(game, 0, y if y.dtype == object else y.astype(float, copy=False))


def payoff_to_second(game: StructuredGame, x: np.ndarray) -> np.ndarray:
    """``A.T @ x``: player 0's expected payoff per sequence of player 1, in ``O(|Z| H)``.

    Floats, or exact when ``x`` is an object array of Fractions.
    """
    x = np.asarray(x)
    return _product(game, 1, x if x.dtype == object else x.astype(float, copy=False))
