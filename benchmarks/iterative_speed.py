"""Seconds per CFR+ iteration: seqform's against OpenSpiel's python and C++ solvers.

Run ``python -m benchmarks.iterative_speed`` (needs open_spiel).  For each game it times
``ITERATIONS`` iterations of seqform's :func:`seqform.iterative.cfr.cfr_plus` (NashConv
measured only at the end and not timed), a few of OpenSpiel's python
``cfr.CFRPlusSolver`` (it is slow) and ``ITERATIONS`` of the C++
``pyspiel.CFRPlusSolver``; set-up (building the game, the solver's tables) is not
timed.  It prints seconds per iteration, the two ratios the issue asks for, and NashConv
after ``ITERATIONS`` iterations by seqform's certificate and by OpenSpiel's
``nash_conv`` of the C++ average policy.
"""

from __future__ import annotations

import argparse
import time

from seqform.game.loader import load_game
from seqform.iterative.cfr import cfr_plus

GAMES = [("leduc", "leduc_poker"), ("liars_dice(sides=5)", "liars_dice(dice_sides=5,numdice=1)")]
ITERATIONS = 200
PYTHON_ITERATIONS = 3


def per_iteration(run, iterations: int) -> float:
    start = time.perf_counter()
    for _ in range(iterations):
        run()
    return (time.perf_counter() - start) / iterations


def measure(ours: str, theirs: str, iterations: int, python_iterations: int) -> dict:
    import pyspiel
    from open_spiel.python.algorithms import cfr as openspiel_cfr
    from open_spiel.python.algorithms import exploitability

    game = load_game(ours)
    result = cfr_plus(game, iterations, every=iterations)
    openspiel_game = pyspiel.load_game(theirs)
    python_solver = openspiel_cfr.CFRPlusSolver(openspiel_game)
    python = per_iteration(python_solver.evaluate_and_update_policy, python_iterations)
    cpp_solver = pyspiel.CFRPlusSolver(openspiel_game)
    cpp = per_iteration(cpp_solver.evaluate_and_update_policy, iterations)
    cpp_nash_conv = exploitability.nash_conv(openspiel_game, cpp_solver.average_policy())
    return {
        "game": ours,
        "seqform": result.seconds / result.iterations,
        "openspiel_python": python,
        "openspiel_cpp": cpp,
        "seqform_nash_conv": result.nash_conv,
        "cpp_nash_conv": cpp_nash_conv,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--python-iterations", type=int, default=PYTHON_ITERATIONS)
    args = parser.parse_args()
    print(f"CFR+ seconds per iteration ({args.iterations} iterations; python OpenSpiel "
          f"{args.python_iterations})")  # fmt: skip
    header = (
        f"{'game':22} {'seqform':>10} {'OS python':>10} {'OS C++':>10} "
        f"{'py/ours':>8} {'C++/ours':>9} {'NashConv ours':>14} {'NashConv C++':>13}"
    )
    print(header)
    for ours, theirs in GAMES:
        row = measure(ours, theirs, args.iterations, args.python_iterations)
        print(
            f"{row['game']:22} {row['seqform']:10.2e} {row['openspiel_python']:10.2e} "
            f"{row['openspiel_cpp']:10.2e} {row['openspiel_python'] / row['seqform']:8.0f} "
            f"{row['openspiel_cpp'] / row['seqform']:9.1f} {row['seqform_nash_conv']:14.3e} "
            f"{row['cpp_nash_conv']:13.3e}"
        )


if __name__ == "__main__":
    main()
