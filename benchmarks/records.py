"""What a benchmark run records: each measurement, each peer's results on a game, the run.

Frozen records that :mod:`benchmarks.harness` fills while it runs the workers, that
``results.json`` holds (:func:`dataclasses.asdict`; ``from_dict`` reads them back, runs written
by older versions included) and that the page (:mod:`benchmarks.tables`), the targets
(:mod:`benchmarks.targets`) and the plots read.  Medians, the reference peer and the agreement
of values (within :data:`VALUE_TOLERANCE`, plus an iterative peer's NashConv) are computed
here, once.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from benchmarks.convergence import ITERATIVE_PEERS, SPEED_PEER
from benchmarks.machine import Machine
from benchmarks.outcome import Outcome
from benchmarks.peers import Sizes

__all__ = [
    "ITERATIVE",
    "NOT_APPLICABLE",
    "VALUE_TOLERANCE",
    "BenchmarkRun",
    "GameResult",
    "Measurement",
    "PeerResult",
    "Settings",
]

VALUE_TOLERANCE = 1e-6  # two peers agree when their values differ by at most this
NOT_APPLICABLE = "not applicable"  # the status of a peer that cannot take a game at all
ITERATIVE: frozenset[str] = frozenset({*ITERATIVE_PEERS, SPEED_PEER})  # run once, own games


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
