"""The factors of the float products that do not depend on the plan, multiplied out once per game.

For a leaf group (:class:`~seqform.structured.leaf_groups.LeafGroup`) the product of
:mod:`seqform.structured.products` is, per own hand ``h`` and leaf ``z``,
``own[h] c_z (rule sums)[h, z]`` with ``own[h] = w_p[h] valid_z(h)`` (the hand's weight, 0
where the public cards hold its card), ``c_z`` the leaf's chance and the rule sums scaled
by the rule's numbers.  Here, per group and player:

* :class:`FloatFactors`: the hand weights, validities, chance and rule numbers multiplied out
  into one ``(H, n)`` array (two for thresholds), so that a float product scales its running
  sums once and writes each result once;
* :class:`Clash`: the card-removal correction ready to apply: the rows whose correction is
  not 0, their clashing opponent hands and the coefficient ``± c_z rule_z(l0, l1)`` times the
  own hand's weight, so that a product adds ``coefficient * weighted[mates]`` without
  evaluating the rule; where a clash always pairs equal levels under a sign rule (Kuhn,
  Leduc: the same card is the same strength) the correction is 0 and there is nothing to add.

These are a few ``(H, n)`` float arrays per group and player: a few times the size of one
product.  The exact products evaluate the same numbers as Fractions as they go.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from seqform.game.public.numbering import PublicNumbering, number_public_tree
from seqform.game.public.tree import StructuredGame
from seqform.structured.leaf_groups import (
    CONSTANT,
    SIGN,
    THRESHOLD,
    LeafGroup,
    as_numbers,
    leaf_index,
)

__all__ = ["Clash", "FloatFactors", "float_factors", "rule_values"]


def rule_values(
    group: LeafGroup, own: np.ndarray, other: np.ndarray, player: int, exact: bool
) -> np.ndarray:
    """``rule_z(l0, l1)`` per (own hand level ``own[i]``, opponent level ``other[i]``, leaf)."""
    first, second = group.rule_numbers(exact)
    if group.kind == CONSTANT:
        return np.broadcast_to(first, (len(own), len(first[0]))) * 1
    level0, level1 = (own, other) if player == 0 else (other, own)
    if group.kind == SIGN:
        return np.sign(level0 - level1)[:, None] * first
    reached = (level0 + level1)[:, None] >= group.quantity[None, :]
    return np.where(reached, first, second)


@dataclass(frozen=True, eq=False)
class Clash:
    """One group's float card-removal correction for one player's hands (module docstring).

    rows : the own hands whose correction is not 0, or None for every hand in order
    mates : their clashing opponent hands, or None where that is the same index
    coefficient : shape (rows, n): ``± chance_z rule_z(l0, l1)`` times the own hand's weight
        and validity (− for one-card hands, the clashing hand taken out; + for two-card hands,
        the twin added back once)
    """

    rows: np.ndarray | None
    mates: np.ndarray | None
    coefficient: np.ndarray


@dataclass(frozen=True, eq=False)
class FloatFactors:
    """What a float product needs of one group for one player ``p`` besides the plan.

    With ``own[h] = w_p[h] valid_z(h)`` (the hand's weight, 0 where the public cards hold its
    card) and ``c_z`` the leaf's chance, the product of :mod:`seqform.structured.products`
    for the group is ``own[h] c_z (rule sums)[h, z]``; these are its factors multiplied out:

    opponent : shape (H_{1-p},): ``w_{1-p} valid`` of the opponent's hands, which scale the
        plan gathered through the slots
    scale : shape (H_p, n): ``own[h] c_z a_z`` with ``a_z`` a constant's payoff, a
        threshold's ``if_reached``, or a sign rule's stake (negated for player 1)
    step : thresholds, shape (H_p, n): ``own[h] c_z (if_reached − otherwise)``; else None
    removal : two-card hands, shape (H_p, n): ``own[h] c_z``, for the shared-card sums;
        else None
    clash : the one-clash correction (:class:`Clash`), or None where it is 0
    """

    opponent: np.ndarray
    scale: np.ndarray
    step: np.ndarray | None
    removal: np.ndarray | None
    clash: Clash | None


def _factors(
    game: StructuredGame,
    numbering: PublicNumbering,
    group: LeafGroup,
    player: int,
    partner: np.ndarray,
    two_cards: bool,
) -> FloatFactors:
    """``group``'s :class:`FloatFactors` for ``player``."""
    weights = [as_numbers(game.hands[p].weights, False) for p in (0, 1)]
    own = weights[player] * numbering.hand_valid[player][group.cards]
    own_chance = own[:, None] * group.chance[None, :]
    first, second = group.rule_numbers(False)
    sign = -1.0 if group.kind == SIGN and player == 1 else 1.0
    return FloatFactors(
        opponent=weights[1 - player] * numbering.hand_valid[1 - player][group.cards],
        scale=own_chance * (sign * first),
        step=own_chance * (first - second) if group.kind == THRESHOLD else None,
        removal=own_chance if two_cards else None,
        clash=_clash(group, player, partner, two_cards, own, len(weights[1 - player])),
    )


def _clash(
    group: LeafGroup,
    player: int,
    partner: np.ndarray,
    two_cards: bool,
    own: np.ndarray,
    opponents: int,
) -> Clash | None:
    """``group``'s :class:`Clash` for ``player`` (``own``: the own hands' weight times
    validity; ``opponents``: the opponent's number of hands), or None where it is 0
    everywhere."""
    rows = np.flatnonzero(partner >= 0)
    mates = partner[rows]
    rule = rule_values(
        group, group.levels[player][rows], group.levels[1 - player][mates], player, False
    )
    coefficient = (1.0 if two_cards else -1.0) * rule * group.chance[None, :] * own[rows, None]
    keep = np.flatnonzero(np.any(coefficient != 0.0, axis=1))
    if not len(keep):
        return None
    rows, mates, coefficient = rows[keep], mates[keep], coefficient[keep]
    every = len(rows) == len(partner)  # then rows is 0, 1, ..., H - 1
    # the mates are the opponent's hands in order only if it has no other hands: a range
    # whose every hand is in the opponent's, first (QQ against QQ,AA), keeps its mates
    same = every and len(partner) == opponents and np.array_equal(mates, rows)
    return Clash(
        rows=None if every else rows,
        mates=None if same else mates,
        coefficient=np.ascontiguousarray(coefficient),
    )


def _float_factors(game: StructuredGame) -> tuple[tuple[FloatFactors, FloatFactors], ...]:
    numbering, index = number_public_tree(game), leaf_index(game)
    return tuple(
        (
            _factors(game, numbering, group, 0, index.partner[0], index.two_cards[0]),
            _factors(game, numbering, group, 1, index.partner[1], index.two_cards[1]),
        )
        for group in index.groups
    )


_FACTORS: weakref.WeakKeyDictionary[
    StructuredGame, tuple[tuple[FloatFactors, FloatFactors], ...]
] = weakref.WeakKeyDictionary()


def float_factors(game: StructuredGame) -> tuple[tuple[FloatFactors, FloatFactors], ...]:
    """Per leaf group (in :func:`~seqform.structured.leaf_groups.leaf_groups`' order), per
    player, its :class:`FloatFactors`; built once per game."""
    factors = _FACTORS.get(game)
    if factors is None:
        factors = _FACTORS[game] = _float_factors(game)
    return factors
