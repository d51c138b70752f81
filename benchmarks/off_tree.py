"""Off-tree actions: action translation against nested re-solving, by full-game exploitability.

Ganzfried and Sandholm (IJCAI 2013) map an opponent's bet the blueprint lacks to the sizes
next to it (pseudo-harmonic, deterministic, arithmetic); Brown and Sandholm (NeurIPS 2017,
§7) re-solve the subgame after it instead (nested subgame solving) and report it far less
exploitable.  Each blueprint here is the exact equilibrium (the LP) of an abstract game with
fewer bet sizes; each row plays it in the full game and measures NashConv / 2 there:

* a river spot (the docs' Ks7h2d9c4s, smaller ranges) whose IP bets 1/2 pot and all-in in the
  abstraction and also 1 and 2 pots in the full game (mpot/g: thousandths of the pot of 10);
* Leduc 3×2 with bets of 1, 2 or 4 chips in round 1 and 2, 4 or 8 in round 2 (full),
  against Leduc's own single size (every off-tree size is outside it, so the mappings
  agree) and against the abstraction {1, 4} / {2, 8} (the own sizes lie between);
  mbb/g with the ante (one chip) as the big blind.

The "abstract game" row is the blueprint measured in its own game, where no off-tree bet can
be made.  ``nested`` uses the resolve gadget with ``T_J`` from the neighbouring sizes.

    python -m benchmarks.off_tree > benchmarks/results/off_tree.md
"""

from __future__ import annotations

import argparse
import time

from seqform.holdem.spot import spot_from_mapping
from seqform.resolving.off_tree import off_tree
from seqform.resolving.sized import SizedGame, leduc_sized, spot_sized
from seqform.resolving.translation import MAPPINGS
from seqform.routes.tree import solve_tree

SPOT = {
    "board": "Ks7h2d9c4s",
    "pot": 10,
    "effective_stack": 30,
    "oop_range": "AA,AKs,QQ:0.5,JhTh,99",
    "ip_range": "KK:0.25,AQo,QJs,77",
    "bet_sizes": [0.5],
    "raise_sizes": [1],
    "max_raises": 1,
}


def _cases(quick: bool) -> list[tuple[str, SizedGame, SizedGame]]:
    spot = (
        "river spot, IP bets {1/2, 1, 2} pot + all-in vs {1/2} + all-in",
        spot_sized(spot_from_mapping({**SPOT, "ip_bet_sizes": [0.5, 1, 2]}, "full spot")),
        spot_sized(spot_from_mapping(SPOT, "abstract spot")),
    )
    if quick:
        return [spot]
    full = leduc_sized(3, 2, bets=((1, 2, 4), (2, 4, 8)))
    return [
        spot,
        ("Leduc 3×2, bets {1,2,4}/{2,4,8} vs Leduc's {2}/{4}", full, leduc_sized(3, 2)),
        (
            "Leduc 3×2, bets {1,2,4}/{2,4,8} vs {1,4}/{2,8}",
            full,
            leduc_sized(3, 2, bets=((1, 4), (2, 8))),
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the spot only")
    args = parser.parse_args()
    print("| game | method | exploitability (chips) | per mille of unit | unit | seconds |")
    print("|---|---|---|---|---|---|")
    for name, full, abstract in _cases(args.quick):
        solution = solve_tree(abstract.game)
        blueprint = [strategy.as_dict() for strategy in solution.strategies]
        own = 1000 * float(solution.nash_conv) / 2 / float(full.unit_chips)
        print(
            f"| {name} | blueprint in the abstract game | {solution.nash_conv / 2:.4g} "
            f"| {own:.3g} | {full.unit} | - |"
        )
        runs = [("translate", mapping) for mapping in MAPPINGS] + [("nested", MAPPINGS[0])]
        for method, mapping in runs:
            start = time.perf_counter()
            result = off_tree(full, abstract, blueprint, method=method, mapping=mapping)
            seconds = time.perf_counter() - start
            label = f"translate, {mapping}" if method == "translate" else "nested, resolve gadget"
            print(
                f"| {name} | {label} | {result.exploitability:.4g} "
                f"| {result.milli_exploitability:.4g} | {result.unit} | {seconds:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
