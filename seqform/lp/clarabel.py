"""Clarabel (Goulart and Chen 2024), an interior-point method with a direct sparse LDL
factorisation, on the LPs seqform writes for HiGHS.

The LP is :mod:`seqform.lp.highs`'s ``maximise c @ v`` s.t. ``row_lower <= M v <=
row_upper``, ``col_lower <= v``, restricted to what the sparsified showdown LP needs: each
row an equality or a ``<=`` row, each column ``>= 0`` or free.  Clarabel's form is
``min −c @ v`` s.t. ``K v + s = b`` with ``s`` in cones: the equality rows (zero cone),
then the ``<=`` rows and ``−v_j <= 0`` for the non-negative columns (non-negative cone).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from seqform.base.progress import ProgressListener, Step, current_listener, report
from seqform.lp.interrupt import run_interruptibly
from seqform.lp.solvers import SolverError, SolverLimitError

__all__ = ["ClarabelRun", "raise_unless_solved", "run_clarabel"]


@dataclass(frozen=True)
class ClarabelRun:
    """What Clarabel reported.

    status : Clarabel's status, as text (``"SolverStatus.Solved"``, ...)
    objective : ``c @ v`` (the maximised objective, sign restored)
    columns : ``v``; row_duals : the multipliers of the LP's rows, in its row order
    """

    status: str
    objective: float
    columns: np.ndarray
    row_duals: np.ndarray
    iterations: int
    seconds: float


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


def _conic_form(
    matrix: sp.sparray, col_lower: np.ndarray, row_lower: np.ndarray, row_upper: np.ndarray
) -> _ConicForm:
    """Clarabel's form of ``row_lower <= M v <= row_upper``, ``col_lower <= v`` (module
    docstring); ValueError for a row or column bound it does not cover."""
    equal = row_lower == row_upper
    if not np.all(np.isneginf(row_lower[~equal])):
        raise ValueError("the sparsified LP has only equality and '<=' rows")
    if not np.all((col_lower == 0) | np.isneginf(col_lower)):
        raise ValueError("Clarabel is given only columns >= 0 or free")
    columns = matrix.shape[1]
    csr = sp.csr_array(matrix)
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
    matrix: sp.sparray,
    *,
    objective: np.ndarray,
    col_lower: np.ndarray,
    row_lower: np.ndarray,
    row_upper: np.ndarray,
    time_limit: float | None,
    verbose: bool,
    tolerance: float,
) -> ClarabelRun:
    """Maximise ``objective @ v`` with Clarabel at gap and feasibility ``tolerance``.

    Ctrl-C stops it within an iteration (its termination callback reads the flag that
    :func:`~seqform.lp.interrupt.run_interruptibly` sets), and each iteration's gap is
    reported to the current progress listener (:mod:`seqform.base.progress`).

    Raises
    ------
    ValueError
        For a row that is neither an equality nor ``<=``, or a column bound other than
        0 or ``-inf``.
    KeyboardInterrupt
        If interrupted.
    """
    import clarabel

    rows, columns = matrix.shape
    form = _conic_form(matrix, col_lower, row_lower, row_upper)
    start = time.perf_counter()
    solver = clarabel.DefaultSolver(
        sp.csc_matrix((columns, columns)),
        -np.asarray(objective, dtype=float),
        form.matrix,
        form.rhs,
        form.cones(),
        _settings(time_limit, verbose, tolerance),
    )
    stop = threading.Event()
    solver.set_termination_callback(_Termination(stop, current_listener()))
    result = run_interruptibly(solver.solve, stop)
    seconds = time.perf_counter() - start
    report(Step("Clarabel", int(result.iterations), None, finished=True, solver=True))
    return ClarabelRun(
        status=str(result.status),
        objective=-float(result.obj_val),
        columns=np.asarray(result.x, dtype=float),
        row_duals=form.row_duals(np.asarray(result.z, dtype=float), rows),
        iterations=int(result.iterations),
        seconds=seconds,
    )


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


def _settings(time_limit: float | None, verbose: bool, tolerance: float) -> object:
    import clarabel

    settings = clarabel.DefaultSettings()
    settings.verbose = verbose
    settings.tol_gap_abs = tolerance
    settings.tol_gap_rel = tolerance
    settings.tol_feas = tolerance
    settings.tol_ktratio = max(tolerance, 1e-10)
    if time_limit is not None:
        settings.time_limit = float(time_limit)
    return settings


def raise_unless_solved(run: ClarabelRun, plans: tuple[np.ndarray, np.ndarray]) -> None:
    """Raise unless Clarabel calls the LP solved (not merely "almost solved").

    ``plans`` goes to :class:`~seqform.lp.solvers.SolverLimitError` at a time or
    iteration limit.
    """
    status = run.status
    if status.endswith("MaxTime") or status.endswith("MaxIterations"):
        raise SolverLimitError(
            f"Clarabel stopped ({status}) after {run.seconds:.1f} s and {run.iterations} "
            "iterations; no proven solution",
            plans,
        )
    if not status.endswith("Solved") or status.endswith("AlmostSolved"):
        raise SolverError(
            f"Clarabel did not prove optimality: status {status} after {run.iterations} iterations"
        )
