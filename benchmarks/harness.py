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

The records a run fills (:class:`Measurement`, :class:`PeerResult`, :class:`GameResult`,
:class:`BenchmarkRun`) are defined in :mod:`benchmarks.records` and importable from here.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.convergence import ITERATIVE_PEERS, budget_of
from benchmarks.convergence import timeout_of as iterative_timeout
from benchmarks.outcome import Outcome
from benchmarks.peers import SPARSIFIED, Sizes, not_applicable
from benchmarks.records import (
    ITERATIVE,
    NOT_APPLICABLE,
    VALUE_TOLERANCE,
    BenchmarkRun,
    GameResult,
    Measurement,
    PeerResult,
    Settings,
)

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


def _worker_command(
    peer: str, game: str, limits: Limits, warmup: bool, directory: Path
) -> list[str]:
    """The command line of one worker, writing its report and ready files in ``directory``."""
    command = [
        sys.executable,
        "-m",
        "benchmarks.worker",
        peer,
        game,
        "--result",
        str(directory / "result.json"),
        "--ready",
        str(directory / "ready"),
        "--memory-bytes",
        str(limits.memory_bytes),
    ]
    if not warmup:
        command.append("--no-warmup")
    if peer in ITERATIVE_PEERS:
        command += ["--budget", repr(limits.budget_of(game))]
    return command


@dataclass(frozen=True)
class _Waited:
    """How the wait for a worker ended: ``stopped`` when the parent killed it, else ``None``."""

    stopped: Measurement | None
    ready_at: float | None


def _wait(
    process: subprocess.Popen[bytes], ready: Path, limits: Limits, time_limit: float
) -> _Waited:
    """Poll the worker until it ends; kill it if it does not start, or at the time limit
    (counted from its ready file, so imports and the warm-up are not timed)."""
    started = time.monotonic()
    ready_at: float | None = None
    while process.poll() is None:
        now = time.monotonic()
        if ready_at is None and ready.exists():
            ready_at = now
        if ready_at is None and now - started > limits.startup:
            _kill(process)
            detail = f"the worker did not start within {limits.startup:g} s"
            return _Waited(Measurement(status="error", detail=detail), None)
        if ready_at is not None and now - ready_at > time_limit:
            _kill(process)
            detail = f"stopped after {time_limit:g} s"
            elapsed = time.monotonic() - ready_at
            return _Waited(Measurement(status="timeout", detail=detail, elapsed=elapsed), ready_at)
        time.sleep(_POLL_SECONDS)
    if ready_at is None and ready.exists():
        ready_at = time.monotonic()
    return _Waited(None, ready_at)


def _read_report(report: dict[str, Any], limits: Limits, elapsed: float | None) -> Measurement:
    """The measurement a worker wrote in its report file."""
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
    with tempfile.TemporaryDirectory(prefix="seqform-bench-") as name:
        directory = Path(name)
        result, stderr_path = directory / "result.json", directory / "stderr"
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(
            [str(_REPOSITORY), *filter(None, [environment.get("PYTHONPATH")])]
        )
        with stderr_path.open("wb") as stderr:
            process = subprocess.Popen(
                _worker_command(peer, game, limits, warmup, directory),
                cwd=_REPOSITORY,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,  # its own process group, killed as one
            )
            waited = _wait(process, directory / "ready", limits, time_limit)
        if waited.stopped is not None:
            return waited.stopped
        elapsed = time.monotonic() - waited.ready_at if waited.ready_at is not None else None
        if not result.exists():
            text = stderr_path.read_text(encoding="utf-8", errors="replace")[-_STDERR_TAIL:]
            died = _classify_death(process.returncode, text, limits.memory_bytes)
            return Measurement(status=died.status, detail=died.detail, elapsed=elapsed)
        report = json.loads(result.read_text(encoding="utf-8"))
    return _read_report(report, limits, elapsed)


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
        runs = _not_run(here, game, blocked)
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
        results.append(_game_result(game, sized, runs, limits))
    return results


def _not_run(
    peers: Sequence[str], game: str, blocked: dict[tuple[str, str], str]
) -> dict[str, list[Measurement]]:
    """Each peer's measurements before any worker runs: ``not applicable`` for a game it cannot
    take, ``skipped`` after a timeout or out-of-memory on a smaller game of the family."""
    runs: dict[str, list[Measurement]] = {peer: [] for peer in peers}
    for peer in peers:
        reason = not_applicable(peer, game)
        failed_on = blocked.get((peer, _family(game)))
        if reason:
            runs[peer].append(Measurement(status=NOT_APPLICABLE, detail=reason))
        elif failed_on is not None:
            runs[peer].append(Measurement(status="skipped", detail=failed_on))
    return runs


def _game_result(
    game: str, sized: Measurement, runs: dict[str, list[Measurement]], limits: Limits
) -> GameResult:
    """One game's record: its sizes (or why they are missing) and every peer's measurements."""
    sizes = sized.sizes
    return GameResult(
        game=game,
        sizes=sizes,
        sizes_detail="" if sizes else f"{sized.status}: {sized.detail}",
        peers=tuple(
            PeerResult(peer=peer, measurements=tuple(ms), timeout=limits.timeout_of(peer, game))
            for peer, ms in runs.items()
        ),
    )
