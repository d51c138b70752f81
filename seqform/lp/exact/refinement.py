"""A basis's primal violations scaled up and removed by HiGHS: iterative refinement.

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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.lp.exact.basis import BasisSystem, ExactBasicSolution, solve_system
from seqform.lp.exact.program import Basis, Bound, LinearProgram, float_problem
from seqform.lp.highs import HighsSession
from seqform.lp.problem import LPProblem
from seqform.lp.solvers import SolverError

__all__ = [
    "REFINEMENT_ROUNDS",
    "Refinement",
    "largest_violation",
    "refine_basis",
    "refinement_problem",
]

REFINEMENT_ROUNDS = 3
"""HiGHS solves of a refinement LP before the exact pivots take over (one is usually enough:
each round divides the violations by about ``2^50``)."""
_LARGEST_SCALE_BITS = 50
"""``S`` at most ``2^50``: a bound of order 1 scaled stays far below HiGHS's 1e20, which it
takes for infinite."""


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
        bits = min(_LARGEST_SCALE_BITS, max(0, -math.floor(math.log2(violation))))
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
