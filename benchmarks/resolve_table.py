"""The re-solving table of Brown and Sandholm (Libratus, Science 2018) on seqform's games.

They report exploitability in mbb/game of no re-solving, unsafe and safe re-solving on their
small and large two-round and three-round hold'em (91.3 / 41.3 / 346, 5.51 / 397 / 79.3,
22.6 / 9.84 / 72.6).  This runs the analogue on Leduc decks small enough for the gadget
games as trees: blueprints a one-bucket card abstraction lifted to the full game (the
blueprint of an abstraction, as theirs) and CFR after 10 iterations; the rows are the
blueprint, each gadget, and each gadget with the refined (quasi-perfect) gadget equilibrium.
mbb/g takes Leduc's ante (one chip) as the big blind.

    python benchmarks/resolve_table.py --ranks 2 > benchmarks/results/resolve_table.md
"""

from __future__ import annotations

import argparse
import time

from seqform.abstraction.solve import abstract
from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.questions.iterate import iterate
from seqform.resolving.resolve import GADGETS, resolve


def _rows(ranks: int, suits: int, refine: bool) -> list[str]:
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
                seconds = time.perf_counter() - start
                margin = "-" if result.min_margin is None else f"{result.min_margin:.3g}"
                rows.append(
                    f"| Leduc {ranks}×{suits} | {name} | {gadget}{' refined' if refined else ''} "
                    f"| {1000 * result.blueprint_exploitability:.1f} "
                    f"| {1000 * result.exploitability:.1f} | {margin} "
                    f"| {result.max_gadget_nash_conv:.1e} | {seconds:.1f} |"
                )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--suits", type=int, default=2)
    parser.add_argument("--no-refine", action="store_true")
    args = parser.parse_args()
    print(
        "| game | blueprint | re-solve | blueprint mbb/g | re-solved mbb/g | min margin "
        "| gadget NashConv | seconds |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for ranks in args.ranks:
        for row in _rows(ranks, args.suits, not args.no_refine):
            print(row, flush=True)


if __name__ == "__main__":
    main()
