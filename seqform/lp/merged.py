"""The merged min-max LP (KMvS 1996, eq. 11), written once for floats and exact numbers.

For a fixed plan ``x`` of the maximiser, the opponent's best reply
``min { x.T A y : F y = f, y >= 0 }`` has the LP dual ``max { f @ q : F.T q <= A.T x }``
with ``q`` free; merging the two gives one LP in ``(x, q)``:

    maximise    f @ q
    subject to  F.T q − A.T x <= 0      (one "best-reply" row per sequence of the opponent)
                E x = e                 (the maximiser's constraint rows)
                x >= 0,  q free.

Its optimum is the value to the maximiser, and the multipliers ``y`` of the best-reply rows
are an optimal plan of the opponent.  :mod:`seqform.lp.exact.minmax` explains the two
generalisations written here as well: homogeneous constraints ``G x ⋚ 0`` (rows) and
``H y ⋚ 0`` (columns ``r``, with ``H.T r`` added to the best-reply rows), and lower bounds
``x >= l`` (column bounds) and ``y >= m`` (the objective becomes ``(A m) @ x + (f − F m) @ q``).

Layout.  Columns: ``x``, ``q`` (one per constraint row of the opponent), ``r`` (one per
constraint on ``y``).  Rows: the best-reply rows, then ``E x = e``, then ``G x ⋚ 0``.  The
matrix is assembled block by block in that order.

Numbers.  :func:`merged_lp` is generic in its numbers: given float coordinates it builds
the float LP handed to HiGHS by :mod:`seqform.lp.minmax` (numpy throughout, no Python
objects per entry); given ``Fraction`` coordinates (numpy ``object`` arrays) it builds the
exact program of :mod:`seqform.lp.exact.minmax`.  Infinite bounds are ``±inf`` in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
import scipy.sparse as sp

__all__ = ["Coordinates", "MergedLP", "MinmaxLayout", "Sense", "merged_lp"]

Sense = Literal["<=", ">=", "=="]


@dataclass(frozen=True)
class Coordinates:
    """A sparse matrix by its non-zero entries: ``M[rows[k], cols[k]] = values[k]``.

    values : float64, or ``object`` holding Fractions for exact data
    """

    shape: tuple[int, int]
    rows: np.ndarray
    cols: np.ndarray
    values: np.ndarray

    @classmethod
    def of(cls, matrix: sp.sparray) -> Coordinates:
        """The entries of a scipy sparse matrix, row by row for CSR input."""
        coo = matrix.tocoo()
        rows, columns = matrix.shape
        return cls((int(rows), int(columns)), coo.row, coo.col, np.asarray(coo.data, float))

    @classmethod
    def exact(
        cls, shape: tuple[int, int], rows: np.ndarray, cols: np.ndarray, values: Sequence[Fraction]
    ) -> Coordinates:
        """Coordinates with Fraction values."""
        array = np.empty(len(values), dtype=object)
        array[:] = list(values)
        return cls(shape, np.asarray(rows, np.int64), np.asarray(cols, np.int64), array)

    def as_fractions(self) -> Coordinates:
        """The same entries as Fractions (floats converted exactly)."""
        exact = [Fraction(v) for v in self.values]
        return Coordinates.exact(self.shape, self.rows, self.cols, exact)

    def transposed(self, sign: int = 1) -> Coordinates:
        """``sign`` times the transpose."""
        values = self.values if sign == 1 else -self.values
        return Coordinates((self.shape[1], self.shape[0]), self.cols, self.rows, values)

    def csc(self) -> sp.csc_array:
        """The matrix in floating point, column-wise."""
        values = np.asarray(self.values, dtype=float)
        return sp.csc_array((values, (self.rows, self.cols)), shape=self.shape)


@dataclass(frozen=True)
class MinmaxLayout:
    """Where each block of the merged LP sits (module docstring).

    x_columns, q_columns, r_columns : column ranges of ``x``, ``q`` and ``r``
    best_reply_rows : the rows whose multipliers are the opponent's plan (minus ``m``)
    own_rows : the rows ``E x = e``; x_constraint_rows : the rows ``G x ⋚ 0``
    """

    x_columns: range
    q_columns: range
    r_columns: range
    best_reply_rows: range
    own_rows: range
    x_constraint_rows: range


@dataclass(frozen=True)
class MergedLP:
    """``maximise objective @ v`` s.t. ``row_lower <= M v <= row_upper``, column bounds.

    matrix : M, with float or Fraction values
    objective, col_lower, col_upper, row_lower, row_upper : arrays of the same kind of
        number, ``±inf`` where a bound is infinite
    layout : the blocks
    """

    matrix: Coordinates
    objective: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray
    layout: MinmaxLayout


def _sense_bounds(senses: Sequence[Sense], zero: object) -> tuple[list[object], list[object]]:
    """``(lower, upper)`` of a row ``G_k x ⋚ 0`` for each sense."""
    lower = [-np.inf if sense == "<=" else zero for sense in senses]
    upper = [np.inf if sense == ">=" else zero for sense in senses]
    return lower, upper


def _stack(shape: tuple[int, int], blocks: Sequence[tuple[Coordinates, int, int]]) -> Coordinates:
    """One matrix from ``(block, first row, first column)`` pieces, entries in that order."""
    present = [(block, row, column) for block, row, column in blocks if len(block.values)]
    if not present:
        return Coordinates(shape, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    return Coordinates(
        shape,
        np.concatenate([row + block.rows.astype(np.int64) for block, row, _ in present]),
        np.concatenate([column + block.cols.astype(np.int64) for block, _, column in present]),
        np.concatenate([block.values for block, _, _ in present]),
    )


def merged_lp(
    own: Coordinates,
    own_rhs: np.ndarray,
    other: Coordinates,
    other_rhs: np.ndarray,
    payoff: Coordinates,
    *,
    x_rows: tuple[Coordinates, Sequence[Sense]] | None = None,
    y_rows: tuple[Coordinates, Sequence[Sense]] | None = None,
    x_lower: np.ndarray | None = None,
    y_lower: np.ndarray | None = None,
) -> MergedLP:
    """The merged LP of the module docstring.

    Parameters
    ----------
    own, own_rhs
        ``E`` and ``e``: the maximiser's constraints.
    other, other_rhs
        ``F`` and ``f``: the opponent's.
    payoff
        ``A``, rows the maximiser's sequences, columns the opponent's.
    x_rows, y_rows
        ``G`` (and the sense of each row) on ``x``; ``H`` on ``y``.
    x_lower, y_lower
        ``l`` and ``m`` (default zero).

    All values are floats, or all are Fractions (object arrays) for the exact program.

    Raises
    ------
    ValueError
        If ``A``'s shape does not match ``E`` and ``F``.
    """
    n0, (k1, n1) = own.shape[1], other.shape
    if payoff.shape != (n0, n1):
        raise ValueError(f"A has shape {payoff.shape} but E and F have {n0} and {n1} columns")
    dtype = payoff.values.dtype
    zero = Fraction(0) if dtype == np.dtype(object) else dtype.type(0)
    g_matrix, g_senses = x_rows if x_rows is not None else (None, ())
    h_matrix, h_senses = y_rows if y_rows is not None else (None, ())
    layout = _layout(own.shape, other.shape, len(g_senses), len(h_senses))
    q0, r0 = layout.q_columns.start, layout.r_columns.start
    blocks = [(payoff.transposed(-1), 0, 0), (other.transposed(), 0, q0)]
    if h_matrix is not None:
        blocks.append((h_matrix.transposed(), 0, r0))
    blocks.append((own, n1, 0))
    if g_matrix is not None:
        blocks.append((g_matrix, layout.x_constraint_rows.start, 0))
    shape = (layout.x_constraint_rows.stop, layout.r_columns.stop)
    matrix = _stack(shape, blocks)

    objective = np.full(shape[1], zero, dtype=dtype)
    objective[q0 : q0 + k1] = other_rhs
    if y_lower is not None:  # (A m) @ x + (f − F m) @ q
        np.add.at(objective, payoff.rows, payoff.values * y_lower[payoff.cols])
        np.subtract.at(objective, q0 + other.rows, other.values * y_lower[other.cols])
    x_low = np.full(n0, zero, dtype=dtype) if x_lower is None else x_lower
    return _with_bounds(matrix, objective, layout, own_rhs, x_low, g_senses, h_senses)


def _layout(
    own_shape: tuple[int, int], other_shape: tuple[int, int], g_rows: int, h_rows: int
) -> MinmaxLayout:
    """The blocks for ``E`` and ``F`` of these shapes, ``g_rows`` rows ``G`` and ``h_rows``
    rows ``H``: columns ``x, q, r``; rows best reply, ``E x = e``, ``G x ⋚ 0``."""
    (k0, n0), (k1, n1) = own_shape, other_shape
    return MinmaxLayout(
        x_columns=range(0, n0),
        q_columns=range(n0, n0 + k1),
        r_columns=range(n0 + k1, n0 + k1 + h_rows),
        best_reply_rows=range(0, n1),
        own_rows=range(n1, n1 + k0),
        x_constraint_rows=range(n1 + k0, n1 + k0 + g_rows),
    )


def _with_bounds(
    matrix: Coordinates,
    objective: np.ndarray,
    layout: MinmaxLayout,
    own_rhs: np.ndarray,
    x_lower: np.ndarray,
    g_senses: Sequence[Sense],
    h_senses: Sequence[Sense],
) -> MergedLP:
    """The merged LP with its bounds: ``x >= l``, ``q`` free, ``r`` signed by its sense;
    best-reply rows ``<= 0``, ``E x = e``, ``G x ⋚ 0``."""
    dtype = objective.dtype
    zero = Fraction(0) if dtype == np.dtype(object) else dtype.type(0)
    n0, k1, n1 = len(layout.x_columns), len(layout.q_columns), len(layout.best_reply_rows)
    g_lower, g_upper = _sense_bounds(g_senses, zero)
    # The multiplier r_k of H_k y ⋚ 0 is >= 0 for ">=", <= 0 for "<=", free for "==".
    r_lower = [zero if sense == ">=" else -np.inf for sense in h_senses]
    r_upper = [zero if sense == "<=" else np.inf for sense in h_senses]

    def column(*parts: object) -> np.ndarray:
        return np.concatenate([np.asarray(part, dtype=dtype) for part in parts])

    return MergedLP(
        matrix=matrix,
        objective=objective,
        col_lower=column(x_lower, np.full(k1, -np.inf), r_lower),
        col_upper=column(np.full(n0 + k1, np.inf), r_upper),
        row_lower=column(np.full(n1, -np.inf), own_rhs, g_lower),
        row_upper=column(np.full(n1, zero, dtype=dtype), own_rhs, g_upper),
        layout=layout,
    )
