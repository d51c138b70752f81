"""The loop every iterative solver shares: iterate, measure NashConv, stop, report.

A solver supplies an object with ``step(iteration)`` (one iteration, numbered from 1) and
``average()`` (every player's average strategy so far).  :func:`run_iterations` calls
``step`` until a stopping rule fires and, every ``every`` iterations and after the last
one, measures NashConv of the average strategies with :func:`seqform.certify.certify`
for two-player zero-sum games and :func:`seqform.certify.certify_profile` for others
(best responses on the tree; it is 0 exactly at a Nash equilibrium).

Clocks: ``seconds`` counts only the time spent in ``step``; measuring NashConv is not
charged to the solver.  The time limit is checked on that clock after every iteration;
the target exploitability (NashConv / 2) only when NashConv is measured.

Measuring towards a target.  With a target, once two measurements of the average show
NashConv falling, the loop also measures once where the line through them on log-log axes
(NashConv ∝ t^k, the power law CFR's averages follow) meets the target, when that comes
before the next multiple of ``every`` (:func:`trend_check`): a run stops near the iteration
its target is reached instead of up to ``every`` iterations later.  On the full-range turn
of docs/spots.md (DCFR, every 100) the target of 0.1 % of the pot is met at iteration
343, which the regular checks see only at 400.  A forecast that misses is followed by one
more from the missed measurement, so at most two such checks are made between two
regular ones: a wrong forecast costs a measurement or two.

Ctrl-C: inside :func:`~seqform.base.interrupt.stop_on_interrupt`, while
:func:`run_iterations` iterates (and only then: its iterations are
:func:`~seqform.base.interrupt.interrupt_boundaries`), the first SIGINT does not raise in
the middle of an iteration; the loop finishes the iteration, measures, and returns with
``stopped == "interrupted"`` and ``interrupted_by`` naming the signal.  A second SIGINT
raises KeyboardInterrupt at once.  Before the iterations and after them (building the game,
the LP reference of :func:`seqform.questions.iterate.iterate`) Python's own handler is in
place, so one Ctrl-C raises KeyboardInterrupt there (and a solver running in
:func:`seqform.base.interrupt.run_interruptibly` stops within about a second).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from seqform.base.interrupt import interrupt_boundaries
from seqform.base.progress import Step, report
from seqform.certify import CertificateOverflowError, certify, certify_profile
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.requirements import is_two_player_zero_sum, require_finite_payoffs

__all__ = [
    "TARGET_RESOLUTION",
    "IterativeResult",
    "LastIterateStepper",
    "Sample",
    "Stepper",
    "Stopping",
    "require_reachable_target",
    "run_iterations",
    "trend_check",
]

DEFAULT_EVERY = 100

TREND_MARGIN = 1.02
"""How far past the forecast crossing :func:`trend_check` measures: the exponent of the
averages' power law shrinks as a run goes on (DCFR on the full-range turn: -1.71, -1.62,
-1.57 over iterations 100-200, 200-300, 300-400), so the line through the last two
measurements reaches the target a little early.  There the forecast from 200 and 300 is
339, where the exploitability was 1.4 % above the target; it was below it from 343 on,
and 1.02 times the forecast is 346 (1.05 measured at 356, ten iterations later).  A
forecast that still misses is followed by one more, from the missed measurement."""


@dataclass(frozen=True)
class Sample:
    """NashConv of the average strategies after ``iteration`` iterations.

    seconds : solver time spent in the first ``iteration`` iterations
    nash_conv : the sum of the players' best-response gains (twice the exploitability)
    last_nash_conv : NashConv of the last iterate (the current behaviour) when the run
        measures it (``last_iterate=True``), else None
    """

    iteration: int
    seconds: float
    nash_conv: float
    last_nash_conv: float | None = None


TARGET_RESOLUTION = 1e-14
"""The smallest exploitability target, as a fraction of the game's payoff range, that a
run can meet: NashConv is computed in floats, whose round-off in a best response is of
order 1e-16 of the payoffs times the terms summed, so a smaller target is never measured
and a run with no other limit would not end (``--target-exploitability 1e-300`` ran until
it was killed)."""


def require_reachable_target(stopping: Stopping, payoff_range: float, name: str) -> None:
    """Refuse (``ValueError``) a ``stopping.target`` below :data:`TARGET_RESOLUTION` of
    ``payoff_range``, naming the game ``name`` and the smallest target it can meet."""
    floor = TARGET_RESOLUTION * payoff_range
    if stopping.target is not None and stopping.target < floor:
        raise ValueError(
            f"{name}: target_exploitability {stopping.target:g} can never be measured: float "
            f"NashConv resolves {TARGET_RESOLUTION:g} of the payoff range {payoff_range:g}, "
            f"so the smallest target is {floor:g}"
        )


@dataclass(frozen=True)
class Stopping:
    """When to stop: whichever comes first.

    iterations : at most this many iterations (None: no limit)
    target : stop once a measured exploitability, NashConv / 2, is at most this (for more
        than two players, or general-sum payoffs, where exploitability is not defined:
        once NashConv is at most twice this)
    time_limit : stop once the solver time reaches this many seconds
    every : measure NashConv every this many iterations (and after the last one; with a
        target also once where the trend meets it, :func:`trend_check`)
    """

    iterations: int | None = None
    target: float | None = None
    time_limit: float | None = None
    every: int = DEFAULT_EVERY

    def __post_init__(self) -> None:
        if self.iterations is not None and not _positive_int(self.iterations):
            raise ValueError(f"iterations must be a positive integer, not {self.iterations!r}")
        if not _positive_int(self.every):
            raise ValueError(f"every must be a positive integer, not {self.every!r}")
        for name in ("target", "time_limit"):
            number = getattr(self, name)
            if number is not None and not (_real(number) and number > 0):
                raise ValueError(f"{name} must be a positive number, not {number!r}")
        if self.iterations is None and self.target is None and self.time_limit is None:
            raise ValueError("give iterations, a target exploitability or a time limit")


def _positive_int(number: object) -> bool:
    return isinstance(number, int) and not isinstance(number, bool) and number > 0


def _real(number: object) -> bool:
    return (
        isinstance(number, int | float) and not isinstance(number, bool) and math.isfinite(number)
    )


@dataclass(frozen=True)
class IterativeResult:
    """What an iterative solver returns.

    algorithm : its name, e.g. ``"cfr+"``
    strategies : the average behavioural strategies of players 0, 1, ... (one per player)
    iterations : the number of iterations run
    seconds : solver time, without the NashConv measurements
    history : NashConv samples, every ``every`` iterations, at a :func:`trend_check` and
        after the last (a sample
        that could not be measured holds ``nan``, and is the last)
    stopped : why it stopped: ``"iterations"``, ``"target"``, ``"time limit"``,
        ``"callback"``, ``"interrupted"`` (Ctrl-C, see
        :func:`~seqform.base.interrupt.stop_on_interrupt`) or
        ``"measurement failed"`` (NashConv left the float range: ``failure`` says why;
        without a measurement no target can be reached, so the run stops there)
    seed : the random seed (sampling solvers), else None
    interrupted_by : when ``stopped == "interrupted"``, the signal's name: ``"SIGINT"``
        (Ctrl-C), or ``"SIGTERM"``, ``"SIGHUP"`` turned into it; else None
    last_strategies : the last iterate (current behaviours) when the run measured it,
        else None
    """

    algorithm: str
    strategies: tuple[BehaviouralStrategy, ...]
    iterations: int
    seconds: float
    history: tuple[Sample, ...]
    stopped: str
    seed: int | None = None
    last_strategies: tuple[BehaviouralStrategy, ...] | None = None
    failure: str | None = None
    interrupted_by: str | None = None

    @property
    def nash_conv(self) -> float:
        """NashConv of the returned strategies (the last sample; ``nan`` when the
        measurement failed, ``failure``)."""
        return self.history[-1].nash_conv

    @property
    def last_nash_conv(self) -> float | None:
        """NashConv of the last iterate, when measured (the last sample)."""
        return self.history[-1].last_nash_conv


class Stepper(Protocol):
    def step(self, iteration: int) -> None: ...

    def average(self) -> tuple[BehaviouralStrategy, ...]: ...


class LastIterateStepper(Stepper, Protocol):
    def current(self) -> tuple[BehaviouralStrategy, ...]: ...


OnSample = Callable[[Sample], bool | None]
"""Called with each sample; returning True stops the solver (e.g. to print progress)."""


def _rule_fired(
    stopping: Stopping, seconds: float, sample: Sample | None, interrupted: bool
) -> str | None:
    """The rule that stops the run after an iteration (``sample``: its measurement, if it
    was measured; ``interrupted``: a Ctrl-C came), or None."""
    if (
        sample is not None
        and stopping.target is not None
        and sample.nash_conv / 2 <= stopping.target
    ):
        return "target"
    if stopping.time_limit is not None and seconds >= stopping.time_limit:
        return "time limit"
    if interrupted:
        return "interrupted"
    return None


def trend_check(stopping: Stopping, history: Sequence[Sample]) -> int | None:
    """The iteration at which the trend of the last two measurements meets the target,
    when it comes before the next regular measurement; else None.

    With the last two samples ``(t1, e1)`` and ``(t2, e2)`` of the average's
    exploitability ``e`` (NashConv / 2), falling and still above the target ``ε``, the
    power law through them, ``e = e2 (t / t2)^k`` with ``k = log(e2/e1) / log(t2/t1)``,
    meets ``ε`` at ``t2 (ε / e2)^(1/k)``; the check is at :data:`TREND_MARGIN` times that,
    rounded up.  After a regular measurement (``t2`` a multiple of ``every``), and once
    more after a forecast that missed (``t1`` regular, ``t2`` not), from the two nearer
    samples: at most two checks between regular measurements.
    """
    if stopping.target is None or len(history) < 2:
        return None
    (t1, nash_1), (t2, nash_2) = ((s.iteration, s.nash_conv) for s in history[-2:])
    e1, e2, target = nash_1 / 2, nash_2 / 2, stopping.target
    every = stopping.every
    if t1 % every and t2 % every:  # two forecasts since the last regular measurement
        return None
    if not (math.isfinite(e1) and target < e2 < e1) or t1 >= t2:
        return None
    slope = math.log(e2 / e1) / math.log(t2 / t1)
    # in logarithms: on a flat trend the forecast itself is beyond any float
    log_forecast = math.log(TREND_MARGIN * t2) + math.log(target / e2) / slope
    regular = (t2 // every + 1) * every
    if not log_forecast < math.log(regular - 1):
        return None
    return max(t2 + 1, math.ceil(math.exp(log_forecast)))


def _nash_conv(
    game: Game, two_player_zero_sum: bool, strategies: tuple[BehaviouralStrategy, ...]
) -> float:
    if two_player_zero_sum:
        return float(certify(game, strategies[0], strategies[1]).nash_conv)
    return float(certify_profile(game, strategies).nash_conv)


def _tree_nash_conv(game: Game | None) -> Callable[[tuple[BehaviouralStrategy, ...]], float]:
    """NashConv of a profile of ``game``'s tree (the two-player certificate where it applies)."""
    assert game is not None, "run_iterations needs the game tree or a nash_conv measure"
    two_player_zero_sum = is_two_player_zero_sum(game)
    return lambda strategies: _nash_conv(game, two_player_zero_sum, strategies)


def _current(stepper: Stepper) -> tuple[BehaviouralStrategy, ...]:
    """The last iterate of a :class:`LastIterateStepper`."""
    return stepper.current()  # type: ignore[attr-defined]


def run_iterations(
    game: Game | None,
    stepper: Stepper,
    stopping: Stopping,
    algorithm: str,
    on_sample: OnSample | None = None,
    seed: int | None = None,
    *,
    last_iterate: bool = False,
    nash_conv: Callable[[tuple[BehaviouralStrategy, ...]], float] | None = None,
    average_nash_conv: Callable[[], float] | None = None,
) -> IterativeResult:
    """Step until a rule of ``stopping`` fires or ``on_sample`` returns True; with
    ``last_iterate``, also measure a :class:`LastIterateStepper`'s ``current()``.  After a
    Ctrl-C (see :func:`~seqform.base.interrupt.stop_on_interrupt`) ``stopped`` is
    ``"interrupted"``, whatever else fired in the same iteration, so that the caller skips
    what it would do next.
    ``nash_conv`` measures a profile where ``game`` is not a tree (the structured route's
    certificate, :mod:`seqform.structured.vector_cfr`); by default the tree's.
    ``average_nash_conv`` measures the stepper's average as it stands, from the stepper's
    own arrays (a compiled vector CFR run, :func:`seqform.structured.responses.certify_run`): the
    average's strategies are then built once, at the end, not at every measurement
    (``nash_conv`` still measures a last iterate).
    A tree with a payoff beyond the float range is refused before the first iteration
    (:func:`~seqform.game.requirements.require_finite_payoffs`: ``InvalidGameError``).

    Length: one loop with its stopping rules, measurements and Ctrl-C boundary, read as one.
    """
    if game is not None:  # inf payoffs would be iterated as inf and nan to the certificate
        require_finite_payoffs(game, algorithm)
    measured = nash_conv if nash_conv is not None else _tree_nash_conv(game)
    history: list[Sample] = []
    seconds = 0.0
    iteration = 0
    stopped = "iterations"

    failure: list[str] = []
    averages: list[tuple[int, tuple[BehaviouralStrategy, ...]]] = []  # the last measured

    def measure() -> Sample:
        try:
            last = measured(_current(stepper)) if last_iterate else None
            if average_nash_conv is not None:
                average = average_nash_conv()
            else:
                averages[:] = [(iteration, stepper.average())]
                average = measured(averages[0][1])
        except CertificateOverflowError as exc:
            failure.append(str(exc))
            last, average = (math.nan if last_iterate else None), math.nan
        sample = Sample(iteration, seconds, average, last)
        history.append(sample)
        return sample

    forecast: int | None = None
    with interrupt_boundaries() as interrupted:
        while stopping.iterations is None or iteration < stopping.iterations:
            start = time.perf_counter()
            iteration += 1
            stepper.step(iteration)
            seconds += time.perf_counter() - start
            report(Step(f"{algorithm} iterations", iteration, stopping.iterations))
            sample = None
            due = iteration % stopping.every == 0 or iteration == forecast
            if due or iteration == stopping.iterations:
                sample = measure()
                forecast = trend_check(stopping, history)
                if on_sample is not None and on_sample(sample):
                    stopped = "callback"
                    break
            fired = _rule_fired(stopping, seconds, sample, interrupted() is not None)
            if fired is None and failure and iteration != stopping.iterations:
                fired = "measurement failed"
            if fired is not None:
                stopped = fired
                break
        if not history or history[-1].iteration != iteration:
            sample = measure()
            if on_sample is not None:
                on_sample(sample)
    received = interrupted()
    if received is not None:  # a Ctrl-C in the last iteration or measurement is not lost
        stopped = "interrupted"
    kept = averages[0][1] if averages and averages[0][0] == iteration else None
    return IterativeResult(
        algorithm=algorithm,
        strategies=kept if kept is not None else stepper.average(),  # one pass, not two
        iterations=iteration,
        seconds=seconds,
        history=tuple(history),
        stopped=stopped,
        seed=seed,
        last_strategies=_current(stepper) if last_iterate else None,
        failure=failure[0] if failure else None,
        interrupted_by=received,
    )
