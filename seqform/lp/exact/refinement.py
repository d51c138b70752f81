"""A basis's violations scaled up and removed by HiGHS: iterative refinement, primal and dual.

A float-optimal basis re-solved in rationals (:func:`seqform.lp.exact.basis.solve_system`)
can break bounds by 1e-10: HiGHS solved the LP's float image, whose coefficients (a
gadget's 60-bit reach weights among them) are the exact ones rounded.  Exact simplex pivots
(:mod:`seqform.lp.exact.pivots`) remove such violations in theory, but on a very degenerate
LP (a gadget LP's basis has hundreds of zero reduced costs) the dual simplex walks the
optimal face pivot after pivot without changing the objective, and each pivot re-solves a
basis of thousands of rows in rationals: a Leduc 6×4 `resolve` gadget's basis was not
repaired in 120 pivots (two minutes).

Gleixner, Steffy and Wolter, "Iterative refinement for linear programming", INFORMS J.
Computing 28 (2016) 449–464 (SoPlex), hand the violations back to the float solver at a
scale where it sees them: with ``v̂`` the basis's exact values (columns and row
activities) and ``S`` a power of two near the inverse of the largest violation, the
*refinement LP* has the same matrix and objective and the bounds ``S (bound − v̂)``, in
which the basis breaks its bounds by about 1.  HiGHS, warm-started from the basis, takes
the degenerate pivots in floats with its own anti-degeneracy (milliseconds), and its new
basis is re-solved exactly; a few rounds at most.  The objective is the program's own, so
a dual feasible basis stays dual feasible to HiGHS's tolerances; the caller checks the
answer exactly and finishes with exact pivots if any are still needed.

The dual half (:func:`refine_dual`, Gleixner, Steffy and Wolter's refinement of the duals)
is for a basis that keeps every bound but has reduced costs of the wrong sign by 1e-12, as
HiGHS's bases of highly degenerate gadget LPs do: HiGHS's dual tolerance (1e-7) cannot see
them, and the exact primal simplex walks the optimal face with its objective unchanged.
With ``(π, d)`` the basis's exact row duals and reduced costs and ``S`` a power of two near
the inverse of the largest wrong sign, the *dual refinement LP* maximises ``S d @ x + S π @ t``
over the moves ``x = v − v̂`` and ``t = M x`` from the basic solution, bounds shifted to it.
The objective differs from ``c`` by a constant on the feasible set (``c = d + Mᵀπ``), so it
is the same LP, but HiGHS computes its reduced costs from the exact residual ``S d`` rather
than from ``c`` (no cancellation), and at the basis they are exactly ``S d`` and ``S π``:
the wrong signs are of order 1.  A row's activity ``t_i`` is a column of its own (with the
row ``M_i x − t_i = 0``) where ``π_i ≠ 0`` on an inequality row, so that its dual's sign is
seen too; elsewhere (equality rows, rows with ``π_i = 0``) HiGHS's own row dual has the
sign of the refined one.  HiGHS's *primal* simplex, warm-started from the basis (which is
primal feasible), takes the degenerate pivots in floats (a few hundred iterations,
hundredths of a second on a Leduc 6×4 gadget LP of 6,362 rows).  Its basis is exactly dual
feasible more often than not, but may break bounds by 1e-9 (the bounds are not scaled: the
moves along the optimal face are long); the primal refinement above and the exact pivots
then take over (:func:`seqform.lp.exact.pivots.repair_basis`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.lp.exact.basis import BasisSystem, ExactBasicSolution, InvalidBasisError, solve_system
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.exact.program import AT_LOWER, BASIC, Basis, Bound, LinearProgram, float_problem
from seqform.lp.highs import HighsSession
from seqform.lp.problem import LPProblem
from seqform.lp.solvers import SolverError

__all__ = [
    "REFINEMENT_ROUNDS",
    "DualRefinementProblem",
    "Refinement",
    "dual_refinement_problem",
    "largest_dual_violation",
    "largest_violation",
    "refine_basis",
    "refine_dual",
    "refinement_problem",
    "violation_count",
]

REFINEMENT_ROUNDS = 3
"""HiGHS solves of a refinement LP before the exact pivots take over (one is usually enough:
each round divides the violations by about ``2^50``)."""
_LARGEST_SCALE_BITS = 50
"""``S`` at most ``2^50``: a bound of order 1 scaled stays far below HiGHS's 1e20, which it
takes for infinite."""


def _scale_bits(violation: Fraction) -> int:
    """The refinement's scale ``2^bits`` for a positive ``violation``: ``-floor(log2 v)``
    within ``[0, _LARGEST_SCALE_BITS]``, from the numerator's and denominator's bit lengths,
    since a violation of a game with payoffs of 1e400 is no float (``math.log2`` converts
    it, and one below 1e-308 becomes 0)."""
    numerator, denominator = violation.numerator, violation.denominator
    power = numerator.bit_length() - denominator.bit_length()  # 2^(power-1) < v < 2^(power+1)
    if (numerator << max(0, -power)) < (denominator << max(0, power)):
        power -= 1  # v < 2^power
    return min(_LARGEST_SCALE_BITS, max(0, -power))


@dataclass(frozen=True)
class Refinement:
    """Where iterative refinement left a basis.

    basis : the last basis (the given one if no round improved it)
    solution : its exact basic solution
    rounds : HiGHS solves of a refinement LP (0 when the basis was primal feasible)
    """

    basis: Basis
    solution: ExactBasicSolution
    rounds: int


def largest_violation(program: LinearProgram, solution: ExactBasicSolution) -> Fraction:
    """The largest amount by which a column's value or a row's activity breaks its bounds
    (0 when the basic solution is primal feasible)."""
    worst = Fraction(0)
    for lower, upper, level in _levels(program, solution):
        if lower is not None and level < lower:
            worst = max(worst, lower - level)
        elif upper is not None and level > upper:
            worst = max(worst, level - upper)
    return worst


def largest_dual_violation(program: LinearProgram, solution: ExactBasicSolution) -> Fraction:
    """The largest reduced cost or row dual of the wrong sign (a positive one away from its
    variable's upper bound, a negative one away from its lower; 0 when the basis is dual
    feasible, as :func:`seqform.lp.exact.basis.solve_system` checks it)."""
    worst = Fraction(0)
    for (lower, upper, level), price in zip(
        _levels(program, solution), _prices(solution), strict=True
    ):
        if _wrong_sign(price, level, lower, upper):
            worst = max(worst, abs(price))
    return worst


def violation_count(program: LinearProgram, solution: ExactBasicSolution) -> int:
    """The bounds a basic solution breaks plus its reduced costs and row duals of the wrong
    sign: 0 exactly when it is optimal."""
    count = 0
    for (lower, upper, level), price in zip(
        _levels(program, solution), _prices(solution), strict=True
    ):
        broken = (lower is not None and level < lower) or (upper is not None and level > upper)
        count += int(broken) + int(_wrong_sign(price, level, lower, upper))
    return count


def _prices(solution: ExactBasicSolution) -> list[Fraction]:
    """The reduced costs of the columns, then the duals of the rows (a row's activity's
    reduced cost), in the order of :func:`_levels`."""
    return [*solution.reduced_costs, *solution.row_duals]


def _wrong_sign(price: Fraction, level: Fraction, lower: Bound, upper: Bound) -> bool:
    return (price > 0 and (upper is None or level != upper)) or (
        price < 0 and (lower is None or level != lower)
    )


def _levels(
    program: LinearProgram, solution: ExactBasicSolution
) -> list[tuple[Bound, Bound, Fraction]]:
    columns = zip(program.col_lower, program.col_upper, solution.values, strict=True)
    rows = zip(program.row_lower, program.row_upper, solution.row_activity, strict=True)
    return [*columns, *rows]


def _shifted(
    bounds: Sequence[Bound], levels: Sequence[Fraction], scale: Fraction, sign: float
) -> np.ndarray:
    pairs = zip(bounds, levels, strict=True)
    return np.array(
        [sign * np.inf if b is None else float((b - v) * scale) for b, v in pairs], dtype=float
    )


def refinement_problem(
    program: LinearProgram, solution: ExactBasicSolution, scale: Fraction
) -> LPProblem:
    """The refinement LP (module docstring): ``program``'s matrix and objective in floats,
    every bound ``scale (bound − level)`` at the basic solution's exact levels."""
    image = float_problem(program)
    values, rows = solution.values, solution.row_activity
    return LPProblem(
        matrix=image.matrix,
        objective=image.objective,
        col_lower=_shifted(program.col_lower, values, scale, -1.0),
        col_upper=_shifted(program.col_upper, values, scale, 1.0),
        row_lower=_shifted(program.row_lower, rows, scale, -1.0),
        row_upper=_shifted(program.row_upper, rows, scale, 1.0),
    )


def refine_basis(
    program: LinearProgram,
    basis: Basis,
    solution: ExactBasicSolution | None = None,
    *,
    rounds: int = REFINEMENT_ROUNDS,
) -> Refinement:
    """Rounds of iterative refinement (module docstring) until the basis is exactly primal
    feasible, HiGHS fails, or ``rounds`` are spent; the last basis and its exact solution.

    ``solution`` is ``basis``'s exact basic solution, if the caller has it.  A HiGHS failure
    on a refinement LP (a status other than optimal) ends the rounds: the caller's exact
    pivots then start from the best basis so far.
    """
    if solution is None:
        solution = solve_system(BasisSystem(program, basis))
    done = 0
    while done < rounds:
        violation = largest_violation(program, solution)
        if violation == 0:
            break
        bits = _scale_bits(violation)
        problem = refinement_problem(program, solution, Fraction(2) ** bits)
        session = HighsSession(problem, "simplex")
        session.set_basis(basis)
        done += 1
        try:
            found = session.solve(basis=True).basis
        except SolverError:
            break
        if found is None:
            break
        basis, solution = found, solve_system(BasisSystem(program, found))
    return Refinement(basis, solution, done)


@dataclass(frozen=True)
class DualRefinementProblem:
    """The dual refinement LP (module docstring) and how its basis maps to the program's.

    problem : the LP HiGHS solves: the program's columns, then one column ``t_i`` per row in
        ``activity_rows``; the program's rows, those rows written ``M_i x − t_i = 0``
    activity_rows : the inequality rows whose activity is a column, in the order of those
        columns
    """

    problem: LPProblem
    activity_rows: np.ndarray

    def warm_start(self, basis: Basis) -> Basis:
        """The program's basis as a basis of the refinement LP: each activity column takes
        its row's status, and its row, an equation, is non-basic."""
        rows = basis.row_status.copy()
        rows[self.activity_rows] = AT_LOWER
        return Basis(
            col_status=np.concatenate([basis.col_status, basis.row_status[self.activity_rows]]),
            row_status=rows,
        )

    def program_basis(self, basis: Basis) -> Basis | None:
        """The refinement LP's basis as the program's, or None if one of the equations
        ``M_i x − t_i = 0`` is basic (it then names no basis of the program)."""
        if np.any(basis.row_status[self.activity_rows] == BASIC):
            return None
        columns = len(basis.col_status) - len(self.activity_rows)
        rows = basis.row_status.copy()
        rows[self.activity_rows] = basis.col_status[columns:]
        return Basis(col_status=basis.col_status[:columns].copy(), row_status=rows)


def dual_refinement_problem(
    program: LinearProgram, solution: ExactBasicSolution, scale: Fraction
) -> DualRefinementProblem:
    """The dual refinement LP (module docstring) at a basic solution: the objective
    ``scale`` times its exact reduced costs and row duals, every bound shifted to the
    solution's exact levels (not scaled)."""
    image = float_problem(program)
    rows = program.num_rows
    activity = np.asarray(
        [
            i
            for i, dual in enumerate(solution.row_duals)
            if dual != 0 and program.row_lower[i] != program.row_upper[i]
        ],
        dtype=np.int64,
    )
    one = Fraction(1)
    row_lower = _shifted(program.row_lower, solution.row_activity, one, -1.0)
    row_upper = _shifted(program.row_upper, solution.row_activity, one, 1.0)
    activity_lower, activity_upper = row_lower[activity], row_upper[activity]
    row_lower[activity] = 0.0
    row_upper[activity] = 0.0
    count = len(activity)
    extra = sp.csc_array((-np.ones(count), (activity, np.arange(count))), shape=(rows, count))
    objective = [float(d * scale) for d in solution.reduced_costs]
    objective += [float(solution.row_duals[i] * scale) for i in activity.tolist()]
    problem = LPProblem(
        matrix=sp.hstack([image.matrix, extra]).tocsc(),
        objective=np.asarray(objective, dtype=float),
        col_lower=np.concatenate(
            [_shifted(program.col_lower, solution.values, one, -1.0), activity_lower]
        ),
        col_upper=np.concatenate(
            [_shifted(program.col_upper, solution.values, one, 1.0), activity_upper]
        ),
        row_lower=row_lower,
        row_upper=row_upper,
    )
    return DualRefinementProblem(problem, activity)


_PRIMAL_SIMPLEX = 4
"""HiGHS's ``simplex_strategy`` for its primal simplex: the dual refinement LP starts
primal feasible, and the dual simplex would first perturb the costs, of order 1 there."""


def refine_dual(
    program: LinearProgram, basis: Basis, solution: ExactBasicSolution | None = None
) -> Refinement:
    """One round of dual iterative refinement (module docstring) of a primal feasible basis
    that is not dual feasible; the given basis back (``rounds`` 0) when it is dual feasible,
    and (``rounds`` 1) when HiGHS fails or returns no basis of the program."""
    if solution is None:
        solution = solve_system(BasisSystem(program, basis))
    violation = largest_dual_violation(program, solution)
    if violation == 0:
        return Refinement(basis, solution, 0)
    bits = _scale_bits(violation)
    refined = dual_refinement_problem(program, solution, Fraction(2) ** bits)
    session = HighsSession(refined.problem, "simplex")
    session.highs.setOptionValue("simplex_strategy", _PRIMAL_SIMPLEX)
    session.set_basis(refined.warm_start(basis))
    try:
        found = session.solve(basis=True).basis
    except SolverError:
        return Refinement(basis, solution, 1)
    mapped = None if found is None else refined.program_basis(found)
    if mapped is None:
        return Refinement(basis, solution, 1)
    try:
        return Refinement(mapped, solve_system(BasisSystem(program, mapped)), 1)
    except (InvalidBasisError, ExactSolveError):
        return Refinement(basis, solution, 1)
