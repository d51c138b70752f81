"""The re-solving table of Brown and Sandholm (Libratus, Science 2018) on seqform's games.

They report exploitability in mbb/game of no re-solving, unsafe and safe re-solving on their
small and large two-round and three-round hold'em (91.3 / 41.3 / 346, 5.51 / 397 / 79.3,
22.6 / 9.84 / 72.6).  This runs the analogue on seqform's games, with blueprints from a card
abstraction lifted to the full game (the blueprint of an abstraction, as theirs) and from
CFR:

* Leduc decks small enough for the gadget games as trees (``--ranks``), with the refined
  (quasi-perfect) gadget equilibrium as well;
* Leduc 13×4 and Rhode Island hold'em (3 ranks × 4 suits, two bets a round: 235,705
  sequences per player; the full deck's 6.7 billion nodes are out of reach, and the 4- to
  6-rank decks' blueprints took longer than a table should) on the structured path, each
  gadget a structured LP (``seqform.resolving.structured_resolve``).  Their blueprints: the
  abstraction ``3,9`` (Leduc) or ``3,6,9`` (Rhode Island), and vector CFR+.

Units: mbb/g is thousandths of the big blind per game; for Leduc the big blind is the ante
(one chip), for Rhode Island the first round's bet (10 chips, twice the ante of 5).

    python benchmarks/resolve_table.py > benchmarks/results/resolve_table.md
"""

from __future__ import annotations

import argparse
import time

from seqform.abstraction.solve import abstract
from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.game.public.tree import StructuredGame
from seqform.iterative.run import Stopping
from seqform.questions.iterate import iterate
from seqform.resolving.paths import resolve
from seqform.resolving.resolve import GADGETS
from seqform.structured.vector_cfr import vector_cfr

HEADER = (
    "| game | round | blueprint | re-solve | path | blueprint mbb/g | re-solved mbb/g "
    "| min margin | gadget NashConv | seconds |"
)
LIBRATUS = """
Brown and Sandholm (Science 2018, Table 1), mbb/g, their games:

| | small 2-round hold'em | large 2-round hold'em | 3-round hold'em |
|---|---|---|---|
| no re-solving | 91.3 | 41.3 | 346 |
| unsafe | 5.51 | 397 | 79.3 |
| safe | 22.6 | 9.84 | 72.6 |
"""


def _row(label: str, round_number: int, name: str, result, unit: float, seconds: float) -> str:
    margin = "-" if result.min_margin is None else f"{result.min_margin:.3g}"
    refined = " refined" if result.refined else ""
    return (
        f"| {label} | {round_number} | {name} | {result.gadget}{refined} | {result.path} "
        f"| {1000 * result.blueprint_exploitability / unit:.1f} "
        f"| {1000 * result.exploitability / unit:.1f} | {margin} "
        f"| {result.max_gadget_nash_conv:.1e} | {seconds:.1f} |"
    )


def _tree_rows(ranks: int, suits: int, refine: bool) -> list[str]:
    game = leduc_poker(ranks, suits)
    blueprints = {
        "1-bucket abstraction": abstract(leduc_structured(ranks, suits), "1,1").strategies,
        "CFR, 10 iterations": iterate(game, algorithm="cfr", iterations=10).result.strategies,
    }
    rows = []
    for name, blueprint in blueprints.items():
        for gadget in GADGETS:
            for refined in (False, True) if refine else (False,):
                start = time.perf_counter()
                result = resolve(game, blueprint, gadget=gadget, refine=refined)
                rows.append(
                    _row(
                        f"Leduc {ranks}×{suits}", 2, name, result, 1.0, time.perf_counter() - start
                    )
                )
    return rows


def _structured_rows(
    label: str, game: StructuredGame, buckets: str, rounds: list[int], unit: float, iterations: int
) -> list[str]:
    blueprints = {
        f"abstraction {buckets}": abstract(game, buckets).strategies,
        f"CFR+, {iterations} iterations": vector_cfr(
            game, "cfr+", Stopping(iterations=iterations, every=iterations)
        ).strategies,
    }
    rows = []
    for name, blueprint in blueprints.items():
        for round_number in rounds:
            for gadget in GADGETS:
                start = time.perf_counter()
                result = resolve(game, blueprint, round_number=round_number, gadget=gadget)
                row = _row(label, round_number, name, result, unit, time.perf_counter() - start)
                print(row, flush=True)
                rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, nargs="*", default=[2])
    parser.add_argument("--no-refine", action="store_true")
    parser.add_argument("--skip", nargs="*", default=[], choices=["leduc", "rhode_island"])
    args = parser.parse_args()
    print(HEADER)
    print("|---|---|---|---|---|---|---|---|---|---|")
    for ranks in args.ranks:
        for row in _tree_rows(ranks, 2, not args.no_refine):
            print(row, flush=True)
    if "leduc" not in args.skip:
        _structured_rows("Leduc 13×4", leduc_structured(13, 4), "3,9", [2], 1.0, 100)
    if "rhode_island" not in args.skip:
        game = rhode_island_structured(3, 4, max_bets=2)
        _structured_rows("Rhode Island 3×4, 2 bets", game, "3,6,9", [3, 2], 10.0, 100)
    print(LIBRATUS)


if __name__ == "__main__":
    main()
