"""Linear programs with exact data: solved by HiGHS in floats, then re-solved exactly.

A :class:`LinearProgram` is

    maximise    c @ v
    subject to  row_lower <= M v <= row_upper,    col_lower <= v <= col_upper,

with every coefficient and bound an exact ``Fraction`` (``None`` for an infinite bound).
:func:`float_problem` is its float image, the one :class:`~seqform.lp.problem.LPProblem`
that :func:`seqform.lp.run.run_lp` solves (with ``basis=True`` for the optimal *basis*
besides the float solution); :class:`HighsModel` keeps it in one HiGHS session, to be
solved again with other objectives or coefficients, warm-started.

Its optimal basis is re-solved and verified exactly by :mod:`seqform.lp.exact.basis`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from seqform.lp.exact.rational import RationalMatrix
from seqform.lp.highs import HighsSession
from seqform.lp.problem import Basis, FloatSolution, LPProblem, PlanLayout

__all__ = [
    "AT_LOWER",
    "AT_UPPER",
    "BASIC",
    "Basis",
    "Bound",
    "HighsModel",
    "LinearProgram",
    "float_problem",
]


Bound = Fraction | None

# HiGHS's basis status codes (highspy.HighsBasisStatus) that seqform reads.
AT_LOWER, BASIC, AT_UPPER = 0, 1, 2


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


def _float_bounds(bounds: Sequence[Bound], sign: float) -> np.ndarray:
    return np.array([sign * np.inf if b is None else float(b) for b in bounds], dtype=float)


def float_problem(program: LinearProgram, plans: PlanLayout | None = None) -> LPProblem:
    """``program`` in floats (``None`` bounds as ``±inf``), for a float solver."""
    return LPProblem(
        matrix=program.matrix.to_float().tocsc(),
        objective=np.array([float(c) for c in program.objective], dtype=float),
        col_lower=_float_bounds(program.col_lower, -1.0),
        col_upper=_float_bounds(program.col_upper, 1.0),
        row_lower=_float_bounds(program.row_lower, -1.0),
        row_upper=_float_bounds(program.row_upper, 1.0),
        plans=plans,
    )


class HighsModel:
    """A :class:`LinearProgram` loaded into HiGHS, to be maximised for one or more objectives.

    Parameters
    ----------
    program
        The LP.
    solver
        HiGHS's ``"simplex"`` (default) or ``"ipm"`` (with crossover, so a basis exists).
    time_limit
        Seconds per solve before :class:`~seqform.lp.solvers.SolverLimitError`.
    """

    def __init__(
        self,
        program: LinearProgram,
        *,
        solver: str = "simplex",
        time_limit: float | None = None,
    ) -> None:
        self.program = program
        self._session = HighsSession(float_problem(program), solver, time_limit=time_limit)
        self._highs = self._session.highs

    def set_objective(self, objective: np.ndarray) -> None:
        """Replace the objective (to be maximised); the last basis is kept as a warm start."""
        n = self.program.num_cols
        self._highs.changeColsCost(n, np.arange(n, dtype=np.int32), np.asarray(objective, float))

    def change_coefficient(self, row: int, column: int, value: float) -> None:
        """Set one entry of the constraint matrix (0 removes it)."""
        self._highs.changeCoeff(int(row), int(column), float(value))

    def maximise(self) -> FloatSolution:
        """Solve; the optimum with its basis (:meth:`seqform.lp.highs.HighsSession.solve`:
        :class:`~seqform.lp.solvers.InfeasibleError`, :class:`~seqform.lp.solvers.SolverError`
        otherwise)."""
        return self._session.solve(basis=True)
