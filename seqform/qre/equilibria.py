"""Agent logit quantal response equilibria: points at given ``λ`` and the traced limit.

The equations are in :mod:`seqform.qre.equations` (McKelvey and Palfrey 1998;
Gambit's behaviour logit), the path-following in :mod:`seqform.qre.trace`
(Turocy 2005, 2010).  Any number of players and general-sum payoffs are taken; only games
with an information set reached with chance probability 0 are refused
(:class:`~seqform.game.errors.InvalidGameError`).

Stop rule
---------
:func:`trace_logit` follows the principal branch until both the profile's NashConv,
measured by best response (:func:`seqform.certify.certify_profile`), and its largest agent
regret (:func:`~seqform.qre.equations.agent_regret`: the gain of the best action
at an information set given it is reached, Gambit's ``logit_solve`` stop rule with
``maxregret``) are at most ``tolerance`` times the game's payoff range (the largest of
the players' ranges, each its largest payoff less its smallest: player 1's in a two-player
zero-sum game, as every seqform certificate; Gambit takes the range of all players' payoffs
together, which a constant added to one player's payoffs and taken from the other's
widens, though it changes no equilibrium), or ``λ`` exceeds ``max_lambda``.  NashConv alone
would stop where play at information sets that a player's own strategy (almost) never
reaches is still far from its limit; the agent regret follows it there, where the branch's
limit is a sequential equilibrium (Turocy 2010).  As ``λ → ∞`` the branch converges to a
Nash equilibrium (McKelvey and Palfrey 1995, Thm 2): the limit is reported with its
NashConv certificate.  For two-player zero-sum games
:func:`seqform.qre.limit.compare_limit` places it in the set of all equilibria
(:mod:`seqform.questions.ranges`: for Kuhn poker, which member ``α = x[J:b]`` of the
one-parameter family) and beside the quasi-perfect refinement.

Work limit
----------
A trace whose estimated time (:mod:`seqform.qre.work`: steps × the cost of a step,
from the number of action probabilities) exceeds five minutes, or whose memory estimate
exceeds what the process may have, is refused before its first step with the estimate,
unless ``force=True`` (``--force``); a built-in game given by its spec is refused before its
tree is built.

Interrupts
----------
Inside :func:`~seqform.base.interrupt.stop_on_interrupt` (``qre`` on the command line) a
Ctrl-C, or a signal handled as it, keeps what is finished and says what it cut short
(:class:`Interruption`): during a trace, the branch so far (:func:`trace_logit`), the points
crossed so far (:func:`logit_qre`) or the fit along it (:func:`seqform.qre.fit.fit_logit`);
during the comparison after a finished trace, the branch without it.

Size: over 400 lines: points and trace share the stop rule, the certificate and what an
interrupt keeps, and each entry point checks its arguments.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import TYPE_CHECKING

import numpy as np

from seqform.base.interrupt import interrupt_armed
from seqform.certify import NPlayerCertificate, certify_profile
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.qre.equations import LogitEquations, agent_regret, logit_equations
from seqform.qre.limit import LimitComparison, compare_limit
from seqform.qre.trace import TracedPoint, TraceSettings, follow_branch
from seqform.qre.work import traceable_game
from seqform.questions.ranges_work import DEFAULT_MAX_SECONDS as DEFAULT_RANGES_SECONDS

if TYPE_CHECKING:
    pass

__all__ = [
    "DEFAULT_TOLERANCE",
    "Interruption",
    "LambdaNotReachedError",
    "LogitBranch",
    "LogitPoints",
    "QREPoint",
    "action_labels",
    "limit_reached",
    "logit_qre",
    "qre_point",
    "require_same_game",
    "trace_logit",
]

#: Default stop rule: NashConv at most this times the payoff range.
DEFAULT_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Interruption:
    """What a Ctrl-C, or a signal handled as it, cut short (module docstring).

    during : ``"trace"`` (the branch so far is kept), ``"comparison"`` (the finished branch
        without it), ``"points"`` (the points crossed so far), ``"fit"`` (the fit along the
        branch so far)
    signal : its name (``"SIGINT"``, ``"SIGTERM"``, ``"SIGHUP"``), or None where it arrived as
        a :class:`KeyboardInterrupt`, which does not say (the command line names it)
    """

    during: str
    signal: str | None = None


@dataclass(frozen=True)
class QREPoint:
    """The logit QRE at one ``λ``.

    lam : the precision ``λ``
    strategies : every player's behaviour (full support)
    certificate : values, best-response values, gains and NashConv of the profile
    """

    lam: float
    strategies: tuple[BehaviouralStrategy, ...]
    certificate: NPlayerCertificate

    @property
    def nash_conv(self) -> float:
        return self.certificate.nash_conv


@dataclass(frozen=True)
class LogitPoints:
    """:func:`logit_qre`'s result: the QRE at each requested ``λ`` (ascending).

    branch : the principal branch traced beside the points (``qre --lambda L --plot FILE``
        draws it), reported with them; None when none was asked for
    interrupted : what an interrupt cut short (``"points"``: ``points`` holds those crossed
        before it, maybe none), else None
    """

    game: Game
    points: tuple[QREPoint, ...]
    steps: int
    seconds: float
    branch: LogitBranch | None = None
    interrupted: Interruption | None = None


@dataclass(frozen=True)
class LogitBranch:
    """:func:`trace_logit`'s result: the principal branch and its end.

    lambdas : ``λ`` at each accepted point of the trace, shape (points,)
    probabilities : every action's probability there, shape (points, actions); the
        actions in the order of :func:`action_labels`
    limit : the QRE at the last point, with its certificate
    agent_regret : the largest agent regret there (module docstring)
    reason : why the trace ended (``"converged"``: the stop rule of the module docstring;
        ``"interrupted"``: a Ctrl-C inside :func:`~seqform.base.interrupt.stop_on_interrupt`,
        the branch so far and its last point, not compared)
    tolerance : the stop rule's factor; ``payoff_range`` its scale
    seconds : the trace's time, and the comparison's when there is one
    comparison : where the limit lies among all equilibria (:func:`compare_limit`), when
        :func:`trace_logit` was asked to compare it and the trace was not interrupted; else
        None
    interrupted_by : the signal that interrupted the trace (``"SIGINT"``, ``"SIGTERM"``,
        ``"SIGHUP"``), else None
    interrupted : what an interrupt cut short: the trace (``reason`` ``"interrupted"``) or
        the comparison after it (``comparison`` is then None), else None
    """

    game: Game
    lambdas: np.ndarray
    probabilities: np.ndarray
    limit: QREPoint
    agent_regret: float
    reason: str
    tolerance: float
    payoff_range: float
    seconds: float
    comparison: LimitComparison | None = None
    interrupted_by: str | None = None
    interrupted: Interruption | None = None

    @property
    def converged(self) -> bool:
        return self.reason == "converged"

    @property
    def shortfall(self) -> str | None:
        """None if the stop rule held at the last point; else why the trace ended first (the
        last point is then the best it reached, not the limit): ``max_lambda``, ``max_steps``,
        or the corrector lost the branch where floating point no longer resolves it."""
        if self.converged:
            return None
        return (
            f"the trace ended at λ = {self.lambdas[-1]:.6g} before its stop rule held "
            f"({self.reason}): NashConv {self.limit.nash_conv:.3g} and agent regret "
            f"{self.agent_regret:.3g}, wanted <= {self.tolerance:g} × payoff range "
            f"{self.payoff_range:g}"
        )


def action_labels(game: Game) -> list[tuple[int, str, str]]:
    """``(player, infoset, action)`` of every unknown ``β``, in the equations' order."""
    return [
        (player, table.infosets[int(table.sequence_infoset[s])], table.sequence_action[s])
        for player, table in enumerate(game.flat.tables)
        for s in range(1, table.num_sequences)
    ]


def _strategies(equations: LogitEquations, beta: np.ndarray) -> tuple[BehaviouralStrategy, ...]:
    strategies = []
    for player, table in enumerate(equations.game.flat.tables):
        start = int(equations.offsets[player])
        probabilities = np.ones(table.num_sequences)
        probabilities[1:] = np.exp(beta[start : start + table.num_sequences - 1])
        strategies.append(
            BehaviouralStrategy(table, probabilities, np.zeros(table.num_infosets, dtype=bool))
        )
    return tuple(strategies)


def qre_point(equations: LogitEquations, point: TracedPoint) -> QREPoint:
    """A traced point as strategies, certified by best response."""
    strategies = _strategies(equations, point.beta)
    return QREPoint(point.lam, strategies, certify_profile(equations.game, strategies))


def logit_qre(
    game: Game | str | os.PathLike[str],
    lambdas: Sequence[float],
    *,
    settings: TraceSettings | None = None,
    force: bool = False,
    branch: LogitBranch | None = None,
    progress: Callable[[float], None] | None = None,
) -> LogitPoints:
    """The logit QRE on the principal branch at each of ``lambdas``.

    Where the branch crosses a ``λ`` more than once (it may bend back), the first crossing
    from ``λ = 0`` is returned, as Gambit's ``logit_solve_lambda`` does.  ``game`` is a
    game or its spec; ``force`` lifts the work limit (module docstring).  ``branch``, a
    principal branch :func:`trace_logit` traced on the same game object, is kept in the
    result to be reported beside the points.  ``progress`` is told the ``λ`` of every
    accepted point of the trace.  Inside :func:`~seqform.base.interrupt.stop_on_interrupt`
    a Ctrl-C ends the trace after the step under way, with the points crossed so far
    (:attr:`LogitPoints.interrupted`).

    Raises
    ------
    TypeError
        If ``game`` is neither a game, a name nor a path, or ``lambdas`` is not a sequence
        of numbers.
    ValueError
        If a ``λ`` is negative or not finite, or ``branch`` was traced on another game.
    LambdaNotReachedError
        If the branch is lost before a requested ``λ`` (its ``result`` has the points
        reached).
    seqform.game.errors.InvalidGameError
        If an information set is reached only with chance probability 0.
    seqform.questions.ranges_work.WorkRefusedError, seqform.routes.sizing.memory.MemoryRefusedError
        When the trace's estimate exceeds the work limit (module docstring).
    """
    start = time.perf_counter()
    lambdas = _checked_lambdas(lambdas)
    game = traceable_game(game, force=force, caller="logit_qre")
    require_same_game(branch, game)
    equations = logit_equations(game)
    trace = follow_branch(
        equations,
        settings or TraceSettings(max_lambda=np.inf),
        targets=lambdas,
        on_point=None if progress is None else lambda point: progress(point.lam),
    )
    interrupted = None
    if trace.reason == "interrupted":
        interrupted = Interruption("points", trace.interrupted_by)
    points = tuple(qre_point(equations, point) for point in trace.found)
    seconds = time.perf_counter() - start
    result = LogitPoints(game, points, len(trace.points), seconds, branch, interrupted)
    if interrupted is None and len(points) < len(lambdas):
        missing = ", ".join(f"{lam:g}" for lam in sorted(lambdas)[len(points) :])
        raise LambdaNotReachedError(
            f"the branch was not followed to every λ ({trace.reason}); not reached: λ = {missing}",
            result,
        )
    return result


def _checked_lambdas(lambdas: Iterable[float]) -> list[float]:
    """``lambdas`` as a list, each a finite number ``>= 0`` (``TypeError``, ``ValueError``)."""
    if isinstance(lambdas, str | bytes) or not isinstance(lambdas, Iterable):
        raise TypeError(f"lambdas must be a sequence of numbers, not {lambdas!r:.80}")
    checked = list(lambdas)
    for lam in checked:
        if isinstance(lam, bool) or not isinstance(lam, Real):
            raise TypeError(f"lambdas: each λ must be a number, not {lam!r:.80}")
        if not np.isfinite(lam) or lam < 0:
            raise ValueError(f"λ must be a finite number >= 0, not {lam}")
    return checked


class LambdaNotReachedError(ArithmeticError):
    """:func:`logit_qre` lost the branch before a requested ``λ``: floating point no longer
    resolves it there.  ``result`` holds the points it did reach (the smaller ``λ``, maybe
    none), which ``qre --lambda`` writes before it exits 3."""

    def __init__(self, message: str, result: LogitPoints) -> None:
        super().__init__(message)
        self.result = result


def require_same_game(branch: LogitBranch | None, game: Game) -> None:
    """Refuse a ``branch`` traced on another game object than ``game`` (``ValueError``):
    a result reports its branch beside its own points."""
    if branch is not None and branch.game is not game:
        raise ValueError(
            f"branch: traced on {branch.game.name!r}, not on this game object "
            f"({game.name!r}); trace it with trace_logit on the same game"
        )


def limit_reached(
    equations: LogitEquations,
    point: TracedPoint,
    threshold: float,
    progress: Callable[[float, float], None] | None = None,
) -> bool:
    """The stop rule of the module docstring at ``point``: NashConv and the largest agent
    regret both at most ``threshold``; ``progress`` is told ``(λ, NashConv)``."""
    if point.lam == 0.0:
        return equations.payoff_range == 0.0
    nash_conv = qre_point(equations, point).nash_conv
    if progress is not None:
        progress(point.lam, nash_conv)
    return nash_conv <= threshold and agent_regret(equations, point.beta, point.lam) <= threshold


def trace_logit(
    game: Game | str | os.PathLike[str],
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    settings: TraceSettings | None = None,
    progress: Callable[[float, float], None] | None = None,
    force: bool = False,
    compare: bool = False,
    ranges_seconds: float | None = DEFAULT_RANGES_SECONDS,
) -> LogitBranch:
    """Follow the principal branch to its limit (stop rule in the module docstring).

    Inside :func:`~seqform.base.interrupt.stop_on_interrupt` a Ctrl-C ends the trace after
    the step under way: the branch so far is returned, ``reason`` ``"interrupted"``, its
    last point certified and not compared; during the comparison, it returns the finished
    branch without one (:attr:`LogitBranch.interrupted`).

    Length: the docstring documents each option; the body is short.

    Parameters
    ----------
    game
        Any game (n players, general sum) without information sets of chance probability 0,
        or its name (``"leduc"``) or path (:func:`~seqform.io.loader.load_game`).
    tolerance
        Stop once NashConv <= ``tolerance`` × payoff range.
    settings
        Step sizes and ``max_lambda`` (default ``1e8`` over the payoff range,
        :func:`~seqform.qre.trace.lambda_limit`).
    progress
        Called with ``(λ, NashConv)`` at every accepted point.
    force
        Trace even beyond the work limit (module docstring).
    compare
        For a two-player zero-sum game, place the limit among all equilibria
        (:func:`compare_limit`, kept in :attr:`LogitBranch.comparison`); other games have
        no comparison.
    ranges_seconds
        The comparison's work limit, as ``max_seconds`` of :func:`compare_limit` (None:
        no limit, as ``qre --force``).

    Raises
    ------
    TypeError
        If ``game`` is neither a game, a name nor a path, or ``tolerance`` is not a number.
    ValueError
        If ``tolerance`` is not a finite number > 0.
    seqform.questions.ranges_work.WorkRefusedError, seqform.routes.sizing.memory.MemoryRefusedError
        When the trace's estimate exceeds the work limit, before its first step.
    """
    start = time.perf_counter()
    if isinstance(tolerance, bool) or not isinstance(tolerance, Real):
        raise TypeError(f"tolerance must be a number, not {tolerance!r:.80}")
    if not 0 < tolerance < np.inf:  # as qre --tolerance
        raise ValueError(f"tolerance must be a finite number > 0, not {tolerance}")
    game = traceable_game(game, force=force)
    equations = logit_equations(game)
    threshold = tolerance * max(equations.payoff_range, np.finfo(float).tiny)

    def converged(point: TracedPoint) -> bool:
        return limit_reached(equations, point, threshold, progress)

    trace = follow_branch(equations, settings or TraceSettings(), stop=converged)
    lambdas = np.array([point.lam for point in trace.points])
    probabilities = np.exp(np.array([point.beta for point in trace.points]))
    last = trace.points[-1]
    limit = qre_point(equations, last)
    flat = game.flat
    comparison = None
    interrupted = None
    if trace.reason == "interrupted":
        interrupted = Interruption("trace", trace.interrupted_by)
    elif compare and flat.num_players == 2 and flat.not_zero_sum < 0:
        try:
            comparison = compare_limit(game, limit, max_seconds=ranges_seconds)
        except KeyboardInterrupt:  # the finished branch is kept without it
            if not interrupt_armed():
                raise
            interrupted = Interruption("comparison")
    return LogitBranch(
        game=game,
        lambdas=lambdas,
        probabilities=probabilities,
        limit=limit,
        agent_regret=agent_regret(equations, last.beta, last.lam),
        reason=trace.reason,
        tolerance=tolerance,
        payoff_range=equations.payoff_range,
        seconds=time.perf_counter() - start,
        comparison=comparison,
        interrupted_by=trace.interrupted_by,
        interrupted=interrupted,
    )
