"""Exact sparse rational matrices and the exact solution of square linear systems.

A :class:`RationalMatrix` keeps its non-zero entries as ``fractions.Fraction``; floats are
only ever derived from it.  :class:`ExactLinearSolver` solves ``B z = b`` and
``B.T z = c`` over the rationals for a square non-singular ``B``.

Method: numeric–symbolic iterative refinement (Wan 2006, "An algorithm to solve integer
linear systems exactly using numerical methods", J. Symbolic Comput. 41, 621–632).  Each
row of ``B`` is scaled to integers, ``B_int = R B``.  A floating-point sparse LU of ``B_int``
(SuperLU, through ``scipy.sparse.linalg.splu``) is computed once.  Starting from the
integer residual ``r = b_int``, each step solves ``B_int d ≈ r`` in floats, keeps
``round(2^k d)`` as ``k`` more bits of the answer, and updates the residual exactly in
integers, ``r ← 2^k r − B_int round(2^k d)``; so after steps worth ``K`` bits

    B_int (2^K z − N) = r,        |z − N / 2^K| ≲ |d_next| / 2^K,

with ``N`` an integer vector and ``r`` staying small.  The rational answer is recovered
from ``N / 2^K`` by rational reconstruction — continued fractions, the best approximation
with bounded denominator (Wang 1981) — with a shared denominator grown one component
at a time, and accepted only after the exact check ``B_int z = b_int`` in integers.
The step ``k`` adapts to what the float solve actually delivers, and the integer product
``B_int round(2^k d)`` is kept below ``2^62`` so that it runs in ``int64``.

When the float factorisation fails (numerically singular ``B``) or the refinement stops
gaining bits, systems of at most :data:`DENSE_LIMIT` rows are solved by python-flint's
exact dense solver (``fmpz_mat.solve``, fraction-free or Dixon p-adic lifting).  Every
answer is exact; failure raises :class:`ExactSolveError`, never a rounded result.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

__all__ = [
    "DENSE_LIMIT",
    "ExactLinearSolver",
    "ExactSolveError",
    "RationalMatrix",
    "common_denominator",
]

DENSE_LIMIT = 3000  # largest system handed to python-flint's dense exact solver
MAX_BITS = 1 << 20  # give up refining after this many bits of the answer
_INT64_HEADROOM_BITS = 62
_ZERO = Fraction(0)


class ExactSolveError(ArithmeticError):
    """The exact solution of a linear system could not be computed."""


@dataclass(frozen=True)
class RationalMatrix:
    """A sparse matrix with exact entries.

    shape : (rows, columns)
    rows, cols : int64 arrays, the coordinates of the non-zero entries
    values : the entries, as Fractions, in the same order
    """

    shape: tuple[int, int]
    rows: np.ndarray
    cols: np.ndarray
    values: tuple[Fraction, ...]

    @classmethod
    def from_triples(
        cls,
        shape: tuple[int, int],
        rows: Sequence[int] | np.ndarray,
        cols: Sequence[int] | np.ndarray,
        values: Sequence[Fraction | int],
    ) -> RationalMatrix:
        """Build from coordinates; duplicate coordinates are summed, zeros dropped."""
        row_array = np.asarray(rows, dtype=np.int64).reshape(-1)
        col_array = np.asarray(cols, dtype=np.int64).reshape(-1)
        exact = [v if type(v) is Fraction else Fraction(v) for v in values]
        if not len(row_array) == len(col_array) == len(exact):
            raise ValueError("rows, cols and values must have the same length")
        keys = row_array * max(int(shape[1]), 1) + col_array
        unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        if len(unique) < len(keys):
            merged = [Fraction(0)] * len(unique)
            for slot, value in zip(inverse.reshape(-1), exact, strict=True):
                merged[slot] += value
            row_array, col_array, exact = row_array[first], col_array[first], merged
        keep = [index for index, value in enumerate(exact) if value != 0]
        return cls(
            shape=(int(shape[0]), int(shape[1])),
            rows=row_array[keep],
            cols=col_array[keep],
            values=tuple(exact[index] for index in keep),
        )

    @property
    def nnz(self) -> int:
        return len(self.values)

    def to_float(self) -> sp.csr_array:
        """The matrix in floating point (CSR)."""
        data = np.fromiter((float(v) for v in self.values), dtype=float, count=self.nnz)
        return sp.csr_array((data, (self.rows, self.cols)), shape=self.shape)

    def transpose(self) -> RationalMatrix:
        return self._transposed

    @cached_property
    def _transposed(self) -> RationalMatrix:
        return RationalMatrix(
            shape=(self.shape[1], self.shape[0]),
            rows=self.cols,
            cols=self.rows,
            values=self.values,
        )

    @cached_property
    def integer_rows(self) -> tuple[sp.csr_array | _ObjectCSR, np.ndarray]:
        """``(R M, R)``: rows scaled to integers by the lcm of their denominators."""
        return _integer_rows(self)

    def select(self, rows: np.ndarray, cols: np.ndarray) -> RationalMatrix:
        """The submatrix on ``rows`` × ``cols`` (index arrays), renumbered from 0."""
        row_map = np.full(self.shape[0], -1, dtype=np.int64)
        row_map[rows] = np.arange(len(rows))
        col_map = np.full(self.shape[1], -1, dtype=np.int64)
        col_map[cols] = np.arange(len(cols))
        new_rows, new_cols = row_map[self.rows], col_map[self.cols]
        keep = np.flatnonzero((new_rows >= 0) & (new_cols >= 0))
        return RationalMatrix(
            shape=(len(rows), len(cols)),
            rows=new_rows[keep],
            cols=new_cols[keep],
            values=tuple(self.values[i] for i in keep),
        )

    def matvec(self, vector: Sequence[Fraction]) -> list[Fraction]:
        """``M @ vector`` exactly."""
        numerators, denominator = common_denominator(vector)
        scaled, scales = self.integer_rows
        products = _object_matvec(scaled, numerators)
        return [
            Fraction(int(value), denominator * int(scale)) if value else _ZERO
            for value, scale in zip(products, scales, strict=True)
        ]

    def rmatvec(self, vector: Sequence[Fraction]) -> list[Fraction]:
        """``M.T @ vector`` exactly."""
        return self.transpose().matvec(vector)


def common_denominator(values: Sequence[Fraction | int]) -> tuple[np.ndarray, int]:
    """``(numerators, D)`` with ``values[i] == numerators[i] / D``; numerators as Python ints."""
    exact = [v if type(v) is Fraction else Fraction(v) for v in values]
    denominator = math.lcm(*{v.denominator for v in exact}) if exact else 1
    numerators = np.empty(len(exact), dtype=object)
    numerators[:] = [v.numerator * (denominator // v.denominator) for v in exact]
    return numerators, denominator


def _integer_rows(matrix: RationalMatrix) -> tuple[sp.csr_array, np.ndarray]:
    """``(R M, R)``: each row multiplied by the lcm of its entries' denominators.

    The result has integer entries: dtype int64 when they fit, object (Python ints)
    otherwise.  ``R`` is an object array of Python ints.
    """
    scales = np.ones(matrix.shape[0], dtype=object)
    for row, value in zip(matrix.rows, matrix.values, strict=True):
        scale, d = scales[row], value.denominator
        if scale % d:
            scales[row] = scale * d // math.gcd(scale, d)
    data = [
        value.numerator * (scales[row] // value.denominator)
        for row, value in zip(matrix.rows, matrix.values, strict=True)
    ]
    if all(abs(v) < (1 << _INT64_HEADROOM_BITS) for v in data):
        array = np.array(data, dtype=np.int64).reshape(-1)
        return sp.csr_array((array, (matrix.rows, matrix.cols)), shape=matrix.shape), scales
    array = np.empty(len(data), dtype=object)
    array[:] = data
    return _ObjectCSR.build(matrix.shape, matrix.rows, matrix.cols, array), scales


class _ObjectCSR:
    """A minimal CSR container for big-integer entries (scipy has no object dtype)."""

    def __init__(
        self, shape: tuple[int, int], indptr: np.ndarray, indices: np.ndarray, data: np.ndarray
    ) -> None:
        self.shape = shape
        self.indptr = indptr
        self.indices = indices
        self.data = data

    @classmethod
    def build(
        cls, shape: tuple[int, int], rows: np.ndarray, cols: np.ndarray, data: np.ndarray
    ) -> _ObjectCSR:
        order = np.lexsort((cols, rows))
        counts = np.bincount(rows, minlength=shape[0])
        indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        return cls(shape, indptr, cols[order], data[order])


def _object_matvec(matrix: sp.csr_array | _ObjectCSR, vector: np.ndarray) -> np.ndarray:
    """``matrix @ vector`` in Python integers (exact, any size)."""
    matrix_data = matrix.data.astype(object)
    products = matrix_data * vector[matrix.indices]
    out = np.zeros(matrix.shape[0], dtype=object)
    starts = matrix.indptr[:-1]
    nonempty = np.flatnonzero(np.diff(matrix.indptr) > 0)
    if len(nonempty):
        out[nonempty] = np.add.reduceat(products, starts[nonempty])
    return out


@dataclass
class _Orientation:
    """One of ``B`` or ``B.T``, prepared for refinement: integer rows and a float LU."""

    integer: sp.csr_array | _ObjectCSR
    scales: np.ndarray
    float_lu: spla.SuperLU | None
    row_sum_bits: float
    source: RationalMatrix


class ExactLinearSolver:
    """Exact solutions of ``B z = b`` and ``B.T z = c`` for a square non-singular ``B``.

    Parameters
    ----------
    matrix
        The square matrix ``B``.  Factorisations are computed on first use and reused
        for every right-hand side.

    Raises
    ------
    ValueError
        If ``B`` is not square.
    """

    def __init__(self, matrix: RationalMatrix) -> None:
        if matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"need a square matrix, got shape {matrix.shape}")
        self.matrix = matrix
        self._prepared: dict[bool, _Orientation] = {}

    @property
    def size(self) -> int:
        return self.matrix.shape[0]

    def solve(self, rhs: Sequence[Fraction]) -> list[Fraction]:
        """The exact ``z`` with ``B z = rhs``."""
        return self._solve(rhs, transpose=False)

    def solve_transpose(self, rhs: Sequence[Fraction]) -> list[Fraction]:
        """The exact ``z`` with ``B.T z = rhs``."""
        return self._solve(rhs, transpose=True)

    def _orientation(self, transpose: bool) -> _Orientation:
        prepared = self._prepared.get(transpose)
        if prepared is None:
            source = self.matrix.transpose() if transpose else self.matrix
            integer, scales = source.integer_rows
            lu = None
            row_sum_bits = 0.0
            if isinstance(integer, sp.csr_array) and self.size:
                as_float = integer.astype(float)
                row_sum = float(np.max(abs(as_float).sum(axis=1)))
                row_sum_bits = math.log2(max(row_sum, 1.0))
                try:
                    lu = spla.splu(as_float.tocsc())
                except RuntimeError:  # "Factor is exactly singular" in floats
                    lu = None
            prepared = _Orientation(integer, scales, lu, row_sum_bits, source)
            self._prepared[transpose] = prepared
        return prepared

    def _solve(self, rhs: Sequence[Fraction], transpose: bool) -> list[Fraction]:
        if len(rhs) != self.size:
            raise ValueError(f"right-hand side has {len(rhs)} entries, the system {self.size}")
        if self.size == 0:
            return []
        prepared = self._orientation(transpose)
        numerators, denominator = common_denominator(rhs)
        # R B z = R rhs, and R rhs = (R * numerators) / denominator.
        target = prepared.scales * numerators
        if not any(target):
            return [Fraction(0)] * self.size
        solution = None
        if prepared.float_lu is not None:
            solution = _refine(prepared, target)
        if solution is None:
            solution = _dense_solve(prepared, target)
        return [value / denominator if value else _ZERO for value in solution]


def _refine(prepared: _Orientation, target: np.ndarray) -> list[Fraction] | None:
    """Wan's refinement for ``B_int z = target`` (integers); None if it stops gaining bits."""
    lu = prepared.float_lu
    integer = prepared.integer
    assert lu is not None and isinstance(integer, sp.csr_array)
    n = integer.shape[0]
    residual = target.copy()
    accumulated = np.zeros(n, dtype=object)
    total_bits = 0
    step = 20
    failures = 0
    while total_bits < MAX_BITS:
        if not any(residual):
            return [Fraction(int(v), 1 << total_bits) for v in accumulated]
        as_float = np.array([float(v) for v in residual])
        if not np.all(np.isfinite(as_float)):
            return None
        direction = lu.solve(as_float)
        if not np.all(np.isfinite(direction)):
            return None
        largest = float(np.max(np.abs(direction)))
        if total_bits >= 48:
            error = int(2 * largest) + 2
            candidate = _reconstruct(accumulated, total_bits, error)
            if candidate is not None and _satisfies(integer, candidate, target):
                return candidate
        room = _INT64_HEADROOM_BITS - prepared.row_sum_bits - math.log2(largest + 1.0) - 1
        bits = min(step, int(room))
        if bits < 1:
            return None
        scale = 1 << bits
        rounded = np.rint(direction * scale).astype(np.int64)
        new_residual = residual * scale - (integer @ rounded).astype(object)
        old_size = max(abs(int(v)) for v in residual)
        new_size = max(abs(int(v)) for v in new_residual)
        if new_size > max(old_size, 1 << int(prepared.row_sum_bits + 2)):
            # The float solve is worth fewer bits than asked for: ask for fewer.
            failures += 1
            step = max(1, bits // 2)
            if failures > 60:
                return None
            continue
        accumulated = accumulated * scale + rounded.astype(object)
        total_bits += bits
        residual = new_residual
        if new_size <= old_size:
            step = min(step + 8, 52)
    return None


def _reconstruct(accumulated: np.ndarray, bits: int, error: int) -> list[Fraction] | None:
    """Rational reconstruction of ``accumulated / 2^bits`` (each within ``error / 2^bits``).

    A shared denominator ``D`` grows as components need it: component ``i`` is first
    tried as an integer multiple of ``1/D``; otherwise ``D z_i`` is reconstructed by
    continued fractions with denominator at most ``sqrt(2^bits / (2 error D))``, the bound
    under which the approximation determines the fraction uniquely.
    """
    scale = 1 << bits
    denominator = 1
    out: list[Fraction] = []
    for value in accumulated:
        shifted = int(value) * denominator
        nearest = (2 * shifted + scale) // (2 * scale)
        if abs(shifted - nearest * scale) <= error * denominator:
            out.append(Fraction(nearest, denominator))
            continue
        room = scale // (2 * error * denominator + 1)
        bound = math.isqrt(room)
        if bound < 2:
            return None
        approximation = Fraction(shifted, scale).limit_denominator(bound)
        if abs(approximation.numerator * scale - shifted * approximation.denominator) > (
            error * denominator * approximation.denominator
        ):
            return None
        denominator *= approximation.denominator
        out.append(Fraction(approximation.numerator, denominator))
    return out


def _satisfies(
    integer: sp.csr_array | _ObjectCSR, candidate: list[Fraction], target: np.ndarray
) -> bool:
    numerators, denominator = common_denominator(candidate)
    return bool(np.all(_object_matvec(integer, numerators) == target * denominator))


def _dense_solve(prepared: _Orientation, target: np.ndarray) -> list[Fraction]:
    """python-flint's exact dense solver, for systems of at most :data:`DENSE_LIMIT` rows."""
    source = prepared.source
    n = source.shape[0]
    if n > DENSE_LIMIT:
        raise ExactSolveError(
            f"the float factorisation of the {n}×{n} system failed and it is too large "
            f"for the exact dense solver (limit {DENSE_LIMIT})"
        )
    import flint

    integer = prepared.integer
    matrix = flint.fmpz_mat(n, n)
    if isinstance(integer, sp.csr_array):
        coo = integer.tocoo()
        triples = zip(coo.row, coo.col, coo.data, strict=True)
    else:
        rows = np.repeat(np.arange(n), np.diff(integer.indptr))
        triples = zip(rows, integer.indices, integer.data, strict=True)
    for row, col, value in triples:
        matrix[int(row), int(col)] = int(value)
    rhs = flint.fmpz_mat(n, 1, [int(v) for v in target])
    try:
        solution = matrix.solve(rhs)
    except ZeroDivisionError as exc:
        raise ExactSolveError(f"the {n}×{n} system is singular") from exc
    return [Fraction(int(solution[i, 0].p), int(solution[i, 0].q)) for i in range(n)]
