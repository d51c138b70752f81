"""The one float LP path: an :class:`~seqform.lp.problem.LPProblem` in, one
:class:`~seqform.lp.problem.FloatSolution` out, whichever solver runs it.

:func:`run_lp` dispatches to HiGHS (:mod:`seqform.lp.highs`: simplex, interior point with
crossover, PDLP), to HiGHS through cvxpy (:mod:`seqform.lp.cvxpy_lp`) or to Clarabel
(:mod:`seqform.lp.clarabel`).  Each backend raises the errors of
:mod:`seqform.lp.solvers` for anything but a proven optimum and returns the row duals under
the one sign rule of :mod:`seqform.lp.problem`, so that the tree's min-max LP
(:mod:`seqform.lp.minmax`), the exact route's float start (:mod:`seqform.lp.exact.minmax`)
and the structured LP (:mod:`seqform.structured.lp_solve`) read
the opponent's plan in one way.
"""

from __future__ import annotations

from seqform.lp.clarabel import run_clarabel
from seqform.lp.cvxpy_lp import run_cvxpy
from seqform.lp.highs import HighsSession
from seqform.lp.problem import FloatSolution, LPProblem
from seqform.lp.solvers import BACKENDS, SOLVERS

__all__ = ["run_lp"]


def run_lp(
    problem: LPProblem,
    *,
    solver: str = "simplex",
    backend: str = "highs",
    time_limit: float | None = None,
    verbose: bool = False,
    tolerance: float | None = None,
    basis: bool = False,
    crossover: bool = True,
    refinement: bool = True,
    almost: bool = False,
    presolve: bool = False,
) -> FloatSolution:
    """Maximise ``problem`` with ``solver``; its proven optimum.

    Length: the one float path documents every option it passes on; the body is four lines.

    Parameters
    ----------
    problem
        The LP (``maximise c @ v`` s.t. ``row_lower <= M v <= row_upper``, column bounds).
    solver
        HiGHS's ``"simplex"`` (default), ``"ipm"`` (interior point with crossover) or
        ``"pdlp"`` (first order; approximate), or ``"clarabel"`` (interior point, direct
        sparse LDL; rows ``==`` or ``<=`` and columns ``>= 0`` or free only).
    backend
        How a HiGHS solver is reached: ``"highs"`` (highspy, default) or ``"cvxpy"``.
    time_limit
        Seconds before the solver gives up (:class:`~seqform.lp.solvers.SolverLimitError`).
    verbose
        Let the solver write its log.
    tolerance
        HiGHS's primal and dual feasibility tolerance, Clarabel's gap and feasibility
        tolerance; None for the solver's default (1e-7 for HiGHS, 1e-8 for Clarabel).
    basis
        Keep HiGHS's optimal basis (for an exact re-solve, :mod:`seqform.lp.exact.basis`).
    crossover
        HiGHS's ``"ipm"`` ends at a basis by crossover (default); False stops at its
        interior point, ``tolerance`` then being its optimality tolerance as well
        (:func:`~seqform.lp.highs.highs_options`).
    refinement
        Clarabel refines each of its linear solves iteratively (its default); False saves
        that work (:func:`~seqform.lp.clarabel.run_clarabel`).  Ignored by HiGHS.
    almost
        Clarabel's "AlmostSolved" point is returned (status ``"almost solved"``), not
        raised, for a caller that certifies it (:func:`~seqform.lp.clarabel.run_clarabel`).
        Ignored by HiGHS.
    presolve
        Clarabel solves the LP without its doubleton equalities and free doubleton columns
        and maps the answer back (:mod:`seqform.lp.presolve`).  Ignored by HiGHS, which
        presolves on its own.

    Returns
    -------
    FloatSolution
        Primal values, row duals (``>= 0`` on a row at its upper bound: the Lagrangian
        ``c @ v − π @ (M v − b)`` of :mod:`seqform.lp.problem`), the objective, the status
        ("optimal") and :class:`~seqform.lp.solvers.SolverStats` (``seconds`` include
        handing the LP to the solver, ``solver_seconds`` are the solve's own).

    Raises
    ------
    SolverError
        If the LP is not solved to proven optimality (:class:`SolverLimitError` at a time or
        iteration limit, :class:`InfeasibleError` for an infeasible LP).
    ValueError
        For an unknown solver or backend, or Clarabel with cvxpy.
    """
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; choose one of {', '.join(SOLVERS)}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    return _dispatch(
        problem,
        solver,
        backend,
        time_limit,
        verbose,
        tolerance,
        basis,
        crossover,
        refinement,
        almost,
        presolve,
    )


def _dispatch(
    problem: LPProblem,
    solver: str,
    backend: str,
    time_limit: float | None,
    verbose: bool,
    tolerance: float | None,
    basis: bool,
    crossover: bool = True,
    refinement: bool = True,
    almost: bool = False,
    presolve: bool = False,
) -> FloatSolution:
    """The backend's solve (:func:`run_lp`'s parameters)."""
    if solver == "clarabel":
        if backend != "highs":
            raise ValueError("Clarabel is run directly, not through cvxpy")
        chosen = 1e-8 if tolerance is None else tolerance
        return run_clarabel(
            problem,
            time_limit=time_limit,
            verbose=verbose,
            tolerance=chosen,
            refinement=refinement,
            almost=almost,
            presolve=presolve,
        )
    if backend == "cvxpy":
        return run_cvxpy(
            problem, solver=solver, time_limit=time_limit, verbose=verbose, tolerance=tolerance
        )
    session = HighsSession(
        problem,
        solver,
        time_limit=time_limit,
        verbose=verbose,
        tolerance=tolerance,
        crossover=crossover,
    )
    return session.solve(basis=basis)
