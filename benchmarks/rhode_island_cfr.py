"""Vector CFR on the full Rhode Island hold'em, on canonical boards: its exploitability curve.

Run from the checkout::

    python -m benchmarks.rhode_island --cfr                      # the full game, 1 hour
    python -m benchmarks.rhode_island --cfr --game "rhode_island(ranks=8)" --time-limit 300
    python -m benchmarks.rhode_island_cfr --algorithm cfr+ --storage float64
    python -m benchmarks.rhode_island --cfr --save-average avg.npz   # keep the average
    python -m benchmarks.rhode_island --cfr --certify-from avg.npz   # certify it on G later
    python -m benchmarks.rhode_island --cfr --certify-from old.npz --save-average new.npz

``--save-average`` writes a strategy-arrays document (:mod:`seqform.io.strategy_arrays`:
``--storage``'s dtype per hand class of ``G'``, with the provenance and the certificate of
the stored arrays), which ``seqform exploit rhode_island --strategy avg.npz`` checks;
``--certify-from`` reads it, or a file of the earlier float64-per-sequence format, which
with ``--save-average`` it rewrites as a document.

The game ``G`` is reduced to its canonical boards ``G'``
(:func:`seqform.structured.reductions.suit_classes.canonical_boards`) and stepped by the compiled
vector CFR with one regret per hand class
(:class:`~seqform.structured.compiled_cfr.CompiledRegrets`, the stepper of
:func:`seqform.structured.vector_cfr.canonical_vector_cfr`): the iterates of CFR on ``G``, at
``G'``'s size.  At iterations ``first · ratio^k`` (a geometric schedule) the average is
measured by best responses over hand-class plans
(:func:`~seqform.structured.reductions.suit_classes.certify_on_classes`), which equal the lifted
average's on ``G`` (tests/test_canonical_cfr.py): NashConv/2 in chips and in % of the ante,
and the game value's bounds ``[u1(x̄, BR2), u1(BR1, ȳ)]`` (player 1's average against player
2's best response, and player 1's best response against player 2's average; the value lies
between them).  Measurements are not charged to the run's seconds.

After every measurement ``rhode_island_cfr.json`` and ``.md`` are rewritten atomically in
``--out`` (Ctrl-C, SIGTERM or the time limit keep the curve so far).  At the end the average
is lifted to ``G`` and certified there (:func:`seqform.structured.responses.certify`) when
``--certify-on-game`` says so (``auto``: when ``G``'s sequence tables fit the memory
available, by the bytes per sequence measured on the ranks=6 deck); otherwise the output
says so and the certificate on ``G'`` stands for it (the equality above).

Default algorithm and storage: DCFR in float32 (the certificate reads the average in
float64).  DCFR has not yet been compared here with ``cfr+`` on the ranks=6..8 decks;
``--algorithm cfr+ --game "rhode_island(ranks=8)"`` runs that comparison.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.rhode_island_average import (
    certify_loaded,
    load_saved,
    resave,
    run_record,
    save_average,
)

RESULTS = Path(__file__).parent / "results"
FULL_GAME = "rhode_island"
TIME_LIMIT = 3600.0
TABLE_BYTES_PER_SEQUENCE = 120
"""Bytes a sequence of ``G`` costs in the certificate on ``G`` (numbering, sequence tables with
labels made on demand, the lift and the best responses): measured 92 on the full game
(14.6 GB peak, 2.6 GB of it ``G'``, for 130,320,322 sequences), rounded up for a margin."""


def _peak_rss_gb() -> float:
    """Peak resident set of this process so far, in GB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6


def _available_bytes() -> int:
    """Memory available to a new allocation (Linux ``MemAvailable``), else 0."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _schedule(first: int, ratio: float) -> list[int]:
    """Iterations at which to measure: ``first · ratio^k``, distinct integers."""
    points, value = [], float(first)
    while value < 1e9:
        if not points or int(value) > points[-1]:
            points.append(int(value))
        value *= ratio
    return points


def _ante(spec: str) -> float:
    from seqform.game.builtin.rhode_island import ANTE

    return float(ANTE) if "ante" not in spec else float("nan")


def _render(data: dict[str, Any]) -> str:
    lines = [
        f"# Vector CFR on {data['game']}, on canonical boards",
        "",
        f"{data['algorithm']}, compiled engine, {data['storage']} storage; "
        f"{data['permutations']} suit permutations; G' {data['canonical_sequences'][0]:,} + "
        f"{data['canonical_sequences'][1]:,} sequences, {data['class_sequences'][0]:,} + "
        f"{data['class_sequences'][1]:,} hand classes; built in {data['build_seconds']:.1f} s.",
        f"Ante {data['ante']:g} chips; exploitability = NashConv / 2, measured on G' by "
        "best responses over hand-class plans (equal to the lift's on G).",
        "",
        "`seconds`: CFR's own; `wall`: the whole process so far (build and measurements too).",
        "",
        "| iterations | seconds | wall | exploitability (chips) | % of ante | value lower | "
        "value upper | peak RSS (GB) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in data["curve"]:
        wall = row.get("wall_seconds", math.nan)
        lines.append(
            f"| {row['iterations']:,} | {row['seconds']:.1f} | {wall:.1f} "
            f"| {row['exploitability']:.5f} | "
            f"{row['percent_of_ante']:.3f} | {row['value_lower']:+.6f} | "
            f"{row['value_upper']:+.6f} | {row['peak_rss_gb']:.2f} |"
        )
    lines += ["", f"Stopped: {data['stopped']}.", "", f"Certificate on G: {data['on_game']}", ""]
    if data.get("saved_average"):
        lines += [
            f"Average saved: {data['saved_average']}.  A strategy-arrays document "
            "(seqform.io.strategy_arrays); `seqform exploit GAME --strategy FILE` checks it.",
            "",
        ]
    return "\n".join(lines)


def _write(data: dict[str, Any], out: Path) -> None:
    from seqform.io.atomic import write_atomically

    out.mkdir(parents=True, exist_ok=True)
    write_atomically(out / "rhode_island_cfr.json", json.dumps(data, indent=1) + "\n")
    write_atomically(out / "rhode_island_cfr.md", _render(data))


def certify_saved(args: argparse.Namespace) -> int:
    """``--certify-from``: a kept average (a strategy-arrays document, or a file of the
    earlier float64 format) certified on ``G'`` and, lifted, on ``G`` as
    ``--certify-on-game`` says, each with its seconds and the peak memory so far; with
    ``--save-average`` it is (re)written as a strategy-arrays document first (an earlier
    file's algorithm and iterations are read from the run's results in ``--out``), and the
    certificate is that of the stored arrays.  The results file in ``--out`` gets the
    certificates when it is this game's."""
    start = time.perf_counter()
    record = run_record(args)
    loaded = load_saved(args, args.certify_from)
    if loaded is None:
        return 2
    print(f"{args.game}: G' and the average in {time.perf_counter() - start:.1f} s", flush=True)
    saved_line = None
    if args.save_average is not None:
        if loaded.stored is None and record is None:
            print(f"no results of {args.game} in {args.out}: its algorithm and iterations?")
            return 2
        saved_line = resave(args, loaded, record)
        loaded = load_saved(args, args.save_average) or loaded  # as a reader gets it
    began = time.perf_counter()
    on_classes = certify_loaded(loaded)
    print(
        f"on G': NashConv {float(on_classes.nash_conv):.6g}, value in "
        f"[{-float(on_classes.best_response_values[1]):+.6f}, "
        f"{float(on_classes.best_response_values[0]):+.6f}] in "
        f"{time.perf_counter() - began:.1f} s, RSS {_peak_rss_gb():.2f} GB",
        flush=True,
    )
    began = time.perf_counter()
    verdict = _certify_on_game(loaded.boards, loaded.strategies, args.certify_on_game)
    seconds, peak = time.perf_counter() - began, _peak_rss_gb()
    if verdict.startswith("NashConv"):
        verdict += f" (lifted and certified in {seconds:.0f} s, peak RSS {peak:.2f} GB)"
    print(f"on G: {verdict}", flush=True)
    if record is not None:
        if verdict.startswith("NashConv"):  # else an earlier certificate on G stands
            record["on_game"] = verdict + " (by --certify-from)"
        if saved_line is not None:
            record["saved_average"] = saved_line
        _write(record, args.out)
    return 0


def _stop_on_term(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _certify_on_game(boards: Any, strategies: Sequence[Any], wanted: str) -> str:
    """The lifted average certified on ``G``, or why not."""
    from seqform.structured.reductions.suit_classes import lift_behaviour
    from seqform.structured.responses import certify, sequence_tables

    if wanted == "no":
        return "not asked (--certify-on-game no); the certificate on G' stands for it"
    if wanted == "auto":  # G's sequences by formula, before anything of G is built
        from seqform.routes.sizing.planned import planned_size

        planned = planned_size(boards.game.name)
        sequences = planned.sequences if planned and planned.sequences else 0
        needed, available = sequences * TABLE_BYTES_PER_SEQUENCE, _available_bytes()
        if needed > available:
            return (
                f"not run: G's tables need about {needed / 1e9:.1f} GB, {available / 1e9:.1f} "
                "GB available; the certificate on G' above stands for it (equal by "
                "seqform.structured.vector_cfr's argument)"
            )
    try:
        sequence_tables(boards.game)
        lifted = [lift_behaviour(boards, strategy) for strategy in strategies]
        certificate = certify(boards.game, lifted[0], lifted[1])
    except MemoryError:
        return "out of memory; the certificate on G' above stands for it"
    lower, upper = (
        -float(certificate.best_response_values[1]),
        float(certificate.best_response_values[0]),
    )
    return f"NashConv {float(certificate.nash_conv):.6g}, value in [{lower:+.6f}, {upper:+.6f}]"


def run(args: argparse.Namespace) -> int:
    """The benchmark (module docstring).

    Length: one run's stages in order (build, the measured loop, the certificate on G),
    each writing the results file so that a stop keeps what is done; they share the curve,
    the iteration and the stepper.
    """
    from seqform.game.builtin.registry import load_structured_game
    from seqform.iterative.rules import RULES
    from seqform.structured.compiled_cfr import CompiledRegrets
    from seqform.structured.reductions.suit_classes import canonical_boards, certify_on_classes

    start = time.perf_counter()
    game = load_structured_game(args.game)
    boards = canonical_boards(game)
    if boards is None:
        print(f"{args.game}: no suit symmetry; this benchmark runs on canonical boards")
        return 2
    stepper = CompiledRegrets(
        boards.canonical, RULES[args.algorithm], storage=args.storage,
        classes=boards.sequence_classes(),
    )  # fmt: skip
    build = time.perf_counter() - start
    canonical = [t.num_sequences for t in stepper.layout.players]
    ante = _ante(args.game)
    data: dict[str, Any] = {
        "game": args.game,
        "algorithm": args.algorithm,
        "storage": args.storage,
        "permutations": boards.group_order,
        "canonical_sequences": canonical,
        "class_sequences": [c.num_sequences for c in boards.classes],
        "build_seconds": build,
        "ante": ante,
        "time_limit": args.time_limit,
        "curve": [],
        "stopped": "running",
        "on_game": "not yet",
    }
    print(f"{args.game}: built in {build:.1f} s, G' {canonical} sequences", flush=True)
    _write(data, args.out)  # the sizes and build time, before the first measurement
    schedule = _schedule(args.first, args.ratio)
    seconds, iteration = 0.0, 0
    wall_start = time.perf_counter()
    signal.signal(signal.SIGTERM, _stop_on_term)
    # a shell starts a background job with SIGINT ignored: Ctrl-C (kill -INT) stops it too
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for target in schedule:
            while iteration < target and seconds < args.time_limit:
                iteration += 1
                began = time.perf_counter()
                stepper.step(iteration)
                seconds += time.perf_counter() - began
            certificate = certify_on_classes(boards, *stepper.average())
            exploitability = float(certificate.nash_conv) / 2
            row = {
                "iterations": iteration,
                "seconds": seconds,
                "exploitability": exploitability,
                "percent_of_ante": 100 * exploitability / ante,
                "value_lower": -float(certificate.best_response_values[1]),
                "value_upper": float(certificate.best_response_values[0]),
                "peak_rss_gb": _peak_rss_gb(),
                "wall_seconds": time.perf_counter() - start,
            }
            data["curve"].append(row)
            _write(data, args.out)
            print(
                f"{iteration:>8,} it {seconds:8.1f} s  exploitability {exploitability:.5f} "
                f"({row['percent_of_ante']:.3f} % of ante)  RSS {row['peak_rss_gb']:.2f} GB",
                flush=True,
            )
            if seconds >= args.time_limit:
                data["stopped"] = f"time limit {args.time_limit:g} s"
                break
            if row["percent_of_ante"] <= args.target_percent:
                data["stopped"] = f"target {args.target_percent:g} % of the ante"
                break
    except KeyboardInterrupt:
        data["stopped"] = f"interrupted after {iteration:,} iterations (curve kept)"
        data["on_game"] = "not run (interrupted)"
        _write(data, args.out)
        if args.save_average is not None:
            data["saved_average"] = save_average(args, boards, stepper.average(), iteration)
            _write(data, args.out)
        print(data["stopped"], flush=True)
        return 130
    if data["stopped"] == "running":
        data["stopped"] = "the schedule's end"
    data["run_wall_seconds"] = time.perf_counter() - wall_start
    if args.save_average is not None:
        data["saved_average"] = save_average(args, boards, stepper.average(), iteration)
    data["on_game"] = "running (the curve above is final)"
    _write(data, args.out)
    try:
        data["on_game"] = _certify_on_game(boards, stepper.average(), args.certify_on_game)
    except KeyboardInterrupt:
        data["on_game"] = "interrupted; the certificate on G' above stands for it"
    _write(data, args.out)
    print(f"certificate on G: {data['on_game']}", flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=FULL_GAME, help="a rhode_island deck (default: full)")
    parser.add_argument("--algorithm", default="dcfr", choices=("dcfr", "cfr+", "pcfr+", "cfr"))
    parser.add_argument("--storage", default="float32", choices=("float32", "float64"))
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS")
    parser.add_argument("--first", type=int, default=4, help="first measured iteration")
    parser.add_argument("--ratio", type=float, default=2.0, help="the schedule's ratio")
    parser.add_argument(
        "--target-percent", type=float, default=0.1, help="stop below this % of the ante"
    )
    parser.add_argument("--certify-on-game", choices=("auto", "yes", "no"), default="auto")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the results go")
    parser.add_argument(
        "--save-average",
        type=Path,
        metavar="NPZ",
        help="keep the average as a strategy-arrays document (per hand class of G')",
    )
    parser.add_argument(
        "--certify-from",
        type=Path,
        metavar="NPZ",
        help="certify an average kept by --save-average (on G', and on G as "
        "--certify-on-game says), no CFR; with --save-average, rewrite it as a document",
    )
    args = parser.parse_args(argv)
    if args.certify_from is not None:
        return certify_saved(args)
    if not (args.ratio > 1 and args.first >= 1 and math.isfinite(args.time_limit)):
        parser.error("--ratio must exceed 1, --first be positive, --time-limit finite")
    return run(args)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
