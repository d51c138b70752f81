"""The whole pipeline: game → sequence form → min-max LP → behavioural strategies → certificate.

No answer is returned unverified: every :class:`Solution` carries the exploitability
(NashConv) of its behavioural strategies, measured by :mod:`seqform.certify` on
the tree, independently of the LP.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from seqform.certify import Certificate, certify
from seqform.forms.sequence_form import SequenceForm, build_sequence_form
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan
from seqform.game.model import Game
from seqform.lp.minmax import (
    Algorithm,
    Backend,
    LPSolution,
    SolverLimitError,
    SolverStats,
    solve_minmax,
)

__all__ = ["Solution", "Timings", "solve", "solve_sequence_form"]


@dataclass(frozen=True)
class Timings:
    """Wall-clock seconds of each stage of :func:`solve`."""

    sequence_form: float
    lp: float
    behaviour: float
    certificate: float

    @property
    def total(self) -> float:
        return self.sequence_form + self.lp + self.behaviour + self.certificate


@dataclass(frozen=True)
class Solution:
    """An equilibrium of a two-player zero-sum game, with its certificate.

    value : the LP optimum, the game's value to player 0
    plans : optimal realization plans ``(x, y)`` on the sequence indices of ``form``
    behaviour : the behavioural strategies of the plans (see :mod:`seqform.forms.strategies`)
    certificate : expected value, best responses and exploitability, from the tree walk
    stats : what the LP solver did
    """

    game: Game
    form: SequenceForm
    value: float
    plans: tuple[np.ndarray, np.ndarray]
    behaviour: tuple[BehaviouralStrategy, BehaviouralStrategy]
    certificate: Certificate
    stats: SolverStats
    timings: Timings

    @property
    def exploitability(self) -> float:
        """NashConv of the behavioural strategies, measured by best response."""
        return float(self.certificate.exploitability)


def solve_sequence_form(
    form: SequenceForm,
    *,
    backend: Backend = "highs",
    algorithm: Algorithm = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
) -> LPSolution:
    """Solve the min-max LP of a sequence form (see :mod:`seqform.lp.minmax`)."""
    return solve_minmax(
        form.E,
        form.e,
        form.F,
        form.f,
        form.A,
        backend=backend,
        algorithm=algorithm,
        time_limit=time_limit,
        verbose=verbose,
    )


def solve(
    game: Game,
    *,
    backend: Backend = "highs",
    algorithm: Algorithm = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Solution:
    """Solve ``game`` by the sequence-form LP and certify the answer by best response.

    Parameters
    ----------
    progress
        Called with a short message as each stage starts (the CLI prints them on stderr).

    Raises
    ------
    seqform.lp.minmax.SolverLimitError
        If the solver stops at its time limit; when it had a point, the message gives the
        exploitability of that point, measured by best response, and ``exc.plans`` holds it.
    seqform.lp.minmax.SolverError
        If the LP solver does not prove optimality for another reason.
    """
    report = progress or (lambda message: None)
    start = time.perf_counter()
    report(f"sequence form of {game.name} ({game.flat.num_nodes:,} nodes)")
    form = build_sequence_form(game)
    built = time.perf_counter()
    report(
        f"LP: {form.E.shape[1] + form.F.shape[0]:,} variables, "
        f"{form.F.shape[1] + form.E.shape[0]:,} constraints; HiGHS {algorithm} via {backend}"
    )
    try:
        lp_solution = solve_sequence_form(
            form, backend=backend, algorithm=algorithm, time_limit=time_limit, verbose=verbose
        )
    except SolverLimitError as exc:
        raise _measured(game, form, exc) from exc
    solved = time.perf_counter()
    report("behavioural strategies and certificate")
    behaviour = (
        behaviour_from_plan(form.players[0], lp_solution.x),
        behaviour_from_plan(form.players[1], lp_solution.y),
    )
    converted = time.perf_counter()
    certificate = certify(game, behaviour[0], behaviour[1])
    certified = time.perf_counter()
    return Solution(
        game=game,
        form=form,
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


def _measured(game: Game, form: SequenceForm, error: SolverLimitError) -> SolverLimitError:
    """The same limit error, its message extended by the exploitability of its point."""
    if error.plans is None:
        return SolverLimitError(f"{error}; the solver offered no point to measure", None)
    x, y = error.plans
    behaviour = (
        behaviour_from_plan(form.players[0], x),
        behaviour_from_plan(form.players[1], y),
    )
    certificate = certify(game, behaviour[0], behaviour[1])
    return SolverLimitError(
        f"{error}; the best point found has exploitability (NashConv) "
        f"{float(certificate.exploitability):.3g}, by best response",
        error.plans,
    )
