"""The tree route: game → sequence form → min-max LP → behavioural strategies → certificate.

No answer is returned unverified: every :class:`Solution` carries the certificate
(NashConv, exploitability) of its behavioural strategies, measured by :mod:`seqform.certify` on
the tree, independently of the LP.  The LP stages are those of every route
(:func:`seqform.routes.result.lp_stages`); :class:`Solution` is the
:class:`~seqform.routes.result.Result` of the float routes on the tree, which the normal
form (:class:`~seqform.routes.normal.NormalFormSolution`) and the restricted game
(:class:`~seqform.routes.restrict.RestrictedSolution`) extend.  The one entry point that
chooses the route is :func:`seqform.routes.solve.solve`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from seqform.certify import certify
from seqform.forms.provenance import sequence_form_of
from seqform.forms.sequence_form import SequenceForm
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan
from seqform.game.model import Game
from seqform.game.requirements import require_float_payoffs
from seqform.io.loader import as_game
from seqform.lp.minmax import solve_minmax
from seqform.lp.problem import FloatSolution
from seqform.lp.solvers import Backend, HighsSolver
from seqform.routes.result import Certified, PhaseClock, Timings, lp_stages

__all__ = ["Solution", "Timings", "plan_behaviour", "solve_sequence_form", "solve_tree"]


@dataclass(frozen=True)
class Solution(Certified[BehaviouralStrategy]):
    """An equilibrium of a two-player zero-sum game, with its certificate.

    value : the LP optimum, the game's value to player 0 (a float)
    plans : optimal realization plans ``(x, y)`` on the sequence indices of ``form``
    strategies : the behavioural strategies of the plans (see
        :mod:`seqform.forms.strategies`); also readable as ``behaviour``
    certificate : expected value, best responses and exploitability, from the tree walk
    stats : what the LP solver did
    timings : seconds per phase (``sequence_form``, ``lp``, ``behaviour``, ``certificate``)
    game, form : the game and its sequence form
    """

    game: Game
    form: SequenceForm

    @property
    def route(self) -> str:
        """The route (:mod:`seqform.routes.policy`): ``"tree"``."""
        return "tree"


def solve_sequence_form(
    form: SequenceForm,
    *,
    backend: Backend = "highs",
    solver: HighsSolver = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
) -> FloatSolution:
    """Solve the min-max LP of a sequence form (see :mod:`seqform.lp.minmax`)."""
    return solve_minmax(
        form.E,
        form.e,
        form.F,
        form.f,
        form.A,
        backend=backend,
        solver=solver,
        time_limit=time_limit,
        verbose=verbose,
    )


def plan_behaviour(
    form: SequenceForm, x: np.ndarray, y: np.ndarray
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """Both players' behavioural strategies of the plans ``(x, y)``."""
    return behaviour_from_plan(form.players[0], x), behaviour_from_plan(form.players[1], y)


def solve_tree(
    game: Game | str | os.PathLike[str],
    *,
    backend: Backend = "highs",
    solver: HighsSolver = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
    progress: Callable[[str], None] | None = None,
    form: SequenceForm | None = None,
) -> Solution:
    """Solve ``game`` by the sequence-form LP of its tree and certify the answer by best
    response (the tree route of :func:`seqform.routes.solve.solve`, which also checks the
    options and the memory first).

    Parameters
    ----------
    game
        The game, or its name or path as :func:`seqform.io.loader.load_game` takes it
        (``solve_tree("kuhn")``, ``solve_tree(Path("game.efg"))``).
    progress
        Called with a short message as each stage starts (the CLI prints them on stderr).
    form
        The game's sequence form, if already built (it is then not built again).

    Raises
    ------
    TypeError
        If ``game`` is not a game, a name or a path.
    seqform.lp.solvers.SolverLimitError
        If the solver stops at its time limit; when it had a point, the message gives the
        exploitability of that point, measured by best response, and ``exc.plans`` holds it.
    seqform.lp.solvers.SolverError
        If the LP solver does not prove optimality for another reason.
    """
    game = as_game(game, "solve_tree")
    require_float_payoffs(game)
    clock = PhaseClock(progress)
    announce = f"sequence form of {game.name} ({game.flat.num_nodes:,} nodes)"
    with clock.phase("sequence_form", announce):
        built = sequence_form_of(game, form)
    lp_message = (
        f"LP: {built.E.shape[1] + built.F.shape[0]:,} variables, "
        f"{built.F.shape[1] + built.E.shape[0]:,} constraints; HiGHS {solver} via {backend}"
    )
    result = lp_stages(
        clock,
        lambda: solve_sequence_form(
            built, backend=backend, solver=solver, time_limit=time_limit, verbose=verbose
        ),
        lambda x, y: plan_behaviour(built, x, y),
        lambda profile: certify(game, *profile),
        lp_message=lp_message,
    )
    return Solution(game=game, form=built, **result.parts())
