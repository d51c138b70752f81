"""Linear programs with exact data: solved by HiGHS in floats, then re-solved exactly.

A :class:`LinearProgram` is

    maximise    c @ v
    subject to  row_lower <= M v <= row_upper,    col_lower <= v <= col_upper,

with every coefficient and bound an exact ``Fraction`` (``None`` for an infinite bound).
:class:`HighsModel` solves it (and variants with other objectives, warm-started) with
HiGHS and returns the optimal *basis* besides the float solution.

A basis names ``m`` basic variables among the columns and the rows' activities; the
non-basic ones sit at a bound.  With ``T`` the non-basic ("tight") rows and ``B`` the
basic columns, ``M[T, B]`` is square and non-singular, and the basic solution is

    M[T, B] v_B = bound_T − M[T, N] v_N,              (primal)
    M[T, B].T π_T = c_B,   π = 0 off T,   d = c − M.T π   (row duals, reduced costs)

(Chvátal 1983, ch. 7; any LP text).  :class:`BasisSystem` sets these systems up from a
HiGHS basis and solves them exactly (:mod:`seqform.lp.exact.rational`); :func:`resolve_basis`
then checks in exact arithmetic that ``v`` is primal feasible and that ``(π, d)`` is dual
feasible with complementary slackness (a column with ``d_j > 0`` at its upper bound,
``d_j < 0`` at its lower; a row with ``π_i > 0`` at its upper bound, ``π_i < 0`` at its
lower).  Both together prove that ``v`` is optimal and ``c @ v`` is the exact optimum.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from seqform.lp.exact.rational import ExactLinearSolver, RationalMatrix
from seqform.lp.minmax import SolverError, SolverLimitError, highs_solver

__all__ = [
    "AT_LOWER",
    "AT_UPPER",
    "AT_ZERO",
    "BASIC",
    "Basis",
    "BasisSystem",
    "ExactBasicSolution",
    "FloatLPResult",
    "HighsModel",
    "InfeasibleError",
    "InvalidBasisError",
    "LinearProgram",
    "resolve_basis",
]

Bound = Fraction | None

logger = logging.getLogger(__name__)

# HiGHS's basis status codes (highspy.HighsBasisStatus).
AT_LOWER, BASIC, AT_UPPER, AT_ZERO, NONBASIC = 0, 1, 2, 3, 4


class InfeasibleError(SolverError):
    """The linear program has no feasible point."""


@dataclass(frozen=True)
class LinearProgram:
    """``max c @ v`` s.t. ``row_lower <= M v <= row_upper``, ``col_lower <= v <= col_upper``.

    matrix : M, shape (rows, columns), exact
    objective : c, one Fraction per column
    col_lower, col_upper, row_lower, row_upper : exact bounds, None where infinite
    """

    matrix: RationalMatrix
    objective: tuple[Fraction, ...]
    col_lower: tuple[Bound, ...]
    col_upper: tuple[Bound, ...]
    row_lower: tuple[Bound, ...]
    row_upper: tuple[Bound, ...]

    def __post_init__(self) -> None:
        rows, cols = self.matrix.shape
        if not len(self.objective) == len(self.col_lower) == len(self.col_upper) == cols:
            raise ValueError(f"objective and column bounds must have {cols} entries")
        if not len(self.row_lower) == len(self.row_upper) == rows:
            raise ValueError(f"row bounds must have {rows} entries")

    @property
    def num_rows(self) -> int:
        return self.matrix.shape[0]

    def with_objective(self, objective: Sequence[Fraction]) -> LinearProgram:
        """The same constraints with another objective."""
        return replace(self, objective=tuple(Fraction(c) for c in objective))

    def with_rows(
        self, rows: Sequence[tuple[Mapping[int, Fraction], Bound, Bound]]
    ) -> LinearProgram:
        """Add rows ``lower <= sum(coefficient * v[column]) <= upper``."""
        base = self.num_rows
        matrix = self._enlarged(
            (base + len(rows), self.num_cols),
            [
                (base + offset, column, coefficient)
                for offset, (terms, _, _) in enumerate(rows)
                for column, coefficient in terms.items()
            ],
        )
        return replace(
            self,
            matrix=matrix,
            row_lower=(*self.row_lower, *(lower for _, lower, _ in rows)),
            row_upper=(*self.row_upper, *(upper for _, _, upper in rows)),
        )

    def with_columns(
        self,
        columns: Sequence[tuple[Mapping[int, Fraction], Fraction, Bound, Bound]],
    ) -> LinearProgram:
        """Add columns: (row -> coefficient, objective coefficient, lower, upper)."""
        base = self.num_cols
        matrix = self._enlarged(
            (self.num_rows, base + len(columns)),
            [
                (row, base + offset, coefficient)
                for offset, (terms, _, _, _) in enumerate(columns)
                for row, coefficient in terms.items()
            ],
        )
        return replace(
            self,
            matrix=matrix,
            objective=(*self.objective, *(Fraction(c) for _, c, _, _ in columns)),
            col_lower=(*self.col_lower, *(lower for _, _, lower, _ in columns)),
            col_upper=(*self.col_upper, *(upper for _, _, _, upper in columns)),
        )

    @property
    def num_cols(self) -> int:
        return self.matrix.shape[1]

    def _enlarged(
        self, shape: tuple[int, int], entries: Sequence[tuple[int, int, Fraction]]
    ) -> RationalMatrix:
        """M grown to ``shape`` with the extra ``(row, column, coefficient)`` entries."""
        extra_rows = np.asarray([row for row, _, _ in entries], dtype=np.int64)
        extra_cols = np.asarray([column for _, column, _ in entries], dtype=np.int64)
        return RationalMatrix.from_triples(
            shape,
            np.concatenate([self.matrix.rows, extra_rows]),
            np.concatenate([self.matrix.cols, extra_cols]),
            [*self.matrix.values, *(Fraction(value) for _, _, value in entries)],
        )


@dataclass(frozen=True)
class Basis:
    """A simplex basis: HiGHS status codes per column and per row (``BASIC`` etc.)."""

    col_status: np.ndarray
    row_status: np.ndarray


@dataclass(frozen=True)
class FloatLPResult:
    """An optimal solution from HiGHS.

    objective : the optimum (for the objective that was maximised)
    values : the columns; row_activity : ``M v``
    row_duals : multipliers of the rows (>= 0 at an upper bound, as for a maximisation)
    basis : the optimal basis, or None if the algorithm gave none
    """

    objective: float
    values: np.ndarray
    row_activity: np.ndarray
    row_duals: np.ndarray
    basis: Basis | None
    iterations: int
    seconds: float


def _float_bounds(bounds: Sequence[Bound], infinity: float, sign: float) -> np.ndarray:
    return np.array([sign * infinity if b is None else float(b) for b in bounds], dtype=float)


class HighsModel:
    """A :class:`LinearProgram` loaded into HiGHS, to be maximised for one or more objectives.

    Parameters
    ----------
    program
        The LP.
    algorithm
        HiGHS's ``"simplex"`` (default) or ``"ipm"`` (with crossover, so a basis exists).
    time_limit
        Seconds per solve before :class:`~seqform.lp.minmax.SolverLimitError`.
    """

    def __init__(
        self,
        program: LinearProgram,
        *,
        algorithm: str = "simplex",
        time_limit: float | None = None,
    ) -> None:
        import highspy

        self.program = program
        self._highspy = highspy
        infinity = highspy.kHighsInf
        matrix = program.matrix.to_float().tocsr()
        highs = highs_solver(algorithm, time_limit)
        n = program.num_cols
        highs.addVars(
            n,
            _float_bounds(program.col_lower, infinity, -1.0),
            _float_bounds(program.col_upper, infinity, 1.0),
        )
        highs.changeObjectiveSense(highspy.ObjSense.kMaximize)
        if program.num_rows:
            highs.addRows(
                program.num_rows,
                _float_bounds(program.row_lower, infinity, -1.0),
                _float_bounds(program.row_upper, infinity, 1.0),
                matrix.nnz,
                matrix.indptr.astype(np.int32),
                matrix.indices.astype(np.int32),
                matrix.data.astype(float),
            )
        self._highs = highs
        self._algorithm = algorithm
        self.set_objective(np.array([float(c) for c in program.objective], dtype=float))

    def set_objective(self, objective: np.ndarray) -> None:
        """Replace the objective (to be maximised); the last basis is kept as a warm start."""
        n = self.program.num_cols
        self._highs.changeColsCost(n, np.arange(n, dtype=np.int32), np.asarray(objective, float))

    def set_tolerances(self, tolerance: float) -> None:
        """Primal and dual feasibility tolerances of HiGHS (default 1e-7)."""
        self._highs.setOptionValue("primal_feasibility_tolerance", float(tolerance))
        self._highs.setOptionValue("dual_feasibility_tolerance", float(tolerance))

    def change_coefficient(self, row: int, column: int, value: float) -> None:
        """Set one entry of the constraint matrix (0 removes it)."""
        self._highs.changeCoeff(int(row), int(column), float(value))

    def maximise(self) -> FloatLPResult:
        """Solve; raise :class:`InfeasibleError` or :class:`~seqform.lp.minmax.SolverError`."""
        highspy = self._highspy
        highs = self._highs
        start = time.perf_counter()
        highs.run()
        status = highs.getModelStatus()
        if status in (highspy.HighsModelStatus.kUnknown, highspy.HighsModelStatus.kNotset):
            # A warm start can stall numerically: retry cold, then by interior point.
            logger.info("HiGHS returned status unknown; retrying without the warm start")
            highs.clearSolver()
            highs.run()
            status = highs.getModelStatus()
            if status == highspy.HighsModelStatus.kUnknown and self._algorithm == "simplex":
                highs.setOptionValue("solver", "ipm")
                highs.setOptionValue("run_crossover", "on")
                highs.clearSolver()
                highs.run()
                status = highs.getModelStatus()
                highs.setOptionValue("solver", "simplex")
        seconds = time.perf_counter() - start
        text = highs.modelStatusToString(status)
        info = highs.getInfo()
        iterations = int(max(info.simplex_iteration_count, 0) + max(info.ipm_iteration_count, 0))
        if status in (
            highspy.HighsModelStatus.kTimeLimit,
            highspy.HighsModelStatus.kIterationLimit,
        ):
            raise SolverLimitError(f"HiGHS stopped at its {text.lower()}", None)
        if status == highspy.HighsModelStatus.kInfeasible:
            raise InfeasibleError("the linear program is infeasible")
        if status == highspy.HighsModelStatus.kUnboundedOrInfeasible:
            raise InfeasibleError("the linear program is infeasible or unbounded")
        if status != highspy.HighsModelStatus.kOptimal:
            raise SolverError(f"HiGHS did not prove optimality: model status {text!r}")
        solution = highs.getSolution()
        basis = highs.getBasis()
        found = None
        if basis.valid:
            found = Basis(
                col_status=np.array([int(s) for s in basis.col_status], dtype=np.int64),
                row_status=np.array([int(s) for s in basis.row_status], dtype=np.int64),
            )
        return FloatLPResult(
            objective=float(info.objective_function_value),
            values=np.asarray(solution.col_value, dtype=float),
            row_activity=np.asarray(solution.row_value, dtype=float),
            row_duals=np.asarray(solution.row_dual, dtype=float),
            basis=found,
            iterations=iterations,
            seconds=seconds,
        )


class InvalidBasisError(ArithmeticError):
    """The basis does not define a square non-singular system or puts a variable at an
    infinite bound."""


def _at_bound(status: int, lower: Bound, upper: Bound, what: str) -> Fraction:
    """The value of a non-basic variable with HiGHS status ``status``."""
    if lower is not None and lower == upper:
        return lower
    if status == AT_LOWER:
        value = lower
    elif status == AT_UPPER:
        value = upper
    elif lower is None and upper is None:  # a free variable, non-basic at zero
        return Fraction(0)
    else:
        value = lower if lower is not None else upper
    if value is None:
        raise InvalidBasisError(f"non-basic {what} sits at an infinite bound")
    return value


def _at_bounds(
    indices: np.ndarray,
    status: np.ndarray,
    lower: Sequence[Bound],
    upper: Sequence[Bound],
    kind: str,
) -> list[Fraction]:
    """:func:`_at_bound` for each of ``indices`` (columns or rows, as ``kind`` says)."""
    return [_at_bound(int(status[k]), lower[k], upper[k], f"{kind} {k}") for k in indices]


class BasisSystem:
    """The square systems of a basis, solved exactly; see the module docstring.

    Parameters
    ----------
    program
        The LP the basis belongs to.
    basis
        Column and row status codes (from HiGHS).

    Raises
    ------
    InvalidBasisError
        If the numbers of basic columns and non-basic rows differ.
    """

    def __init__(self, program: LinearProgram, basis: Basis) -> None:
        self.program = program
        self.basis = basis
        self.basic_cols = np.flatnonzero(basis.col_status == BASIC)
        self.tight_rows = np.flatnonzero(basis.row_status != BASIC)
        if len(self.basic_cols) != len(self.tight_rows):
            raise InvalidBasisError(
                f"{len(self.basic_cols)} basic columns but {len(self.tight_rows)} non-basic rows"
            )
        self.nonbasic_cols = np.flatnonzero(basis.col_status != BASIC)
        self.square = program.matrix.select(self.tight_rows, self.basic_cols)
        self.solver = ExactLinearSolver(self.square)
        self._nonbasic_part = program.matrix.select(self.tight_rows, self.nonbasic_cols)

    def nonbasic_values(self) -> list[Fraction]:
        """The bound each non-basic column sits at, in the order of ``nonbasic_cols``."""
        program = self.program
        return _at_bounds(
            self.nonbasic_cols,
            self.basis.col_status,
            program.col_lower,
            program.col_upper,
            "column",
        )

    def tight_row_values(self) -> list[Fraction]:
        """The bound each non-basic row sits at, in the order of ``tight_rows``."""
        program = self.program
        return _at_bounds(
            self.tight_rows, self.basis.row_status, program.row_lower, program.row_upper, "row"
        )

    def primal(
        self, nonbasic_values: Sequence[Fraction], tight_row_values: Sequence[Fraction]
    ) -> list[Fraction]:
        """All columns: non-basic ones at the given values, basic ones from the system."""
        pushed = self._nonbasic_part.matvec(nonbasic_values)
        rhs = [bound - push for bound, push in zip(tight_row_values, pushed, strict=True)]
        basic = self.solver.solve(rhs)
        values = [Fraction(0)] * self.program.num_cols
        for j, value in zip(self.nonbasic_cols, nonbasic_values, strict=True):
            values[j] = Fraction(value)
        for j, value in zip(self.basic_cols, basic, strict=True):
            values[j] = value
        return values

    def duals(self, objective: Sequence[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
        """``(π, d)``: row duals (zero off the tight rows) and reduced costs ``c − M.T π``."""
        basic_costs = [Fraction(objective[j]) for j in self.basic_cols]
        tight = self.solver.solve_transpose(basic_costs)
        duals = [Fraction(0)] * self.program.num_rows
        for i, value in zip(self.tight_rows, tight, strict=True):
            duals[i] = value
        priced = self.program.matrix.rmatvec(duals)
        reduced = [Fraction(c) - p for c, p in zip(objective, priced, strict=True)]
        for j in self.basic_cols:
            reduced[j] = Fraction(0)
        return duals, reduced


@dataclass(frozen=True)
class ExactBasicSolution:
    """The exact basic solution of a basis and its verification.

    values : the columns; row_activity : ``M v``
    row_duals, reduced_costs : the dual solution ``(π, d)``
    objective : ``c @ v``
    primal_feasible, dual_feasible : exact checks (see the module docstring)
    """

    values: tuple[Fraction, ...]
    row_activity: tuple[Fraction, ...]
    row_duals: tuple[Fraction, ...]
    reduced_costs: tuple[Fraction, ...]
    objective: Fraction
    primal_feasible: bool
    dual_feasible: bool

    @property
    def optimal(self) -> bool:
        """Proven optimal: primal and dual feasible with complementary slackness."""
        return self.primal_feasible and self.dual_feasible


def _within(value: Fraction, lower: Bound, upper: Bound) -> bool:
    return (lower is None or value >= lower) and (upper is None or value <= upper)


def resolve_basis(program: LinearProgram, basis: Basis) -> ExactBasicSolution:
    """Re-solve ``basis`` in exact arithmetic and verify optimality (module docstring).

    Raises
    ------
    InvalidBasisError
        If the basis is not square or puts a variable at an infinite bound.
    seqform.lp.exact.rational.ExactSolveError
        If the basis matrix is singular.
    """
    system = BasisSystem(program, basis)
    values = system.primal(system.nonbasic_values(), system.tight_row_values())
    activity = program.matrix.matvec(values)
    duals, reduced = system.duals(program.objective)
    primal_feasible = all(
        _within(v, lo, hi)
        for v, lo, hi in zip(values, program.col_lower, program.col_upper, strict=True)
    ) and all(
        _within(a, lo, hi)
        for a, lo, hi in zip(activity, program.row_lower, program.row_upper, strict=True)
    )
    dual_feasible = _complementary(reduced, values, program.col_lower, program.col_upper) and (
        _complementary(duals, activity, program.row_lower, program.row_upper)
    )
    objective = sum(
        (c * v for c, v in zip(program.objective, values, strict=True) if c), Fraction(0)
    )
    return ExactBasicSolution(
        values=tuple(values),
        row_activity=tuple(activity),
        row_duals=tuple(duals),
        reduced_costs=tuple(reduced),
        objective=objective,
        primal_feasible=primal_feasible,
        dual_feasible=dual_feasible,
    )


def _complementary(
    prices: Sequence[Fraction],
    levels: Sequence[Fraction],
    lower: Sequence[Bound],
    upper: Sequence[Bound],
) -> bool:
    """A positive price needs the level at its upper bound, a negative one at its lower."""
    for price, level, lo, hi in zip(prices, levels, lower, upper, strict=True):
        if price > 0 and (hi is None or level != hi):
            return False
        if price < 0 and (lo is None or level != lo):
            return False
    return True
