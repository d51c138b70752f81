"""Node locks on the structured LP: the locked behaviour as linear rows and columns.

A lock fixes ``b(a | h) = p_a`` at an information set ``h`` (:mod:`seqform.forms.locks`),
on realization plans the equality ``plan[h, a] − p_a · plan[parent(h)] = 0`` (KMvS 1996,
§3).  The structured LP (:mod:`seqform.structured.lp_model`) keeps player 0's plan ``x``
in its columns, so player 0's locks are rows ``G x = 0``.  Player 1's plan ``y`` is the
multipliers of the payoff rows ``Fᵀ q − Aᵀ x <= 0``; constraints ``H y = 0`` enter the
inner minimisation ``min {xᵀ A y : F y = f, H y = 0, y >= 0}``, whose dual
``max {f·q : Fᵀ q + Hᵀ r <= Aᵀ x}`` has a free multiplier ``r_k`` per constraint (as
:mod:`seqform.lp.exact.minmax` writes it for the tree).  So player 1's locks are free
columns ``r`` with the entries of ``Hᵀ`` in the payoff rows; ``y`` is still those rows'
multipliers.  Rows and columns are appended, so the LP's layout (``x``, the objective, the
payoff rows) is unchanged; the payoff scale multiplies ``A`` only, and these constraints
are homogeneous.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.game.sequences import PlayerSequences
from seqform.structured.lp_model import StructuredLP

__all__ = ["locked_lp"]


def _terms(
    table: PlayerSequences, fixed: Mapping[int, tuple[Fraction, ...]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(constraint, sequence, coefficient)`` triplets of ``plan[h, a] − p_a plan[parent]``."""
    rows, columns, values = [], [], []
    k = 0
    for index, mix in sorted(fixed.items()):
        parent = int(table.parent_sequence[index])
        for sequence, probability in zip(table.sequences_of(index), mix, strict=True):
            rows += [k, k]
            columns += [sequence, parent]
            values += [1.0, -float(probability)]
            k += 1
    return (
        np.asarray(rows, dtype=np.int64),
        np.asarray(columns, dtype=np.int64),
        np.asarray(values, dtype=float),
    )


def locked_lp(
    lp: StructuredLP,
    tables: Sequence[PlayerSequences],
    fixed: Sequence[Mapping[int, tuple[Fraction, ...]]],
) -> StructuredLP:
    """``lp`` with the locks ``fixed`` (per player, information set → probabilities) as the
    rows and columns of the module docstring."""
    matrix = sp.csc_array(lp.matrix)
    rows, columns = lp.shape
    row_lower, row_upper, col_lower = lp.row_lower, lp.row_upper, lp.col_lower
    if fixed[0]:
        k, sequence, value = _terms(tables[0], fixed[0])
        count = int(k.max()) + 1
        block = sp.coo_array((value, (k, lp.x_columns.start + sequence)), shape=(count, columns))
        matrix = sp.csc_array(sp.vstack([matrix, block]))
        row_lower = np.concatenate([row_lower, np.zeros(count)])
        row_upper = np.concatenate([row_upper, np.zeros(count)])
        rows += count
    if fixed[1]:
        k, sequence, value = _terms(tables[1], fixed[1])
        count = int(k.max()) + 1
        block = sp.coo_array((value, (lp.payoff_rows.start + sequence, k)), shape=(rows, count))
        matrix = sp.csc_array(sp.hstack([matrix, block]))
        col_lower = np.concatenate([col_lower, np.full(count, -np.inf)])
    return replace(lp, matrix=matrix, row_lower=row_lower, row_upper=row_upper, col_lower=col_lower)
