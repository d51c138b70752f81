"""An :class:`~seqform.lp.problem.LPProblem` written in cvxpy and solved by HiGHS through it:
the same LP as :mod:`seqform.lp.highs` hands over directly, by another road, to cross-check.

The rows go in by kind, vectorised: equalities ``M_E v == b``, upper bounds ``M_U v <= u``,
lower bounds ``M_L v >= l`` (a ranged row is in both); the columns are two variables, the
free ones and those with bounds (:class:`_Columns`).
cvxpy reports a maximisation's multipliers of ``==`` and ``<=`` constraints with the sign of
the optimum's sensitivity to the right-hand side, and those of ``>=`` constraints as
``>= 0``; a row's dual is therefore its ``==`` or ``<=`` multiplier minus its ``>=`` one,
which is the sign rule of :mod:`seqform.lp.problem`.
"""

from __future__ import annotations

import time
import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp

from seqform.base.interrupt import interrupt_not_swallowed, run_interruptibly
from seqform.lp.highs import highs_options, new_highs
from seqform.lp.problem import FloatSolution, LPProblem
from seqform.lp.solvers import InfeasibleError, SolverError, SolverLimitError, optimal_stats

__all__ = ["run_cvxpy"]


def run_cvxpy(
    problem: LPProblem,
    *,
    solver: str = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
    tolerance: float | None = None,
) -> FloatSolution:
    """Maximise the LP in cvxpy with HiGHS's ``solver`` (``canon_backend="SCIPY"``).

    Raises
    ------
    SolverLimitError
        At a limit (cvxpy's "user_limit"; its values are not a point to measure).
    InfeasibleError
        If the LP has no feasible point.
    SolverError
        For any other status than optimal, or a failure inside cvxpy.
    """
    # highspy first, with Ctrl-C held (it cannot be imported again after an interrupted
    # import), which also spends its stdout banner (once per process) before cvxpy's Highs
    new_highs()
    with interrupt_not_swallowed():
        import cvxpy as cp

    start = time.perf_counter()
    columns = _Columns(problem)
    rows = _Rows.of(problem)
    cvx = cp.Problem(
        cp.Maximize(columns.times(problem.objective[np.newaxis, :])[0]),
        rows.constraints(problem, columns),
    )
    name = f"cvxpy/HiGHS ({solver})"
    options = highs_options(solver, time_limit, verbose, tolerance)
    try:
        # in a worker thread so that Ctrl-C is not held up by HiGHS (which cvxpy runs
        # without an interrupt callback: it is abandoned, and the process exits)
        run_interruptibly(lambda: _solve(cvx, verbose, options))
    except cp.error.SolverError as exc:
        raise SolverError(f"{name} failed: {exc}") from exc
    solver_seconds = float(cvx.solver_stats.solve_time or 0.0)
    _raise_unless_optimal(cvx.status, name, solver_seconds)
    primal = columns.values()
    return FloatSolution(
        objective=float(cvx.value),
        primal=primal,
        duals=rows.duals(problem.shape[0]),
        row_activity=problem.matrix @ primal,
        stats=optimal_stats(
            "cvxpy",
            solver,
            seconds=time.perf_counter() - start,
            solver_seconds=solver_seconds,
            iterations=int(cvx.solver_stats.num_iters or 0),
            shape=problem.shape,
            nonzeros=problem.matrix.nnz,
        ),
        plans=problem.plans,
    )


class _Columns:
    """The LP's columns as two cvxpy variables: the free ones, then those with a bound (as
    the variable's ``bounds``, which cvxpy hands to HiGHS as column bounds, not rows).

    In this order cvxpy hands HiGHS the min-max LP exactly as it did when the LP was
    written from its blocks (``q`` free, then ``x >= 0``), so the same vertex is found.
    """

    def __init__(self, problem: LPProblem) -> None:
        with interrupt_not_swallowed():
            import cvxpy as cp

        free = np.isneginf(problem.col_lower) & np.isposinf(problem.col_upper)
        self.free, self.bounded = np.flatnonzero(free), np.flatnonzero(~free)
        lower, upper = problem.col_lower[self.bounded], problem.col_upper[self.bounded]
        self.variables = (
            cp.Variable(self.free.size, name="free"),
            cp.Variable(self.bounded.size, name="bounded", bounds=[lower, upper]),
        )

    def times(self, matrix: sp.sparray) -> Any:
        """The cvxpy expression ``matrix @ v``."""
        csr = sp.csr_array(matrix)
        terms = [
            csr[:, indices] @ variable
            for indices, variable in zip((self.free, self.bounded), self.variables, strict=True)
            if indices.size
        ]
        return sum(terms[1:], terms[0])

    def values(self) -> np.ndarray:
        """``v`` at the solution, in the LP's column order."""
        primal = np.empty(self.free.size + self.bounded.size)
        for indices, variable in zip((self.free, self.bounded), self.variables, strict=True):
            if indices.size:
                primal[indices] = variable.value
        return primal


class _Rows:
    """The LP's rows split by kind (module docstring), and their cvxpy constraints."""

    def __init__(self, equal: np.ndarray, upper: np.ndarray, lower: np.ndarray) -> None:
        self.kinds = (np.flatnonzero(equal), np.flatnonzero(upper), np.flatnonzero(lower))
        self.made: list[Any] = []

    @classmethod
    def of(cls, problem: LPProblem) -> _Rows:
        lower, upper = problem.row_lower, problem.row_upper
        equal = lower == upper
        return cls(equal, ~equal & np.isfinite(upper), ~equal & np.isfinite(lower))

    def constraints(self, problem: LPProblem, columns: _Columns) -> list[Any]:
        """``==``, ``<=``, ``>=`` rows: one vectorised constraint each, None if empty."""
        matrix = sp.csr_array(problem.matrix)
        equal, upper, lower = self.kinds
        self.made = [
            columns.times(matrix[equal]) == problem.row_upper[equal] if equal.size else None,
            columns.times(matrix[upper]) <= problem.row_upper[upper] if upper.size else None,
            columns.times(matrix[lower]) >= problem.row_lower[lower] if lower.size else None,
        ]
        return [made for made in self.made if made is not None]

    def duals(self, rows: int) -> np.ndarray:
        """The rows' multipliers under the sign rule: ``==`` and ``<=`` as cvxpy gives
        them, minus the ``>=`` ones."""
        duals = np.zeros(rows)
        for sign, indices, made in zip((1, 1, -1), self.kinds, self.made, strict=True):
            if made is not None:
                duals[indices] += sign * np.asarray(made.dual_value, dtype=float)
        return duals


def _raise_unless_optimal(status: str, name: str, seconds: float) -> None:
    with interrupt_not_swallowed():
        import cvxpy as cp

    if status == cp.USER_LIMIT:
        # cvxpy reports a HiGHS time limit as "user_limit" with values that are not a
        # solution; measure nothing from them.
        raise SolverLimitError(
            f"{name} stopped at a limit (status {status!r}) after {seconds:.1f} s; "
            "no proven solution",
            None,
        )
    if status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE):
        raise InfeasibleError(f"{name} did not prove optimality: the linear program is infeasible")
    if status != cp.OPTIMAL:
        raise SolverError(f"{name} did not prove optimality: status {status!r}")


def _solve(problem: Any, verbose: bool, options: dict[str, Any]) -> None:
    """``problem.solve`` by HiGHS, without cvxpy's "Solution may be inaccurate" warning:
    the status it warns about (a limit) is reported as :class:`SolverLimitError`."""
    with interrupt_not_swallowed():
        import cvxpy as cp

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Solution may be inaccurate")
        problem.solve(
            solver=cp.HIGHS, canon_backend="SCIPY", verbose=verbose, highs_options=options
        )
