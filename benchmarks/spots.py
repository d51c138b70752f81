"""The hold'em targets, whole process: the full-range river spot solved and certified
by the LP (``solve``) and by CFR+ on the public tree (``iterate``), to 0.1% of the pot.

Run ``python -m benchmarks.spots [--cfr] [--keep DIR]``. The spot (every combo for both
players, 1,081 each after the board's removal; pot 10, stacks 100, bets of half and one pot,
raises of one pot, board ``Ks7h2d9c4s``) is written to a TOML file and each command runs as
a fresh ``python -m seqform ...`` process, so the time includes imports, reading the spot,
the solve, the certificate and the report. Printed per command: the wall-clock time, the
peak resident memory of the children so far (the kernel keeps the largest), and the
exploitability (NashConv / 2) as a share of the pot, read from the command's JSON. The
machine's load average is printed beside it: on a shared machine the times are as noisy as
the load says.

This is a benchmark, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

EVERY_COMBO = (
    "22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
    "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o"
)
FULL_RIVER = f"""\
board = "Ks7h2d9c4s"
pot = 10
effective_stack = 100
oop_range = "{EVERY_COMBO}"
ip_range = "{EVERY_COMBO}"
bet_sizes = [0.5, 1.0]
raise_sizes = [1.0]
"""
POT = 10.0
TARGET_POT_SHARE = 0.001  # certified to 0.1% of the pot, the solvers' usual bar


@dataclass(frozen=True)
class Run:
    """One command's whole-process run: wall seconds, the child's peak memory (MB) and the
    exploitability as a share of the pot."""

    label: str
    seconds: float
    peak_mb: float
    pot_share: float


def _run(label: str, arguments: list[str], output: Path) -> Run:
    """Run ``python -m seqform ARGUMENTS --format json --output OUTPUT`` once."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    command = [sys.executable, "-m", "seqform", *arguments, "--format", "json"]
    subprocess.run([*command, "--output", str(output)], check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    peak = max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before) / 1024
    document = json.loads(output.read_text(encoding="utf-8"))
    if "spot" in document:  # solve: the spot's summary
        share = document["spot"]["exploitability_pot"]
    else:  # iterate: NashConv of the average strategy
        share = document["nash_conv"] / 2 / POT
    return Run(label, seconds, peak, share)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cfr", action="store_true", help="also run CFR+ on the public tree")
    parser.add_argument("--keep", metavar="DIR", help="write the spot and outputs here")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="seqform-spots-"))
    folder.mkdir(parents=True, exist_ok=True)
    spot = folder / "river_full.toml"
    spot.write_text(FULL_RIVER, encoding="utf-8")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    runs = [_run("solve (LP)", ["solve", str(spot)], folder / "solve.json")]
    if args.cfr:
        exploitability = TARGET_POT_SHARE * POT  # NashConv / 2, in chips
        arguments = ["iterate", str(spot), "--method", "structured", "--algorithm", "cfr+"]
        arguments += ["--target-exploitability", str(exploitability), "--no-reference"]
        runs.append(_run("iterate (CFR+)", arguments, folder / "iterate.json"))
    for run in runs:
        verdict = "met" if run.pot_share <= TARGET_POT_SHARE and run.seconds <= 60 else "missed"
        print(
            f"{run.label:16} {run.seconds:7.1f} s  {run.peak_mb:7.0f} MB  "
            f"exploitability {100 * run.pot_share:.2g}% of the pot  (60 s, 0.1%: {verdict})"
        )
    print(f"load average {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
