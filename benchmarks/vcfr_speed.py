"""Vector CFR's iteration, numpy against the compiled kernels, and the time to 0.1% of the pot.

``python -m benchmarks.vcfr_speed [--quick] [--turn]`` prints two tables:

* **per iteration**: CPU milliseconds of one iteration (both players' half-iterations;
  ``time.process_time`` over a few iterations after the first, so compile and set-up are
  not counted; on a shared machine the wall clock counts other processes' time) on the
  full-range river of :mod:`benchmarks.spots` (1,081 combos a player, 36,755 sequences),
  ``leduc(ranks=13, suits=4)`` (2,344 public leaves, 52 hands) and, with ``--turn``, the
  full-range turn of docs/spots.md (1,128 combos, 3.1 million sequences a player), for the
  numpy path (:class:`~seqform.structured.vector_cfr.VectorRegrets`), the compiled path in
  float64 and in float32 storage; also the set-up (the flat tables, the kernels loaded from
  numba's cache) and the public leaves × hands per millisecond;
* **to 0.1% of the pot** on the full-range river: CFR+ and DCFR run by
  :func:`~seqform.structured.vector_cfr.vector_cfr` until the structured certificate
  measures an exploitability (NashConv / 2) of at most 0.01 chips (pot 10), measured every
  100 iterations as ``iterate`` does; the solver's seconds (wall clock, without the
  certificates) and the CPU seconds of the whole call (certificates included).
  ``--quick`` leaves out the numpy path here (about 20 CPU seconds).

Timings are one run on a shared machine: the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.spots import EVERY_COMBO, FULL_RIVER
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import StructuredGame
from seqform.holdem.game import spot_game
from seqform.holdem.spot import read_spot
from seqform.iterative.rules import RULES
from seqform.iterative.run import Stopping
from seqform.structured.compiled_cfr import CompiledRegrets
from seqform.structured.vector_cfr import VectorRegrets, vector_cfr

__all__ = ["main"]

FULL_TURN = f"""\
board = "Ks7h2d9c"
pot = 10
effective_stack = 100
oop_range = "{EVERY_COMBO}"
ip_range = "{EVERY_COMBO}"
bet_sizes = [0.75]
raise_sizes = [1.0]
max_raises = 1
"""
TARGET = 0.01  # chips: 0.1% of the river's pot of 10


def _spot(text: str) -> StructuredGame:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "spot.toml"
        path.write_text(text)
        return spot_game(read_spot(path))


def _per_iteration(make: object, iterations: int) -> tuple[float, float]:
    """CPU seconds of the set-up with the first step, and per iteration after it."""
    start = time.process_time()
    stepper = make()  # type: ignore[operator]
    stepper.step(1)
    setup = time.process_time() - start
    start = time.process_time()
    for iteration in range(2, iterations + 2):
        stepper.step(iteration)
    return setup, (time.process_time() - start) / iterations


def _iteration_rows(games: dict[str, tuple[StructuredGame, int]]) -> None:
    print("| game | leaves × hands | path | set-up s | ms / iteration | pairs / µs |")
    print("|---|---|---|---|---|---|")
    for name, (game, iterations) in games.items():
        numbering = number_public_tree(game)
        pairs = numbering.num_leaves * (game.num_hands(0) + game.num_hands(1))
        paths = {
            "numpy": lambda game=game: VectorRegrets(game, "cfr+", horizon=10**6),
            "compiled float64": lambda game=game: CompiledRegrets(game, RULES["cfr+"]),
            "compiled float32": lambda game=game: CompiledRegrets(
                game, RULES["cfr+"], storage="float32"
            ),
        }
        for label, make in paths.items():
            count = max(2, iterations // 5) if label == "numpy" else iterations
            setup, seconds = _per_iteration(make, count)
            print(
                f"| {name} | {numbering.num_leaves:,} × {game.num_hands(0):,} | {label} | "
                f"{setup:.2f} | {seconds * 1e3:.2f} | {2 * pairs / (seconds * 1e6):.0f} |",
                flush=True,
            )


def _target_rows(river: StructuredGame, quick: bool) -> None:
    print(
        "\n| algorithm | path | iterations | solver s (wall) | CPU s (whole call) "
        "| exploitability |"
    )
    print("|---|---|---|---|---|---|")
    runs = [("cfr+", "compiled"), ("dcfr", "compiled"), ("pcfr+", "compiled")]
    if not quick:
        runs.append(("cfr+", "numpy"))
    for algorithm, engine in runs:
        start = time.process_time()
        result = vector_cfr(river, algorithm, Stopping(target=TARGET, every=100), engine=engine)
        cpu = time.process_time() - start
        print(
            f"| {algorithm} | {engine} | {result.iterations:,} | {result.seconds:.2f} | "
            f"{cpu:.2f} | {result.nash_conv / 2:.4f} "
            f"({result.nash_conv / 2 / 10:.3%} of the pot) |",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    """Print both tables."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.vcfr_speed", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="leave out the numpy run to 0.1%%")
    parser.add_argument("--turn", action="store_true", help="also the full-range turn")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    river = _spot(FULL_RIVER)
    games = {
        "full-range river": (river, 50),
        "leduc(ranks=13, suits=4)": (leduc_structured(13, 4), 20),
    }
    if args.turn:
        games["full-range turn"] = (_spot(FULL_TURN), 5)
    _iteration_rows(games)
    _target_rows(river, args.quick)
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
