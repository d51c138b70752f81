"""Where the full-range river LP's time goes, and what suit isomorphism and the solver's
choice give: one run, each case solved in turn in this process, so the ratios are measured
under one load.

Run ``python -m benchmarks.river_lp [--boards rainbow,two-tone,monotone] [--solvers]``.
The spot is the one of ``benchmarks.spots`` (every combo for both players; pot 10, stacks
100, bets of half and one pot, raises of one pot) on three boards: the benchmark's rainbow
``Ks7h2d9c4s`` (no suit permutation maps it onto itself), a two-tone ``Ks7s2d9d4d`` (clubs
and hearts may be swapped: 2 permutations) and a monotone ``Ks9s7s4s2s`` (clubs, diamonds
and hearts permuted: 6).  Per case: building the game and its LP (with the reduction when
on), the LP solve, the strategies and certificate, the LP's size and the exploitability as a
share of the pot, certified on the unreduced spot.  ``--solvers`` also solves the rainbow
LP with Clarabel and with HiGHS's interior point without presolve and with the dualised
IPX, to compare with the default (HiGHS ipm without crossover, gap 1e-10).  The machine's
load average is printed: on a shared machine the seconds are as noisy as the load says,
the ratios within one run less so.

This is a benchmark, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass
from fractions import Fraction

from benchmarks.spots import EVERY_COMBO
from seqform.holdem.game import spot_game
from seqform.holdem.spot import spot_from_mapping
from seqform.routes.structured import LPChoice, solve_structured

BOARDS = {"rainbow": "Ks7h2d9c4s", "two-tone": "Ks7s2d9d4d", "monotone": "Ks9s7s4s2s"}
POT = 10


@dataclass(frozen=True)
class Case:
    """One solve: the board, whether suits were merged, the solver, the phases' seconds,
    the LP solved (rows, columns, non-zeros), the permutations, the exploitability (share
    of the pot) on the unreduced spot."""

    board: str
    reduced: bool
    solver: str
    build: float
    solve: float
    certify: float
    total: float
    lp: tuple[int, int, int]
    permutations: int
    pot_share: float


def _spot(board: str):  # type: ignore[no-untyped-def]
    mapping = {
        "board": board,
        "pot": POT,
        "effective_stack": 100,
        "oop_range": EVERY_COMBO,
        "ip_range": EVERY_COMBO,
        "bet_sizes": [0.5, 1.0],
        "raise_sizes": [1.0],
    }
    return spot_from_mapping(mapping, f"full river {board}")


def run_case(name: str, reduced: bool, solver: str | None = None) -> Case:
    """Solve the full-range river on board ``name`` once and time its phases."""
    start = time.perf_counter()
    game = spot_game(_spot(BOARDS[name]))
    chosen = None if solver is None else solver
    solution = solve_structured(game, solver=chosen, suit_isomorphism=reduced)  # type: ignore[arg-type]
    total = time.perf_counter() - start
    timings = solution.timings
    sizes = solution.suit_reduction
    shape = (solution.stats.constraints, solution.stats.variables, solution.stats.nonzeros)
    share = float(Fraction(solution.certificate.exploitability)) / POT
    return Case(
        board=name,
        reduced=sizes is not None,
        solver=solver or str(LPChoice("ipm", crossover=False)),
        build=float(timings.sequence_form),
        solve=float(timings.lp),
        certify=float(timings.certificate),
        total=total,
        lp=shape,
        permutations=1 if sizes is None else sizes.group_order,
        pot_share=share,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="rainbow,two-tone,monotone")
    parser.add_argument("--solvers", action="store_true", help="other solvers on the rainbow")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    cases: list[tuple[str, bool, str | None]] = []
    for name in args.boards.split(","):
        cases.append((name, True, None))
        if name != "rainbow":
            cases.append((name, False, None))
    if args.solvers:
        cases.append(("rainbow", False, "clarabel"))
    print(
        "board     merged solver                  build   LP solve  certify  total    "
        "LP rows × cols, nnz           perms  exploit. (% pot)"
    )
    for name, reduced, solver in cases:
        case = run_case(name, reduced, solver)
        rows, columns, nonzeros = case.lp
        print(
            f"{case.board:9s} {'yes' if case.reduced else 'no':6s} {case.solver:22s} "
            f"{case.build:6.1f} s {case.solve:7.1f} s {case.certify:6.1f} s {case.total:6.1f} s  "
            f"{rows:7,} × {columns:7,}, {nonzeros:9,}  {case.permutations:5d}  "
            f"{100 * case.pot_share:.2e}",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
