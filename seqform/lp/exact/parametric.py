"""Linear programs whose bounds and objective are polynomials in an infinitesimal ``ε``.

The matrix ``M`` is fixed and exact; every bound and objective coefficient is a
polynomial ``p(ε) = p_0 + p_1 ε + … + p_D ε^D`` with Fraction coefficients (``None`` for
an infinite bound).  Such an LP has a basis that is optimal for *all* sufficiently small
``ε > 0`` (the optimality conditions are finitely many polynomial sign conditions), and
for a fixed basis everything is a polynomial in ``ε``:

* the basic solution: ``M_TB v_k = b_k − M_TN v_{N,k}`` for each degree ``k`` (non-basic
  variables sit at their bound polynomials), see :class:`~seqform.lp.exact.basis.BasisSystem`;
* the row duals and reduced costs: ``M_TB.T π_k = c_{k,B}``, ``d_k = c_k − M.T π_k``.

A polynomial is positive for all small ``ε > 0`` iff its lowest non-zero coefficient is
positive, so "for all small ε" is a *lexicographic* comparison of coefficient vectors
(the ordered field ``Q(ε)`` with ``ε`` infinitesimal; Miltersen and Sørensen 2010 solve
their perturbed sequence form this way).  :func:`lexicographic_optimum` checks a basis
exactly and, when it is lexicographically primal feasible but not dual feasible, runs the
primal simplex method over ``Q(ε)`` — lexicographic ratio test, Bland's smallest-index
rule against cycling (Bland 1977) — with every basis re-solved exactly.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.lp.exact.basis import BasisSystem
from seqform.lp.exact.program import AT_LOWER, AT_UPPER, BASIC, Basis, LinearProgram

__all__ = [
    "ParametricLP",
    "ParametricSolution",
    "lex_sign",
    "lexicographic_optimum",
]

logger = logging.getLogger(__name__)

Polynomial = tuple[Fraction, ...]  # coefficients of ε^0, ε^1, ..., ε^D
PolyBound = Polynomial | None


def lex_sign(polynomial: Sequence[Fraction]) -> int:
    """Sign for all small ``ε > 0``: that of the lowest non-zero coefficient (0 if none)."""
    for coefficient in polynomial:
        if coefficient:
            return 1 if coefficient > 0 else -1
    return 0


def _sub(a: Sequence[Fraction], b: Sequence[Fraction]) -> list[Fraction]:
    return [p - q for p, q in zip(a, b, strict=True)]


@dataclass(frozen=True)
class ParametricLP:
    """``max c(ε) @ v`` s.t. ``row_lower(ε) <= M v <= row_upper(ε)``, column bounds in ε.

    program : supplies ``M`` (its own bounds and objective are not used)
    objective, col_lower, col_upper, row_lower, row_upper : polynomials of degree
        ``degree`` (tuples of ``degree + 1`` Fractions), None where a bound is infinite
    """

    program: LinearProgram
    degree: int
    objective: tuple[Polynomial, ...]
    col_lower: tuple[PolyBound, ...]
    col_upper: tuple[PolyBound, ...]
    row_lower: tuple[PolyBound, ...]
    row_upper: tuple[PolyBound, ...]


@dataclass(frozen=True)
class ParametricSolution:
    """A basis optimal for all small ``ε > 0`` and its solution as polynomials.

    values : per column, its polynomial; row_duals : per row, ``π_i(ε)``
    pivots : simplex pivots made after the starting basis
    """

    basis: Basis
    values: tuple[Polynomial, ...]
    row_duals: tuple[Polynomial, ...]
    pivots: int


@dataclass(frozen=True)
class Entering:
    """The variable entering the basis: a column (``is_column``) or a row's activity,
    its index, and the direction it moves (+1 up, −1 down)."""

    is_column: bool
    index: int
    direction: int


class _State:
    """One basis of a :class:`ParametricLP`, solved exactly degree by degree."""

    def __init__(self, lp: ParametricLP, basis: Basis) -> None:
        self.lp = lp
        self.basis = basis
        program = lp.program
        self.system = BasisSystem(program, basis)
        degree = lp.degree
        nonbasic = [self._at_bound(int(j), column=True) for j in self.system.nonbasic_cols]
        tight = [self._at_bound(int(i), column=False) for i in self.system.tight_rows]
        self.primal = [
            self.system.primal([p[k] for p in nonbasic], [p[k] for p in tight])
            for k in range(degree + 1)
        ]
        duals = [self.system.duals([c[k] for c in lp.objective]) for k in range(degree + 1)]
        self.duals = [d for d, _ in duals]
        self.reduced = [r for _, r in duals]
        self.activity = [program.matrix.matvec(self.primal[k]) for k in range(degree + 1)]

    def _at_bound(self, index: int, column: bool) -> Polynomial:
        lp = self.lp
        status = int((self.basis.col_status if column else self.basis.row_status)[index])
        lower = (lp.col_lower if column else lp.row_lower)[index]
        upper = (lp.col_upper if column else lp.row_upper)[index]
        if status == AT_UPPER and upper is not None:
            return upper
        if status == AT_LOWER and lower is not None:
            return lower
        if lower is None and upper is None:
            return (Fraction(0),) * (lp.degree + 1)
        chosen = lower if lower is not None else upper
        assert chosen is not None
        return chosen

    def value(self, column: int) -> list[Fraction]:
        return [self.primal[k][column] for k in range(self.lp.degree + 1)]

    def row(self, row: int) -> list[Fraction]:
        return [self.activity[k][row] for k in range(self.lp.degree + 1)]

    def reduced_cost(self, column: int) -> list[Fraction]:
        return [self.reduced[k][column] for k in range(self.lp.degree + 1)]

    def dual(self, row: int) -> list[Fraction]:
        return [self.duals[k][row] for k in range(self.lp.degree + 1)]

    def primal_feasible(self) -> bool:
        lp = self.lp
        for j in range(lp.program.num_cols):
            if not _within(self.value(j), lp.col_lower[j], lp.col_upper[j]):
                return False
        for i in range(lp.program.num_rows):
            if not _within(self.row(i), lp.row_lower[i], lp.row_upper[i]):
                return False
        return True

    def entering(self, bland: bool) -> Entering | None:
        """A lexicographically improving non-basic variable, or None if the basis is dual
        feasible.

        Dantzig's rule (the lexicographically largest rate of improvement) unless ``bland``,
        then the first improving variable (Bland's rule, which cannot cycle).
        """
        lp = self.lp
        best: Entering | None = None
        best_rate: list[Fraction] | None = None
        candidates = [(True, j) for j in self.system.nonbasic_cols.tolist()]
        candidates += [(False, i) for i in self.system.tight_rows.tolist()]
        for is_column, index in candidates:
            # The objective moves with a column at rate d_j and with a row's activity at π_i.
            rate = self.reduced_cost(index) if is_column else self.dual(index)
            sign = lex_sign(rate)
            bounds = (lp.col_lower, lp.col_upper) if is_column else (lp.row_lower, lp.row_upper)
            if sign == 0 or _fixed(bounds[0][index], bounds[1][index]):
                continue
            at = self._side(index, column=is_column)
            if (sign > 0 and at == "upper") or (sign < 0 and at == "lower"):
                continue
            if bland:
                return Entering(is_column, index, sign)
            magnitude = [sign * r for r in rate]
            if best_rate is None or lex_sign(_sub(magnitude, best_rate)) > 0:
                best, best_rate = Entering(is_column, index, sign), magnitude
        return best

    def _side(self, index: int, column: bool) -> str:
        lp = self.lp
        status = int((self.basis.col_status if column else self.basis.row_status)[index])
        lower = (lp.col_lower if column else lp.row_lower)[index]
        upper = (lp.col_upper if column else lp.row_upper)[index]
        if status == AT_UPPER and upper is not None:
            return "upper"
        if status == AT_LOWER and lower is not None:
            return "lower"
        if lower is None and upper is None:
            return "free"
        return "lower" if lower is not None else "upper"


def _within(value: Sequence[Fraction], lower: PolyBound, upper: PolyBound) -> bool:
    if lower is not None and lex_sign(_sub(value, lower)) < 0:
        return False
    return not (upper is not None and lex_sign(_sub(upper, value)) < 0)


def _fixed(lower: PolyBound, upper: PolyBound) -> bool:
    return lower is not None and upper is not None and tuple(lower) == tuple(upper)


@dataclass(frozen=True)
class _Leaving:
    """A candidate of the ratio test: the step ``slack / rate`` until ``where`` reaches its
    bound ``side``; ``kind`` is "column", "row" or "flip" (the entering variable's own
    opposite bound); ``key`` breaks ties (columns, then rows, then the flip; by index)."""

    slack: list[Fraction]
    rate: Fraction
    key: tuple[int, int]
    kind: str
    where: int
    side: int

    def before(self, other: _Leaving | None) -> bool:
        """``slack / rate <lex other.slack / other.rate`` (rates positive), ties by key."""
        if other is None:
            return True
        difference = _sub(
            [s * other.rate for s in self.slack], [s * self.rate for s in other.slack]
        )
        sign = lex_sign(difference)
        return sign < 0 or (sign == 0 and self.key < other.key)


def _step(state: _State, entering: Entering) -> tuple[list[Fraction], list[Fraction]]:
    """Rates of change per unit step of the entering variable: of ``v_B`` and of ``M v``."""
    program = state.lp.program
    system = state.system
    rhs = [Fraction(0)] * len(system.tight_rows)
    if entering.is_column:
        column = program.matrix.select(system.tight_rows, np.array([entering.index]))
        for r, v in zip(column.rows.tolist(), column.values, strict=True):
            rhs[r] = -v * entering.direction
    else:
        tight_position = {int(i): k for k, i in enumerate(system.tight_rows)}
        rhs[tight_position[entering.index]] = Fraction(entering.direction)
    rates_basic = system.solver.solve(rhs)
    step_values = [Fraction(0)] * program.num_cols
    for j, rate in zip(system.basic_cols.tolist(), rates_basic, strict=True):
        step_values[j] = rate
    if entering.is_column:
        step_values[entering.index] = Fraction(entering.direction)
    return rates_basic, program.matrix.matvec(step_values)


def _candidates(
    value: list[Fraction], rate: Fraction, lower: PolyBound, upper: PolyBound, key: tuple[int, int]
) -> list[_Leaving]:
    """A basic column (``key[0] == 0``) or row moving at ``rate`` towards one of its bounds."""
    kind, where = ("column" if key[0] == 0 else "row"), key[1]
    if rate < 0 and lower is not None:
        return [_Leaving(_sub(value, lower), -rate, key, kind, where, AT_LOWER)]
    if rate > 0 and upper is not None:
        return [_Leaving(_sub(upper, value), rate, key, kind, where, AT_UPPER)]
    return []


def _ratio_test(state: _State, entering: Entering) -> _Leaving:
    """The lexicographic ratio test: the first variable to reach a bound."""
    lp = state.lp
    rates_basic, row_rates = _step(state, entering)
    candidates: list[_Leaving] = []
    for j, rate in zip(state.system.basic_cols.tolist(), rates_basic, strict=True):
        if rate != 0:
            candidates += _candidates(
                state.value(j), rate, lp.col_lower[j], lp.col_upper[j], (0, j)
            )
    for i in np.flatnonzero(state.basis.row_status == BASIC).tolist():
        if row_rates[i] != 0:
            candidates += _candidates(
                state.row(i), row_rates[i], lp.row_lower[i], lp.row_upper[i], (1, i)
            )
    index = entering.index
    own_lower = (lp.col_lower if entering.is_column else lp.row_lower)[index]
    own_upper = (lp.col_upper if entering.is_column else lp.row_upper)[index]
    if own_lower is not None and own_upper is not None:
        side = AT_UPPER if entering.direction > 0 else AT_LOWER
        candidates.append(
            _Leaving(_sub(own_upper, own_lower), Fraction(1), (2, index), "flip", index, side)
        )
    best: _Leaving | None = None
    for candidate in candidates:
        if candidate.before(best):
            best = candidate
    if best is None:
        raise ArithmeticError("the parametric LP is unbounded in the entering direction")
    return best


def _pivot(state: _State, entering: Entering) -> Basis:
    """One primal simplex step over Q(ε): the lexicographic ratio test, then the new basis."""
    leaving = _ratio_test(state, entering)
    col_status = state.basis.col_status.copy()
    row_status = state.basis.row_status.copy()
    own = col_status if entering.is_column else row_status
    if leaving.kind == "flip":
        own[entering.index] = leaving.side
        return Basis(col_status=col_status, row_status=row_status)
    own[entering.index] = BASIC
    (col_status if leaving.kind == "column" else row_status)[leaving.where] = leaving.side
    return Basis(col_status=col_status, row_status=row_status)


def lexicographic_optimum(
    lp: ParametricLP,
    basis: Basis,
    *,
    max_pivots: int = 200,
    deadline: float | None = None,
) -> ParametricSolution | None:
    """A basis optimal for all small ``ε > 0``, starting from ``basis``.

    Returns None if ``basis`` is not lexicographically primal feasible (the primal
    simplex method needs a feasible start) or no optimum is reached in ``max_pivots``
    pivots or by ``deadline`` (a ``time.perf_counter()`` instant).
    Free non-basic variables are put at status "zero" as HiGHS does.

    Raises
    ------
    seqform.lp.exact.basis.InvalidBasisError, seqform.lp.exact.linear_solver.ExactSolveError
        If a basis is not square or is singular.
    """
    state = _State(lp, basis)
    if not state.primal_feasible():
        logger.info("starting basis is not primal feasible for small ε")
        return None
    for pivots in range(max_pivots + 1):
        entering = state.entering(bland=pivots >= max_pivots // 2)
        if entering is None:
            values = tuple(tuple(state.value(j)) for j in range(lp.program.num_cols))
            duals = tuple(tuple(state.dual(i)) for i in range(lp.program.num_rows))
            return ParametricSolution(
                basis=state.basis, values=values, row_duals=duals, pivots=pivots
            )
        if pivots == max_pivots or (deadline is not None and time.perf_counter() > deadline):
            break
        state = _State(lp, _pivot(state, entering))
        logger.debug("pivot %d done", pivots + 1)
    logger.info("no lexicographic optimum within %d pivots or the time allowed", pivots)
    return None
