"""Solving a sparsified LP (:mod:`seqform.structured.factored_lp`): the game's value and
both realization plans.

Solvers: Clarabel (an interior-point method with a direct sparse LDL factorisation,
default; Goulart and Chen 2024) or HiGHS.  On this LP HiGHS's interior point (IPX,
iterative linear algebra) took 255 s at ``N = 5 10^4`` where Clarabel took 9 s, and dual
simplex grows quadratically (0.3 s at ``N = 10^3``, 20 s at ``N = 10^4``).  HiGHS still
gives a vertex, exact to the last digit, on small decks.

Player 0's plan ``x`` is read from the LP's columns; player 1's plan ``y`` is the
multipliers of the rows ``F.T q - A.T x <= 0`` (:attr:`SparsifiedLP.payoff_rows`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from seqform.lp.clarabel import raise_unless_solved, run_clarabel
from seqform.lp.highs import highs_lp, highs_solver, raise_unless_optimal, run_highs
from seqform.lp.solvers import SPARSIFIED_SOLVERS, SolverStats, SparsifiedSolver, optimal_stats
from seqform.structured.factored_lp import SparsifiedLP

__all__ = ["SparsifiedSolution", "clarabel_tolerance", "solve_sparsified_lp"]


@dataclass(frozen=True)
class SparsifiedSolution:
    """The solved sparsified LP: the game's value and both plans (game sequence order)."""

    value: float
    x: np.ndarray
    y: np.ndarray
    stats: SolverStats


def clarabel_tolerance(lp: SparsifiedLP) -> float:
    """Clarabel's gap and feasibility tolerance for ``lp``: ``min(1e-12, 1e-7 / columns)``.

    An interior point stops with every complementary pair ``x_j s_j`` near ``μ``; the plans'
    zero entries come out as ``μ / s_j`` and each costs about ``μ`` of value, so the
    certificate's NashConv grows with the LP's size at a fixed tolerance.  Measured on
    N-card Kuhn (2-core machine): at 1e-12, ``N = 10^4`` certifies near 1e-11 but
    ``N = 10^5`` (900,004 columns) stops at μ = 4e-9 with NashConv 1.24e-9, above the
    1e-9 threshold; at 1e-13 Clarabel takes one more iteration (17, +2 s of 32 s, μ =
    4e-11) and NashConv is 1.2e-11.  Below 10^5 columns the tolerance stays 1e-12.
    """
    return min(1e-12, 1e-7 / max(lp.shape[1], 1))


def solve_sparsified_lp(
    lp: SparsifiedLP,
    *,
    solver: SparsifiedSolver = "clarabel",
    time_limit: float | None = None,
    verbose: bool = False,
    tolerance: float | None = None,
) -> SparsifiedSolution:
    """Solve the sparsified LP with Clarabel (default) or HiGHS (``"simplex"``, ``"ipm"``).

    ``tolerance`` sets Clarabel's gap and feasibility tolerances; ``None`` scales it to
    the LP (:func:`clarabel_tolerance`; Clarabel's own default, 1e-8, left NashConv near
    3e-8 at ``N = 10^4``).  Only a solution the solver calls optimal is returned.

    Raises
    ------
    SolverLimitError
        At the time limit (``plans`` holds the solver's last point when it has one).
    SolverError
        For any other status than optimal.
    """
    if solver not in SPARSIFIED_SOLVERS:
        raise ValueError(
            f"unknown solver {solver!r} for the sparsified LP; use {SPARSIFIED_SOLVERS}"
        )
    if solver == "clarabel":
        chosen = clarabel_tolerance(lp) if tolerance is None else tolerance
        return _solve_clarabel(lp, time_limit, verbose, chosen)
    return _solve_highs(lp, solver, time_limit, verbose)


def _stats(lp: SparsifiedLP, backend: str, algorithm: str, seconds: float, iterations: int):
    return optimal_stats(
        backend,
        algorithm,
        seconds=seconds,
        iterations=iterations,
        shape=lp.shape,
        nonzeros=lp.matrix.nnz,
    )


def _solve_clarabel(
    lp: SparsifiedLP, time_limit: float | None, verbose: bool, tolerance: float
) -> SparsifiedSolution:
    objective = np.zeros(lp.shape[1])
    objective[lp.objective] = 1.0
    run = run_clarabel(
        lp.matrix,
        objective=objective,
        col_lower=lp.col_lower,
        row_lower=lp.row_lower,
        row_upper=lp.row_upper,
        time_limit=time_limit,
        verbose=verbose,
        tolerance=tolerance,
    )
    # The payoff rows' multipliers (they are all '<=' rows).
    y = np.maximum(run.row_duals[lp.payoff_rows], 0.0)
    x = np.maximum(run.columns[lp.x_columns], 0.0)
    raise_unless_solved(run, (x, y))
    return SparsifiedSolution(
        value=run.objective / lp.scale,
        x=x,
        y=y,
        stats=_stats(lp, "clarabel", "interior point", run.seconds, run.iterations),
    )


def _solve_highs(
    lp: SparsifiedLP, algorithm: str, time_limit: float | None, verbose: bool
) -> SparsifiedSolution:
    columns = lp.shape[1]
    objective = np.zeros(columns)
    objective[lp.objective] = 1.0
    model = highs_lp(
        lp.matrix,
        objective=objective,
        col_lower=lp.col_lower,
        col_upper=np.full(columns, np.inf),
        row_lower=lp.row_lower,
        row_upper=lp.row_upper,
    )
    run = run_highs(highs_solver(algorithm, time_limit, verbose, model=model))
    x = np.maximum(run.columns[lp.x_columns], 0.0)
    y = np.maximum(run.row_duals[lp.payoff_rows], 0.0)
    raise_unless_optimal(run, algorithm=algorithm, plans=(x, y) if run.point_valid else None)
    return SparsifiedSolution(
        value=run.objective / lp.scale,
        x=x,
        y=y,
        stats=_stats(lp, "highs", algorithm, run.seconds, run.iterations),
    )
