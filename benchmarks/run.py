"""The benchmark command: ``python -m benchmarks.run [--quick] [--games ...] [--repeat K] ...``.

Runs seqform (HiGHS and cvxpy backends), OpenSpiel's ``sequence_form_lp`` and pygambit's
``lp_solve`` on the same games in one run, and seqform's sparsified LP (Clarabel, no tree)
on the Kuhn games, up to 10^6 sequences per player, and on some of the games the CFR family
(CFR, CFR+, DCFR, external-sampling MCCFR) to NashConv 1e-3 and 1e-6 within a budget, and
CFR+ against OpenSpiel's (see :mod:`benchmarks.convergence`); each measurement in its own
worker process under a time and memory cap (see :mod:`benchmarks.harness`).  It writes
``results.md``, ``results.json``, ``scaling.png`` and ``convergence.png`` (see
:mod:`benchmarks.report`).  Progress goes to stderr; the path of the table to stdout.

Where: ``--out DIR``, or by default a new scratch folder ``benchmarks/scratch/<UTC time>/``
(git-ignored), so that a run never replaces the committed results in ``benchmarks/results``
unless asked to with ``--out benchmarks/results``; the run says on stderr where it wrote.

Exit codes: 0 when the results were written and all peers that solved a game agree on
its value; 1 when some peers disagree (the table flags them) or the results cannot be
written; 2 for usage errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.harness import BenchmarkRun, Limits, Settings, run_benchmarks
from benchmarks.machine import describe_machine
from benchmarks.peers import PEERS
from benchmarks.report import read_run, write_results

__all__ = [
    "COMMITTED",
    "DEFAULT_GAMES",
    "ITERATIVE_GAMES",
    "QUICK_BUDGET",
    "QUICK_GAMES",
    "QUICK_ITERATIVE_GAMES",
    "SCRATCH",
    "build_parser",
    "main",
    "scratch_folder",
    "split_games",
]

# In increasing number of sequences per player (13 ... 1,000,001), so that a peer that
# fails on one game of a family is skipped on the larger ones.  The last three are too large
# for a game tree (9 N^2 nodes for N cards): only seqform-sparsified and seqform-structured
# run them, about 2 s, 10 s and 65 s (4.5 GB) each on the machine of benchmarks/results.
# leduc(ranks=13), liars_dice(sides=7), leduc(ranks=13, suits=4) and liars_dice(sides=8) put
# the structured route beside the tree peers: leduc(ranks=13) about 2 s,
# leduc(ranks=13, suits=4) 12 s and liars_dice(sides=8) 75 s there (measured once, shared
# machine); the tree peers time out, run out of memory or are skipped after a smaller member
# of the family failed.
DEFAULT_GAMES: tuple[str, ...] = (
    "kuhn",
    "liars_dice(sides=2)",
    "kuhn(cards=10)",
    "kuhn(cards=30)",
    "liars_dice(sides=3)",
    "kuhn(cards=100)",
    "liars_dice(sides=4)",
    "leduc",
    "liars_dice(sides=5)",
    "liars_dice(sides=6)",
    "leduc(ranks=13)",
    "liars_dice(sides=7)",
    "leduc(ranks=13, suits=4)",
    "liars_dice(sides=8)",
    "kuhn(cards=10000)",
    "kuhn(cards=50000)",
    "kuhn(cards=250000)",
)
QUICK_GAMES: tuple[str, ...] = ("kuhn", "liars_dice(sides=2)", "kuhn(cards=10)")
# The games of the iterative peers (each run once, within the budget of
# benchmarks.convergence.BUDGETS): about six minutes of the default run.
ITERATIVE_GAMES: tuple[str, ...] = (
    "kuhn",
    "kuhn(cards=10)",
    "kuhn(cards=100)",
    "liars_dice(sides=4)",
    "leduc",
    "liars_dice(sides=5)",
    "liars_dice(sides=6)",
)
QUICK_ITERATIVE_GAMES: tuple[str, ...] = ("kuhn",)
QUICK_BUDGET = 1.0  # solver seconds of each iterative run with --quick
COMMITTED = Path(__file__).resolve().parent / "results"
"""The results the README shows, replaced only by ``--out benchmarks/results``."""
SCRATCH = Path(__file__).resolve().parent / "scratch"
"""Where a run without ``--out`` writes, one new folder per run (git-ignored)."""


def split_games(texts: Sequence[str]) -> list[str]:
    """Split game names given as one or more arguments at commas outside parentheses.

    >>> split_games(["kuhn,liars_dice(sides=3,dice=1)", "leduc"])
    ['kuhn', 'liars_dice(sides=3,dice=1)', 'leduc']
    """
    games: list[str] = []
    for text in texts:
        depth, current = 0, []
        for character in text:
            depth += {"(": 1, ")": -1}.get(character, 0)
            if character == "," and depth == 0:
                games.append("".join(current).strip())
                current = []
            else:
                current.append(character)
        games.append("".join(current).strip())
    return [game for game in games if game]


def _peers(text: str) -> tuple[str, ...]:
    peers = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [peer for peer in peers if peer not in PEERS]
    if unknown or not peers:
        raise argparse.ArgumentTypeError(
            f"unknown peer(s) {', '.join(unknown) or '(none given)'}; known: {','.join(PEERS)}"
        )
    return peers


def _positive(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    def parse(text: str) -> int | float:
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, not {text}")
        return value

    parse.__name__ = kind.__name__
    return parse


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m benchmarks.run``.

    Length: one ``add_argument`` per option, in the order ``--help`` lists them.
    """
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run",
        description=(
            "Time seqform, OpenSpiel's sequence_form_lp and pygambit's lp_solve on the same "
            "games, and seqform's sparsified LP on Kuhn poker up to 250,000 cards, each run in "
            "its own process under a time and memory cap."
        ),
    )
    parser.add_argument(
        "--games",
        nargs="+",
        metavar="GAME",
        help=(
            "seqform game names, in increasing size, separated by spaces or commas "
            f"(default: {', '.join(DEFAULT_GAMES)})"
        ),
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"small games only, a smoke test (games: {', '.join(QUICK_GAMES)})",
    )
    parser.add_argument(
        "--peers",
        type=_peers,
        default=PEERS,
        help=f"comma-separated peers (default: {','.join(PEERS)})",
    )
    parser.add_argument(
        "--repeat", type=_positive(int), default=3, help="runs per peer and game (default 3)"
    )
    parser.add_argument(
        "--timeout",
        type=_positive(float),
        default=120.0,
        metavar="SECONDS",
        help="wall-clock cap of each run (default 120)",
    )
    parser.add_argument(
        "--gambit-timeout",
        type=_positive(float),
        default=60.0,
        metavar="SECONDS",
        help="wall-clock cap of each pygambit run (default 60)",
    )
    parser.add_argument(
        "--sparsified-timeout",
        type=_positive(float),
        default=300.0,
        metavar="SECONDS",
        help="wall-clock cap of each seqform-sparsified run (default 300)",
    )
    parser.add_argument(
        "--memory-gb",
        type=_positive(float),
        default=8.0,
        metavar="GIB",
        help="address-space cap of each run's process, in GiB (default 8)",
    )
    parser.add_argument(
        "--iterative-games",
        nargs="+",
        metavar="GAME",
        help=(
            "the games, among --games, that the iterative peers run on, or 'all' "
            f"(default: {', '.join(ITERATIVE_GAMES)}; with --quick: "
            f"{', '.join(QUICK_ITERATIVE_GAMES)})"
        ),
    )
    parser.add_argument(
        "--iterative-budget",
        type=_positive(float),
        metavar="SECONDS",
        help=(
            "solver seconds of each iterative run (default: per game, 3 to 15 s; "
            f"{QUICK_BUDGET:g} with --quick)"
        ),
    )
    parser.add_argument(
        "--no-warmup",
        action="store_true",
        help="do not solve Kuhn poker in each worker before the timed run",
    )
    parser.add_argument(
        "--no-plot",
        action="store_true",
        help="do not draw scaling.png and convergence.png (no matplotlib needed)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=(
            "directory for results.md, results.json and the plots (default: a new folder in "
            "benchmarks/scratch/; the committed results change only with --out "
            "benchmarks/results)"
        ),
    )
    parser.add_argument(
        "--from-json",
        type=Path,
        metavar="FILE",
        help="measure nothing: render the tables and plot again from a results.json",
    )
    return parser


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _load() -> tuple[float, ...]:
    try:
        return tuple(round(load, 2) for load in os.getloadavg())
    except OSError:
        return ()


def scratch_folder(now: datetime | None = None) -> Path:
    """A new folder ``benchmarks/scratch/<UTC time>`` (``-2``, ``-3``, ... if taken)."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    SCRATCH.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, 1000):
        folder = SCRATCH / (stamp if attempt == 1 else f"{stamp}-{attempt}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise OSError(f"no free scratch folder for {stamp} in {SCRATCH}")


def _where(out: Path | None) -> Path:
    """``--out``, or a new scratch folder, said on stderr either way."""
    if out is not None:
        return out
    folder = scratch_folder()
    _progress(
        f"writing to the scratch folder {folder} (git-ignored); the committed results in "
        f"{COMMITTED} change only with --out benchmarks/results"
    )
    return folder


def _progress(message: str) -> None:
    print(f"benchmarks: {message}", file=sys.stderr, flush=True)


def _iterative_games(args: argparse.Namespace, games: Sequence[str]) -> tuple[str, ...]:
    """The games of the run the iterative peers take (see ``--iterative-games``)."""
    named = split_games(args.iterative_games) if args.iterative_games else None
    if named == ["all"]:
        return tuple(games)
    chosen = named or (QUICK_ITERATIVE_GAMES if args.quick else ITERATIVE_GAMES)
    return tuple(game for game in games if game in chosen)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks named on the command line; see the module docstring."""
    args = build_parser().parse_args(argv)
    try:
        out = _where(args.out)
        if args.from_json is not None:
            run = read_run(args.from_json)
        else:
            games = split_games(args.games) if args.games else None
            games = games or list(QUICK_GAMES if args.quick else DEFAULT_GAMES)
            iterative_games = _iterative_games(args, games)
            budget = args.iterative_budget or (QUICK_BUDGET if args.quick else None)
            limits = Limits(
                timeout=args.timeout,
                gambit_timeout=args.gambit_timeout,
                memory_bytes=int(args.memory_gb * 2**30),
                sparsified_timeout=args.sparsified_timeout,
                iterative_budget=budget,
            )
            machine, started, load_at_start = describe_machine(), _now(), _load()
            results = run_benchmarks(
                games,
                args.peers,
                repeat=args.repeat,
                limits=limits,
                warmup=not args.no_warmup,
                progress=_progress,
                iterative_games=iterative_games,
            )
            run = BenchmarkRun(
                machine=machine,
                settings=Settings(
                    games=tuple(games),
                    peers=tuple(args.peers),
                    repeat=args.repeat,
                    timeout=args.timeout,
                    gambit_timeout=args.gambit_timeout,
                    memory_gb=args.memory_gb,
                    warmup=not args.no_warmup,
                    sparsified_timeout=args.sparsified_timeout,
                    iterative_games=iterative_games,
                    iterative_budget=budget,
                ),
                started=started,
                finished=_now(),
                games=tuple(results),
                load_at_start=load_at_start,
                load_at_end=_load(),
            )
        files = write_results(run, out, plot=not args.no_plot)
    except (OSError, ValueError, KeyError) as exc:
        print(f"benchmarks: error: {exc}", file=sys.stderr)
        return 1
    print(files.markdown)
    disagreeing = [(game.game, game.disagreeing) for game in run.games if game.disagreeing]
    for game, peers in disagreeing:
        print(f"benchmarks: values disagree on {game}: {', '.join(peers)}", file=sys.stderr)
    return 1 if disagreeing else 0


if __name__ == "__main__":
    sys.exit(main())
