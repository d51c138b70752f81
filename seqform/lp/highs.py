"""The one wrapper of HiGHS (Huangfu and Hall 2018) through ``highspy``.

An :class:`~seqform.lp.problem.LPProblem` (``maximise c @ v`` s.t. ``row_lower <= M v <=
row_upper``, ``col_lower <= v <= col_upper``) becomes a ``HighsLp`` (:func:`highs_lp`); the
options of a solver are set once (:func:`highs_options`); a :class:`HighsSession`
holds the model, runs it (Ctrl-C and progress by :mod:`seqform.lp.highs_watch`) and returns
a :class:`~seqform.lp.problem.FloatSolution`, every status but a proven optimum turned into
:class:`~seqform.lp.solvers.SolverError`, :class:`~seqform.lp.solvers.InfeasibleError` or
:class:`~seqform.lp.solvers.SolverLimitError` here.  HiGHS reports a maximisation's row
duals with the sign of the objective's sensitivity to the row's bound, which is the sign
rule of :mod:`seqform.lp.problem`: they are taken as they come.

One-shot solves go through :func:`seqform.lp.run.run_lp`; a session is kept where one model
is solved again with other objectives or coefficients, warm-started
(:class:`seqform.lp.exact.program.HighsModel`).  The MPS export writes the same model.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from seqform.base.interrupt import interrupt_held
from seqform.lp.highs_watch import log_status, watched
from seqform.lp.problem import Basis, FloatSolution, LPProblem
from seqform.lp.solvers import InfeasibleError, SolverError, SolverLimitError, optimal_stats

if TYPE_CHECKING:
    import highspy

__all__ = [
    "HighsOption",
    "HighsSession",
    "highs_lp",
    "highs_options",
    "highs_solver",
    "log_status",
    "new_highs",
    "write_model",
]

logger = logging.getLogger(__name__)


HighsOption = bool | int | float | str
"""The value of one HiGHS option (``Highs.setOptionValue``)."""


def highs_lp(problem: LPProblem) -> highspy.HighsLp:
    """``problem`` as a ``highspy.HighsLp`` (a maximisation, the matrix column-wise)."""
    with interrupt_held():
        import highspy

    matrix = problem.matrix
    rows, columns = problem.shape
    lp = highspy.HighsLp()
    lp.num_col_ = columns
    lp.num_row_ = rows
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_cost_ = np.asarray(problem.objective, dtype=float)
    lp.col_lower_ = np.asarray(problem.col_lower, dtype=float)
    lp.col_upper_ = np.asarray(problem.col_upper, dtype=float)
    lp.row_lower_ = np.asarray(problem.row_lower, dtype=float)
    lp.row_upper_ = np.asarray(problem.row_upper, dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.num_col_ = columns
    lp.a_matrix_.num_row_ = rows
    lp.a_matrix_.start_ = matrix.indptr.astype(np.int32)
    lp.a_matrix_.index_ = matrix.indices.astype(np.int32)
    lp.a_matrix_.value_ = matrix.data.astype(float)
    return lp


def highs_options(
    solver: str,
    time_limit: float | None,
    verbose: bool = False,
    tolerance: float | None = None,
    crossover: bool = True,
) -> dict[str, HighsOption]:
    """HiGHS's options for a solver, a time limit (seconds), the log and the primal
    and dual feasibility tolerance (HiGHS's default, 1e-7, when None).

    ``"ipm"`` runs crossover, so that it ends at a basis, unless ``crossover`` is False: it
    then stops at its interior point, and ``tolerance`` is its optimality tolerance instead
    (the relative gap, ``ipm_optimality_tolerance``; HiGHS's default 1e-8), the
    feasibility tolerances keeping their defaults.  ``"pdlp"`` runs without presolve:
    HiGHS (1.15) cannot postsolve a first-order solution to a status better than "unknown"
    even when PDLP converged, while on the original LP it reports "optimal" at its
    tolerances (relative gap 1e-7).
    """
    options: dict[str, HighsOption] = {"output_flag": verbose, "solver": solver}
    interior = solver == "ipm" and not crossover
    if solver == "ipm":
        options["run_crossover"] = "off" if interior else "on"
    if solver == "pdlp":
        options["presolve"] = "off"
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    if interior and tolerance is not None:
        options["ipm_optimality_tolerance"] = float(tolerance)
    elif tolerance is not None:
        options["primal_feasibility_tolerance"] = float(tolerance)
        options["dual_feasibility_tolerance"] = float(tolerance)
    return options


def highs_solver(
    solver: str,
    time_limit: float | None,
    verbose: bool = False,
    model: highspy.HighsLp | None = None,
    tolerance: float | None = None,
    crossover: bool = True,
) -> highspy.Highs:
    """A ``highspy.Highs`` with the options of :func:`highs_options`, holding ``model``."""
    highs = new_highs()
    options = highs_options(solver, time_limit, verbose, tolerance, crossover)
    for name, value in options.items():
        highs.setOptionValue(name, value)
    if model is not None:
        highs.passModel(model)
    return highs


def new_highs() -> highspy.Highs:
    """A new ``highspy.Highs``; what HiGHS prints on stdout while making it is discarded.

    highspy 1.16 prints a two-line banner ("Running HiGHS 1.16.0 ...") on the process's
    stdout (file descriptor 1, from C++) when the first ``Highs`` of a process is made, before
    any option such as ``output_flag`` can be set, so it would open every report on stdout.
    File descriptor 1 points at the null device while the object is made (C's buffer
    flushed before it is restored).  As HiGHS prints the banner once per process, the
    first ``Highs`` made here also spends it for cvxpy's own.
    """
    with interrupt_held():
        import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        highs = highspy.Highs()
        with contextlib.suppress(OSError, AttributeError, TypeError):  # no libc (Windows)
            ctypes.CDLL(None).fflush(None)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)
    return highs


def write_model(model: highspy.HighsLp, path: str) -> bool:
    """Write ``model`` to ``path`` (HiGHS picks the format by the suffix); False on error."""
    with interrupt_held():
        import highspy

    highs = new_highs()
    highs.setOptionValue("output_flag", False)
    highs.passModel(model)
    return highs.writeModel(path) != highspy.HighsStatus.kError


class HighsSession:
    """An :class:`~seqform.lp.problem.LPProblem` loaded into HiGHS, solved once or again
    after changes made to :attr:`highs` (objective, coefficients: warm-started).

    Parameters
    ----------
    problem
        The LP; its :class:`~seqform.lp.problem.PlanLayout`, if any, gives the point handed
        to :class:`~seqform.lp.solvers.SolverLimitError` at a limit.
    solver
        ``"simplex"``, ``"ipm"`` (with crossover) or ``"pdlp"``.
    time_limit, verbose, tolerance, crossover
        As for :func:`highs_options`; an interior point without crossover is reported as
        the solver ``"ipm without crossover"``.
    """

    def __init__(
        self,
        problem: LPProblem,
        solver: str,
        *,
        time_limit: float | None = None,
        verbose: bool = False,
        tolerance: float | None = None,
        crossover: bool = True,
    ) -> None:
        start = time.perf_counter()
        self.problem = problem
        self.solver = solver
        self.crossover = crossover
        self.highs = highs_solver(
            solver, time_limit, verbose, highs_lp(problem), tolerance, crossover
        )
        self._building = time.perf_counter() - start  # counted in the first solve's seconds

    def set_basis(self, basis: Basis) -> None:
        """Start the next solve from ``basis`` (HiGHS status codes per column and row), as
        iterative refinement does (:mod:`seqform.lp.exact.refinement`).

        Raises
        ------
        SolverError
            If HiGHS refuses the basis (its shape is not the problem's).
        """
        with interrupt_held():
            import highspy

        warm = highspy.HighsBasis()
        warm.col_status = [highspy.HighsBasisStatus(int(s)) for s in basis.col_status]
        warm.row_status = [highspy.HighsBasisStatus(int(s)) for s in basis.row_status]
        warm.valid = True
        if self.highs.setBasis(warm) == highspy.HighsStatus.kError:
            raise SolverError("HiGHS refused the basis to start from")

    def solve(self, *, basis: bool = False) -> FloatSolution:
        """Run HiGHS; the proven optimum, with the optimal basis if ``basis`` (and HiGHS
        has one).

        A status "unknown" (a warm start can stall numerically) is retried without the
        warm start and then, for simplex, by interior point with crossover.

        Raises
        ------
        SolverLimitError
            At a time or iteration limit (with the point's plans when HiGHS has one).
        InfeasibleError
            If the LP has no feasible point.
        SolverError
            For any other status, or an "optimal" whose solutions HiGHS does not call
            feasible.
        """
        with interrupt_held():
            import highspy

        highs = self.highs
        start = time.perf_counter()
        with watched(highs) as run:
            run()
            status = highs.getModelStatus()
            unknown = (highspy.HighsModelStatus.kUnknown, highspy.HighsModelStatus.kNotset)
            if status in unknown and self.solver != "pdlp":
                status = _retry(highs, self.solver, run)
        seconds = time.perf_counter() - start
        info, solution = highs.getInfo(), highs.getSolution()
        primal = np.asarray(solution.col_value, dtype=float)
        duals = np.asarray(solution.row_dual, dtype=float)  # the sign rule, as they come
        iterations = int(
            max(info.simplex_iteration_count, 0)
            + max(info.ipm_iteration_count, 0)
            + max(info.pdlp_iteration_count, 0)
        )
        valid = bool(solution.value_valid and solution.dual_valid)
        point = self.problem.point(primal, duals) if valid else None
        _raise_unless_optimal(highs, status, f"HiGHS ({self.solver})", seconds, iterations, point)
        building, self._building = self._building, 0.0
        return FloatSolution(
            objective=float(info.objective_function_value),
            primal=primal,
            duals=duals,
            row_activity=np.asarray(solution.row_value, dtype=float),
            stats=optimal_stats(
                "highs",
                self.solver if self.crossover else f"{self.solver} without crossover",
                seconds=seconds + building,
                solver_seconds=seconds,
                iterations=iterations,
                shape=self.problem.shape,
                nonzeros=self.problem.matrix.nnz,
            ),
            basis=_basis(highs) if basis else None,
            plans=self.problem.plans,
        )


def _basis(highs: highspy.Highs) -> Basis | None:
    basis = highs.getBasis()
    if not basis.valid:
        return None
    return Basis(
        col_status=np.array([int(s) for s in basis.col_status], dtype=np.int64),
        row_status=np.array([int(s) for s in basis.row_status], dtype=np.int64),
    )


def _retry(
    highs: highspy.Highs, solver: str, run: Callable[[], object]
) -> highspy.HighsModelStatus:
    """Solve again cold, then (for simplex) by interior point; the new model status."""
    with interrupt_held():
        import highspy

    logger.info("HiGHS returned status unknown; retrying without the warm start")
    highs.clearSolver()
    run()
    status = highs.getModelStatus()
    if status == highspy.HighsModelStatus.kUnknown and solver == "simplex":
        highs.setOptionValue("solver", "ipm")
        highs.setOptionValue("run_crossover", "on")
        highs.clearSolver()
        run()
        status = highs.getModelStatus()
        highs.setOptionValue("solver", "simplex")
    return status


def _raise_unless_optimal(
    highs: highspy.Highs,
    status: highspy.HighsModelStatus,
    name: str,
    seconds: float,
    iterations: int,
    point: tuple[np.ndarray, np.ndarray] | None,
) -> None:
    """Raise unless HiGHS proved an optimum with feasible primal and dual solutions; the
    one place HiGHS's statuses become errors (``name`` opens the messages)."""
    with interrupt_held():
        import highspy

    statuses = highspy.HighsModelStatus
    text = highs.modelStatusToString(status)
    if status in (statuses.kTimeLimit, statuses.kIterationLimit):
        raise SolverLimitError(
            f"{name} stopped ({text.lower()}) after {seconds:.1f} s and {iterations} "
            "iterations; no proven solution",
            point,
        )
    if status in (statuses.kInfeasible, statuses.kUnboundedOrInfeasible):
        kind = "infeasible" if status == statuses.kInfeasible else "infeasible or unbounded"
        raise InfeasibleError(f"{name} did not prove optimality: the linear program is {kind}")
    info = highs.getInfo()
    feasible = highspy.SolutionStatus.kSolutionStatusFeasible
    if status != statuses.kOptimal or not (
        info.primal_solution_status == feasible and info.dual_solution_status == feasible
    ):
        raise SolverError(
            f"{name} did not prove optimality: model status {text!r}, primal solution "
            f"{highs.solutionStatusToString(info.primal_solution_status)!r}, dual solution "
            f"{highs.solutionStatusToString(info.dual_solution_status)!r}"
        )
