"""Full-width extensive-form fictitious play (XFP; Heinrich, Lanctot and Silver, ICML 2015).

Fictitious play in an extensive-form game: at iteration ``t`` every player best-responds to
the others' *average* strategies, and each average moves towards its best response with
step ``1 / (t + 1)``.  Mixing behavioural strategies must be done *realization-
equivalently* (Theorem 7 and Algorithm 1 of the paper): the new average is the behaviour
of the mixed realization plan

    x̄_t = (1 − α_t) x̄_{t−1} + α_t β_t,      α_t = 1 / (t + 1),

where ``β_t`` is the best response's realization plan.  Starting from the uniform
strategy ``x̄_0`` this is ``x̄_t = (x̄_0 + β_1 + ... + β_t) / (t + 1)``, so the solver keeps
the cumulative plan ``S_t = x̄_0 + Σ β`` and reads the average behaviour off it
(``S(h, a) / Σ_b S(h, b)``, :func:`~seqform.iterative.passes.average_strategy`) — the
paper's per-information-set update (its eq. for ``π_{t+1}(s, ·)``, weights
``α_t x_β(s)`` and ``(1 − α_t) x̄(s)``) is exactly this ratio.

The best responses are :func:`seqform.certify.respond` — the certificate's one best
response, on the sequence form, any number of players (leaf payoffs by
:func:`seqform.certify.profile_leaf_payoffs` against the others' average plans).  Both
players respond to the same averages (simultaneous updates), as OpenSpiel's
``fictitious_play.XFPSolver`` does.

Tie-breaking: at each information set the best response takes the *first* action of
highest value in the information set's action order — OpenSpiel's
``best_response.BestResponsePolicy`` takes ``max`` over its legal actions in order, which
is the same rule.  Values that are equal in exact arithmetic may differ in the last bits
between the two summation orders, so at such ties the two libraries may pick different
actions; :attr:`XfpStepper.ties` records the iterations where some information set had two
actions within :data:`TIE_TOLERANCE` of each other.

XFP is defined for any number of players and general-sum games (it runs on three-player
Kuhn); it converges to a Nash equilibrium in two-player zero-sum games, in practice like
``1 / sqrt(t)`` or slower — the seeds' "FSP slower" row.
"""

from __future__ import annotations

import numpy as np

from seqform.certify import profile_leaf_payoffs, respond
from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour, uniform_behaviour
from seqform.game.model import Game
from seqform.game.sequences import PlayerSequences
from seqform.iterative.layout import build_layout
from seqform.iterative.passes import average_profile
from seqform.iterative.run import (
    DEFAULT_EVERY,
    IterativeResult,
    OnSample,
    Stopping,
    run_iterations,
)

__all__ = ["TIE_TOLERANCE", "XfpStepper", "xfp"]

TIE_TOLERANCE = 1e-9
"""Two actions whose best-response values differ by at most this (relative to 1 + the
larger magnitude) count as a tie in :attr:`XfpStepper.ties`."""


class XfpStepper:
    """Cumulative realization plans ``S = x̄_0 + Σ β`` of every player (module docstring).

    ties : the iterations at which some best response met a tie (see the module docstring)
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.layout = build_layout(game)
        self.tables = game.flat.tables
        self.cumulative = [
            plan_from_behaviour(uniform_behaviour(table)).astype(float) for table in self.tables
        ]
        self.ties: list[int] = []

    def step(self, iteration: int) -> None:
        self.mix(self.best_responses(iteration))

    def best_responses(self, iteration: int) -> list[np.ndarray]:
        """Every player's best-response plan ``β_t`` (table order) to the others' averages;
        records ``iteration`` in :attr:`ties` if some choice was a tie."""
        averages = [plan / plan[0] for plan in self.cumulative]
        responses = []
        tied = False
        for player, table in enumerate(self.tables):
            leaf = profile_leaf_payoffs(self.game, player, averages)
            response = respond(table, leaf)
            tied = tied or _has_tie(table, leaf, response.infoset_values)
            responses.append(plan_from_behaviour(response.strategy))
        if tied:
            self.ties.append(iteration)
        return responses

    def mix(self, plans: list[np.ndarray]) -> None:
        """``S += β`` for every player: the average moves to ``β`` with step ``1/(t+1)``."""
        for cumulative, plan in zip(self.cumulative, plans, strict=True):
            cumulative += plan

    def average(self) -> tuple[BehaviouralStrategy, ...]:
        internal = [
            plan[player.order]
            for plan, player in zip(self.cumulative, self.layout.players, strict=True)
        ]
        return average_profile(self.layout, internal)


def _has_tie(table: PlayerSequences, leaf: np.ndarray, infoset_values: np.ndarray) -> bool:
    """Whether some information set has a second action within :data:`TIE_TOLERANCE` of
    its best (values of the actions: their leaf payoffs plus the best values below)."""
    below = np.bincount(
        table.parent_sequence, weights=infoset_values, minlength=table.num_sequences
    )
    totals = (leaf + below)[1:]
    best = infoset_values[table.sequence_infoset[1:]]
    close = np.abs(best - totals) <= TIE_TOLERANCE * (1.0 + np.abs(best))
    return bool((np.bincount(table.sequence_infoset[1:], weights=close) > 1).any())


def xfp(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """Full-width extensive-form fictitious play (XFP, Heinrich et al. 2015, Algorithm 1).

    Stopping as :func:`~seqform.iterative.cfr.cfr`; NashConv of the average strategies is
    measured by the same certificate.
    """
    stopping = Stopping(iterations, target, time_limit, every)
    return run_iterations(game, XfpStepper(game), stopping, "xfp", on_sample)
