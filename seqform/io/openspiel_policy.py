"""Strategies across tools: seqform's behavioural strategies as OpenSpiel policies, and back.

With the :class:`~seqform.io.openspiel_mapping.PolicyCorrespondence` of a game (its
information sets and actions as OpenSpiel's, found by walking both trees in step),

* :func:`to_openspiel_policy` writes a pair of
  :class:`~seqform.forms.strategies.BehaviouralStrategy` (LP, exact, refined or iterative;
  exact ones become floats) into a ``policy.TabularPolicy``, which OpenSpiel's
  ``exploitability.nash_conv`` and solvers read;
* :func:`from_openspiel_policy` reads any OpenSpiel policy (a ``TabularPolicy`` by its
  keys, another ``policy.Policy`` by ``action_probabilities`` at one state of each
  information set) into two float strategies, for :func:`seqform.certify.certify` and
  ``exploit``.

NashConv agrees: seqform's certificate and OpenSpiel's ``nash_conv`` both measure
``BR_0(y) + BR_1(x)``, the sum of both players' gains from deviating.  pyspiel is imported
only when a correspondence is made; without it,
:class:`~seqform.game.formats.openspiel.OpenSpielUnavailableError` is raised.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from seqform.forms.strategies import (
    REACH_TOLERANCE,
    BehaviouralStrategy,
    behaviour_from_mapping,
    plan_from_behaviour,
)
from seqform.game.model import Game
from seqform.io.openspiel_mapping import PolicyCorrespondence, policy_correspondence

__all__ = [
    "PolicyStrategies",
    "from_openspiel_policy",
    "to_openspiel_policy",
]

SUM_TOLERANCE = 1e-9  # a policy's probabilities at an information set sum to one this closely


def _checked(
    game: Game, player: int, strategy: BehaviouralStrategy | Mapping
) -> BehaviouralStrategy:
    table = game.flat.tables[player]
    if not isinstance(strategy, BehaviouralStrategy):
        return behaviour_from_mapping(table, strategy).to_float()
    if strategy.table.infosets != table.infosets or strategy.table.actions != table.actions:
        raise ValueError(
            f"the strategy of player {player + 1} is not one of {game.name!r}: its "
            "information sets or actions differ"
        )
    return strategy.to_float()


def to_openspiel_policy(
    game: Game,
    first: BehaviouralStrategy | Mapping,
    second: BehaviouralStrategy | Mapping,
    *,
    correspondence: PolicyCorrespondence | None = None,
) -> Any:
    """Both players' behavioural strategies as one OpenSpiel ``policy.TabularPolicy``.

    Exact strategies are written as floats.  The policy's rows are OpenSpiel's own
    (``TabularPolicy(game)``), so it lines up with OpenSpiel's solvers' policies.

    Raises
    ------
    OpenSpielUnavailableError, ValueError
        As :func:`policy_correspondence`; ``ValueError`` also if a strategy is not one
        of ``game``'s.
    """
    link = correspondence or policy_correspondence(game)
    strategies = (_checked(game, 0, first), _checked(game, 1, second))
    from open_spiel.python import policy as openspiel_policy

    tabular = openspiel_policy.TabularPolicy(link.openspiel_game)
    table = tabular.action_probability_array
    table[:] = 0.0
    for key, row in tabular.state_lookup.items():
        player, index = link.locate(key)
        strategy = strategies[player]
        sequences = strategy.table.sequences_of(index)
        table[row, list(link.action_ids[player][index])] = strategy.probabilities[
            sequences.start : sequences.stop
        ]
    return tabular


@dataclass(frozen=True)
class PolicyStrategies:
    """Both players' behavioural strategies read from an OpenSpiel policy (floats).

    ``unreached`` marks the information sets the player's own strategy never reaches.
    """

    first: BehaviouralStrategy
    second: BehaviouralStrategy

    @property
    def strategies(self) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
        return (self.first, self.second)


def from_openspiel_policy(
    game: Game, policy: Any, *, correspondence: PolicyCorrespondence | None = None
) -> PolicyStrategies:
    """An OpenSpiel policy as seqform's two behavioural strategies.

    A ``TabularPolicy`` (or anything with ``state_lookup`` and
    ``action_probability_array``) is read by its information-state keys; any other
    ``policy.Policy`` by ``action_probabilities(state, player)`` at one state of each
    information set.  Probabilities summing to within ``1e-9`` of one are normalised.

    Raises
    ------
    ValueError
        If the policy lacks an information state of the game, puts probability on actions
        the game does not have there, or its probabilities do not sum to one; the message
        names the information state (so a policy of another game is reported by the first
        information state it lacks).
    """
    link = correspondence or policy_correspondence(game)
    read = _tabular_reader(policy) if hasattr(policy, "state_lookup") else _state_reader(policy)
    strategies = []
    for player, table in enumerate(game.flat.tables):
        probabilities = np.ones(table.num_sequences)
        for index in range(table.num_infosets):
            values, elsewhere = read(link, player, index)
            total = values.sum()
            if elsewhere > SUM_TOLERANCE or abs(total - 1) > SUM_TOLERANCE or (values < 0).any():
                raise ValueError(
                    f"the policy at {link.describe(player, index)} gives {values.tolist()} "
                    f"to its actions and {elsewhere!r} to others; it must be a distribution "
                    "over the game's actions there"
                )
            sequences = table.sequences_of(index)
            probabilities[sequences.start : sequences.stop] = values / total
        strategy = BehaviouralStrategy(table, probabilities, np.zeros(table.num_infosets, bool))
        plan = plan_from_behaviour(strategy)
        unreached = plan[table.parent_sequence] <= REACH_TOLERANCE
        strategies.append(BehaviouralStrategy(table, probabilities, unreached))
    return PolicyStrategies(*strategies)


_Reader = Callable[[PolicyCorrespondence, int, int], tuple[np.ndarray, float]]


def _tabular_reader(policy: Any) -> _Reader:
    """Probabilities of our actions, and the mass on other actions, from a table."""
    lookup, array = policy.state_lookup, np.asarray(policy.action_probability_array, float)

    def read(link: PolicyCorrespondence, player: int, index: int) -> tuple[np.ndarray, float]:
        row = lookup.get(link.keys[player][index])
        if row is None:
            raise ValueError(f"the policy has no {link.describe(player, index)}")
        values = array[row, list(link.action_ids[player][index])]
        return values, float(array[row].sum() - values.sum())

    return read


def _state_reader(policy: Any) -> _Reader:
    """The same from ``policy.action_probabilities`` at a state rebuilt from its history."""

    def read(link: PolicyCorrespondence, player: int, index: int) -> tuple[np.ndarray, float]:
        state = link.openspiel_game.new_initial_state()
        for action in link.histories[player][index]:
            state.apply_action(action)
        given = dict(policy.action_probabilities(state, player))
        ids = link.action_ids[player][index]
        values = np.array([float(given.pop(action, 0.0)) for action in ids])
        return values, float(sum(given.values()))

    return read
