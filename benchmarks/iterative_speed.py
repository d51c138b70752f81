"""Seconds per CFR+ iteration: seqform's against OpenSpiel's python and C++ solvers.

Run ``python -m benchmarks.iterative_speed`` (needs open_spiel): the measurement of the
``openspiel-cfr+`` peer of ``python -m benchmarks.run``
(:func:`benchmarks.convergence.cfr_plus_speed`) on Leduc and Liar's Dice with 5 sides, in
this process, printed as a table: seconds per iteration, the two ratios the speed targets read,
and NashConv after the same iterations by seqform's certificate and by OpenSpiel's
``nash_conv``.
"""

from __future__ import annotations

import argparse

from benchmarks.convergence import PYTHON_ITERATIONS, SPEED_ITERATIONS, cfr_plus_speed

GAMES = [("leduc", "leduc_poker"), ("liars_dice(sides=5)", "liars_dice(dice_sides=5,numdice=1)")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=SPEED_ITERATIONS)
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
        speed = cfr_plus_speed(ours, theirs, args.iterations, args.python_iterations).speed
        mine = speed["seqform"]["seconds_per_iteration"]
        python = speed["openspiel-python"]["seconds_per_iteration"]
        cpp = speed["openspiel-cpp"]["seconds_per_iteration"]
        print(
            f"{ours:22} {mine:10.2e} {python:10.2e} {cpp:10.2e} {python / mine:8.0f} "
            f"{cpp / mine:9.1f} {speed['seqform']['nash_conv']:14.3e} "
            f"{speed['openspiel-cpp']['nash_conv']:13.3e}"
        )


if __name__ == "__main__":
    main()
