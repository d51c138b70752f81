"""Exploring the optimal face of an exact LP by linear objectives: optima, vertices, dimension.

:class:`FaceOptimiser` maximises linear objectives over one
:class:`~seqform.lp.exact.program.LinearProgram` in one warm-started HiGHS model, in floats
or with every optimum re-solved and verified exactly (:func:`seqform.lp.exact.basis.resolve_basis`).
:class:`Vertices` keeps the distinct points found; :func:`settle_dimension` finds the
dimension of their affine hull, adding vertices along random directions orthogonal to it
(if ``max ℓ·x > min ℓ·x`` for such an ``ℓ`` the hull grows, otherwise the face lies in it;
for a random ``ℓ`` this fails only with probability 0).  Used by
:mod:`seqform.questions.ranges`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.lp.exact.basis import resolve_basis
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.exact.program import HighsModel, LinearProgram
from seqform.lp.problem import FloatSolution
from seqform.lp.solvers import InfeasibleError

__all__ = [
    "FLOAT_TOLERANCE",
    "FaceOptimiser",
    "Number",
    "Vertices",
    "maximise_or_none",
    "settle_dimension",
]

FLOAT_TOLERANCE = 1e-7  # float mode: numbers this close are equal (HiGHS's own tolerance)
Number = Any  # Fraction in exact mode, float otherwise


class FaceOptimiser:
    """Maximises linear objectives over one LP, in floats or exactly (module docstring)."""

    def __init__(self, program: LinearProgram, exact: bool) -> None:
        self.program = program
        self.exact = exact
        self.model = HighsModel(program)
        self.solved = 0
        self.verified = True

    def maximise(
        self, objective: Mapping[int, Number], *, proof: bool = True
    ) -> tuple[Number, list[Number]]:
        """``(optimum, columns)``; raises :class:`InfeasibleError`.

        In exact mode the optimum is proven; with ``proof=False`` only the point is made
        exact (a primal-feasible vertex; dual feasibility is not required).
        """
        vector = np.zeros(self.program.num_cols)
        for column, coefficient in objective.items():
            vector[column] = float(coefficient)
        self.model.set_objective(vector)
        result = self.model.maximise()
        self.solved += 1
        if not self.exact:
            return result.objective, result.primal.tolist()
        return self._exact(objective, result, proof)

    def _exact(
        self, objective: Mapping[int, Number], result: FloatSolution, proof: bool
    ) -> tuple[Number, list[Number]]:
        exact_objective = [Fraction(0)] * self.program.num_cols
        for column, coefficient in objective.items():
            exact_objective[column] = Fraction(coefficient)
        if result.basis is not None:
            try:
                solution = resolve_basis(self.program.with_objective(exact_objective), result.basis)
            except (ArithmeticError, ExactSolveError):
                solution = None
            if solution is not None and solution.optimal:
                return solution.objective, list(solution.values)
            if solution is not None and solution.primal_feasible and not proof:
                return Fraction(result.objective), list(solution.values)
        if not proof:
            return Fraction(result.objective), []
        self.verified = False
        return Fraction(result.objective), [Fraction(v) for v in result.primal]


def maximise_or_none(
    optimiser: FaceOptimiser, objective: Mapping[int, Number]
) -> tuple[Number, list[Number]] | None:
    try:
        return optimiser.maximise(objective)
    except InfeasibleError:
        return None


class Vertices:
    """The optimal plans found so far (the vertices of ``P``), without repeats.

    Exact plans are compared exactly; float ones on a grid of :data:`FLOAT_TOLERANCE`.
    """

    def __init__(self, n: int, exact: bool) -> None:
        self.n = n
        self.exact = exact
        self.plans: list[list[Number]] = []
        self._seen: set[tuple[Any, ...]] = set()

    def remember(self, columns: Sequence[Number], scale: Number = 1) -> None:
        """The plan in the first ``n`` columns, divided by ``scale`` (Charnes–Cooper ``t``)."""
        plan = [columns[s] / scale for s in range(self.n)]
        if not self.exact:
            plan = [max(float(p), 0.0) for p in plan]
        key = (
            tuple(plan) if self.exact else tuple(np.rint(np.array(plan) / FLOAT_TOLERANCE).tolist())
        )
        if key not in self._seen:
            self._seen.add(key)
            self.plans.append(plan)


def _rank(vertices: list[list[Number]], exact: bool) -> int:
    if len(vertices) < 2:
        return 0
    differences = [[a - b for a, b in zip(v, vertices[0], strict=True)] for v in vertices[1:]]
    if exact:
        import flint

        rows = [[flint.fmpq(d.numerator, d.denominator) for d in row] for row in differences]
        return int(flint.fmpq_mat(rows).rank())
    return int(np.linalg.matrix_rank(np.array(differences, dtype=float), tol=FLOAT_TOLERANCE))


def settle_dimension(
    face_lp: FaceOptimiser,
    vertices: list[list[Number]],
    remember: Callable[[Sequence[Number]], None],
    n: int,
    exact: bool,
    rng: np.random.Generator,
) -> int:
    """The dimension of the face, adding vertices along random unseen directions.

    Directions come in batches (1, 2, 4, … up to 32) from the orthogonal complement of the
    vertices found; the search stops when a whole batch finds no new extent.
    """
    batch = 1
    for _ in range(n + 1):
        rank = _rank(vertices, exact)
        if len(vertices) >= 2:
            differences = np.array(
                [[float(a - b) for a, b in zip(v, vertices[0], strict=True)] for v in vertices[1:]]
            )
            complement = np.linalg.svd(differences)[2][rank:]
        else:
            complement = np.eye(n)
        if not len(complement):
            return rank
        grew = False
        for _ in range(min(batch, len(complement))):
            direction = rng.standard_normal(len(complement)) @ complement
            direction /= np.max(np.abs(direction))
            objective = {
                s: (Fraction(float(d)) if exact else float(d)) for s, d in enumerate(direction) if d
            }
            high = face_lp.maximise(objective, proof=False)
            low = face_lp.maximise({s: -c for s, c in objective.items()}, proof=False)
            if float(high[0] + low[0]) > FLOAT_TOLERANCE and high[1] and low[1]:
                remember(high[1])
                remember(low[1])
                grew = True
        if not grew:
            return rank
        batch = min(2 * batch, 32)
    return _rank(vertices, exact)
