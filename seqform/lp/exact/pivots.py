"""Exact simplex pivots from a float basis to an exactly optimal one.

HiGHS's optimal basis is optimal to its tolerances (1e-7); re-solved in rationals
(:func:`seqform.lp.exact.basis.resolve_basis`) it can miss exact optimality by a reduced
cost of 1e-17 or a basic value of −1e-17, most often on degenerate LPs (a gadget LP has
many optima).  The standard remedy is to continue the simplex method in exact arithmetic
from that basis, which is then only a few pivots from an exactly optimal one: Applegate,
Cook, Dash and Espinoza, "Exact solutions to linear programming problems", Operations
Research Letters 35 (2007) 693–699 (QSopt_ex); Gleixner, Steffy and Wolter, "Iterative
refinement for linear programming", INFORMS J. Computing 28 (2016) 449–464 (SoPlex).

A primal infeasible basis is first handed back to HiGHS at a scale where its violations
are visible (iterative refinement, :mod:`seqform.lp.exact.refinement`): on a degenerate
LP the exact dual simplex below can take hundreds of pivots where HiGHS takes a hundred
float iterations in a fraction of a second.  The pivots then finish from HiGHS's basis.

:func:`repair_basis` does so in the basis's own terms (:mod:`seqform.lp.exact.basis`): the
variables are the columns ``v`` and the rows' activities ``M v``, each between its bounds;
a basis is the basic columns ``B`` and the tight rows ``T`` with ``M[T, B]`` square.

* A basis that is exactly dual feasible but not primal feasible takes *dual* simplex pivots
  (a basic variable outside its bounds leaves at the bound it violates; the entering
  variable is chosen by the exact dual ratio test, so dual feasibility is kept).
* A basis that is exactly primal feasible but not dual feasible takes *primal* simplex
  pivots (a non-basic variable whose reduced cost improves the objective enters; the
  leaving one is chosen by the exact ratio test, so primal feasibility is kept, and an
  entering variable that reaches its own other bound first just moves there).
* A basis that is neither first takes dual pivots for an objective shifted to make it dual
  feasible (cost shifting), which reach a primal feasible basis; then primal pivots for
  the true objective.

Entering variables are chosen by the largest reduced cost (Dantzig) and ties broken by the
smallest index.  Dantzig's rule can cycle on a degenerate LP: a sequence of pivots that
leave the objective unchanged and return to an earlier basis (Beale 1955).  After
:data:`BLAND_AFTER` degenerate pivots in a row, pivots are chosen by the smallest index
only (Bland 1977), which cannot cycle, until a pivot changes the objective; a basis seen
before has the same objective, so no cycle can pass through a pivot that changes it.
Counting the degenerate pivots in a row, not all pivots, makes the rule start within the
pivot limit however degenerate the start is.  Each pivot re-solves the new basis exactly;
the answer is exact.

The exact routes call it through :func:`seqform.lp.exact.repair.repair_or_resolve`.

Size: the primal and dual pivots, their ratio tests and the refinement passes before them
are one algorithm, whose parts share the basis's variables and bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.base.limits import LIMITS
from seqform.lp.exact.basis import BasisSystem, ExactBasicSolution, solve_system
from seqform.lp.exact.program import AT_LOWER, AT_UPPER, BASIC, Basis, Bound, LinearProgram
from seqform.lp.exact.refinement import refine_basis, refine_dual, violation_count

__all__ = [
    "BLAND_AFTER",
    "RepairError",
    "RepairedBasis",
    "repair_basis",
]

BLAND_AFTER = 3
"""Degenerate pivots in a row (the objective unchanged) after which Bland's rule is used."""
REFINEMENT_PASSES = 8
"""Passes of iterative refinement, primal or dual (:func:`_refined`), before the exact
pivots: a Leduc 6×4 gadget basis with 400 reduced costs of the wrong sign took six (about
a CPU second each), where an exact pivot on it takes half a second and they were counted
in dozens."""
_ZERO = Fraction(0)


class RepairError(ArithmeticError):
    """No exactly optimal basis was reached by exact pivots from the given one."""


@dataclass(frozen=True)
class RepairedBasis:
    """An exactly optimal basis reached from a float one.

    basis : the final basis (HiGHS status codes)
    solution : its exact basic solution, optimal (:attr:`ExactBasicSolution.optimal`)
    pivots : the exact pivots taken (0 when the given basis was already optimal)
    refinements : HiGHS solves of a refinement LP before the pivots
        (:func:`seqform.lp.exact.refinement.refine_basis`)
    """

    basis: Basis
    solution: ExactBasicSolution
    pivots: int
    refinements: int = 0


@dataclass(frozen=True)
class _Variable:
    """A column (``row`` False) or a row's activity (``row`` True), by its index."""

    row: bool
    index: int


def repair_basis(
    program: LinearProgram,
    basis: Basis,
    *,
    max_pivots: int | None = None,
    refine: bool = True,
    passes: int | None = None,
) -> RepairedBasis:
    """Iterative refinement, then exact simplex pivots from ``basis`` until it is exactly
    optimal (module docstring).

    Parameters
    ----------
    program
        The LP (maximised).
    basis
        A basis of it, usually HiGHS's optimal one.
    max_pivots
        Pivots after which to give up; default ``LIMITS.exact_pivots``.
    refine
        Start with iterative refinement of a basis that is not optimal, primal
        (:func:`seqform.lp.exact.refinement.refine_basis`) or dual
        (:func:`seqform.lp.exact.refinement.refine_dual`); without it, pivots only.
    passes
        Refinement passes, primal or dual, before the pivots (default
        :data:`REFINEMENT_PASSES`).

    Raises
    ------
    RepairError
        If the LP is found unbounded or infeasible, or ``max_pivots`` pivots do not reach
        an optimal basis.
    seqform.lp.exact.basis.InvalidBasisError
        If a basis is not square or puts a variable at an infinite bound.
    """
    limit = LIMITS.exact_pivots if max_pivots is None else max_pivots
    system = BasisSystem(program, basis)
    solution = solve_system(system)
    pivots, rounds = 0, 0
    if refine and not solution.optimal:
        rounds_left = REFINEMENT_PASSES if passes is None else passes
        basis, solution, rounds = _refined(program, system, solution, rounds_left)
        system = BasisSystem(program, basis)
    if not solution.primal_feasible and not solution.dual_feasible:
        shifted = program.with_objective(_shifted_objective(system, solution))
        basis, _, pivots = _optimise(shifted, BasisSystem(shifted, basis), limit, 0)
        system = BasisSystem(program, basis)
        solution = solve_system(system)
    basis, solution, pivots = _optimise(program, system, limit, pivots, solution)
    return RepairedBasis(basis, solution, pivots, rounds)


def _refined(
    program: LinearProgram, system: BasisSystem, solution: ExactBasicSolution, passes: int
) -> tuple[Basis, ExactBasicSolution, int]:
    """Iterative refinement first (:mod:`seqform.lp.exact.refinement`), in up to ``passes``
    passes: a basis that breaks bounds takes the primal refinement, for the objective
    shifted to make it dual feasible if it is not (HiGHS's basis for it is then usually
    optimal for the true objective too, or a few primal pivots from it); a primal feasible
    one that is not dual feasible takes the dual refinement.  Each pass can leave the other
    half's violations (1e-9 or 1e-13), fewer each time, which the next pass removes; on a
    degenerate LP the passes can also come back to a basis seen before, and then stop.  The
    basis with the fewest violations (the last of equals), its exact solution for
    ``program`` and HiGHS's solves."""
    basis, rounds = system.basis, 0
    best = (violation_count(program, solution), basis, solution)
    seen = {_key(basis)}
    for _ in range(passes):
        if solution.optimal:
            break
        work = program
        if solution.primal_feasible:
            refined = refine_dual(program, basis, solution)
        else:
            if not solution.dual_feasible:
                shifted = _shifted_objective(BasisSystem(program, basis), solution)
                work = program.with_objective(shifted)
            refined = refine_basis(work, basis)
        rounds += refined.rounds
        if refined.basis is basis or _key(refined.basis) in seen:
            break
        basis, solution = refined.basis, refined.solution
        seen.add(_key(basis))
        if work is not program:  # its duals are the shifted objective's
            solution = solve_system(BasisSystem(program, basis))
        count = violation_count(program, solution)
        if count <= best[0]:
            best = (count, basis, solution)
    return best[1], best[2], rounds


def _key(basis: Basis) -> tuple[bytes, bytes]:
    return basis.col_status.tobytes(), basis.row_status.tobytes()


def _optimise(
    program: LinearProgram,
    system: BasisSystem,
    limit: int,
    pivots: int,
    solution: ExactBasicSolution | None = None,
) -> tuple[Basis, ExactBasicSolution, int]:
    """Dual or primal pivots from ``system``'s basis, primal or dual feasible, to an
    optimal one; the basis, its solution and the pivots counted so far."""
    basis = system.basis
    if solution is None:
        solution = solve_system(system)
    degenerate = 0  # pivots in a row that left the objective where it was
    while not solution.optimal:
        if pivots >= limit:
            raise RepairError(f"no exactly optimal basis after {limit} exact simplex pivots")
        bland = degenerate >= BLAND_AFTER
        if solution.dual_feasible:
            basis = _dual_pivot(system, solution, bland=bland)
        elif solution.primal_feasible:
            basis = _primal_pivot(system, solution, bland=bland)
        else:
            raise RepairError(
                f"the basis lost both primal and dual feasibility after {pivots} exact pivots"
            )
        pivots += 1
        before = solution.objective
        system = BasisSystem(program, basis)
        solution = solve_system(system)
        degenerate = degenerate + 1 if solution.objective == before else 0
    return basis, solution, pivots


def _shifted_objective(system: BasisSystem, solution: ExactBasicSolution) -> list[Fraction]:
    """The objective shifted so that the basis is dual feasible (cost shifting, as SoPlex
    and HiGHS do): each non-basic column's reduced cost of the wrong sign is taken off its
    objective coefficient, and a tight row's dual ``π_i`` of the wrong sign off the row's
    activity ``M_i v``, i.e. ``−π_i M_i`` added to the objective (which moves ``π_i`` by
    that amount and leaves every column's reduced cost as it was)."""
    program = system.program
    objective = [Fraction(c) for c in program.objective]
    for variable in _nonbasic(system.basis):
        cost = _reduced_cost(solution, variable)
        up, down = _moves(program, solution, variable)
        if not ((cost > 0 and up) or (cost < 0 and down)):
            continue
        if not variable.row:
            objective[variable.index] -= cost
            continue
        row = program.matrix.select(np.asarray([variable.index]), np.arange(program.num_cols))
        for column, value in zip(row.cols.tolist(), row.values, strict=True):
            objective[column] -= cost * value
    return objective


def _bounds(program: LinearProgram, variable: _Variable) -> tuple[Bound, Bound]:
    if variable.row:
        return program.row_lower[variable.index], program.row_upper[variable.index]
    return program.col_lower[variable.index], program.col_upper[variable.index]


def _level(solution: ExactBasicSolution, variable: _Variable) -> Fraction:
    if variable.row:
        return solution.row_activity[variable.index]
    return solution.values[variable.index]


def _reduced_cost(solution: ExactBasicSolution, variable: _Variable) -> Fraction:
    """``d``: the objective's rate as the variable moves up, the others non-basic fixed
    (a row's activity: its dual ``π_i``)."""
    if variable.row:
        return solution.row_duals[variable.index]
    return solution.reduced_costs[variable.index]


def _nonbasic(basis: Basis) -> list[_Variable]:
    return [_Variable(False, int(j)) for j in np.flatnonzero(basis.col_status != BASIC)] + [
        _Variable(True, int(i)) for i in np.flatnonzero(basis.row_status != BASIC)
    ]


def _basic(basis: Basis) -> list[_Variable]:
    return [_Variable(False, int(j)) for j in np.flatnonzero(basis.col_status == BASIC)] + [
        _Variable(True, int(i)) for i in np.flatnonzero(basis.row_status == BASIC)
    ]


def _moves(
    program: LinearProgram, solution: ExactBasicSolution, variable: _Variable
) -> tuple[bool, bool]:
    """Whether a non-basic variable can move up and down from its level."""
    lower, upper = _bounds(program, variable)
    level = _level(solution, variable)
    return (upper is None or level < upper), (lower is None or level > lower)


def _order(candidates: list[tuple[Fraction, _Variable]], bland: bool) -> _Variable:
    """The largest score (Dantzig), ties to the smallest index; or the smallest index."""

    def index(variable: _Variable) -> tuple[int, int]:
        return (int(variable.row), variable.index)

    if bland:
        return min(candidates, key=lambda item: index(item[1]))[1]
    return min(candidates, key=lambda item: (-item[0], index(item[1])))[1]


def _with_status(basis: Basis, variable: _Variable, status: int) -> Basis:
    col_status, row_status = basis.col_status.copy(), basis.row_status.copy()
    (row_status if variable.row else col_status)[variable.index] = status
    return Basis(col_status=col_status, row_status=row_status)


def _direction(
    program: LinearProgram, system: BasisSystem, entering: _Variable, sign: int
) -> tuple[list[Fraction], list[Fraction]]:
    """``(Δv, Δ(M v))`` per unit step of ``entering`` in direction ``sign``, the other
    non-basic variables fixed and the tight rows kept at their bounds."""
    tight = system.tight_rows
    if entering.row:
        rhs = [Fraction(sign) if i == entering.index else _ZERO for i in tight.tolist()]
    else:
        column = program.matrix.select(tight, np.asarray([entering.index]))
        rhs = [_ZERO] * len(tight)
        for r, value in zip(column.rows.tolist(), column.values, strict=True):
            rhs[r] = -sign * value
    basic = system.solver.solve(rhs)
    change = [_ZERO] * program.num_cols
    for j, value in zip(system.basic_cols.tolist(), basic, strict=True):
        change[j] = value
    if not entering.row:
        change[entering.index] = Fraction(sign)
    return change, program.matrix.matvec(change)


def _primal_pivot(system: BasisSystem, solution: ExactBasicSolution, *, bland: bool) -> Basis:
    """One primal simplex pivot (or bound flip) of a primal feasible basis."""
    program, basis = system.program, system.basis
    candidates: list[tuple[Fraction, _Variable]] = []
    for variable in _nonbasic(basis):
        cost = _reduced_cost(solution, variable)
        up, down = _moves(program, solution, variable)
        if (cost > 0 and up) or (cost < 0 and down):
            candidates.append((abs(cost), variable))
    if not candidates:
        raise RepairError("no improving variable, yet the basis is not dual feasible")
    entering = _order(candidates, bland)
    sign = 1 if _reduced_cost(solution, entering) > 0 else -1
    change, row_change = _direction(program, system, entering, sign)
    lower, upper = _bounds(program, entering)
    own = upper if sign > 0 else lower
    level = _level(solution, entering)
    best: tuple[Fraction, tuple[int, int], _Variable, int] | None = None
    if own is not None:
        best = (abs(own - level), (-1, -1), entering, AT_UPPER if sign > 0 else AT_LOWER)
    for variable in _basic(basis):
        rate = row_change[variable.index] if variable.row else change[variable.index]
        if rate == 0:
            continue
        low, high = _bounds(program, variable)
        bound, status = (high, AT_UPPER) if rate > 0 else (low, AT_LOWER)
        if bound is None:
            continue
        step = (bound - _level(solution, variable)) / rate
        key = (step, (int(variable.row), variable.index), variable, status)
        if best is None or key[:2] < best[:2]:
            best = key
    if best is None:
        raise RepairError("the LP is unbounded along an improving exact pivot")
    _, _, leaving, status = best
    if leaving == entering:  # a bound flip: the entering variable reaches its other bound
        return _with_status(basis, entering, status)
    return _with_status(_with_status(basis, leaving, status), entering, BASIC)


def _dual_pivot(system: BasisSystem, solution: ExactBasicSolution, *, bland: bool) -> Basis:
    """One dual simplex pivot of a dual feasible basis."""
    program, basis = system.program, system.basis
    violations: list[tuple[Fraction, _Variable]] = []
    for variable in _basic(basis):
        low, high = _bounds(program, variable)
        level = _level(solution, variable)
        if low is not None and level < low:
            violations.append((low - level, variable))
        elif high is not None and level > high:
            violations.append((level - high, variable))
    leaving = _order(violations, bland)
    low, high = _bounds(program, leaving)
    level = _level(solution, leaving)
    raise_it = low is not None and level < low
    status = AT_LOWER if raise_it else AT_UPPER
    rates = _rates(program, system, leaving)
    best: tuple[Fraction, tuple[int, int], _Variable] | None = None
    for variable in _nonbasic(basis):
        rate = rates(variable)
        if rate == 0:
            continue
        up, down = _moves(program, solution, variable)
        # the leaving variable must move towards its violated bound
        if not ((up and (rate > 0) == raise_it) or (down and (rate < 0) == raise_it)):
            continue
        ratio = abs(_reduced_cost(solution, variable) / rate)
        key = (ratio, (int(variable.row), variable.index), variable)
        if best is None or key[:2] < best[:2]:
            best = key
    if best is None:
        raise RepairError("the LP is infeasible: the dual ratio test finds no entering variable")
    entering = best[2]
    return _with_status(_with_status(basis, leaving, status), entering, BASIC)


def _rates(
    program: LinearProgram, system: BasisSystem, leaving: _Variable
) -> Callable[[_Variable], Fraction]:
    """``g(variable)``: the leaving basic variable's rate as a non-basic one moves up.

    With ``x_r = h @ v`` (``h`` the unit vector of a basic column, or row ``r`` of ``M``)
    and ``M[T, B].T ρ = h_B``: a non-basic column ``q`` moves it at ``h_q − ρ @ M[T, q]``,
    a tight row ``i``'s activity at ``ρ_i``.
    """
    tight = system.tight_rows
    if leaving.row:
        row = program.matrix.select(np.asarray([leaving.index]), np.arange(program.num_cols))
        h = [_ZERO] * program.num_cols
        for c, value in zip(row.cols.tolist(), row.values, strict=True):
            h[c] = value
    else:
        h = [_ZERO] * program.num_cols
        h[leaving.index] = Fraction(1)
    rho = system.solver.solve_transpose([h[j] for j in system.basic_cols.tolist()])
    spread = [_ZERO] * program.num_rows
    for i, value in zip(tight.tolist(), rho, strict=True):
        spread[i] = value
    priced = program.matrix.rmatvec(spread)

    def rate(variable: _Variable) -> Fraction:
        if variable.row:
            return spread[variable.index]
        return h[variable.index] - priced[variable.index]

    return rate
