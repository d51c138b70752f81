"""Hand-written game trees the tests use as independent references.

The built-in games are defined once, as public tree × private hands
(:mod:`seqform.game.public.tree`), and their trees are generated from that description.
These builders are the node-by-node trees seqform had before (Liar's Dice here, and the
one-card poker games' :func:`one_card_tree`, written from the betting tree; Leduc's stays
in :mod:`seqform.game.builtin.leduc_tree` for suit isomorphism), so
``tests/test_structured_trees.py`` can prove the generated trees equal them node for node.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

from seqform.game.builtin.liars_dice import LIAR, bid_label
from seqform.game.builtin.one_card import BettingNode, Fold, OneCardPoker, Showdown
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

_WON = Terminal((Fraction(1), Fraction(-1)))
_LOST = Terminal((Fraction(-1), Fraction(1)))

Roll = tuple[int, ...]  # one player's dice, sorted


def liars_dice_tree(sides: int, dice: int = 1) -> Node:
    """The root of Liar's Dice's tree as seqform wrote it node by node (OpenSpiel's rules)."""
    return _Builder(sides, dice).rolls((), ())


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


def one_card_tree(poker: OneCardPoker) -> Game:
    """The explicit tree of a one-card poker game, from its betting tree: chance deals
    every ordered pair of distinct cards (:func:`itertools.permutations`, player 1's card
    first, labelled by the two names joined by ``poker.deal_separator``), then the betting,
    one subtree per deal; equal payoffs share one terminal."""
    make = _betting_maker(poker.betting, "", {})
    names = [poker.card_name(card) for card in range(poker.cards)]
    deals = list(permutations(range(poker.cards), 2))
    root = Chance(
        outcomes=tuple(names[a] + poker.deal_separator + names[b] for a, b in deals),
        probabilities=(Fraction(1, len(deals)),) * len(deals),
        children=tuple(make((names[a], names[b]), a > b) for a, b in deals),
        label="deal",
    )
    if poker.describe_action is None:
        return Game(name=poker.name, root=root, description=poker.description)
    return Game(
        name=poker.name,
        root=root,
        description=poker.description,
        describe_action=poker.describe_action,
    )


def _betting_maker(
    node: BettingNode, history: str, leaves: dict[Fraction, Terminal]
) -> Callable[[tuple[str, str], bool], Node]:
    """The betting below ``node`` as a function ``(card names, player 1 wins) -> node``."""

    def leaf(won: Fraction) -> Terminal:
        return leaves.setdefault(won, Terminal((won, -won)))

    if isinstance(node, Fold):
        folded = leaf(-Fraction(node.amount) if node.loser == 0 else Fraction(node.amount))
        return lambda names, first_wins: folded
    if isinstance(node, Showdown):
        won, lost = leaf(Fraction(node.stake)), leaf(-Fraction(node.stake))
        return lambda names, first_wins: won if first_wins else lost
    makers = [
        _betting_maker(child, history + action, leaves)
        for action, child in zip(node.actions, node.children, strict=True)
    ]

    def decision(names: tuple[str, str], first_wins: bool) -> Node:
        children = tuple([make(names, first_wins) for make in makers])
        return Decision(node.player, names[node.player] + history, node.actions, children)

    return decision
