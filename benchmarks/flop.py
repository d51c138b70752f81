"""A flop spot by compiled vector CFR: where the time and the memory go, and the curve.

``python -m benchmarks.flop [SPOT] [--profile] [--algorithm dcfr] [--time-limit S]``

* ``--profile``: one line per stage of a run, wall and CPU seconds and resident memory after it
  (current and peak, ``/proc/self/statm`` and ``getrusage``): the spot's public tree
  (:func:`~seqform.holdem.game.spot_game`), the public numbering, the sequence tables, the
  flat tables of :mod:`seqform.structured.compiled_cfr` (with the node-major layout), the
  stepper's arrays, the first iteration (numba's cache loaded), ``--iterations`` iterations
  split into the opponent's plan, the leaf product and the update, the average and its
  certificate.  Printed as a Markdown table; nothing is written.
* otherwise: ``--algorithm`` on the spot by :func:`~seqform.structured.vector_cfr.vector_cfr`
  (compiled engine, ``--storage``), measured by the structured certificate on the full spot
  every ``--every`` iterations and after the last, until ``--time-limit`` solver seconds or
  ``--target`` % of the pot.  After each measurement the curve so far (iterations, solver
  seconds, seconds since the process started and its CPU seconds (on a shared machine the
  wall clock counts other processes' time), exploitability = NashConv / 2 in % of the
  pot, peak resident memory) is written atomically to ``--out``.json and ``--out``.md, so a
  run killed for memory or time leaves what it reached.

The spots are in ``benchmarks/spots/``: ``texassolver_flop.toml`` (TexasSolver's benchmark,
the default), ``flop_mid.toml`` (its sizes, narrower ranges) and ``flop_narrow.toml`` (one
raise per street).  Run big spots one at a time, under ``nice``; timings are one run on a
shared machine, and the load average is recorded beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

from seqform.holdem.game import spot_game
from seqform.holdem.spot import read_spot
from seqform.io.atomic import write_atomically

__all__ = ["main"]

SPOTS = Path(__file__).parent / "spots"
RESULTS = Path(__file__).parent / "results"
STARTED = time.perf_counter()


def _resident_gb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**30


def _peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


class _Stages:
    """Rows of the profile: each stage's wall seconds and the memory after it."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.last_cpu = time.process_time()
        print(
            "| stage | seconds | CPU seconds | resident GB | peak GB |\n|---|---|---|---|---|",
            flush=True,
        )

    def mark(self, name: str, seconds: float | None = None, cpu: float | None = None) -> None:
        now, now_cpu = time.perf_counter(), time.process_time()
        took = now - self.last if seconds is None else seconds
        took_cpu = now_cpu - self.last_cpu if cpu is None else cpu
        print(
            f"| {name} | {took:.2f} | {took_cpu:.2f} | {_resident_gb():.2f} | {_peak_gb():.2f} |",
            flush=True,
        )
        self.last, self.last_cpu = now, now_cpu


def _profile(path: Path, storage: str, iterations: int) -> None:
    """The stage table (module docstring)."""
    from seqform.game.public.numbering import number_public_tree
    from seqform.iterative.rules import RULES
    from seqform.structured.compiled_cfr import CompiledRegrets, flat_game
    from seqform.structured.responses import sequence_tables
    from seqform.structured.vector_cfr import structured_nash_conv

    spot = read_spot(path)
    stages = _Stages()
    game = spot_game(spot)
    stages.mark("public tree (spot_game)")
    numbering = number_public_tree(game)
    stages.mark("public numbering")
    sequence_tables(game)
    stages.mark("sequence tables")
    flat = flat_game(game)
    stages.mark("flat tables and layout")
    stepper = CompiledRegrets(game, RULES["dcfr"], storage=storage)
    stages.mark(f"stepper arrays ({storage})")
    stepper.step(1)
    stages.mark("first iteration")
    plan_s = product_s = whole = plan_cpu = product_cpu = whole_cpu = 0.0
    for iteration in range(2, iterations + 2):
        start, start_cpu = time.perf_counter(), time.process_time()
        for player in (0, 1):
            stepper._kernels.own_plan(
                stepper.behaviour[1 - player],
                stepper._tables[1 - player][1],
                stepper.plans[1 - player],
            )
        middle, middle_cpu = time.perf_counter(), time.process_time()
        for player in (0, 1):
            stepper.product(player, stepper.plans[1 - player], stepper.values[player])
        end, end_cpu = time.perf_counter(), time.process_time()
        stepper.step(iteration)
        plan_s, plan_cpu = plan_s + middle - start, plan_cpu + middle_cpu - start_cpu
        product_s, product_cpu = product_s + end - middle, product_cpu + end_cpu - middle_cpu
        whole += time.perf_counter() - end
        whole_cpu += time.process_time() - end_cpu
    mean = f"(mean of {iterations})"
    count = iterations
    stages.mark(f"iteration: opponent's plans {mean}", plan_s / count, plan_cpu / count)
    stages.mark(f"iteration: leaf products {mean}", product_s / count, product_cpu / count)
    stages.mark(f"iteration: whole {mean}", whole / count, whole_cpu / count)
    strategies = stepper.average()
    stages.mark("average")
    nash_conv = structured_nash_conv(game, strategies)
    stages.mark("certificate")
    size = [numbering.num_sequences(p) for p in (0, 1)]
    print(
        f"\n{path.name}: {len(numbering.node_histories[0]) + len(numbering.node_histories[1]):,} "
        f"public decisions, {numbering.num_leaves:,} leaves, {len(flat.batch_kind):,} batches; "
        f"{game.num_hands(0)} and {game.num_hands(1)} combos; {size[0]:,} and {size[1]:,} "
        f"sequences; exploitability {nash_conv / 2 / float(spot.pot):.3%} of the pot after "
        f"{iterations + 1} iterations; load average {os.getloadavg()[0]:.1f}"
    )


def _markdown(document: dict[str, object]) -> str:
    rows = [
        f"# {document['spot']}: {document['algorithm']}, compiled vector CFR "
        f"({document['storage']})\n",
        f"Game built in {document['build_seconds']:.1f} s; load average at the start "
        f"{document['load_average']:.1f} on {os.cpu_count()} cores.\n",
        "| iterations | solver s | process s | process CPU s | exploitability (% of the pot) "
        "| peak GB |",
        "|---|---|---|---|---|---|",
    ]
    for row in document["curve"]:  # type: ignore[attr-defined]
        rows.append(
            f"| {row['iterations']:,} | {row['solver_seconds']:.1f} | "
            f"{row['process_seconds']:.1f} | {row['process_cpu_seconds']:.1f} | "
            f"{row['exploitability_percent']:.3f} | "
            f"{row['peak_gb']:.2f} |"
        )
    if document.get("stopped"):
        rows.append(f"\nStopped: {document['stopped']}.")
    return "\n".join(rows) + "\n"


def _run(args: argparse.Namespace, path: Path) -> None:
    """The curve (module docstring), written after each measurement."""
    from seqform.iterative.run import Sample, Stopping
    from seqform.structured.vector_cfr import vector_cfr

    spot = read_spot(path)
    pot = float(spot.pot)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    game = spot_game(spot)
    document: dict[str, object] = {
        "spot": path.name,
        "algorithm": args.algorithm,
        "storage": args.storage,
        "build_seconds": time.perf_counter() - start,
        "load_average": load,
        "curve": [],
        "stopped": None,
    }
    out = Path(args.out)

    def write() -> None:
        write_atomically(out.with_suffix(".json"), json.dumps(document, indent=2) + "\n")
        write_atomically(out.with_suffix(".md"), _markdown(document))

    def on_sample(sample: Sample) -> None:
        percent = 100 * sample.nash_conv / 2 / pot
        document["curve"].append(  # type: ignore[attr-defined]
            {
                "iterations": sample.iteration,
                "solver_seconds": sample.seconds,
                "process_seconds": time.perf_counter() - STARTED,
                "process_cpu_seconds": time.process_time(),
                "exploitability_percent": percent,
                "peak_gb": _peak_gb(),
            }
        )
        write()
        print(
            f"{sample.iteration:6d} it  {sample.seconds:8.1f} s solver  "
            f"{time.perf_counter() - STARTED:8.1f} s process  {percent:.3f} %  "
            f"{_peak_gb():.2f} GB",
            flush=True,
        )

    target = None if args.target is None else args.target / 100 * pot
    stopping = Stopping(target=target, time_limit=args.time_limit, every=args.every)
    result = vector_cfr(
        game, args.algorithm, stopping, on_sample, engine="compiled", storage=args.storage
    )
    document["stopped"] = result.stopped
    write()


def main(argv: list[str] | None = None) -> int:
    """Profile or run (module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.flop", description=__doc__)
    parser.add_argument("spot", nargs="?", default=str(SPOTS / "texassolver_flop.toml"))
    parser.add_argument("--profile", action="store_true", help="the stage table only")
    parser.add_argument("--iterations", type=int, default=5, help="profiled iterations")
    parser.add_argument("--algorithm", default="dcfr")
    parser.add_argument("--storage", default="float32", choices=("float32", "float64"))
    parser.add_argument("--time-limit", type=float, default=175.0, help="solver seconds")
    parser.add_argument("--target", type=float, default=None, help="%% of the pot")
    parser.add_argument("--every", type=int, default=20, help="iterations between measures")
    parser.add_argument("--out", default=str(RESULTS / "flop"), help="without the suffix")
    args = parser.parse_args(argv)
    path = Path(args.spot)
    if args.profile:
        _profile(path, args.storage, args.iterations)
    else:
        _run(args, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
