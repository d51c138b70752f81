"""One-card showdown poker without the tree: the players' sequence tables, the products
``A y`` and ``A.T x``, best responses and the certificate.

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

One strategy type, one best response
------------------------------------
:func:`sequence_tables` gives each player the
:class:`~seqform.game.sequences.PlayerSequences` table the compiled tree would give,
built with numpy from the betting tree: information set ``c K_p + k`` is (card ``c``,
betting node ``k``), named ``"<card><history>"`` as
:func:`~seqform.game.builtin.showdown_poker.showdown_game` names it (Kuhn's ``"Qpb"``), and
its sequences are the game's (card-major, the *Numbering* of the game room), so the
sequence labels of both routes agree (``"Qpb:b"``).  Strategies are therefore the one
:class:`~seqform.forms.strategies.BehaviouralStrategy` on these tables, the plan ⇄
behaviour map is :mod:`seqform.forms.strategies`', and a best response is
:func:`seqform.certify.respond` given the leaf payoffs ``A y`` or ``−A.T x`` computed here
by the running sums (:func:`leaf_payoffs`).

A plan is one vector on the game's sequence indices; :func:`card_matrix` views it (or a
strategy's probabilities) as an ``(N, S_p)`` array whose column 0 repeats ``plan[0]``, and
:func:`node_matrix` views a per-information-set vector as ``(N, K_p)``.
"""

from __future__ import annotations

import weakref

import numpy as np

from seqform.certify import BestResponse, Certificate, respond
from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.builtin.showdown_poker import ShowdownPoker
from seqform.game.sequences import PlayerSequences

__all__ = [
    "best_response",
    "card_matrix",
    "certify",
    "leaf_payoffs",
    "node_matrix",
    "payoff_to_first",
    "payoff_to_second",
    "sequence_table",
    "sequence_tables",
]

_TABLES: weakref.WeakKeyDictionary[ShowdownPoker, tuple[PlayerSequences, PlayerSequences]] = (
    weakref.WeakKeyDictionary()
)


def sequence_tables(poker: ShowdownPoker) -> tuple[PlayerSequences, PlayerSequences]:
    """Both players' sequence tables (module docstring), built once per game."""
    tables = _TABLES.get(poker)
    if tables is None:
        names = [poker.card_name(card) for card in range(poker.cards)]
        tables = (_build_table(poker, 0, names), _build_table(poker, 1, names))
        _TABLES[poker] = tables
    return tables


def sequence_table(poker: ShowdownPoker, player: int) -> PlayerSequences:
    """The sequence table of ``player``: ``N K_p`` information sets, ``1 + N (S_p - 1)``
    sequences, in the game's numbering."""
    return sequence_tables(poker)[player]


def _build_table(poker: ShowdownPoker, player: int, names: list[str]) -> PlayerSequences:
    """Repeat the betting tree's numbering once per card (named ``names``), card-major.

    With ``W = S_p - 1`` and ``K = K_p``: the game sequence (card ``c``, betting sequence
    ``s >= 1``) is ``c W + s`` and the information set (``c``, node ``k``) is ``c K + k``.
    """
    betting = poker.betting_table
    width, nodes = betting.num_sequences(player) - 1, betting.num_nodes(player)
    node_sequences = betting.node_sequences[player]
    node_actions = betting.node_actions[player]
    node_of_sequence = np.zeros(width + 1, dtype=np.int64)
    action_of_sequence = [""] * (width + 1)
    for node, (sequences, actions) in enumerate(zip(node_sequences, node_actions, strict=True)):
        node_of_sequence[sequences] = node
        for sequence, action in zip(sequences.tolist(), actions, strict=True):
            action_of_sequence[sequence] = action
    base = (np.arange(poker.cards, dtype=np.int64) * width)[:, None]  # c W, per card
    firsts = np.array([int(s[0]) for s in node_sequences], dtype=np.int64)
    parents = betting.node_parent[player]
    sequence_infoset = np.empty(1 + poker.cards * width, dtype=np.int64)
    sequence_infoset[0] = -1
    card_infosets = (np.arange(poker.cards, dtype=np.int64) * nodes)[:, None]
    sequence_infoset[1:] = (card_infosets + node_of_sequence[1:]).ravel()
    histories = betting.nodes[player]
    return PlayerSequences(
        player=player,
        infosets=tuple([name + history for name in names for history in histories]),
        actions=tuple(node_actions) * poker.cards,
        parent_sequence=np.where(parents == 0, 0, base + parents).ravel(),
        first_sequence=(base + firsts).ravel(),
        sequence_infoset=sequence_infoset,
        sequence_action=("", *action_of_sequence[1:] * poker.cards),
    )


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


def node_matrix(poker: ShowdownPoker, player: int, vector: np.ndarray) -> np.ndarray:
    """View a vector on the player's information sets (e.g. a strategy's ``unreached``) as
    an ``(N, K_p)`` array: ``[c, k]`` is (card ``c``, betting node ``k``)."""
    return np.asarray(vector).reshape(poker.cards, poker.betting_table.num_nodes(player))


def leaf_payoffs(poker: ShowdownPoker, player: int, opponent_plan: np.ndarray) -> np.ndarray:
    """The responder's payoff per own sequence against the opponent's plan, as
    :func:`seqform.certify.leaf_payoffs` gives it on the tree: ``A y`` for player 0,
    ``−A.T x`` for player 1 (floats)."""
    if player == 0:
        return payoff_to_first(poker, opponent_plan)
    return -payoff_to_second(poker, opponent_plan)


def _checked(poker: ShowdownPoker, strategy: BehaviouralStrategy) -> BehaviouralStrategy:
    expected = poker.num_sequences(strategy.player)
    if strategy.table.num_sequences != expected:
        raise ValueError(
            f"{poker.name}: a strategy of player {strategy.player + 1} has "
            f"{strategy.table.num_sequences:,} sequences, the game {expected:,}"
        )
    return strategy.to_float()


def best_response(poker: ShowdownPoker, player: int, opponent: BehaviouralStrategy) -> BestResponse:
    """A best response of ``player`` to the opponent's strategy, without the tree.

    The opponent's plan (:func:`~seqform.forms.strategies.plan_from_behaviour`) gives the
    leaf payoffs by the running sums (:func:`leaf_payoffs`); the backward induction over the
    responder's information sets is :func:`seqform.certify.respond`, the one used on trees
    (KMvS 1996, the inner LP solved on the treeplex).
    """
    plan = plan_from_behaviour(_checked(poker, opponent))
    return respond(sequence_table(poker, player), leaf_payoffs(poker, player, plan))


def certify(
    poker: ShowdownPoker, first: BehaviouralStrategy, second: BehaviouralStrategy
) -> Certificate:
    """Expected value, both best responses and NashConv of a profile, without the tree.

    The plans are rebuilt from the behaviour (so they are exactly consistent), player 0's
    payoff per sequence is ``A y`` and player 1's is ``−A.T x``; each best response is
    :func:`seqform.certify.respond` on them.  Nothing here reads the LP.  Floats (exact
    strategies are measured in floating point).
    """
    x = plan_from_behaviour(_checked(poker, first))
    y = plan_from_behaviour(_checked(poker, second))
    to_first = leaf_payoffs(poker, 0, y)
    value = float(x @ to_first)
    best_first = respond(sequence_table(poker, 0), to_first).value
    best_second = respond(sequence_table(poker, 1), leaf_payoffs(poker, 1, x)).value
    return Certificate.from_best_responses(value, float(best_first), float(best_second))
