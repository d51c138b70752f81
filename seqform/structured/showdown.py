"""One-card showdown poker without the tree: the products ``A y`` and ``A.T x``, behavioural
strategies and the best-response certificate.

The game itself — the public betting tree, its numbering and :class:`ShowdownPoker` — is
described in the game room (:mod:`seqform.game.builtin.showdown_poker`, whose *Numbering*
this module follows); Kuhn poker is its three-card member
(:func:`seqform.game.builtin.kuhn.kuhn_showdown`).

Why a family of its own
-----------------------
The game tree has ``N (N-1) |Z|`` leaves (``Z`` the betting tree's leaves), so the payoff
matrix ``A`` of the sequence form (KMvS 1996) has that many non-zeros, while each player
has only ``1 + N (S_p - 1)`` sequences (``S_p`` the player's betting sequences).  At
``N = 250 000`` Kuhn that is 10^6 sequences per player against 3 10^11 leaves.  But the
payoff of a leaf depends on the cards only through ``sign(i - j)`` (showdown) or not at
all (fold), so with ``T = sum_i v_i`` and the prefix sum ``P_j = sum_{i<j} v_i``

    sum_{i != j} v_i                 = T - v_j                          (fold)
    sum_{i != j} sign(i - j) v_i     = T - 2 P_j - v_j                  (showdown)

and the products ``A y`` and ``A.T x`` cost ``O(N)`` per betting leaf instead of
``O(N^2)``: the sorted-hand evaluation of Johanson, Waugh, Bowling and Zinkevich,
"Accelerating best response calculation in large extensive games" (IJCAI 2011, §4.2).
:mod:`seqform.structured.sparsified` uses the same identities to write the LP with ``O(N)``
non-zeros (Zhang and Sandholm, "Sparsified linear programming for zero-sum equilibrium finding",
ICML 2020).  This module never builds the tree
(:func:`~seqform.game.builtin.showdown_poker.showdown_game` does, for small ``N`` and for
cross-checks).

A plan is one vector on the game's sequence indices; :func:`card_matrix` views it as an
``(N, S_p)`` array whose column 0 repeats ``plan[0]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from seqform.certify import Certificate
from seqform.game.builtin.showdown_poker import ShowdownPoker

__all__ = [
    "ShowdownBehaviour",
    "behaviour_from_plan",
    "best_response_value",
    "card_matrix",
    "certify",
    "payoff_to_first",
    "payoff_to_second",
    "plan_from_behaviour",
]


def card_matrix(poker: ShowdownPoker, player: int, vector: np.ndarray) -> np.ndarray:
    """View a vector on the player's game sequences as an ``(N, S_p)`` array.

    Column 0 repeats ``vector[0]`` (the empty sequence belongs to every card); column
    ``s >= 1`` holds the entries of the betting sequence ``s`` for each card.
    """
    width = poker.betting_table.num_sequences(player)
    matrix = np.empty((poker.cards, width), dtype=float)
    matrix[:, 0] = vector[0]
    matrix[:, 1:] = np.asarray(vector[1:], dtype=float).reshape(poker.cards, width - 1)
    return matrix


def _fold_sums(values: np.ndarray) -> np.ndarray:
    """``sum_{i != j} values_i`` for every ``j``."""
    return values.sum() - values


def _showdown_sums(values: np.ndarray) -> np.ndarray:
    """``sum_{i != j} sign(i - j) values_i = T - 2 P_j - values_j`` for every ``j``."""
    prefix = np.cumsum(values) - values  # P_j = sum_{i<j}
    return values.sum() - 2.0 * prefix - values


def _product(poker: ShowdownPoker, player: int, plan: np.ndarray) -> np.ndarray:
    """``A.T x`` (player = 1, plan = x) or ``A y`` (player = 0, plan = y), to player 0."""
    table = poker.betting_table
    n = poker.cards
    other = 1 - player
    given = card_matrix(poker, other, plan)
    result = np.zeros((n, table.num_sequences(player)))
    for leaf, (sequences, showdown) in enumerate(
        zip(table.leaf_sequences, table.leaf_showdown, strict=True)
    ):
        values = given[:, sequences[other]]
        payoff = float(table.leaf_payoff[leaf])
        if showdown:
            # A y sums over the opponent's card j: sign(i - j) is minus the sign seen from j.
            sums = _showdown_sums(values) if player == 1 else -_showdown_sums(values)
        else:
            sums = _fold_sums(values)
        result[:, sequences[player]] += payoff * sums
    result /= n * (n - 1)
    vector = np.empty(poker.num_sequences(player))
    vector[0] = result[:, 0].sum()
    vector[1:] = result[:, 1:].ravel()
    return vector


def payoff_to_second(poker: ShowdownPoker, x: np.ndarray) -> np.ndarray:
    """``A.T @ x``: player 0's expected payoff per sequence of player 1, in ``O(N |Z|)``.

    ``(A.T x)[(j, t)] = 1/(N(N-1)) sum_{leaves z with t} sum_{i != j} u_z(i, j) x[(i, s_z)]``
    evaluated by the fold and showdown identities of the module docstring.
    """
    return _product(poker, 1, np.asarray(x, dtype=float))


def payoff_to_first(poker: ShowdownPoker, y: np.ndarray) -> np.ndarray:
    """``A @ y``: player 0's expected payoff per sequence of player 0, in ``O(N |Z|)``."""
    return _product(poker, 0, np.asarray(y, dtype=float))


def best_response_value(poker: ShowdownPoker, player: int, payoff: np.ndarray) -> float:
    """The most ``player`` can get when its sequences pay ``payoff`` (to that player).

    Backward induction over the player's betting nodes, all cards at once: the value of a
    node is the best over its actions of the action's payoff plus the values of the
    player's next nodes below it (KMvS 1996, the inner LP solved on the treeplex).
    """
    table = poker.betting_table
    values = card_matrix(poker, player, payoff)
    total = float(payoff[0])
    values[:, 0] = 0.0
    for node in reversed(range(table.num_nodes(player))):
        best = values[:, table.node_sequences[player][node]].max(axis=1)
        parent = table.node_parent[player][node]
        if parent == 0:
            total += float(best.sum())
        else:
            values[:, parent] += best
    return total


@dataclass(frozen=True)
class ShowdownBehaviour:
    """Action probabilities of one player at every (card, betting node).

    probabilities : shape (N, S_p); ``[c, s]`` is the probability of the action of
        betting sequence ``s`` at its node, holding card ``c``; column 0 is 1
    unreached : shape (N, K_p); True where the player's own plan does not reach the node
        (there the behaviour is uniform, the rule of :mod:`seqform.forms.strategies`)
    """

    player: int
    probabilities: np.ndarray
    unreached: np.ndarray


def behaviour_from_plan(
    poker: ShowdownPoker, player: int, plan: np.ndarray, tol: float = 1e-12
) -> ShowdownBehaviour:
    """``b(a | c, h) = x[c, h a] / x[c, parent(h)]``, uniform where the plan does not reach.

    Negative entries (a float solver's round-off) count as 0.
    """
    table = poker.betting_table
    matrix = np.clip(card_matrix(poker, player, plan), 0.0, None)
    probabilities = np.ones_like(matrix)
    unreached = np.zeros((poker.cards, table.num_nodes(player)), dtype=bool)
    for node in range(table.num_nodes(player)):
        children = table.node_sequences[player][node]
        mass = matrix[:, children].sum(axis=1)
        reach = matrix[:, table.node_parent[player][node]]
        unreached[:, node] = reach <= tol
        uniform = mass <= tol
        with np.errstate(divide="ignore", invalid="ignore"):
            shares = matrix[:, children] / mass[:, None]
        shares[uniform] = 1.0 / len(children)
        probabilities[:, children] = shares
    return ShowdownBehaviour(player=player, probabilities=probabilities, unreached=unreached)


def plan_from_behaviour(poker: ShowdownPoker, behaviour: ShowdownBehaviour) -> np.ndarray:
    """The realization plan of a behavioural strategy: products along each sequence."""
    table = poker.betting_table
    player = behaviour.player
    matrix = np.ones_like(behaviour.probabilities)
    for node in range(table.num_nodes(player)):  # preorder: parents first
        children = table.node_sequences[player][node]
        parent = table.node_parent[player][node]
        matrix[:, children] = matrix[:, parent][:, None] * behaviour.probabilities[:, children]
    plan = np.empty(poker.num_sequences(player))
    plan[0] = 1.0
    plan[1:] = matrix[:, 1:].ravel()
    return plan


def certify(
    poker: ShowdownPoker, first: ShowdownBehaviour, second: ShowdownBehaviour
) -> Certificate:
    """Expected value, both best responses and NashConv of a profile, without the tree.

    The plans are rebuilt from the behaviour (so they are exactly consistent), player 0's
    payoff per sequence is ``A y`` and player 1's is ``-A.T x``; each best response is the
    backward induction of :func:`best_response_value`.  Nothing here reads the LP.
    """
    x = plan_from_behaviour(poker, first)
    y = plan_from_behaviour(poker, second)
    to_first = payoff_to_first(poker, y)
    value = float(x @ to_first)
    best_first = best_response_value(poker, 0, to_first)
    best_second = best_response_value(poker, 1, -payoff_to_second(poker, x))
    return Certificate.from_best_responses(value, best_first, best_second)
