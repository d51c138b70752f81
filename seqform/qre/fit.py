"""The precision ``λ`` of a logit QRE fitted to observed play by maximum likelihood.

Given counts ``n(h, a)`` of observed actions (:mod:`seqform.io.action_counts`), the
log-likelihood of the agent logit QRE ``σ_λ`` on the principal branch is

    L(λ) = sum_{h, a} n(h, a) log σ_λ(a | h) = sum n · β(λ)

(McKelvey and Palfrey 1995, §4; Bland and Turocy 2023 on estimation along the branch).
As Gambit's ``logit_estimate`` does, the branch is traced from ``λ = 0`` (to the limit of
:func:`seqform.qre.equilibria.trace_logit`, or ``max_lambda``), ``L`` is evaluated at every
point, and the best point is refined by Brent's method on ``λ`` between its neighbours
(each evaluation a Newton solve at fixed ``λ``): the global maximiser along the branch.

Inside :func:`~seqform.base.interrupt.stop_on_interrupt` (``qre --fit`` on the command
line) a Ctrl-C ends the trace after the step under way, and the fit is the best point of
the branch so far, not refined (:attr:`LogitFit.interrupted`).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize_scalar

from seqform.game.model import Game
from seqform.io.loader import as_game
from seqform.qre.equations import LogitEquations, logit_equations
from seqform.qre.equilibria import (
    DEFAULT_TOLERANCE,
    Interruption,
    LogitBranch,
    QREPoint,
    action_labels,
    limit_reached,
    qre_point,
    require_same_game,
)
from seqform.qre.trace import TracedPoint, TraceSettings, correct_at, follow_branch
from seqform.qre.work import traceable_game

__all__ = ["LogitFit", "fit_logit"]


@dataclass(frozen=True)
class LogitFit:
    """The maximum-likelihood logit QRE.

    lam : the fitted ``λ``
    log_likelihood : ``L(λ)`` there (natural log)
    point : the QRE at ``λ``, certified
    observations : the total count
    at_end : True if the maximum is at the end of the traced branch (the data are fitted
        best by play closer to equilibrium than the trace reached: ``λ`` is a lower bound)
    branch : the principal branch traced beside the fit (``qre --fit DATA --plot FILE``
        draws it), reported with it; None when none was asked for
    interrupted : ``"fit"`` with the signal when an interrupt ended its trace (module
        docstring): the best point of the branch so far, ``at_end`` if it is the last
    """

    game: Game
    lam: float
    log_likelihood: float
    point: QREPoint
    observations: int
    at_end: bool
    seconds: float
    branch: LogitBranch | None = None
    interrupted: Interruption | None = None


def _refine(
    equations: LogitEquations,
    counts: np.ndarray,
    before: TracedPoint,
    after: TracedPoint,
    best: TracedPoint,
) -> tuple[float, np.ndarray]:
    """Brent's method on ``λ`` in ``[before.lam, after.lam]``; ``(λ, β)`` of the better of
    its answer and ``best``."""

    def solve(value: float) -> np.ndarray:
        share = (value - before.lam) / (after.lam - before.lam)
        return correct_at(equations, before.beta + share * (after.beta - before.beta), value)

    result = minimize_scalar(
        lambda value: -float(counts @ solve(value)),
        bounds=(before.lam, after.lam),
        method="bounded",
        options={"xatol": 1e-9},
    )
    if -result.fun < counts @ best.beta:
        return best.lam, best.beta
    return float(result.x), solve(float(result.x))


def _checked_counts(game: Game, counts: object, size: int) -> np.ndarray:
    """``counts`` as floats, refused as ``read_action_counts`` refuses a file's: one whole
    number ``>= 0`` per action, not all 0 (a negative count made the likelihood grow without
    bound, all zeros fitted ``λ = 0`` to no data)."""
    array = np.asarray(counts)
    if array.dtype.kind not in "iuf":
        raise TypeError(f"counts must be numbers, one per action, not {counts!r:.80}")
    array = array.astype(float)
    if array.shape != (size,):
        raise ValueError(f"counts: expected {size} counts (one per action), got {array.shape}")
    bad = ~(np.isfinite(array) & (array >= 0)) | (np.isfinite(array) & (array != np.round(array)))
    if bad.any():
        index = int(np.argmax(bad))
        player, infoset, action = action_labels(game)[index]
        raise ValueError(
            f"counts: count {array[index]:g} of player {player + 1}'s action {action!r} at "
            f"{infoset!r} (entry {index}) is not a whole number >= 0"
        )
    with np.errstate(over="ignore"):
        total = array.sum()
    if total <= 0:
        raise ValueError("counts: no observations (every count is 0)")
    if not np.isfinite(total):
        raise ValueError("counts: they add up past the float range (±1.8e308)")
    return array


def fit_logit(
    game: Game | str | os.PathLike[str],
    counts: np.ndarray,
    *,
    max_lambda: float | None = None,
    settings: TraceSettings | None = None,
    force: bool = False,
    branch: LogitBranch | None = None,
    progress: Callable[[float, float], None] | None = None,
) -> LogitFit:
    """Maximum-likelihood ``λ`` along the principal branch (module docstring).

    Length: the docstring documents each option; the body reads top to bottom.

    Parameters
    ----------
    game
        The game.
    counts
        One count per action, in the order of :func:`seqform.qre.equilibria.action_labels`.
    max_lambda
        The trace stops here if the limit is not reached first (default that of
        :class:`~seqform.qre.trace.TraceSettings`, as ``qre --fit``'s; given with
        ``settings``, it replaces theirs).
    settings
        The trace's steps (:class:`~seqform.qre.trace.TraceSettings`: ``qre --fit`` gives
        its ``--max-lambda`` and ``--max-accel`` here).
    force
        Trace even beyond the work limit of :mod:`seqform.qre.work`.
    branch
        A principal branch :func:`~seqform.qre.equilibria.trace_logit` traced on the same
        game object, kept in the result to be reported beside the fit.
    progress
        Called with ``(λ, NashConv)`` at every accepted point of the trace.

    Raises
    ------
    TypeError
        If ``counts`` are not numbers.
    ValueError
        If ``counts`` are not one whole number ``>= 0`` per action with at least one
        observation (as :func:`seqform.io.action_counts.read_action_counts` requires of a
        file), or ``max_lambda`` is not ``> 0``.
    seqform.questions.ranges_work.WorkRefusedError, seqform.routes.sizing.memory.MemoryRefusedError
        When the trace's estimate exceeds the work limit, before its first step.
    """
    game = as_game(game, "fit_logit")
    start = time.perf_counter()
    if settings is None:
        settings = TraceSettings() if max_lambda is None else TraceSettings(max_lambda=max_lambda)
    elif max_lambda is not None:
        settings = dataclasses.replace(settings, max_lambda=max_lambda)  # checked again
    traceable_game(game, force=force)
    require_same_game(branch, game)
    equations = logit_equations(game)
    counts = _checked_counts(game, counts, equations.size)
    threshold = DEFAULT_TOLERANCE * max(equations.payoff_range, np.finfo(float).tiny)

    def converged(point: TracedPoint) -> bool:
        return limit_reached(equations, point, threshold, progress)

    trace = follow_branch(equations, settings, stop=converged)
    interrupted = None
    if trace.reason == "interrupted":
        interrupted = Interruption("fit", trace.interrupted_by)
    points = trace.points
    likelihood = np.array([counts @ point.beta for point in points])
    best = int(np.argmax(likelihood))
    at_end = best == len(points) - 1
    lam, beta = points[best].lam, points[best].beta
    if 0 < best < len(points) - 1 and interrupted is None:
        lam, beta = _refine(equations, counts, points[best - 1], points[best + 1], points[best])
    point = qre_point(equations, TracedPoint(lam, beta, 0.0))
    return LogitFit(
        game=game,
        lam=lam,
        log_likelihood=float(counts @ beta),
        point=point,
        observations=int(counts.sum()),
        at_end=at_end,
        seconds=time.perf_counter() - start,
        branch=branch,
        interrupted=interrupted,
    )
