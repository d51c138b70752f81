"""The public leaves of a structured game grouped and indexed once, for the products.

The products ``A y`` and ``Aᵀ x`` (:mod:`seqform.structured.products`) run over the public
leaves in groups that share a rule kind, levels and public cards, a column per leaf.
Everything about those groups that does not depend on the plan is computed here once per
game and kept beside it (a weak reference, as :func:`~seqform.game.public.numbering.
number_public_tree` keeps its numbering):

* the rule's numbers per leaf, as Fractions and as floats;
* per player, the hands sorted by level and where each level starts among them, so that
  the running sums of levels ``P[l] = sum_{l' < l} E[l']`` are one cumulative sum over
  the sorted hands read at those starts (no scatter);
* per player, the *slot* of each (hand, leaf): the game sequence ``sequence_index[h,
  s_p(z)]`` of the hand at the leaf's public sequence, or one past the last sequence where
  that pair does not exist.  The opponent's plan is gathered through the slots (the extra
  entry reads 0) and the result is added up through them, all groups at once
  (``np.bincount``): no ``(H, S)`` hand matrix is formed;
* per player, the hand weights as floats and the opponent's hand that clashes with each
  hand (same card; for two-card hands, the same two cards).

What the float products need beyond these — the factors multiplied out — is built once per
game by :mod:`seqform.structured.leaf_factors`.

The indices are ``H × |Z|`` integers per player: as much as one float vector of the
product's own size.  They are held once: each group's ``slots`` is a view into the
concatenation the ``np.bincount`` reads.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypeVar

import numpy as np

from seqform.game.public.numbering import PublicNumbering, number_public_tree
from seqform.game.public.tree import Constant, Sign, StructuredGame

__all__ = [
    "CONSTANT",
    "SIGN",
    "THRESHOLD",
    "LeafGroup",
    "LeafIndex",
    "RuleTable",
    "leaf_groups",
    "leaf_index",
    "rule_numbers",
    "rule_table",
    "twin_hands",
]

CONSTANT, SIGN, THRESHOLD = 0, 1, 2

T = TypeVar("T")
Rows = slice | np.ndarray  # rows of an array: consecutive ones as a slice (a view), or indices


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
    first_float, second_float : ``first`` and ``second`` as floats (converted once)
    level_order : per player, the hands sorted by level (stable)
    in_level_order : per player, whether ``level_order`` is the identity (no gather needed)
    level_starts : per player, shape (size + 1,): where level ``l`` starts among the
        sorted hands (``size`` = the largest level of either player + 2)
    sign_rows : per player ``p``, for sign rules, two row selectors of the ``H_{1-p} + 1``
        running sums of the opponent's hands in level order: where ``P[l_p(h) + 1]`` and
        ``P[l_p(h)]`` sit, per own hand ``h`` (``level_starts`` read at the hand's level), each
        a slice where those rows are consecutive (every hand its own level, as in Kuhn: a
        view instead of a gather) or else an index array; empty for the other kinds
    slots : per player, shape (H_p, n): the game sequence of (hand, leaf), or the player's
        number of sequences where the pair does not exist (module docstring)
    reached_at : per player ``p``, for thresholds, shape (H_p, n): where ``P[q_z - l_p(h)]``
        (clipped to the levels) sits in the raveled ``(H_{1-p} + 1, n)`` running sums of the
        opponent's hands in level order; empty for the other kinds
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
    first_float: np.ndarray
    second_float: np.ndarray
    level_order: tuple[np.ndarray, np.ndarray]
    in_level_order: tuple[bool, bool]
    level_starts: tuple[np.ndarray, np.ndarray]
    sign_rows: tuple[tuple[Rows, Rows], tuple[Rows, Rows]]
    slots: tuple[np.ndarray, np.ndarray]
    reached_at: tuple[np.ndarray, np.ndarray]

    def rule_numbers(self, exact: bool) -> tuple[np.ndarray, np.ndarray]:
        """``first`` and ``second`` per leaf as a row ``(1, n)``: floats, or Fractions."""
        if not exact:
            return self.first_float[None, :], self.second_float[None, :]
        return as_numbers(self.first, True)[None, :], as_numbers(self.second, True)[None, :]


@dataclass(frozen=True, eq=False)
class LeafIndex:
    """A structured game's leaf groups and what the products need beside them, per player.

    groups : the leaf groups, in the order the products visit them
    slots : per player, every group's ``slots`` raveled (C order) and concatenated in
        group order: the targets of the one ``np.bincount`` of a product
    num_sequences : per player, the game sequences (the dump slot's number)
    weights : per player, the hands' weights as floats
    partner : per player, per hand, the opponent's clashing hand or -1
    two_cards : per player, whether hands hold two cards (hold'em)
    """

    groups: tuple[LeafGroup, ...]
    slots: tuple[np.ndarray, np.ndarray]
    num_sequences: tuple[int, int]
    weights: tuple[np.ndarray, np.ndarray]
    partner: tuple[np.ndarray, np.ndarray]
    two_cards: tuple[bool, bool]


def as_numbers(values: tuple[Fraction, ...] | np.ndarray, exact: bool) -> np.ndarray:
    """``values`` as a float array, or an object array of the exact numbers."""
    if not exact:
        return np.asarray([float(v) for v in values], dtype=float)
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


def rule_numbers(rule: object) -> tuple[int, Fraction, Fraction, int]:
    """A payoff rule's kind, first and second number and quantity (a threshold's)."""
    if isinstance(rule, Constant):
        return CONSTANT, Fraction(rule.payoff), Fraction(0), 0
    if isinstance(rule, Sign):
        return SIGN, Fraction(rule.stake), Fraction(0), 0
    return THRESHOLD, Fraction(rule.if_reached), Fraction(rule.otherwise), rule.quantity  # type: ignore[attr-defined]


@dataclass(frozen=True, eq=False)
class RuleTable:
    """Every public leaf's payoff rule as numbers, each distinct rule object converted once.

    A game's leaves share a few rule objects (a narrow flop's 521,564 leaves have 16), so
    :func:`rule_numbers` per leaf made a million Fractions where a few dozen will do.

    which : per leaf, its rule's row in ``exact``
    exact : per distinct rule object, :func:`rule_numbers` (kind, first, second, quantity)
    kind, quantity : per leaf, int64
    first, second : per leaf, the rule's numbers as floats
    """

    which: np.ndarray
    exact: tuple[tuple[int, Fraction, Fraction, int], ...]
    kind: np.ndarray
    first: np.ndarray
    second: np.ndarray
    quantity: np.ndarray


def rule_table(rules: Sequence[object]) -> RuleTable:
    """The :class:`RuleTable` of the leaves' ``rules`` (a numbering's ``leaf_rules``)."""
    code: dict[int, int] = {}
    distinct: list[tuple[int, Fraction, Fraction, int]] = []
    which = np.empty(len(rules), dtype=np.int64)
    for leaf, rule in enumerate(rules):
        found = code.get(id(rule))
        if found is None:
            found = code[id(rule)] = len(distinct)
            distinct.append(rule_numbers(rule))
        which[leaf] = found
    kind = np.asarray([row[0] for row in distinct], dtype=np.int64)
    first = np.asarray([float(row[1]) for row in distinct], dtype=float)
    second = np.asarray([float(row[2]) for row in distinct], dtype=float)
    quantity = np.asarray([row[3] for row in distinct], dtype=np.int64)
    return RuleTable(
        which=which,
        exact=tuple(distinct),
        kind=kind[which],
        first=first[which],
        second=second[which],
        quantity=quantity[which],
    )


def _members(
    game: StructuredGame, numbering: PublicNumbering, kinds: np.ndarray
) -> list[tuple[int, int, tuple[np.ndarray, np.ndarray], list[int]]]:
    """``(kind, cards, levels, leaves)`` per group, in order of first appearance."""
    members: dict[tuple[int, int, int, int], list[int]] = {}
    levels_of: dict[tuple[int, int, int, int], tuple[np.ndarray, np.ndarray]] = {}
    zeros = (np.zeros(game.num_hands(0), np.int64), np.zeros(game.num_hands(1), np.int64))
    for leaf, (kind, levels, cards) in enumerate(
        zip(kinds.tolist(), numbering.leaf_levels, numbering.leaf_cards.tolist(), strict=True)
    ):
        pair = zeros if levels is None else levels
        key = (kind, id(pair[0]), id(pair[1]), cards)
        members.setdefault(key, []).append(leaf)
        levels_of[key] = pair
    return [(key[0], key[3], levels_of[key], leaves) for key, leaves in members.items()]


def _level_index(levels: tuple[np.ndarray, np.ndarray]) -> tuple[list[np.ndarray], ...]:
    """Per player, the hands in level order and the start of each level among them."""
    size = int(max(levels[0].max(initial=0), levels[1].max(initial=0))) + 2
    orders, starts = [], []
    for own in levels:
        order = np.argsort(own, kind="stable")
        orders.append(order)
        starts.append(np.searchsorted(own[order], np.arange(size + 1)))
    return orders, starts


def _identity(order: np.ndarray) -> bool:
    return bool(np.array_equal(order, np.arange(len(order))))


def _sign_rows(levels: np.ndarray, starts: np.ndarray, kind: int) -> tuple[Rows, Rows]:
    """A sign group's :attr:`LeafGroup.sign_rows` for the player of ``levels``, given the
    opponent's level ``starts``."""
    if kind != SIGN:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    return _rows(starts[levels + 1]), _rows(starts[levels])


def _rows(index: np.ndarray) -> Rows:
    """``index`` as a slice if it is ``a, a + 1, ..., a + n - 1``, else as indices."""
    if len(index) and np.array_equal(index, np.arange(index[0], index[0] + len(index))):
        return slice(int(index[0]), int(index[0]) + len(index))
    return index.astype(np.intp)


def _reached_at(
    levels: np.ndarray, quantity: np.ndarray, starts: np.ndarray, kind: int
) -> np.ndarray:
    """A threshold group's :attr:`LeafGroup.reached_at` for the player of ``levels``, given
    the opponent's level ``starts``."""
    if kind != THRESHOLD:
        return np.zeros((0, 0), dtype=np.intp)
    needed = np.clip(quantity[None, :] - levels[:, None], 0, len(starts) - 2)
    return (starts[needed] * len(quantity) + np.arange(len(quantity))[None, :]).astype(np.intp)


def _groups(game: StructuredGame, numbering: PublicNumbering) -> tuple[LeafGroup, ...]:
    groups = []
    dumps = [numbering.num_sequences(player) for player in (0, 1)]
    table = rule_table(numbering.leaf_rules)
    for kind, cards, levels, leaves in _members(game, numbering, table.kind):
        index = np.asarray(leaves, dtype=np.int64)
        numbers = [table.exact[rule] for rule in table.which[index].tolist()]
        quantity = table.quantity[index]
        sequences = numbering.leaf_sequences[index]
        orders, starts = _level_index(levels)
        slots = []
        for player in (0, 1):
            games = numbering.sequence_index[player][:, sequences[:, player]]
            slots.append(np.where(games >= 0, games, dumps[player]).astype(np.intp))
        groups.append(
            LeafGroup(
                kind=kind,
                leaves=index,
                sequences=sequences,
                cards=cards,
                levels=levels,
                chance=numbering.leaf_chance_float[index],
                chance_exact=tuple(numbering.leaf_chance[leaf] for leaf in leaves),
                first=tuple(n[1] for n in numbers),
                second=tuple(n[2] for n in numbers),
                quantity=quantity,
                first_float=table.first[index],
                second_float=table.second[index],
                level_order=(orders[0], orders[1]),
                in_level_order=(_identity(orders[0]), _identity(orders[1])),
                level_starts=(starts[0], starts[1]),
                sign_rows=(
                    _sign_rows(levels[0], starts[1], kind),
                    _sign_rows(levels[1], starts[0], kind),
                ),
                slots=(slots[0], slots[1]),
                reached_at=(
                    _reached_at(levels[0], quantity, starts[1], kind),
                    _reached_at(levels[1], quantity, starts[0], kind),
                ),
            )
        )
    return tuple(groups)


def _partner(game: StructuredGame, player: int) -> np.ndarray:
    """Per hand of ``player``, the opponent's hand holding the same card, or -1."""
    own, other = game.hands[player].cards, game.hands[1 - player].cards
    holder = {card: hand for hand, card in enumerate(other.tolist()) if card >= 0}
    return np.asarray(
        [holder.get(card, -1) if card >= 0 else -1 for card in own.tolist()], np.int64
    )


def twin_hands(game: StructuredGame, player: int) -> np.ndarray:
    """Per two-card hand of ``player``, the opponent's hand of the same two cards, or -1."""
    own, other = (np.sort(game.hands[p].card_matrix, axis=1) for p in (player, 1 - player))
    holder = {(int(a), int(b)): hand for hand, (a, b) in enumerate(other.tolist())}
    return np.asarray([holder.get((int(a), int(b)), -1) for a, b in own.tolist()], np.int64)


def _both(make: Callable[[int], T]) -> tuple[T, T]:
    return make(0), make(1)


def _sharing(
    groups: tuple[LeafGroup, ...], slots: tuple[np.ndarray, np.ndarray]
) -> tuple[LeafGroup, ...]:
    """The groups with their ``slots`` as views into the concatenated ``slots`` (the same
    numbers, held once)."""
    offsets, shared = [0, 0], []
    for group in groups:
        views = []
        for player in (0, 1):
            shape, size = group.slots[player].shape, group.slots[player].size
            views.append(slots[player][offsets[player] : offsets[player] + size].reshape(shape))
            offsets[player] += size
        shared.append(replace(group, slots=(views[0], views[1])))
    return tuple(shared)


def _leaf_index(game: StructuredGame) -> LeafIndex:
    numbering = number_public_tree(game)
    groups = _groups(game, numbering)
    two_cards = _both(lambda p: game.hands[p].card_matrix.shape[1] == 2)
    empty = [np.zeros(0, np.intp)]
    partner = _both(lambda p: twin_hands(game, p) if two_cards[p] else _partner(game, p))
    slots = _both(lambda p: np.concatenate([g.slots[p].ravel() for g in groups] or empty))
    groups = _sharing(groups, slots)
    return LeafIndex(
        groups=groups,
        slots=slots,
        num_sequences=_both(numbering.num_sequences),
        weights=_both(lambda p: as_numbers(game.hands[p].weights, False)),
        partner=partner,
        two_cards=two_cards,
    )


_INDEX: weakref.WeakKeyDictionary[StructuredGame, LeafIndex] = weakref.WeakKeyDictionary()


def leaf_index(game: StructuredGame) -> LeafIndex:
    """The game's :class:`LeafIndex`, built once per game (module docstring)."""
    index = _INDEX.get(game)
    if index is None:
        index = _INDEX[game] = _leaf_index(game)
    return index


def leaf_groups(game: StructuredGame) -> tuple[LeafGroup, ...]:
    """The public leaves grouped by rule kind, levels and public cards (once per game)."""
    return leaf_index(game).groups
