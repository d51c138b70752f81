"""Two lossless eliminations that shrink a min-max LP before an interior point, and the
map of the reduced LP's answer back to the LP's own rows and columns.

An interior point's work per iteration grows with the LP's rows and columns; unlike
HiGHS, Clarabel does not presolve, so the sequence form's one-action information sets
(in Liar's Dice, every set after the highest bid: half of each player's) cost it as much
as any other.  On :class:`~seqform.lp.problem.LPProblem`, with coefficients ±1 (those of
the sequence form's constraints):

* **Doubleton equality** ``v_a − v_p = 0`` with ``v_a, v_p >= 0`` and no upper bounds
  (player 0's one-action information set: ``x[σ a] = x[σ]``): column ``a`` is added into
  column ``p`` and the row dropped.  Back: ``v_a = v_p``; the row's multiplier ``π_r`` is
  the one that gives column ``a`` reduced cost zero, ``π_r = (c_a − Σ_{i≠r} π_i M_ia) /
  M_ra``, which leaves column ``p``'s reduced cost what the reduced LP says.
* **Free doubleton column** (Fourier–Motzkin): a free column ``q`` of objective 0 in
  exactly two ``<=`` rows, ``+1`` in row ``A`` and ``−1`` in row ``B`` (player 1's
  one-action information set: ``q_J`` between its sequence's row and its parent's):
  ``q`` exists iff ``A + B`` holds, so row ``A`` is added into row ``B`` and ``q`` and ``A``
  dropped.  Back: ``q`` makes row ``A`` tight, and both rows take the merged row's
  multiplier (``q``'s stationarity, ``π_A = π_B``).

Each elimination is taken once and never chained (a column or row eliminated is not the
target of another, a target is not eliminated), so the way back is one step for each.
The reduced LP has the same optimum; its optimal points map to optimal points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from seqform.lp.problem import LPProblem

__all__ = ["Reduction", "reduce_problem"]


@dataclass(frozen=True, eq=False)
class Reduction:
    """A reduced LP and the way back to the LP it came from (module docstring).

    problem : the reduced LP (no :class:`~seqform.lp.problem.PlanLayout`)
    original : the LP it came from
    columns : csr_array, shape (original columns, reduced columns): ``v = columns @ v'``
        on every column but the eliminated free ones
    rows : csr_array, shape (reduced rows, original rows): the reduced matrix is
        ``rows @ M @ columns``, and the multipliers go back as ``rows.T @ π'``
    equality_rows, equality_columns : the dropped doubleton rows and, per row, its
        eliminated column ``a``
    free_columns, free_rows : the eliminated free columns ``q`` and, per column, its row
        ``A`` (the row it makes tight)
    """

    problem: LPProblem
    original: LPProblem
    columns: sp.csr_array
    rows: sp.csr_array
    equality_rows: np.ndarray
    equality_columns: np.ndarray
    free_columns: np.ndarray
    free_rows: np.ndarray

    @property
    def eliminated(self) -> tuple[int, int]:
        """``(rows, columns)`` taken out."""
        rows, columns = self.original.shape
        kept_rows, kept_columns = self.problem.shape
        return rows - kept_rows, columns - kept_columns

    def primal(self, reduced: np.ndarray) -> np.ndarray:
        """The original LP's columns from the reduced LP's."""
        primal = np.asarray(self.columns @ reduced, dtype=float)
        if self.free_columns.size:
            matrix = sp.csr_array(self.original.matrix)[self.free_rows]
            rest = matrix @ primal  # q's own entries meet q = 0 here
            primal[self.free_columns] = self.original.row_upper[self.free_rows] - rest
        return primal

    def duals(self, reduced: np.ndarray) -> np.ndarray:
        """The original LP's row multipliers from the reduced LP's."""
        duals = np.asarray(self.rows.T @ reduced, dtype=float)
        if self.equality_rows.size:
            matrix = sp.csc_array(self.original.matrix)[:, self.equality_columns]
            others = matrix.T @ duals  # the dropped rows' multipliers are still 0 here
            own = matrix[self.equality_rows, np.arange(self.equality_rows.size)]
            objective = self.original.objective[self.equality_columns]
            duals[self.equality_rows] = (objective - others) / np.asarray(own).ravel()
        return duals


def reduce_problem(problem: LPProblem) -> Reduction:
    """The LP without its doubleton equalities and free doubleton columns (module
    docstring); the identity when it has none."""
    matrix = sp.csc_array(problem.matrix)
    matrix.sum_duplicates()
    rows, columns = problem.shape
    equality_rows, eliminated, targets = _doubleton_equalities(problem, matrix)
    free_columns, sources, sinks = _free_doubletons(problem, matrix)
    keep_columns = np.ones(columns, bool)
    keep_columns[eliminated] = False
    keep_columns[free_columns] = False
    column_index = np.cumsum(keep_columns) - 1
    target_of = np.arange(columns)
    target_of[eliminated] = targets
    mapped = np.flatnonzero(keep_columns[target_of])
    column_map = sp.csr_array(
        (np.ones(mapped.size), (mapped, column_index[target_of[mapped]])),
        shape=(columns, int(keep_columns.sum())),
    )
    keep_rows = np.ones(rows, bool)
    keep_rows[equality_rows] = False
    keep_rows[sources] = False
    row_index = np.cumsum(keep_rows) - 1
    sink_of = np.arange(rows)
    sink_of[sources] = sinks
    kept = np.flatnonzero(keep_rows[sink_of])
    row_map = sp.csr_array(
        (np.ones(kept.size), (row_index[sink_of[kept]], kept)),
        shape=(int(keep_rows.sum()), rows),
    )
    reduced = sp.csc_array(row_map @ matrix @ column_map)
    reduced.eliminate_zeros()
    upper = row_map @ np.where(np.isfinite(problem.row_upper), problem.row_upper, 0.0)
    lower = problem.row_lower[keep_rows]
    upper = np.where(np.isposinf(problem.row_upper[keep_rows]), np.inf, upper)
    small = LPProblem(
        matrix=reduced,
        objective=column_map.T @ problem.objective,
        col_lower=problem.col_lower[keep_columns],
        col_upper=problem.col_upper[keep_columns],
        row_lower=np.where(np.isneginf(lower), -np.inf, row_map @ _finite(problem.row_lower)),
        row_upper=upper,
    )
    return Reduction(
        small,
        problem,
        column_map,
        row_map,
        equality_rows,
        eliminated,
        free_columns,
        sources,
    )


def _finite(values: np.ndarray) -> np.ndarray:
    return np.where(np.isfinite(values), values, 0.0)


def _doubleton_equalities(
    problem: LPProblem, matrix: sp.csc_array
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, a, p)``: rows ``v_a − v_p = 0`` (coefficients +1 and −1) between two
    columns ``>= 0`` without upper bounds, none chained (module docstring)."""
    csr = sp.csr_array(matrix)
    counts = np.diff(csr.indptr)
    signed = (problem.col_lower == 0) & np.isposinf(problem.col_upper)
    candidates = np.flatnonzero((counts == 2) & (problem.row_lower == 0) & (problem.row_upper == 0))
    starts = csr.indptr[candidates]
    first, second = csr.indices[starts], csr.indices[starts + 1]
    v1, v2 = csr.data[starts], csr.data[starts + 1]
    plus = (v1 == 1) & (v2 == -1)
    minus = (v1 == -1) & (v2 == 1)
    good = (plus | minus) & signed[first] & signed[second]
    rows = candidates[good]
    a = np.where(plus, first, second)[good]
    p = np.where(plus, second, first)[good]
    return _unchained(rows, a, p, problem.shape[1])


def _free_doubletons(
    problem: LPProblem, matrix: sp.csc_array
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(q, A, B)``: free columns of objective 0 in exactly two ``<=`` rows, ``+1`` in
    ``A`` and ``−1`` in ``B``, none chained (module docstring)."""
    counts = np.diff(matrix.indptr)
    free = (
        np.isneginf(problem.col_lower)
        & np.isposinf(problem.col_upper)
        & (problem.objective == 0)
        & (counts == 2)
    )
    candidates = np.flatnonzero(free)
    starts = matrix.indptr[candidates]
    first, second = matrix.indices[starts], matrix.indices[starts + 1]
    v1, v2 = matrix.data[starts], matrix.data[starts + 1]
    plus = (v1 == 1) & (v2 == -1)
    minus = (v1 == -1) & (v2 == 1)
    at_most = np.isneginf(problem.row_lower) & np.isfinite(problem.row_upper)
    good = (plus | minus) & at_most[first] & at_most[second]
    q = candidates[good]
    a = np.where(plus, first, second)[good]
    b = np.where(plus, second, first)[good]
    return _unchained(q, a, b, problem.shape[0])


def _unchained(
    keys: np.ndarray, sources: np.ndarray, targets: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The eliminations ``source → target`` (in order) taken greedily so that each source
    is eliminated once, no target is eliminated and no source is a target."""
    eliminated = np.zeros(size, bool)
    target = np.zeros(size, bool)
    chosen = np.zeros(keys.size, bool)
    for k, (source, sink) in enumerate(zip(sources.tolist(), targets.tolist(), strict=True)):
        if eliminated[source] or target[source] or eliminated[sink] or source == sink:
            continue
        eliminated[source] = True
        target[sink] = True
        chosen[k] = True
    return keys[chosen], sources[chosen], targets[chosen]
