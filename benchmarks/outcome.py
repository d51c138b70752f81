"""What one measurement reports: :class:`Outcome`, shared by the LP and the iterative peers.

An LP peer fills the first fields (its time, value, solver time, stages); an iterative peer
(:mod:`benchmarks.convergence`) also fills ``history`` (NashConv of its average strategies
along the run), ``stopped``, ``seed`` and ``budget``; the CFR+ speed peer fills ``speed``
(seconds per iteration and NashConv of each implementation after the same iterations).
Every field has a default after ``value``, so a ``results.json`` written before a field
existed still reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Outcome"]


@dataclass(frozen=True)
class Outcome:
    """One timed solve by one peer.

    seconds : wall-clock time of the timed work (see :mod:`benchmarks.peers`); for an
        iterative peer the solver time of its iterations (NashConv measurements, loading
        the game and building its layout not counted)
    value : the game's value to player 0, as the peer computed it; for an iterative peer
        the value of its average strategies, within its NashConv of the game's value
    solver_seconds : the LP solver's own time, where the peer reports it
    convert_seconds : Gambit only: building the game and converting it for pygambit
    stages : seqform only: seconds of each stage (``build`` and ``Solution.timings``)
    iterations : LP iterations, where the peer reports them; iterations run by an
        iterative peer
    exploitability : seqform peers only: NashConv of their strategies, by best response
    route : OpenSpiel only: ``"native"`` (its own game) or ``"efg"`` (its efg_game)
    history : iterative peers: ``(iteration, solver seconds, NashConv)`` of the average
        strategies, about ten samples a decade of iterations then evenly spaced
    stopped : iterative peers: ``"target"`` (NashConv reached the smallest target) or
        ``"time limit"`` (the budget was spent)
    seed : the sampling peer's random seed
    budget : iterative peers: the solver-time budget in seconds
    speed : the CFR+ speed peer: for each implementation (``seqform``,
        ``openspiel-cpp``, ``seqform-short``, ``openspiel-python``), its ``iterations``,
        ``seconds_per_iteration`` and ``nash_conv`` after those iterations
    """

    seconds: float
    value: float
    solver_seconds: float | None = None
    convert_seconds: float | None = None
    stages: dict[str, float] = field(default_factory=dict)
    iterations: int | None = None
    exploitability: float | None = None
    route: str = ""
    history: tuple[tuple[int, float, float], ...] = ()
    stopped: str = ""
    seed: int | None = None
    budget: float | None = None
    speed: dict[str, dict[str, float]] = field(default_factory=dict)
