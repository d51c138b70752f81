"""The merged min-max LP of :mod:`seqform.lp.minmax` as exact data, with two generalisations.

:mod:`seqform.lp.minmax` solves, in floats (KMvS 1996, eq. 11),

    maximise f @ q   s.t.   F.T q − A.T x <= 0,   E x = e,   x >= 0,

whose row duals are player 1's optimal plan ``y``.  Here the same LP is written as a
:class:`~seqform.lp.exact.program.LinearProgram` with exact coefficients (``E``, ``F`` are
0/±1, ``A`` comes from ``payoff_entries``), so that its optimal basis can be re-solved in
rationals, and it is generalised in two directions:

Restricted players.  Homogeneous linear constraints ``G x (<=, >=, ==) 0`` on player 0's
plan are added as rows.  Constraints ``H y (<=, >=, ==) 0`` on player 1's plan enter the
inner minimisation ``min { x.T A y : F y = f, H y ⋚ 0, y >= 0 }``, whose LP dual is
``max { f @ q : F.T q + H.T r <= A.T x }`` with one multiplier ``r_k`` per constraint,
``r_k >= 0`` for ``>=``, ``r_k <= 0`` for ``<=`` and free for ``==`` (weak duality:
``x.T A y >= (F.T q + H.T r) @ y = f @ q + r @ (H y) >= f @ q``).  So the merged LP gains
the columns ``r``; ``y`` is still the dual of the rows ``F.T q + H.T r − A.T x <= 0``.

Lower bounds (perturbations).  ``x >= l`` is a column bound.  ``y >= m`` is handled by
writing ``y = m + w`` with ``w >= 0``: the inner problem becomes
``x.T A m + min { x.T A w : F w = f − F m, w >= 0 }`` with dual
``max x.T A m + (f − F m) @ q`` under the same rows, so the objective changes to
``(A m) @ x + (f − F m) @ q`` and ``y = m + w`` with ``w`` the duals (Miltersen and
Sørensen 2010 perturb both players this way).

Roles.  With ``player=1`` the same LP is written from player 1's side: player 1 is the
maximiser ``x`` with constraints ``F``, player 0 the opponent ``y`` with ``E``, and the
payoff matrix is ``−A.T``; its optimum is the value to player 1, ``−v``.

Layout.  Columns: ``x`` (the maximiser's sequences), ``q`` (one per constraint row of the
opponent), ``r`` (one per constraint on ``y``).  Rows: one per sequence of the opponent
(the best-reply rows), then the maximiser's constraint rows, then the constraints on
``x``.  With ``player=0`` and no constraints or bounds this is exactly the LP of
:mod:`seqform.lp.minmax`, in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
import scipy.sparse as sp

from seqform.forms.sequence_form import SequenceForm
from seqform.lp.exact.program import FloatLPResult, HighsModel, LinearProgram
from seqform.lp.exact.rational import RationalMatrix
from seqform.lp.minmax import SolverStats

__all__ = [
    "MinmaxFloatSolution",
    "MinmaxProgram",
    "PlanConstraint",
    "minmax_program",
    "solve_minmax_program",
]

Sense = Literal["<=", ">=", "=="]


@dataclass(frozen=True)
class PlanConstraint:
    """``sum(coefficient * plan[sequence] for sequence, coefficient in terms) ⋚ 0``."""

    terms: tuple[tuple[int, Fraction], ...]
    sense: Sense


_UNITS = {1.0: Fraction(1), -1.0: Fraction(-1)}


def _exact_integers(matrix: sp.sparray) -> tuple[np.ndarray, np.ndarray, list[Fraction]]:
    """Rows, columns and exact values of a ±1 float matrix (E or F)."""
    coo = matrix.tocoo()
    return coo.row, coo.col, [_UNITS[float(v)] for v in coo.data]


@dataclass(frozen=True)
class MinmaxProgram:
    """The merged LP of a sequence form with its layout (module docstring).

    x_columns, q_columns, r_columns : column ranges of x, q and r
    best_reply_rows : the rows whose duals are the opponent's plan (minus ``y_lower``)
    y_lower : the lower bound ``m`` on the opponent's plan (zeros if none)
    player : the maximiser (0, or 1 with roles swapped)
    """

    form: SequenceForm
    program: LinearProgram
    x_columns: range
    q_columns: range
    r_columns: range
    best_reply_rows: range
    y_lower: tuple[Fraction, ...]
    player: int = 0

    def float_plans(self, result: FloatLPResult) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)`` from a float solution (round-off below zero clipped)."""
        x = np.maximum(result.values[self.x_columns.start : self.x_columns.stop], 0.0)
        duals = result.row_duals[self.best_reply_rows.start : self.best_reply_rows.stop]
        y = np.maximum(duals, 0.0) + np.array([float(m) for m in self.y_lower])
        return x, y

    def exact_plans(
        self, values: Sequence[Fraction], row_duals: Sequence[Fraction]
    ) -> tuple[list[Fraction], list[Fraction]]:
        """``(x, y)`` from an exact solution: columns and row duals."""
        x = list(values[self.x_columns.start : self.x_columns.stop])
        duals = row_duals[self.best_reply_rows.start : self.best_reply_rows.stop]
        y = [m + w for m, w in zip(self.y_lower, duals, strict=True)]
        return x, y


def minmax_program(
    form: SequenceForm,
    *,
    x_constraints: Sequence[PlanConstraint] = (),
    y_constraints: Sequence[PlanConstraint] = (),
    x_lower: Sequence[Fraction] | None = None,
    y_lower: Sequence[Fraction] | None = None,
    player: int = 0,
) -> MinmaxProgram:
    """The merged LP of ``form``, optionally restricted or perturbed (module docstring).

    Parameters
    ----------
    form
        The sequence form.
    x_constraints, y_constraints
        Homogeneous constraints on player 0's and player 1's realization plans.
    x_lower, y_lower
        Lower bounds on the plans (default zero).  ``y_lower`` cannot be combined with
        ``y_constraints``.
    player
        The maximiser: 0 (default) or 1 (roles swapped, see the module docstring).

    Raises
    ------
    ValueError
        For bounds of the wrong length, or ``y_lower`` together with ``y_constraints``.
    """
    own, other = (form.E, form.F) if player == 0 else (form.F, form.E)
    n0, n1 = own.shape[1], other.shape[1]
    k0, k1 = own.shape[0], other.shape[0]
    if y_lower is not None and y_constraints:
        raise ValueError("lower bounds on player 2's plan cannot be combined with constraints")
    lower_x = [Fraction(0)] * n0 if x_lower is None else [Fraction(v) for v in x_lower]
    lower_y = [Fraction(0)] * n1 if y_lower is None else [Fraction(v) for v in y_lower]
    if len(lower_x) != n0 or len(lower_y) != n1:
        raise ValueError("lower bounds must have one entry per sequence")
    num_r = len(y_constraints)
    q0, r0 = n0, n0 + k1
    num_cols = n0 + k1 + num_r
    rows: list[int] = []
    cols: list[int] = []
    values: list[Fraction] = []

    pay_rows, pay_cols, pay_values = form.payoff_entries
    if player == 1:  # the payoff matrix of player 1 is −A.T
        pay_rows, pay_cols, pay_values = pay_cols, pay_rows, tuple(-a for a in pay_values)
    # Best-reply rows t: F.T q + H.T r − A.T x <= 0.
    for s, t, a in zip(pay_rows, pay_cols, pay_values, strict=True):
        rows.append(int(t))
        cols.append(int(s))
        values.append(-a)
    f_rows, f_cols, f_values = _exact_integers(other)
    for h, t, v in zip(f_rows, f_cols, f_values, strict=True):
        rows.append(int(t))
        cols.append(q0 + int(h))
        values.append(v)
    for k, constraint in enumerate(y_constraints):
        for t, coefficient in constraint.terms:
            rows.append(int(t))
            cols.append(r0 + k)
            values.append(Fraction(coefficient))
    # E x = e.
    e_rows, e_cols, e_values = _exact_integers(own)
    for i, s, v in zip(e_rows, e_cols, e_values, strict=True):
        rows.append(n1 + int(i))
        cols.append(int(s))
        values.append(v)
    # G x ⋚ 0.
    for k, constraint in enumerate(x_constraints):
        for s, coefficient in constraint.terms:
            rows.append(n1 + k0 + k)
            cols.append(int(s))
            values.append(Fraction(coefficient))
    num_rows = n1 + k0 + len(x_constraints)
    matrix = RationalMatrix.from_triples((num_rows, num_cols), rows, cols, values)

    # Objective (A m) @ x + (f − F m) @ q.
    objective = [Fraction(0)] * num_cols
    for s, t, a in zip(pay_rows, pay_cols, pay_values, strict=True):
        if lower_y[t]:
            objective[s] += a * lower_y[t]
    objective[q0] += 1  # f = (1, 0, ..., 0)
    for h, t, v in zip(f_rows, f_cols, f_values, strict=True):
        if lower_y[t]:
            objective[q0 + h] -= v * lower_y[t]

    col_lower: list[Fraction | None] = [*lower_x, *([None] * k1)]
    col_upper: list[Fraction | None] = [None] * (n0 + k1)
    for constraint in y_constraints:
        col_lower.append(Fraction(0) if constraint.sense == ">=" else None)
        col_upper.append(Fraction(0) if constraint.sense == "<=" else None)
    zero = Fraction(0)
    row_lower: list[Fraction | None] = [None] * n1
    row_upper: list[Fraction | None] = [zero] * n1
    for i in range(k0):
        bound = Fraction(1) if i == 0 else zero
        row_lower.append(bound)
        row_upper.append(bound)
    for constraint in x_constraints:
        row_lower.append(None if constraint.sense == "<=" else zero)
        row_upper.append(None if constraint.sense == ">=" else zero)
    program = LinearProgram(
        matrix=matrix,
        objective=tuple(objective),
        col_lower=tuple(col_lower),
        col_upper=tuple(col_upper),
        row_lower=tuple(row_lower),
        row_upper=tuple(row_upper),
    )
    return MinmaxProgram(
        form=form,
        program=program,
        x_columns=range(0, n0),
        q_columns=range(q0, q0 + k1),
        r_columns=range(r0, r0 + num_r),
        best_reply_rows=range(0, n1),
        y_lower=tuple(lower_y),
        player=player,
    )


@dataclass(frozen=True)
class MinmaxFloatSolution:
    """A float optimum of a :class:`MinmaxProgram`: value, plans, the LP result, stats."""

    value: float
    x: np.ndarray
    y: np.ndarray
    result: FloatLPResult
    stats: SolverStats


def solve_minmax_program(
    minmax: MinmaxProgram, *, algorithm: str = "simplex", time_limit: float | None = None
) -> MinmaxFloatSolution:
    """Solve the merged LP with HiGHS; the result keeps the optimal basis.

    Raises
    ------
    seqform.lp.exact.program.InfeasibleError
        If the constraints leave no feasible plan.
    seqform.lp.minmax.SolverError
        If HiGHS does not prove optimality.
    """
    model = HighsModel(minmax.program, algorithm=algorithm, time_limit=time_limit)
    result = model.maximise()
    x, y = minmax.float_plans(result)
    program = minmax.program
    stats = SolverStats(
        backend="highs",
        algorithm=algorithm,
        status="optimal",
        seconds=result.seconds,
        solver_seconds=result.seconds,
        iterations=result.iterations,
        variables=program.num_cols,
        constraints=program.num_rows,
        nonzeros=program.matrix.nnz,
    )
    return MinmaxFloatSolution(value=result.objective, x=x, y=y, result=result, stats=stats)
