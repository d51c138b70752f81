"""Stopping Clarabel early and polishing its point (:mod:`seqform.lp.polish`), against
letting it converge, on the structured route's LPs, in one process so that every arm sees
the same load.

Run ``python -m benchmarks.clarabel_polish [--games liars_dice(sides=6),...]
[--stops 0.6,-3,-2,-1]``.  Per game: Clarabel run to its own tolerance as the route runs it
(iterations ``N``, CPU seconds, the certified relative exploitability), then Clarabel
stopped at each iteration of ``--stops`` (a fraction of ``N`` or ``N`` minus a count): its
CPU seconds, the relative exploitability of its point as it is, then the point polished at
each ratio of :data:`~seqform.lp.polish.CLEAR_RATIOS` until one passes the certificate
(1e-9 of the payoff range): the CPU seconds of the polishes and their certificates, and
each polished point's relative exploitability.  CPU seconds are this process's user + system
time: on a shared machine the wall-clock is mostly waiting.

This is a benchmark, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import resource

import numpy as np

from seqform.certify import is_certified
from seqform.game.builtin.registry import load_structured_game
from seqform.lp import clarabel as clarabel_lp
from seqform.lp.polish import polished_points
from seqform.lp.presolve import reduce_problem
from seqform.lp.problem import FloatSolution
from seqform.lp.solvers import optimal_stats
from seqform.routes.structured import _build, _lifted, _strategies, clarabel_refinement
from seqform.structured.lp_solve import clarabel_tolerance, structured_problem
from seqform.structured.responses import certify

DEFAULT_GAMES = (
    "liars_dice(sides=6)",
    "liars_dice(sides=7)",
    "liars_dice(sides=8)",
    "leduc(ranks=13, suits=4)",
)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _clarabel(problem, tolerance: float, refinement: bool, max_iter: int | None):
    """Clarabel on the presolved LP as :func:`~seqform.lp.clarabel.run_clarabel` runs it,
    stopped after ``max_iter`` iterations when given; its point on ``problem``."""
    reduction = reduce_problem(problem)
    form = clarabel_lp._conic_form(reduction.problem)
    settings = clarabel_lp._settings(None, False, tolerance, refinement)
    if max_iter is not None:
        settings.max_iter = max_iter
    result = clarabel_lp._solve_here(reduction.problem, form, settings)
    primal, duals = clarabel_lp._answer(result, form, reduction.problem.shape[0], reduction)
    stats = optimal_stats(
        "clarabel",
        "interior point",
        seconds=0.0,
        iterations=result.iterations,
        shape=problem.shape,
        nonzeros=problem.matrix.nnz,
    )
    return FloatSolution(
        float(problem.objective @ primal),
        primal,
        duals,
        problem.matrix @ primal,
        stats,
        plans=problem.plans,
    )


def run_game(name: str, stops: list[float]) -> None:
    game = load_structured_game(name)
    lp, reduction = _build(game, True, None)
    problem = structured_problem(lp)
    tolerance, refinement = clarabel_tolerance(lp), clarabel_refinement(lp)

    def relative(solution: FloatSolution) -> tuple[float, bool]:
        x, y = _lifted(reduction, solution.x, solution.y)
        certificate = certify(game, *_strategies(game, x, y, True))
        return float(certificate.relative_exploitability), is_certified(certificate)

    load, start = os.getloadavg()[0], _cpu()
    full = _clarabel(problem, tolerance, refinement, None)
    seconds = _cpu() - start
    exploit, _ = relative(full)
    iterations = full.stats.iterations
    print(
        f"{name}: {problem.shape[0]:,} × {problem.shape[1]:,}; converged {iterations} it. "
        f"{seconds:.1f} s CPU, relative exploitability {exploit:.1e} (load {load:.1f})",
        flush=True,
    )
    for stop in stops:
        at = round(stop * iterations) if 0 < stop < 1 else iterations + int(stop)
        load, start = os.getloadavg()[0], _cpu()
        point = _clarabel(problem, tolerance, refinement, at)
        clarabel_seconds = _cpu() - start
        raw, _ = relative(point)
        start, tried, after, certified = _cpu(), [], np.nan, False
        for polished in polished_points(problem, point):
            after, certified = relative(polished)
            tried.append(f"{after:.1e}")
            if certified:
                break
        polish_seconds = _cpu() - start
        print(
            f"  stopped at {at:3d} it.: Clarabel {clarabel_seconds:6.1f} s, point {raw:.1e}; "
            f"polish and certificates {polish_seconds:5.1f} s, polished {', '.join(tried)} "
            f"{'certified' if certified else 'not certified'} (load {load:.1f})",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=";".join(DEFAULT_GAMES), help="';'-separated")
    parser.add_argument("--stops", default="0.6,-3,-2,-1")
    args = parser.parse_args()
    stops = [float(s) for s in args.stops.split(",")]
    for name in args.games.split(";"):
        run_game(name, stops)


if __name__ == "__main__":
    main()
