"""Clarabel (Goulart and Chen 2024), an interior-point method with a direct sparse LDL
factorisation, on an :class:`~seqform.lp.problem.LPProblem`.

The LP is ``maximise c @ v`` s.t. ``row_lower <= M v <= row_upper``, ``col_lower <= v <=
col_upper``, restricted to what the min-max LPs need: each row an equality or a ``<=`` row,
each column ``>= 0`` or free.  Clarabel's form is ``min −c @ v`` s.t. ``K v + s = b`` with
``s`` in cones: the equality rows (zero cone), then the ``<=`` rows and ``−v_j <= 0`` for
the non-negative columns (non-negative cone).  Its dual ``z`` satisfies ``K.T z = c`` (from
``min −c @ v``: ``−c + K.T z = 0``), so on the LP's rows ``z`` is the multiplier ``π`` of
``L(v, π) = c @ v − π @ (M v − b)``: the sign rule of :mod:`seqform.lp.problem`, taken as
it comes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from seqform.base.child import child_processes, run_in_child
from seqform.base.interrupt import interrupt_held, run_interruptibly
from seqform.base.progress import ProgressListener, Step, current_listener, report
from seqform.lp.presolve import Reduction, reduce_problem
from seqform.lp.problem import FloatSolution, LPProblem
from seqform.lp.solvers import SolverError, SolverLimitError, SolverStats, optimal_stats

__all__ = ["run_clarabel"]


@dataclass(frozen=True)
class _ConicForm:
    """The LP in Clarabel's form ``K v + s = b``: ``s`` in the zero cone on the equality
    rows, in the non-negative cone on the ``<=`` rows and the rows ``−v_j <= 0``.

    equality_rows, inequality_rows : the LP's rows in each cone, in ``K``'s order
    signed_columns : how many columns are ``>= 0`` (one bound row each, at the end)
    """

    matrix: sp.csc_matrix
    rhs: np.ndarray
    equality_rows: np.ndarray
    inequality_rows: np.ndarray
    signed_columns: int

    def cones(self) -> list[object]:
        with interrupt_held():
            import clarabel

        return [
            clarabel.ZeroConeT(self.equality_rows.size),
            clarabel.NonnegativeConeT(self.inequality_rows.size + self.signed_columns),
        ]

    def row_duals(self, duals: np.ndarray, rows: int) -> np.ndarray:
        """The multipliers of the LP's rows, in its row order, from Clarabel's ``z``."""
        equalities, inequalities = self.equality_rows.size, self.inequality_rows.size
        out = np.empty(rows)
        out[self.equality_rows] = duals[:equalities]
        out[self.inequality_rows] = duals[equalities : equalities + inequalities]
        return out


def _conic_form(problem: LPProblem) -> _ConicForm:
    """Clarabel's form of the LP (module docstring); ValueError for a row or column bound
    it does not cover."""
    row_lower, row_upper, col_lower = problem.row_lower, problem.row_upper, problem.col_lower
    equal = row_lower == row_upper
    if not np.all(np.isneginf(row_lower[~equal])):
        raise ValueError("Clarabel is given only equality and '<=' rows")
    if not np.all((col_lower == 0) | np.isneginf(col_lower)) or not np.all(
        np.isposinf(problem.col_upper)
    ):
        raise ValueError("Clarabel is given only columns >= 0 or free")
    columns = problem.shape[1]
    csr = sp.csr_array(problem.matrix)
    equality_rows, inequality_rows = np.flatnonzero(equal), np.flatnonzero(~equal)
    signed = np.flatnonzero(col_lower == 0)
    bounds = sp.csr_array(
        (-np.ones(signed.size), (np.arange(signed.size), signed)), shape=(signed.size, columns)
    )
    stacked = sp.vstack([csr[equality_rows], csr[inequality_rows], bounds], format="csc")
    rhs = np.concatenate(
        [row_upper[equality_rows], row_upper[inequality_rows], np.zeros(signed.size)]
    )
    return _ConicForm(sp.csc_matrix(stacked), rhs, equality_rows, inequality_rows, signed.size)


def run_clarabel(
    problem: LPProblem,
    *,
    time_limit: float | None = None,
    verbose: bool = False,
    tolerance: float = 1e-8,
    refinement: bool = True,
    almost: bool = False,
    presolve: bool = False,
) -> FloatSolution:
    """Maximise the LP with Clarabel at gap and feasibility ``tolerance``; its proven
    optimum (only a status "Solved", not "AlmostSolved").

    ``almost=True`` returns an "AlmostSolved" point too, status ``"almost solved"``, for a
    caller that certifies it (:func:`seqform.routes.structured._lp_stages` says why).

    ``refinement`` is Clarabel's iterative refinement of each solve with its factorised
    KKT matrix (its default, on); off, each linear solve is one pair of triangular solves
    (:func:`seqform.routes.structured.clarabel_refinement` says when that is enough).

    ``presolve`` first takes out the LP's doubleton equalities and free doubleton columns
    (:mod:`seqform.lp.presolve`: the one-action information sets) and maps Clarabel's
    answer back to ``problem``'s rows and columns; Clarabel itself does no such presolve.

    Ctrl-C stops it within an iteration (its termination callback reads the flag that
    :func:`~seqform.base.interrupt.run_interruptibly` sets), and on a large LP within a
    fifth of a second, its set-up included, as it then runs in a child process
    (:data:`CHILD_NONZEROS`); each iteration's gap is reported to the current progress
    listener (:mod:`seqform.base.progress`).

    Raises
    ------
    SolverLimitError
        At a time or iteration limit, with the plans of Clarabel's last point.
    SolverError
        For any other status than solved.
    ValueError
        For a row neither ``==`` nor ``<=``, or a column neither ``>= 0`` nor free.
    """
    start = time.perf_counter()
    reduction = reduce_problem(problem) if presolve else None
    solved = problem if reduction is None else reduction.problem
    form = _conic_form(solved)
    result = _solve(solved, form, _settings(time_limit, verbose, tolerance, refinement))
    seconds = time.perf_counter() - start
    iterations = result.iterations
    report(Step("Clarabel", iterations, None, finished=True, solver=True))
    primal, duals = _answer(result, form, solved.shape[0], reduction)
    status = result.status
    if not (almost and status.endswith("AlmostSolved")):
        _raise_unless_solved(status, seconds, iterations, problem.point(primal, duals))
    return FloatSolution(
        result.objective,
        primal,
        duals,
        problem.matrix @ primal,
        _stats(problem, status, seconds, iterations),
        plans=problem.plans,
    )


CHILD_NONZEROS = 1_000_000
"""From this many non-zeros in Clarabel's matrix on, it runs in a child process
(:func:`~seqform.base.child.run_in_child`): its set-up is one call that holds the GIL,
about a microsecond per non-zero (0.6 s on ``liars_dice(sides=7)``'s 620,000, 3 s on
``sides=8``'s 2.8 million), and Ctrl-C is not seen until it returns.  In a child, Ctrl-C
stops the solve within a fifth of a second; the fork and the answer's way back cost less
than the solve's own spread between runs (``benchmarks/results/measurements.md``)."""


@dataclass(frozen=True)
class _Result:
    """What is kept of Clarabel's solution: its status name, ``c @ v`` (the LP's
    maximum, Clarabel having minimised ``-c @ v``), ``x``, ``z`` and the iterations."""

    status: str
    objective: float
    x: np.ndarray
    z: np.ndarray
    iterations: int


def _solve(problem: LPProblem, form: _ConicForm, settings: object) -> _Result:
    """Clarabel's solution, in a child process on a large LP (:data:`CHILD_NONZEROS`),
    else here."""
    if form.matrix.nnz >= CHILD_NONZEROS and child_processes():
        return _solve_in_child(problem, form, settings)
    return _solve_here(problem, form, settings)


def _solve_here(problem: LPProblem, form: _ConicForm, settings: object) -> _Result:
    """Clarabel in this process: its solve in a thread that Ctrl-C stops between
    iterations (:func:`~seqform.base.interrupt.run_interruptibly`)."""
    solver = _solver(problem, form, settings)
    stop = threading.Event()
    solver.set_termination_callback(_Termination(stop, current_listener()))
    return _result(run_interruptibly(solver.solve, stop))


def _solve_in_child(problem: LPProblem, form: _ConicForm, settings: object) -> _Result:
    """Clarabel in a child process (:data:`CHILD_NONZEROS`), each iteration's gap sent
    back to this process's progress listener."""
    listener = current_listener()

    def work(send: Callable[[Any], None]) -> _Result:
        solver = _solver(problem, form, settings)
        solver.set_termination_callback(_Termination(threading.Event(), send))
        return _result(solver.solve())

    return run_in_child(work, lambda step: listener(step) if listener is not None else None)


def _result(result: Any) -> _Result:
    return _Result(
        str(result.status),
        -float(result.obj_val),
        np.asarray(result.x, dtype=float),
        np.asarray(result.z, dtype=float),
        int(result.iterations),
    )


def _answer(
    result: _Result, form: _ConicForm, rows: int, reduction: Reduction | None
) -> tuple[np.ndarray, np.ndarray]:
    """``(primal, row duals)`` of the LP Clarabel was given, mapped back through
    ``reduction`` to the LP before presolve when there was one."""
    primal = result.x
    duals = form.row_duals(result.z, rows)
    if reduction is None:
        return primal, duals
    return reduction.primal(primal), reduction.duals(duals)


def _solver(problem: LPProblem, form: _ConicForm, settings: object) -> Any:
    """Clarabel's solver for ``max c @ v`` written as ``min -c @ v`` in conic form."""
    with interrupt_held():
        import clarabel

    return clarabel.DefaultSolver(
        sp.csc_matrix((problem.shape[1], problem.shape[1])),
        -np.asarray(problem.objective, dtype=float),
        form.matrix,
        form.rhs,
        form.cones(),
        settings,
    )


def _stats(problem: LPProblem, status: str, seconds: float, iterations: int) -> SolverStats:
    """The stats of a returned point: "optimal", or "almost solved" for an AlmostSolved."""
    stats = optimal_stats(
        "clarabel",
        "interior point",
        seconds=seconds,
        iterations=iterations,
        shape=problem.shape,
        nonzeros=problem.matrix.nnz,
    )
    return replace(stats, status="almost solved") if status.endswith("AlmostSolved") else stats


@dataclass(frozen=True)
class _Termination:
    """Clarabel's termination callback: stop when ``stop`` is set; report the iteration."""

    stop: threading.Event
    listener: ProgressListener | None

    def __call__(self, info: Any) -> bool:
        if self.listener is not None:
            detail = f"gap {abs(float(info.gap_rel)):.2e}"
            self.listener(Step("Clarabel", int(info.iterations), None, detail, solver=True))
        return self.stop.is_set()


def _settings(
    time_limit: float | None, verbose: bool, tolerance: float, refinement: bool = True
) -> object:
    with interrupt_held():
        import clarabel

    settings = clarabel.DefaultSettings()
    settings.verbose = verbose
    settings.iterative_refinement_enable = refinement
    settings.tol_gap_abs = tolerance
    settings.tol_gap_rel = tolerance
    settings.tol_feas = tolerance
    settings.tol_ktratio = max(tolerance, 1e-10)
    if time_limit is not None:
        settings.time_limit = float(time_limit)
    return settings


def _raise_unless_solved(
    status: str, seconds: float, iterations: int, point: tuple[np.ndarray, np.ndarray] | None
) -> None:
    """Raise unless Clarabel calls the LP solved (not merely "almost solved"); ``point``
    goes to :class:`~seqform.lp.solvers.SolverLimitError` at a time or iteration limit."""
    if status.endswith("MaxTime") or status.endswith("MaxIterations"):
        raise SolverLimitError(
            f"Clarabel stopped ({status}) after {seconds:.1f} s and {iterations} "
            "iterations; no proven solution",
            point,
        )
    if not status.endswith("Solved") or status.endswith("AlmostSolved"):
        raise SolverError(
            f"Clarabel did not prove optimality: status {status} after {iterations} iterations"
        )
