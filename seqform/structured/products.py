"""``A y`` and ``Aᵀ x`` of a structured game without forming ``A`` (floats or exact).

For a structured game (:mod:`seqform.game.public_tree`) the sequence-form payoff matrix is
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
``O(|Z| · H)`` in a few numpy calls per group.  The same code runs on object arrays of
Fractions for the exact certificate (small games).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.game.public_numbering import PublicNumbering, number_public_tree
from seqform.game.public_tree import Constant, Sign, StructuredGame

__all__ = [
    "LeafGroup",
    "hand_matrix",
    "leaf_groups",
    "payoff_to_first",
    "payoff_to_second",
    "sequence_vector",
]

_CONSTANT, _SIGN, _THRESHOLD = 0, 1, 2


@dataclass(frozen=True, eq=False)
class LeafGroup:
    """Public leaves of one rule kind with the same levels and public cards.

    kind : 0 constant, 1 sign, 2 threshold
    leaves : their indices among the public leaves
    sequences : shape (n, 2), each leaf's ``(s0, s1)``
    cards : the public-cards key they share
    levels : per player, the shared levels (zeros for constants)
    chance : per leaf, ``chance_z`` (float array and exact tuple)
    first, second, quantity : per leaf, the rule's numbers: the constant payoff or the sign's
        stake in ``first``; a threshold's ``if_reached``, ``otherwise`` and ``quantity``
    """

    kind: int
    leaves: np.ndarray
    sequences: np.ndarray
    cards: int
    levels: tuple[np.ndarray, np.ndarray]
    chance: np.ndarray
    chance_exact: tuple[Fraction, ...]
    first: tuple[Fraction, ...]
    second: tuple[Fraction, ...]
    quantity: np.ndarray


def _rule_numbers(rule: object) -> tuple[int, Fraction, Fraction, int]:
    if isinstance(rule, Constant):
        return _CONSTANT, Fraction(rule.payoff), Fraction(0), 0
    if isinstance(rule, Sign):
        return _SIGN, Fraction(rule.stake), Fraction(0), 0
    return _THRESHOLD, Fraction(rule.if_reached), Fraction(rule.otherwise), rule.quantity  # type: ignore[attr-defined]


def _groups(game: StructuredGame, numbering: PublicNumbering) -> tuple[LeafGroup, ...]:
    members: dict[tuple[int, int, int, int], list[int]] = {}
    levels_of: dict[tuple[int, int, int, int], tuple[np.ndarray, np.ndarray]] = {}
    zeros = (np.zeros(game.num_hands(0), np.int64), np.zeros(game.num_hands(1), np.int64))
    for leaf, (rule, levels) in enumerate(
        zip(numbering.leaf_rules, numbering.leaf_levels, strict=True)
    ):
        kind = _rule_numbers(rule)[0]
        pair = zeros if levels is None else levels
        key = (kind, id(pair[0]), id(pair[1]), int(numbering.leaf_cards[leaf]))
        members.setdefault(key, []).append(leaf)
        levels_of[key] = pair
    groups = []
    for key, leaves in members.items():
        kind, cards = key[0], key[3]
        numbers = [_rule_numbers(numbering.leaf_rules[leaf]) for leaf in leaves]
        index = np.asarray(leaves, dtype=np.int64)
        groups.append(
            LeafGroup(
                kind=kind,
                leaves=index,
                sequences=numbering.leaf_sequences[index],
                cards=cards,
                levels=levels_of[key],
                chance=numbering.leaf_chance_float[index],
                chance_exact=tuple(numbering.leaf_chance[leaf] for leaf in leaves),
                first=tuple(n[1] for n in numbers),
                second=tuple(n[2] for n in numbers),
                quantity=np.asarray([n[3] for n in numbers], dtype=np.int64),
            )
        )
    return tuple(groups)


_GROUPS: weakref.WeakKeyDictionary[StructuredGame, tuple[LeafGroup, ...]] = (
    weakref.WeakKeyDictionary()
)


def leaf_groups(game: StructuredGame) -> tuple[LeafGroup, ...]:
    """The public leaves grouped by rule kind, levels and public cards (once per game)."""
    groups = _GROUPS.get(game)
    if groups is None:
        groups = _GROUPS[game] = _groups(game, number_public_tree(game))
    return groups


def _numbers(values: tuple[Fraction, ...] | np.ndarray, exact: bool) -> np.ndarray:
    if not exact:
        return np.asarray([float(v) for v in values], dtype=float)
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


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


def _weights(game: StructuredGame, player: int, exact: bool) -> np.ndarray:
    return _numbers(game.hands[player].weights, exact)


def _partner(game: StructuredGame, player: int) -> np.ndarray:
    """Per hand of ``player``, the opponent's hand holding the same card, or -1."""
    own, other = game.hands[player].cards, game.hands[1 - player].cards
    holder = {card: hand for hand, card in enumerate(other.tolist()) if card >= 0}
    return np.asarray([holder.get(card, -1) if card >= 0 else -1 for card in own.tolist()])


def _twin(game: StructuredGame, player: int) -> np.ndarray:
    """Per two-card hand of ``player``, the opponent's hand of the same two cards, or -1."""
    own, other = (np.sort(game.hands[p].card_matrix, axis=1) for p in (player, 1 - player))
    holder = {(int(a), int(b)): hand for hand, (a, b) in enumerate(other.tolist())}
    return np.asarray([holder.get((int(a), int(b)), -1) for a, b in own.tolist()], np.int64)


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

    first = _numbers(group.first, exact)[None, :]
    parts = []
    for column in game.hands[player].card_matrix.T:
        card_total = prefix(column, np.full(len(column), span - 1))
        if group.kind == _CONSTANT:
            part = first * card_total
        elif group.kind == _SIGN:
            below = prefix(column, own_levels)
            at_or_below = prefix(column, own_levels + 1)
            signed = below + at_or_below - card_total  # below − above
            part = (signed if player == 0 else -signed) * first
        else:
            second = _numbers(group.second, exact)[None, :]
            needed = group.quantity[None, :] - own_levels[:, None]
            reached = card_total - np.stack(
                [prefix(column, needed[:, z]) for z in range(needed.shape[1])], axis=1
            )
            part = second * card_total + (first - second) * reached
        parts.append(part)
    return parts[0] + parts[1]


def _rule_values(
    group: LeafGroup, own: np.ndarray, other: np.ndarray, player: int, exact: bool
) -> np.ndarray:
    """``rule_z(l0, l1)`` per (own hand level ``own[i]``, opponent level ``other[i]``, leaf)."""
    first = _numbers(group.first, exact)[None, :]
    if group.kind == _CONSTANT:
        return np.broadcast_to(first, (len(own), len(first[0]))) * 1
    level0, level1 = (own, other) if player == 0 else (other, own)
    if group.kind == _SIGN:
        return np.sign(level0 - level1)[:, None] * first
    second = _numbers(group.second, exact)[None, :]
    reached = (level0 + level1)[:, None] >= group.quantity[None, :]
    return np.where(reached, first, second)


def _group_sums(group: LeafGroup, player: int, weighted: np.ndarray, exact: bool) -> np.ndarray:
    """``sum_{h'} rule_z(h, h') weighted[h', z]`` over all opponent hands (clashes included),
    per own hand ``h`` and leaf ``z`` of the group, by the running sums (module docstring)."""
    own_levels, other_levels = group.levels[player], group.levels[1 - player]
    total = weighted.sum(axis=0)
    first = _numbers(group.first, exact)[None, :]
    if group.kind == _CONSTANT:
        return np.broadcast_to(first * total[None, :], (len(own_levels), len(total))) * 1
    size = int(max(own_levels.max(initial=0), other_levels.max(initial=0))) + 2
    by_level = np.zeros((size, weighted.shape[1]), dtype=weighted.dtype)
    np.add.at(by_level, other_levels, weighted)
    below = np.cumsum(by_level, axis=0) - by_level  # P[l] = sum_{l' < l}
    if group.kind == _SIGN:
        at = by_level[own_levels] + 2 * below[own_levels] - total[None, :]
        return (at if player == 0 else -at) * first
    second = _numbers(group.second, exact)[None, :]
    needed = np.clip(group.quantity[None, :] - own_levels[:, None], 0, size - 1)
    columns = np.broadcast_to(np.arange(len(total))[None, :], needed.shape)
    reached = total[None, :] - below[needed, columns]
    return second * total[None, :] + (first - second) * reached


def _product(game: StructuredGame, player: int, plan: np.ndarray) -> np.ndarray:
    """``A y`` (player 0's rows, plan ``y``) or ``Aᵀ x`` (player 1's rows, plan ``x``)."""
    numbering = number_public_tree(game)
    exact = plan.dtype == object
    other = 1 - player
    given = hand_matrix(game, other, plan)
    own_weights, other_weights = _weights(game, player, exact), _weights(game, other, exact)
    two_cards = game.hands[player].card_matrix.shape[1] == 2
    partner = _twin(game, player) if two_cards else _partner(game, player)
    clashing = np.flatnonzero(partner >= 0)
    shape = (game.num_hands(player), numbering.num_public_sequences(player))
    if exact:
        result = np.empty(shape, dtype=object)
        result[...] = Fraction(0)
    else:
        result = np.zeros(shape)
    result_by_sequence = result.T  # a view: rows are public sequences
    for group in leaf_groups(game):
        other_valid = numbering.hand_valid[other][group.cards]
        own_valid = numbering.hand_valid[player][group.cards]
        weighted = given[:, group.sequences[:, other]] * (other_weights * other_valid)[:, None]
        sums = _group_sums(group, player, weighted, exact)
        if two_cards:  # every hand sharing a card, less the twin counted once per card
            sums -= _shared_card_sums(game, group, player, weighted, exact)
        if len(clashing):
            mates = partner[clashing]
            rule = _rule_values(
                group, group.levels[player][clashing], group.levels[other][mates], player, exact
            )
            sums[clashing] += (1 if two_cards else -1) * rule * weighted[mates]
        chance = _numbers(group.chance_exact, exact) if exact else group.chance
        sums *= chance[None, :] * (own_weights * own_valid)[:, None]
        np.add.at(result_by_sequence, group.sequences[:, player], sums.T)
    return sequence_vector(game, player, result)


def payoff_to_first(game: StructuredGame, y: np.ndarray) -> np.ndarray:
    """``A @ y``: player 0's expected payoff per own sequence, in ``O(|Z| H)``.

    Floats, or exact when ``y`` is an object array of Fractions.
    """
    y = np.asarray(y)
    return _product(game, 0, y if y.dtype == object else y.astype(float))


def payoff_to_second(game: StructuredGame, x: np.ndarray) -> np.ndarray:
    """``A.T @ x``: player 0's expected payoff per sequence of player 1, in ``O(|Z| H)``.

    Floats, or exact when ``x`` is an object array of Fractions.
    """
    x = np.asarray(x)
    return _product(game, 1, x if x.dtype == object else x.astype(float))
