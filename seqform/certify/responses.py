"""Expected values, best responses and the certificates they give, on the compiled tree's arrays.

This module is the certificate: it never looks at the LP, the sequence-form matrices or
the solver's duals.  It uses the behavioural strategies and the tree's own terminal data
(:mod:`seqform.game.compiled`): each terminal's chance probability, payoff and the
sequences of both players there.  Every function works in floats (numpy, vectorised) or,
for exact strategies (:class:`~seqform.forms.strategies.BehaviouralStrategy` with
Fractions), in exact arithmetic on object arrays with the tree's exact probabilities.

* :func:`expected_value` — player 0's expected payoff when both players follow behavioural
  strategies with plans ``x`` and ``y``:
  ``sum_z chance(z) · x[s0(z)] · y[s1(z)] · u0(z)``.
* :func:`best_response` — the best a player can get against a fixed opponent.  Under
  perfect recall a best response is computed information set by information set, bottom
  up (the "backward induction" on the player's own information-set tree).  With
  ``leaf[s]`` the responder's payoff summed over the terminals whose own sequence is
  ``s``, weighted by chance and the opponent's plan (:func:`leaf_payoffs`, the vector
  ``A y`` for player 0 or ``−Aᵀ x`` for player 1),

      V(h) = max_a [ leaf[(h, a)] + sum_{h' after (h, a)} V(h') ],

  and the best-response value is ``leaf[∅] + sum_{h' first} V(h')``
  (:func:`respond`, for all information sets of one depth at once, deepest first).
  A *restricted* responder (:mod:`seqform.routes.restrict`) must keep
  ``lo_a <= b(a | h) <= hi_a`` at some information sets; there the ``max`` becomes the
  best distribution within the bounds, a fractional knapsack (:func:`bounded_choice`).
* :func:`certify` — both best-response values and NashConv
  ``(BR_0(y) - v) + (BR_1(x) + v) = BR_0(y) + BR_1(x)``, the sum of both players' gains from
  deviating; it is 0 exactly at an equilibrium.  The *exploitability* is NashConv / 2, the
  mean gain (OpenSpiel's ``nash_conv`` and ``exploitability``; the poker solvers' figure,
  there as a share of the pot).  A gain is never negative: round-off that makes one a
  little below 0 is reported as 0.

The certificate's types and its verdict are in :mod:`seqform.certify.verdict`.

Strategies may also be given as mappings ``{infoset: {action: p}}`` or
``{infoset: [p, ...]}`` (:func:`~seqform.forms.strategies.behaviour_from_mapping`).  The
tests check all of this against an independent walk of the node objects.

More than two players, or general-sum (floats)
----------------------------------------------
:func:`certify` is the two-player zero-sum certificate and refuses other games
(:func:`~seqform.game.requirements.require_two_player_zero_sum`).
:func:`certify_profile` measures a profile of any number of players: player ``i``'s leaf
payoffs are ``leaf_i[s] = sum_{z: s_i(z) = s} chance(z) · prod_{j != i} x_j[s_j(z)] · u_i(z)``
(:func:`profile_leaf_payoffs`), its best response is the same :func:`respond`, its value
``v_i = sum_s x_i[s] leaf_i[s]``, its gain ``BR_i - v_i``, and NashConv the sum of the
gains (0 exactly at a Nash equilibrium; for two players zero-sum it equals
:func:`certify`'s ``nash_conv``).  Exploitability, a two-player zero-sum notion, is not
defined there.

Size: the two-player certificate and the n-player one (:func:`certify_profile`) are one
walk over the same terminal arrays, plans and backward induction; split, each would
import the other's private helpers.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.base.arguments import require_player
from seqform.certify.verdict import (
    Certificate,
    NPlayerCertificate,
    Number,
    clamped_gain,
    payoff_range,
    require_finite,
)
from seqform.forms.provenance import require_strategy_of
from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_from_mapping,
    infoset_depths,
    plan_from_behaviour,
)
from seqform.game.compiled import FlatTree
from seqform.game.model import Game
from seqform.game.requirements import require_two_player_zero_sum
from seqform.game.sequences import PlayerSequences

__all__ = [
    "BestResponse",
    "LocalBounds",
    "best_response",
    "bounded_choice",
    "certify",
    "certify_profile",
    "expected_value",
    "leaf_payoffs",
    "profile_leaf_payoffs",
    "respond",
]


LocalBounds = tuple[tuple[Fraction, Fraction], ...]
"""Per action of one information set, the bounds ``(lo, hi)`` on its probability."""

StrategyLike = BehaviouralStrategy | Mapping[str, Any]


@dataclass(frozen=True)
class BestResponse:
    """A best response and its value to the responding player.

    value : the responder's expected payoff when best responding
    strategy : the response (pure, except where bounds force a mixture)
    choice : per information set of the responder, the index of a best action (the first)
    infoset_values : per information set, ``V(h)`` (unnormalised: it includes the chance
        and opponent reach probabilities)
    """

    player: int
    value: Number
    strategy: BehaviouralStrategy
    choice: np.ndarray
    infoset_values: np.ndarray

    @property
    def actions(self) -> dict[str, int]:
        """Information-set name -> index of the chosen action."""
        return {
            name: int(self.choice[index]) for index, name in enumerate(self.strategy.table.infosets)
        }


def _strategy(
    game: Game, player: int, strategy: StrategyLike, argument: str
) -> BehaviouralStrategy:
    """``strategy`` as player ``player``'s behavioural strategy in ``game``; one made for
    another game or the other player is refused (:mod:`seqform.forms.provenance`)."""
    if isinstance(strategy, Mapping):
        return behaviour_from_mapping(game.flat.tables[player], strategy)
    return require_strategy_of(game, strategy, argument, player)


def _profile(
    game: Game, first: StrategyLike, second: StrategyLike
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """Both strategies as one number kind: exact if both are exact, else float."""
    pair = (_strategy(game, 0, first, "first"), _strategy(game, 1, second, "second"))
    if pair[0].exact and pair[1].exact:
        return pair
    return pair[0].to_float(), pair[1].to_float()


_EXACT_WEIGHTS: weakref.WeakKeyDictionary[FlatTree, np.ndarray] = weakref.WeakKeyDictionary()


def _terminal_weights(flat: FlatTree, exact: bool) -> np.ndarray:
    """Chance probability × player 0's payoff at each terminal (the exact ones computed
    once per tree)."""
    if not exact:
        return flat.terminal_reach * flat.terminal_payoff
    weights = _EXACT_WEIGHTS.get(flat)
    if weights is None:
        weights = np.empty(len(flat.terminal_reach_exact), dtype=object)
        weights[:] = [
            r * u
            for r, u in zip(flat.terminal_reach_exact, flat.terminal_payoff_exact, strict=True)
        ]
        _EXACT_WEIGHTS[flat] = weights
    return weights


def _nonzero(*factors: np.ndarray) -> np.ndarray:
    """Indices where every factor is non-zero (exact sums skip the zero terms)."""
    keep = np.ones(len(factors[0]), dtype=bool)
    for factor in factors:
        keep &= np.asarray(factor != 0, dtype=bool)
    return np.flatnonzero(keep)


def _zeros(size: int, exact: bool) -> np.ndarray:
    if not exact:
        return np.zeros(size)
    out = np.empty(size, dtype=object)
    out[:] = [Fraction(0)] * size
    return out


def _number(value: Any, exact: bool) -> Number:
    return Fraction(value) if exact else float(value)


def expected_value(game: Game, first: StrategyLike, second: StrategyLike) -> Number:
    """Player 0's expected payoff when players 0 and 1 follow ``first`` and ``second``.

    ``sum_z chance(z) · x[s0(z)] · y[s1(z)] · u0(z)``; a Fraction for exact strategies.
    """
    first, second = _profile(game, first, second)
    return _plans_value(game, plan_from_behaviour(first), plan_from_behaviour(second))


def _plans_value(game: Game, x: np.ndarray, y: np.ndarray) -> Number:
    """:func:`expected_value` of the realization plans ``x`` and ``y`` (exact when they
    are object arrays of Fractions)."""
    flat = game.flat
    s0, s1 = flat.terminal_sequences
    exact = x.dtype == object
    weights = _terminal_weights(flat, exact)
    if not exact:
        return float(np.sum(weights * x[s0] * y[s1]))
    keep = _nonzero(weights, x[s0], y[s1])
    return Fraction(sum(weights[keep] * x[s0[keep]] * y[s1[keep]], Fraction(0)))


def leaf_payoffs(game: Game, player: int, opponent_plan: np.ndarray) -> np.ndarray:
    """Per sequence ``s`` of ``player``: its payoff from the terminals whose own sequence is
    ``s``, weighted by chance and the opponent's realization plan (``A y`` for player 0,
    ``−Aᵀ x`` for player 1).  Exact when ``opponent_plan`` is an object array of Fractions.
    """
    flat = game.flat
    exact = opponent_plan.dtype == object
    own = flat.terminal_sequences[player]
    other = flat.terminal_sequences[1 - player]
    weights = _terminal_weights(flat, exact)
    size = flat.tables[player].num_sequences
    sign = 1 if player == 0 else -1
    if not exact:
        return np.bincount(own, weights=sign * weights * opponent_plan[other], minlength=size)
    keep = _nonzero(weights, opponent_plan[other])
    leaf = _zeros(size, exact=True)
    np.add.at(leaf, own[keep], sign * weights[keep] * opponent_plan[other[keep]])
    return leaf


def bounded_choice(values: Sequence[Any], local: LocalBounds) -> list[Any]:
    """The best distribution over one information set's actions within ``lo <= p <= hi``.

    A fractional knapsack: every action starts at ``lo``, and the remaining probability
    goes to the actions of highest value first (ties to the first), each up to ``hi``.
    Exact when ``values`` and the bounds are Fractions.
    """
    choice: list[Any] = [lo for lo, _ in local]
    remaining = 1 - sum(choice)
    for action in sorted(range(len(values)), key=lambda a: values[a], reverse=True):
        if remaining <= 0:
            break
        extra = min(local[action][1] - local[action][0], remaining)
        choice[action] += extra
        remaining -= extra
    return choice


def _levels(table: PlayerSequences) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Per depth of the information-set tree, deepest first: its information sets and their
    sequences, both in index order (so each set's sequences are consecutive)."""
    depth = infoset_depths(table)
    sequence_depth = depth[table.sequence_infoset[1:]]
    for level in range(int(depth.max(initial=-1)), -1, -1):
        yield np.flatnonzero(depth == level), 1 + np.flatnonzero(sequence_depth == level)


def respond(
    table: PlayerSequences, leaf: np.ndarray, bounds: Mapping[int, LocalBounds] | None = None
) -> BestResponse:
    """The backward induction of the module docstring, given the responder's leaf payoffs.

    Parameters
    ----------
    table
        The responder's sequence table.
    leaf
        Per sequence, the payoff of the terminals directly after it (:func:`leaf_payoffs`);
        float, or an object array of Fractions for an exact best response.
    bounds
        Information-set index -> per action ``(lo, hi)``: there the responder plays
        :func:`bounded_choice` instead of a best action.
    """
    exact = leaf.dtype == object
    bounds = bounds or {}
    below = _zeros(table.num_sequences, exact)
    one = Fraction(1) if exact else 1.0
    probabilities = _zeros(table.num_sequences, exact)
    probabilities[0] = one
    values = _zeros(table.num_infosets, exact)
    choice = np.zeros(table.num_infosets, dtype=np.int64)
    counts = table.action_counts()
    for infosets, sequences in _levels(table):
        with np.errstate(over="ignore", invalid="ignore"):
            totals = leaf[sequences] + below[sequences]
        if not exact:  # nan compares false: no best action would be found
            require_finite(totals, f"player {table.player + 1}'s best response")
        starts = np.concatenate([[0], np.cumsum(counts[infosets])[:-1]])
        best = np.maximum.reduceat(totals, starts)
        group = np.repeat(np.arange(len(infosets)), counts[infosets])
        is_best = np.asarray(totals >= best[group], dtype=bool)
        marked = np.where(is_best, sequences, table.num_sequences)
        first_best = np.minimum.reduceat(marked, starts)
        values[infosets] = best
        choice[infosets] = first_best - table.first_sequence[infosets]
        probabilities[first_best] = one
        bounded = [(p, h) for p, h in enumerate(infosets.tolist()) if h in bounds] if bounds else []
        for position, infoset in bounded:
            options = totals[starts[position] : starts[position] + counts[infoset]]
            local = bounded_choice(list(options), bounds[infoset])
            span = table.sequences_of(infoset)
            probabilities[span.start : span.stop] = local
            values[infoset] = sum(p * v for p, v in zip(local, options, strict=True))
        with np.errstate(over="ignore", invalid="ignore"):
            np.add.at(below, table.parent_sequence[infosets], values[infosets])
    if not exact:
        require_finite(leaf[0] + below[0], f"player {table.player + 1}'s best response")
    return BestResponse(
        player=table.player,
        value=_number(leaf[0] + below[0], exact),
        strategy=BehaviouralStrategy(table, probabilities, np.zeros(table.num_infosets, bool)),
        choice=choice,
        infoset_values=values,
    )


def best_response(
    game: Game,
    player: int,
    opponent: StrategyLike,
    bounds: Mapping[int, LocalBounds] | None = None,
) -> BestResponse:
    """A best response of ``player`` to the opponent's behavioural strategy.

    Exact for an exact opponent.  Information sets the responder can reach only through
    zero-weight paths still get an action (the first maximiser).  ``bounds`` restrict the
    responder (:func:`respond`).
    """
    player = require_player("player", player, 2)
    strategy = _strategy(game, 1 - player, opponent, "opponent")
    leaf = leaf_payoffs(game, player, plan_from_behaviour(strategy))
    return respond(game.flat.tables[player], leaf, bounds)


def certify(
    game: Game,
    first: StrategyLike,
    second: StrategyLike,
    bounds: tuple[Mapping[int, LocalBounds] | None, Mapping[int, LocalBounds] | None] | None = None,
) -> Certificate:
    """Expected value, both best-response values and NashConv of a strategy profile.

    Exact (Fractions) when both strategies are exact, else floats.  ``bounds``, per
    player, restrict that player's best response (:func:`respond`).

    Raises
    ------
    InvalidGameError
        If the game is not two-player zero-sum (:func:`certify_profile` measures those).
    CertificateOverflowError
        If a float value or best response leaves the float range.
    """
    require_two_player_zero_sum(game, "the two-player certificate")
    first, second = _profile(game, first, second)
    bounds = bounds or (None, None)
    # a float sum that leaves the float range is refused below by name, without numpy's
    # RuntimeWarnings on the way (inf - inf in a sum of payoffs)
    tables = game.flat.tables
    with np.errstate(over="ignore", invalid="ignore"):
        # each plan once: the value and the other player's best response read it
        x, y = plan_from_behaviour(first), plan_from_behaviour(second)
        value = _plans_value(game, x, y)
        best_first = respond(tables[0], leaf_payoffs(game, 0, y), bounds[0]).value
        best_second = respond(tables[1], leaf_payoffs(game, 1, x), bounds[1]).value
        numbers = [value, best_first, best_second, best_first + best_second]
    if not first.exact:
        require_finite(numbers, "the certificate")
    scale = payoff_range(game, exact=first.exact)
    return Certificate.from_best_responses(value, best_first, best_second, scale)


def profile_leaf_payoffs(game: Game, player: int, plans: Sequence[np.ndarray]) -> np.ndarray:
    """Per sequence ``s`` of ``player``, its payoff from the terminals whose own sequence is
    ``s``, weighted by chance and every other player's plan (``plans[player]`` is unused):
    the bincount over terminals of ``chance · prod_{j != player} x_j[s_j] · u_player``."""
    flat = game.flat
    weights = flat.terminal_reach * flat.terminal_payoffs[player]
    for other, plan in enumerate(plans):
        if other != player:
            weights = weights * plan[flat.terminal_sequences[other]]
    size = flat.tables[player].num_sequences
    return np.bincount(flat.terminal_sequences[player], weights=weights, minlength=size)


def certify_profile(game: Game, strategies: Sequence[StrategyLike]) -> NPlayerCertificate:
    """Each player's value, best-response value and gain, and NashConv, in floats.

    Any number of players and general-sum payoffs; one strategy per player, in order.
    """
    flat = game.flat
    if len(strategies) != flat.num_players:
        raise ValueError(
            f"{game.name} has {flat.num_players} players; got {len(strategies)} strategies"
        )
    behaviours = [
        _strategy(game, i, s, f"strategies[{i}]").to_float() for i, s in enumerate(strategies)
    ]
    plans = [plan_from_behaviour(behaviour) for behaviour in behaviours]
    values, best = [], []
    for player, plan in enumerate(plans):
        leaf = profile_leaf_payoffs(game, player, plans)
        values.append(float(plan @ leaf))
        best.append(float(respond(flat.tables[player], leaf).value))
    raw = tuple(b - v for b, v in zip(best, values, strict=True))
    with np.errstate(over="ignore", invalid="ignore"):
        require_finite([*values, *best, *raw, sum(raw)], "the certificate")
    gains = tuple(float(clamped_gain(gain)) for gain in raw)
    return NPlayerCertificate(tuple(values), tuple(best), gains, float(sum(gains)))
