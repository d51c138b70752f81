"""The re-solving table of Brown and Sandholm (Libratus, Science 2018) on seqform's games.

They report exploitability in mbb/game of no re-solving, unsafe and safe re-solving on their
small and large two-round and three-round hold'em (91.3 / 41.3 / 346, 5.51 / 397 / 79.3,
22.6 / 9.84 / 72.6).  This runs the analogue on seqform's games (not theirs): a blueprint
(a card abstraction's equilibrium lifted to the full game, as theirs, or vector CFR+), kept
for the trunk, and every subgame of the last round re-solved by each gadget on the
structured path (``seqform.resolving.structured_resolve``), in floats and exactly
(``exact=True``: each gadget LP's basis re-solved in rationals, the combined profile
certified in Fractions).  An exact run that does not finish within ``--exact-seconds`` of
CPU time is stopped and shown as "--" with that reason.  Times are CPU seconds (the
machine is shared; wall-clock time at nice 19 measures the other jobs).

Games: Leduc on a middle deck (6×4: the gadget LPs take seconds) and 13×4 (a safe
gadget's LPs take minutes each there), Rhode Island hold'em on a reduced deck
(``--ri-ranks`` ranks × 4 suits, two bets a round), and the full 52-card Rhode Island
hold'em (``rhode_island_52``, not run unless named in ``--games``: about an hour and 6 GB
a gadget): its tables do not fit (65 million sequences a player), so its abstraction
blueprints (``--ri52-buckets``) are built on canonical boards, its subgames re-solved there
on hand classes (``resolve_structured(..., boards=...)``, docs/resolving.md "On canonical
boards") and every profile certified on hand classes, which is its exploitability in the
52-card game; its exact cells only with ``--ri52-exact-seconds`` (637 subgames, two gadget
LPs each, hours: on ``--workers``).

The abstraction blueprints of the other games are made on canonical boards too
(``abstract(..., suit_isomorphism=True)``: an equilibrium of the abstraction that is the
same on each hand class, not always the unreduced abstraction's, whose LP has many optima),
and re-solved there with every gadget (``reach``'s gifts taken on classes), in floats and
exactly (``exact=True`` with ``boards``: the gadget LPs on hand classes, the certificate on
classes in Fractions).

Units: mbb/g is thousandths of the big blind per game.  Leduc's big blind is taken as its
ante (one chip), Rhode Island's as its first round's bet (10 chips, twice the ante of 5),
as the resolve report says them (:func:`seqform.holdem.units.report_unit`).

    nice -n 19 python benchmarks/resolve_table.py --output benchmarks/results/resolve_table.md
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import resource
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from seqform.abstraction.solve import abstract
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.game.public.tree import StructuredGame
from seqform.iterative.run import Stopping
from seqform.resolving.resolve import GADGETS
from seqform.resolving.structured_resolve import resolve_structured
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    certify_on_classes,
)
from seqform.structured.responses import certify
from seqform.structured.vector_cfr import vector_cfr

HEADER = (
    "| game | blueprint | re-solve | float mbb/g | exact mbb/g | min margin | "
    "gadget NashConv | float CPU s | exact CPU s |\n|---|---|---|---|---|---|---|---|---|"
)
LIBRATUS = """
Brown and Sandholm (Science 2018, Table 1), mbb/g, their games (hold'em variants, not these):

| | small 2-round hold'em | large 2-round hold'em | 3-round hold'em |
|---|---|---|---|
| no re-solving | 91.3 | 41.3 | 346 |
| unsafe | 5.51 | 397 | 79.3 |
| safe | 22.6 | 9.84 | 72.6 |
"""


@dataclass(frozen=True)
class Blueprint:
    """A blueprint profile, on the game's tables or (``boards``) on its canonical boards."""

    strategies: Any
    boards: CanonicalBoards | None = None


def _exact_run(
    queue: Any,
    game: StructuredGame,
    made: Blueprint,
    gadget: str,
    rnd: int,
    limit: float,
    workers: int,
) -> None:
    # a CPU-time limit, not a wall-clock one: on a shared machine at nice 19 the wall
    # clock measures the other jobs (SIGXCPU ends the child at the limit)
    resource.setrlimit(resource.RLIMIT_CPU, (math.ceil(limit), math.ceil(limit) + 5))
    try:
        result = resolve_structured(
            game,
            made.strategies,
            round_number=rnd,
            gadget=gadget,
            exact=True,
            boards=made.boards,
            workers=workers,
            progress=_heard,
        )
        queue.put(("ok", float(result.certificate.exploitability)))
    except Exception as exc:  # reported in the table as the reason for "--"
        queue.put(("error", f"{type(exc).__name__}: {exc}"[:80]))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _exact(
    game: StructuredGame, made: Blueprint, gadget: str, rnd: int, limit: float, workers: int
) -> tuple[str, float]:
    """The exact re-solve's exploitability and CPU seconds, in a child process stopped
    after ``limit`` CPU seconds (none with ``limit`` 0)."""
    if limit <= 0:
        return "-- (not run)", 0.0
    queue: Any = multiprocessing.get_context("fork").Queue()
    child = multiprocessing.get_context("fork").Process(
        target=_exact_run, args=(queue, game, made, gadget, rnd, limit, workers)
    )
    before = _children_cpu()
    child.start()
    child.join()
    seconds = _children_cpu() - before
    if queue.empty():
        if child.exitcode == -signal.SIGXCPU:
            return f"-- (not done in {limit:.0f} CPU s)", seconds
        return "-- (the run ended without an answer)", seconds
    status, value = queue.get()
    return (f"{value:.17g}" if status == "ok" else f"-- ({value})"), seconds


def _heard(message: str) -> None:
    """The re-solve's progress on stderr, with the process's CPU seconds so far."""
    print(f"[{time.process_time():.0f} CPU s] {message}", file=sys.stderr, flush=True)


def _rows(
    label: str,
    game: StructuredGame,
    blueprints: dict[str, Callable[[], Blueprint]],
    rnd: int,
    unit: float,
    limit: float,
    write: Callable[[str], None],
    gadgets: list[str],
    workers: int = 1,
    floats: bool = True,
) -> None:
    """Length: per blueprint, its own row, then one row per gadget with its exact cell.
    The float re-solve's CPU seconds count its worker processes' (``workers``); without
    ``floats``, only the exact cells are run (the float ones say "--")."""
    for name, make in blueprints.items():
        start = time.process_time()
        made = make()
        blueprint, boards = made.strategies, made.boards  # the blueprint's own row
        measured = (
            certify(game, *blueprint) if boards is None else certify_on_classes(boards, *blueprint)
        )
        seconds = time.process_time() - start
        write(
            f"| {label} | {name} | none (blueprint) | "
            f"{1000 * float(measured.exploitability) / unit:.2f} | | - | - | {seconds:.0f} | |"
        )
        for gadget in gadgets:
            cells = "-- (not run) | - | - | -"  # float mbb/g, margin, NashConv, CPU s
            if floats:
                start = time.process_time() + _children_cpu()
                result = resolve_structured(
                    game,
                    made.strategies,
                    round_number=rnd,
                    gadget=gadget,
                    boards=made.boards,
                    progress=_heard,
                    workers=workers,
                )
                seconds = time.process_time() + _children_cpu() - start
                margin = "-" if result.min_margin is None else f"{result.min_margin:.2g}"
                cells = (
                    f"{1000 * result.exploitability / unit:.2f} | {margin} "
                    f"| {result.max_gadget_nash_conv:.1e} | {seconds:.0f}"
                )
            exact, exact_seconds = _exact(game, made, gadget, rnd, limit, workers)
            if not exact.startswith("--"):
                exact = f"{1000 * float(exact) / unit:.2f}"
            float_cell, rest = cells.split(" | ", 1)
            write(
                f"| {label} | {name} | {gadget} | {float_cell} | {exact} | {rest} "
                f"| {exact_seconds:.0f} |"
            )


def _blueprints(
    game: StructuredGame, buckets: list[str], iterations: int, kinds: list[str]
) -> dict[str, Any]:
    made: dict[str, Callable[[], Blueprint]] = {}
    if "abstraction" in kinds:
        for spec in buckets:

            def make(spec: str = spec) -> Blueprint:
                result = abstract(game, spec, suit_isomorphism=True)
                return Blueprint(result.strategies, result.boards)

            made[f"abstraction {spec}, canonical boards"] = make
    if "cfr+" in kinds:
        made[f"CFR+, {iterations} iterations"] = lambda: Blueprint(
            vector_cfr(game, "cfr+", Stopping(iterations=iterations, every=iterations)).strategies
        )
    return made


def _canonical_blueprints(game: StructuredGame, buckets: list[str]) -> dict[str, Any]:
    """The abstraction blueprints of a game too large for its tables, on canonical boards."""
    made: dict[str, Callable[[], Blueprint]] = {}
    for spec in buckets:

        def make(spec: str = spec) -> Blueprint:
            result = abstract(game, spec, suit_isomorphism=True)
            return Blueprint(result.strategies, result.boards)

        made[f"abstraction {spec}, canonical boards"] = make
    return made


def _parser() -> argparse.ArgumentParser:
    """The command's options.

    Length: one call per option, each with its help text; a list of options does not split.
    """
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=(
            "The filters combine: e.g. only Rhode Island's CFR+ blueprint re-solved by the safe "
            "gadgets: --skip leduc --kinds cfr+ --gadgets resolve maxmargin reach.  Each "
            "blueprint's own row is always written."
        ),
    )
    parser.add_argument("--output", help="the Markdown file (default stdout)")
    parser.add_argument(
        "--leduc-decks", nargs="*", default=["6x4", "13x4"], help="Leduc decks, RANKSxSUITS"
    )
    parser.add_argument(
        "--leduc-buckets",
        nargs="*",
        default=["3,9", "5,15"],
        help="the Leduc abstraction blueprints' buckets per round",
    )
    parser.add_argument("--ri-ranks", type=int, default=4, help="Rhode Island's ranks (4 suits)")
    parser.add_argument(
        "--ri-buckets",
        nargs="*",
        default=["3,6,9"],
        help="the Rhode Island abstraction blueprints' buckets per round",
    )
    parser.add_argument(
        "--ri52-buckets",
        nargs="*",
        default=["2,2,2"],
        help="the 52-card Rhode Island's abstraction blueprints (on canonical boards)",
    )
    parser.add_argument(
        "--ri52-round",
        type=int,
        default=3,
        help="the 52-card Rhode Island's round re-solved (3: from the first public card on)",
    )
    parser.add_argument(
        "--ri52-exact-seconds",
        type=float,
        default=0.0,
        help="the 52-card Rhode Island's exact cells: CPU seconds of each worker (default 0: "
        "none; hours)",
    )
    parser.add_argument(
        "--iterations", type=int, default=100, help="CFR+ iterations of the CFR+ blueprint"
    )
    parser.add_argument(
        "--exact-seconds", type=float, default=300.0, help="CPU seconds; 0: no exact run"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="re-solve each round's subgames on this many processes (the same answers)",
    )
    parser.add_argument(
        "--float",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the float re-solves (--no-float: the exact cells only, where the float ones "
        "are recorded already)",
    )
    parser.add_argument(
        "--skip",
        nargs="*",
        default=[],
        choices=["leduc", "rhode_island"],
        help="games not to run",
    )
    parser.add_argument(
        "--games",
        nargs="*",
        default=[],
        choices=["rhode_island_52"],
        help="games run only when named: the full 52-card Rhode Island (about an hour a gadget)",
    )
    parser.add_argument(
        "--gadgets", nargs="*", default=list(GADGETS), choices=GADGETS, help="rows to run"
    )
    parser.add_argument(
        "--kinds",
        nargs="*",
        default=["abstraction", "cfr+"],
        choices=["abstraction", "cfr+"],
        help="blueprints to run: the card abstractions, vector CFR+",
    )
    return parser


def main() -> None:
    args = _parser().parse_args()
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    write("# Re-solving a blueprint: seqform's analogue of Brown and Sandholm's table\n")
    write(f"Run {time.strftime('%Y-%m-%d %H:%M %Z')}, load average at the start {load} ")
    write(f"(2 cores, shared). Command: `nice -n {os.nice(0)} python {' '.join(sys.argv)}`\n")
    write(HEADER)
    for deck in [] if "leduc" in args.skip else args.leduc_decks:
        ranks, suits = (int(part) for part in deck.split("x"))
        game = leduc_structured(ranks, suits)
        made = _blueprints(game, args.leduc_buckets, args.iterations, args.kinds)
        _rows(
            f"Leduc {ranks}×{suits}",
            *(game, made, 2, 1.0, args.exact_seconds, write, args.gadgets),
            *(args.workers, args.float),
        )
    if "rhode_island" not in args.skip:
        game = rhode_island_structured(args.ri_ranks, 4, max_bets=2)
        made = _blueprints(game, args.ri_buckets, args.iterations, args.kinds)
        label = f"Rhode Island {args.ri_ranks}×4, 2 bets"
        _rows(
            *(label, game, made, 3, 10.0, args.exact_seconds, write, args.gadgets),
            *(args.workers, args.float),
        )
    if "rhode_island_52" in args.games:
        game = rhode_island_structured(13, 4)
        made = _canonical_blueprints(game, args.ri52_buckets)
        label = "Rhode Island, 52 cards, 3 bets"
        limit = args.ri52_exact_seconds
        _rows(
            *(label, game, made, args.ri52_round, 10.0, limit, write, args.gadgets),
            *(args.workers, args.float),
        )
    write(LIBRATUS)
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
