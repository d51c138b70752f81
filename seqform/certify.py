"""Expected values, best responses and exploitability, by walking the game tree.

This module is the certificate: it never looks at the LP, the sequence-form matrices or
the solver's duals.  It walks the tree with the behavioural strategies alone.

* :func:`expected_value` — player 0's expected payoff when both players follow behavioural
  strategies: the sum over terminal nodes of chance probability × both players' action
  probabilities × payoff.
* :func:`best_response` — the best a player can get against a fixed opponent.  Under
  perfect recall a best response is computed information set by information set, bottom
  up (the "backward induction" on the player's own information-set tree): with ``w(z)`` the
  chance-and-opponent reach of terminal ``z`` and ``u(z)`` the responder's payoff,

      V(h) = max_a [ sum_{z directly after (h, a)} w(z) u(z) + sum_{h' after (h, a)} V(h') ],

  and the best-response value is the same sum taken after the empty sequence.
* :func:`certify` — both best-response values and NashConv
  ``(BR_0(y) - v) + (BR_1(x) + v) = BR_0(y) + BR_1(x)``, the sum of both players' gains from
  deviating; it is 0 exactly at an equilibrium.  seqform calls NashConv the
  *exploitability* (OpenSpiel's ``nash_conv``; its ``exploitability`` is half of it).

Two implementations compute the same numbers.  The *walk* visits the node objects and is
generic in the number type (given ``fractions.Fraction`` behaviour it is exact).  The
*flat* one works on the arrays of the compiled tree (:mod:`seqform.game.compiled`) with numpy: the
terminals' chance probabilities, payoffs and the sequences of both players there — the
tree's own data, not the sequence-form matrices or anything from the LP.  It evaluates
the same sums vectorised, and the backward induction level by level of each player's
information-set tree.  :func:`certify` uses the flat path for float strategies
(:class:`~seqform.forms.strategies.BehaviouralStrategy`) and the walk for mappings; the tests
check the two against each other on random games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, infoset_depths, plan_from_behaviour
from seqform.game.compiled import PlayerSequences
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = [
    "BestResponse",
    "Certificate",
    "best_response",
    "certify",
    "certify_by_walk",
    "expected_value",
    "flat_best_response",
    "flat_expected_value",
]

Behaviour = Mapping[str, Sequence[Real]]
"""Information-set name -> action probabilities, in the information set's action order."""


@dataclass(frozen=True)
class BestResponse:
    """A pure best response and its value to the responding player.

    value : the responder's expected payoff when best responding
    actions : per information set of the responder, the index of the chosen action
    """

    player: int
    value: Real
    actions: Mapping[str, int]

    def strategy(self, table: PlayerSequences) -> BehaviouralStrategy:
        """The best response as a (pure) behavioural strategy on ``table``'s indices."""
        probabilities = np.zeros(table.num_sequences)
        probabilities[0] = 1.0
        for index, name in enumerate(table.infosets):
            first = int(table.first_sequence[index])
            probabilities[first + self.actions.get(name, 0)] = 1.0
        return BehaviouralStrategy(
            table=table,
            probabilities=probabilities,
            unreached=np.zeros(table.num_infosets, dtype=bool),
        )


@dataclass(frozen=True)
class Certificate:
    """How far a strategy profile is from equilibrium, measured by best responses.

    value : player 0's expected payoff under the profile
    best_response_values : (best player 0 can get against player 1's strategy,
        best player 1 can get against player 0's strategy), each to the deviating player
    gains : each player's gain from deviating, ``best_response_values[i] - payoff_i``
    exploitability : NashConv, ``gains[0] + gains[1]``
    """

    value: Real
    best_response_values: tuple[Real, Real]
    gains: tuple[Real, Real]
    exploitability: Real

    @classmethod
    def from_best_responses(cls, value: Real, best_first: Real, best_second: Real) -> Certificate:
        """The certificate from player 0's value and each player's best-response value."""
        gains = (best_first - value, best_second + value)
        return cls(
            value=value,
            best_response_values=(best_first, best_second),
            gains=gains,
            exploitability=gains[0] + gains[1],
        )


def _as_behaviour(strategy: BehaviouralStrategy | Behaviour) -> Behaviour:
    if isinstance(strategy, BehaviouralStrategy):
        table = strategy.table
        return {
            name: [float(strategy.probabilities[s]) for s in table.sequences_of(index)]
            for index, name in enumerate(table.infosets)
        }
    return strategy


def _zero_like(behaviours: Sequence[Behaviour]) -> Real:
    for behaviour in behaviours:
        for probabilities in behaviour.values():
            if probabilities and isinstance(probabilities[0], Fraction):
                return Fraction(0)
            return 0.0
    return Fraction(0)


def _action_probabilities(behaviour: Behaviour, node: Decision) -> Sequence[Real]:
    try:
        probabilities = behaviour[node.infoset]
    except KeyError:
        raise KeyError(
            f"the strategy of player {node.player + 1} has no information set {node.infoset!r}"
        ) from None
    if len(probabilities) != len(node.actions):
        raise ValueError(
            f"the strategy gives {len(probabilities)} probabilities at information set "
            f"{node.infoset!r}, which has {len(node.actions)} actions"
        )
    return probabilities


def expected_value(
    game: Game,
    first: BehaviouralStrategy | Behaviour,
    second: BehaviouralStrategy | Behaviour,
) -> Real:
    """Player 0's expected payoff when players 0 and 1 follow ``first`` and ``second``."""
    behaviours = (_as_behaviour(first), _as_behaviour(second))
    total = _zero_like(behaviours)
    one = total + 1
    stack: list[tuple[Node, Real]] = [(game.root, one)]
    while stack:
        node, reach = stack.pop()
        if isinstance(node, Terminal):
            total += reach * node.payoffs[0]
        elif isinstance(node, Chance):
            for probability, child in zip(node.probabilities, node.children, strict=True):
                if probability:
                    stack.append((child, reach * probability))
        else:
            probabilities = _action_probabilities(behaviours[node.player], node)
            for probability, child in zip(probabilities, node.children, strict=True):
                if probability:
                    stack.append((child, reach * probability))
    return total


def best_response(
    game: Game, player: int, opponent: BehaviouralStrategy | Behaviour
) -> BestResponse:
    """A pure best response of ``player`` to the opponent's behavioural strategy.

    See the module docstring for the backward induction.  Information sets the responder
    can reach only through zero-weight paths still get an action (the first maximiser).
    """
    behaviour = _as_behaviour(opponent)
    zero = _zero_like([behaviour])
    one = zero + 1
    root_key: tuple[str, int] | None = None
    # Payoff-weighted terminal mass directly after each own sequence.
    leaf_value: dict[tuple[str, int] | None, Real] = {}
    # Own information sets directly after each own sequence, in discovery order.
    children: dict[tuple[str, int] | None, list[str]] = {}
    actions_of: dict[str, int] = {}
    order: list[str] = []
    # (node, responder's last own (infoset, action index), chance x opponent reach)
    stack: list[tuple[Node, tuple[str, int] | None, Real]] = [(game.root, root_key, one)]
    while stack:
        node, own, weight = stack.pop()
        if isinstance(node, Terminal):
            if weight:
                leaf_value[own] = leaf_value.get(own, zero) + weight * node.payoffs[player]
        elif isinstance(node, Chance):
            for probability, child in zip(node.probabilities, node.children, strict=True):
                stack.append((child, own, weight * probability))
        elif node.player == player:
            if node.infoset not in actions_of:
                actions_of[node.infoset] = len(node.actions)
                order.append(node.infoset)
                children.setdefault(own, []).append(node.infoset)
            for index, child in enumerate(node.children):
                stack.append((child, (node.infoset, index), weight))
        else:
            probabilities = _action_probabilities(behaviour, node)
            for probability, child in zip(probabilities, node.children, strict=True):
                stack.append((child, own, weight * probability))

    values: dict[str, Real] = {}
    choice: dict[str, int] = {}

    def after(key: tuple[str, int] | None) -> Real:
        value = leaf_value.get(key, zero)
        for infoset in children.get(key, ()):
            value += values[infoset]
        return value

    # An information set is discovered after the one its parent sequence belongs to, so
    # the reverse discovery order visits children before parents.
    for infoset in reversed(order):
        options = [after((infoset, index)) for index in range(actions_of[infoset])]
        best = max(range(len(options)), key=options.__getitem__)
        values[infoset] = options[best]
        choice[infoset] = best
    return BestResponse(player=player, value=after(root_key), actions=choice)


def certify_by_walk(
    game: Game,
    first: BehaviouralStrategy | Behaviour,
    second: BehaviouralStrategy | Behaviour,
) -> Certificate:
    """Expected value, best-response values and NashConv by walking the node objects.

    Generic in the number type: with ``Fraction`` behaviour the certificate is exact.
    """
    value = expected_value(game, first, second)
    best_first = best_response(game, 0, second).value
    best_second = best_response(game, 1, first).value
    return Certificate.from_best_responses(value, best_first, best_second)


def flat_expected_value(game: Game, x: np.ndarray, y: np.ndarray) -> float:
    """Player 0's expected payoff from realization plans, summed over the tree's terminals.

    ``sum_z chance(z) * x[s0(z)] * y[s1(z)] * u0(z)`` where ``s_i(z)`` is player ``i``'s
    sequence at terminal ``z``.
    """
    flat = game.flat
    s0, s1 = flat.terminal_sequences
    return float(np.sum(flat.terminal_reach * flat.terminal_payoff * x[s0] * y[s1]))


@dataclass(frozen=True)
class FlatBestResponse:
    """A best response found on the compiled tree.

    value : the responder's best expected payoff
    choice : per information set of the responder, the index of a best action
    infoset_values : per information set, its value ``V(h)`` (unnormalised: it includes
        the chance and opponent reach probabilities)
    """

    player: int
    value: float
    choice: np.ndarray
    infoset_values: np.ndarray


def flat_best_response(game: Game, player: int, opponent_plan: np.ndarray) -> FlatBestResponse:
    """Best response of ``player`` to the opponent's realization plan, on flat arrays.

    The backward induction of the module docstring, done for all information sets of one
    depth at once, deepest first.
    """
    flat = game.flat
    table = flat.tables[player]
    own = flat.terminal_sequences[player]
    other = flat.terminal_sequences[1 - player]
    sign = 1.0 if player == 0 else -1.0
    weights = sign * flat.terminal_reach * flat.terminal_payoff * opponent_plan[other]
    leaf = np.bincount(own, weights=weights, minlength=table.num_sequences)
    below = np.zeros(table.num_sequences)
    values = np.full(table.num_infosets, -np.inf)
    choice = np.zeros(table.num_infosets, dtype=np.int64)
    if table.num_infosets:
        depth = infoset_depths(table)
        sequence_infoset = table.sequence_infoset
        sequence_depth = np.full(table.num_sequences, -1, dtype=np.int64)
        sequence_depth[1:] = depth[sequence_infoset[1:]]
        order = np.argsort(sequence_depth, kind="stable")
        bounds = np.searchsorted(sequence_depth[order], np.arange(depth.max() + 2))
        infoset_order = np.argsort(depth, kind="stable")
        infoset_bounds = np.searchsorted(depth[infoset_order], np.arange(depth.max() + 2))
        for level in range(int(depth.max()), -1, -1):
            sequences = order[bounds[level] : bounds[level + 1]]
            infosets = infoset_order[infoset_bounds[level] : infoset_bounds[level + 1]]
            totals = leaf[sequences] + below[sequences]
            np.maximum.at(values, sequence_infoset[sequences], totals)
            best = totals >= values[sequence_infoset[sequences]]
            # The first best action of each information set (sequences are in order).
            chosen = np.full(table.num_infosets, np.iinfo(np.int64).max)
            np.minimum.at(chosen, sequence_infoset[sequences[best]], sequences[best])
            choice[infosets] = chosen[infosets] - table.first_sequence[infosets]
            np.add.at(below, table.parent_sequence[infosets], values[infosets])
    return FlatBestResponse(
        player=player,
        value=float(leaf[0] + below[0]),
        choice=choice,
        infoset_values=values,
    )


def certify(
    game: Game,
    first: BehaviouralStrategy | Behaviour,
    second: BehaviouralStrategy | Behaviour,
) -> Certificate:
    """Expected value, both best-response values and NashConv of a strategy profile.

    Float :class:`~seqform.forms.strategies.BehaviouralStrategy` pairs are measured on the flat
    arrays of the tree; mappings (e.g. of ``Fraction`` probabilities) by the exact walk.
    """
    if not (isinstance(first, BehaviouralStrategy) and isinstance(second, BehaviouralStrategy)):
        return certify_by_walk(game, first, second)
    x, y = plan_from_behaviour(first), plan_from_behaviour(second)
    value = flat_expected_value(game, x, y)
    best_first = flat_best_response(game, 0, y).value
    best_second = flat_best_response(game, 1, x).value
    return Certificate.from_best_responses(value, best_first, best_second)
