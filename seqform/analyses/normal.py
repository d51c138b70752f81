"""Solving a game through its normal form, certified like any other solution.

The matrix game ``M = P0.T @ A @ P1`` (:mod:`seqform.forms.normal_form`) is the min-max LP
of :mod:`seqform.lp.minmax` with ``E = (1 ... 1)``, ``e = (1)``, ``F = (1 ... 1)``,
``f = (1)``; its mixed strategies are mapped back to realization plans and behavioural
strategies by Kuhn's theorem (:func:`seqform.forms.normal_form.kuhn_conversion`) and
certified by best response on the tree (:mod:`seqform.certify`), so the result reads like
the sequence-form solution of :func:`seqform.analyses.solve.solve`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from seqform.analyses.solve import Solution, Timings
from seqform.certify import certify
from seqform.forms.normal_counts import DEFAULT_MAX_ENTRIES, StrategyCounts, strategy_counts
from seqform.forms.normal_form import KuhnConversion, NormalForm, build_normal_form, kuhn_conversion
from seqform.forms.sequence_form import SequenceForm, build_sequence_form
from seqform.game.model import Game
from seqform.lp.minmax import Algorithm, Backend, LPSolution, solve_minmax

__all__ = ["NormalFormSolution", "NormalFormSummary", "solve_matrix_game", "solve_normal_form"]


def solve_matrix_game(
    matrix: np.ndarray,
    *,
    backend: Backend = "highs",
    algorithm: Algorithm = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
) -> LPSolution:
    """Solve ``max_sigma min_tau sigma @ M @ tau`` over mixed strategies.

    The min-max LP of :mod:`seqform.lp.minmax` with ``E = (1 ... 1)``, ``e = (1)`` and
    ``F = (1 ... 1)``, ``f = (1)``: ``x`` and ``y`` of the result are the players' mixed
    strategies and ``value`` the value of the matrix game.
    """
    rows, columns = matrix.shape
    return solve_minmax(
        sp.csr_array(np.ones((1, rows))),
        np.ones(1),
        sp.csr_array(np.ones((1, columns))),
        np.ones(1),
        sp.csr_array(matrix),
        backend=backend,
        algorithm=algorithm,
        time_limit=time_limit,
        verbose=verbose,
    )


@dataclass(frozen=True)
class NormalFormSummary:
    """The normal-form sizes and Kuhn-theorem checks that reports show beside a solution.

    reduced : whether the reduced normal form was solved
    counts : exact pure and reduced pure strategy counts of both players
    shape : the shape of the matrix that was solved
    nonzeros : its non-zero entries
    build_seconds : time to enumerate the strategies and build the matrix
    constraint_residuals : per player, ``max |E x - e|`` of the converted plan
    payoff_gaps : per player, :attr:`KuhnConversion.payoff_gap`
    """

    reduced: bool
    counts: StrategyCounts
    shape: tuple[int, int]
    nonzeros: int
    build_seconds: float
    constraint_residuals: tuple[float, float]
    payoff_gaps: tuple[float, float]

    @property
    def entries(self) -> int:
        return self.shape[0] * self.shape[1]


@dataclass(frozen=True)
class NormalFormSolution:
    """An equilibrium found through the normal form, in the sequence form's terms.

    solution : a :class:`~seqform.analyses.solve.Solution` whose plans are the Kuhn conversions of
        the mixed strategies, certified by best response on the tree like any other;
        ``solution.stats`` describes the matrix-game LP and ``solution.timings.sequence_form``
        includes building the normal form
    normal_form : the matrix and the enumerated pure strategies
    conversions : per player, the mixed strategy, plan and behaviour (Kuhn 1953)
    summary : sizes and checks for reports
    """

    solution: Solution
    normal_form: NormalForm
    conversions: tuple[KuhnConversion, KuhnConversion]
    summary: NormalFormSummary

    @property
    def mixed(self) -> tuple[np.ndarray, np.ndarray]:
        """The LP's mixed strategies over the enumerated pure strategies."""
        return (self.conversions[0].mixed, self.conversions[1].mixed)


def solve_normal_form(
    game: Game,
    *,
    reduced: bool = False,
    max_entries: int = DEFAULT_MAX_ENTRIES,
    backend: Backend = "highs",
    algorithm: Algorithm = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
    form: SequenceForm | None = None,
) -> NormalFormSolution:
    """Solve ``game`` through its normal form and certify the answer by best response.

    The matrix game's mixed strategies are mapped to realization plans and behavioural
    strategies by Kuhn's theorem (:func:`kuhn_conversion`), so the result reads like the
    sequence-form solution of :func:`seqform.analyses.solve.solve`.

    Parameters
    ----------
    game
        The game.
    reduced
        Solve the reduced normal form instead of the full one.
    max_entries
        Size limit on the matrix (see :func:`build_normal_form`).
    backend, algorithm, time_limit, verbose
        As for :func:`seqform.lp.minmax.solve_minmax`.
    form
        The game's sequence form, if already built.

    Raises
    ------
    NormalFormTooLargeError
        If the matrix would exceed ``max_entries``.
    seqform.lp.minmax.SolverError
        If the LP solver does not prove optimality.
    """
    start = time.perf_counter()
    form = build_sequence_form(game) if form is None else form
    form_built = time.perf_counter()
    normal_form = build_normal_form(form, reduced=reduced, max_entries=max_entries)
    built = time.perf_counter()
    lp_solution = solve_matrix_game(
        normal_form.matrix,
        backend=backend,
        algorithm=algorithm,
        time_limit=time_limit,
        verbose=verbose,
    )
    solved = time.perf_counter()
    conversions = (
        kuhn_conversion(form, normal_form.strategies[0], lp_solution.x),
        kuhn_conversion(form, normal_form.strategies[1], lp_solution.y),
    )
    converted = time.perf_counter()
    behaviour = (conversions[0].behaviour, conversions[1].behaviour)
    certificate = certify(game, behaviour[0], behaviour[1])
    certified = time.perf_counter()
    solution = Solution(
        game=game,
        form=form,
        value=lp_solution.value,
        plans=(conversions[0].plan, conversions[1].plan),
        behaviour=behaviour,
        certificate=certificate,
        stats=lp_solution.stats,
        timings=Timings(
            sequence_form=built - start,
            lp=solved - built,
            behaviour=converted - solved,
            certificate=certified - converted,
        ),
    )
    summary = NormalFormSummary(
        reduced=reduced,
        counts=strategy_counts(form),
        shape=normal_form.shape,
        nonzeros=normal_form.nonzeros,
        build_seconds=built - form_built,
        constraint_residuals=(
            conversions[0].constraint_residual,
            conversions[1].constraint_residual,
        ),
        payoff_gaps=(conversions[0].payoff_gap, conversions[1].payoff_gap),
    )
    return NormalFormSolution(
        solution=solution,
        normal_form=normal_form,
        conversions=conversions,
        summary=summary,
    )
