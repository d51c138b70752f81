"""Every iterative algorithm of seqform, measured the same way, beside published numbers
and beside OpenSpiel's and LiteEFG's implementations.

Run ``python -m benchmarks.algorithms`` (``--quick`` for small budgets, ``--thousand`` for
the first table only).  Three tables:

1. **At 1,000 iterations** on Kuhn and Leduc: exploitability = NashConv / 2 of the average
   strategies (and of the last iterate for PCFR+, PDCFR+ and HS-PCFR+) beside the numbers
   Xu et al.
   (DDCFR, ICLR 2024, their Table/Figure at 1,000 iterations) publish for CFR, CFR+,
   DCFR and their learned DDCFR.  Conventions, theirs and ours: alternating updates;
   CFR uniform averaging, CFR+ linear, DCFR(1.5, 0, 2) ``t²``.  The hyperparameter
   schedules (:data:`SCHEDULES`) run here only: they are defined over a fixed number of
   iterations, not a time budget; each also in the factor reading of its scheduled γ
   (``(factor)``; :mod:`seqform.iterative.rules`), and with ``--openspiel-schedule``
   OpenSpiel's own ``DCFRSolver`` runs DCFR, HS-DCFR(30) and HS-DCFR(15)
   (:func:`openspiel_hs_dcfr`).
2. **The ranking** on Kuhn, Leduc and Liar's Dice: per algorithm the iterations and
   solver seconds to NashConv 1e-3 and 1e-6 (first sample at or below; samples about ten
   per decade, :func:`benchmarks.convergence.run_in_phases`) within a solver-time budget,
   the final NashConv, the rank by time to 1e-3 (then by final NashConv), beside the
   seeds' ranking (DCFR fastest, CFR+ fast, RCFR medium, vanilla CFR slow, FSP slower);
   and the sequence-form LP's certified time (solve + certificate) for the same game.
   Where such a number lands across rounding: :mod:`benchmarks.roundoff`.
3. **Per-iteration speed on Leduc** against the peers that have the algorithm: OpenSpiel's
   C++ ``CFRSolver``/``CFRPlusSolver``, its python ``LCFRSolver``/``DCFRSolver``/
   ``XFPSolver`` (a few iterations: they are slow), LiteEFG's ``CFR``, ``CFRplus``,
   ``DCFR`` and ``PCFR`` (PCFR+) graphs; the ratio peer / seqform.  Set-up is not timed.

Timings are of one process on whatever machine runs it; NashConv is seqform's certificate
for seqform's runs and each peer's own exploitability for the peers'.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmarks.convergence import TARGETS, run_in_phases

__all__ = [
    "ALGORITHMS",
    "PUBLISHED",
    "SCHEDULES",
    "SEEDS_RANKING",
    "RankingRow",
    "at_thousand",
    "lp_certified_seconds",
    "openspiel_hs_dcfr",
    "peer_speed",
    "ranking",
]

ALGORITHMS = ("cfr", "cfr+", "dcfr", "lcfr", "pcfr+", "dcfr+", "pdcfr+", "rcfr", "xfp")
SCHEDULES = ("hs-dcfr30", "hs-dcfr15", "hs-pcfr+30", "hs-pcfr+15")
"""Zhang, McAleer and Sandholm's schedules: in the 1,000-iteration table only."""

PUBLISHED: dict[str, dict[str, float]] = {
    # Xu, Li, Fu, Fu, Xing and Cheng, "Dynamic discounted counterfactual regret
    # minimization", ICLR 2024: exploitability (NashConv / 2) after 1,000 iterations.
    "kuhn": {"cfr": 9.4e-4, "cfr+": 8.7e-5, "dcfr": 1.5e-4, "ddcfr": 4.0e-5},
    "leduc": {"cfr": 1.18e-2, "cfr+": 2.57e-4, "dcfr": 1.53e-4, "ddcfr": 1.20e-4},
}

SEEDS_RANKING = {"dcfr": 1, "cfr+": 2, "rcfr": 3, "cfr": 4, "xfp": 5}
"""The seeds' Kuhn overview: DCFR fastest, CFR+ fast, RCFR medium, CFR slow, FSP slower."""

GAMES = ("kuhn", "leduc", "liars_dice")


def _solver(name: str) -> Callable[..., object]:
    from seqform.questions.algorithms import ALGORITHMS

    return ALGORITHMS[name]


def at_thousand(game_name: str, iterations: int = 1000) -> dict[str, tuple[float, float | None]]:
    """Per algorithm, exploitability (NashConv / 2) of the average and of the last iterate
    (None where not reported) after ``iterations``."""
    from seqform.io.loader import load_game
    from seqform.iterative.cfr import solve_with_rule
    from seqform.iterative.rules import FACTOR_READINGS, LAST_ITERATE
    from seqform.iterative.run import Stopping

    game = load_game(game_name)
    table = {}
    for name in ALGORITHMS + SCHEDULES:
        result = _solver(name)(game, iterations, every=iterations)
        last = result.last_nash_conv
        table[name] = (result.nash_conv / 2, None if last is None else last / 2)
    stopping = Stopping(iterations, None, None, iterations)
    for name, rule in FACTOR_READINGS.items():  # the other reading of a scheduled gamma
        result = solve_with_rule(game, rule, name, stopping, last_iterate=name in LAST_ITERATE)
        last = result.last_nash_conv
        table[f"{name} (factor)"] = (result.nash_conv / 2, None if last is None else last / 2)
    return table


def openspiel_hs_dcfr(game_name: str, gamma0: float | None = 30.0, iterations: int = 1000) -> float:
    """Exploitability (NashConv / 2) of OpenSpiel's own python ``DCFRSolver`` after
    ``iterations``, with HS-DCFR's schedule (Zhang, McAleer and Sandholm 2024, eq. 4) set
    on its ``alpha``, ``beta``, ``gamma`` before each iteration — an independent run of
    the power reading (seqform.iterative.rules) — or, ``gamma0=None``, its plain DCFR(1.5,
    0, 2).  Minutes on Leduc (a python solver)."""
    import pyspiel
    from open_spiel.python.algorithms import discounted_cfr, exploitability

    game = pyspiel.load_game({"kuhn": "kuhn_poker", "leduc": "leduc_poker"}[game_name])
    solver = discounted_cfr.DCFRSolver(game)
    for t in range(1, iterations + 1):
        if gamma0 is not None:
            progress = t / iterations
            solver.alpha, solver.beta = 1 + 3 * progress, -1 - 2 * progress
            solver.gamma = gamma0 - 5 * progress
        solver.evaluate_and_update_policy()
    return float(exploitability.nash_conv(game, solver.average_policy())) / 2


@dataclass(frozen=True)
class RankingRow:
    """One algorithm on one game (section 2 of the module docstring).

    reached : per target of :data:`benchmarks.convergence.TARGETS`, (iterations, solver
        seconds) of the first sample at or below it, or None
    """

    game: str
    algorithm: str
    reached: tuple[tuple[int, float] | None, ...]
    iterations: int
    seconds: float
    nash_conv: float
    last_nash_conv: float | None
    history: tuple[tuple[int, float, float], ...]


def _reached(samples: Sequence, target: float) -> tuple[int, float] | None:
    for sample in samples:
        if sample.nash_conv <= target:
            return sample.iteration, float(sample.seconds)
    return None


def ranking(
    game_name: str, budget: float, algorithms: Sequence[str] = ALGORITHMS
) -> list[RankingRow]:
    """Each algorithm run to NashConv 1e-6 or ``budget`` solver seconds, ranked by the
    time to 1e-3 (then by final NashConv)."""
    from seqform.io.loader import load_game

    game = load_game(game_name)
    rows = []
    for name in algorithms:
        solve = _solver(name)
        result, samples = run_in_phases(
            lambda solve=solve, **options: solve(game, **options), budget
        )
        rows.append(
            RankingRow(
                game=game_name,
                algorithm=name,
                reached=tuple(_reached(samples, target) for target in TARGETS),
                iterations=result.iterations,
                seconds=float(result.seconds),
                nash_conv=float(result.nash_conv),
                last_nash_conv=result.last_nash_conv,
                history=tuple((s.iteration, float(s.seconds), float(s.nash_conv)) for s in samples),
            )
        )
    return sorted(rows, key=_rank_key)


def _rank_key(row: RankingRow) -> tuple[float, float]:
    first = row.reached[0]
    return (first[1] if first is not None else float("inf"), row.nash_conv)


def lp_certified_seconds(game_name: str) -> tuple[float, float]:
    """Seconds to solve the sequence-form LP and certify it, and the certified NashConv."""
    from seqform.certify import certify
    from seqform.io.loader import load_game
    from seqform.routes.solve import solve

    game = load_game(game_name)
    start = time.perf_counter()
    solution = solve(game)
    nash_conv = certify(game, *solution.strategies).nash_conv
    return time.perf_counter() - start, float(nash_conv)


def _per_iteration(step: Callable[[], None], iterations: int) -> float:
    start = time.perf_counter()
    for _ in range(iterations):
        step()
    return (time.perf_counter() - start) / iterations


def _openspiel_steps(name: str, theirs) -> tuple[Callable[[], None], int] | None:
    import pyspiel
    from open_spiel.python.algorithms import discounted_cfr, fictitious_play

    if name == "cfr":
        return pyspiel.CFRSolver(theirs).evaluate_and_update_policy, 100
    if name == "cfr+":
        return pyspiel.CFRPlusSolver(theirs).evaluate_and_update_policy, 100
    if name == "lcfr":
        return discounted_cfr.LCFRSolver(theirs).evaluate_and_update_policy, 3
    if name == "dcfr":
        return discounted_cfr.DCFRSolver(theirs).evaluate_and_update_policy, 3
    if name == "xfp":
        return fictitious_play.XFPSolver(theirs).iteration, 3
    return None


def _liteefg_steps(name: str, theirs) -> tuple[Callable[[], None], int] | None:
    import LiteEFG
    from LiteEFG.baselines import CFR, DCFR, PCFR, CFRplus

    module = {"cfr": CFR, "cfr+": CFRplus, "dcfr": DCFR, "pcfr+": PCFR}.get(name)
    if module is None:
        return None
    with contextlib.redirect_stdout(io.StringIO()):  # the graphs print banners
        graph = module.graph()
        env = LiteEFG.OpenSpielEnv(theirs, traverse_type="Enumerate", regenerate=False)
        env.set_graph(graph)

    def step() -> None:
        graph.update_graph(env)
        env.update_strategy(graph.current_strategy())

    return step, 100


def peer_speed(
    ours: str = "leduc", theirs_name: str = "leduc_poker", iterations: int = 200
) -> dict[str, dict[str, float]]:
    """Seconds per iteration of seqform and of each peer that has the algorithm
    (``{algorithm: {"seqform": s, "openspiel": s, "liteefg": s}}``, peers absent when
    they lack the algorithm or are not installed)."""
    from seqform.io.loader import load_game

    game = load_game(ours)
    table: dict[str, dict[str, float]] = {}
    try:
        import pyspiel

        theirs = pyspiel.load_game(theirs_name)
    except ImportError:
        theirs = None
    for name in ALGORITHMS:
        result = _solver(name)(game, iterations, every=iterations)
        table[name] = {"seqform": result.seconds / result.iterations}
        for peer, steps in (("openspiel", _openspiel_steps), ("liteefg", _liteefg_steps)):
            if theirs is None:
                continue
            try:
                found = steps(name, theirs)
            except ImportError:
                continue
            if found is not None:
                table[name][peer] = _per_iteration(*found)
    return table


def _cell(reached: tuple[int, float] | None) -> str:
    return "—" if reached is None else f"{reached[0]:>7,} {reached[1]:7.2f}s"


def _print_thousand(with_openspiel: bool) -> None:
    print("1. Exploitability (NashConv / 2) after 1,000 iterations; DDCFR paper beside")
    for game_name in ("kuhn", "leduc"):
        table = at_thousand(game_name)
        published = PUBLISHED[game_name]
        print(f"  {game_name}")
        for name, (average, last) in table.items():
            paper = published.get(name)
            theirs = "" if paper is None else f"   paper {paper:.2e}"
            tail = "" if last is None else f"   last iterate {last:.2e}"
            print(f"    {name:21} {average:.3e}{theirs}{tail}")
        print(f"    {'ddcfr':21} (learned; not run)   paper {published['ddcfr']:.2e}")
        if with_openspiel:
            for name, gamma0 in (("dcfr", None), ("hs-dcfr30", 30.0), ("hs-dcfr15", 15.0)):
                theirs = openspiel_hs_dcfr(game_name, gamma0)
                print(f"    {name + ', OpenSpiel':21} {theirs:.3e}   (its DCFRSolver)")


def _print_ranking(games: Sequence[str], budget: float) -> None:
    print(f"2. Ranking: iterations and solver seconds to NashConv 1e-3 / 1e-6 (budget {budget} s)")
    for game_name in games:
        lp_seconds, lp_nash_conv = lp_certified_seconds(game_name)
        lp = f"LP solve + certificate {lp_seconds:.2f} s (NashConv {lp_nash_conv:.1e})"
        print(f"  {game_name}: {lp}")
        columns = ("rank", "seeds", "algorithm", "to 1e-3", "to 1e-6", "final")
        print("    {:>4} {:>5} {:9} {:>17} {:>17} {:>9}".format(*columns))
        for rank, row in enumerate(ranking(game_name, budget), start=1):
            seeds = SEEDS_RANKING.get(row.algorithm)
            print(
                f"    {rank:>4} {seeds if seeds else '':>5} {row.algorithm:9} "
                f"{_cell(row.reached[0]):>17} {_cell(row.reached[1]):>17} {row.nash_conv:9.2e}"
            )


def _print_speed() -> None:
    print("3. Seconds per iteration on Leduc; ratio peer / seqform")
    for name, row in peer_speed().items():
        ours = row["seqform"]
        peers = "  ".join(
            f"{peer} {seconds:.2e} ({seconds / ours:.1f}x)"
            for peer, seconds in row.items()
            if peer != "seqform"
        )
        print(f"    {name:7} seqform {ours:.2e}  {peers}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=10.0, help="solver seconds per run")
    parser.add_argument("--quick", action="store_true", help="budget 1 s, Liar's Dice 4 sides")
    parser.add_argument("--thousand", action="store_true", help="the 1,000-iteration table only")
    parser.add_argument(
        "--openspiel-schedule",
        action="store_true",
        help="also run OpenSpiel's DCFRSolver: DCFR, HS-DCFR(30), HS-DCFR(15) (minutes on Leduc)",
    )
    args = parser.parse_args()
    games = GAMES if not args.quick else ("kuhn", "leduc", "liars_dice(sides=4)")
    _print_thousand(args.openspiel_schedule)
    if args.thousand:
        return
    _print_ranking(games, 1.0 if args.quick else args.budget)
    _print_speed()


if __name__ == "__main__":
    main()
