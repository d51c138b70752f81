"""The pipeline for one-card showdown games, without the tree: sparsified LP → behavioural
strategies → certificate by best response (see :mod:`seqform.structured.showdown` and
:mod:`seqform.structured.sparsified`).

As in :mod:`seqform.analyses.solve`, no answer is returned unverified: the certificate is computed
from the behavioural strategies by backward induction with sorted-card sums, not read off
the LP.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from seqform.analyses.solve import Timings
from seqform.certify import Certificate
from seqform.game.builtin.showdown_poker import ShowdownPoker
from seqform.lp.minmax import SolverLimitError, SolverStats
from seqform.structured.showdown import ShowdownBehaviour, behaviour_from_plan, certify
from seqform.structured.sparsified import SparsifiedSolver, build_sparsified_lp, solve_sparsified_lp

__all__ = ["ShowdownSolution", "solve_showdown"]


@dataclass(frozen=True)
class ShowdownSolution:
    """An equilibrium of a showdown game, with its certificate.

    value : the LP optimum, the game's value to player 0
    plans : the LP's realization plans ``(x, y)`` on the game's sequence indices
    behaviour : behavioural strategies of the plans, per card and betting node
    certificate : expected value, best responses and NashConv of ``behaviour``
    stats : what the LP solver did (with the sparsified LP's size)
    timings : seconds per stage; ``timings.sequence_form`` is building the sparsified LP
    """

    poker: ShowdownPoker
    value: float
    plans: tuple[np.ndarray, np.ndarray]
    behaviour: tuple[ShowdownBehaviour, ShowdownBehaviour]
    certificate: Certificate
    stats: SolverStats
    timings: Timings

    @property
    def exploitability(self) -> float:
        """NashConv of the behavioural strategies, measured by best response."""
        return float(self.certificate.exploitability)


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
    report = progress or (lambda message: None)
    start = time.perf_counter()
    report(
        f"sparsified LP of {poker.name}: {poker.num_sequences(0):,} + "
        f"{poker.num_sequences(1):,} sequences (the tree, {poker.tree_nodes:,} nodes, "
        "is not built)"
    )
    lp = build_sparsified_lp(poker)
    built = time.perf_counter()
    rows, columns = lp.shape
    report(f"solving: {columns:,} variables, {rows:,} constraints, {lp.matrix.nnz:,} non-zeros")
    try:
        lp_solution = solve_sparsified_lp(lp, solver=solver, time_limit=time_limit, verbose=verbose)
    except SolverLimitError as exc:
        raise _measured(poker, exc) from exc
    solved = time.perf_counter()
    report("behavioural strategies and certificate")
    behaviour = (
        behaviour_from_plan(poker, 0, lp_solution.x),
        behaviour_from_plan(poker, 1, lp_solution.y),
    )
    converted = time.perf_counter()
    certificate = certify(poker, behaviour[0], behaviour[1])
    certified = time.perf_counter()
    return ShowdownSolution(
        poker=poker,
        value=lp_solution.value,
        plans=(lp_solution.x, lp_solution.y),
        behaviour=behaviour,
        certificate=certificate,
        stats=lp_solution.stats,
        timings=Timings(
            sequence_form=built - start,
            lp=solved - built,
            behaviour=converted - solved,
            certificate=certified - converted,
        ),
    )


def _measured(poker: ShowdownPoker, error: SolverLimitError) -> SolverLimitError:
    """The same limit error, its message extended by the exploitability of its point."""
    if error.plans is None:
        return SolverLimitError(f"{error}; the solver offered no point to measure", None)
    x, y = error.plans
    certificate = certify(poker, behaviour_from_plan(poker, 0, x), behaviour_from_plan(poker, 1, y))
    return SolverLimitError(
        f"{error}; its last point has exploitability (NashConv) "
        f"{float(certificate.exploitability):.3g}, by best response",
        error.plans,
    )
