"""The iterative peers: the CFR family run to a NashConv target, and CFR+ against OpenSpiel's.

``seqform-cfr``, ``seqform-cfr+``, ``seqform-dcfr``, ``seqform-mccfr``
    :func:`seqform.iterative.cfr.cfr`, :func:`~seqform.iterative.cfr.cfr_plus`,
    :func:`~seqform.iterative.cfr.dcfr` (α = 1.5, β = 0, γ = 2) and
    :func:`seqform.iterative.mccfr.external_sampling_mccfr` (seed :data:`SEED`), run until
    NashConv of the average strategies is at most the smallest of :data:`TARGETS` or the
    solver time reaches the game's budget (:func:`budget_of`).  The report reads the time
    to reach each target from the run's history of NashConv samples.
``openspiel-cfr+``
    Seconds per CFR+ iteration of seqform, of OpenSpiel's C++ ``pyspiel.CFRPlusSolver``
    (:data:`SPEED_ITERATIONS` iterations each) and of its python ``cfr.CFRPlusSolver``
    (:data:`PYTHON_ITERATIONS`, it is slow), with NashConv after those iterations by
    seqform's certificate and by OpenSpiel's ``exploitability.nash_conv``: the same
    algorithm, so the same numbers are expected.  Set-up (the game, the solvers' tables)
    is not timed.

How the samples are spaced.  :func:`seqform.iterative.run.run_iterations` measures NashConv
every ``every`` iterations, a fixed step.  For about ten samples per decade of iterations
(what a log-log plot and a time-to-reach need) a run is made in phases, each from the
start: ``every = 1`` for 100 iterations, then ``every = 10`` for 1 000, ... while the next
phase would cost at most a tenth of the budget; then a last run with ten times the last
step until the target or the budget.  The runs are deterministic (MCCFR by its seed), so
each phase repeats the previous one's iterations exactly and the samples join into one
history; the repeated work is at most about a tenth of the budget and is not counted.
Each sample's seconds are the solver time of its own run (``Sample.seconds``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from benchmarks.outcome import Outcome

__all__ = [
    "BUDGETS",
    "DEFAULT_BUDGET",
    "ITERATIVE_PEERS",
    "PYTHON_ITERATIONS",
    "SEED",
    "SPEED_ITERATIONS",
    "SPEED_PEER",
    "TARGETS",
    "budget_of",
    "cfr_plus_speed",
    "run_in_phases",
    "run_iterative",
    "timeout_of",
]

ITERATIVE_PEERS: dict[str, str] = {  # peer -> seqform's algorithm name
    "seqform-cfr": "cfr",
    "seqform-cfr+": "cfr+",
    "seqform-dcfr": "dcfr",
    "seqform-mccfr": "mccfr",
}
SPEED_PEER = "openspiel-cfr+"
TARGETS: tuple[float, ...] = (1e-3, 1e-6)  # the NashConv each run's time to reach is reported
SEED = 0  # external-sampling MCCFR's seed
SPEED_ITERATIONS = 100
PYTHON_ITERATIONS = 3

# Solver seconds per run, chosen so that the default benchmark's iterative part stays
# under about six minutes on two cores (CFR and MCCFR spend the whole budget; CFR+ and
# DCFR stop early where they reach 1e-6).
BUDGETS: dict[str, float] = {
    "kuhn": 3.0,
    "kuhn(cards=10)": 3.0,
    "kuhn(cards=100)": 5.0,
    "liars_dice(sides=4)": 8.0,
    "leduc": 12.0,
    "liars_dice(sides=5)": 12.0,
    "liars_dice(sides=6)": 15.0,
}
DEFAULT_BUDGET = 10.0
_FIRST_PHASE = 100  # iterations of the first phase, measured every iteration
_PHASE_SHARE = 0.1  # the phases before the last may cost at most this share of the budget


def budget_of(spec: str, override: float | None = None) -> float:
    """The solver-time budget of an iterative run on ``spec``: ``override`` if given."""
    return override if override is not None else BUDGETS.get(spec, DEFAULT_BUDGET)


def timeout_of(budget: float) -> float:
    """The wall-clock cap of an iterative worker: the budget, its phases, its samples, slack."""
    return 2 * budget + 60.0


def _algorithm(peer: str) -> Callable[..., Any]:
    from seqform.iterative.cfr import cfr, cfr_plus, dcfr
    from seqform.iterative.mccfr import external_sampling_mccfr

    if peer == "seqform-mccfr":
        return lambda game, **options: external_sampling_mccfr(game, seed=SEED, **options)
    return {"seqform-cfr": cfr, "seqform-cfr+": cfr_plus, "seqform-dcfr": dcfr}[peer]


def run_in_phases(solve: Callable[..., Any], budget: float) -> tuple[Any, list[Any]]:
    """Run ``solve`` in phases (see the module docstring); the run the samples end with, and
    all samples.

    ``solve(iterations=..., every=..., target=..., time_limit=...)`` makes one run from the
    start and returns an :class:`~seqform.iterative.run.IterativeResult`.
    """
    target = min(TARGETS) / 2  # the targets are NashConv; Stopping.target is NashConv / 2
    samples: list[Any] = []
    kept: Any = None
    every = 1
    while True:
        result = solve(
            iterations=_FIRST_PHASE * every, every=every, target=target, time_limit=budget
        )
        kept, samples = _joined(kept, samples, result)
        if result.stopped != "iterations":
            return kept, samples
        next_cost = result.seconds / result.iterations * _FIRST_PHASE * every * 10
        if next_cost > _PHASE_SHARE * budget:
            break
        every *= 10
    result = solve(every=every * 10, target=target, time_limit=budget)
    return _joined(kept, samples, result)


def _joined(kept: Any, samples: list[Any], result: Any) -> tuple[Any, list[Any]]:
    """The samples extended by ``result``'s later ones, and the run they end with.  A phase
    restarts from the first iteration, so on a loaded machine it can reach the time limit
    before the previous phase's last iteration: then it adds nothing and the previous run
    stays the result (its final NashConv is the last sample's)."""
    covered = samples[-1].iteration if samples else 0
    if kept is not None and result.iterations <= covered:
        return kept, samples
    return result, samples + [sample for sample in result.history if sample.iteration > covered]


def run_iterative(peer: str, spec: str, budget: float) -> Outcome:
    """Run the iterative ``peer`` on the game named ``spec`` within ``budget`` solver seconds.

    Returns
    -------
    Outcome
        ``seconds`` the solver time of the last run, ``iterations`` its iterations,
        ``exploitability`` its final NashConv, ``value`` the value of its average
        strategies, ``history`` the joined samples, ``stages["build"]`` the time to
        load the game.
    """
    from seqform.certify import certify
    from seqform.io.loader import load_game

    start = time.perf_counter()
    game = load_game(spec)
    built = time.perf_counter() - start
    algorithm = _algorithm(peer)
    result, samples = run_in_phases(lambda **options: algorithm(game, **options), budget)
    value = certify(game, *result.strategies).value
    return Outcome(
        seconds=float(result.seconds),
        value=float(value),
        stages={"build": built},
        iterations=int(result.iterations),
        exploitability=float(result.nash_conv),
        history=tuple((s.iteration, float(s.seconds), float(s.nash_conv)) for s in samples),
        stopped=result.stopped,
        seed=result.seed,
        budget=budget,
    )


def _per_iteration(step: Callable[[], None], iterations: int) -> float:
    start = time.perf_counter()
    for _ in range(iterations):
        step()
    return (time.perf_counter() - start) / iterations


def cfr_plus_speed(
    spec: str,
    openspiel_name: str,
    iterations: int = SPEED_ITERATIONS,
    python_iterations: int = PYTHON_ITERATIONS,
) -> Outcome:
    """CFR+ of seqform beside OpenSpiel's C++ and python solvers on one game.

    seqform and the C++ solver run ``iterations``, the python solver (and seqform again)
    ``python_iterations``.  ``seconds`` is the C++ solver's time; the comparison is in
    ``speed`` (see :class:`~benchmarks.outcome.Outcome`).
    """
    import pyspiel
    from open_spiel.python.algorithms import cfr as openspiel_cfr
    from open_spiel.python.algorithms import exploitability

    from seqform.certify import certify
    from seqform.io.loader import load_game
    from seqform.iterative.cfr import cfr_plus

    game = load_game(spec)
    ours = cfr_plus(game, iterations, every=iterations)
    short = cfr_plus(game, python_iterations, every=python_iterations)
    theirs = pyspiel.load_game(openspiel_name)
    cpp = pyspiel.CFRPlusSolver(theirs)
    cpp_seconds = _per_iteration(cpp.evaluate_and_update_policy, iterations)
    python = openspiel_cfr.CFRPlusSolver(theirs)
    python_seconds = _per_iteration(python.evaluate_and_update_policy, python_iterations)
    speed = {
        "seqform": (iterations, ours.seconds / ours.iterations, ours.nash_conv),
        "openspiel-cpp": (
            iterations,
            cpp_seconds,
            exploitability.nash_conv(theirs, cpp.average_policy()),
        ),
        "seqform-short": (python_iterations, short.seconds / short.iterations, short.nash_conv),
        "openspiel-python": (
            python_iterations,
            python_seconds,
            exploitability.nash_conv(theirs, python.average_policy()),
        ),
    }
    return Outcome(
        seconds=cpp_seconds * iterations,
        value=float(certify(game, *ours.strategies).value),
        iterations=iterations,
        exploitability=float(ours.nash_conv),
        speed={
            name: {
                "iterations": iterations,
                "seconds_per_iteration": float(seconds),
                "nash_conv": float(nash_conv),
            }
            for name, (iterations, seconds, nash_conv) in speed.items()
        },
    )
