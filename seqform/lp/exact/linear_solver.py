"""Exact solution of square linear systems ``B z = b`` and ``B.T z = c`` over the rationals.

:class:`ExactLinearSolver` solves them for a square non-singular ``B``
(a :class:`~seqform.lp.exact.rational.RationalMatrix`).

Method: numeric–symbolic iterative refinement (Wan 2006, "An algorithm to solve integer
linear systems exactly using numerical methods", J. Symbolic Comput. 41, 621–632).  Each
row of ``B`` is scaled to integers, ``B_int = R B``.  A floating-point sparse LU of
``B_int`` with each row scaled by a power of two to a largest entry in ``[1, 2)`` (SuperLU,
through ``scipy.sparse.linalg.splu``) is computed once: the integer rows of a gadget LP's
basis differ by 2^60 (a 60-bit dyadic reach weight scaled to integers beside rows of small
integers), and an LU of the unscaled rows is accurate only at the largest rows' scale.
Starting from the integer residual ``r = b_int``, each step solves ``B_int d ≈ r`` in
floats, keeps ``round(2^k d)`` as ``k`` more bits of the answer, and updates the residual
exactly in integers, ``r ← 2^k r − B_int round(2^k d)``; so after steps worth ``K`` bits

    B_int (2^K z − N) = r,        |z − N / 2^K| ≲ |d_next| / 2^K,

with ``N`` an integer vector and ``r`` staying small.  The rational answer is recovered
from ``N / 2^K`` by rational reconstruction — continued fractions, the best approximation
with bounded denominator (Wang 1981) — with a shared denominator grown one component
at a time, and accepted only after the exact check ``B_int z = b_int`` in integers; it is
tried from 48 bits on, and after a failure again only once the bits have grown by a
quarter (:data:`RECONSTRUCTION_GROWTH`).
The step ``k`` adapts to what the float solve actually delivers, and the integer product
``B_int round(2^k d)`` is kept below ``2^62`` so that it runs in ``int64`` when the rows'
sums leave room for it (else in Python integers).  A row whose integer entries do not fit
in ``int64`` (a gadget LP's row ``s W_J m − Σ q_I`` with a blueprint's dyadic reach of 65
bits beside a 1) leaves no such room: then ``B_int`` is factorised as floats all the same
(row-scaled, from each entry's leading bits) and the product is computed in Python
integers, slower per step but with the same bits per step; progress is then judged by the
residual measured against each row's own scale (the rows differ by 2^60 and more).

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

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from seqform.base.limits import LIMITS
from seqform.lp.exact.rational import (
    INT64_HEADROOM_BITS,
    IntegerMatrix,
    RationalMatrix,
    bit_lengths,
    common_denominator,
    integer_matvec,
    python_integers,
    row_bits_of,
    scaled_floats,
)

__all__ = ["DENSE_LIMIT", "ExactLinearSolver", "ExactSolveError"]

DENSE_LIMIT = LIMITS.exact_dense_size  # why: seqform.base.limits
MAX_BITS = LIMITS.exact_bits  # why: seqform.base.limits
# The int64 residual update needs room for the step's bits beside the largest row sum of
# B_int; rows whose sums come closer to 2^62 than this are refined in Python integers.
MIN_INT64_STEP_BITS = 12
RECONSTRUCTION_GROWTH = 4
"""After a rational reconstruction fails at ``K`` bits, the next is tried at ``K + K / 4``
bits: an attempt costs about what a refinement step does, and an answer of a gadget
basis needs 1,000 bits and more (denominators of 500 bits), so trying after every step
spent a third of the solve on attempts that fail; a quarter more bits at most is a few
steps."""
_ZERO = Fraction(0)


class ExactSolveError(ArithmeticError):
    """The exact solution of a linear system could not be computed."""


@dataclass
class _Orientation:
    """One of ``B`` or ``B.T``, prepared for refinement: integer rows ``B_int``, and the
    float LU of ``2^-shifts B_int`` (:func:`_equilibrated_float`)."""

    integer: IntegerMatrix
    scales: np.ndarray
    float_lu: spla.SuperLU | None
    row_sum_bits: float
    shifts: np.ndarray
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
            shifts = np.zeros(self.size, dtype=np.int64)
            if self.size:
                equilibrated, shifts, row_sum_bits = _equilibrated_float(integer)
                try:
                    lu = spla.splu(equilibrated.tocsc())
                except RuntimeError:  # "Factor is exactly singular" in floats
                    lu = None
            prepared = _Orientation(integer, scales, lu, row_sum_bits, shifts, source)
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


def _equilibrated_float(integer: IntegerMatrix) -> tuple[sp.csr_array, np.ndarray, float]:
    """``(2^-e B_int, e, log2 of B_int's largest row sum)`` in floats, ``e_i`` the exponent
    of row ``i``'s largest entry, so that every row's largest entry lies in ``[1, 2)``.

    Scaling rows to integers multiplies a row with a 60-bit dyadic denominator by 2^60,
    beside rows of small integers; a float LU of ``B_int`` itself is then accurate only
    relative to its largest rows (a 338-row gadget basis of Leduc 3×2: condition number
    1.8e21, but 1.1e3 after this scaling), and the refinement's residual in the small rows
    never shrinks.  Powers of two scale the floats exactly, and entries beyond the doubles'
    range (2^1024) are read from their leading bits.
    """
    n = integer.shape[0]
    lengths = np.diff(integer.indptr)
    rows = np.repeat(np.arange(n), lengths)
    if isinstance(integer, sp.csr_array):
        magnitudes = np.abs(integer.data).astype(float)
        exponents = np.zeros(len(magnitudes), dtype=np.int64)
        nonzero = magnitudes > 0
        exponents[nonzero] = np.floor(np.log2(magnitudes[nonzero])).astype(np.int64)
        data = integer.data.astype(float)
    else:
        exponents = bit_lengths(integer.data) - 1
        data = None
    shifts = np.full(n, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(shifts, rows, exponents)
    shifts[shifts == np.iinfo(np.int64).min] = 0
    if data is None:
        data = scaled_floats(integer.data, shifts[rows])
    else:
        data = np.ldexp(data, -shifts[rows])
    equilibrated = sp.csr_array((data, integer.indices, integer.indptr), shape=integer.shape)
    sums = np.zeros(n)
    np.add.at(sums, rows, np.abs(data))
    with np.errstate(divide="ignore"):
        bits = np.log2(sums) + shifts
    row_sum_bits = float(max(np.max(bits, initial=0.0), 0.0))
    return equilibrated, shifts, row_sum_bits


def _refine(prepared: _Orientation, target: np.ndarray) -> list[Fraction] | None:
    """Wan's refinement for ``B_int z = target`` (integers); None if it stops gaining bits.

    With ``B_int`` in ``int64`` the step's bits are also bounded so that ``B_int round(2^k
    d)`` stays below ``2^62``; with Python-int entries (:class:`ObjectCSR`) the product is
    exact at any size and only the float solve's accuracy bounds the step.

    Length: one loop whose state (residual, accumulated bits, step, failures) each branch
    updates; split, the pieces would pass that state back and forth.
    """
    lu = prepared.float_lu
    integer, shifts = prepared.integer, prepared.shifts
    assert lu is not None
    fast = (
        isinstance(integer, sp.csr_array)
        and prepared.row_sum_bits <= INT64_HEADROOM_BITS - MIN_INT64_STEP_BITS
    )
    if not fast:
        row_bits = row_bits_of(integer)
    n = integer.shape[0]
    residual = target.copy()
    accumulated = np.zeros(n, dtype=object)
    total_bits = 0
    step = 20
    failures = 0
    next_attempt = 48  # bits at which the next rational reconstruction is tried
    while total_bits < MAX_BITS:
        if not any(residual):
            return [Fraction(int(v), 1 << total_bits) for v in accumulated]
        direction = lu.solve(scaled_floats(residual, shifts))
        if not np.all(np.isfinite(direction)):
            return None
        largest = float(np.max(np.abs(direction)))
        if total_bits >= next_attempt:
            error = int(2 * largest) + 2
            candidate = _reconstruct(accumulated, total_bits, error)
            if candidate is not None and _satisfies(integer, candidate, target):
                return candidate
            next_attempt = total_bits + max(1, total_bits // RECONSTRUCTION_GROWTH)
        room = INT64_HEADROOM_BITS - prepared.row_sum_bits - math.log2(largest + 1.0) - 1
        in_int64 = fast and room >= 1  # else this step's product in Python ints
        bits = min(step, int(room)) if in_int64 else step
        scale = 1 << bits
        if in_int64:
            rounded = np.rint(direction * scale).astype(np.int64)
            product = (integer @ rounded).astype(object)
        else:
            rounded = python_integers(np.rint(direction * scale))
            product = integer_matvec(integer, rounded)
        new_residual = residual * scale - product
        if fast:
            old_size = max(abs(int(v)) for v in residual)
            new_size = max(abs(int(v)) for v in new_residual)
            limit = 1 << int(prepared.row_sum_bits + 2)
        else:
            old_size, new_size = (
                _row_relative_bits(residual, row_bits),
                _row_relative_bits(new_residual, row_bits),
            )
            limit = int(math.log2(max(np.diff(integer.indptr).max(), 1))) + 2
        if new_size > max(old_size, limit):
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


def _row_relative_bits(residual: np.ndarray, row_bits: np.ndarray) -> int:
    """The largest ``log2 |r_i| − log2 max_j |B_int[i, j]|``: the residual measured against
    each row's own scale.  Rows scaled to integers differ by 2^60 and more when a
    blueprint's reach sits beside a 1, and the float solve's error shows in each row at the
    row's scale; the plain largest residual would read that as no progress."""
    return int(np.max(bit_lengths(residual) - row_bits))


def _reconstruct(accumulated: np.ndarray, bits: int, error: int) -> list[Fraction] | None:
    """Rational reconstruction of ``accumulated / 2^bits`` (each within ``error / 2^bits``).

    A shared denominator ``D`` grows as components need it: component ``i`` is first
    tried as an integer multiple of ``1/D``; otherwise ``D z_i`` is reconstructed by
    continued fractions with denominator at most ``sqrt(2^bits / (2 error D))``, the bound
    under which the approximation determines the fraction uniquely.
    """
    scale = 1 << bits
    denominator = 1
    # (numerator, denominator) pairs, made Fractions only once every component is found:
    # most attempts fail part of the way, and a Fraction's gcd is most of a pair's cost
    found: list[tuple[int, int]] = []
    for value in accumulated:
        shifted = int(value) * denominator
        nearest = (2 * shifted + scale) // (2 * scale)
        if abs(shifted - nearest * scale) <= error * denominator:
            found.append((nearest, denominator))
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
        found.append((approximation.numerator, denominator))
    return [Fraction(numerator, below) for numerator, below in found]


def _satisfies(integer: IntegerMatrix, candidate: list[Fraction], target: np.ndarray) -> bool:
    numerators, denominator = common_denominator(candidate)
    return bool(np.all(integer_matvec(integer, numerators) == target * denominator))


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
