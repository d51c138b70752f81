"""The pipeline for one-card showdown games, without the tree: sparsified LP → behavioural
strategies → certificate by best response (see :mod:`seqform.structured.showdown` and
:mod:`seqform.structured.sparsified`).

As in :mod:`seqform.analyses.solve`, no answer is returned unverified: the certificate is computed
from the behavioural strategies by the one backward induction (:func:`seqform.certify.respond`)
on leaf payoffs from sorted-card sums, not read off the LP.  The strategies are the one
:class:`~seqform.forms.strategies.BehaviouralStrategy`, on the game's tree-free sequence
tables (:func:`seqform.structured.showdown.sequence_tables`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from seqform.analyses.result import Certified, PhaseClock, lp_stages
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan
from seqform.game.builtin.showdown_poker import ShowdownPoker
from seqform.lp.solvers import SparsifiedSolver
from seqform.structured.showdown import certify, sequence_tables
from seqform.structured.sparsified import build_sparsified_lp
from seqform.structured.sparsified_solve import solve_sparsified_lp

__all__ = ["ShowdownSolution", "solve_showdown"]


@dataclass(frozen=True)
class ShowdownSolution(Certified[BehaviouralStrategy]):
    """An equilibrium of a showdown game, with its certificate (a
    :class:`~seqform.analyses.result.Result`).

    value : the LP optimum, the game's value to player 0
    plans : the LP's realization plans ``(x, y)`` on the game's sequence indices
    strategies : behavioural strategies of the plans, on the tables of
        :func:`~seqform.structured.showdown.sequence_tables` (information set = card and
        betting node); also readable as ``behaviour``
    certificate : expected value, best responses and NashConv of ``strategies``
    stats : what the LP solver did (with the sparsified LP's size)
    timings : seconds per phase; ``timings.sequence_form`` is building the sparsified LP
    poker : the game
    """

    poker: ShowdownPoker


def solve_showdown(
    poker: ShowdownPoker,
    *,
    solver: SparsifiedSolver = "clarabel",
    time_limit: float | None = None,
    verbose: bool = False,
    progress: Callable[[str], None] | None = None,
) -> ShowdownSolution:
    """Solve ``poker`` by the sparsified sequence-form LP and certify it by best response.

    Raises
    ------
    seqform.lp.minmax.SolverLimitError
        At the time limit; the message gives the exploitability of the solver's last point
        when it had one.
    seqform.lp.minmax.SolverError
        If the solver does not report an optimal solution.
    """
    clock = PhaseClock(progress)
    announce = (
        f"sparsified LP of {poker.name}: {poker.num_sequences(0):,} + "
        f"{poker.num_sequences(1):,} sequences (the tree, {poker.tree_nodes:,} nodes, "
        "is not built)"
    )
    with clock.phase("sequence_form", announce):
        lp = build_sparsified_lp(poker)
    rows, columns = lp.shape
    result = lp_stages(
        clock,
        lambda: solve_sparsified_lp(lp, solver=solver, time_limit=time_limit, verbose=verbose),
        lambda x, y: _strategies(poker, x, y),
        lambda profile: certify(poker, *profile),
        lp_message=(
            f"solving: {columns:,} variables, {rows:,} constraints, {lp.matrix.nnz:,} non-zeros"
        ),
        limit_point="its last point",
    )
    return ShowdownSolution(poker=poker, **result.parts())


def _strategies(
    poker: ShowdownPoker, x: np.ndarray, y: np.ndarray
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    first, second = sequence_tables(poker)
    return behaviour_from_plan(first, x), behaviour_from_plan(second, y)
