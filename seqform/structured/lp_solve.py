"""Solving a structured LP (:mod:`seqform.structured.lp_model`): the game's value and
both realization plans.

Solvers: Clarabel (an interior-point method with a direct sparse LDL factorisation,
default; Goulart and Chen 2024) or HiGHS.  Clarabel's direct factorisation is the fastest
on the one-card games (N-card Kuhn): on their sparse LP HiGHS's interior point (IPX,
iterative linear algebra) is many times slower and dual simplex grows quadratically with
the deck.  HiGHS still gives a vertex, exact to the last digit, on small decks.  On hold'em
spots with wide ranges it is the other way round: their showdowns sum many hands by level,
Clarabel's factor fills in and each of its iterations costs many of IPX's, so the
structured route chooses by the LP's density
(:func:`seqform.routes.structured.default_solver`).  The measurements are in
``benchmarks/results/measurements.md``.

The LP goes through :func:`seqform.lp.run.run_lp`, the one float LP path, as an
:class:`~seqform.lp.problem.LPProblem` whose :class:`~seqform.lp.problem.PlanLayout` says
that player 0's plan ``x`` is in the LP's columns and player 1's plan ``y`` is the
multipliers of the rows ``F.T q - A.T x <= 0`` (:attr:`StructuredLP.payoff_rows`), read
under the one sign rule of :mod:`seqform.lp.problem`.
"""

from __future__ import annotations

import numpy as np

from seqform.lp.problem import FloatSolution, LPProblem, PlanLayout
from seqform.lp.run import run_lp
from seqform.lp.solvers import STRUCTURED_SOLVERS, StructuredSolver
from seqform.structured.lp_model import StructuredLP

__all__ = ["clarabel_tolerance", "solve_structured_lp", "structured_problem"]


def clarabel_tolerance(lp: StructuredLP) -> float:
    """Clarabel's gap and feasibility tolerance for ``lp``: ``min(1e-12, 1e-7 / columns)``.

    An interior point stops with every complementary pair ``x_j s_j`` near ``μ``; the plans'
    zero entries come out as ``μ / s_j`` and each costs about ``μ`` of value, so the
    certificate's NashConv grows with the LP's size at a fixed tolerance.  At 1e-12 N-card
    Kuhn's NashConv stays far below 1e-9 at ``N = 10^4`` but ends just above it at
    ``N = 10^5`` (900,004 columns); the tolerance scaled by the columns costs that LP one
    more iteration and brings its NashConv two orders of magnitude down
    (``benchmarks/results/measurements.md``).  Below 10^5 columns the tolerance stays 1e-12.
    """
    return min(1e-12, 1e-7 / max(lp.shape[1], 1))


def solve_structured_lp(
    lp: StructuredLP,
    *,
    solver: StructuredSolver = "clarabel",
    time_limit: float | None = None,
    verbose: bool = False,
    tolerance: float | None = None,
    crossover: bool = True,
    refinement: bool = True,
    almost: bool = False,
    presolve: bool = False,
) -> FloatSolution:
    """Solve the structured LP with Clarabel (default) or HiGHS (``"simplex"``, ``"ipm"``).

    ``tolerance`` sets Clarabel's gap and feasibility tolerances; ``None`` scales it to
    the LP (:func:`clarabel_tolerance`; Clarabel's own default, 1e-8, leaves NashConv far
    above 1e-9 already at ``N = 10^4``).  ``crossover=False`` stops HiGHS's ``"ipm"`` at
    its interior point, ``tolerance`` (if given) being its relative gap.
    ``refinement=False`` turns Clarabel's iterative refinement off
    (:func:`~seqform.lp.clarabel.run_clarabel`).  Only a solution the solver calls optimal
    is returned, and with ``almost=True`` Clarabel's "AlmostSolved" point, for a caller that
    certifies it.  ``presolve=True`` has Clarabel solve the LP without its one-action
    information sets (:mod:`seqform.lp.presolve`).

    Raises
    ------
    SolverLimitError
        At the time limit (``plans`` holds the solver's last point when it has one).
    SolverError
        For any other status than optimal.
    """
    if solver not in STRUCTURED_SOLVERS:
        raise ValueError(
            f"unknown solver {solver!r} for the structured LP; use {STRUCTURED_SOLVERS}"
        )
    chosen = None if crossover else tolerance  # HiGHS keeps its own tolerances at a vertex
    if solver == "clarabel":
        chosen = clarabel_tolerance(lp) if tolerance is None else tolerance
    problem = structured_problem(lp)
    return run_lp(
        problem,
        solver=solver,
        time_limit=time_limit,
        verbose=verbose,
        tolerance=chosen,
        crossover=crossover,
        refinement=refinement,
        almost=almost,
        presolve=presolve,
    )


def structured_problem(lp: StructuredLP) -> LPProblem:
    """The structured LP as the one float :class:`~seqform.lp.problem.LPProblem`: objective
    the one column ``lp.objective``, no upper bounds, ``x`` and ``y`` where ``lp`` says."""
    columns = lp.shape[1]
    objective = np.zeros(columns)
    objective[lp.objective] = 1.0
    return LPProblem(
        matrix=lp.matrix,
        objective=objective,
        col_lower=lp.col_lower,
        col_upper=np.full(columns, np.inf),
        row_lower=lp.row_lower,
        row_upper=lp.row_upper,
        plans=PlanLayout(lp.x_columns, lp.payoff_rows, scale=lp.scale),
    )
