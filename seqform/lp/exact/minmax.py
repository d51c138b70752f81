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
:mod:`seqform.lp.minmax`, in the same order: both are written by
:func:`seqform.lp.merged.merged_lp` (here with Fraction data), and
``tests/test_lp_identity.py`` checks that they agree entry by entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.forms.sequence_form import SequenceForm
from seqform.lp.exact.program import LinearProgram, float_problem
from seqform.lp.exact.rational import RationalMatrix
from seqform.lp.merged import Coordinates, MergedLP, Sense, merged_lp
from seqform.lp.problem import FloatSolution, LPProblem, PlanLayout
from seqform.lp.run import run_lp

__all__ = [
    "MinmaxProgram",
    "PlanConstraint",
    "minmax_program",
    "program_of",
    "solve_minmax_program",
]


@dataclass(frozen=True)
class PlanConstraint:
    """``sum(coefficient * plan[sequence] for sequence, coefficient in terms) ⋚ 0``."""

    terms: tuple[tuple[int, Fraction], ...]
    sense: Sense


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

    def plan_layout(self) -> PlanLayout:
        """Where the float LP keeps ``x`` and ``y = m + w`` (:mod:`seqform.lp.problem`)."""
        return PlanLayout(
            x_columns=slice(self.x_columns.start, self.x_columns.stop),
            y_rows=slice(self.best_reply_rows.start, self.best_reply_rows.stop),
            y_lower=np.array([float(m) for m in self.y_lower]),
        )

    def float_problem(self) -> LPProblem:
        """The program in floats, with its :meth:`plan_layout`."""
        return float_problem(self.program, self.plan_layout())

    def float_plans(self, result: FloatSolution) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)`` from a float solution of the program (round-off below zero clipped)."""
        return result.read_plans(self.plan_layout())

    def exact_plans(
        self, values: Sequence[Fraction], row_duals: Sequence[Fraction]
    ) -> tuple[list[Fraction], list[Fraction]]:
        """``(x, y)`` from an exact solution: columns and row duals."""
        x = list(values[self.x_columns.start : self.x_columns.stop])
        duals = row_duals[self.best_reply_rows.start : self.best_reply_rows.stop]
        y = [m + w for m, w in zip(self.y_lower, duals, strict=True)]
        return x, y


def _fractions(values: Sequence[Fraction | int | float]) -> np.ndarray:
    array = np.empty(len(values), dtype=object)
    array[:] = [Fraction(v) for v in values]
    return array


def _constraint_rows(
    constraints: Sequence[PlanConstraint], columns: int
) -> tuple[Coordinates, list[Sense]] | None:
    """The matrix ``G`` (one row per constraint) and the senses; None if there are none."""
    if not constraints:
        return None
    entries = [
        (k, int(sequence), Fraction(coefficient))
        for k, constraint in enumerate(constraints)
        for sequence, coefficient in constraint.terms
    ]
    matrix = Coordinates.exact(
        (len(constraints), columns),
        np.array([k for k, _, _ in entries], dtype=np.int64),
        np.array([s for _, s, _ in entries], dtype=np.int64),
        [c for _, _, c in entries],
    )
    return matrix, [constraint.sense for constraint in constraints]


def _lower_bound(bound: Sequence[Fraction] | None, size: int) -> np.ndarray:
    lower = _fractions([0] * size if bound is None else bound)
    if len(lower) != size:
        raise ValueError("lower bounds must have one entry per sequence")
    return lower


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
    own_rhs, other_rhs = (form.e, form.f) if player == 0 else (form.f, form.e)
    if y_lower is not None and y_constraints:
        raise ValueError("lower bounds on player 2's plan cannot be combined with constraints")
    n0, n1 = own.shape[1], other.shape[1]
    lower_x, lower_y = _lower_bound(x_lower, n0), _lower_bound(y_lower, n1)
    rows, cols, values = form.payoff_entries
    payoff = Coordinates.exact((form.A.shape[0], form.A.shape[1]), rows, cols, values)
    if player == 1:  # the payoff matrix of player 1 is −A.T
        payoff = payoff.transposed(-1)
    lp = merged_lp(
        Coordinates.of(own).as_fractions(),
        _fractions(own_rhs.tolist()),
        Coordinates.of(other).as_fractions(),
        _fractions(other_rhs.tolist()),
        payoff,
        x_rows=_constraint_rows(x_constraints, n0),
        y_rows=_constraint_rows(y_constraints, n1),
        x_lower=lower_x,
        y_lower=lower_y if y_lower is not None else None,
    )
    layout = lp.layout
    return MinmaxProgram(
        form=form,
        program=program_of(lp),
        x_columns=layout.x_columns,
        q_columns=layout.q_columns,
        r_columns=layout.r_columns,
        best_reply_rows=layout.best_reply_rows,
        y_lower=tuple(lower_y),
        player=player,
    )


def program_of(lp: MergedLP) -> LinearProgram:
    """A merged LP with Fraction data as a :class:`LinearProgram` (``±inf`` become None)."""

    def bounds(values: np.ndarray) -> tuple[Fraction | None, ...]:
        return tuple(None if v in (np.inf, -np.inf) else Fraction(v) for v in values.tolist())

    matrix = lp.matrix
    return LinearProgram(
        matrix=RationalMatrix.from_triples(
            matrix.shape, matrix.rows, matrix.cols, matrix.values.tolist()
        ),
        objective=tuple(Fraction(c) for c in lp.objective.tolist()),
        col_lower=bounds(lp.col_lower),
        col_upper=bounds(lp.col_upper),
        row_lower=bounds(lp.row_lower),
        row_upper=bounds(lp.row_upper),
    )


def solve_minmax_program(
    minmax: MinmaxProgram, *, solver: str = "simplex", time_limit: float | None = None
) -> FloatSolution:
    """Solve the merged LP in floats by HiGHS (:func:`seqform.lp.run.run_lp`); the
    solution keeps the optimal basis and reads ``x`` and ``y`` by :meth:`MinmaxProgram.plan_layout`.

    Raises
    ------
    seqform.lp.solvers.InfeasibleError
        If the constraints leave no feasible plan.
    seqform.lp.solvers.SolverError
        If HiGHS does not prove optimality.
    """
    return run_lp(minmax.float_problem(), solver=solver, time_limit=time_limit, basis=True)
