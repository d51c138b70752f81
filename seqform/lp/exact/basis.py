"""A simplex basis of a :class:`~seqform.lp.exact.program.LinearProgram`, solved exactly.

A basis names ``m`` basic variables among the columns and the rows' activities; the
non-basic ones sit at a bound.  With ``T`` the non-basic ("tight") rows and ``B`` the
basic columns, ``M[T, B]`` is square and non-singular, and the basic solution is

    M[T, B] v_B = bound_T − M[T, N] v_N,              (primal)
    M[T, B].T π_T = c_B,   π = 0 off T,   d = c − M.T π   (row duals, reduced costs)

(Chvátal 1983, ch. 7; any LP text).  :class:`BasisSystem` sets these systems up from a
HiGHS basis and solves them exactly (:mod:`seqform.lp.exact.linear_solver`); :func:`resolve_basis`
then checks in exact arithmetic that ``v`` is primal feasible and that ``(π, d)`` is dual
feasible with complementary slackness (a column with ``d_j > 0`` at its upper bound,
``d_j < 0`` at its lower; a row with ``π_i > 0`` at its upper bound, ``π_i < 0`` at its
lower).  Both together prove that ``v`` is optimal and ``c @ v`` is the exact optimum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.lp.exact.linear_solver import ExactLinearSolver
from seqform.lp.exact.program import AT_LOWER, AT_UPPER, BASIC, Basis, Bound, LinearProgram

__all__ = [
    "BasisSystem",
    "ExactBasicSolution",
    "InvalidBasisError",
    "resolve_basis",
    "solve_system",
]


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
        basic_costs = [Fraction(objective[j]) for j in self.basic_cols.tolist()]
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
    seqform.lp.exact.linear_solver.ExactSolveError
        If the basis matrix is singular.
    """
    return solve_system(BasisSystem(program, basis))


def solve_system(system: BasisSystem) -> ExactBasicSolution:
    """:func:`resolve_basis` for a basis whose :class:`BasisSystem` is built already (its
    factorisation is then reused, as the exact simplex pivots do)."""
    program = system.program
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
