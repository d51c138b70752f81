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

``dice > 1`` is supported (each die is its own chance node, as in OpenSpiel; subtrees after
different orders of the same rolls are shared).  Every increasing sequence of bids is a
decision node, ``2**(2·dice·sides)`` of them per roll, so the number of bids ``2·dice·sides``
is limited to :data:`MAX_BIDS` (so ``sides`` <= 7 with one die each).

Sizes checked against OpenSpiel in ``tests/test_liars_dice.py``: with one die each, 16, 96,
512, 2,560 and 12,288 information sets and 31, 190, 1,021, 5,116 and 24,571 sequences per
player for 2, 3, 4, 5 and 6 sides.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = ["LIAR", "MAX_BIDS", "bid_label", "liars_dice", "liars_dice_words"]

LIAR = "liar"
MAX_BIDS = 14  # of 2·dice·sides; the tree has 2**bids decision nodes per roll of the dice

_WON = Terminal((Fraction(1), Fraction(-1)))
_LOST = Terminal((Fraction(-1), Fraction(1)))

Roll = tuple[int, ...]  # one player's dice, sorted


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
    for name, value, least in (("sides", sides, 2), ("dice", dice, 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"liars_dice: {name} must be an integer, got {value!r}")
        if value < least:
            raise ValueError(f"liars_dice: {name} must be at least {least}, got {value}")
    bids = 2 * dice * sides
    if bids > MAX_BIDS:
        raise ValueError(
            f"liars_dice: {dice} dice of {sides} sides per player give {bids} bids and "
            f"2**{bids} nodes per roll; seqform builds at most {MAX_BIDS} bids "
            "(2 * dice * sides)"
        )
    builder = _Builder(sides, dice)
    root = builder.rolls((), ())
    settings = [] if sides == 6 else [f"sides={sides}"]
    if dice != 1:
        settings.append(f"dice={dice}")
    return Game(
        name=f"liars_dice({', '.join(settings)})" if settings else "liars_dice",
        root=root,
        describe_action=liars_dice_words,
        description=(
            f"Liar's Dice with {dice} {sides}-sided {'die' if dice == 1 else 'dice'} per "
            f"player, face {sides} wild, following OpenSpiel's liars_dice"
        ),
    )


def bid_label(index: int, sides: int) -> str:
    """The label ``"q-f"`` of OpenSpiel's bid number ``index`` (``q - 1 = index // sides``)."""
    return f"{index // sides + 1}-{index % sides + 1}"


def liars_dice_words(infoset: str, action: str) -> str:
    """Say an action in words: ``"2-5" -> "bid 2 × face 5"``, ``"liar" -> "call liar"``."""
    if action == LIAR:
        return "call liar"
    quantity, _, face = action.partition("-")
    return f"bid {quantity} × face {face}"


@dataclass(frozen=True, slots=True)
class _Point:
    """A point of the bidding; the same for every roll of the dice."""

    player: int  # to act
    bids: str  # the bids so far, comma separated
    last: int  # index of the last bid, -1 before any
    actions: tuple[str, ...]
    after_bids: tuple[int, ...]  # positions of the points after each bid, in the action order


def _bidding_points(labels: tuple[str, ...]) -> list[_Point]:
    """Every point of the bidding, children before parents: the opening point is last."""
    points: list[_Point] = []

    def visit(last: int, bids: str, player: int) -> int:
        comma = "," if bids else ""
        after_bids = tuple(
            visit(index, f"{bids}{comma}{labels[index]}", 1 - player)
            for index in range(last + 1, len(labels))
        )
        actions = labels[last + 1 :] + ((LIAR,) if last >= 0 else ())
        points.append(_Point(player, bids, last, actions, after_bids))
        return len(points) - 1

    visit(-1, "", 0)
    return points


class _Builder:
    """Builds the tree; bidding subtrees are shared between orders of the same rolls."""

    def __init__(self, sides: int, dice: int) -> None:
        self.sides = sides
        self.dice = dice
        self.points = _bidding_points(
            tuple(bid_label(index, sides) for index in range(2 * dice * sides))
        )
        self._after_rolls: dict[tuple[Roll, Roll], Node] = {}

    def rolls(self, first: Roll, second: Roll) -> Node:
        """The game after player 1 has rolled ``first`` and player 2 ``second`` so far."""
        key = (first, second)
        node = self._after_rolls.get(key)
        if node is not None:
            return node
        if len(second) == self.dice:
            node = self.bidding(first, second)
        else:
            player = 0 if len(first) < self.dice else 1
            children = []
            for face in range(1, self.sides + 1):
                if player == 0:
                    children.append(self.rolls(tuple(sorted((*first, face))), second))
                else:
                    children.append(self.rolls(first, tuple(sorted((*second, face)))))
            node = Chance(
                outcomes=tuple(str(face) for face in range(1, self.sides + 1)),
                probabilities=(Fraction(1, self.sides),) * self.sides,
                children=tuple(children),
                label=f"player {player + 1} rolls",
            )
        self._after_rolls[key] = node
        return node

    def bidding(self, first: Roll, second: Roll) -> Decision:
        """The bidding once the dice are ``first`` (player 1) and ``second`` (player 2)."""
        prefixes = ("".join(map(str, first)) + "|", "".join(map(str, second)) + "|")
        dice = (*first, *second)
        bids = 2 * self.dice * self.sides
        # Bid q-f (index (q - 1)·sides + f - 1) is true if at least q dice show f or the
        # wild face.
        true_bid = [
            sum(die in (index % self.sides + 1, self.sides) for die in dice)
            >= index // self.sides + 1
            for index in range(bids)
        ]
        # The leaf after a call of the bid at ``index`` by player 1 and by player 2: the
        # bidder (the other player) wins if the bid is true, else the caller.
        called = [(_LOST, _WON) if true else (_WON, _LOST) for true in true_bid]
        nodes: list[Decision] = []
        for point in self.points:
            children: list[Node] = [nodes[position] for position in point.after_bids]
            if point.last >= 0:
                children.append(called[point.last][point.player])
            name = prefixes[point.player] + point.bids
            nodes.append(Decision(point.player, name, point.actions, tuple(children)))
        return nodes[-1]
