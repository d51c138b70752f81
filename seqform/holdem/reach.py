"""How often play reaches each public decision of a spot, under a pair of strategies: what a
node lock's report weighs each change by (:mod:`seqform.routes.locked`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.public.tree import PublicChance, PublicDecision, StructuredGame, hands_clash_free

__all__ = ["public_reach"]


def public_reach(
    game: StructuredGame, strategies: Sequence[BehaviouralStrategy]
) -> dict[str, float]:
    """Per public decision (its history), the probability that play reaches it: the deal
    (weights and card removal) times both players' reach of it, walking the public tree
    with one reach vector over each player's hands."""
    floats = [strategy.to_float() for strategy in strategies]
    lookup = [strategy.table.index_of_infoset() for strategy in floats]
    weights = [np.array([float(w) for w in game.hands[p].weights]) for p in (0, 1)]
    deal = hands_clash_free(*game.hands) * np.outer(weights[0], weights[1])
    deal /= deal.sum()
    cards = [game.hands[p].card_matrix for p in (0, 1)]
    found: dict[str, float] = {}
    stack = [(game.root, np.ones(len(weights[0])), np.ones(len(weights[1])), 1.0)]
    while stack:
        node, first, second, chance = stack.pop()
        if isinstance(node, PublicDecision):
            found[node.history] = chance * float(first @ deal @ second)
            own = first if node.player == 0 else second
            table, strategy = floats[node.player].table, floats[node.player]
            for a, child in enumerate(node.children):
                taken = np.zeros_like(own)
                for hand, label in enumerate(game.hands[node.player].labels):
                    index = lookup[node.player].get(label + node.history)
                    if index is not None:
                        sequence = int(table.first_sequence[index]) + a
                        taken[hand] = own[hand] * strategy.probabilities[sequence]
                pair = (taken, second) if node.player == 0 else (first, taken)
                stack.append((child, *pair, chance))
        elif isinstance(node, PublicChance):
            for card, child in zip(node.cards, node.children, strict=True):
                live = [~(matrix == card).any(axis=1) for matrix in cards]
                stack.append(
                    (child, first * live[0], second * live[1], chance * float(node.probability))
                )
    return found
