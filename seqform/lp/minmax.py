"""The min-max linear program of a two-player zero-sum game, solved by HiGHS.

Player 0 maximises and player 1 minimises ``x @ A @ y`` over realization plans,
``E x = e, x >= 0`` and ``F y = f, y >= 0`` (Koller, Megiddo and von Stengel 1996).
For fixed ``x`` the inner minimisation over ``y`` is an LP whose dual is
``max f @ q  s.t.  F.T @ q <= A.T @ x`` with ``q`` free (KMvS 1996, eq. 11); merging the
two gives one LP in ``(x, q)``:

    maximise    f @ q
    subject to  F.T @ q - A.T @ x <= 0        (one row per sequence of player 1)
                E @ x             == e        (one row per constraint of player 0)
                x >= 0,  q free.

Its optimum is the value of the game to player 0, ``x`` is an optimal plan of player 0,
and the dual multipliers ``y >= 0`` of the first block form an optimal plan of player 1
(LP duality: they satisfy ``F y = f`` and minimise ``max_x x @ A @ y``).

A matrix game is the special case ``E = F = (1 ... 1)``, ``e = f = (1)``, so the normal
form (``seqform.forms.normal_form``) uses the same function.

The rows, columns and coefficients come from :func:`seqform.lp.merged.merged_lp`, the one
writing of this LP, which also gives the exact program of :mod:`seqform.lp.exact.minmax`.
The LP is handed to :func:`seqform.lp.run.run_lp`, the one float LP path, and comes back
as a :class:`~seqform.lp.problem.FloatSolution` whose ``x``, ``y`` and ``value`` are read
through the problem's :class:`~seqform.lp.problem.PlanLayout` (``y``: the duals of the
best-reply rows, under the one sign rule of :mod:`seqform.lp.problem`).  Two backends:

* ``"highs"`` (default) passes the CSC matrix straight to ``highspy``
  (:mod:`seqform.lp.highs`);
* ``"cvxpy"`` writes the same LP in cvxpy and solves it with HiGHS through cvxpy
  (:mod:`seqform.lp.cvxpy_lp`).

Both accept only a proven optimum; anything else raises :class:`SolverError`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from seqform.forms.sequence_form import FLOAT_LP_NORMAL_HIGH, FLOAT_LP_SMALLEST
from seqform.lp.highs import highs_lp
from seqform.lp.merged import Coordinates, MergedLP, merged_lp
from seqform.lp.problem import FloatSolution, LPProblem, PlanLayout
from seqform.lp.run import run_lp
from seqform.lp.solvers import BACKENDS, HIGHS_SOLVERS, Backend, HighsSolver

if TYPE_CHECKING:
    import highspy

__all__ = [
    "NORMAL_HIGH",
    "NORMAL_LOW",
    "float_merged_lp",
    "highs_model",
    "minmax_problem",
    "payoff_normaliser",
    "solve_minmax",
]

NORMAL_LOW = float(FLOAT_LP_SMALLEST)
"""Below this largest ``|A|`` the min-max LP is scaled up (:func:`payoff_normaliser`; the
window of :meth:`~seqform.forms.sequence_form.SequenceForm.normalised_for_floats`)."""

NORMAL_HIGH = float(FLOAT_LP_NORMAL_HIGH)
"""From this largest ``|A|`` on the min-max LP is scaled down (:func:`payoff_normaliser`)."""


def float_merged_lp(
    E: sp.sparray, e: np.ndarray, F: sp.sparray, f: np.ndarray, A: sp.sparray
) -> MergedLP:
    """The merged LP of the module docstring in floats (:func:`seqform.lp.merged.merged_lp`)."""
    return merged_lp(
        Coordinates.of(E),
        np.asarray(e, dtype=float),
        Coordinates.of(F),
        np.asarray(f, dtype=float),
        Coordinates.of(A),
    )


def minmax_problem(
    E: sp.sparray, e: np.ndarray, F: sp.sparray, f: np.ndarray, A: sp.sparray
) -> LPProblem:
    """The merged LP of the module docstring as the one float
    :class:`~seqform.lp.problem.LPProblem`, with its :class:`~seqform.lp.problem.PlanLayout`.

    Columns: ``x`` (one per column of ``E``, ``>= 0``), then ``q`` (one per row of ``F``,
    free).  Rows: one ``<= 0`` row per sequence of player 1, then the equality rows
    ``E x = e``.
    """
    lp = float_merged_lp(E, e, F, f, A)
    x_columns, best_reply = lp.layout.x_columns, lp.layout.best_reply_rows
    return LPProblem(
        matrix=lp.matrix.csc(),
        objective=lp.objective,
        col_lower=lp.col_lower,
        col_upper=lp.col_upper,
        row_lower=lp.row_lower,
        row_upper=lp.row_upper,
        plans=PlanLayout(
            x_columns=slice(x_columns.start, x_columns.stop),
            y_rows=slice(best_reply.start, best_reply.stop),
        ),
    )


def highs_model(
    E: sp.sparray, e: np.ndarray, F: sp.sparray, f: np.ndarray, A: sp.sparray
) -> highspy.HighsLp:
    """The merged LP of the module docstring as a ``highspy.HighsLp`` (columns ``x, q``;
    :func:`minmax_problem`)."""
    return highs_lp(minmax_problem(E, e, F, f, A))


def solve_minmax(
    E: sp.sparray,
    e: np.ndarray,
    F: sp.sparray,
    f: np.ndarray,
    A: sp.sparray,
    *,
    backend: Backend = "highs",
    solver: HighsSolver = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
) -> FloatSolution:
    """Solve ``max_x min_y x @ A @ y`` over ``E x = e, F y = f, x, y >= 0`` as one LP.

    Parameters
    ----------
    E, e, F, f, A
        The sequence form (or a matrix game with ``E = F = ones``); see the module
        docstring for the LP (KMvS 1996, eq. 11).
    backend
        ``"highs"`` (direct highspy) or ``"cvxpy"``.
    solver
        HiGHS's ``"simplex"`` (default), ``"ipm"`` (interior point, with crossover) or
        ``"pdlp"`` (first order, for very large games; its answers are approximate).
    time_limit
        Seconds before the solver gives up (then :class:`SolverLimitError`).
    verbose
        Let the solver write its log (to stdout, as HiGHS does).

    Raises
    ------
    SolverError
        If the LP is not solved to proven optimality (:class:`SolverLimitError` for a
        time or iteration limit).
    ValueError
        For an unknown backend or solver, or matrices of inconsistent shapes.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if solver not in HIGHS_SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; choose one of {', '.join(HIGHS_SOLVERS)}")
    if A.shape != (E.shape[1], F.shape[1]):
        raise ValueError(
            f"A has shape {A.shape} but E and F have {E.shape[1]} and {F.shape[1]} columns"
        )
    scale = payoff_normaliser(A)
    problem = minmax_problem(E, e, F, f, A if scale == 1 else A / scale)
    if scale != 1 and problem.plans is not None:  # the optimum is the value over `scale`
        problem = replace(problem, plans=replace(problem.plans, scale=1 / scale))
    return run_lp(problem, solver=solver, backend=backend, time_limit=time_limit, verbose=verbose)


def payoff_normaliser(A: sp.sparray) -> float:
    """The power of two ``s`` that ``A`` is divided by for HiGHS: 1 while the largest
    ``|A|`` lies in ``[NORMAL_LOW, NORMAL_HIGH)``; else the one that brings it into
    ``[1, 2)``.

    HiGHS's feasibility and optimality tolerances (``1e-7``) and its drop threshold
    (``1e-9``) are absolute, so a game whose payoffs are all ``1e-6`` of Kuhn's (or ``1e9``
    times) was solved to a point its certificate, relative to the payoff range, refused.
    The LP of ``A / s`` has the same optimal plans, its optimum is the value divided by
    ``s`` (:attr:`~seqform.lp.problem.PlanLayout.scale`), and a power of two changes no
    digit of any entry, so a game and its copy with payoffs scaled by a power of two give
    HiGHS the same LP.  Inside the window nothing is scaled, so that the usual games'
    answers (and their vertices, where equilibria are many) stay as they were.
    """
    data = np.abs(sp.csr_array(A).data)
    largest = float(data.max()) if data.size else 0.0
    if largest == 0.0 or not np.isfinite(largest) or NORMAL_LOW <= largest < NORMAL_HIGH:
        return 1.0
    return math.ldexp(1.0, math.frexp(largest)[1] - 1)  # largest / s in [1, 2)
