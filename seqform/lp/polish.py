"""Polishing an interior point: the point projected onto the optimal face its active set
names, primal and dual, by one sparse factorisation each.

An interior-point method stops a little inside the optimal face: every complementary pair
(a column ``x_j >= 0`` and its reduced cost ``d_j``, a ``<=`` row's slack ``s_i`` and its
multiplier ``π_i``) has a small product rather than a zero.  On the LP written as Clarabel's
``K v + s = b`` (equality rows, then the ``<=`` rows, then ``−x_j <= 0`` for the columns
``>= 0``; :mod:`seqform.lp.clarabel`), with ``z`` the multipliers (``K.T z = c``):

* **primal**: the pairs with ``z_k > R s_k`` are read as tight, and ``v`` is moved the
  least (in the Euclidean norm) that makes them exactly tight with the equality rows;
* **dual**: the pairs with ``s_k > R z_k`` are read as slack, their ``z_k`` set to zero,
  and the rest of ``z`` moved the least that makes ``K.T z = c`` hold exactly.

Pairs that neither side reads clearly (both small, ``R`` apart at most) are left to move on
both sides.  No one ``R`` reads every point right (:data:`CLEAR_RATIOS`), so
:func:`polished_points` offers the point polished at each in turn, for the caller to
certify until one passes.  Each projection is the least-norm solution of a consistent
(often rank-deficient: these LPs are degenerate) linear system, solved with the
quasi-definite system ``[[I, Kᵀ], [K, −δ I]]`` factorised once by SuperLU and refined
against the unregularised residual; the answer is then clipped to its signs.

Whether the polished point is optimal is not decided here: the caller certifies it (by best
response, for a game) and keeps the unpolished point or solves again otherwise.  A point
taken well before the solver's last iterations is not polished into an optimum: on Liar's
Dice the active set reads right only in the last two or three iterations
(``benchmarks/results/measurements.md``), so this repairs a near miss, it does not replace
the interior point's convergence.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from seqform.lp.problem import FloatSolution, LPProblem

__all__ = ["CLEAR_RATIOS", "polish_interior_point", "polished_points"]

CLEAR_RATIOS = (10.0, 100.0, 1000.0)
"""The ratios ``R`` tried in turn: a complementary pair is read as tight (or slack) when
one side exceeds the other ``R`` times.  Which ``R`` reads a point right varies: Clarabel
stopped one iteration short on ``liars_dice(sides=7)`` polishes to a certified point at
``R`` = 1 to 100, not at 1000; two iterations short on ``liars_dice(sides=6)``, at 100 or
1000, not at 10 or less (``benchmarks/results/measurements.md``)."""

_REGULARISATION = 1e-9
_REFINEMENTS = 8


def polished_points(problem: LPProblem, solution: FloatSolution) -> Iterator[FloatSolution]:
    """``solution`` polished at each ratio of :data:`CLEAR_RATIOS` in turn (lazily: a
    caller that certifies the first stops there); nothing for an LP the polish does not
    cover."""
    for ratio in CLEAR_RATIOS:
        polished = polish_interior_point(problem, solution, ratio=ratio)
        if polished is None:
            return
        yield polished


def polish_interior_point(
    problem: LPProblem, solution: FloatSolution, *, ratio: float = CLEAR_RATIOS[0]
) -> FloatSolution | None:
    """``solution`` (an interior point of ``problem``) polished on the active set read at
    ``ratio`` (module docstring), with status ``"polished"``; None when the LP has a row or
    column bound the polish does not cover (only ``==`` and ``<=`` rows, columns ``>= 0``
    or free) or the factorisation fails.  The polished point is not proven optimal:
    certify it."""
    form = _conic(problem)
    if form is None:
        return None
    matrix, rhs, equalities, signed = form
    primal = np.asarray(solution.primal, dtype=float)
    duals = np.asarray(solution.duals, dtype=float)
    objective = np.asarray(problem.objective, dtype=float)
    rows = _row_order(problem)
    bound_duals = (sp.csr_array(problem.matrix).T @ duals - objective)[signed]
    z = np.concatenate([duals[rows], bound_duals])
    slack = rhs - matrix @ primal
    tight = np.ones(rhs.size, bool)
    kept = np.ones(rhs.size, bool)
    tight[equalities:] = z[equalities:] > ratio * slack[equalities:]
    kept[equalities:] = ~(slack[equalities:] > ratio * z[equalities:])
    try:
        v = _project(sp.csr_array(matrix[tight]), rhs[tight], primal)
        moved = _project(sp.csr_array(matrix[kept].T), objective, z[kept])
    except (RuntimeError, MemoryError):  # SuperLU's "singular" or out of memory
        return None
    v[signed] = np.maximum(v[signed], 0.0)
    multipliers = np.zeros(rhs.size)
    multipliers[kept] = moved
    multipliers[equalities:] = np.maximum(multipliers[equalities:], 0.0)
    row_duals = np.empty(problem.shape[0])
    row_duals[rows] = multipliers[: rows.size]
    return FloatSolution(
        float(objective @ v),
        v,
        row_duals,
        problem.matrix @ v,
        replace(solution.stats, status="polished"),
        plans=solution.plans,
    )


def _row_order(problem: LPProblem) -> np.ndarray:
    """The LP's rows in ``K``'s order: the equality rows, then the ``<=`` rows."""
    equal = problem.row_lower == problem.row_upper
    return np.concatenate([np.flatnonzero(equal), np.flatnonzero(~equal)])


def _conic(problem: LPProblem) -> tuple[sp.csr_array, np.ndarray, int, np.ndarray] | None:
    """``(K, b, equality rows, columns >= 0)`` of the module docstring, or None for a
    bound outside that form."""
    equal = problem.row_lower == problem.row_upper
    if not np.all(np.isneginf(problem.row_lower[~equal])):
        return None
    lower = problem.col_lower
    if not np.all((lower == 0) | np.isneginf(lower)) or not np.all(np.isposinf(problem.col_upper)):
        return None
    rows = _row_order(problem)
    signed = np.flatnonzero(lower == 0)
    bounds = sp.csr_array(
        (-np.ones(signed.size), (np.arange(signed.size), signed)),
        shape=(signed.size, problem.shape[1]),
    )
    matrix = sp.vstack([sp.csr_array(problem.matrix)[rows], bounds], format="csr")
    rhs = np.concatenate([problem.row_upper[rows], np.zeros(signed.size)])
    return sp.csr_array(matrix), rhs, int(equal.sum()), signed


def _project(matrix: sp.csr_array, rhs: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The point nearest ``start`` with ``matrix @ v == rhs`` (least squares when the
    system is inconsistent): the quasi-definite system ``[[I, Kᵀ], [K, −δ I]]`` factorised
    once, refined against the unregularised residual until it stops shrinking."""
    rows, columns = matrix.shape
    system = sp.block_array(
        [
            [sp.eye_array(columns), matrix.T],
            [matrix, -_REGULARISATION * sp.eye_array(rows)],
        ],
        format="csc",
    )
    factor = spla.splu(
        system,
        permc_spec="MMD_AT_PLUS_A",
        diag_pivot_thresh=0.0,
        options={"SymmetricMode": True},
    )
    v, multiplier = start.copy(), np.zeros(rows)
    best, best_v = np.inf, v
    for _ in range(_REFINEMENTS):
        stationarity = (start - v) - matrix.T @ multiplier
        residual = rhs - matrix @ v
        size = max(float(np.abs(residual).max(initial=0.0)), float(np.abs(stationarity).max()))
        if size >= best:
            break
        best, best_v = size, v
        if size == 0.0:
            break
        step = factor.solve(np.concatenate([stationarity, residual]))
        v = v + step[:columns]
        multiplier = multiplier + step[columns:]
    return best_v
