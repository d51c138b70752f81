"""Vector CFR against its targets, and beside the tree's CFR where the tree fits.

``python -m benchmarks.vcfr [--quick] [--game SPEC]`` runs CFR+ on the public tree × hands
(:mod:`seqform.structured.vector_cfr`) for each case, one process per case so that the peak
memory (``ru_maxrss``) is that case's, and prints the solver seconds, the whole process's
seconds (wall clock, and the CPU seconds it used: on a shared machine the wall clock also
counts the time other processes had the cores), the peak memory, NashConv, and the target
it is held to.  ``--quick`` runs a tenth of the iterations (the solver seconds are then scaled
up in the table, marked "≈"; the set-up is counted once); ``--game`` runs the cases of one
game only.  Timings are one run on a shared machine: read them as orders of magnitude and
ratios measured in one run.

Every case is one target: 1,000 CFR+ iterations, the whole process (building the
tables, the iterations, the certificate, writing the complete JSON document).  Kuhn with
10^5 cards ran 100 iterations here until seqform ``e04418c`` (13.1 s of solver time, 34.6 s
whole): at 0.13 s an iteration then, 1,000 would not have fitted in 60 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

__all__ = ["CASES", "Case", "main"]


@dataclass(frozen=True)
class Case:
    """One target: ``iterations`` of CFR+ on ``game`` within ``seconds`` and ``gib``."""

    game: str
    iterations: int
    seconds: float
    gib: float


CASES = (
    Case("leduc(ranks=13, suits=4)", 1000, 60.0, 2.0),
    Case("liars_dice(sides=8)", 1000, 120.0, 4.0),
    Case("kuhn(cards=100000)", 1000, 60.0, 4.0),
)


def _run(case: Case, iterations: int) -> dict[str, float]:
    """One case in a child process: solver seconds, NashConv, whole seconds (wall and CPU),
    peak GiB."""
    argv = [
        sys.executable,
        "-m",
        "seqform",
        "iterate",
        case.game,
        "--algorithm",
        "cfr+",
        "--method",
        "structured",
        "--iterations",
        str(iterations),
        "--every",
        str(iterations),
        "--no-reference",
        "--quiet",
        "--format",
        "json",
    ]
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as output:
        child = subprocess.Popen(argv, stdout=output, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak memory
        child.returncode = os.waitstatus_to_exitcode(status)
        whole = time.perf_counter() - start
        if child.returncode != 0:
            raise RuntimeError(f"{case.game}: exit code {child.returncode}")
        output.seek(0)
        document = json.load(output)
    peak = usage.ru_maxrss / 2**20  # KiB -> GiB
    return {
        "solver": document["seconds"],
        "nash_conv": document["nash_conv"],
        "whole": whole,
        "cpu": usage.ru_utime + usage.ru_stime,
        "gib": peak,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the cases and print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.vcfr", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a tenth of the iterations")
    parser.add_argument("--game", help="only the case of this game, e.g. 'kuhn(cards=100000)'")
    args = parser.parse_args(argv)
    cases = [case for case in CASES if args.game in (None, case.game)]
    if not cases:
        parser.error(f"no case for {args.game!r}; the cases: {', '.join(c.game for c in CASES)}")
    print("| game | iterations | solver s | whole s | whole CPU s | peak GiB | NashConv | target |")
    print("|---|---|---|---|---|---|---|---|")
    for case in cases:
        iterations = max(1, case.iterations // 10) if args.quick else case.iterations
        measured = _run(case, iterations)
        scale = case.iterations / iterations
        mark = "≈" if scale != 1 else ""
        print(
            f"| {case.game} | {case.iterations:,} | {mark}{measured['solver'] * scale:.1f} | "
            f"{mark}{measured['whole'] + measured['solver'] * (scale - 1):.1f} | "
            f"{mark}{measured['cpu'] + measured['solver'] * (scale - 1):.1f} | "
            f"{measured['gib']:.2f} | "
            f"{measured['nash_conv']:.3g} | ≤ {case.seconds:.0f} s, ≤ {case.gib:g} GiB |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
