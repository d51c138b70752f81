"""Helpers that check a built-in game against its OpenSpiel original, node for node.

``compare_with_openspiel`` walks our tree and OpenSpiel's in step; the games differ only in
how OpenSpiel spells actions (and chance outcomes), which the caller maps.  The other
helpers count a game's sizes, find a node by its history, and give exact behavioural
strategies and their value in OpenSpiel.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal, walk

Behaviour = dict[str, list[Fraction]]


def infosets(game: Game) -> dict[str, tuple[int, int]]:
    """Each information set's player and number of actions."""
    return {
        node.infoset: (node.player, len(node.actions))
        for node, _ in walk(game.root)
        if isinstance(node, Decision)
    }


def sizes(game: Game) -> tuple[int, tuple[int, int], tuple[int, int]]:
    """Terminal histories, information sets per player, sequences per player.

    A player's sequences are the empty one and one per (information set, action).
    """
    terminals = sum(isinstance(node, Terminal) for node, _ in walk(game.root))
    table = infosets(game).values()
    counts = tuple(sum(owner == player for owner, _ in table) for player in (0, 1))
    sequences = tuple(1 + sum(n for owner, n in table if owner == player) for player in (0, 1))
    return terminals, counts, sequences


def node_at(game: Game, history: tuple[str, ...]) -> Node:
    """The node reached by following chance outcomes and actions from the root."""
    node = game.root
    for label in history:
        assert not isinstance(node, Terminal)
        labels = node.outcomes if isinstance(node, Chance) else node.actions
        node = node.children[labels.index(label)]
    return node


def behaviour(game: Game, weights: Callable[[int], list[int]]) -> tuple[Behaviour, Behaviour]:
    """Exact behavioural strategies of both players, proportional to ``weights(actions)``."""
    strategies: tuple[Behaviour, Behaviour] = ({}, {})
    for name, (player, actions) in sorted(infosets(game).items()):
        drawn = weights(actions)
        strategies[player][name] = [Fraction(w, sum(drawn)) for w in drawn]
    return strategies


def compare_with_openspiel(
    game: Game,
    openspiel_game,
    action_label: Callable[[str], str],
    outcome_string: Callable[[str], str] | None = None,
) -> dict[str, str]:
    """Walk our tree and OpenSpiel's in step and assert they are the same game.

    At every node: the same kind of node, the same player, the same actions in the same
    order, the same chance probabilities, the same payoffs; and the information sets are the
    same partition (our names and OpenSpiel's information-state strings correspond one to
    one).  Returns our information set of each OpenSpiel information-state string.

    ``action_label`` gives our label of an OpenSpiel action from its ``action_to_string``.
    ``outcome_string``, when given, is OpenSpiel's ``action_to_string`` of each of our
    chance outcomes, and chance actions are compared by it too.
    """
    ours: dict[str, str] = {}
    theirs: dict[str, str] = {}
    stack = [(game.root, openspiel_game.new_initial_state())]
    while stack:
        node, state = stack.pop()
        if isinstance(node, Terminal):
            assert state.is_terminal()
            assert state.returns() == [float(payoff) for payoff in node.payoffs]
        elif isinstance(node, Chance):
            outcomes = state.chance_outcomes()
            assert [p for _, p in outcomes] == pytest.approx(list(map(float, node.probabilities)))
            if outcome_string is not None:
                assert [state.action_to_string(a) for a, _ in outcomes] == [
                    outcome_string(outcome) for outcome in node.outcomes
                ]
            stack.extend(
                (child, state.child(action))
                for child, (action, _) in zip(node.children, outcomes, strict=True)
            )
        else:
            assert state.current_player() == node.player
            legal = state.legal_actions()
            assert tuple(action_label(state.action_to_string(a)) for a in legal) == node.actions
            information = state.information_state_string()
            assert ours.setdefault(information, node.infoset) == node.infoset
            assert theirs.setdefault(node.infoset, information) == information
            stack.extend(zip(node.children, (state.child(a) for a in legal), strict=True))
    return ours


def openspiel_value(openspiel_game, strategies: tuple[Behaviour, Behaviour], ours: dict) -> float:
    """Player 1's expected payoff in OpenSpiel under our strategies, by its own tree walk."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms.expected_game_score import policy_value

    class Mapped(policy.Policy):
        def action_probabilities(self, state, player_id=None):
            name = ours[state.information_state_string()]
            probabilities = strategies[state.current_player()][name]
            return dict(zip(state.legal_actions(), map(float, probabilities), strict=True))

    mapped = Mapped(openspiel_game, [0, 1])
    return policy_value(openspiel_game.new_initial_state(), [mapped, mapped])[0]


def openspiel_uniform_value(openspiel_game) -> float:
    """Player 1's expected payoff in OpenSpiel when both players play uniformly at random."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms.expected_game_score import policy_value

    random_policy = policy.UniformRandomPolicy(openspiel_game)
    return policy_value(openspiel_game.new_initial_state(), [random_policy] * 2)[0]
