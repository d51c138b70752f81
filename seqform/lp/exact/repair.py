"""What the exact routes do with a float basis: repaired to an exactly optimal one by
iterative refinement and exact pivots (:func:`seqform.lp.exact.pivots.repair_basis`), or,
when that does not reach one within :data:`~seqform.base.limits.Limits.exact_pivots`
pivots, re-solved exactly as it is (:func:`~seqform.lp.exact.basis.resolve_basis`), with
the reason, for the caller to report (bounds instead of a proof).
"""

from __future__ import annotations

from dataclasses import dataclass

from seqform.lp.exact.basis import ExactBasicSolution, resolve_basis
from seqform.lp.exact.pivots import RepairError, repair_basis
from seqform.lp.exact.program import Basis, LinearProgram

__all__ = ["ExactBasisOutcome", "repair_or_resolve"]


@dataclass(frozen=True)
class ExactBasisOutcome:
    """A float basis re-solved exactly, after exact pivots where it was not optimal.

    solution : the exact basic solution of the repaired basis, or of the given one when the
        pivots did not reach an optimal basis (its feasibility flags then say what fails)
    pivots : the exact pivots that reached an optimal basis (0 when the given one was
        optimal, or when the repair failed)
    failure : why the pivots did not reach an optimal basis; None when they did
    refinements : HiGHS solves of iterative refinement before the pivots (0 when the given
        basis was optimal, or when the repair failed)
    """

    solution: ExactBasicSolution
    pivots: int
    failure: str | None = None
    refinements: int = 0

    def repair(self) -> str | None:
        """What repaired the basis, in words ("2 HiGHS solve(s) of iterative refinement and
        1 exact simplex pivot(s)"); None when nothing did."""
        steps = []
        if self.refinements:
            steps.append(f"{self.refinements} HiGHS solve(s) of iterative refinement")
        if self.pivots:
            steps.append(f"{self.pivots} exact simplex pivot(s)")
        return " and ".join(steps) or None


def repair_or_resolve(
    program: LinearProgram, basis: Basis, *, max_pivots: int | None = None
) -> ExactBasisOutcome:
    """:func:`repair_basis` from ``basis``; if it fails, ``basis`` re-solved exactly as it
    is (:func:`~seqform.lp.exact.basis.resolve_basis`), with the reason.

    Raises
    ------
    seqform.lp.exact.basis.InvalidBasisError
        If a basis is not square or puts a variable at an infinite bound.
    seqform.lp.exact.linear_solver.ExactSolveError
        If the given basis's matrix is singular.
    """
    try:
        repaired = repair_basis(program, basis, max_pivots=max_pivots)
    except RepairError as exc:
        return ExactBasisOutcome(resolve_basis(program, basis), 0, str(exc))
    return ExactBasisOutcome(repaired.solution, repaired.pivots, refinements=repaired.refinements)
