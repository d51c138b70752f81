"""A flop spot by compiled vector CFR: where the time and the memory go, and the curve.

``python -m benchmarks.flop [SPOT] [--profile] [--algorithm dcfr] [--time-limit S]``

* ``--profile``: one line per stage of a run, wall and CPU seconds and resident memory after it
  (current and peak, ``/proc/self/statm`` and ``getrusage``): the spot's public tree
  (:func:`~seqform.holdem.game.spot_game`), the public numbering, the sequence tables, the
  flat tables of :mod:`seqform.structured.compiled_cfr` (with the node-major layout), the
  stepper's arrays, the first iteration (numba's cache loaded), ``--iterations`` iterations
  (their leaf products, then the whole iterations), the average and its
  certificate.  Printed as a Markdown table; nothing is written.
* otherwise: ``--algorithm`` on the spot by the compiled vector CFR
  (:class:`~seqform.structured.compiled_cfr.CompiledRegrets`, ``--storage``), on the
  spot's canonical boards with the hand classes' shared regrets where it is suit-symmetric
  (:func:`~seqform.structured.vector_cfr.canonical_vector_cfr`'s run; ``--no-suit-isomorphism``:
  every board), measured by the certificate (on the hand classes, from the run's own arrays:
  :func:`~seqform.structured.reductions.class_certificate.certify_run_on_classes`, which is the
  lifted
  profile's NashConv on the full spot) after iterations 1, then each about ``--ratio``
  times the last, and after the last, until ``--time-limit`` solver seconds or ``--target``
  % of the pot.  After each measurement the curve so far (iterations, solver seconds,
  the certificate's seconds, seconds since the process started and its CPU seconds (on a
  shared machine the wall clock counts other processes' time), exploitability =
  NashConv / 2 in % of the pot, peak and current resident memory) is written atomically to
  ``--out``.json and ``--out``.md, so a run killed for memory or time leaves what it
  reached.

The spots are in ``benchmarks/spots/``: ``texassolver_flop.toml`` (TexasSolver's benchmark,
the default), ``flop_mid.toml`` (its sizes, narrower ranges) and ``flop_narrow.toml`` (one
raise per street).  Run big spots one at a time, under ``nice``; timings are one run on a
shared machine, and the load average is recorded beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
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


def _return_freed_memory() -> None:
    """Hand the heap's freed pages back to the system (glibc's ``malloc_trim``; elsewhere
    nothing): numpy's arrays below the mmap threshold are freed into the heap, which the
    resident size still counts."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


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
    from seqform.structured.compiled_cfr import CompiledRegrets
    from seqform.structured.flat_tables import flat_game
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
    product_s = whole = product_cpu = whole_cpu = 0.0
    for iteration in range(2, iterations + 2):
        for player in (0, 1):  # each update leaves its plan: the product reads it
            start, start_cpu = time.perf_counter(), time.process_time()
            stepper.product(player, stepper.plans[1 - player], stepper.values[player])
            product_s += time.perf_counter() - start
            product_cpu += time.process_time() - start_cpu
        end, end_cpu = time.perf_counter(), time.process_time()
        stepper.step(iteration)
        whole += time.perf_counter() - end
        whole_cpu += time.process_time() - end_cpu
    mean = f"(mean of {iterations})"
    count = iterations
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
        ("Canonical boards, classes sharing regrets: " if document["suit_isomorphism"] else "")
        + f"{document['sequences'][0]:,} and {document['sequences'][1]:,} sequences.  Built in "
        f"{document['build_seconds']:.1f} s ({document['build_cpu_seconds']:.1f} CPU s, peak "
        f"{document['build_peak_gb']:.2f} GB); load average at the start "
        f"{document['load_average']:.1f} on {os.cpu_count()} cores.\n",
        "| iterations | solver s | certificate s | process s | process CPU s "
        "| exploitability (% of the pot) | peak GB | resident GB | load |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in document["curve"]:  # type: ignore[attr-defined]
        rows.append(
            f"| {row['iterations']:,} | {row['solver_seconds']:.1f} | "
            f"{row['certificate_seconds']:.1f} | "
            f"{row['process_seconds']:.1f} | {row['process_cpu_seconds']:.1f} | "
            f"{row['exploitability_percent']:.3f} | "
            f"{row['peak_gb']:.2f} | {row.get('resident_gb', float('nan')):.2f} | "
            f"{row['load_average']:.1f} |"
        )
    if document.get("stopped"):
        rows.append(f"\nStopped: {document['stopped']}.")
    return "\n".join(rows) + "\n"


def _checkpoints(ratio: float) -> list[int]:
    """The iterations measured: 1, then each about ``ratio`` times the last (a geometric
    schedule: a log-log curve with evenly spaced points, and the certificates' cost a
    fixed share of the run)."""
    points = [1]
    while points[-1] < 10**6:
        points.append(max(points[-1] + 1, round(points[-1] * ratio)))
    return points


def _run(args: argparse.Namespace, path: Path) -> None:
    """The curve (module docstring), written after each measurement.

    Length: the run's stages in order (build, the measured loop, the final certificate),
    each writing the results file so that a stop keeps what is done; they share the curve,
    the iteration and the stepper.
    """
    from seqform.game.public.numbering import release_numbering
    from seqform.iterative.rules import RULES
    from seqform.structured.compiled_cfr import CompiledRegrets
    from seqform.structured.reductions.class_certificate import certify_run_on_classes
    from seqform.structured.reductions.suit_classes import canonical_boards
    from seqform.structured.vector_cfr import structured_nash_conv

    spot = read_spot(path)
    pot = float(spot.pot)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    game = spot_game(spot)
    boards = canonical_boards(game) if args.suit_isomorphism else None
    run_on = game if boards is None else boards.canonical
    classes = None if boards is None else boards.sequence_classes()
    stepper = CompiledRegrets(run_on, RULES[args.algorithm], storage=args.storage, classes=classes)
    del classes
    release_numbering(run_on)  # the run reads its flat tables; the certificate needs no grid
    _return_freed_memory()
    document: dict[str, object] = {
        "spot": path.name,
        "algorithm": args.algorithm,
        "storage": args.storage,
        "suit_isomorphism": boards is not None,
        "sequences": [int(p.num_sequences) for p in stepper.layout.players],
        "build_seconds": time.perf_counter() - start,
        "build_cpu_seconds": time.process_time(),
        "build_peak_gb": _peak_gb(),
        "load_average": load,
        "curve": [],
        "stopped": None,
    }
    out = Path(args.out)

    def write() -> None:
        write_atomically(out.with_suffix(".json"), json.dumps(document, indent=2) + "\n")
        write_atomically(out.with_suffix(".md"), _markdown(document))

    write()
    solver = 0.0
    checkpoints = iter(_checkpoints(args.ratio))
    measure_at = next(checkpoints)
    iteration = 0
    while True:
        iteration += 1
        begin = time.perf_counter()
        stepper.step(iteration)
        solver += time.perf_counter() - begin
        out_of_time = solver >= args.time_limit
        if iteration < measure_at and not out_of_time:
            continue
        while measure_at <= iteration:
            measure_at = next(checkpoints)
        measured = time.perf_counter()
        try:
            if boards is None:
                nash_conv = structured_nash_conv(game, stepper.average())
            else:
                nash_conv = float(certify_run_on_classes(boards, stepper).nash_conv)
        except MemoryError:
            document["stopped"] = (
                f"out of memory in the certificate after iteration {iteration} "
                f"(peak {_peak_gb():.2f} GB resident)"
            )
            write()
            raise
        percent = 100 * nash_conv / 2 / pot
        document["curve"].append(  # type: ignore[attr-defined]
            {
                "iterations": iteration,
                "solver_seconds": solver,
                "certificate_seconds": time.perf_counter() - measured,
                "process_seconds": time.perf_counter() - STARTED,
                "process_cpu_seconds": time.process_time(),
                "exploitability_percent": percent,
                "peak_gb": _peak_gb(),
                "resident_gb": _resident_gb(),
                "load_average": os.getloadavg()[0],
            }
        )
        write()
        print(
            f"{iteration:6d} it  {solver:8.1f} s solver  "
            f"{time.perf_counter() - STARTED:8.1f} s process  {percent:.3f} %  "
            f"{_peak_gb():.2f} GB",
            flush=True,
        )
        if args.target is not None and percent <= args.target:
            document["stopped"] = "target"
            break
        if out_of_time:
            document["stopped"] = "time_limit"
            break
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
    parser.add_argument(
        "--ratio", type=float, default=1.5, help="each measured iteration over the last"
    )
    parser.add_argument(
        "--no-suit-isomorphism",
        dest="suit_isomorphism",
        action="store_false",
        help="run on every board, not on the canonical boards with shared class regrets",
    )
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
