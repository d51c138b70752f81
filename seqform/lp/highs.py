"""The one wrapper of HiGHS (Huangfu and Hall 2018) through ``highspy``.

Every LP seqform hands to HiGHS is

    maximise    c @ v
    subject to  row_lower <= M v <= row_upper,    col_lower <= v <= col_upper,

with ``M`` sparse column-wise (CSC) and infinite bounds as ``±inf``.  This module builds
that model (:func:`highs_lp`), sets the options of an algorithm (:func:`highs_options`),
runs it and reads back what HiGHS reports (:func:`run_highs`, :class:`HighsRun`), and turns
every status but a proven optimum into :class:`~seqform.lp.solvers.SolverError` or
:class:`~seqform.lp.solvers.SolverLimitError` (:func:`raise_unless_optimal`).  The float
min-max LP, the exact programs' float solves, the sparsified LP and the MPS export all
come through here.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from seqform.base.progress import ProgressListener, Step, current_listener
from seqform.lp.interrupt import run_interruptibly
from seqform.lp.solvers import InfeasibleError, SolverError, SolverLimitError

if TYPE_CHECKING:
    import highspy

__all__ = [
    "HighsOption",
    "HighsRun",
    "highs_lp",
    "highs_options",
    "highs_solver",
    "new_highs",
    "raise_unless_optimal",
    "run_highs",
    "write_model",
]

logger = logging.getLogger(__name__)

HighsOption = bool | int | float | str
"""The value of one HiGHS option (``Highs.setOptionValue``)."""


def highs_lp(
    matrix: sp.csc_array,
    *,
    objective: np.ndarray,
    col_lower: np.ndarray,
    col_upper: np.ndarray,
    row_lower: np.ndarray,
    row_upper: np.ndarray,
) -> highspy.HighsLp:
    """``maximise objective @ v`` over the bounds and ``matrix`` (CSC), as a ``HighsLp``."""
    import highspy

    rows, columns = matrix.shape
    lp = highspy.HighsLp()
    lp.num_col_ = columns
    lp.num_row_ = rows
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_cost_ = np.asarray(objective, dtype=float)
    lp.col_lower_ = np.asarray(col_lower, dtype=float)
    lp.col_upper_ = np.asarray(col_upper, dtype=float)
    lp.row_lower_ = np.asarray(row_lower, dtype=float)
    lp.row_upper_ = np.asarray(row_upper, dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.num_col_ = columns
    lp.a_matrix_.num_row_ = rows
    lp.a_matrix_.start_ = matrix.indptr.astype(np.int32)
    lp.a_matrix_.index_ = matrix.indices.astype(np.int32)
    lp.a_matrix_.value_ = matrix.data.astype(float)
    return lp


def highs_options(
    algorithm: str, time_limit: float | None, verbose: bool = False
) -> dict[str, HighsOption]:
    """HiGHS's options for an algorithm, a time limit (seconds) and the log.

    ``"ipm"`` runs crossover, so that it ends at a basis.  ``"pdlp"`` runs without presolve:
    HiGHS (1.15) cannot postsolve a first-order solution to a status better than "unknown"
    even when PDLP converged, while on the original LP it reports "optimal" at its
    tolerances (relative gap 1e-7).
    """
    options: dict[str, HighsOption] = {"output_flag": verbose, "solver": algorithm}
    if algorithm == "ipm":
        options["run_crossover"] = "on"
    if algorithm == "pdlp":
        options["presolve"] = "off"
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    return options


def highs_solver(
    algorithm: str,
    time_limit: float | None,
    verbose: bool = False,
    model: highspy.HighsLp | None = None,
) -> highspy.Highs:
    """A ``highspy.Highs`` with the options of :func:`highs_options`, holding ``model``."""
    highs = new_highs()
    for name, value in highs_options(algorithm, time_limit, verbose).items():
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
    import highspy

    highs = new_highs()
    highs.setOptionValue("output_flag", False)
    highs.passModel(model)
    return highs.writeModel(path) != highspy.HighsStatus.kError


@dataclass(frozen=True)
class HighsRun:
    """What HiGHS reported after a run.

    status : HiGHS's model status (``highspy.HighsModelStatus``); status_text its name
    primal_status, dual_status : names of the solution statuses ("Feasible", ...)
    solutions_feasible : both solution statuses are "feasible"
    point_valid : HiGHS offers primal values and duals (possibly not optimal)
    objective : the objective value; columns : ``v``; row_activity : ``M v``
    row_duals : the row multipliers (>= 0 at an upper bound, as for a maximisation)
    iterations : simplex, interior-point and PDLP iterations together
    seconds : wall time of the run (and of any retries)
    """

    status: highspy.HighsModelStatus
    status_text: str
    primal_status: str
    dual_status: str
    solutions_feasible: bool
    point_valid: bool
    objective: float
    columns: np.ndarray
    row_activity: np.ndarray
    row_duals: np.ndarray
    iterations: int
    seconds: float


def run_highs(highs: highspy.Highs, *, retry_algorithm: str | None = None) -> HighsRun:
    """Run HiGHS and read its report.

    With ``retry_algorithm`` (the algorithm the options name), a status "unknown" (a warm
    start can stall numerically) is retried without the warm start and then, for simplex,
    by interior point with crossover.
    """
    import highspy

    start = time.perf_counter()
    with _watched(highs) as run:
        run()
        status = highs.getModelStatus()
        if retry_algorithm is not None and status in (
            highspy.HighsModelStatus.kUnknown,
            highspy.HighsModelStatus.kNotset,
        ):
            status = _retry(highs, retry_algorithm, run)
    seconds = time.perf_counter() - start
    info = highs.getInfo()
    solution = highs.getSolution()
    feasible = highspy.SolutionStatus.kSolutionStatusFeasible
    return HighsRun(
        status=status,
        status_text=highs.modelStatusToString(status),
        primal_status=highs.solutionStatusToString(info.primal_solution_status),
        dual_status=highs.solutionStatusToString(info.dual_solution_status),
        solutions_feasible=(
            info.primal_solution_status == feasible and info.dual_solution_status == feasible
        ),
        point_valid=bool(solution.value_valid and solution.dual_valid),
        objective=float(info.objective_function_value),
        columns=np.asarray(solution.col_value, dtype=float),
        row_activity=np.asarray(solution.row_value, dtype=float),
        row_duals=np.asarray(solution.row_dual, dtype=float),
        iterations=int(
            max(info.simplex_iteration_count, 0)
            + max(info.ipm_iteration_count, 0)
            + max(info.pdlp_iteration_count, 0)
        ),
        seconds=seconds,
    )


def _retry(
    highs: highspy.Highs, algorithm: str, run: Callable[[], object]
) -> highspy.HighsModelStatus:
    """Solve again cold, then (for simplex) by interior point; the new model status."""
    import highspy

    logger.info("HiGHS returned status unknown; retrying without the warm start")
    highs.clearSolver()
    run()
    status = highs.getModelStatus()
    if status == highspy.HighsModelStatus.kUnknown and algorithm == "simplex":
        highs.setOptionValue("solver", "ipm")
        highs.setOptionValue("run_crossover", "on")
        highs.clearSolver()
        run()
        status = highs.getModelStatus()
        highs.setOptionValue("solver", "simplex")
    return status


_REPORT_SECONDS = 0.25  # at most this often a run reports its iterations


def log_status(line: str) -> tuple[int, str] | None:
    """The iteration and a short status from one line of HiGHS's iteration log, else None.

    Simplex lines are ``iteration objective Pr: ... Du: ... time``; interior point (IPX)
    lines ``iteration primal dual pinf dinf gap time``; PDLP (cuPDLP-C) lines ``iteration
    primal dual gap pinf dinf time [tag]``.  The objective is HiGHS's, as it logs it (its
    sign may be that of the minimisation HiGHS solves internally).
    """
    tokens = line.split()
    if len(tokens) < 3 or not tokens[0].isdigit():
        return None
    try:
        if tokens[2].startswith(("Pr:", "Ph1:", "Ph2:")):
            return int(tokens[0]), f"objective {float(tokens[1]):.6g}"
        if len(tokens) >= 8 and tokens[-1].startswith("["):
            return int(tokens[0]), f"gap {abs(float(tokens[3])):.2e}"
        if len(tokens) == 7:
            return int(tokens[0]), f"gap {abs(float(tokens[5])):.2e}"
    except ValueError:
        return None
    return None


@dataclass
class _HighsWatch:
    r"""Ctrl-C and progress for the runs of one ``Highs``: its interrupt callbacks read
    ``stop``; its iteration counts and log lines go to ``listener`` as :class:`Step`\ s."""

    listener: ProgressListener | None
    phase: str
    stop: threading.Event = field(default_factory=threading.Event)
    iteration: int = 0
    detail: str = ""
    reported: float = 0.0

    def check(self, event: highspy.HighsCallbackEvent) -> None:
        """HiGHS's simplex and interior-point interrupt callback."""
        if self.stop.is_set():
            event.interrupt()
            return
        counts = (event.data_out.simplex_iteration_count, event.data_out.ipm_iteration_count)
        self.iteration = max(self.iteration, *counts)
        self.tell()

    def log(self, event: highspy.HighsCallbackEvent) -> None:
        """HiGHS's logging callback: a line of the iteration log updates the status."""
        status = log_status(event.message or "")
        if status is not None:
            self.iteration, self.detail = max(self.iteration, status[0]), status[1]
            self.tell()

    def tell(self, *, finished: bool = False) -> None:
        now = time.perf_counter()
        if self.listener is None or (now - self.reported < _REPORT_SECONDS and not finished):
            return
        self.reported = now
        step = Step(self.phase, self.iteration, None, self.detail, finished, solver=True)
        self.listener(step)


def _option(highs: highspy.Highs, name: str) -> HighsOption:
    """The value of an option (highspy returns ``(status, value)``)."""
    value = highs.getOptionValue(name)
    return value[1] if isinstance(value, tuple) else value


@contextmanager
def _watched(highs: highspy.Highs) -> Iterator[Callable[[], object]]:
    """A function running ``highs`` so that Ctrl-C stops it (HiGHS's interrupt callbacks,
    :func:`~seqform.lp.interrupt.run_interruptibly`) and its progress reaches the current
    listener (:mod:`seqform.base.progress`); the callbacks are removed afterwards.

    With a listener, HiGHS's log is turned on (into the callback only, unless it was
    already on: ``--verbose``) so that its lines give the objective or gap.
    """
    watch = _HighsWatch(current_listener(), f"HiGHS {_option(highs, 'solver')}")
    logging_before = bool(_option(highs, "output_flag"))
    highs.cbSimplexInterrupt += watch.check
    highs.cbIpmInterrupt += watch.check
    if watch.listener is not None:
        highs.cbLogging += watch.log
        if not logging_before:
            highs.setOptionValue("log_to_console", False)
            highs.setOptionValue("output_flag", True)
    try:
        yield lambda: run_interruptibly(highs.run, watch.stop)
    finally:
        watch.tell(finished=True)
        highs.cbSimplexInterrupt -= watch.check
        highs.cbIpmInterrupt -= watch.check
        if watch.listener is not None:
            highs.cbLogging -= watch.log
            if not logging_before:
                highs.setOptionValue("output_flag", False)
                highs.setOptionValue("log_to_console", True)


def raise_unless_optimal(
    run: HighsRun,
    *,
    algorithm: str | None,
    plans: tuple[np.ndarray, np.ndarray] | None = None,
    check_solutions: bool = False,
) -> None:
    """Raise unless HiGHS proved an optimum; the one place statuses become errors.

    Parameters
    ----------
    run
        The report of :func:`run_highs`.
    algorithm
        Named in the messages (``"HiGHS (simplex) ..."``).  ``None`` is the exact
        programs' style: messages say only "HiGHS", a limit is reported without time and
        iterations, and infeasibility raises :class:`~seqform.lp.solvers.InfeasibleError`.
    plans
        The point handed to :class:`~seqform.lp.solvers.SolverLimitError` at a limit.
    check_solutions
        Also require HiGHS's primal and dual solution statuses to be "feasible".
    """
    import highspy

    status, text = run.status, run.status_text
    name = "HiGHS" if algorithm is None else f"HiGHS ({algorithm})"
    statuses = highspy.HighsModelStatus
    if status in (statuses.kTimeLimit, statuses.kIterationLimit):
        if algorithm is None:
            raise SolverLimitError(f"HiGHS stopped: {text.lower()}; no proven solution", None)
        raise SolverLimitError(
            f"{name} stopped ({text.lower()}) after {run.seconds:.1f} s and "
            f"{run.iterations} iterations; no proven solution",
            plans,
        )
    if algorithm is None and status == statuses.kInfeasible:
        raise InfeasibleError("the linear program is infeasible")
    if algorithm is None and status == statuses.kUnboundedOrInfeasible:
        raise InfeasibleError("the linear program is infeasible or unbounded")
    if check_solutions and (status != statuses.kOptimal or not run.solutions_feasible):
        raise SolverError(
            f"{name} did not prove optimality: model status {text!r}, "
            f"primal solution {run.primal_status!r}, dual solution {run.dual_status!r}"
        )
    if status != statuses.kOptimal:
        raise SolverError(f"{name} did not prove optimality: model status {text!r}")
