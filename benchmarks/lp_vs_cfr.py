"""LP or CFR on a big game?  Time to NashConv 1e-3, 1e-6 and a certified exact answer.

Zhang and Sandholm (ICML 2020, "Sparsified linear programming for zero-sum equilibrium
finding") ask whether an LP, made small by the game's structure, beats the CFR family on
big games.  ``python -m benchmarks.lp_vs_cfr`` measures it on the structured layout, where
both run without the game tree, one child process per (game, method), one game after the
other, each under a time cap:

``lp``
    ``solve GAME --method structured``: the sparsified LP, the behavioural strategies and
    their certificate by best response.  Its time to 1e-3 and to 1e-6 is the whole
    pipeline's (``timings.total``) when the certified NashConv is below the target.
``lp --exact``
    ``solve GAME --method structured --exact``: the same LP's basis re-solved in
    rationals and certified in exact arithmetic: the "certified exact" column.
``cfr``, ``cfr+``, ``dcfr``
    ``iterate GAME --method structured`` (vector CFR, :mod:`seqform.structured.vector_cfr`)
    until NashConv ≤ 1e-6 or the cap of solver seconds, NashConv measured every ``every``
    iterations; the time to a target is the solver seconds of the first sample at or below
    it (measurements and the set-up of the tables not counted; one sample step late at
    most).  An iterative method never gives the exact answer.

Each row also gives the child's peak memory (``wait4``).  ``--games`` picks a subset,
``--cap`` the seconds per CFR run, ``--json FILE`` writes the measurements (the notebook and
the docs read them).  Timings are one run on a shared machine: orders of magnitude and
ratios measured in one run.
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
from collections.abc import Sequence
from dataclasses import asdict, dataclass

__all__ = ["GAMES", "METHODS", "TARGETS", "Row", "main", "time_to"]

GAMES = (
    "leduc(ranks=13)",
    "leduc(ranks=13, suits=4)",
    "liars_dice(sides=7)",
    "liars_dice(sides=8)",
    "kuhn(cards=10000)",
    "kuhn(cards=100000)",
)
METHODS = ("lp", "lp-exact", "cfr", "cfr+", "dcfr")
TARGETS = (1e-3, 1e-6)
MEMORY_CAP = 8 * 2**30  # bytes of address space per child


@dataclass(frozen=True)
class Row:
    """One (game, method) measured.

    reach : per target of :data:`TARGETS`, seconds to reach it, or None
    iterations : per target, the iteration it was reached at (CFR), or None
    exact : seconds to a certified exact answer, or None
    nash_conv : the last NashConv measured (None when the run failed)
    iterations_run : CFR's iterations in the run (0 for the LP)
    peak_gib : the child's peak resident memory
    whole : the child's wall seconds, start to exit
    outcome : "ok", or why there is no answer ("timeout after 600 s", "exit code 1", ...)
    """

    game: str
    method: str
    reach: tuple[float | None, ...]
    iterations: tuple[int | None, ...]
    exact: float | None
    nash_conv: float | None
    iterations_run: int
    peak_gib: float
    whole: float
    outcome: str


def time_to(history: Sequence[dict[str, float]], target: float) -> tuple[float, int] | None:
    """Solver seconds and iteration of the first sample with NashConv at most ``target``."""
    for sample in history:
        if sample["nash_conv"] <= target:
            return float(sample["seconds"]), int(sample["iteration"])
    return None


def _argv(game: str, method: str, cap: float, every: int) -> list[str]:
    base = [sys.executable, "-m", "seqform"]
    common = ["--method", "structured", "--quiet", "--format", "json"]
    if method in ("lp", "lp-exact"):
        return [*base, "solve", game, *common, *(["--exact"] if method == "lp-exact" else [])]
    return [
        *base,
        "iterate",
        game,
        "--algorithm",
        method,
        *common,
        "--time-limit",
        str(cap),
        "--target-exploitability",
        str(min(TARGETS) / 2),  # the targets are NashConv; the option takes NashConv / 2
        "--every",
        str(every),
        "--no-reference",
    ]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@dataclass(frozen=True)
class _Child:
    document: dict[str, object] | None
    outcome: str
    peak_gib: float
    whole: float


def _run_child(argv: list[str], timeout: float) -> _Child:
    """Run ``argv`` with its output in a file; kill it after ``timeout`` wall seconds."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as output:
        child = subprocess.Popen(
            argv, stdout=output, stderr=subprocess.DEVNULL, preexec_fn=_limit_memory
        )
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                child.kill()
                _, status, usage = os.wait4(child.pid, 0)
                child.returncode = -9
                return _Child(
                    None, f"timeout after {timeout:.0f} s", usage.ru_maxrss / 2**20, timeout
                )
            time.sleep(0.2)
        child.returncode = os.waitstatus_to_exitcode(status)
        whole, peak = time.perf_counter() - start, usage.ru_maxrss / 2**20  # KiB -> GiB
        if child.returncode not in (0, 3):  # 3: written but not certified
            return _Child(None, f"exit code {child.returncode}", peak, whole)
        output.seek(0)
        return _Child(json.load(output), "ok", peak, whole)


def _lp_row(game: str, method: str, child: _Child) -> Row:
    document = child.document or {}
    certificate = document.get("certificate") or {}
    nash_conv = certificate.get("nash_conv") if isinstance(certificate, dict) else None
    timings = document.get("timings") or {}
    total = timings.get("total") if isinstance(timings, dict) else None
    exact = method == "lp-exact" and nash_conv == 0 and bool(document.get("value_fraction"))
    reach = tuple(
        total if (nash_conv is not None and float(nash_conv) <= target) else None
        for target in TARGETS
    )
    return Row(
        game, method, reach, (None,) * len(TARGETS), total if exact else None,
        None if nash_conv is None else float(nash_conv), 0, child.peak_gib, child.whole,
        child.outcome,
    )  # fmt: skip


def _cfr_row(game: str, method: str, child: _Child) -> Row:
    document = child.document or {}
    history = document.get("history") or []
    reached = [time_to(history, target) for target in TARGETS]  # type: ignore[arg-type]
    nash_conv = document.get("nash_conv")
    return Row(
        game, method, tuple(r[0] if r else None for r in reached),
        tuple(r[1] if r else None for r in reached), None,
        None if nash_conv is None else float(nash_conv),  # type: ignore[arg-type]
        int(document.get("iterations", 0)), child.peak_gib, child.whole, child.outcome,  # type: ignore[call-overload]
    )  # fmt: skip


def measure(game: str, method: str, cap: float, every: int, lp_caps: tuple[float, float]) -> Row:
    """One (game, method) in its own process (module docstring); ``lp_caps``: wall seconds
    for the float LP and for the exact one."""
    argv = _argv(game, method, cap, every)
    if method.startswith("lp"):
        return _lp_row(game, method, _run_child(argv, lp_caps[method == "lp-exact"]))
    return _cfr_row(game, method, _run_child(argv, 3 * cap + 300))


def _seconds(value: float | None, iteration: int | None = None) -> str:
    if value is None:
        return "—"
    shown = f"{value:.3g} s"
    return shown if iteration is None else f"{shown} ({iteration:,})"


def render(rows: Sequence[Row], cap: float) -> str:
    """The Markdown table of the rows, one line per (game, method)."""
    lines = [
        "| game | method | to 1e-3 | to 1e-6 | certified exact | last NashConv | peak GiB |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        to = [_seconds(r, i) for r, i in zip(row.reach, row.iterations, strict=True)]
        if row.method.startswith("lp"):
            exact = _seconds(row.exact) if row.method == "lp-exact" else "(float LP)"
        else:
            exact = "never (iterative)"
        if row.outcome != "ok":
            exact = f"{exact}; {row.outcome}"
        last = "—" if row.nash_conv is None else f"{row.nash_conv:.2e}"
        if not row.method.startswith("lp") and row.outcome == "ok":
            last += f" after {row.iterations_run:,}"
        lines.append(
            f"| {row.game} | {row.method} | {to[0]} | {to[1]} | {exact} | {last} | "
            f"{row.peak_gib:.2f} |"
        )
    lines.append(f"\nCFR runs capped at {cap:g} s of solver time; '—' not reached.")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every (game, method) of the selection, one after the other."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lp_vs_cfr", description=__doc__)
    parser.add_argument("--games", nargs="+", default=list(GAMES), help="games to measure")
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--cap", type=float, default=120.0, help="solver seconds per CFR run")
    parser.add_argument("--lp-cap", type=float, default=600.0, help="wall seconds, float LP")
    parser.add_argument("--exact-cap", type=float, default=300.0, help="wall seconds, exact LP")
    parser.add_argument("--every", type=int, default=10, help="NashConv every K iterations")
    parser.add_argument("--json", help="also write the rows here")
    args = parser.parse_args(argv)
    rows = []
    for game in args.games:
        for method in args.methods:
            caps = (args.lp_cap, args.exact_cap)
            row = measure(game, method, args.cap, args.every, caps)
            rows.append(row)
            print(render([row], args.cap).splitlines()[2], file=sys.stderr, flush=True)
            if args.json:
                with open(args.json, "w", encoding="utf-8") as handle:
                    json.dump([asdict(r) for r in rows], handle, indent=1)
    print(render(rows, args.cap))
    return 0


if __name__ == "__main__":
    sys.exit(main())
