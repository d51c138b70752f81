"""Vector CFR against its targets, and beside the tree's CFR where the tree fits (issue 21).

``python -m benchmarks.vcfr [--quick]`` runs CFR+ on the public tree × hands
(:mod:`seqform.structured.vector_cfr`) for each case, one process per case so that the peak
memory (``ru_maxrss``) is that case's, and prints the solver seconds, the whole process's
seconds, the peak memory, NashConv, and the target it is held to.  ``--quick`` runs a tenth of
the iterations (the solver seconds are then scaled up in the table, marked "≈"; the set-up is
counted once).  Timings are one
run on a shared machine: read them as orders of magnitude and ratios measured in one run.
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
    Case("kuhn(cards=100000)", 100, 60.0, 4.0),
)


def _run(case: Case, iterations: int) -> dict[str, float]:
    """One case in a child process: solver seconds, NashConv, whole seconds, peak GiB."""
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
        "gib": peak,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the cases and print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.vcfr", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a tenth of the iterations")
    args = parser.parse_args(argv)
    print("| game | iterations | solver s | whole s | peak GiB | NashConv | target |")
    print("|---|---|---|---|---|---|---|")
    for case in CASES:
        iterations = max(1, case.iterations // 10) if args.quick else case.iterations
        measured = _run(case, iterations)
        scale = case.iterations / iterations
        mark = "≈" if scale != 1 else ""
        print(
            f"| {case.game} | {case.iterations:,} | {mark}{measured['solver'] * scale:.1f} | "
            f"{mark}{measured['whole'] + measured['solver'] * (scale - 1):.1f} | "
            f"{measured['gib']:.2f} | "
            f"{measured['nash_conv']:.3g} | ≤ {case.seconds:.0f} s, ≤ {case.gib:g} GiB |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
