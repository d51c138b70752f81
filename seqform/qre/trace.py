"""Following the principal branch of the logit equations by predictor and corrector.

The solutions of ``H(β, λ) = 0`` (:mod:`seqform.qre.equations`) from the uniform
profile at ``λ = 0`` form a curve, the principal branch (McKelvey and Palfrey 1995, Thm 1;
Turocy 2005).  It is followed in arc length as Gambit does (Turocy 2010; Allgower and Georg
1990, ch. 2 and 6):

* **tangent**: with ``J = [dH/dβ  dH/dλ]`` (``N × (N+1)``) at a point and ``t₀`` the
  previous direction, ``t`` solves ``[J; t₀ᵀ] t = e_{N+1}``, normalised; so ``J t = 0`` and
  the orientation is kept (``t₀ᵀ t > 0``; at the start ``t₀ = e_λ``, so ``λ`` grows);
* **predictor**: a step ``z + h d`` of arc length ``h`` along the tangent at the start,
  then along the secant ``d`` through the last two points (Allgower and Georg 1990, §2.2);
* **corrector**: Newton steps ``[J; dᵀ] dz = [-H(z); 0]`` back onto the curve in the
  hyperplane orthogonal to ``d``, the matrix factored (sparse LU,
  :func:`scipy.sparse.linalg.splu`) at the predicted point and again only where the
  corrections stop shrinking quickly (chord Newton in between): the LU is the dominant
  cost;
* **step control**: a corrector whose first correction is too long or whose corrections
  contract too slowly (``MAX_DISTANCE``, ``MAX_CONTRACTION``), or that needs more than
  ``MAX_CORRECTIONS`` steps, rejects the step and halves ``h``; otherwise the next ``h`` is
  scaled towards target distance and contraction, growing by at most ``max_accel``
  (Gambit's parameter).  Corrections below a noise floor that grows with ``|z|`` are
  rounding, not the predictor's error (:func:`_correct`): at large ``λ`` (about 3e5 on
  3-player Kuhn) the rounding of the residual alone, which grows like ``λ × max |β|``,
  makes first corrections of order 1, longer than ``MAX_DISTANCE``.

Points at given ``λ`` are found where the branch first crosses them, by Newton's method in
``β`` alone from the interpolation between the two points around the crossing.

Inside :func:`~seqform.base.interrupt.stop_on_interrupt` (``qre`` on the command line), a
Ctrl-C, or a signal handled as it, ends the trace after the step under way, with the points
accepted so far (:func:`~seqform.base.interrupt.interrupt_boundaries`).

Size: under 500 lines: predictor, corrector, step control and where the trace stops are
one algorithm, and :class:`TraceSettings` checks each of its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

from seqform.base.interrupt import interrupt_boundaries
from seqform.qre.equations import LogitEquations, evaluate

__all__ = [
    "MAX_ACCEL",
    "MAX_CORRECTIONS",
    "MAX_SCALED_LAMBDA",
    "MIN_ACCEL",
    "BranchLostError",
    "Trace",
    "TraceSettings",
    "TracedPoint",
    "correct_at",
    "follow_branch",
    "lambda_limit",
]

MAX_CORRECTIONS = 20
MIN_ACCEL = 1.05
"""The smallest ``max_accel`` accepted: a step that may grow by less takes tens of thousands
of steps to reach a large λ (on Kuhn, 1.01 takes over three times as long as 1.05;
``benchmarks/results/measurements.md``), and at 1 or below it never grows and the
trace does not end in any useful time."""
MAX_ACCEL = 1e6
"""The largest ``max_accel`` accepted.  A step that grows too far lands off the branch and
is halved back until the corrector succeeds (a singular matrix there rejects it too): on
Kuhn every growth from 10 to 1e12 takes 27 or 28 steps and about 2 s, but 1e100 takes
4.8 s and 1e300 12 s, nearly all of it in rejected steps (``log2(max_accel)`` of them
after an overshoot), and a step grown beyond the float range could never be halved back.
Before singular matrices rejected steps, 1e8 and above ended Kuhn's trace in SciPy's
``Factor is exactly singular``."""
#: Newton stops once every coordinate's correction is below this times ``1 + |z_i|``: per
#: coordinate, so that the log-probabilities near 0 of the actions that survive are solved
#: to 1e-9 even where dying actions have ``β`` of order ``-λ`` (a tolerance scaled by
#: ``max |z|`` would leave them errors of ``1e-9 λ``).
CORRECTION_TOLERANCE = 1e-9
#: Corrections shorter than this many tolerances are at the floating-point noise floor
#: (the residual's rounding grows with ``λ``): their ratio says nothing of contraction.
NOISE_FLOOR = 1e3
#: A corrector whose first step is longer than this, or whose corrections shrink by a
#: factor worse than ``MAX_CONTRACTION``, is rejected and the step halved; the targets
#: steer the next step's length (Allgower and Georg 1990, §6.1; Gambit uses 0.4 and 0.6).
MAX_DISTANCE = 1.0
MAX_CONTRACTION = 0.6
TARGET_DISTANCE = 0.25
TARGET_CONTRACTION = 0.2
#: The corrector factors the matrix again where corrections shrink by less than this.
REFACTOR_CONTRACTION = 0.1
MAX_FACTORS = 3


MAX_SCALED_LAMBDA = 1e8
"""The default limit of ``λ`` times the game's payoff range.  ``λ`` is in the inverse of the
payoff unit (the equations read ``λ U``), so a limit in ``λ`` alone would depend on the
units: Kuhn poker with its payoffs in millionths of a chip reaches at ``λ = 10^7`` only
what Kuhn reaches at ``λ = 10`` (and ended uncertified there).  Kuhn's trace meets its
stop rule near ``λ × 4 = 3·10^5``, and floating point stops resolving branches near
``10^6`` to ``10^7`` (module docstring): the limit is a guard against unbounded work, met
only by a branch that neither converges nor is lost."""


class BranchLostError(ArithmeticError):
    """The corrector failed even with the smallest step: the branch could not be followed."""


@dataclass(frozen=True)
class TraceSettings:
    """How the branch is followed; every field is checked (``ValueError`` naming it, or
    ``TypeError`` for a value that is not a number).

    first_step : arc length of the first step, a finite number > 0 (Gambit's
        ``first_step``, 0.03)
    max_accel : largest factor by which a step may grow (Gambit's ``max_accel`` is 1.1;
        larger is faster on long branches), from :data:`MIN_ACCEL` to :data:`MAX_ACCEL`
    min_step : a step rejected below this arc length ends the trace with
        :class:`BranchLostError`; a finite number > 0
    max_lambda : the trace stops once ``λ`` exceeds it; a number > 0 (``inf``: no limit),
        or None (the default): :data:`MAX_SCALED_LAMBDA` divided by the game's payoff
        range (:func:`lambda_limit`)
    max_steps : the trace stops after this many accepted steps; a whole number >= 1
    """

    first_step: float = 0.03
    max_accel: float = 1.5
    min_step: float = 1e-10
    max_lambda: float | None = None
    max_steps: int = 100_000

    def __post_init__(self) -> None:
        for name in ("first_step", "max_accel", "min_step", "max_lambda"):
            value = getattr(self, name)
            if name == "max_lambda" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, Real):
                raise TypeError(f"{name} must be a number, not {value!r}")
        if isinstance(self.max_steps, bool) or not isinstance(self.max_steps, Integral):
            raise TypeError(f"max_steps must be a whole number, not {self.max_steps!r}")
        if not MIN_ACCEL <= self.max_accel <= MAX_ACCEL:
            raise ValueError(
                f"max_accel must be a number from {MIN_ACCEL} to {MAX_ACCEL:g} (a step's "
                f"largest growth; Gambit uses 1.1), not {self.max_accel}"
            )
        for name in ("first_step", "min_step"):
            if not 0 < getattr(self, name) < float("inf"):
                raise ValueError(
                    f"{name} must be a finite number > 0 (an arc length), not {getattr(self, name)}"
                )
        if self.max_lambda is not None and not self.max_lambda > 0:
            raise ValueError(
                f"max_lambda must be a number > 0 (inf: no limit; λ starts at 0), "
                f"not {self.max_lambda}"
            )
        if self.max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {self.max_steps}")


def lambda_limit(settings: TraceSettings, payoff_range: float) -> float:
    """The ``λ`` at which the trace stops: ``settings.max_lambda``, or by default
    :data:`MAX_SCALED_LAMBDA` over the payoff range (over 1 for a game whose payoffs are
    all equal)."""
    if settings.max_lambda is not None:
        return float(settings.max_lambda)
    return MAX_SCALED_LAMBDA / (payoff_range if payoff_range > 0 else 1.0)


@dataclass(frozen=True)
class TracedPoint:
    """One point on the branch: ``λ``, the log-probabilities ``β`` and the arc length."""

    lam: float
    beta: np.ndarray
    arc_length: float


def _factor(matrix: sp.csc_array, lam: float):
    """The sparse LU of ``matrix``; :class:`BranchLostError` where it is singular.

    At points far along the branch (or far beyond it, where a long predictor step lands)
    ``exp`` of the log-probabilities underflows and the matrix loses rank: SuperLU then
    raises ``RuntimeError("Factor is exactly singular")``.
    """
    try:
        return splu(matrix)
    except RuntimeError as exc:  # SuperLU's only failure: a zero pivot
        raise BranchLostError(f"the equations' matrix is singular at λ = {lam:g}") from exc


def _augmented(equations: LogitEquations, beta: np.ndarray, lam: float, row: np.ndarray):
    point = evaluate(equations, beta, lam)
    assert point.jacobian is not None
    matrix = sp.vstack(
        [
            sp.hstack([point.jacobian, sp.csc_array(point.lambda_column[:, None])]),
            sp.csc_array(row[None, :]),
        ],
        format="csc",
    )
    return _factor(matrix, lam)


def _tangent(factor, size: int, previous: np.ndarray) -> np.ndarray:
    right = np.zeros(size + 1)
    right[-1] = 1.0
    tangent = factor.solve(right)
    tangent /= np.linalg.norm(tangent)
    return tangent if tangent @ previous >= 0.0 else -tangent


@dataclass(frozen=True)
class Trace:
    """A followed branch.

    points : the accepted points, from ``λ = 0``
    found : one point per target crossed, in ascending ``λ``
    reason : why it ended: ``"converged"`` (the stop rule held), ``"targets"`` (every
        target crossed), ``"max_lambda"``, ``"max_steps"``, ``"interrupted"`` (Ctrl-C, or
        a signal handled as it, inside :func:`~seqform.base.interrupt.stop_on_interrupt`;
        it takes precedence over any other reason at the same point), or ``"lost: ..."``
        (the corrector failed with the smallest step: floating point no longer resolves the
        equations, which happens at very large ``λ``)
    interrupted_by : when ``reason == "interrupted"``, the signal's name (``"SIGINT"``,
        ``"SIGTERM"``, ``"SIGHUP"``); else None
    """

    points: tuple[TracedPoint, ...]
    found: tuple[TracedPoint, ...]
    reason: str
    interrupted_by: str | None = None


@dataclass(frozen=True)
class _Correction:
    """A corrector's outcome: the point (None if rejected), the first correction's length
    and the largest ratio of successive corrections (the contraction)."""

    point: np.ndarray | None
    distance: float
    contraction: float


def _correct(equations: LogitEquations, z: np.ndarray, row: np.ndarray) -> _Correction:
    """Newton from the predicted ``z`` in the hyperplane ``rowᵀ dz = 0`` (module docstring):
    the matrix is factored at ``z`` and again wherever the corrections stop shrinking fast
    (ratio above ``REFACTOR_CONTRACTION``), at most ``MAX_FACTORS`` times.

    Below the noise floor (``NOISE_FLOOR`` tolerances, which grows with ``|z|``) lengths
    and ratios of corrections are rounding: a first correction there neither rejects the
    step nor shortens the next one (at large ``λ`` the noise alone exceeds
    ``MAX_DISTANCE``), and corrections that stop shrinking there end the corrector
    (stalled), but only with a matrix factored within that floor of the point: with an
    older factor (chord steps from a predicted point far away) slow shrinking is the
    chord's own linear rate, and the matrix is factored again first.  A correction that
    grows from below the floor to above it diverges (its ratio is taken to the floor).
    A matrix that is singular (:func:`_factor`) rejects the step too: a long predictor
    step lands where ``exp(β)`` underflows, and a shorter one is tried.
    """
    size = equations.size
    try:
        factor = _augmented(equations, z[:size], float(z[-1]), row)
    except BranchLostError:  # a singular matrix: the predictor left the branch too far
        return _Correction(None, np.inf, np.inf)
    factors = 1
    moved = 0.0  # how far z has gone since the matrix was factored (largest coordinate)
    first, previous, contraction = np.inf, np.inf, 0.0
    for _ in range(MAX_CORRECTIONS):
        residual = evaluate(equations, z[:size], float(z[-1]), jacobian=False).residual
        step = factor.solve(np.append(-residual, 0.0))
        if not np.all(np.isfinite(step)):
            return _Correction(None, np.inf, np.inf)
        length = float(np.abs(step).max())  # per coordinate: independent of the size N
        floor = NOISE_FLOOR * CORRECTION_TOLERANCE * (1.0 + float(np.abs(z).max()))
        if np.isinf(first):
            first = length if length > floor else 0.0
            if first > MAX_DISTANCE:
                return _Correction(None, first, np.inf)
        ratio = length / max(previous, floor) if max(previous, length) > floor else 0.0
        contraction = max(contraction, ratio)
        if contraction > MAX_CONTRACTION:
            return _Correction(None, first, contraction)
        stalled = previous <= floor and length >= 0.5 * previous
        converged = _relative_size(step, z) <= CORRECTION_TOLERANCE
        z = z + step
        if converged or (stalled and moved <= floor):
            return _Correction(z, first, contraction)
        moved += length
        if stalled or (ratio > REFACTOR_CONTRACTION and factors < MAX_FACTORS):
            if factors > MAX_FACTORS:
                return _Correction(None, first, np.inf)
            try:
                factor = _augmented(equations, z[:size], float(z[-1]), row)
            except BranchLostError:
                return _Correction(None, first, np.inf)
            factors += 1
            moved, length = 0.0, np.inf
        previous = length
    return _Correction(None, first, np.inf)


def _relative_size(step: np.ndarray, z: np.ndarray) -> float:
    """The largest ``|step_i| / (1 + |z_i|)``: the convergence measure of the corrector."""
    return float((np.abs(step) / (1.0 + np.abs(z))).max())


def correct_at(equations: LogitEquations, beta: np.ndarray, lam: float) -> np.ndarray:
    """Newton's method in ``β`` at fixed ``λ`` from ``beta``; the solution.

    Raises
    ------
    BranchLostError
        If Newton's method does not converge in ``MAX_CORRECTIONS`` steps, or its matrix
        is singular.
    """
    previous = np.inf
    for _ in range(MAX_CORRECTIONS):
        point = evaluate(equations, beta, lam)
        assert point.jacobian is not None
        step = _factor(point.jacobian, lam).solve(-point.residual)
        length = float(np.abs(step).max())
        noise = NOISE_FLOOR * CORRECTION_TOLERANCE * (1.0 + max(float(np.abs(beta).max()), lam))
        converged = _relative_size(step, beta) <= CORRECTION_TOLERANCE
        beta = beta + step
        if converged or (previous <= noise and length >= 0.5 * previous):
            return beta
        previous = length
    raise BranchLostError(f"Newton's method did not converge at λ = {lam:g}")


def follow_branch(
    equations: LogitEquations,
    settings: TraceSettings,
    *,
    targets: Sequence[float] = (),
    stop: Callable[[TracedPoint], bool] | None = None,
    on_point: Callable[[TracedPoint], None] | None = None,
) -> Trace:
    """Follow the principal branch from ``λ = 0`` (module docstring).

    Parameters
    ----------
    equations
        The game's logit equations.
    settings
        Step sizes and limits.
    targets
        ``λ`` values at which to return the branch's first crossing, in any order.
    stop
        Called at every accepted point; the trace ends when it returns True.  Without it
        the trace ends once every target is crossed (or at :func:`lambda_limit`).
    on_point
        Called at every accepted point (progress).

    Returns
    -------
    The accepted points, the targets' points and why the trace ended (after a Ctrl-C
    inside :func:`~seqform.base.interrupt.stop_on_interrupt`: ``"interrupted"``, the
    points accepted so far).
    """
    if not isinstance(settings, TraceSettings):
        raise TypeError(f"settings must be a TraceSettings, not {settings!r:.80}")
    with interrupt_boundaries() as interrupted:
        trace = _follow(equations, settings, targets, stop, on_point, interrupted)
    received = interrupted()
    if received is None:
        return trace
    return Trace(trace.points, trace.found, "interrupted", received)


def _follow(
    equations: LogitEquations,
    settings: TraceSettings,
    targets: Sequence[float],
    stop: Callable[[TracedPoint], bool] | None,
    on_point: Callable[[TracedPoint], None] | None,
    interrupted: Callable[[], str | None],
) -> Trace:
    """:func:`follow_branch`'s loop; ``interrupted()``, read at every accepted point, ends
    it there once a Ctrl-C is noted."""
    size = equations.size
    pending = sorted(float(t) for t in targets)
    found: list[TracedPoint] = []
    z = np.append(equations.uniform(), 0.0)
    while pending and pending[0] <= 0.0:
        found.append(TracedPoint(pending.pop(0), z[:size].copy(), 0.0))
    current = TracedPoint(0.0, z[:size].copy(), 0.0)
    points = [current]
    step, tangent = settings.first_step, None
    while True:
        if interrupted() is not None:
            return Trace(tuple(points), tuple(found), "interrupted")
        reason = _finished(current, len(points), stop, pending, settings, equations.payoff_range)
        if reason:
            return Trace(tuple(points), tuple(found), reason)
        try:
            tangent = _first_tangent(equations, z) if tangent is None else tangent
            step, correction = _move(equations, z, tangent, step, settings)
        except BranchLostError as exc:
            return Trace(tuple(points), tuple(found), f"lost: {exc}")
        corrected = correction.point
        assert corrected is not None
        arc = current.arc_length + float(np.linalg.norm(corrected - z))
        following = TracedPoint(float(corrected[-1]), corrected[:size].copy(), arc)
        while pending and current.lam < pending[0] <= following.lam:
            found.append(_crossing(equations, current, following, pending.pop(0)))
        tangent = (corrected - z) / np.linalg.norm(corrected - z)
        z, current = corrected, following
        points.append(current)
        if on_point is not None:
            on_point(current)
        step = _next_step(step, correction, settings.max_accel)


def _first_tangent(equations: LogitEquations, z: np.ndarray) -> np.ndarray:
    """The tangent at ``λ = 0``, oriented so that ``λ`` grows (module docstring)."""
    size = equations.size
    direction = np.zeros(size + 1)
    direction[-1] = 1.0
    return _tangent(_augmented(equations, z[:size], 0.0, direction), size, direction)


def _move(
    equations: LogitEquations,
    z: np.ndarray,
    direction: np.ndarray,
    step: float,
    settings: TraceSettings,
) -> tuple[float, _Correction]:
    """Predict ``z + h d`` and correct, halving ``h`` until the corrector succeeds; the step
    length used and the correction.  A prediction far off the branch may overflow ``exp``:
    its non-finite corrections reject the step, so numpy's warnings are silenced."""
    while True:
        with np.errstate(over="ignore", invalid="ignore"):
            correction = _correct(equations, z + step * direction, direction)
        if correction.point is not None:
            return step, correction
        step *= 0.5
        if step < settings.min_step:
            raise BranchLostError(
                f"the corrector failed at λ = {z[-1]:g} with steps down to {settings.min_step:g}"
            )


def _finished(
    current: TracedPoint,
    steps: int,
    stop: Callable[[TracedPoint], bool] | None,
    pending: list[float],
    settings: TraceSettings,
    payoff_range: float,
) -> str:
    """Why the trace ends at ``current`` (see :class:`Trace`), or ``""`` to go on."""
    if stop is not None and stop(current):
        return "converged"
    if stop is None and not pending:
        return "targets"
    if current.lam >= lambda_limit(settings, payoff_range):
        return "max_lambda"
    if steps > settings.max_steps:
        return "max_steps"
    return ""


def _next_step(step: float, correction: _Correction, max_accel: float) -> float:
    """Allgower and Georg (1990, §6.1): scale ``h`` so that the corrector's first distance
    and contraction approach their targets, by at most ``max_accel`` up and 2 down."""
    slowdown = max(
        np.sqrt(correction.distance / TARGET_DISTANCE),
        np.sqrt(correction.contraction / TARGET_CONTRACTION),
        1.0 / max_accel,
    )
    return step / min(slowdown, 2.0)


def _crossing(
    equations: LogitEquations, before: TracedPoint, after: TracedPoint, lam: float
) -> TracedPoint:
    share = (lam - before.lam) / (after.lam - before.lam)
    guess = before.beta + share * (after.beta - before.beta)
    beta = correct_at(equations, guess, lam)
    arc = before.arc_length + share * (after.arc_length - before.arc_length)
    return TracedPoint(lam, beta, arc)
