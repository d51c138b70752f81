"""The subgames of a round on a structured game's public tree, and each as a game of its own.

A structured game (:mod:`seqform.game.public.tree`) is a public tree × private hands, and
an information set is (own hand, public history).  A round starts at a public chance node
whose parent is a decision (round 1 is the betting before any such node), as in
:mod:`seqform.resolving.subgames`; a *public subgame* of round ``R`` is one public chance
node starting round ``R`` over every deal: no information set crosses its border, since
information sets inside carry its public history.  The opponent ``O``'s *root information
set* ``J`` is one of its hands there (its hand and the public path; the tree version's
(subgame, ``O``'s last sequence)).

Per hand, a blueprint profile gives each player's reach at the subgame's root, the
realization plan of its last public sequence on the path (0 for a hand holding a public
card).  :func:`subgame_game` writes the subgame as a structured game whose hand weights are
those reaches times the hands' own weights, and whose ``deal_scale`` is the path's chance
(the game's ``deal_scale`` times the public cards' probabilities), so that its payoff
matrix is the full game's restricted to the subgame: a deal ``(h0, h1)`` has weight
``chance(r) · reach_0(h0) · reach_1(h1)`` (Burch, Johanson and Bowling, AAAI 2014, the
ranges).  Weighting only the re-solving player's hands gives the counterfactual values of
the other's; ``mirror=True`` swaps the players (payoffs negated), so the re-solving player
is the LP's player 0 (:mod:`seqform.structured.lp_model` keeps player 0's plan in its
columns).  Information-set names are kept, so a strategy carries over by name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import (
    Constant,
    Hands,
    PayoffRule,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    Sign,
    StructuredGame,
    Threshold,
)
from seqform.resolving.subgames import ResolveError

__all__ = ["PublicSubgame", "find_public_subgames", "root_reach", "subgame_game"]


@dataclass(frozen=True, eq=False)
class PublicSubgame:
    """One public chance node starting a round, over every deal.

    name : the public path to it, actions and public cards joined by spaces (``"r c"``),
        as :func:`seqform.resolving.subgames.find_subgames` names the tree's subgames
    chance : ``deal_scale`` times the public chance probabilities on the path (exact)
    last : per player, its public sequence on the path (0: none)
    cards : the public cards on the path
    """

    name: str
    node: PublicChance
    chance: Fraction
    last: tuple[int, int]
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Step:
    node: PublicNode
    path: tuple[str, ...]
    chance: Fraction
    cards: tuple[int, ...]
    last: tuple[int, int]
    rounds: int
    parent_decides: bool


def _subgames(game: StructuredGame, round_number: int) -> Iterator[PublicSubgame]:
    """One walk in the numbering's preorder (:mod:`seqform.game.public.numbering`: children
    first to last, a card already public skipped), counting each player's public sequences
    as it does, so that ``last`` is the numbering's."""
    counters = [1, 1]
    stack = [_Step(game.root, (), Fraction(game.deal_scale), (), (0, 0), 1, False)]
    while stack:
        at = stack.pop()
        node = at.node
        if isinstance(node, PublicDecision):
            first = counters[node.player]
            counters[node.player] += len(node.actions)
            for offset in reversed(range(len(node.actions))):
                last = list(at.last)
                last[node.player] = first + offset
                path = (*at.path, node.actions[offset])
                child = node.children[offset]
                stack.append(
                    _Step(child, path, at.chance, at.cards, (last[0], last[1]), at.rounds, True)
                )
        elif isinstance(node, PublicChance):
            rounds = at.rounds + (1 if at.parent_decides else 0)
            if rounds == round_number:
                yield PublicSubgame(" ".join(at.path), node, at.chance, at.last, at.cards)
            for i in reversed(range(len(node.outcomes))):
                if node.cards[i] in at.cards:
                    continue
                stack.append(
                    _Step(
                        node.children[i],
                        (*at.path, node.outcomes[i]),
                        at.chance * node.outcome_probability(i),
                        tuple(sorted((*at.cards, node.cards[i]))),
                        at.last,
                        rounds,
                        False,
                    )
                )


def find_public_subgames(game: StructuredGame, round_number: int) -> tuple[PublicSubgame, ...]:
    """The public subgames of round ``round_number`` (module docstring), in the numbering's
    preorder.

    Raises
    ------
    ResolveError
        If the game has no such round.
    """
    found = tuple(_subgames(game, round_number)) if round_number >= 2 else ()
    if not found:
        raise ResolveError(
            f"round {round_number}: {game.name} has no round {round_number} to re-solve "
            "(rounds start at a chance node after a decision; round 1 is the trunk's)"
        )
    return found


def root_reach(
    game: StructuredGame, subgame: PublicSubgame, player: int, plan: np.ndarray
) -> np.ndarray:
    """Per hand of ``player``, its realization plan at the subgame's root (module docstring);
    0 for a hand holding a public card.  ``plan`` is the player's realization plan in the
    full game (float, or an object array of Fractions)."""
    numbering = number_public_tree(game)
    index = numbering.sequence_index[player][:, subgame.last[player]]
    cards = game.hands[player].card_matrix
    valid = ~np.isin(cards, np.asarray(subgame.cards, dtype=np.int64)).any(axis=1)
    reach = np.where((index >= 0) & valid, plan[np.maximum(index, 0)], 0)
    return reach.astype(plan.dtype)


def _rule(rule: PayoffRule, mirror: bool) -> PayoffRule:
    if not mirror or isinstance(rule, Sign):  # sign(l0 − l1) is odd: the swap negates it twice
        return rule
    if isinstance(rule, Constant):
        return Constant(-Fraction(rule.payoff))
    assert isinstance(rule, Threshold)
    return Threshold(rule.quantity, -Fraction(rule.if_reached), -Fraction(rule.otherwise))


def _copy(node: PublicNode, drop: frozenset[int], mirror: bool, memo: dict[int, Any]) -> PublicNode:
    """``node``'s public subtree without the chance outcomes of the cards ``drop`` (public
    before the subgame), with the players swapped when ``mirror``."""
    done = memo.get(id(node))
    if done is not None:
        return done
    copy: PublicNode
    if isinstance(node, PublicLeaf):
        levels = node.levels
        if mirror and levels is not None:
            levels = (levels[1], levels[0])
        copy = PublicLeaf(_rule(node.rule, mirror), levels)
    elif isinstance(node, PublicDecision):
        children = tuple(_copy(child, drop, mirror, memo) for child in node.children)
        player = 1 - node.player if mirror else node.player
        copy = PublicDecision(player, node.actions, children, node.history)
    else:
        kept = [i for i, card in enumerate(node.cards) if card not in drop]
        multiplicity = node.multiplicity
        copy = PublicChance(
            node.label,
            tuple(node.outcomes[i] for i in kept),
            tuple(node.cards[i] for i in kept),
            node.probability,
            tuple(_copy(node.children[i], drop, mirror, memo) for i in kept),
            None if multiplicity is None else tuple(multiplicity[i] for i in kept),
        )
    memo[id(node)] = copy
    return copy


def _hands(hands: Hands, weights: np.ndarray) -> Hands:
    exact = tuple(Fraction(w) * Fraction(v) for w, v in zip(hands.weights, weights, strict=True))
    return Hands(hands.labels, exact, hands.cards)


def subgame_game(
    game: StructuredGame,
    subgame: PublicSubgame,
    weights: tuple[np.ndarray, np.ndarray],
    *,
    mirror: bool = False,
    kind: str = "subgame",
) -> StructuredGame:
    """The subgame as a structured game (module docstring): player ``p``'s hand ``h`` has
    weight ``game``'s weight times ``weights[p][h]``; ``mirror`` swaps the players, so that
    the returned game's player 0 is ``game``'s player 1 (its hands, decisions and payoffs)."""
    first, second = (_hands(game.hands[p], weights[p]) for p in (0, 1))
    root = _copy(subgame.node, frozenset(subgame.cards), mirror, {})
    return StructuredGame(
        name=f"{game.name}: {kind} {subgame.name!r}",
        hands=(second, first) if mirror else (first, second),
        deal_scale=subgame.chance,
        root=root,
        write_deal=game.write_deal,
        description=game.description,
        describe_action=game.describe_action,
        suits=None,
    )
