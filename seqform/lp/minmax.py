"""The min-max linear program of a two-player zero-sum game, solved by HiGHS.

Player 0 maximises and player 1 minimises ``x @ A @ y`` over realization plans,
``E x = e, x >= 0`` and ``F y = f, y >= 0`` (Koller, Megiddo and von Stengel 1996).
For fixed ``x`` the inner minimisation over ``y`` is an LP whose dual is
``max f @ q  s.t.  F.T @ q <= A.T @ x`` with ``q`` free (KMvS 1996, eq. 11); merging the
two gives one LP in ``(x, q)``:

    maximise    f @ q
    subject to  F.T @ q - A.T @ x <= 0        (one row per sequence of player 1)
                E @ x             == e        (one row per constraint of player 0)
                x >= 0,  q free.

Its optimum is the value of the game to player 0, ``x`` is an optimal plan of player 0,
and the dual multipliers ``y >= 0`` of the first block form an optimal plan of player 1
(LP duality: they satisfy ``F y = f`` and minimise ``max_x x @ A @ y``).

A matrix game is the special case ``E = F = (1 ... 1)``, ``e = f = (1)``, so the normal
form (``seqform.forms.normal_form``) uses the same function.

The rows, columns and coefficients come from :func:`seqform.lp.merged.merged_lp`, the one
writing of this LP, which also gives the exact program of :mod:`seqform.lp.exact.minmax`.
Two backends return the same :class:`LPSolution`:

* ``"highs"`` (default) passes the CSC matrix straight to ``highspy``
  (:mod:`seqform.lp.highs`);
* ``"cvxpy"`` writes the model with vectorised constraints in cvxpy and solves it with
  HiGHS through cvxpy (``canon_backend="SCIPY"``).

Both accept only a proven optimum; anything else raises :class:`SolverError`.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from seqform.lp.highs import (
    highs_lp,
    highs_options,
    highs_solver,
    new_highs,
    raise_unless_optimal,
    run_highs,
)
from seqform.lp.interrupt import run_interruptibly
from seqform.lp.merged import Coordinates, MergedLP, merged_lp
from seqform.lp.solvers import (
    ALGORITHMS,
    BACKENDS,
    Algorithm,
    Backend,
    SolverError,
    SolverLimitError,
    SolverStats,
    optimal_stats,
)

if TYPE_CHECKING:
    import highspy

__all__ = ["LPSolution", "float_merged_lp", "highs_model", "solve_minmax"]


@dataclass(frozen=True)
class LPSolution:
    """An optimal solution of the min-max LP.

    value : the optimum ``f @ q``, the game's value to player 0
    x : optimal realization plan (or mixed strategy) of player 0
    y : optimal plan of player 1, the duals of ``F.T q <= A.T x``
    q : the free variables, one per row of ``F``
    """

    value: float
    x: np.ndarray
    y: np.ndarray
    q: np.ndarray
    stats: SolverStats


def float_merged_lp(
    E: sp.sparray, e: np.ndarray, F: sp.sparray, f: np.ndarray, A: sp.sparray
) -> MergedLP:
    """The merged LP of the module docstring in floats (:func:`seqform.lp.merged.merged_lp`)."""
    return merged_lp(
        Coordinates.of(E),
        np.asarray(e, dtype=float),
        Coordinates.of(F),
        np.asarray(f, dtype=float),
        Coordinates.of(A),
    )


def highs_model(
    E: sp.sparray, e: np.ndarray, F: sp.sparray, f: np.ndarray, A: sp.sparray
) -> highspy.HighsLp:
    """The merged LP of the module docstring as a ``highspy.HighsLp`` (columns ``x, q``).

    Columns: ``x`` (one per column of ``E``, ``>= 0``), then ``q`` (one per row of ``F``,
    free).  Rows: one ``<= 0`` row per sequence of player 1, then the equality rows
    ``E x = e``.
    """
    lp = float_merged_lp(E, e, F, f, A)
    return highs_lp(
        lp.matrix.csc(),
        objective=lp.objective,
        col_lower=lp.col_lower,
        col_upper=lp.col_upper,
        row_lower=lp.row_lower,
        row_upper=lp.row_upper,
    )


def solve_minmax(
    E: sp.sparray,
    e: np.ndarray,
    F: sp.sparray,
    f: np.ndarray,
    A: sp.sparray,
    *,
    backend: Backend = "highs",
    algorithm: Algorithm = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
) -> LPSolution:
    """Solve ``max_x min_y x @ A @ y`` over ``E x = e, F y = f, x, y >= 0`` as one LP.

    Parameters
    ----------
    E, e, F, f, A
        The sequence form (or a matrix game with ``E = F = ones``); see the module
        docstring for the LP (KMvS 1996, eq. 11).
    backend
        ``"highs"`` (direct highspy) or ``"cvxpy"``.
    algorithm
        HiGHS's ``"simplex"`` (default), ``"ipm"`` (interior point, with crossover) or
        ``"pdlp"`` (first order, for very large games; its answers are approximate).
    time_limit
        Seconds before the solver gives up (then :class:`SolverLimitError`).
    verbose
        Let the solver write its log (to stdout, as HiGHS does).

    Raises
    ------
    SolverError
        If the LP is not solved to proven optimality (:class:`SolverLimitError` for a
        time or iteration limit).
    ValueError
        For an unknown backend or algorithm, or matrices of inconsistent shapes.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    if A.shape != (E.shape[1], F.shape[1]):
        raise ValueError(
            f"A has shape {A.shape} but E and F have {E.shape[1]} and {F.shape[1]} columns"
        )
    solve = _solve_highs if backend == "highs" else _solve_cvxpy
    return solve(E, e, F, f, A, algorithm, time_limit, verbose).solution(backend, algorithm)


@dataclass(frozen=True)
class _Optimum:
    """A backend's proven optimum as the solver gave it, and what the solver reported.

    x, y : the plans, before clipping the solver's round-off below 0
    seconds : wall time of building and solving the LP; solver_seconds : the solver's own
    shape : (rows, columns) of the LP as the backend built it; nonzeros : its entries
    """

    value: float
    x: np.ndarray
    y: np.ndarray
    q: np.ndarray
    seconds: float
    solver_seconds: float
    iterations: int
    shape: tuple[int, int]
    nonzeros: int

    def solution(self, backend: str, algorithm: str) -> LPSolution:
        """The :class:`LPSolution`: plans clipped at 0, stats of a proven optimum."""
        return LPSolution(
            value=self.value,
            x=np.maximum(self.x, 0.0),
            y=np.maximum(self.y, 0.0),
            q=self.q,
            stats=optimal_stats(
                backend,
                algorithm,
                seconds=self.seconds,
                solver_seconds=self.solver_seconds,
                iterations=self.iterations,
                shape=self.shape,
                nonzeros=self.nonzeros,
            ),
        )


def _solve_highs(
    E: sp.sparray,
    e: np.ndarray,
    F: sp.sparray,
    f: np.ndarray,
    A: sp.sparray,
    algorithm: str,
    time_limit: float | None,
    verbose: bool,
) -> _Optimum:
    start = time.perf_counter()
    n_x, n_ineq = E.shape[1], F.shape[1]
    lp = highs_model(E, e, F, f, A)
    highs = highs_solver(algorithm, time_limit, verbose, model=lp)
    run = run_highs(highs)
    columns, duals = run.columns, run.row_duals
    plans = (columns[:n_x].copy(), np.abs(duals[:n_ineq])) if run.point_valid else None
    raise_unless_optimal(run, algorithm=algorithm, plans=plans, check_solutions=True)
    # HiGHS reports the row duals of a maximisation with the sign of the objective's
    # sensitivity, so a binding "<=" row has a dual >= 0: these are the multipliers y of
    # the Lagrangian f@q - y@(F.T q - A.T x) directly.
    return _Optimum(
        value=run.objective,
        x=columns[:n_x],
        y=duals[:n_ineq],
        q=columns[n_x:].copy(),
        seconds=time.perf_counter() - start,
        solver_seconds=run.seconds,
        iterations=run.iterations,
        shape=(lp.num_row_, lp.num_col_),
        nonzeros=len(lp.a_matrix_.value_),
    )


def _solve_cvxpy(
    E: sp.sparray,
    e: np.ndarray,
    F: sp.sparray,
    f: np.ndarray,
    A: sp.sparray,
    algorithm: str,
    time_limit: float | None,
    verbose: bool,
) -> _Optimum:
    import cvxpy as cp

    new_highs()  # spends highspy 1.16's stdout banner (once per process) before cvxpy's Highs
    start = time.perf_counter()
    x = cp.Variable(E.shape[1], nonneg=True, name="x")
    q = cp.Variable(F.shape[0], name="q")
    best_reply = F.T @ q <= A.T @ x  # KMvS eq. 11: y are this constraint's multipliers
    constraints = [E @ x == e, best_reply]
    problem = cp.Problem(cp.Maximize(f @ q), constraints)
    try:
        # in a worker thread so that Ctrl-C is not held up by HiGHS (which cvxpy runs
        # without an interrupt callback: it is abandoned, and the process exits)
        run_interruptibly(lambda: _cvxpy_solve(problem, algorithm, time_limit, verbose))
    except cp.error.SolverError as exc:
        raise SolverError(f"cvxpy/HiGHS ({algorithm}) failed: {exc}") from exc
    stats_in = problem.solver_stats
    solver_seconds = float(stats_in.solve_time or 0.0)
    iterations = int(stats_in.num_iters or 0)
    if problem.status == cp.USER_LIMIT:
        # cvxpy reports a HiGHS time limit as "user_limit" with values that are not a
        # solution; measure nothing from them.
        raise SolverLimitError(
            f"cvxpy/HiGHS ({algorithm}) stopped at a limit (status {problem.status!r}) "
            f"after {solver_seconds:.1f} s; no proven solution",
            None,
        )
    if problem.status != cp.OPTIMAL:
        raise SolverError(
            f"cvxpy/HiGHS ({algorithm}) did not prove optimality: status {problem.status!r}"
        )
    return _Optimum(
        value=float(problem.value),
        x=np.asarray(x.value, dtype=float),
        y=np.asarray(best_reply.dual_value, dtype=float),
        q=np.asarray(q.value, dtype=float),
        seconds=time.perf_counter() - start,
        solver_seconds=solver_seconds,
        iterations=iterations,
        shape=(E.shape[0] + F.shape[1], E.shape[1] + F.shape[0]),
        nonzeros=E.nnz + F.nnz + A.nnz,
    )


def _cvxpy_solve(problem: Any, algorithm: str, time_limit: float | None, verbose: bool) -> None:
    """``problem.solve`` by HiGHS, without cvxpy's "Solution may be inaccurate" warning:
    the status it warns about (a limit) is reported as :class:`SolverLimitError`."""
    import cvxpy as cp

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Solution may be inaccurate")
        problem.solve(
            solver=cp.HIGHS,
            canon_backend="SCIPY",
            verbose=verbose,
            highs_options=highs_options(algorithm, time_limit, verbose),
        )
