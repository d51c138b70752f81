"""An independent check of :mod:`seqform.certify`: expected values and best responses by
walking the node objects, generic in the number type (Fractions in, Fractions out).

It shares nothing with the flat arrays of the compiled tree except the strategies'
``as_dict``; the property tests compare the two.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal


def _probabilities(strategy: BehaviouralStrategy, node: Decision) -> list[Any]:
    at = strategy.as_dict()[node.infoset]
    return [at[action] for action in node.actions]


def walk_expected_value(game: Game, first: BehaviouralStrategy, second: BehaviouralStrategy):
    """Player 0's expected payoff: chance × both players' probabilities × payoff, summed."""
    strategies = (first, second)
    exact = first.exact and second.exact

    def value(node: Node) -> Any:
        if isinstance(node, Terminal):
            return node.payoffs[0] if exact else float(node.payoffs[0])
        if isinstance(node, Chance):
            odds = node.probabilities if exact else [float(p) for p in node.probabilities]
        else:
            odds = _probabilities(strategies[node.player], node)
        return sum((p * value(child) for p, child in zip(odds, node.children, strict=True)), 0)

    return value(game.root)


def walk_best_response(game: Game, player: int, opponent: BehaviouralStrategy):
    """The best-response value of ``player`` and a best action per information set.

    Collects, per own information set, the list of its nodes with their chance-and-opponent
    weight; the value of a set is the max over actions of the weighted sum of what follows,
    where what follows an own node is the value of the next own set (counted once per set).
    """
    exact = opponent.exact
    zero: Any = Fraction(0) if exact else 0.0
    sign = 1 if player == 0 else -1
    after: dict[tuple[str, int] | None, list[tuple[Node, Any]]] = {}
    actions: dict[str, int] = {}

    def collect(node: Node, own: tuple[str, int] | None, weight: Any) -> None:
        if isinstance(node, Terminal):
            after.setdefault(own, []).append((node, weight))
        elif isinstance(node, Chance):
            for p, child in zip(node.probabilities, node.children, strict=True):
                collect(child, own, weight * (p if exact else float(p)))
        elif node.player == player:
            after.setdefault(own, []).append((node, weight))
            actions[node.infoset] = len(node.actions)
            for index, child in enumerate(node.children):
                collect(child, (node.infoset, index), weight)
        else:
            odds = _probabilities(opponent, node)
            for p, child in zip(odds, node.children, strict=True):
                collect(child, own, weight * p)

    collect(game.root, None, zero + 1)
    memo: dict[str, Any] = {}
    choice: dict[str, int] = {}

    def following(own: tuple[str, int] | None) -> Any:
        total, seen = zero, set()
        for node, weight in after.get(own, []):
            if isinstance(node, Terminal):
                payoff = node.payoffs[0] if exact else float(node.payoffs[0])
                total += sign * weight * payoff
            elif node.infoset not in seen:
                seen.add(node.infoset)
                total += infoset_value(node.infoset)
        return total

    def infoset_value(name: str) -> Any:
        if name not in memo:
            options = [following((name, a)) for a in range(actions[name])]
            choice[name] = max(range(len(options)), key=options.__getitem__)
            memo[name] = options[choice[name]]
        return memo[name]

    return following(None), choice
