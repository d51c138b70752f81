"""The structured route: a game as public tree × private hands, solved without its tree.

sparsified LP (:mod:`seqform.structured.factored_lp`) → realization plans → behavioural
strategies on the tree-free sequence tables (:func:`seqform.structured.responses.sequence_tables`)
→ certificate by best response on the public tree with vectorised hands
(:func:`seqform.structured.responses.certify`, Johanson et al. IJCAI 2011) → a named result.

As on the tree route (:mod:`seqform.analyses.solve`), no answer is returned unverified: the
certificate is computed from the behavioural strategies by the one backward induction
(:func:`seqform.certify.respond`), not read off the LP.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from seqform.analyses.result import Certified, PhaseClock, lp_stages
from seqform.forms.strategies import REACH_TOLERANCE, BehaviouralStrategy, behaviour_from_plan
from seqform.game.public_explicit import tree_nodes
from seqform.game.public_tree import StructuredGame
from seqform.lp.solvers import SparsifiedSolver
from seqform.structured.factored_lp import SparsifiedLP, build_structured_lp
from seqform.structured.payoff_matrix import payoff_nnz
from seqform.structured.responses import certify, sequence_tables
from seqform.structured.sparsified_solve import solve_sparsified_lp

__all__ = ["StructuredSolution", "default_solver", "solve_structured"]


@dataclass(frozen=True)
class StructuredSolution(Certified[BehaviouralStrategy]):
    """An equilibrium of a structured game, with its certificate (a
    :class:`~seqform.analyses.result.Result`).

    value : the LP optimum, the game's value to player 0
    plans : the LP's realization plans ``(x, y)`` on the game's sequence indices
    strategies : behavioural strategies of the plans on the tree-free tables (information
        set = hand and public node, named as the tree names it)
    certificate : expected value, best responses and NashConv of ``strategies``
    stats : what the LP solver did (with the sparsified LP's size)
    timings : seconds per phase; ``timings.sequence_form`` is building the sparsified LP
    game : the structured game
    payoff_nonzeros : non-zeros of the LP's payoff part (``Aᵀ x`` through level sums)
    matrix_nonzeros : non-zeros of the explicit payoff matrix ``A``, counted from level
        histograms without forming it (:func:`~seqform.structured.payoff_matrix.payoff_nnz`)
    tree_nodes : at most the nodes of the explicit game tree (not built)
    """

    game: StructuredGame
    payoff_nonzeros: int
    matrix_nonzeros: int
    tree_nodes: int

    @property
    def route(self) -> str:
        """The route (:mod:`seqform.analyses.route`): ``"structured"``."""
        return "structured"


def default_solver(lp: SparsifiedLP) -> SparsifiedSolver:
    """Clarabel, at every size: measured on the 2-core machine (whole LP solve), Leduc 3×2
    Clarabel 0.02 s, HiGHS simplex 0.08 s, ipm 0.07 s; liars_dice(sides=3, dice=2) 0.7 s,
    2.5 s, 5.8 s; leduc(ranks=13) 1.7 s against 110 s by simplex.  Simplex still gives a
    vertex exact to the last digit (``--solver simplex``)."""
    del lp  # one choice at every size measured so far
    return "clarabel"


def solve_structured(
    game: StructuredGame,
    *,
    solver: SparsifiedSolver | None = None,
    time_limit: float | None = None,
    verbose: bool = False,
    progress: Callable[[str], None] | None = None,
) -> StructuredSolution:
    """Solve ``game`` by its sparsified sequence-form LP and certify it by best response.

    ``solver`` is ``"clarabel"``, ``"simplex"`` or ``"ipm"``; ``None`` chooses by the LP's
    size (:func:`default_solver`).

    Raises
    ------
    seqform.lp.solvers.SolverLimitError
        At the time limit; the message gives the exploitability of the solver's last point
        when it had one.
    seqform.lp.solvers.SolverError
        If the solver does not report an optimal solution.
    """
    clock = PhaseClock(progress)
    first, second = sequence_tables(game)
    announce = (
        f"sparsified LP of {game.name}: {first.num_sequences:,} + {second.num_sequences:,} "
        "sequences, from the public tree × private hands (no game tree)"
    )
    with clock.phase("sequence_form", announce):
        lp = build_structured_lp(game)
    rows, columns = lp.shape
    chosen = solver or default_solver(lp)
    result = lp_stages(
        clock,
        lambda: solve_sparsified_lp(lp, solver=chosen, time_limit=time_limit, verbose=verbose),
        lambda x, y: _strategies(game, x, y, chosen),
        lambda profile: certify(game, *profile),
        lp_message=(
            f"solving with {chosen}: {columns:,} variables, {rows:,} constraints, "
            f"{lp.matrix.nnz:,} non-zeros"
        ),
        limit_point="its last point",
    )
    return StructuredSolution(
        game=game,
        payoff_nonzeros=lp.payoff_nonzeros,
        matrix_nonzeros=payoff_nnz(game),
        tree_nodes=tree_nodes(game),
        **result.parts(),
    )


INTERIOR_REACH_TOLERANCE = 1e-9
"""Clarabel's plans: an information set whose parent sequence has less mass than this is
flagged unreached.  An interior point stops with a plan's zero entries near its
complementarity (about 1e-11 here, where a vertex has exact zeros), so on
``leduc(ranks=13)`` more than half the information sets had parent mass 3e-12 to 1e-9 and
showed as "reached" and "mixed" with noise for behaviour.  Such a set moves the value by
less than this times the largest payoff, the certificate's own scale (1e-9); the behaviour
there is kept (only the flag changes), so the certificate is the same."""


def _strategies(
    game: StructuredGame, x: np.ndarray, y: np.ndarray, solver: str
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    first, second = sequence_tables(game)
    tol = INTERIOR_REACH_TOLERANCE if solver == "clarabel" else REACH_TOLERANCE
    return behaviour_from_plan(first, x, tol=tol), behaviour_from_plan(second, y, tol=tol)
