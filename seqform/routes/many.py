"""Many spots at once: a folder of spot files solved in parallel, one row per spot.

An aggregate over many boards is how players study a spot family ("how often does OOP bet on
each river?"), and it is the workload that outgrows one machine: each spot is an independent
structured LP (:func:`seqform.solve`, the structured route), so the spots are farmed out to
workers and only their small summaries come back.  Where they run:

``executor="local"``
    a pool of processes on this machine (:class:`concurrent.futures.ProcessPoolExecutor`),
    ``workers`` of them (default: the number of cores);
``executor="dask"``
    a Dask cluster (``distributed``): ``address`` is its scheduler (``"tcp://host:8786"``),
    or ``None`` to start a local cluster of ``workers`` processes;
``executor="ray"``
    a Ray cluster: ``address`` as :func:`ray.init` takes it (``"ray://host:10001"``,
    ``"auto"``), or ``None`` for a local one.

Every row carries what players read off a solver (Chen and Ankenman, *The Mathematics of
Poker*, 2006, ch. 2; PioSOLVER's conventions): each player's EV in chips, the two adding up to
the pot, and as a share of the pot; the exploitability in chips and as a share of the pot, the
mean of the two players' best-response gains (NashConv / 2); and the main action frequencies: OOP's
first decision, and IP's decision after OOP checks.  A frequency at a decision is the share of
the player's range, each combo weighted by its probability in the deal (card removal against
the other range included) times the player's own probability of reaching the decision
(:func:`action_frequencies`).  Shares are fractions (:mod:`seqform.holdem.report`
defines value, EV and share once).  Each row also carries the aggregate report's numbers
(:func:`seqform.holdem.aggregate.spot_aggregate`): each player's range equity and equity
realisation, the EV of the combos taking each of OOP's first actions, and the board's texture
labels.  A spot that cannot be read or solved is a row with its error; the others are still
solved.

Ctrl-C cancels what has not started and stops the workers (a process pool's workers are
terminated, a Dask or Ray cluster's tasks cancelled).  A local pool's workers ignore Ctrl-C
themselves (the terminal sends it to every process of the command; the parent alone decides)
and, on Linux, die with the parent however it ends (``prctl(PR_SET_PDEATHSIG)``): a parent
killed by ``timeout`` or ``kill -9`` leaves no worker behind.

The number of workers on this machine is refused above :func:`worker_limit`: at most
:data:`WORKERS_PER_CORE` per core (the spots are CPU-bound; more only adds switching) and no
more than the available memory holds at :data:`WORKER_BYTES` each.  Refused rather than
clamped, so that a run never silently uses fewer workers than asked.

Size: the three executors' runners sit beside the row they return and the one Ctrl-C
policy they share.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from seqform.base.limits import LIMITS
from seqform.base.pool import worker_pool
from seqform.base.progress import Step, report
from seqform.holdem import ActionFrequencies, SpotAggregate, action_frequencies, spot_summary
from seqform.routes.options import OptionsError
from seqform.routes.sizing.memory import BASE_BYTES, available_memory

__all__ = [
    "EXECUTORS",
    "WORKERS_PER_CORE",
    "WORKER_BYTES",
    "ActionFrequencies",
    "ManySpots",
    "SpotRow",
    "TooManyWorkersError",
    "WorkerLimit",
    "action_frequencies",
    "check_workers",
    "solve_many",
    "solve_spot_file",
    "spot_files",
    "worker_limit",
]

EXECUTORS = ("local", "dask", "ray")
WORKERS_PER_CORE = LIMITS.workers_per_core  # why: seqform.base.limits
WORKER_BYTES = BASE_BYTES
"""A worker's memory before its spot: the interpreter, numpy, scipy and HiGHS."""
CONNECT_SECONDS = LIMITS.connect_seconds  # why: seqform.base.limits


class TooManyWorkersError(OptionsError):
    """More local workers asked for than :func:`worker_limit` allows (a usage error)."""


@dataclass(frozen=True)
class WorkerLimit:
    """The most local workers allowed, and what it was computed from.

    workers : ``min(WORKERS_PER_CORE * cores, memory // WORKER_BYTES)``, at least 1
    cores : the cores counted (:func:`os.cpu_count`)
    memory : the bytes available (:func:`seqform.routes.sizing.memory.available_memory`)
    """

    workers: int
    cores: int
    memory: int


def worker_limit(cores: int | None = None, memory: int | None = None) -> WorkerLimit:
    """The most workers :func:`solve_many` starts on this machine (module docstring);
    ``cores`` and ``memory`` (bytes) default to this machine's."""
    cores = cores if cores is not None else os.cpu_count() or 1
    memory = memory if memory is not None else available_memory().bytes
    workers = max(1, min(WORKERS_PER_CORE * cores, memory // WORKER_BYTES))
    return WorkerLimit(workers, cores, memory)


def check_workers(workers: int) -> None:
    """Refuse more ``workers`` than :func:`worker_limit` allows on this machine, before any
    starts (also for a re-solve's workers, :mod:`seqform.resolving.structured_resolve`).

    Raises
    ------
    TooManyWorkersError
        With the limit and why (cores, memory).
    """
    limit = worker_limit()
    if workers > limit.workers:
        raise TooManyWorkersError(
            f"--workers {workers:,}: at most {limit.workers:,} on this machine "
            f"({WORKERS_PER_CORE} per core for {limit.cores} cores, and "
            f"{limit.memory / 2**30:.1f} GB available at {WORKER_BYTES / 2**20:.0f} MB a worker)"
        )


@dataclass(frozen=True)
class SpotRow:
    """One spot's summary; ``error`` set (and the numbers None) when it failed.

    path : the spot file
    board : its board as written (``"Ks7h2d9c4s"``)
    pot : the pot before the street, in chips
    oop_ev, ip_ev : each player's EV in chips (``oop_ev + ip_ev == pot``)
    exploitability : NashConv / 2, in chips (the mean of the two best-response gains)
    frequencies : OOP's first decision and IP's after a check
    combos : the number of combos in each range (after the board's card removal)
    seconds : the solve's wall time in the worker
    aggregate : the aggregate report's row: equity, EQR, each first action's EV, texture
    """

    path: str
    board: str
    pot: float | None
    oop_ev: float | None = None
    ip_ev: float | None = None
    exploitability: float | None = None
    frequencies: tuple[ActionFrequencies, ...] = ()
    combos: tuple[int, int] = (0, 0)
    seconds: float = 0.0
    error: str | None = None
    aggregate: SpotAggregate | None = None

    @property
    def exploitability_pot(self) -> float | None:
        """The exploitability as a share of the pot (a fraction: 0.01 is 1 %)."""
        if self.exploitability is None or not self.pot:
            return None
        return self.exploitability / self.pot

    def share(self, player: int) -> float | None:
        """A player's EV as a share of the pot (a fraction; the two add up to 1)."""
        ev = (self.oop_ev, self.ip_ev)[player]
        return None if ev is None or not self.pot else ev / self.pot


@dataclass(frozen=True)
class ManySpots:
    """The rows of :func:`solve_many`, in file-name order, and where they ran."""

    directory: str
    rows: tuple[SpotRow, ...]
    executor: str
    workers: int | None
    seconds: float

    @property
    def failed(self) -> tuple[SpotRow, ...]:
        """The rows whose spot could not be read or solved."""
        return tuple(row for row in self.rows if row.error is not None)


def spot_files(directory: str | os.PathLike[str]) -> tuple[Path, ...]:
    """The ``*.toml`` files of ``directory``, sorted by name.

    Raises
    ------
    NotADirectoryError, FileNotFoundError
        When ``directory`` is not a folder.
    ValueError
        When it holds no spot file.
    """
    folder = Path(directory)
    if not folder.exists():
        raise FileNotFoundError(f"{folder}: no such folder")
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder}: not a folder (solve-many takes a folder of spots)")
    files = tuple(sorted(folder.glob("*.toml")))
    if not files:
        raise ValueError(f"{folder}: no spot files (*.toml) in it")
    return files


def solve_spot_file(path: str, exact: bool = False) -> SpotRow:
    """Read, solve and summarise one spot file (runs in a worker; module docstring)."""
    from seqform.holdem import card_text, read_spot, spot_aggregate, spot_game
    from seqform.routes.solve import solve  # imported in the worker, not at start-up

    start = time.perf_counter()
    board = ""
    pot: Fraction | None = None
    try:
        spot = read_spot(path)
        board, pot = "".join(card_text(card) for card in spot.board), spot.pot
        game = spot_game(spot)
        solution = solve(game, method="structured", exact=exact)
        aggregate = spot_aggregate(game, spot, float(solution.value), solution.strategies)
    except Exception as exc:  # any failure is this spot's row; the batch goes on
        message = str(exc) or type(exc).__name__
        return SpotRow(path, board, None if pot is None else float(pot), error=message)
    assert pot is not None
    summary = spot_summary(
        game, pot, float(solution.value), float(solution.nash_conv), solution.strategies
    )
    return SpotRow(
        path=path,
        board=board,
        pot=summary.pot,
        oop_ev=summary.oop_ev,
        ip_ev=summary.ip_ev,
        exploitability=summary.exploitability,
        frequencies=summary.frequencies,
        combos=summary.combos,
        seconds=time.perf_counter() - start,
        aggregate=aggregate,
    )


def solve_many(
    directory: str | os.PathLike[str],
    *,
    executor: str = "local",
    workers: int | None = None,
    address: str | None = None,
    exact: bool = False,
    on_row: Callable[[SpotRow], None] | None = None,
) -> ManySpots:
    """Solve every spot file of ``directory`` in parallel (module docstring).

    Parameters
    ----------
    executor : ``"local"``, ``"dask"`` or ``"ray"``
    workers : processes on this machine (local pool, or a local Dask/Ray cluster); default
        the number of cores
    address : a Dask scheduler or Ray cluster address; None starts a local one
    exact : solve each spot exactly as well (the structured route's rational re-solve)
    on_row : called with each row as it arrives (in completion order)

    Raises
    ------
    ValueError
        For an unknown executor, a bad worker count, an address given to ``"local"``, or a
        folder without spot files; :class:`TooManyWorkersError` for more workers on this
        machine than :func:`worker_limit` allows, before any is started.
    ImportError
        When the Dask or Ray package is not installed (``pip install "seqform[cluster]"``).
    """
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor {executor!r}; choose from {', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if executor == "local" and address is not None:
        raise ValueError("an address is for a Dask or Ray cluster, not the local pool")
    if workers is not None and address is None:
        check_workers(workers)
    files = spot_files(directory)
    start = time.perf_counter()
    paths = [str(file) for file in files]
    rows: dict[str, SpotRow] = {}
    runner = _RUNNERS[executor]
    for done, row in enumerate(runner(paths, exact, workers, address), start=1):
        rows[row.path] = row
        report(Step("spots", done, len(paths)))
        if on_row is not None:
            on_row(row)
    return ManySpots(
        directory=str(directory),
        rows=tuple(rows[path] for path in paths),
        executor=executor,
        workers=workers,
        seconds=time.perf_counter() - start,
    )


def _row(future: Future[SpotRow], path: str) -> SpotRow:
    """The future's row, or a row with the error when its worker failed (killed, out of
    memory): one spot's failure is never the batch's."""
    try:
        return future.result()
    except Exception as exc:
        return SpotRow(path, "", None, error=f"its worker failed: {exc or type(exc).__name__}")


def _local(
    paths: Sequence[str], exact: bool, workers: int | None, address: str | None
) -> Iterator[SpotRow]:
    """A process pool on this machine; Ctrl-C cancels the queue and stops the workers."""
    del address
    with worker_pool(workers or os.cpu_count() or 1) as pool:
        submitted = {pool.submit(solve_spot_file, path, exact): path for path in paths}
        pending = set(submitted)
        while pending:
            finished, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in finished:
                yield _row(future, submitted[future])


def _dask(
    paths: Sequence[str], exact: bool, workers: int | None, address: str | None
) -> Iterator[SpotRow]:
    """A Dask cluster: the one at ``address``, or a local one of ``workers`` processes."""
    from distributed import Client, LocalCluster, as_completed

    cluster: Any = None
    if address is None:
        cluster = LocalCluster(
            n_workers=workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
    if cluster is not None:
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout=CONNECT_SECONDS)
        except OSError as exc:  # Dask's connect timeout is an OSError
            raise OSError(
                f"no Dask scheduler answered at {address} within {CONNECT_SECONDS:g} s ({exc})"
            ) from None
    futures = [client.submit(solve_spot_file, path, exact, pure=False) for path in paths]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
        client.close()
        if cluster is not None:
            cluster.close()


def _ray(
    paths: Sequence[str], exact: bool, workers: int | None, address: str | None
) -> Iterator[SpotRow]:
    """A Ray cluster: the one at ``address``, or a local one with ``workers`` CPUs."""
    import ray

    started = not ray.is_initialized()
    if started:
        if address is None:
            ray.init(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False)
        else:
            ray.init(address=address)
    remote: Any = ray.remote(num_cpus=1)(solve_spot_file)
    pending = [remote.remote(path, exact) for path in paths]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=0.5)
            for reference in done:
                yield ray.get(reference)
    finally:
        for reference in pending:
            ray.cancel(reference, force=True)
        if started:
            ray.shutdown()


_RUNNERS: dict[str, Callable[..., Iterator[SpotRow]]] = {
    "local": _local,
    "dask": _dask,
    "ray": _ray,
}
