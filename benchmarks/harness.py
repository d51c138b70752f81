"""Run the peers on the games, each measurement in a worker process under a time and memory cap.

A measurement is one ``python -m benchmarks.worker`` process (see :mod:`benchmarks.worker`).
A peer that cannot take a game at all (:func:`benchmarks.peers.not_applicable`: the
sparsified peer on a game that is not a showdown game, a tree-building peer on a game whose
tree is too large to build) is recorded as ``not applicable`` and no worker is started.
The parent starts the clock when the worker touches its ready file (after imports and the
warm-up) and kills the worker's process group when the time limit passes; the worker caps
its own address space.  A peer that fails is recorded (``timeout``, ``out of memory``,
``error``, ``unavailable``) and the run goes on:

* a failed repetition ends that peer's repetitions on that game;
* a timeout or an out-of-memory also skips the peer on the later games of the same family
  (``liars_dice(sides=6)`` after ``liars_dice(sides=5)``), so list games in increasing size,
  as the default list is.

Repetitions are interleaved (repetition 1 of every peer, then repetition 2, ...) so that a
slow drift of the machine touches every peer alike.  The iterative peers
(:mod:`benchmarks.convergence`) run once per game, on the games given as ``iterative_games``
only, with a time limit that follows their budget; their value agrees with the LP's when
it is within their NashConv of it (a profile's value is within max(gains) of the game's).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.convergence import ITERATIVE_PEERS, SPEED_PEER, budget_of
from benchmarks.convergence import timeout_of as iterative_timeout
from benchmarks.machine import Machine
from benchmarks.outcome import Outcome
from benchmarks.peers import SPARSIFIED, Sizes, not_applicable

__all__ = [
    "ITERATIVE",
    "NOT_APPLICABLE",
    "VALUE_TOLERANCE",
    "BenchmarkRun",
    "GameResult",
    "Limits",
    "Measurement",
    "PeerResult",
    "Settings",
    "run_benchmarks",
    "run_worker",
]

VALUE_TOLERANCE = 1e-6  # two peers agree when their values differ by at most this
NOT_APPLICABLE = "not applicable"  # the status of a peer that cannot take a game at all
ITERATIVE: frozenset[str] = frozenset({*ITERATIVE_PEERS, SPEED_PEER})  # run once, own games

_REPOSITORY = Path(__file__).resolve().parent.parent
_POLL_SECONDS = 0.01
_STDERR_TAIL = 4000  # characters of a dead worker's stderr kept for diagnosis
_OUT_OF_MEMORY_SIGNS = (
    "MemoryError",
    "bad_alloc",
    "Cannot allocate memory",
    "out of memory",
    "Unable to allocate",
)


@dataclass(frozen=True)
class Limits:
    """The caps on one measurement.

    timeout : seconds of wall-clock time from the ready file to the end
    gambit_timeout : the same for the ``gambit`` peer
    memory_bytes : the address-space cap (``RLIMIT_AS``) of the worker process
    startup : seconds the worker may take to import its libraries and warm up
    sparsified_timeout : the time limit of the ``seqform-sparsified`` peer, whose largest
        game (10^6 sequences per player) takes about a minute
    iterative_budget : the solver-time budget of every iterative run (default: the
        game's, :func:`benchmarks.convergence.budget_of`); their time limit follows it
    """

    timeout: float
    gambit_timeout: float
    memory_bytes: int
    startup: float = 120.0
    sparsified_timeout: float = 300.0
    iterative_budget: float | None = None

    def budget_of(self, game: str) -> float:
        """The solver-time budget of an iterative peer on ``game``."""
        return budget_of(game, self.iterative_budget)

    def timeout_of(self, peer: str, game: str = "") -> float:
        if peer in ITERATIVE_PEERS:
            return iterative_timeout(self.budget_of(game))
        if peer == "gambit":
            return self.gambit_timeout
        return self.sparsified_timeout if peer == SPARSIFIED else self.timeout


@dataclass(frozen=True)
class Measurement:
    """One worker process: its status and, if it finished, what it measured.

    status : ``ok``, ``timeout``, ``out of memory``, ``error``, ``unavailable``,
        ``skipped`` or ``not applicable`` (the last two without a worker)
    detail : why it failed, in one line ("" when ok)
    elapsed : seconds from the ready file to the worker's end, as the parent saw them
    outcome : the peer's :class:`~benchmarks.peers.Outcome` when ``status == "ok"``
    sizes : the game's :class:`~benchmarks.peers.Sizes`, from the ``sizes`` worker
    peak_rss_mb, baseline_rss_mb : see :mod:`benchmarks.worker`
    """

    status: str
    detail: str = ""
    elapsed: float | None = None
    outcome: Outcome | None = None
    sizes: Sizes | None = None
    peak_rss_mb: float | None = None
    baseline_rss_mb: float | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Measurement:
        """Rebuild a measurement written by :func:`dataclasses.asdict`."""
        fields = dict(data)
        outcome, sizes = fields.pop("outcome", None), fields.pop("sizes", None)
        return cls(
            outcome=Outcome(**outcome) if outcome is not None else None,
            sizes=Sizes.from_dict(sizes) if sizes is not None else None,
            **fields,
        )


@dataclass(frozen=True)
class PeerResult:
    """All repetitions of one peer on one game."""

    peer: str
    measurements: tuple[Measurement, ...]
    timeout: float

    @property
    def status(self) -> str:
        """``ok`` if every repetition succeeded, else the first failure's status."""
        for measurement in self.measurements:
            if not measurement.ok:
                return measurement.status
        return "ok" if self.measurements else "skipped"

    @property
    def failure(self) -> Measurement | None:
        return next((m for m in self.measurements if not m.ok), None)

    @property
    def outcomes(self) -> list[Outcome]:
        return [m.outcome for m in self.measurements if m.ok and m.outcome is not None]

    @property
    def seconds(self) -> list[float]:
        return [outcome.seconds for outcome in self.outcomes]

    @property
    def median(self) -> float | None:
        """Median time of the repetitions, if all succeeded."""
        return statistics.median(self.seconds) if self.status == "ok" else None

    @property
    def solver_median(self) -> float | None:
        times = [o.solver_seconds for o in self.outcomes if o.solver_seconds is not None]
        return statistics.median(times) if times and self.status == "ok" else None

    @property
    def convert_median(self) -> float | None:
        times = [o.convert_seconds for o in self.outcomes if o.convert_seconds is not None]
        return statistics.median(times) if times and self.status == "ok" else None

    @property
    def outside_solver_median(self) -> float | None:
        """Median over the repetitions of the time outside the LP solver, where it is known."""
        times = [
            o.seconds - o.solver_seconds for o in self.outcomes if o.solver_seconds is not None
        ]
        return statistics.median(times) if times and self.status == "ok" else None

    @property
    def peak_rss_mb(self) -> float | None:
        peaks = [m.peak_rss_mb for m in self.measurements if m.peak_rss_mb is not None]
        return max(peaks) if peaks else None

    @property
    def exploitability(self) -> float | None:
        """The largest exploitability of the repetitions' strategies, where the peer gives it."""
        measured = [o.exploitability for o in self.outcomes if o.exploitability is not None]
        return max(measured) if measured else None

    @property
    def value(self) -> float | None:
        """The value of the first successful repetition."""
        outcomes = self.outcomes
        return outcomes[0].value if outcomes else None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PeerResult:
        """Rebuild a peer's results written by :func:`dataclasses.asdict`."""
        return cls(
            peer=data["peer"],
            measurements=tuple(Measurement.from_dict(m) for m in data["measurements"]),
            timeout=data["timeout"],
        )


@dataclass(frozen=True)
class GameResult:
    """Every peer on one game, with the game's size."""

    game: str
    sizes: Sizes | None
    sizes_detail: str
    peers: tuple[PeerResult, ...]

    def peer(self, name: str) -> PeerResult | None:
        return next((result for result in self.peers if result.peer == name), None)

    @property
    def reference(self) -> PeerResult | None:
        """The peer whose value the others are compared with.

        ``seqform-highs`` if it solved the game, else the first LP peer that did, else the
        first iterative peer that did.
        """
        ordered = sorted(
            self.peers,
            key=lambda result: (result.peer in ITERATIVE, result.peer != "seqform-highs"),
        )
        return next((result for result in ordered if result.value is not None), None)

    def difference(self, name: str) -> float | None:
        """``|value of name - reference value|``, the largest over its repetitions."""
        reference, result = self.reference, self.peer(name)
        if reference is None or reference.value is None or result is None:
            return None
        values = [outcome.value for outcome in result.outcomes]
        return max(abs(value - reference.value) for value in values) if values else None

    def tolerance(self, name: str) -> float:
        """How far ``name``'s value may be from the reference's: :data:`VALUE_TOLERANCE`,
        plus the peer's NashConv for an iterative peer (its strategies' value is within
        NashConv of the game's value)."""
        result = self.peer(name)
        if name not in ITERATIVE or result is None or result.exploitability is None:
            return VALUE_TOLERANCE
        return VALUE_TOLERANCE + result.exploitability

    @property
    def disagreeing(self) -> list[str]:
        """Peers whose value differs from the reference by more than their tolerance."""
        return [
            result.peer
            for result in self.peers
            if (difference := self.difference(result.peer)) is not None
            and difference > self.tolerance(result.peer)
        ]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        """Rebuild a game's results written by :func:`dataclasses.asdict`."""
        sizes = data.get("sizes")
        return cls(
            game=data["game"],
            sizes=Sizes.from_dict(sizes) if sizes is not None else None,
            sizes_detail=data.get("sizes_detail", ""),
            peers=tuple(PeerResult.from_dict(p) for p in data["peers"]),
        )


@dataclass(frozen=True)
class Settings:
    """How the run was made, as the command line set it."""

    games: tuple[str, ...]
    peers: tuple[str, ...]
    repeat: int
    timeout: float
    gambit_timeout: float
    memory_gb: float
    warmup: bool
    sparsified_timeout: float = 300.0  # absent from runs made before the sparsified peer
    iterative_games: tuple[str, ...] = ()  # absent from runs made before the iterative peers
    iterative_budget: float | None = None


@dataclass(frozen=True)
class BenchmarkRun:
    """A whole run: where, when, how, and the results per game.

    load_at_start, load_at_end : the system's load averages over 1, 5 and 15 minutes
        (:func:`os.getloadavg`); other work on the machine slows every peer
    """

    machine: Machine
    settings: Settings
    started: str
    finished: str
    games: tuple[GameResult, ...] = field(default_factory=tuple)
    load_at_start: tuple[float, ...] = ()
    load_at_end: tuple[float, ...] = ()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BenchmarkRun:
        """Rebuild a run from its ``results.json``."""
        settings = dict(data["settings"])
        settings["games"] = tuple(settings["games"])
        settings["peers"] = tuple(settings["peers"])
        settings["iterative_games"] = tuple(settings.get("iterative_games", ()))
        return cls(
            machine=Machine.from_dict(data["machine"]),
            settings=Settings(**settings),
            started=data["started"],
            finished=data["finished"],
            games=tuple(GameResult.from_dict(g) for g in data["games"]),
            load_at_start=tuple(data.get("load_at_start", ())),
            load_at_end=tuple(data.get("load_at_end", ())),
        )


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _classify_death(returncode: int, stderr: str, memory_bytes: int) -> Measurement:
    """A worker that ended without its report: out of memory, or an error."""
    cap = f" (cap {memory_bytes / 2**30:.3g} GiB)" if memory_bytes else ""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    last = lines[-1].strip() if lines else ""
    if any(sign in stderr for sign in _OUT_OF_MEMORY_SIGNS):
        return Measurement(status="out of memory", detail=f"{last}{cap}")
    if returncode == -signal.SIGKILL:
        # The parent kills only at the time limit, and says so; this was the system.
        return Measurement(status="out of memory", detail=f"killed by the system{cap}")
    how = f"killed by {_signal_name(-returncode)}" if returncode < 0 else f"exit {returncode}"
    return Measurement(status="error", detail=f"{how}: {last}" if last else how)


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def run_worker(
    peer: str, game: str, limits: Limits, *, warmup: bool = True, timeout: float | None = None
) -> Measurement:
    """Run one worker process and wait for it, within the limits.

    Parameters
    ----------
    peer
        A peer of :data:`benchmarks.peers.PEERS`, or ``"sizes"``.
    game
        A seqform game name.
    limits
        The caps; ``timeout`` overrides the peer's time limit.

    Returns
    -------
    Measurement
        What the worker reported, or how it failed: ``timeout`` when the parent killed it
        at the time limit, ``out of memory`` or ``error`` when it died on its own.
    """
    time_limit = limits.timeout_of(peer, game) if timeout is None else timeout
    with tempfile.TemporaryDirectory(prefix="seqform-bench-") as directory:
        result, ready = Path(directory, "result.json"), Path(directory, "ready")
        stderr_path = Path(directory, "stderr")
        command = [
            sys.executable,
            "-m",
            "benchmarks.worker",
            peer,
            game,
            "--result",
            str(result),
            "--ready",
            str(ready),
            "--memory-bytes",
            str(limits.memory_bytes),
        ]
        if not warmup:
            command.append("--no-warmup")
        if peer in ITERATIVE_PEERS:
            command += ["--budget", repr(limits.budget_of(game))]
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(
            [str(_REPOSITORY), *filter(None, [environment.get("PYTHONPATH")])]
        )
        with stderr_path.open("wb") as stderr:
            process = subprocess.Popen(
                command,
                cwd=_REPOSITORY,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,  # its own process group, killed as one
            )
            started = time.monotonic()
            ready_at: float | None = None
            while process.poll() is None:
                now = time.monotonic()
                if ready_at is None and ready.exists():
                    ready_at = now
                if ready_at is None and now - started > limits.startup:
                    _kill(process)
                    detail = f"the worker did not start within {limits.startup:g} s"
                    return Measurement(status="error", detail=detail)
                if ready_at is not None and now - ready_at > time_limit:
                    _kill(process)
                    detail = f"stopped after {time_limit:g} s"
                    elapsed = time.monotonic() - ready_at
                    return Measurement(status="timeout", detail=detail, elapsed=elapsed)
                time.sleep(_POLL_SECONDS)
        if ready_at is None and ready.exists():
            ready_at = time.monotonic()
        elapsed = time.monotonic() - ready_at if ready_at is not None else None
        if not result.exists():
            text = stderr_path.read_text(encoding="utf-8", errors="replace")[-_STDERR_TAIL:]
            died = _classify_death(process.returncode, text, limits.memory_bytes)
            return Measurement(status=died.status, detail=died.detail, elapsed=elapsed)
        report = json.loads(result.read_text(encoding="utf-8"))
    status, detail = str(report["status"]), str(report.get("detail", ""))
    if status == "out of memory" and limits.memory_bytes:
        detail = f"{detail} (cap {limits.memory_bytes / 2**30:.3g} GiB)"
    outcome, sizes = report.get("outcome"), report.get("sizes")
    return Measurement(
        status=status,
        detail=detail,
        elapsed=elapsed,
        outcome=Outcome(**outcome) if status == "ok" and isinstance(outcome, dict) else None,
        sizes=Sizes.from_dict(sizes) if status == "ok" and isinstance(sizes, dict) else None,
        peak_rss_mb=report.get("peak_rss_mb"),
        baseline_rss_mb=report.get("baseline_rss_mb"),
    )


def _shown(measurement: Measurement) -> str:
    """A measurement in a progress line: its time (and an iterative run's NashConv)."""
    outcome = measurement.outcome
    if outcome is None:
        return f"{measurement.status} {measurement.detail}".strip()
    if outcome.history and outcome.exploitability is not None:
        return (
            f"{outcome.iterations:,} iterations in {outcome.seconds:.3g} s, "
            f"NashConv {outcome.exploitability:.1e} ({outcome.stopped})"
        )
    return f"{outcome.seconds:.4g} s"


def _family(game: str) -> str:
    return game.split("(", 1)[0].strip()


def run_benchmarks(
    games: Sequence[str],
    peers: Sequence[str],
    *,
    repeat: int,
    limits: Limits,
    warmup: bool = True,
    progress: Callable[[str], None] | None = None,
    iterative_games: Sequence[str] | None = None,
) -> list[GameResult]:
    """Measure every peer on every game, ``repeat`` times, each in its own worker.

    Parameters
    ----------
    games
        seqform game names, best in increasing size (see the module docstring on skips).
    peers
        Peers of :data:`benchmarks.peers.PEERS`.
    repeat
        Repetitions per peer and game (at least 1).
    limits
        The time and memory caps of each worker.
    warmup
        Solve Kuhn poker in each worker before the measurement.
    progress
        Called with a one-line message after each measurement.
    iterative_games
        The games the iterative peers (:data:`ITERATIVE`) run on, once each; ``None``:
        all.  On the other games they are left out of the results.
    """
    say = progress or (lambda _message: None)
    blocked: dict[tuple[str, str], str] = {}  # (peer, family) -> "timeout on GAME"
    results: list[GameResult] = []
    for game in games:
        sized = run_worker("sizes", game, limits, warmup=False)
        sizes = sized.sizes
        say(f"{game}: sizes {sizes.sequences if sizes else sized.detail}")
        here = [
            peer
            for peer in peers
            if peer not in ITERATIVE or iterative_games is None or game in iterative_games
        ]
        runs: dict[str, list[Measurement]] = {peer: [] for peer in here}
        for peer in here:
            reason = not_applicable(peer, game)
            failed_on = blocked.get((peer, _family(game)))
            if reason:
                runs[peer].append(Measurement(status=NOT_APPLICABLE, detail=reason))
            elif failed_on is not None:
                runs[peer].append(Measurement(status="skipped", detail=failed_on))
        for repetition in range(1, repeat + 1):
            for peer in here:
                if any(not m.ok for m in runs[peer]) or (peer in ITERATIVE and repetition > 1):
                    continue
                measurement = run_worker(peer, game, limits, warmup=warmup)
                runs[peer].append(measurement)
                if measurement.status in ("timeout", "out of memory"):
                    blocked[(peer, _family(game))] = f"{measurement.status} on {game}"
                shown = _shown(measurement)
                times = 1 if peer in ITERATIVE else repeat
                say(f"{game}: {peer} run {repetition}/{times}: {shown}")
        results.append(
            GameResult(
                game=game,
                sizes=sizes,
                sizes_detail="" if sizes else f"{sized.status}: {sized.detail}",
                peers=tuple(
                    PeerResult(
                        peer=peer,
                        measurements=tuple(runs[peer]),
                        timeout=limits.timeout_of(peer, game),
                    )
                    for peer in here
                ),
            )
        )
    return results
