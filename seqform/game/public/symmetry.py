"""A structured game's suit symmetries, and its public tree on canonical boards.

:func:`game_symmetries` finds the suit permutations (:mod:`seqform.game.public.suits`) that
map the game onto itself: the cards fixed before the public tree (a hold'em spot's board,
:attr:`~seqform.game.public.tree.StructuredGame.fixed_cards`) onto themselves as a set, each
player's hands onto hands of equal weight, and the public tree onto itself — the same
players, actions and probabilities, each public chance node's outcomes onto its outcomes,
and at every leaf the payoff rule unchanged and each valid hand ``h``'s level equal to
``σh``'s at the image leaf.  Nothing is assumed of the game: a permutation is kept only when
this walk of the whole public tree passes, so a hold'em spot whose ranges are not
suit-symmetric keeps only the permutations they respect.  The permutations kept form a
group (the automorphisms of the hands and of the tree).

:func:`canonical_game` writes the public tree on canonical boards, ``G'``: at each public
chance node one card per orbit of the stabilizer of the cards before it, with that orbit's
size as its multiplicity.  ``G'`` alone is not the game (a strategy that differs between
``Ks`` and ``Kh`` before the board has no counterpart); it is equivalent for strategies that
are the same on each hand class (:mod:`seqform.structured.reductions.suit_reduction`).
:func:`node_map` sends each public decision node of the game to its node of ``G'`` and the
permutation that maps it there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from seqform.game.public.numbering import number_public_tree
from seqform.game.public.suits import (
    CanonicalBoard,
    SuitGroup,
    canonical_board,
    card_map,
    permute_card,
    setwise_stabilizer,
    symmetric_group,
)
from seqform.game.public.tree import (
    Hands,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    StructuredGame,
)

__all__ = ["NodeMap", "Symmetries", "canonical_game", "game_symmetries", "node_map"]


@dataclass(frozen=True)
class Symmetries:
    """The suit permutations a game is invariant under.

    group : the permutations (the identity first)
    hand_maps : per element of ``group``, per player, the hand ``σh`` of each hand ``h``
    """

    group: SuitGroup
    hand_maps: tuple[tuple[np.ndarray, np.ndarray], ...]


def _hand_map(hands: Hands, permutation: tuple[int, ...]) -> np.ndarray | None:
    """Per hand, the hand holding its cards permuted; None unless that is a hand of equal
    weight for every hand."""
    cards = hands.card_matrix
    if (cards < 0).any():
        return None
    index = {tuple(sorted(row)): h for h, row in enumerate(cards.tolist())}
    mapped = card_map(permutation, cards)
    image = [index.get(tuple(sorted(row)), -1) for row in mapped.tolist()]
    if min(image) < 0:
        return None
    if any(hands.weights[h] != hands.weights[i] for h, i in enumerate(image)):
        return None
    return np.asarray(image, dtype=np.int64)


def _same_levels(
    first: PublicLeaf, second: PublicLeaf, maps: tuple[np.ndarray, np.ndarray], valid: list
) -> bool:
    if first.levels is None or second.levels is None:
        return first.levels is None and second.levels is None
    return all(
        np.array_equal(first.levels[p][valid[p]], second.levels[p][maps[p][valid[p]]])
        for p in (0, 1)
    )


class _Invariance:
    """One walk of the public tree and its image under a permutation (module docstring);
    levels are compared once per pair of level arrays and set of public cards."""

    def __init__(
        self,
        game: StructuredGame,
        permutation: tuple[int, ...],
        maps: tuple[np.ndarray, np.ndarray],
    ) -> None:
        self.game = game
        self.permutation = permutation
        self.maps = maps
        self.cards = [game.hands[p].card_matrix for p in (0, 1)]
        self.valid: dict[tuple[int, ...], list[np.ndarray]] = {}
        self.levels: dict[tuple[int, int, tuple[int, ...]], bool] = {}

    def leaf(self, first: PublicLeaf, second: PublicNode, public: tuple[int, ...]) -> bool:
        if not isinstance(second, PublicLeaf) or first.rule != second.rule:
            return False
        board = tuple(sorted(public))
        key = (id(first.levels), id(second.levels), board)
        if key not in self.levels:
            if board not in self.valid:
                cards = np.asarray(board, dtype=np.int64)
                self.valid[board] = [
                    np.asarray(~np.isin(c, cards).any(axis=1), dtype=bool) for c in self.cards
                ]
            self.levels[key] = _same_levels(first, second, self.maps, self.valid[board])
        return self.levels[key]

    def holds(self) -> bool:
        game, permutation = self.game, self.permutation
        stack: list[tuple[PublicNode, PublicNode, tuple[int, ...]]] = [(game.root, game.root, ())]
        while stack:
            first, second, public = stack.pop()
            if isinstance(first, PublicLeaf):
                if not self.leaf(first, second, public):
                    return False
            elif isinstance(first, PublicDecision):
                if not isinstance(second, PublicDecision) or (first.player, first.actions) != (
                    second.player,
                    second.actions,
                ):
                    return False
                stack.extend(
                    (a, b, public) for a, b in zip(first.children, second.children, strict=True)
                )
            else:
                if not isinstance(second, PublicChance) or not _same_chance(first, second):
                    return False
                where = {card: i for i, card in enumerate(second.cards)}
                images = [where.get(permute_card(card, permutation), -1) for card in first.cards]
                if min(images, default=0) < 0:
                    return False
                stack.extend(
                    (first.children[i], second.children[j], (*public, first.cards[i]))
                    for i, j in enumerate(images)
                    if first.cards[i] not in public
                )
        return True


def _same_chance(first: PublicChance, second: PublicChance) -> bool:
    return (
        first.probability == second.probability
        and first.multiplicity is None
        and second.multiplicity is None
        and len(first.cards) == len(second.cards)
    )


def _generators(group: SuitGroup) -> list[tuple[int, ...]]:
    """Adjacent transpositions: they generate the symmetric group."""
    out = []
    for suit in range(group.suits - 1):
        swap = list(range(group.suits))
        swap[suit], swap[suit + 1] = suit + 1, suit
        out.append(tuple(swap))
    return out


def game_symmetries(game: StructuredGame) -> Symmetries:
    """The suit permutations ``game`` is invariant under (module docstring); the identity
    alone when the game declares no suits (:attr:`StructuredGame.suits`).

    The candidates are the permutations mapping the game's fixed cards
    (:attr:`StructuredGame.fixed_cards`, a spot's board) onto themselves as a set
    (:func:`~seqform.game.public.suits.setwise_stabilizer`), and of those the ones mapping
    each player's hands onto hands of equal weight: a range that is not suit-symmetric
    (``AsKs:1, AhKh:0.5``) rules out every permutation it does not respect.  When the
    candidates are every permutation and the adjacent transpositions of suits all map the
    game onto itself, so does every permutation (they generate the group) and the tree is
    walked once per transposition; otherwise once per candidate."""
    identity = (np.arange(game.num_hands(0)), np.arange(game.num_hands(1)))
    if game.suits is None or game.suits < 2:
        return Symmetries(SuitGroup(1, ((0,),)), (identity,))
    full = symmetric_group(game.suits)
    group = setwise_stabilizer(full, game.fixed_cards)
    hand_maps: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}
    for permutation in group.elements[1:]:
        pair = (_hand_map(game.hands[0], permutation), _hand_map(game.hands[1], permutation))
        if pair[0] is not None and pair[1] is not None:
            hand_maps[permutation] = (pair[0], pair[1])
    generators = _generators(full)
    if (
        group.order == full.order
        and len(hand_maps) == group.order - 1
        and all(_Invariance(game, g, hand_maps[g]).holds() for g in generators)
    ):
        kept = list(group.elements[1:])
    else:
        kept = [p for p, maps in hand_maps.items() if _Invariance(game, p, maps).holds()]
    elements = (group.elements[0], *kept)
    maps = (identity, *(hand_maps[p] for p in kept))
    return Symmetries(SuitGroup(game.suits, elements), maps)


def _canonical_node(node: PublicNode, group: SuitGroup, board: tuple[int, ...]) -> PublicNode:
    if isinstance(node, PublicLeaf):
        return node
    if isinstance(node, PublicDecision):
        children = tuple(_canonical_node(child, group, board) for child in node.children)
        if all(new is old for new, old in zip(children, node.children, strict=True)):
            return node  # no chance below (a river's betting): shared, not copied
        return replace(node, children=children)
    stabilizer = group.stabilizer(board)
    kept = [
        i
        for i, card in enumerate(node.cards)
        if card not in board and stabilizer.canonical(card) == card
    ]
    return PublicChance(
        label=node.label,
        outcomes=tuple(node.outcomes[i] for i in kept),
        cards=tuple(node.cards[i] for i in kept),
        probability=node.probability,
        children=tuple(
            _canonical_node(node.children[i], group, (*board, node.cards[i])) for i in kept
        ),
        multiplicity=tuple(len(stabilizer.orbit(node.cards[i])) for i in kept),
    )


def canonical_game(game: StructuredGame, symmetries: Symmetries) -> StructuredGame:
    """``G'``: the game on canonical boards (module docstring), the same hands and deal;
    no longer the game it was built from, so without its ``origin``."""
    root = _canonical_node(game.root, symmetries.group, ())
    name = f"{game.name} on canonical boards"
    return replace(game, name=name, root=root, suits=None, origin=None)


@dataclass(frozen=True)
class NodeMap:
    """Each public decision node of a game sent to ``G'`` (:func:`canonical_game`).

    node[p] : per public decision node of player ``p`` (the game's numbering), its node in
        ``G'``'s numbering
    element[p] : per node, the index in the group of a permutation mapping it there
    """

    node: tuple[np.ndarray, np.ndarray]
    element: tuple[np.ndarray, np.ndarray]


def _paths(game: StructuredGame) -> tuple[list[tuple[tuple[int, ...], str]], ...]:
    """Per player, per public decision node in the numbering's order (preorder, children in
    order, outcomes already public skipped), its path: action indices, and cards as
    ``-2 - card``; and its history (to check the order against the numbering)."""
    found: tuple[list[tuple[tuple[int, ...], str]], ...] = ([], [])
    stack: list[tuple[PublicNode, tuple[int, ...], tuple[int, ...]]] = [(game.root, (), ())]
    while stack:
        node, path, public = stack.pop()
        if isinstance(node, PublicDecision):
            found[node.player].append((path, node.history))
            stack.extend(
                (node.children[i], (*path, i), public) for i in reversed(range(len(node.actions)))
            )
        elif isinstance(node, PublicChance):
            stack.extend(
                (node.children[i], (*path, -2 - card), (*public, card))
                for i, card in reversed(list(enumerate(node.cards)))
                if card not in public
            )
    return found


def node_map(game: StructuredGame, canonical: StructuredGame, symmetries: Symmetries) -> NodeMap:
    """Where each public decision node of ``game`` is in ``canonical`` (:class:`NodeMap`)."""
    group = symmetries.group
    index = {element: i for i, element in enumerate(group.elements)}
    paths, targets = _paths(game), _paths(canonical)
    numbered = (number_public_tree(game), number_public_tree(canonical))
    for own, numbering in zip((paths, targets), numbered, strict=True):
        for p in (0, 1):
            if [history for _, history in own[p]] != list(numbering.node_histories[p]):
                raise AssertionError("public nodes walked out of the numbering's order")
    nodes: list[np.ndarray] = []
    elements: list[np.ndarray] = []
    # the nodes under one run of public cards share their canonical form: a flop's 300,000
    # nodes and more have a few thousand boards, each put in canonical form once
    forms: dict[tuple[int, ...], CanonicalBoard] = {}
    for p in (0, 1):
        lookup = {path: k for k, (path, _) in enumerate(targets[p])}
        node = np.empty(len(paths[p]), dtype=np.int64)
        element = np.empty(len(paths[p]), dtype=np.int64)
        for k, (path, _) in enumerate(paths[p]):
            board = tuple(-2 - step for step in path if step < 0)
            found = forms.get(board)
            if found is None:
                found = forms[board] = canonical_board(group, board)
            cards = iter(found.cards)
            image = tuple(step if step >= 0 else -2 - next(cards) for step in path)
            node[k] = lookup[image]
            element[k] = index[found.permutation]
        nodes.append(node)
        elements.append(element)
    return NodeMap((nodes[0], nodes[1]), (elements[0], elements[1]))
