"""Liar's Dice's structured LP with Clarabel, with and without the presolve of
:mod:`seqform.lp.presolve` (the one-action information sets taken out), back to back in one
process so that both arms see the same load.

Run ``python -m benchmarks.liars_dice_lp [--sides 6,7,8]``.  Per game and arm: the LP's
size as Clarabel sees it, Clarabel's iterations, the LP solve's wall-clock and CPU seconds
(this process's user + system time: on a shared machine the wall-clock is mostly waiting,
the CPU seconds are what the solve costs), the exploitability of the certified answer (best
responses on the public tree × hands) and the load average before the solve.

This is a benchmark, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from dataclasses import dataclass

from seqform.game.builtin.liars_dice import liars_dice_structured
from seqform.lp.presolve import reduce_problem
from seqform.routes.structured import _strategies, clarabel_refinement
from seqform.structured.lp_model import build_structured_lp
from seqform.structured.lp_solve import solve_structured_lp, structured_problem
from seqform.structured.responses import certify


@dataclass(frozen=True)
class Arm:
    """One solve: the game, whether presolved, the LP's (rows, columns) as solved,
    iterations, wall and CPU seconds, exploitability, load average before."""

    sides: int
    presolve: bool
    shape: tuple[int, int]
    iterations: int
    wall: float
    cpu: float
    exploitability: float
    load: float


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_arm(sides: int, presolve: bool) -> Arm:
    """Build liars_dice(sides)'s structured LP, solve it with Clarabel as the route does
    (``presolve`` on or off) and certify the answer."""
    game = liars_dice_structured(sides)
    lp = build_structured_lp(game)
    problem = structured_problem(lp)
    shape = reduce_problem(problem).problem.shape if presolve else problem.shape
    load = os.getloadavg()[0]
    start, cpu = time.perf_counter(), _cpu()
    solution = solve_structured_lp(
        lp, refinement=clarabel_refinement(lp), almost=True, presolve=presolve
    )
    wall, cpu = time.perf_counter() - start, _cpu() - cpu
    certificate = certify(game, *_strategies(game, solution.x, solution.y, True))
    return Arm(
        sides,
        presolve,
        shape,
        solution.stats.iterations,
        wall,
        cpu,
        float(certificate.exploitability),
        load,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", default="6,7,8")
    args = parser.parse_args()
    print("game             presolve  LP rows × columns     it.   wall      CPU     exploit.  load")
    for sides in (int(s) for s in args.sides.split(",")):
        for presolve in (False, True):
            arm = run_arm(sides, presolve)
            rows, columns = arm.shape
            print(
                f"liars_dice({sides})    {'yes' if presolve else 'no':8s}  "
                f"{rows:9,} × {columns:9,}  {arm.iterations:3d}  {arm.wall:6.1f} s "
                f"{arm.cpu:6.1f} s  {arm.exploitability:.2e}  {arm.load:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
