"""Where a re-solving gadget LP's time goes, and which solver to give it.

One subgame of round 2 (the first public card), player 1 re-solving it against an
abstraction 3,9 blueprint: the stages of :mod:`seqform.resolving.structured_resolve`
(prepare: ranges and targets; build: the gadget's structured LP) and the LP solved by each
of HiGHS's dual simplex, HiGHS's interior point with crossover and Clarabel, each answer
certified by the gadget game's best responses (its NashConv).  The ratios in one run are
what :func:`seqform.resolving.public_gadgets.gadget_solver` is chosen from; seconds on a
shared machine are not timings.

    nice -n 19 python -m benchmarks.gadget_solvers --output benchmarks/results/gadget_solvers.md
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

from seqform.abstraction.solve import abstract
from seqform.forms.strategies import plan_from_behaviour
from seqform.game.builtin.leduc import leduc_structured
from seqform.lp.solvers import SolverError
from seqform.resolving.blueprints import blueprint_on
from seqform.resolving.public_gadgets import gadget_lp, solve_gadget
from seqform.resolving.public_subgames import find_public_subgames
from seqform.resolving.subgame_runs import prepare

SOLVERS = ("simplex", "ipm", "clarabel")


def _rows(ranks: int, suits: int, gadget: str) -> list[str]:
    game = leduc_structured(ranks, suits)
    blueprint = abstract(game, "3,3" if ranks * suits < 9 else "3,9").strategies
    first, second = blueprint_on(game, blueprint)
    profile = (first.to_float(), second.to_float())
    subgame = find_public_subgames(game, 2)[0]
    start = time.perf_counter()
    item = prepare(game, subgame, 0, profile, plan_from_behaviour(profile[0]))
    assert item is not None
    prepared = time.perf_counter() - start
    start = time.perf_counter()
    built = gadget_lp(
        item.sub,
        gadget,
        item.hands,
        np.asarray(item.weights, dtype=float),
        np.asarray(item.targets, dtype=float),
    )
    building = time.perf_counter() - start
    label = f"Leduc {ranks}×{suits}"
    rows = [
        f"| {label} | prepare | | {prepared:.2f} | |",
        f"| {label} | build | | {building:.2f} | |",
    ]
    first = None
    for solver in SOLVERS:
        start = time.perf_counter()
        try:
            answer = solve_gadget(built, solver)
            cell = f"{answer.nash_conv:.1e}"
        except SolverError as exc:
            cell = f"-- ({str(exc)[:60]})"
        seconds = time.perf_counter() - start
        first = first or seconds
        rows.append(
            f"| {label} ({built.lp.shape[1]:,} columns) | {solver} | {cell} | {seconds:.2f} "
            f"| {seconds / first:.2f} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", help="the Markdown file (default stdout)")
    parser.add_argument("--decks", nargs="*", default=["3x4", "4x4", "6x4", "13x4"])
    parser.add_argument("--gadget", default="maxmargin")
    args = parser.parse_args()
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    write("# A gadget LP's time: stages and solvers\n")
    write(f"Run {time.strftime('%Y-%m-%d %H:%M %Z')}, load average at the start {load} ")
    write(
        f"(2 cores, shared). Command: `nice -n 19 python -m benchmarks.gadget_solvers "
        f"{' '.join(sys.argv[1:])}`\n"
    )
    write(f"`{args.gadget}` gadget, one subgame, player 1 re-solving.\n")
    write("| game | stage or solver | gadget NashConv | s | ratio to simplex |")
    write("|---|---|---|---|---|")
    for deck in args.decks:
        ranks, suits = (int(part) for part in deck.split("x"))
        for row in _rows(ranks, suits, args.gadget):
            write(row)
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
