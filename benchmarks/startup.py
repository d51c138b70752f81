"""Whole-process start-up: ``seqform --help``, ``solve kuhn`` and ``solve leduc`` against
OpenSpiel's ``sequence_form_lp`` on Leduc.

Run ``python -m benchmarks.startup [--repeat N]``.  Each command runs as a fresh
``python -m seqform ...`` process, N times; the best wall-clock time is reported, since the
best run is the one least disturbed by the rest of the machine.  OpenSpiel's run is a fresh
``python -c`` that imports ``pyspiel`` and ``sequence_form_lp``, loads ``leduc_poker`` and
solves it with OpenSpiel's default solver (ECOS through cvxpy), so both sides pay their
imports as a user does.  The last line is OpenSpiel's time over seqform's on Leduc (the issue
asks for more than 3); it is skipped when open_spiel is not installed
(``pip install seqform[openspiel]``).

This is a benchmark, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from dataclasses import dataclass

OPENSPIEL_LEDUC = (
    "import pyspiel\n"
    "from open_spiel.python.algorithms import sequence_form_lp\n"
    "value = sequence_form_lp.solve_zero_sum_game(pyspiel.load_game('leduc_poker'))[0]\n"
    "print(value)"
)


@dataclass(frozen=True)
class Timing:
    """The best of ``runs`` whole-process wall-clock times of one command, in seconds."""

    label: str
    best: float
    runs: int


def best_of(label: str, command: list[str], runs: int) -> Timing:
    """Run ``command`` ``runs`` times in fresh processes; keep the fastest wall-clock time."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return Timing(label, min(times), runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (best kept)")
    args = parser.parse_args()
    seqform = [sys.executable, "-m", "seqform"]
    timings = [
        best_of("seqform --help", [*seqform, "--help"], args.repeat),
        best_of("seqform solve kuhn", [*seqform, "solve", "kuhn"], args.repeat),
        best_of("seqform solve leduc", [*seqform, "solve", "leduc"], args.repeat),
    ]
    if importlib.util.find_spec("pyspiel") is not None:
        openspiel = [sys.executable, "-c", OPENSPIEL_LEDUC]
        timings.append(best_of("OpenSpiel sequence_form_lp leduc", openspiel, args.repeat))
    for timing in timings:
        print(f"{timing.label:34} {timing.best:7.3f} s  (best of {timing.runs})")
    if len(timings) == 4:
        print(f"{'Leduc: OpenSpiel / seqform':34} {timings[3].best / timings[2].best:7.2f} x")
    else:
        print("open_spiel is not installed: no Leduc ratio (pip install seqform[openspiel])")


if __name__ == "__main__":
    main()
