"""The agent logit QRE equations on the flat tree, with their sparse Jacobian.

An agent logit quantal response equilibrium (McKelvey and Palfrey 1998, §3) at precision
``λ >= 0`` is a behaviour profile ``σ`` with full support such that at every information set
``h`` of every player ``i``

    σ(a | h) = exp(λ U(h, a)) / sum_b exp(λ U(h, b)),

where ``U(h, a)`` is player ``i``'s expected payoff of playing ``a`` at ``h`` and ``σ``
afterwards, conditional on reaching ``h`` (beliefs by Bayes' rule from ``σ`` and chance;
they are defined because ``σ`` has full support).  This is Gambit's behaviour logit
(Turocy 2005, 2010).  Any number of players and any payoffs are allowed.

Unknowns and equations
----------------------
The unknowns are the log-probabilities ``β(h, a) = log σ(a | h)`` of every action of every
player (``N`` of them, the sequences other than the empty ones) and ``λ``.  Per information
set ``h`` with first action ``a0`` there are (Turocy 2005, eq. 4, in logs)

    log sum_a exp β(h, a) = 0                                    (normalisation)
    β(h, a) - β(h, a0) - λ (U(h, a) - U(h, a0)) = 0     a != a0   (logit ratios)

so ``N`` equations ``H(β, λ) = 0``, whose solutions from ``(log uniform, 0)`` form the
principal branch.

Conditional values from terminals
---------------------------------
With ``ℓ(z) = log c(z) + sum_j sum_{b on j's path to z} β_b`` the log-probability of terminal
``z`` (``c`` the chance probability), every pair ``p = (z, (h, a))`` of a terminal and an own
action of its player ``i`` on the path to ``z`` gets the weight

    ω_p = exp(ℓ(z) - β(h, a) - LSE_h),      LSE_h = log sum_{z' below h} exp ℓ(z'),

the probability of ``z`` given ``h`` and ``a``, and ``U(h, a) = sum_{p at (h, a)} ω_p u_i(z)``.
All of it is computed in logs, so deep paths whose probabilities underflow as ``λ`` grows
still give well-scaled values.  (Off the normalisation manifold this is a smooth extension
of the conditional value; on it, exactly the value.)

Jacobian
--------
With ``R`` the 0/1 matrix (pairs × actions) marking the actions on the path to each pair's
terminal, ``q_p = exp(ℓ(z) - LSE_h)`` and ``[h]`` the map from actions to their information
set,

    dU(h, a)/dβ_b = sum_{p at (h, a)} ω_p u_p R[p, b] - U(h, a) [a = b]
                    - U(h, a) sum_{p at h} q_p R[p, b],

that is ``JU = (A - diag(U) [h] B) R - diag(U)`` with ``A`` (actions × pairs, ``ω_p u_p``)
and ``B`` (information sets × pairs, ``q_p``): two sparse products per evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from seqform.game.errors import InvalidGameError
from seqform.game.model import Game

__all__ = [
    "LogitEquations",
    "LogitPoint",
    "agent_regret",
    "evaluate",
    "logit_equations",
]


@dataclass(frozen=True, eq=False)
class LogitEquations:
    """The structure of ``H(β, λ) = 0`` for one game (see the module docstring).

    game : the game
    offsets : per player, the position of its first action among the ``N`` unknowns
        (player ``i``'s sequence ``s >= 1`` is unknown ``offsets[i] + s - 1``)
    action_infoset : per unknown, its information set (global numbering, player by player)
    first_action : per information set, the unknown of its first action
    infoset_starts : per information set, its first unknown (actions are contiguous)
    other_actions : the unknowns that are not first actions, in order (one logit row each)
    pair_terminal, pair_action, pair_infoset : per pair ``(z, (h, a))``, sorted by infoset
    pair_starts : per information set, its first pair
    pair_payoff : per pair, ``u_i(z)`` of the player who acts at its information set
    path : ``R``, CSR, shape (pairs, N): the actions on the path to each pair's terminal
    terminal_path : CSR, shape (terminals kept, N): the same per terminal
    log_chance : per terminal kept, ``log c(z)``
    payoff_range : the largest of the players' payoff ranges (a player's largest payoff
        over the terminals less its smallest), the scale of the tolerances: player 1's
        range in a two-player zero-sum game, as every certificate of seqform reads it (a
        range over both players' payoffs together was 2004 for Kuhn poker shifted by
        +1000 to player 1, 500 times its range of 4)
    """

    game: Game
    offsets: np.ndarray
    action_infoset: np.ndarray
    first_action: np.ndarray
    infoset_starts: np.ndarray
    other_actions: np.ndarray
    pair_terminal: np.ndarray
    pair_action: np.ndarray
    pair_infoset: np.ndarray
    pair_starts: np.ndarray
    pair_payoff: np.ndarray
    path: sp.csr_array
    terminal_path: sp.csr_array
    log_chance: np.ndarray
    payoff_range: float

    @property
    def size(self) -> int:
        """``N``, the number of unknowns other than ``λ``."""
        return len(self.action_infoset)

    @property
    def num_infosets(self) -> int:
        return len(self.first_action)

    def uniform(self) -> np.ndarray:
        """``β`` of the uniform profile, the branch's start at ``λ = 0``."""
        counts = np.diff(np.append(self.infoset_starts, self.size))
        return -np.log(counts[self.action_infoset].astype(float))


@dataclass(frozen=True)
class LogitPoint:
    """``H`` and its Jacobian at one ``(β, λ)``.

    residual : ``H(β, λ)``, shape (N,): normalisation rows first, then the logit rows
    jacobian : ``dH/dβ``, CSC, shape (N, N)
    lambda_column : ``dH/dλ``, shape (N,)
    values : ``U(h, a)`` per unknown
    """

    residual: np.ndarray
    jacobian: sp.csc_array | None
    lambda_column: np.ndarray
    values: np.ndarray


def logit_equations(game: Game) -> LogitEquations:
    """Number the unknowns and the pairs of the module docstring for ``game``.

    Length: one numbering read top to bottom; its steps share a dozen arrays.

    Raises
    ------
    InvalidGameError
        If some information set is reached only with chance probability 0 (its
        conditional values, and so the logit response there, are undefined).
    """
    flat = game.flat
    tables = flat.tables
    counts = [table.num_sequences - 1 for table in tables]
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    infoset_offsets = np.concatenate(
        [[0], np.cumsum([t.num_infosets for t in tables])[:-1]]
    ).astype(np.int64)
    action_infoset = np.concatenate(
        [t.sequence_infoset[1:] + infoset_offsets[i] for i, t in enumerate(tables)]
    ).astype(np.int64)
    first_action = np.concatenate(
        [t.first_sequence - 1 + offsets[i] for i, t in enumerate(tables)]
    ).astype(np.int64)
    size = int(sum(counts))
    is_first = np.zeros(size, dtype=bool)
    is_first[first_action] = True

    kept = np.flatnonzero(flat.terminal_reach > 0.0)
    terminals, actions, infosets, payoffs = _own_path_pairs(game, kept, offsets, infoset_offsets)
    pair_terminal = np.concatenate(terminals)
    pair_action = np.concatenate(actions).astype(np.int64)
    pair_infoset = np.concatenate(infosets).astype(np.int64)
    order = np.argsort(pair_infoset, kind="stable")
    pair_terminal, pair_action, pair_infoset = (
        pair_terminal[order],
        pair_action[order],
        pair_infoset[order],
    )
    pair_payoff = np.concatenate(payoffs)[order]
    num_infosets = len(first_action)
    reached = np.bincount(pair_infoset, minlength=num_infosets) > 0
    if not reached.all():
        missing = int(np.flatnonzero(~reached)[0])
        player = int(np.searchsorted(infoset_offsets, missing, side="right") - 1)
        name = tables[player].infosets[missing - infoset_offsets[player]]
        raise InvalidGameError(
            f"information set {name!r} of player {player + 1} is reached only with chance "
            "probability 0: its logit response is undefined"
        )
    terminal_path = sp.csr_array(
        (np.ones(len(pair_terminal)), (pair_terminal, pair_action)), shape=(len(kept), size)
    )
    payoff_values = flat.terminal_payoffs[:, kept]
    return LogitEquations(
        game=game,
        offsets=offsets,
        action_infoset=action_infoset,
        first_action=first_action,
        infoset_starts=first_action.copy(),
        other_actions=np.flatnonzero(~is_first),
        pair_terminal=pair_terminal,
        pair_action=pair_action,
        pair_infoset=pair_infoset,
        pair_starts=np.searchsorted(pair_infoset, np.arange(num_infosets)),
        pair_payoff=pair_payoff,
        path=sp.csr_array(terminal_path[pair_terminal]),
        terminal_path=terminal_path,
        log_chance=np.log(flat.terminal_reach[kept]),
        payoff_range=float(np.ptp(payoff_values, axis=1).max()) if kept.size else 0.0,
    )


def _own_path_pairs(
    game: Game, kept: np.ndarray, offsets: np.ndarray, infoset_offsets: np.ndarray
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """Every pair ``(z, (h, a))`` of a kept terminal and an own action on its path, walked
    up each player's sequences one level at a time: terminals (positions in ``kept``),
    actions and information sets (global), and the acting player's payoff at ``z``."""
    flat = game.flat
    terminals: list[np.ndarray] = []
    actions: list[np.ndarray] = []
    infosets: list[np.ndarray] = []
    payoffs: list[np.ndarray] = []
    for player, table in enumerate(flat.tables):
        parent_of_sequence = np.zeros(table.num_sequences, dtype=np.int64)
        parent_of_sequence[1:] = table.parent_sequence[table.sequence_infoset[1:]]
        current = flat.terminal_sequences[player][kept]
        rows = np.arange(len(kept))
        while len(rows):
            live = current > 0
            rows, current = rows[live], current[live]
            terminals.append(rows)
            actions.append(current - 1 + offsets[player])
            infosets.append(table.sequence_infoset[current] + infoset_offsets[player])
            payoffs.append(flat.terminal_payoffs[player][kept[rows]])
            current = parent_of_sequence[current]
    return terminals, actions, infosets, payoffs


def _segment_logsumexp(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """``log sum exp`` of each contiguous segment of ``values`` beginning at ``starts``."""
    peak = np.maximum.reduceat(values, starts)
    lengths = np.diff(np.append(starts, len(values)))
    shifted = np.exp(values - np.repeat(peak, lengths))
    return peak + np.log(np.add.reduceat(shifted, starts))


def evaluate(
    equations: LogitEquations, beta: np.ndarray, lam: float, *, jacobian: bool = True
) -> LogitPoint:
    """``H(β, λ)``, the values ``U`` and (if asked) ``dH/dβ``, by the module docstring."""
    eq = equations
    log_terminal = eq.log_chance + eq.terminal_path @ beta
    log_pair = log_terminal[eq.pair_terminal]
    lse = _segment_logsumexp(log_pair, eq.pair_starts)
    conditional = log_pair - lse[eq.pair_infoset]  # log q_p
    weights = np.exp(conditional - beta[eq.pair_action])  # ω_p
    values = np.bincount(eq.pair_action, weights=weights * eq.pair_payoff, minlength=eq.size)

    set_lse = _segment_logsumexp(beta, eq.infoset_starts)
    first = eq.first_action[eq.action_infoset[eq.other_actions]]
    others = eq.other_actions
    residual = np.concatenate(
        [set_lse, beta[others] - beta[first] - lam * (values[others] - values[first])]
    )
    lambda_column = np.concatenate([np.zeros(eq.num_infosets), values[first] - values[others]])
    if not jacobian:
        return LogitPoint(residual, None, lambda_column, values)

    pairs = len(eq.pair_action)
    pair_index = np.arange(pairs)
    # C = A - diag(U) [h] B: for each pair p at h, every action a' of h gets -U(a') q_p.
    counts = np.diff(np.append(eq.infoset_starts, eq.size))
    per_pair = counts[eq.pair_infoset]
    spread_rows = np.repeat(eq.infoset_starts[eq.pair_infoset], per_pair) + (
        np.arange(per_pair.sum()) - np.repeat(np.cumsum(per_pair) - per_pair, per_pair)
    )
    spread_cols = np.repeat(pair_index, per_pair)
    spread_vals = -values[spread_rows] * np.repeat(np.exp(conditional), per_pair)
    combined = sp.csr_array(
        (
            np.concatenate([weights * eq.pair_payoff, spread_vals]),
            (
                np.concatenate([eq.pair_action, spread_rows]),
                np.concatenate([pair_index, spread_cols]),
            ),
        ),
        shape=(eq.size, pairs),
    )
    value_jacobian = sp.csr_array(combined @ eq.path) - sp.diags_array(values)
    softmax = np.exp(beta - set_lse[eq.action_infoset])
    normalisation = sp.csr_array(
        (softmax, (eq.action_infoset, np.arange(eq.size))), shape=(eq.num_infosets, eq.size)
    )
    difference = sp.csr_array(
        (
            np.concatenate([np.ones(len(others)), -np.ones(len(others))]),
            (np.tile(np.arange(len(others)), 2), np.concatenate([others, first])),
        ),
        shape=(len(others), eq.size),
    )
    logit_rows = difference - lam * sp.csr_array(difference @ value_jacobian)
    full = sp.vstack([normalisation, logit_rows], format="csc")
    return LogitPoint(residual, sp.csc_array(full), lambda_column, values)


def agent_regret(equations: LogitEquations, beta: np.ndarray, lam: float) -> float:
    """The largest *agent* regret of the profile ``exp β``: over every information set ``h``,
    ``max_a U(h, a) - sum_a σ(a | h) U(h, a)``, the gain of the best single action at ``h``
    given ``h`` is reached (the conditional values of the module docstring).

    Unlike NashConv it does not weight ``h`` by its probability, so it also measures play
    where a player's own earlier actions (almost) never lead; it is the stop rule of
    Gambit's ``logit_solve`` (``maxregret``), under which the branch's limit approaches a
    sequential equilibrium (Turocy 2010).
    """
    values = evaluate(equations, beta, lam, jacobian=False).values
    starts = equations.infoset_starts
    probabilities = np.exp(beta - _segment_logsumexp(beta, starts)[equations.action_infoset])
    expected = np.add.reduceat(probabilities * values, starts)
    return float(np.max(np.maximum.reduceat(values, starts) - expected, initial=0.0))
