"""The normal form beside the sequence form: the payoff matrix of pure strategies, and
Kuhn's theorem back from mixed strategies to behaviour.

Normal form
-----------
With ``P0`` (sequences of player 0 × pure strategies of player 0) the 0/1 matrix whose
columns are the pure strategies' plans, and ``P1`` likewise, the expected payoff to player 0
of every pair of pure strategies is

    M = P0.T @ A @ P1                       (rows: pure strategies of 0; columns: of 1)

because a plan pair's payoff is ``x @ A @ y`` (KMvS 1996, eq. 9).  The chance expectation is
exact: ``A``'s Fraction entries are scaled by their common denominator ``D`` to integers, the
product is taken in ``int64`` and ``M = numerators / D`` (in floats from the start if the
integers could overflow).  The matrix game is the min-max LP
of :mod:`seqform.lp.minmax` with ``E = (1 ... 1)``, ``e = (1)``, ``F = (1 ... 1)``, ``f = (1)``
(:func:`seqform.routes.normal.solve_matrix_game`).

Kuhn's theorem
--------------
A mixed strategy ``sigma`` over pure strategies has realization plan ``x = P @ sigma``
(sum of the pure plans, weighted); ``E x = e`` because every column of ``P`` satisfies it and
``sigma`` sums to one.  Under perfect recall the behavioural strategy
``b(a | h) = x[h, a] / x[parent(h)]`` is *realization equivalent* to ``sigma``: it has the same
payoff against every strategy of the opponent (Kuhn 1953, Theorem 4; KMvS 1996, Prop. 3.2).
:func:`kuhn_conversion` performs the map and measures both facts numerically.

Pure strategies and their counts are in :mod:`seqform.forms.pure_strategies` and
:mod:`seqform.forms.normal_counts`; solving the matrix game is an analysis
(:mod:`seqform.routes.normal`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.base.arguments import require_count
from seqform.forms.normal_counts import (
    DEFAULT_MAX_ENTRIES,
    check_normal_form_size,
    strategy_counts,
)
from seqform.forms.pure_strategies import PureStrategies, pure_strategies
from seqform.forms.sequence_form import SequenceForm
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan, plan_from_behaviour

__all__ = ["KuhnConversion", "NormalForm", "build_normal_form", "kuhn_conversion"]

_INT64_SAFE = 2**62  # bound on |numerators| for the exact int64 product


@dataclass(frozen=True)
class NormalForm:
    """The normal form of a two-player zero-sum game: ``M = P0.T @ A @ P1``.

    strategies : the pure strategies of players 0 and 1 (rows and columns of ``M``)
    matrix : float array, shape (strategies of 0, strategies of 1): player 0's expected
        payoff of each pure pair, the float image of ``numerators / denominator``
    numerators : int64 array of the same shape with ``M = numerators / denominator``
        exactly, or ``None`` if the exact product would overflow ``int64``
    denominator : the common denominator of the sequence-form payoffs ``A``
    form : the sequence form it was built from
    """

    strategies: tuple[PureStrategies, PureStrategies]
    matrix: np.ndarray
    numerators: np.ndarray | None
    denominator: int
    form: SequenceForm

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.matrix.shape[0]), int(self.matrix.shape[1]))

    @property
    def entries(self) -> int:
        return self.shape[0] * self.shape[1]

    @property
    def nonzeros(self) -> int:
        return int(np.count_nonzero(self.matrix))

    def exact(self, row: int, column: int) -> Fraction:
        """Player 0's exact expected payoff when pure strategies ``row`` and ``column`` meet."""
        if self.numerators is not None:
            return Fraction(int(self.numerators[row, column]), self.denominator)
        first = self.strategies[0].plans[:, [row]].toarray().ravel() > 0
        second = self.strategies[1].plans[:, [column]].toarray().ravel() > 0
        rows, columns, values = self.form.payoff_entries
        return sum(
            (
                value
                for r, c, value in zip(rows.tolist(), columns.tolist(), values, strict=True)
                if first[r] and second[c]
            ),
            Fraction(0),
        )


def _payoff_numerators(form: SequenceForm) -> tuple[sp.csr_array | None, int]:
    """``A`` times the common denominator of its entries as int64, if that is safe."""
    rows, columns, values = form.payoff_entries
    denominator = math.lcm(*(value.denominator for value in values)) if values else 1
    scaled = [value.numerator * (denominator // value.denominator) for value in values]
    if sum(abs(number) for number in scaled) >= _INT64_SAFE:
        return None, denominator
    numerators = sp.csr_array(
        (np.asarray(scaled, dtype=np.int64), (rows, columns)), shape=form.A.shape
    )
    return numerators, denominator


def build_normal_form(
    form: SequenceForm, *, reduced: bool = False, max_entries: int = DEFAULT_MAX_ENTRIES
) -> NormalForm:
    """Enumerate pure strategies and build the normal-form matrix ``M = P0.T @ A @ P1``.

    Parameters
    ----------
    form
        The game's sequence form (its label tables and exact payoffs).
    reduced
        Use reduced pure strategies (one per distinct realization plan).
    max_entries
        Refuse, from the exact counts and before building anything, if the matrix would
        have more entries than this.

    Raises
    ------
    NormalFormTooLargeError
        If the matrix would exceed ``max_entries``.
    """
    max_entries = require_count("max_entries", max_entries, minimum=1)
    counts = strategy_counts(form)
    check_normal_form_size(counts, reduced=reduced, max_entries=max_entries)
    strategies = (
        pure_strategies(form.players[0], reduced=reduced, max_strategies=max_entries),
        pure_strategies(form.players[1], reduced=reduced, max_strategies=max_entries),
    )
    first, second = (s.plans for s in strategies)
    numerators_A, denominator = _payoff_numerators(form)
    if numerators_A is None:
        numerators = None
        matrix = (first.T @ form.A @ second).toarray()
    else:
        as_int = [plans.astype(np.int64) for plans in (first, second)]
        numerators = np.asarray((as_int[0].T @ numerators_A @ as_int[1]).toarray(), np.int64)
        matrix = numerators / denominator
    return NormalForm(
        strategies=strategies,
        matrix=np.asarray(matrix, dtype=float),
        numerators=numerators,
        denominator=denominator,
        form=form,
    )


# --- Kuhn's theorem -------------------------------------------------------------------------


@dataclass(frozen=True)
class KuhnConversion:
    """A mixed strategy over pure strategies and its realization-equivalent behaviour.

    mixed : probabilities over the player's pure strategies (as enumerated)
    plan : its realization plan ``x = P @ mixed``
    behaviour : the behavioural strategy of ``plan`` (:func:`behaviour_from_plan`)
    constraint_residual : ``max |E x - e|`` (``F``, ``f`` for player 1)
    payoff_gap : over every sequence of the opponent, the largest difference between the
        mixed strategy's payoff (pure payoffs weighted by ``mixed``) and the behavioural
        strategy's (through its own plan); Kuhn (1953) says 0
    """

    player: int
    mixed: np.ndarray
    plan: np.ndarray
    behaviour: BehaviouralStrategy
    constraint_residual: float
    payoff_gap: float


def kuhn_conversion(
    form: SequenceForm, strategies: PureStrategies, mixed: np.ndarray
) -> KuhnConversion:
    """Map a mixed strategy to its realization plan and behavioural strategy (Kuhn 1953).

    Parameters
    ----------
    form
        The sequence form whose label tables ``strategies`` enumerate.
    strategies
        The player's pure strategies (full or reduced).
    mixed
        Probabilities over ``strategies`` (non-negative, summing to one).

    Returns
    -------
    KuhnConversion
        The plan, the behaviour and two measured checks: ``E x = e`` and equal payoffs
        against every opponent sequence.
    """
    player = strategies.table.player
    mixed = np.asarray(mixed, dtype=float)
    if mixed.shape != (len(strategies),):
        raise ValueError(
            f"the mixed strategy has {mixed.size} probabilities but player {player + 1} has "
            f"{len(strategies)} pure strategies here"
        )
    plan = strategies.plans @ mixed
    constraints, rhs = form.constraints(player)
    residual = float(np.max(np.abs(constraints @ plan - rhs)))
    behaviour = behaviour_from_plan(strategies.table, plan)
    behaviour_plan = plan_from_behaviour(behaviour)
    # Payoff of each own pure strategy against each opponent sequence: rows of P.T A (or
    # P.T A.T for player 1, seen from player 0), then weighted by the mixture.
    payoffs = form.A if player == 0 else form.A.T
    per_pure = (strategies.plans.T @ payoffs).toarray()
    mixed_payoffs = mixed @ per_pure
    behaviour_payoffs = payoffs.T @ behaviour_plan
    gap = float(np.max(np.abs(mixed_payoffs - behaviour_payoffs), initial=0.0))
    return KuhnConversion(
        player=player,
        mixed=mixed,
        plan=plan,
        behaviour=behaviour,
        constraint_residual=residual,
        payoff_gap=gap,
    )
