"""One result protocol and the pipeline that every LP route shares.

Every analysis ends the same way: an LP gives realization plans, the plans become
behavioural strategies, and the strategies are certified by best response, independently
of the LP (:mod:`seqform.certify`).  This module holds that common part once:

* :data:`Value` — a value is a ``float`` from a float LP, or a ``Fraction`` when it is
  proven in exact arithmetic (:mod:`seqform.routes.exact`, :mod:`seqform.routes.refine`);
* :class:`Timings` and :class:`PhaseClock` — wall-clock seconds of named phases;
* :class:`Result` — what every solution exposes: ``value``, ``strategies``,
  ``certificate``, ``timings``, ``stats`` (the extras of each analysis are fields beside
  them, never a conversion into another type);
* :func:`lp_stages` — LP → strategies → certificate, timed, with a solver stopped at its
  limit measured by best response.

The build stage (sequence form, normal form or structured LP) differs between routes and
is timed by the caller on the same clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from seqform.certify import Certificate, is_certified
from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.lp.solvers import SolverLimitError, SolverStats

__all__ = [
    "STAGES",
    "Certified",
    "ExactOutcome",
    "PhaseClock",
    "Result",
    "Timings",
    "Value",
    "lp_stages",
]

Value = float | Fraction
"""A value to player 0: a ``Fraction`` when proven exactly, else a ``float``."""

STAGES = ("sequence_form", "lp", "behaviour", "certificate")
"""The stages of every pipeline, the keys of the ``"timings"`` object of the JSON schemas."""

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)


@dataclass(frozen=True)
class Phase:
    """One timed phase: its name, the stage of :data:`STAGES` it belongs to, its seconds."""

    name: str
    stage: str
    seconds: float


@dataclass(frozen=True)
class Timings:
    """Wall-clock seconds of the named phases of one solve, in the order they ran.

    A stage of :data:`STAGES` or a phase is read by name, as an attribute (``timings.lp``)
    or an item (``timings["lp"]``); a stage is the sum of its phases (the exact route's
    ``behaviour`` is ``rounding + basis``, the normal form's ``sequence_form`` includes
    building the matrix) and 0.0 when none ran.
    """

    phases: tuple[Phase, ...] = ()

    def __getitem__(self, name: str) -> float:
        if name in STAGES:
            return sum((p.seconds for p in self.phases if p.stage == name), 0.0)
        for phase in self.phases:
            if phase.name == name:
                return phase.seconds
        raise KeyError(name)

    def __getattr__(self, name: str) -> float:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"no phase {name!r} in these timings") from None

    @property
    def total(self) -> float:
        return sum((phase.seconds for phase in self.phases), 0.0)

    def stages(self) -> dict[str, float]:
        """Seconds per stage of :data:`STAGES` (0.0 for a stage that did not run)."""
        return {stage: self[stage] for stage in STAGES}

    def as_dict(self) -> dict[str, float]:
        """Seconds per phase, by name, in the order they ran."""
        return {phase.name: phase.seconds for phase in self.phases}


@dataclass
class PhaseClock:
    """Times the phases of one solve and says on ``progress`` as each one starts."""

    progress: Callable[[str], None] | None = None
    _phases: list[Phase] = field(default_factory=list)

    @contextmanager
    def phase(
        self, name: str, message: str | None = None, *, stage: str | None = None
    ) -> Iterator[None]:
        """Time the block as phase ``name`` (of stage ``stage``, by default ``name``)."""
        if message is not None and self.progress is not None:
            self.progress(message)
        start = time.perf_counter()
        try:
            yield
        finally:
            seconds = time.perf_counter() - start
            self._phases.append(Phase(name, stage or name, seconds))

    def say(self, message: str) -> None:
        """Tell ``progress`` something between phases (a second solve, say)."""
        if self.progress is not None:
            self.progress(message)

    def timings(self) -> Timings:
        return Timings(tuple(self._phases))


class Result(Protocol[S_co]):
    """What every solution exposes, whatever route found it.

    value : the value to player 0 (:data:`Value`)
    strategies : both players' behavioural strategies (float or exact)
    certificate : expected value, best responses, NashConv and exploitability of
        ``strategies``, from the game (the tree, or sorted-card sums for one-card poker
        games), not from the LP
    timings : seconds per phase
    stats : what the LP solver did
    """

    @property
    def value(self) -> Value: ...

    @property
    def strategies(self) -> tuple[S_co, S_co]: ...

    @property
    def certificate(self) -> Certificate: ...

    @property
    def timings(self) -> Timings: ...

    @property
    def stats(self) -> SolverStats: ...


class _PlanSolution(Protocol):
    """What :func:`lp_stages` needs of an LP optimum (float min-max, exact or structured)."""

    @property
    def value(self) -> float: ...

    @property
    def x(self) -> np.ndarray: ...

    @property
    def y(self) -> np.ndarray: ...

    @property
    def stats(self) -> SolverStats: ...


@dataclass(frozen=True)
class Certified(Generic[S]):
    """The output of :func:`lp_stages`, and the common part of the results built on it.

    value : the LP optimum, the game's value to player 0
    plans : the LP's realization plans ``(x, y)``
    strategies : both players' strategies of the plans
    certificate : expected value, best responses, NashConv and exploitability of
        ``strategies``
    stats : what the LP solver did
    timings : seconds per phase
    """

    value: float
    plans: tuple[np.ndarray, np.ndarray]
    strategies: tuple[S, S]
    certificate: Certificate
    stats: SolverStats
    timings: Timings

    @property
    def nash_conv(self) -> float:
        """NashConv of the behavioural strategies (the sum of the best-response gains)."""
        return float(self.certificate.nash_conv)

    @property
    def exploitability(self) -> float:
        """NashConv / 2 of the behavioural strategies, measured by best response."""
        return float(self.certificate.exploitability)

    def parts(self) -> dict[str, Any]:
        """The fields, by name: ``Solution(game=..., form=..., **certified.parts())``."""
        return {f.name: getattr(self, f.name) for f in fields(Certified)}


class ExactOutcome:
    """What every exact result (:class:`~seqform.routes.exact.ExactSolution` on the tree,
    :class:`~seqform.routes.structured_exact.StructuredExactSolution` without it) derives
    from its proven ``bounds``, exact ``strategies`` and exact ``certificate``."""

    bounds: Any
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    certificate: Certificate

    @property
    def certified(self) -> bool:
        """Whether the value is proven: the exact bounds meet."""
        return bool(self.bounds.lower == self.bounds.upper)

    @property
    def nash_conv(self) -> float:
        """NashConv of ``strategies`` (exact in ``certificate.nash_conv``)."""
        return float(self.certificate.nash_conv)

    @property
    def exploitability(self) -> float:
        """NashConv / 2 of ``strategies`` (exact in ``certificate.exploitability``)."""
        return float(self.certificate.exploitability)

    @property
    def plans(self) -> tuple[np.ndarray, np.ndarray]:
        """The exact realization plans of ``strategies`` (object arrays of Fractions)."""
        return plan_from_behaviour(self.strategies[0]), plan_from_behaviour(self.strategies[1])


def lp_stages(
    clock: PhaseClock,
    solve_lp: Callable[[], _PlanSolution],
    strategies: Callable[[np.ndarray, np.ndarray], tuple[S, S]],
    certify: Callable[[tuple[S, S]], Certificate],
    *,
    lp_message: str | None = None,
    limit_point: str = "the best point found",
    repair: Callable[[Any], Iterable[_PlanSolution]] | None = None,
) -> Certified[S]:
    """LP → strategies → certificate, timed as the phases ``lp``, ``behaviour`` and
    ``certificate`` of ``clock`` (the result's ``timings`` are all of the clock's phases).

    ``strategies`` maps the plans ``(x, y)`` to both players' strategies and ``certify``
    measures them.  A solver stopped at its limit raises
    :class:`~seqform.lp.solvers.SolverLimitError` again, its message extended by the
    exploitability of its point (``limit_point`` names that point) when it had one.

    ``repair``, when given, is offered an LP answer whose certificate fails
    (:func:`~seqform.certify.is_certified`): the points it offers (an interior point
    polished, :func:`seqform.lp.polish.polished_points`) are certified in turn, timed as
    the phase ``repair``, and the first certified is kept; otherwise the first answer
    stands, for the caller to judge.
    """
    with clock.phase("lp", lp_message):
        try:
            solution = solve_lp()
        except SolverLimitError as exc:
            raise _measured(exc, strategies, certify, limit_point) from exc
    with clock.phase("behaviour", "behavioural strategies and certificate"):
        profile = strategies(solution.x, solution.y)
    with clock.phase("certificate"):
        certificate = certify(profile)
    if repair is not None and not is_certified(certificate):
        repaired = _repaired(clock, solution, certificate, repair, strategies, certify)
        if repaired is not None:
            solution, profile, certificate = repaired
    return Certified(
        value=solution.value,
        plans=(solution.x, solution.y),
        strategies=profile,
        certificate=certificate,
        stats=solution.stats,
        timings=clock.timings(),
    )


def _repaired(
    clock: PhaseClock,
    solution: _PlanSolution,
    certificate: Certificate,
    repair: Callable[[Any], Iterable[_PlanSolution]],
    strategies: Callable[[np.ndarray, np.ndarray], tuple[S, S]],
    certify: Callable[[tuple[S, S]], Certificate],
) -> tuple[_PlanSolution, tuple[S, S], Certificate] | None:
    """The first point ``repair`` offers that is certified, with its strategies and
    certificate; None when none is."""
    clock.say(
        f"exploitability {float(certificate.exploitability):.3g} above the tolerance; "
        "polishing the LP's answer on its active set"
    )
    with clock.phase("repair", stage="lp"):
        for repaired in repair(solution):
            profile = strategies(repaired.x, repaired.y)
            measured = certify(profile)
            if is_certified(measured):
                return repaired, profile, measured
    return None


def _measured(
    error: SolverLimitError,
    strategies: Callable[[np.ndarray, np.ndarray], Any],
    certify: Callable[[Any], Certificate],
    point: str,
) -> SolverLimitError:
    """The same limit error, its message extended by the exploitability of its point."""
    if error.plans is None:
        return SolverLimitError(f"{error}; the solver offered no point to measure", None)
    certificate = certify(strategies(*error.plans))
    return SolverLimitError(
        f"{error}; {point} has exploitability (NashConv / 2) "
        f"{float(certificate.exploitability):.3g}, by best response",
        error.plans,
    )
