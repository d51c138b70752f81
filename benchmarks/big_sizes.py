"""The big sizes the README and the documentation show, each certified by a default ``solve``.

Run ``python -m benchmarks.big_sizes [--only NAME ...]``.  Each game is solved as a user
would, by a fresh ``python -m seqform solve GAME --quiet --strategies summary`` process, and
the run reports its exit code, whether the certificate's verdict is "equilibrium", its
wall-clock time and its peak memory (the child's maximum resident set).  The exit status is
1 when any game fails to certify, so the command is a check as well as a measurement.

These cases take 5 to 70 s and up to 2 GiB each (``liars_dice(sides=8)``), several minutes
together on a 2-core machine: too long for the test suite, which keeps the smallest instance
of each family (``tests/test_cli_values.py``) and checks this module on it
(``tests/test_big_sizes.py``).  Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass

BIG_SIZES = (
    # docs/benchmarks.md's "Performance targets" and LP-against-CFR tables, the README and
    # docs/structured.md: the sizes the documents say seqform certifies by default.
    "leduc(ranks=13, suits=4)",
    "liars_dice(sides=7)",
    "liars_dice(sides=8)",
    "kuhn(cards=10000)",
    "kuhn(cards=100000)",
)
VERDICT = "equilibrium (≤ 1e-09)"


@dataclass(frozen=True)
class Certified:
    """One default ``solve`` of ``game``: its exit code, verdict, time and peak memory."""

    game: str
    exit_code: int
    certified: bool
    seconds: float
    peak_mib: float


def solve_once(game: str) -> Certified:
    """Solve ``game`` in a fresh process as the command line does; measure it (the peak is
    that child's own, from ``wait4``)."""
    command = [sys.executable, "-m", "seqform", "solve", game, "--quiet", "--strategies", "summary"]
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as out:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        text = out.read()
    return Certified(
        game=game,
        exit_code=child.returncode,
        certified=child.returncode == 0 and VERDICT in text,
        seconds=seconds,
        peak_mib=usage.ru_maxrss / 1024,  # KiB on Linux
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="GAME",
        help="solve these games instead of the documents' big sizes",
    )
    args = parser.parse_args(argv)
    games = args.only or BIG_SIZES
    results = []
    for game in games:
        result = solve_once(game)
        results.append(result)
        verdict = "certified" if result.certified else f"NOT certified (exit {result.exit_code})"
        print(
            f"{game:28} {verdict:26} {result.seconds:7.1f} s  {result.peak_mib:7.0f} MiB peak",
            flush=True,
        )
    return 0 if all(result.certified for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
