"""The one float LP and its one float solution: what every float solver is handed and returns.

Every LP seqform hands to a float solver is

    maximise    c @ v
    subject to  row_lower <= M v <= row_upper,    col_lower <= v <= col_upper,

with ``M`` sparse column-wise and infinite bounds ``±inf`` (:class:`LPProblem`).  Its
optimum comes back as one :class:`FloatSolution`, whichever solver found it
(:func:`seqform.lp.run.run_lp`: HiGHS, Clarabel or cvxpy), with its duals under one sign
rule.  The rule comes from the Lagrangian of the maximisation,

    L(v, π) = c @ v − π @ (M v − b),

whose stationarity in ``v`` is ``c = M.T π + d`` (``d`` the reduced costs): ``π_i`` is the
rate at which the optimum grows with row ``i``'s bound ``b_i``, so ``π_i >= 0`` on a row at
its upper bound, ``π_i <= 0`` on a row at its lower bound, any sign on an equality row.
HiGHS, Clarabel and cvxpy all report a maximisation's row duals this way (``tests/test_lp_run``
compares them row by row); a solver that did not would be converted in its backend, never
by a caller.

The min-max LP of a two-player zero-sum game (KMvS 1996, eq. 11; :mod:`seqform.lp.merged`
for the tree, :mod:`seqform.structured.lp_model` without it) keeps its answer in two
places: player 0's plan ``x`` in some columns, player 1's plan ``y`` as the multipliers of
the best-reply rows ``F.T q − A.T x <= 0`` (rows at their upper bound, so ``y >= 0`` under
the rule above).  A :class:`PlanLayout` says where; :attr:`FloatSolution.x`,
:attr:`FloatSolution.y` and :attr:`FloatSolution.value` read them in this one place, with
the solver's round-off below zero clipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from seqform.lp.solvers import SolverStats

__all__ = ["Basis", "FloatSolution", "LPProblem", "PlanLayout", "plans_of"]


@dataclass(frozen=True, eq=False)
class PlanLayout:
    """Where a min-max LP keeps the game's answer (module docstring).

    x_columns : the columns of player 0's plan ``x``
    y_rows : the best-reply rows, whose multipliers are player 1's plan ``y`` (minus
        ``y_lower``)
    scale : the LP's optimum is ``scale`` times the game's value
    y_lower : a lower bound ``m`` on ``y`` written as ``y = m + w`` (the perturbed LPs of
        :mod:`seqform.lp.exact.minmax`); None for none
    """

    x_columns: slice
    y_rows: slice
    scale: float = 1.0
    y_lower: np.ndarray | None = None


def plans_of(
    layout: PlanLayout, primal: np.ndarray, duals: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)``: the columns of ``x`` and the multipliers of the best-reply rows, under
    the module docstring's sign rule, round-off below zero clipped (``y = m + w`` with a
    lower bound ``m``)."""
    x = np.maximum(primal[layout.x_columns], 0.0)
    y = np.maximum(duals[layout.y_rows], 0.0)
    return x, y if layout.y_lower is None else y + layout.y_lower


@dataclass(frozen=True, eq=False)
class LPProblem:
    """``maximise objective @ v`` s.t. ``row_lower <= M v <= row_upper``,
    ``col_lower <= v <= col_upper``; ``±inf`` where a bound is infinite.

    matrix : csc_array, shape (rows, columns), float64
    objective, col_lower, col_upper : float64, one per column
    row_lower, row_upper : float64, one per row
    plans : where a min-max LP keeps ``x`` and ``y``; None for any other LP
    """

    matrix: sp.csc_array
    objective: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray
    plans: PlanLayout | None = None

    def __post_init__(self) -> None:
        rows, columns = self.matrix.shape
        if not len(self.objective) == len(self.col_lower) == len(self.col_upper) == columns:
            raise ValueError(f"the objective and column bounds must have {columns} entries")
        if not len(self.row_lower) == len(self.row_upper) == rows:
            raise ValueError(f"the row bounds must have {rows} entries")

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)``."""
        rows, columns = self.matrix.shape
        return int(rows), int(columns)

    def point(self, primal: np.ndarray, duals: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The plans ``(x, y)`` at a solver's point (for a limit error), None without a
        :class:`PlanLayout`."""
        return None if self.plans is None else plans_of(self.plans, primal, duals)


@dataclass(frozen=True)
class Basis:
    """A simplex basis: HiGHS status codes per column and per row (``BASIC`` etc.)."""

    col_status: np.ndarray
    row_status: np.ndarray


@dataclass(frozen=True, eq=False)
class FloatSolution:
    """A proven optimum of an :class:`LPProblem`, from any float solver.

    objective : ``c @ v`` at the optimum
    primal : ``v``, one per column; row_activity : ``M v``
    duals : the row multipliers ``π`` of ``L(v, π) = c @ v − π @ (M v − b)`` (module
        docstring): ``>= 0`` on a row at its upper bound, ``<= 0`` at its lower bound
    basis : the optimal simplex basis, when asked for and the solver ended at one
    stats : the solver, its status ("optimal"; "almost solved" only when asked for, see
        :func:`seqform.lp.clarabel.run_clarabel`), time and iterations
    plans : the problem's :class:`PlanLayout`, for :attr:`x`, :attr:`y` and :attr:`value`
    """

    objective: float
    primal: np.ndarray
    duals: np.ndarray
    row_activity: np.ndarray
    stats: SolverStats
    basis: Basis | None = None
    plans: PlanLayout | None = None

    @property
    def status(self) -> str:
        """The solver's final status: "optimal", or Clarabel's "almost solved" for a caller
        that asked for it and certifies the point."""
        return self.stats.status

    @property
    def value(self) -> float:
        """The game's value to player 0: the optimum divided by the layout's scale."""
        return self.objective / (1.0 if self.plans is None else self.plans.scale)

    @property
    def x(self) -> np.ndarray:
        """Player 0's optimal plan (a min-max LP's columns ``x``)."""
        return self.read_plans()[0]

    @property
    def y(self) -> np.ndarray:
        """Player 1's optimal plan: the multipliers of the best-reply rows."""
        return self.read_plans()[1]

    def read_plans(self, layout: PlanLayout | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)`` by :func:`plans_of`, where ``layout`` (default: the problem's) says.

        Raises
        ------
        ValueError
            For an LP without a :class:`PlanLayout` when none is given.
        """
        layout = self.plans if layout is None else layout
        if layout is None:
            raise ValueError("this LP is not a min-max LP: it has no plans to read")
        return plans_of(layout, self.primal, self.duals)
