"""Vector CFR's iteration, numpy against the compiled kernels, and the time to 0.1% of the pot.

``python -m benchmarks.vcfr_speed [--quick] [--turn] [--document]`` prints two tables:

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

``--document`` prints instead the time to write the JSON document of ``iterate`` on the
full-range turn (CFR+, ``--iterations 20``: 2.4 million information sets, 6.2 million
actions, 1.1 GB of text), made but not written to disk, both ways in one run: each
strategy's information sets as objects (:func:`~seqform.documents.objects.strategy_json`'s
dicts, then :func:`~seqform.io.json_text.indented_json`: how ``--format json`` wrote them
before), one player at a time (both at once take about 6 GB), and the whole document as
``--format json`` writes it now (:func:`~seqform.documents.objects.strategies_for_json`,
:func:`~seqform.io.documents.document_chunks`); wall and CPU seconds, and whether the two
texts of each strategy are the same (their MD5).

Timings are one run on a shared machine: the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.spots import EVERY_COMBO, FULL_RIVER
from seqform.documents.iterate import iterate_document
from seqform.documents.objects import action_words, strategies_for_json, strategy_json
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import StructuredGame
from seqform.holdem.game import spot_game
from seqform.holdem.spot import read_spot
from seqform.io.documents import document_chunks
from seqform.io.json_text import indented_json
from seqform.iterative.rules import RULES
from seqform.iterative.run import Stopping
from seqform.questions.iterate import iterate
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
DOCUMENT_ITERATIONS = 20  # CFR+ iterations before the turn's document is written


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


def _timed(make: object) -> tuple[object, float, float]:
    """``make()``, its wall and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    made = make()  # type: ignore[operator]
    return made, time.perf_counter() - wall, time.process_time() - cpu


def _row(name: str, way: str, wall: float, cpu: float, text: str) -> None:
    digest = hashlib.md5(text.encode()).hexdigest()[:8]
    print(f"| {name} | {way} | {wall:.2f} | {cpu:.2f} | {len(text) / 1e6:,.0f} | {digest} |")


def _document_rows() -> None:
    """The turn's ``iterate`` document made both ways (module docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "turn.toml"
        path.write_text(FULL_TURN)
        run = iterate(str(path), "cfr+", iterations=DOCUMENT_ITERATIONS, reference=False)
    words = action_words(run.game)
    names = run.game.player_names
    print("| strategy | way | wall s | CPU s | MB | MD5 |")
    print("|---|---|---|---|---|---|")
    before = [0.0, 0.0]
    for strategy in run.result.strategies:
        name = names[strategy.player]
        text, wall, cpu = _timed(
            lambda s=strategy, n=name: indented_json(strategy_json(s, n, words))
        )
        assert isinstance(text, str)
        _row(name, "objects", wall, cpu, text)
        before = [before[0] + wall, before[1] + cpu]
        del text
        gc.collect()
        with strategies_for_json():
            entry = strategy_json(strategy, name, words)
        text, wall, cpu = _timed(lambda e=entry: indented_json(e))
        assert isinstance(text, str)
        _row(name, "from arrays", wall, cpu, text)
        del text

    def whole() -> int:
        with strategies_for_json():
            document = iterate_document(run)
        return sum(len(chunk) for chunk in document_chunks(document))

    size, wall, cpu = _timed(whole)
    print(f"| the document | as written now | {wall:.2f} | {cpu:.2f} | {size / 1e6:,.0f} | |")
    print(
        f"\nboth strategies as objects: {before[0]:.2f} s wall, {before[1]:.2f} s CPU; "
        f"the whole document now {wall:.2f} s, {cpu:.2f} s: {before[0] / wall:.1f} and "
        f"{before[1] / cpu:.1f} times faster"
    )


def main(argv: list[str] | None = None) -> int:
    """Print both tables."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.vcfr_speed", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="leave out the numpy run to 0.1%%")
    parser.add_argument("--turn", action="store_true", help="also the full-range turn")
    parser.add_argument(
        "--document", action="store_true", help="only the full-range turn's JSON document"
    )
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.document:
        _document_rows()
        print(f"load average {os.getloadavg()[0]:.1f}")
        return 0
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
