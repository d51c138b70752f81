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

Two backends return the same :class:`LPSolution`:

* ``"highs"`` (default) passes the CSC matrix straight to ``highspy``;
* ``"cvxpy"`` writes the model with vectorised constraints in cvxpy and solves it with
  HiGHS through cvxpy (``canon_backend="SCIPY"``).

Both accept only a proven optimum; anything else raises :class:`SolverError`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    import highspy

__all__ = [
    "ALGORITHMS",
    "BACKENDS",
    "LPSolution",
    "SolverError",
    "SolverLimitError",
    "SolverStats",
    "highs_model",
    "highs_options",
    "highs_solver",
    "solve_minmax",
]

logger = logging.getLogger(__name__)

Backend = Literal["highs", "cvxpy"]
Algorithm = Literal["simplex", "ipm", "pdlp"]
BACKENDS: tuple[str, ...] = ("highs", "cvxpy")
ALGORITHMS: tuple[str, ...] = ("simplex", "ipm", "pdlp")


class SolverError(RuntimeError):
    """The LP solver did not return a proven optimal solution."""


class SolverLimitError(SolverError):
    """The solver stopped at a time or iteration limit.

    ``plans`` holds the primal point it had, ``(x, y)``, when the solver offered one, so
    that the caller can measure how good it is (by best response); otherwise ``None``.
    """

    def __init__(self, message: str, plans: tuple[np.ndarray, np.ndarray] | None) -> None:
        super().__init__(message)
        self.plans = plans


@dataclass(frozen=True)
class SolverStats:
    """What the solver did: backend, algorithm, final status, time and iterations."""

    backend: str
    algorithm: str
    status: str
    seconds: float  # wall time of building and solving the LP
    solver_seconds: float  # time reported by the solver itself
    iterations: int
    variables: int
    constraints: int
    nonzeros: int


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


def _stack(E: sp.sparray, F: sp.sparray, A: sp.sparray) -> sp.csc_array:
    """The constraint matrix ``[[-A.T, F.T], [E, 0]]`` of the merged LP, in CSC."""
    return sp.block_array([[-A.T, F.T], [E, None]], format="csc")


def highs_model(
    E: sp.sparray, e: np.ndarray, F: sp.sparray, f: np.ndarray, A: sp.sparray
) -> highspy.HighsLp:
    """The merged LP of the module docstring as a ``highspy.HighsLp`` (columns ``x, q``).

    Columns: ``x`` (one per column of ``E``, named ``x0, x1, ...``, ``>= 0``), then ``q``
    (one per row of ``F``, free).  Rows: one ``<= 0`` row per sequence of player 1, then
    the equality rows ``E x = e``.
    """
    import highspy

    n_x, n_q = E.shape[1], F.shape[0]
    n_ineq, n_eq = F.shape[1], E.shape[0]
    matrix = _stack(E, F, A)
    lp = highspy.HighsLp()
    lp.num_col_ = n_x + n_q
    lp.num_row_ = n_ineq + n_eq
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_cost_ = np.concatenate([np.zeros(n_x), np.asarray(f, dtype=float)])
    lp.col_lower_ = np.concatenate([np.zeros(n_x), np.full(n_q, -highspy.kHighsInf)])
    lp.col_upper_ = np.full(n_x + n_q, highspy.kHighsInf)
    lp.row_lower_ = np.concatenate([np.full(n_ineq, -highspy.kHighsInf), e])
    lp.row_upper_ = np.concatenate([np.zeros(n_ineq), e])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.num_col_ = n_x + n_q
    lp.a_matrix_.num_row_ = n_ineq + n_eq
    lp.a_matrix_.start_ = matrix.indptr.astype(np.int32)
    lp.a_matrix_.index_ = matrix.indices.astype(np.int32)
    lp.a_matrix_.value_ = matrix.data.astype(float)
    return lp


def highs_options(
    algorithm: str, time_limit: float | None, verbose: bool = False
) -> dict[str, object]:
    """HiGHS's options for an algorithm, a time limit (seconds) and the log.

    ``"ipm"`` runs crossover, so that it ends at a basis.  ``"pdlp"`` runs without presolve:
    HiGHS (1.15) cannot postsolve a first-order solution to a status better than "unknown"
    even when PDLP converged, while on the original LP it reports "optimal" at its
    tolerances (relative gap 1e-7).
    """
    options: dict[str, object] = {"output_flag": verbose, "solver": algorithm}
    if algorithm == "ipm":
        options["run_crossover"] = "on"
    if algorithm == "pdlp":
        options["presolve"] = "off"
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    return options


def highs_solver(algorithm: str, time_limit: float | None, verbose: bool = False) -> highspy.Highs:
    """An empty ``highspy.Highs`` with the options of :func:`highs_options`."""
    import highspy

    highs = highspy.Highs()
    for name, value in highs_options(algorithm, time_limit, verbose).items():
        highs.setOptionValue(name, value)
    return highs


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
    if backend == "highs":
        return _solve_highs(E, e, F, f, A, algorithm, time_limit, verbose)
    return _solve_cvxpy(E, e, F, f, A, algorithm, time_limit, verbose)


def _solve_highs(
    E: sp.sparray,
    e: np.ndarray,
    F: sp.sparray,
    f: np.ndarray,
    A: sp.sparray,
    algorithm: str,
    time_limit: float | None,
    verbose: bool,
) -> LPSolution:
    import highspy

    start = time.perf_counter()
    n_x, n_q = E.shape[1], F.shape[0]
    n_ineq, n_eq = F.shape[1], E.shape[0]
    lp = highs_model(E, e, F, f, A)
    nonzeros = len(lp.a_matrix_.value_)

    highs = highs_solver(algorithm, time_limit, verbose)
    highs.passModel(lp)
    solver_start = time.perf_counter()
    highs.run()
    solver_seconds = time.perf_counter() - solver_start

    model_status = highs.getModelStatus()
    info = highs.getInfo()
    status_text = highs.modelStatusToString(model_status)
    solution = highs.getSolution()
    iterations = int(
        max(info.simplex_iteration_count, 0)
        + max(info.ipm_iteration_count, 0)
        + max(info.pdlp_iteration_count, 0)
    )
    columns = np.asarray(solution.col_value, dtype=float)
    duals = np.asarray(solution.row_dual, dtype=float)
    feasible = highspy.SolutionStatus.kSolutionStatusFeasible
    if model_status in (
        highspy.HighsModelStatus.kTimeLimit,
        highspy.HighsModelStatus.kIterationLimit,
    ):
        plans = None
        if solution.value_valid and solution.dual_valid:
            plans = (columns[:n_x].copy(), np.abs(duals[:n_ineq]))
        raise SolverLimitError(
            f"HiGHS ({algorithm}) stopped ({status_text.lower()}) after "
            f"{solver_seconds:.1f} s and {iterations} iterations; no proven solution",
            plans,
        )
    if (
        model_status != highspy.HighsModelStatus.kOptimal
        or info.primal_solution_status != feasible
        or info.dual_solution_status != feasible
    ):
        raise SolverError(
            f"HiGHS ({algorithm}) did not prove optimality: model status {status_text!r}, "
            f"primal solution {highs.solutionStatusToString(info.primal_solution_status)!r}, "
            f"dual solution {highs.solutionStatusToString(info.dual_solution_status)!r}"
        )
    # HiGHS reports the row duals of a maximisation with the sign of the objective's
    # sensitivity, so a binding "<=" row has a dual >= 0: these are the multipliers y of
    # the Lagrangian f@q - y@(F.T q - A.T x) directly.
    y = np.maximum(duals[:n_ineq], 0.0)
    stats = SolverStats(
        backend="highs",
        algorithm=algorithm,
        status="optimal",
        seconds=time.perf_counter() - start,
        solver_seconds=solver_seconds,
        iterations=iterations,
        variables=n_x + n_q,
        constraints=n_ineq + n_eq,
        nonzeros=nonzeros,
    )
    return LPSolution(
        value=float(info.objective_function_value),
        x=np.maximum(columns[:n_x], 0.0),
        y=y,
        q=columns[n_x:].copy(),
        stats=stats,
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
) -> LPSolution:
    import cvxpy as cp

    start = time.perf_counter()
    x = cp.Variable(E.shape[1], nonneg=True, name="x")
    q = cp.Variable(F.shape[0], name="q")
    best_reply = F.T @ q <= A.T @ x  # KMvS eq. 11: y are this constraint's multipliers
    constraints = [E @ x == e, best_reply]
    problem = cp.Problem(cp.Maximize(f @ q), constraints)
    try:
        problem.solve(
            solver=cp.HIGHS,
            canon_backend="SCIPY",
            verbose=verbose,
            highs_options=highs_options(algorithm, time_limit, verbose),
        )
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
    n_vars = E.shape[1] + F.shape[0]
    return LPSolution(
        value=float(problem.value),
        x=np.maximum(np.asarray(x.value, dtype=float), 0.0),
        y=np.maximum(np.asarray(best_reply.dual_value, dtype=float), 0.0),
        q=np.asarray(q.value, dtype=float),
        stats=SolverStats(
            backend="cvxpy",
            algorithm=algorithm,
            status="optimal",
            seconds=time.perf_counter() - start,
            solver_seconds=solver_seconds,
            iterations=iterations,
            variables=n_vars,
            constraints=E.shape[0] + F.shape[1],
            nonzeros=int(E.nnz + F.nnz + A.nnz),
        ),
    )
