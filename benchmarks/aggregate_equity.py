"""What a flop's equity costs in ``solve-many``'s aggregate row: the range equity by exact
enumeration of every turn and river (:func:`seqform.holdem.aggregate.range_equity`), timed
beside building the spot's game, on the same ranges on a river, a turn and a flop.

Run ``python -m benchmarks.aggregate_equity [--combos N]``.  The ranges are the first ``N``
combos (default 60 a side) of two wide ranges, so the three streets deal the same hands; the
spot's betting is one pot-sized bet, all-in only after it.  Printed: per street the seconds to
build the game and to compute both equities, and the equity's time over the game's (ratios
from one run; the machine's load moves the seconds, much less the ratios).  docs/spots.md
quotes a run.
"""

from __future__ import annotations

import argparse
import time

from seqform.holdem.aggregate import range_equity
from seqform.holdem.game import spot_game
from seqform.holdem.spot import spot_from_mapping

OOP = "22+,A2s+,K8s+,Q9s+,J9s+,T9s,98s,ATo+,KJo+"
IP = "22+,A2s+,K5s+,Q8s+,J8s+,T8s+,97s+,86s+,76s,A9o+,KTo+,QTo+,JTo"
BOARDS = {"river": "Ks7h2d9c4s", "turn": "Ks7h2d9c", "flop": "Ks7h2d"}


def _ranges(combos: int) -> tuple[str, str]:
    """The first ``combos`` combos of each range (none holding a card of the river board)."""
    from seqform.holdem.cards import combo_text
    from seqform.holdem.ranges import parse_range

    board = set(spot_from_mapping(_spot("Ks7h2d9c4s", OOP, IP)).board)
    found = []
    for text in (OOP, IP):
        kept = [c for c in parse_range(text).combos if board.isdisjoint(c)][:combos]
        found.append(",".join(combo_text(c) for c in kept))
    return found[0], found[1]


def _spot(board: str, oop: str, ip: str) -> dict[str, object]:
    return {
        "board": board,
        "pot": 10,
        "effective_stack": 10,
        "oop_range": oop,
        "ip_range": ip,
        "bet_sizes": [1],
        "max_raises": 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--combos", type=int, default=60, help="combos a side (default 60)")
    args = parser.parse_args()
    oop, ip = _ranges(args.combos)
    print(f"{args.combos} combos a side; seconds (equity over game build)")
    for street, board in BOARDS.items():
        start = time.perf_counter()
        game = spot_game(spot_from_mapping(_spot(board, oop, ip), street))
        built = time.perf_counter() - start
        start = time.perf_counter()
        equities = (range_equity(game, 0), range_equity(game, 1))
        spent = time.perf_counter() - start
        print(
            f"{street:5}  game {built:7.2f} s  equity {spent:7.2f} s  ({spent / built:5.2f}x)"
            f"  OOP {100 * equities[0]:.2f}%  IP {100 * equities[1]:.2f}%"
        )


if __name__ == "__main__":
    main()
