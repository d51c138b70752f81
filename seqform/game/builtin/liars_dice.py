"""Liar's Dice for two players, with the rules of OpenSpiel's ``liars_dice``.

Rules (OpenSpiel's defaults, ``bidding_rule="reset-face"``):

* Each player rolls ``dice`` dice with faces ``1 … sides``, privately: chance rolls player
  1's dice one at a time, then player 2's, each face with probability ``1/sides``.  A player
  sees the multiset of their own dice (sorted), not the order of the rolls.
* Player 1 opens with a bid ``q-f``: "at least ``q`` of all ``2·dice`` dice show face ``f``",
  ``1 <= q <= 2·dice``, ``1 <= f <= sides``.  Players then alternate.  Each bid must be higher
  than the last in OpenSpiel's order of bid indices ``(q - 1)·sides + (f - 1)``: a higher
  quantity of any face, or the same quantity of a higher face.  Instead of bidding, a player
  may call ``liar`` (not before the first bid); after the highest bid (``2·dice`` dice of
  face ``sides``) calling is the only action.
* Wild face: the highest face, ``sides``, is wild.  A die showing ``sides`` counts towards
  every bid, whatever its face; a bid on face ``sides`` itself counts exactly the dice
  showing ``sides`` (nothing is counted twice).  So bid ``q-f`` is true when at least ``q``
  dice show ``f`` or ``sides``.
* After a call the game ends: if the last bid is true the bidder wins, otherwise the caller
  wins.  The winner gets +1 and the loser -1.

Information sets are named ``DICE|BIDS``: the owner's dice in increasing order and the bids
so far, comma separated, e.g. ``"3|"`` (player 1 opens holding a 3), ``"5|1-2,2-4"`` and,
with two three-sided dice each, ``"13|1-2"``.  Player 1 acts after an even number of bids, so names
are unique across the whole game.  Actions are the bids ``"q-f"`` in increasing order, then
``"liar"``.

The game is defined once, as public tree × private rolls (:func:`liars_dice_structured`,
:mod:`seqform.game.public.tree`): a player's hands are the sorted rolls, each weighted by
its probability (multinomial / ``sides**dice``); the public tree is the bidding; a call of
bid ``q-f`` pays by the :class:`~seqform.game.public.tree.Threshold` rule on the hands'
levels, each hand's count of face ``f`` or the wild face.  :func:`liars_dice` is its
explicit tree.

``dice > 1`` is supported (each die is its own chance node, as in OpenSpiel; subtrees after
different orders of the same rolls are shared).  Every increasing sequence of bids is a
public decision node, ``2**(2·dice·sides)`` of them, written once per roll in the tree, so
the tree's number of bids ``2·dice·sides`` is limited to :data:`MAX_BIDS` (``sides`` <= 7
with one die each) and the structured description's to :data:`MAX_PUBLIC_BIDS`.

Sizes checked against OpenSpiel in ``tests/test_liars_dice.py``: with one die each, 16, 96,
512, 2,560 and 12,288 information sets and 31, 190, 1,021, 5,116 and 24,571 sequences per
player for 2, 3, 4, 5 and 6 sides.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, prod

import numpy as np

from seqform.base.limits import LIMITS
from seqform.game.errors import ParameterLimitError
from seqform.game.model import Game
from seqform.game.nodes import Chance, Node
from seqform.game.public.explicit import explicit_game
from seqform.game.public.tree import (
    Hands,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    StructuredGame,
    Threshold,
)

__all__ = [
    "LIAR",
    "MAX_BIDS",
    "MAX_PUBLIC_BIDS",
    "bid_label",
    "check_tree_bids",
    "liars_dice",
    "liars_dice_structured",
    "liars_dice_words",
]

LIAR = "liar"
MAX_BIDS = LIMITS.liars_dice_bids  # why: seqform.base.limits
MAX_PUBLIC_BIDS = LIMITS.liars_dice_public_bids  # why: seqform.base.limits

Roll = tuple[int, ...]  # one player's dice, sorted


def _check(sides: int, dice: int, largest: int, what: str) -> None:
    for name, value, least in (("sides", sides, 2), ("dice", dice, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"liars_dice: {name} must be an integer, got {value!r}")
        if value < least:
            raise ValueError(f"liars_dice: {name} must be at least {least}, got {value}")
    bids = 2 * dice * sides
    if bids > largest:
        raise ParameterLimitError(
            f"liars_dice: {dice} dice of {sides} sides per player give {bids} bids and "
            f"2**{bids} {what}; seqform builds at most {largest} bids (2 * dice * sides)"
        )


def check_tree_bids(sides: int = 6, dice: int = 1) -> None:
    """Refuse, from the parameters alone, a tree of more than :data:`MAX_BIDS` bids (and
    parameters out of range), as :func:`liars_dice` does before it builds anything: the
    route policy asks first, before it sizes the game (numbering ``liars_dice(sides=8)``'s
    public tree to size its tree took 2 s before this refusal).

    Raises
    ------
    ParameterLimitError
        Beyond :data:`MAX_BIDS` bids.
    ValueError
        If ``sides`` or ``dice`` is not an integer in range.
    """
    _check(sides, dice, MAX_BIDS, "nodes per roll")


def liars_dice(sides: int = 6, dice: int = 1) -> Game:
    """Liar's Dice with ``dice`` dice of ``sides`` faces per player (OpenSpiel's rules).

    Parameters
    ----------
    sides
        Faces per die, at least 2 (default 6); the highest face is wild.
    dice
        Dice per player, at least 1 (default 1).

    Raises
    ------
    ValueError
        If ``sides`` or ``dice`` is not an integer in range, or there are more than
        :data:`MAX_BIDS` bids (``2 * dice * sides``).
    """
    check_tree_bids(sides, dice)
    return explicit_game(liars_dice_structured(sides, dice))


def bid_label(index: int, sides: int) -> str:
    """The label ``"q-f"`` of OpenSpiel's bid number ``index`` (``q - 1 = index // sides``)."""
    return f"{index // sides + 1}-{index % sides + 1}"


def liars_dice_words(infoset: str, action: str) -> str:
    """Say an action in words: ``"2-5" -> "bid 2 × face 5"``, ``"liar" -> "call liar"``."""
    if action == LIAR:
        return "call liar"
    quantity, _, face = action.partition("-")
    return f"bid {quantity} × face {face}"


def _rolls(sides: int, dice: int) -> list[Roll]:
    return list(combinations_with_replacement(range(1, sides + 1), dice))


def _roll_weight(roll: Roll, sides: int) -> Fraction:
    """The probability of a sorted roll: its orderings (multinomial) over ``sides**dice``."""
    orderings = factorial(len(roll)) // prod(factorial(roll.count(face)) for face in set(roll))
    return Fraction(orderings, sides ** len(roll))


def liars_dice_structured(sides: int = 6, dice: int = 1) -> StructuredGame:
    """Liar's Dice as public bidding × private sorted rolls (module docstring).

    Raises
    ------
    ValueError
        If ``sides`` or ``dice`` is not an integer in range, or there are more than
        :data:`MAX_PUBLIC_BIDS` bids.
    """
    _check(sides, dice, MAX_PUBLIC_BIDS, "public decision nodes")
    rolls = _rolls(sides, dice)
    hands = Hands(
        labels=tuple("".join(map(str, roll)) for roll in rolls),
        weights=tuple(_roll_weight(roll, sides) for roll in rolls),
        cards=np.full(len(rolls), -1, dtype=np.int64),
    )
    # A hand's level for a bid on face f: its dice showing f or the wild face (f = sides
    # counts the wild face once); one array per face, shared by both players and all leaves.
    counts = [
        np.asarray([sum(d in (face, sides) for d in roll) for roll in rolls], dtype=np.int64)
        for face in range(1, sides + 1)
    ]
    labels = tuple(bid_label(index, sides) for index in range(2 * dice * sides))
    settings = [] if sides == 6 else [f"sides={sides}"]
    if dice != 1:
        settings.append(f"dice={dice}")
    return StructuredGame(
        name=f"liars_dice({', '.join(settings)})" if settings else "liars_dice",
        hands=(hands, hands),
        deal_scale=Fraction(1),
        root=_bidding(-1, "", 0, labels, _called(labels, sides, counts)),
        write_deal=_roll_die_by_die(sides, dice),
        description=(
            f"Liar's Dice with {dice} {sides}-sided {'die' if dice == 1 else 'dice'} per "
            f"player, face {sides} wild, following OpenSpiel's liars_dice"
        ),
        describe_action=liars_dice_words,
    )


def _called(labels: tuple[str, ...], sides: int, counts: list[np.ndarray]) -> list[PublicLeaf]:
    """The leaf after a call of bid ``index`` by player ``p``, at ``2 index + p``.

    The bidder (the other player) wins 1 if the two hands hold at least ``q`` dice counting
    for face ``f`` (bid ``q-f``), else the caller wins 1.  One leaf object per bid and
    caller, shared by every history that ends so.
    """
    leaves = []
    for index in range(len(labels)):
        face = counts[index % sides]
        for caller in (0, 1):
            bidder_wins = Fraction(1 if caller == 1 else -1)  # to player 0
            rule = Threshold(index // sides + 1, bidder_wins, -bidder_wins)
            leaves.append(PublicLeaf(rule, (face, face)))
    return leaves


def _bidding(
    last: int, bids: str, player: int, labels: tuple[str, ...], called: list[PublicLeaf]
) -> PublicDecision:
    """The bidding after ``bids`` (the last of index ``last``), ``player`` to act; a call
    ends in ``called[2 last + player]`` (:func:`_called`)."""
    comma = "," if bids else ""
    children: list[PublicNode] = [
        _bidding(index, f"{bids}{comma}{labels[index]}", 1 - player, labels, called)
        for index in range(last + 1, len(labels))
    ]
    actions = labels[last + 1 :]
    if last >= 0:
        children.append(called[2 * last + player])
        actions = (*actions, LIAR)
    return PublicDecision(player, actions, tuple(children), "|" + bids)


def _roll_die_by_die(
    sides: int, dice: int
) -> Callable[[StructuredGame, Callable[[int, int], Node]], Node]:
    """Chance rolls player 1's dice one at a time, then player 2's (each face ``1/sides``);
    the game after the same sorted rolls is one shared subtree."""

    def write(game: StructuredGame, subtree: Callable[[int, int], Node]) -> Node:
        hand = {roll: h for h, roll in enumerate(_rolls(sides, dice))}
        after: dict[tuple[Roll, Roll], Node] = {}

        def rolls(first: Roll, second: Roll) -> Node:
            node = after.get((first, second))
            if node is not None:
                return node
            if len(second) == dice:
                node = subtree(hand[first], hand[second])
            else:
                player = 0 if len(first) < dice else 1
                faces = range(1, sides + 1)
                node = Chance(
                    outcomes=tuple(str(face) for face in faces),
                    probabilities=(Fraction(1, sides),) * sides,
                    children=tuple(
                        rolls(tuple(sorted((*first, f))), second)
                        if player == 0
                        else rolls(first, tuple(sorted((*second, f))))
                        for f in faces
                    ),
                    label=f"player {player + 1} rolls",
                )
            after[(first, second)] = node
            return node

        return rolls((), ())

    return write
