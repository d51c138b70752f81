"""One measurement in a process of its own: ``python -m benchmarks.worker PEER GAME ...``.

The worker caps its own address space (``RLIMIT_AS``) before importing anything large,
imports the peer's libraries, warms the peer up on Kuhn poker, touches the ``--ready``
file (the parent starts its wall-clock limit then), runs the measurement and writes a
JSON report to ``--result``:

``{"status": "ok" | "out of memory" | "refused" | "error" | "unavailable", "detail": "...",
"outcome": {...}, "sizes": {...}, "peak_rss_mb": ..., "baseline_rss_mb": ...}``

``peak_rss_mb`` is the process's peak resident set size (``ru_maxrss``), interpreter and
libraries included; ``baseline_rss_mb`` is the resident size after the warm-up, just
before the measurement.  A worker that dies without writing its report (killed at the
time limit, or aborted by a library that could not allocate) is classified by the parent,
:mod:`benchmarks.harness`.

The peer ``sizes`` measures the game's sequence form instead of solving it.  An iterative
peer's warm-up is a run of :data:`WARMUP_BUDGET` seconds; ``--budget`` sets its measured run's.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

__all__ = ["WARMUP_BUDGET", "WARMUP_GAME", "main"]

WARMUP_GAME = "kuhn"
WARMUP_BUDGET = 0.02  # solver seconds of an iterative peer's warm-up run


def _limit_memory(limit_bytes: int) -> None:
    if limit_bytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def _current_rss_mb() -> float | None:
    try:
        status = Path("/proc/self/status").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.worker",
        description="Run one benchmark measurement and write a JSON report.",
    )
    parser.add_argument("peer", help="a peer of benchmarks.peers.PEERS, or 'sizes'")
    parser.add_argument("game", help="a seqform game name, e.g. 'liars_dice(sides=5)'")
    parser.add_argument("--result", type=Path, required=True, help="where to write the report")
    parser.add_argument("--ready", type=Path, help="touched when the measurement starts")
    parser.add_argument("--memory-bytes", type=int, default=0, help="address-space cap; 0 for none")
    parser.add_argument(
        "--budget", type=float, help="an iterative peer's solver seconds (default: the game's)"
    )
    parser.add_argument(
        "--no-warmup", action="store_true", help=f"do not solve {WARMUP_GAME} first"
    )
    return parser


def _measure(args: argparse.Namespace, report: dict[str, object]) -> None:
    from benchmarks.peers import measure_sizes, prepare, run_peer

    prepare(args.peer)
    with tempfile.TemporaryDirectory(prefix="seqform-bench-") as scratch:
        if args.peer != "sizes" and not args.no_warmup:
            run_peer(args.peer, WARMUP_GAME, Path(scratch), budget=WARMUP_BUDGET)
        report["baseline_rss_mb"] = _current_rss_mb()
        if args.ready is not None:
            args.ready.touch()
        if args.peer == "sizes":
            report["sizes"] = asdict(measure_sizes(args.game))
        else:
            outcome = run_peer(args.peer, args.game, Path(scratch), budget=args.budget)
            report["outcome"] = asdict(outcome)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement named on the command line; the exit code is 0 if it was written."""
    args = build_parser().parse_args(argv)
    _limit_memory(args.memory_bytes)
    report: dict[str, object] = {"status": "ok", "detail": ""}
    try:
        _measure(args, report)
    except MemoryError as exc:
        report.update(status="out of memory", detail=_first_line(exc))
    except Exception as exc:
        from benchmarks.peers import PeerUnavailableError
        from seqform.game.errors import TreeTooLargeError

        if isinstance(exc, PeerUnavailableError):
            status = "unavailable"
        elif isinstance(exc, TreeTooLargeError):
            status = "refused"  # the tree is larger than seqform builds
        else:
            status = "error"
        report.update(status=status, detail=_first_line(exc))
    report["peak_rss_mb"] = _peak_rss_mb()
    from seqform.io.atomic import write_atomically  # after the measurement, not before

    write_atomically(args.result, json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
