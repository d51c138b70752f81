"""The explicit game tree of a structured game: the deal, then the public tree per deal.

:func:`explicit_game` writes the private deal as the game's :attr:`StructuredGame.write_deal`
says (:func:`ordered_deal`: one chance node of all ordered deals, Kuhn's; :func:`card_by_card_deal`:
player 1's hand, then player 2's, Leduc's; Liar's Dice rolls die by die) and below each deal
``(h0, h1)`` the public tree: a decision becomes a :class:`~seqform.game.nodes.Decision`
named hand label + history, a public chance node a :class:`~seqform.game.nodes.Chance`
without the outcomes whose card a hand holds, a leaf a
:class:`~seqform.game.nodes.Terminal` paying ``rule(l0[h0], l1[h1])`` (equal payoffs share
one terminal).  The public tree is read once into closures (:func:`_maker`), so writing
``D`` deals costs little more than their nodes.  This is the tree the built-in games
return; :mod:`seqform.structured` computes the same sequence form without it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from seqform.base.node_counts import dealt_tree_nodes
from seqform.base.progress import Step, report
from seqform.game.errors import TreeTooLargeError
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal
from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import (
    Constant,
    DealWriter,
    Hands,
    PublicChance,
    PublicLeaf,
    PublicNode,
    Sign,
    StructuredGame,
    compatible_pairs,
    hands_clash_free,
)

__all__ = [
    "card_by_card_deal",
    "deal_probabilities",
    "deals",
    "explicit_game",
    "nodes_per_deal",
    "ordered_deal",
    "refuse_tree_nodes",
    "tree_nodes",
    "tree_nodes_of",
]

Maker = Callable[[int, int], Node]
"""Writes a public subtree for the deal ``(h0, h1)``."""


def deals(game: StructuredGame) -> list[tuple[int, int]]:
    """Every deal ``(h0, h1)`` of positive probability, player 0's hand most significant."""
    free = hands_clash_free(*game.hands)
    return [(int(h0), int(h1)) for h0, h1 in zip(*np.nonzero(free), strict=True)]


def deal_probabilities(game: StructuredGame) -> list[list[Fraction]]:
    """``P[h0][h1] = deal_scale · w0[h0] · w1[h1]``, 0 where the hands hold a common card.

    The product is taken once per pair of distinct weights, not once per deal: a deck's
    hands share a handful of weights (all equal in Kuhn's and Leduc's decks, a few in a
    range), and ``kuhn(cards=800)``'s 639,200 deals spent 7 s on ``Fraction`` products
    taken one at a time.  The matrix holds references to those few products.
    """
    first, second = game.hands[0].weights, game.hands[1].weights
    kinds0, kinds1 = _weight_kinds(first), _weight_kinds(second)
    scale, zero = Fraction(game.deal_scale), Fraction(0)
    products = [[scale * a * b for b in kinds1.values] for a in kinds0.values]
    free = hands_clash_free(*game.hands).tolist()
    return [
        [
            products[row][column] if clash_free else zero
            for column, clash_free in zip(kinds1.of, line, strict=True)
        ]
        for row, line in zip(kinds0.of, free, strict=True)
    ]


class _WeightKinds(NamedTuple):
    """The distinct ``values`` of a tuple of weights, and ``of`` each entry: its index."""

    values: list[Fraction]
    of: list[int]


def _weight_kinds(weights: tuple[Fraction, ...]) -> _WeightKinds:
    index: dict[Fraction, int] = {}
    of = [index.setdefault(weight, len(index)) for weight in weights]
    return _WeightKinds(list(index), of)


def nodes_per_deal(game: StructuredGame) -> int:
    """Nodes of the public tree below one deal: both players' public decision nodes, the
    leaves and the public chance nodes (:mod:`seqform.base.node_counts`)."""
    numbering = number_public_tree(game)
    return (
        numbering.num_public_nodes(0)
        + numbering.num_public_nodes(1)
        + numbering.num_leaves
        + numbering.num_public_chance
    )


def tree_nodes(game: StructuredGame) -> int:
    """An upper bound on the explicit tree's nodes (:func:`tree_nodes_of` its hands and
    :func:`nodes_per_deal`)."""
    return tree_nodes_of(game.hands, nodes_per_deal(game))


def tree_nodes_of(hands: tuple[Hands, Hands], public_nodes: int) -> int:
    """An upper bound on the nodes of the explicit tree of a game with these hands and
    ``public_nodes`` nodes in its public tree (:func:`~seqform.base.node_counts.
    dealt_tree_nodes`): the deals are the pairs of hands sharing no card, each with the
    whole public tree below it (an outcome whose card a hand holds is written once per
    deal less), and the deal takes at most one chance node per pair plus the root (a
    card-by-card deal has ``1 + hands of player 1``).  A hold'em spot is sized by it from
    its betting and ranges, before its public tree is built
    (:func:`~seqform.holdem.game.spot_tree_nodes`)."""
    pairs = compatible_pairs(*hands)  # two-card hands clash on either card
    return dealt_tree_nodes(deal_nodes=1 + pairs, deals=pairs, nodes_per_deal=public_nodes)


def refuse_tree_nodes(name: str, nodes: int, max_nodes: int, instead: str) -> None:
    """Refuse a tree of ``nodes`` nodes (at most) beyond ``max_nodes``, naming the method
    (``instead``) that never builds the tree.

    Raises
    ------
    TreeTooLargeError
        When ``nodes > max_nodes``.
    """
    if nodes > max_nodes:
        raise TreeTooLargeError(
            f"{name}: the game tree would have up to {nodes:,} nodes, more than the "
            f"{max_nodes:,} seqform builds; solve it with {instead}, which never builds "
            "the tree"
        )


def ordered_deal(label: str = "deal", separator: str = ",") -> DealWriter:
    """One chance node over all ordered deals, labelled by the two hands' labels joined by
    ``separator`` (Kuhn's ``"KJ"``, ``"3,12"``)."""

    def write(game: StructuredGame, subtree: Maker) -> Node:
        pairs = deals(game)
        first, second = game.hands[0].labels, game.hands[1].labels
        joint = deal_probabilities(game)
        return Chance(
            outcomes=tuple(first[h0] + separator + second[h1] for h0, h1 in pairs),
            probabilities=tuple(joint[h0][h1] for h0, h1 in pairs),
            children=tuple(subtree(h0, h1) for h0, h1 in pairs),
            label=label,
        )

    return write


def card_by_card_deal(
    labels: tuple[str, str] = ("deal to player 1", "deal to player 2"),
) -> DealWriter:
    """Player 1's hand, then player 2's, each a chance node of its conditional
    probabilities (Leduc: ``1/n``, then ``1/(n-1)``), outcomes labelled by the hands."""

    def write(game: StructuredGame, subtree: Maker) -> Node:
        size0, size1 = game.num_hands(0), game.num_hands(1)
        joint = deal_probabilities(game)
        first = [h0 for h0 in range(size0) if sum(joint[h0])]
        children = []
        for h0 in first:
            total = sum(joint[h0])
            second = [h1 for h1 in range(size1) if joint[h0][h1]]
            children.append(
                Chance(
                    outcomes=tuple(game.hands[1].labels[h1] for h1 in second),
                    probabilities=tuple(joint[h0][h1] / total for h1 in second),
                    children=tuple(subtree(h0, h1) for h1 in second),
                    label=labels[1],
                )
            )
        return Chance(
            outcomes=tuple(game.hands[0].labels[h0] for h0 in first),
            probabilities=tuple(sum(joint[h0], Fraction(0)) for h0 in first),
            children=tuple(children),
            label=labels[0],
        )

    return write


class _Terminals:
    """One terminal per payoff to player 0 (terminals are immutable, so deals share them)."""

    def __init__(self) -> None:
        self._by_payoff: dict[Fraction, Terminal] = {}

    def __call__(self, payoff: Fraction) -> Terminal:
        leaf = self._by_payoff.get(payoff)
        if leaf is None:
            leaf = self._by_payoff[payoff] = Terminal((payoff, -payoff))
        return leaf


def _leaf_maker(leaf: PublicLeaf, terminals: _Terminals) -> Maker:
    rule = leaf.rule
    if isinstance(rule, Constant):
        constant = terminals(Fraction(rule.payoff))
        return lambda h0, h1: constant
    assert leaf.levels is not None  # checked by the numbering
    first, second = leaf.levels[0].tolist(), leaf.levels[1].tolist()
    if isinstance(rule, Sign):
        stake = Fraction(rule.stake)
        won, tied, lost = terminals(stake), terminals(Fraction(0)), terminals(-stake)
        return lambda h0, h1: (
            won if first[h0] > second[h1] else lost if first[h0] < second[h1] else tied
        )
    quantity = rule.quantity
    reached, missed = terminals(Fraction(rule.if_reached)), terminals(Fraction(rule.otherwise))
    return lambda h0, h1: reached if first[h0] + second[h1] >= quantity else missed


def _maker(
    node: PublicNode, game: StructuredGame, public: tuple[int, ...], terminals: _Terminals
) -> Maker:
    """Read the public tree below ``node`` (``public``: the cards turned on the way) into a
    function writing it for a deal."""
    if isinstance(node, PublicLeaf):
        return _leaf_maker(node, terminals)
    if isinstance(node, PublicChance):
        kept = [i for i, card in enumerate(node.cards) if card not in public]
        makers = [_maker(node.children[i], game, (*public, node.cards[i]), terminals) for i in kept]
        cards = [node.cards[i] for i in kept]
        outcomes = [node.outcomes[i] for i in kept]
        probabilities = [node.outcome_probability(i) for i in kept]
        held = (game.hands[0].card_matrix.tolist(), game.hands[1].card_matrix.tolist())

        def chance(h0: int, h1: int) -> Node:
            hands = {*held[0][h0], *held[1][h1]}
            draws = [i for i, card in enumerate(cards) if card not in hands]
            return Chance(
                outcomes=tuple(outcomes[i] for i in draws),
                probabilities=tuple(probabilities[i] for i in draws),
                children=tuple(makers[i](h0, h1) for i in draws),
                label=node.label,
            )

        return chance
    player, history, actions = node.player, node.history, node.actions
    names = game.hands[player].labels
    children = [_maker(child, game, public, terminals) for child in node.children]

    def decision(h0: int, h1: int) -> Node:
        name = names[h0 if player == 0 else h1] + history
        return Decision(player, name, actions, tuple([make(h0, h1) for make in children]))

    return decision


def _reporting(game: StructuredGame, make: Maker) -> Maker:
    """``make``, reporting how many deals' subtrees are written (:mod:`seqform.base.progress`:
    a progress bar on a terminal) about a hundred times over the whole tree."""
    total = compatible_pairs(*game.hands)
    every = max(1, total // 100)
    written = 0

    def counted(h0: int, h1: int) -> Node:
        nonlocal written
        node = make(h0, h1)
        written += 1
        if written % every == 0 or written >= total:
            report(Step("building the tree (deals)", written, total, finished=written >= total))
        return node

    return counted


def explicit_game(
    game: StructuredGame,
    max_nodes: int | None = None,
    instead: str = "--method structured",
) -> Game:
    """The explicit :class:`~seqform.game.model.Game` of a structured game.

    Raises
    ------
    TreeTooLargeError
        When the tree would have more than ``max_nodes`` nodes (:func:`tree_nodes`), naming
        the game and the method (``instead``) that never builds the tree.
    """
    if max_nodes is not None:
        refuse_tree_nodes(game.name, tree_nodes(game), max_nodes, instead)
    number_public_tree(game)  # validates the public tree before any node is written
    root = game.write_deal(game, _reporting(game, _maker(game.root, game, (), _Terminals())))
    if game.describe_action is None:
        return Game(name=game.name, root=root, description=game.description, origin=game.origin)
    return Game(
        name=game.name,
        root=root,
        description=game.description,
        describe_action=game.describe_action,
        origin=game.origin,
    )
