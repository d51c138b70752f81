"""Rhode Island hold'em's LP ladder: decks that grow toward the full game, each solved and
certified on the structured route, and the full game's LP extrapolated from them.

Run from the checkout::

    python -m benchmarks.rhode_island                 # the ladder, 30 minutes a rung at most
    python -m benchmarks.rhode_island --only "rhode_island(ranks=3)" --time-limit 600
    python -m benchmarks.rhode_island --from-json benchmarks/results/rhode_island.json
    python -m benchmarks.rhode_island --full          # the full game, forced past the refusal
    python -m benchmarks.rhode_island --cfr           # vector CFR's curve on the full game
                                                      # (benchmarks/rhode_island_cfr.py)

Each rung is a fresh ``python -m benchmarks.rhode_island --rung GAME`` process that solves the
game as ``seqform.solve(GAME, method="structured")`` does (suit isomorphism on, the route's
solver choice), so it is refused, progresses and stops at Ctrl-C as ``solve`` does.  The
parent records the child's wall-clock time and its peak resident set (``wait4``), the load
average when it started and ended (the machine is shared), and kills it at the time limit plus
a margin; the child writes its phases (``timings``), LP sizes before and after the reduction,
solver, value and certificate.  ``solve`` refuses a deck whose memory estimate exceeds what
the machine has (the full game always): each rung records that refusal's message, if any,
and then solves with ``force=True``, the library's name for the CLI's ``--force`` (this
benchmark is the explicit opt-in).  The full game runs only with ``--full``.

The table goes to ``benchmarks/results/rhode_island.md`` and ``.json``.  Time and memory are
fitted against the reduced LP's size by least squares in log-log (a power law), and
extrapolated to the full game's reduced LP, whose size :func:`reduced_sizes` gives by formula
(the orbits of (private card, board) under suit permutations, checked against every rung the
ladder measures).

Size: the child's measurement, the parent's, the fit and the page are one benchmark, kept in
one file so that the rows a child writes and the table and fit that read them change together.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"
REPOSITORY = Path(__file__).resolve().parent.parent  # the child runs from here
FULL_GAME = "rhode_island"
LADDER = (
    "rhode_island(ranks=2, suits=4)",
    "rhode_island(ranks=3, suits=2)",
    "rhode_island(ranks=3)",
    "rhode_island(ranks=4)",
    "rhode_island(ranks=5)",
    "rhode_island(ranks=6)",
    "rhode_island(ranks=13, suits=1)",
    "rhode_island(ranks=8)",
)
"""Decks by their reduced LP's size, smallest first (ranks=R keeps the R highest ranks)."""

TIME_LIMIT = 1800.0  # seconds of one rung's solver before it is stopped and recorded
MARGIN = 1.5  # the child is killed at MARGIN × its time limit + 120 s (build and certificate)
FULL_BUDGET_SECONDS = 2 * 3600  # one run of the full game: 2 hours and 20 GB on 2 cores
FULL_BUDGET_MIB = 20 * 1024

# One betting round with the default betting (bets 10/20/20, at most 3 bets): each player
# decides at 4 public nodes with 10 actions in all, and 7 histories call the round closed.
ROUND_DECISIONS, ROUND_ACTIONS, ROUND_ENDS = 4, 10, 7


@dataclass(frozen=True)
class ReducedSizes:
    """A deck's sequences and information sets per player, in the game and after the suit
    reduction (equal for both players: the rounds have the same shape for each)."""

    sequences: int
    infosets: int
    reduced_sequences: int
    reduced_infosets: int


def _orbits(ranks: int, suits: int) -> tuple[int, int, int]:
    """Orbits under suit permutations of a private card, of (card, first public card) and of
    (card, both public cards), the cards distinct: one orbit per pattern of equal suits
    the deck allows, times the ranks each pattern leaves (a repeated suit needs distinct
    ranks)."""
    one = ranks
    same, some = ranks * (ranks - 1), ranks * ranks
    two = same + (some if suits >= 2 else 0)
    all_same = ranks * (ranks - 1) * (ranks - 2)
    pair_same = 3 * ranks * ranks * (ranks - 1)  # which two of the three share a suit
    three = all_same + (pair_same if suits >= 2 else 0) + (ranks**3 if suits >= 3 else 0)
    return one, two, three


def reduced_sizes(ranks: int = 13, suits: int = 4) -> ReducedSizes:
    """Sizes of ``rhode_island(ranks, suits)`` (default betting) by formula, before and after
    the lossless suit reduction of :mod:`seqform.structured.reductions.suit_reduction`.

    A player's information set is its card, the public cards and the betting: per round the
    deals ``D1 = n``, ``D2 = n (n-1)``, ``D3 = n (n-1) (n-2)`` (ordered) times the betting
    that leads there (``1``, ``k``, ``k²`` with ``k`` = 7 ways to close a round), 4 decision
    nodes and 10 actions a round: information sets ``4 (D1 + k D2 + k² D3)``, sequences
    ``1 + 10 (…)``.  The reduction keeps one (card, board) per orbit under the suit
    permutations (canonical boards, then hand classes), so the same count on orbits
    (:func:`_orbits`) gives its sizes.  The game's own count is checked against
    :func:`seqform.game.builtin.rhode_island_sizes.rhode_island_sizes`.
    """
    from seqform.game.builtin.rhode_island_sizes import rhode_island_sizes

    n = ranks * suits
    k = ROUND_ENDS
    deals = n + k * n * (n - 1) + k * k * n * (n - 1) * (n - 2)
    one, two, three = _orbits(ranks, suits)
    orbits = one + k * two + k * k * three
    sizes = ReducedSizes(
        sequences=1 + ROUND_ACTIONS * deals,
        infosets=ROUND_DECISIONS * deals,
        reduced_sequences=1 + ROUND_ACTIONS * orbits,
        reduced_infosets=ROUND_DECISIONS * orbits,
    )
    counted = rhode_island_sizes(ranks, suits)
    if (counted.sequences[0], counted.infosets[0]) != (sizes.sequences, sizes.infosets):
        raise AssertionError(f"the round's shape has changed: {counted} against {sizes}")
    return sizes


def deck_of(game: str) -> tuple[int, int]:
    """``(ranks, suits)`` of a ladder name such as ``"rhode_island(ranks=3, suits=2)"``; the
    ladder keeps the default betting, which :func:`reduced_sizes` counts."""
    head, _, inside = game.partition("(")
    values = {"ranks": 13, "suits": 4}
    for part in filter(None, (p.strip() for p in inside.rstrip(")").split(","))):
        name, _, value = part.partition("=")
        if head.strip() != FULL_GAME or name.strip() not in values:
            raise ValueError(f"{game!r}: the ladder takes rhode_island(ranks=R, suits=S) only")
        values[name.strip()] = int(value)
    return values["ranks"], values["suits"]


def _load() -> tuple[float, float]:
    one, five, _ = os.getloadavg()
    return round(one, 2), round(five, 2)


def solve_rung(game: str, time_limit: float, force: bool) -> dict[str, Any]:
    """Solve ``game`` as ``seqform.solve(game, method="structured")`` does (in this process)
    and say what it took; progress goes to stderr as the CLI's does."""
    import seqform

    ranks, suits = deck_of(game)
    report: dict[str, Any] = {"game": game, "ranks": ranks, "suits": suits}
    report["formula"] = asdict(reduced_sizes(ranks, suits))
    start = time.perf_counter()
    messages: list[str] = []

    def progress(message: str) -> None:
        line = f"[{time.perf_counter() - start:7.1f} s] {message}"
        messages.append(line)
        print(f"  {line}", file=sys.stderr, flush=True)

    from seqform.lp.solvers import SolverLimitError
    from seqform.routes.policy import choose_route
    from seqform.routes.sizing.memory import MemoryRefusedError

    try:
        try:  # what solve says without force: its route is sized before anything is built
            choose_route(game, "structured")
        except MemoryRefusedError as exc:
            report["refusal"] = str(exc)
        # the ladder is measured and extrapolated on the suit classes it was first run on; the
        # ordered step's gain (solve's default) is benchmarks/ordered_lp.py's measurement
        result = seqform.solve(
            game,
            method="structured",
            time_limit=time_limit,
            force=force,
            progress=progress,
            ordered_isomorphism=False,
        )
    except Exception as exc:  # each failure is a row of the table, not a traceback
        status = "refused" if isinstance(exc, MemoryRefusedError) else "error"
        status = "time limit" if isinstance(exc, SolverLimitError) else status
        report.update(status=status, detail=str(exc).splitlines()[0] if str(exc) else "")
        report["seconds"] = time.perf_counter() - start
        return report
    except KeyboardInterrupt:  # the parent's wall-clock limit: keep the phases finished
        seconds = time.perf_counter() - start
        last = messages[-1] if messages else "before the first phase"
        report.update(status="stopped", detail=f"interrupted after {seconds:.0f} s; last: {last}")
        report.update(seconds=seconds, progress=messages)
        return report
    return _solved(report, result, time.perf_counter() - start)


def _solved(report: dict[str, Any], result: Any, seconds: float) -> dict[str, Any]:
    """``report`` with what a rung's solve gave: its certificate, phases, solver and sizes."""
    from seqform.certify import is_certified

    certificate = result.certificate
    sizes = result.suit_reduction
    report.update(
        status="certified" if is_certified(certificate) else "not certified",
        seconds=seconds,
        phases={phase.name: phase.seconds for phase in result.timings.phases},
        value=float(result.value),
        nash_conv=float(certificate.nash_conv),
        exploitability=float(certificate.exploitability),
        relative_exploitability=float(certificate.relative_exploitability),
        solver=f"{result.stats.backend} {result.stats.solver}",
        iterations=result.stats.iterations,
        solver_seconds=result.stats.solver_seconds,
        solved_lp=[result.stats.constraints, result.stats.variables, result.stats.nonzeros],
    )
    if sizes is not None:
        report.update(
            group_order=sizes.group_order,
            sequences=sizes.full.sequences[0],
            reduced_sequences=sizes.reduced.sequences[0],
            canonical_lp=list(sizes.canonical_lp),
            reduced_lp=list(sizes.reduced_lp),
        )
    return report


def measure(game: str, time_limit: float, force: bool = False) -> dict[str, Any]:
    """One rung in a fresh process: its report, with the parent's wall-clock seconds, the
    child's peak resident set (``wait4``) and the load average at its start and end.  At
    ``MARGIN`` × ``time_limit`` + 120 s the child is interrupted as Ctrl-C would (SIGINT),
    and killed 60 s later if it has not stopped."""
    with tempfile.TemporaryDirectory(prefix="seqform-ri-") as scratch:
        out = Path(scratch) / "rung.json"
        command = [sys.executable, "-m", "benchmarks.rhode_island", "--rung", game]
        command += ["--result", str(out), "--time-limit", str(time_limit)]
        command += ["--force"] if force else []
        load_before = _load()
        start = time.perf_counter()
        # SIGINT restored to its default in the child: a benchmark started in the background
        # of a shell inherits it ignored, and Python then never raises KeyboardInterrupt
        child = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
            cwd=REPOSITORY,  # `-m benchmarks...` resolves from any directory the parent ran in
        )
        deadline, stopped = start + MARGIN * time_limit + 120, ""
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline and not stopped:
                child.send_signal(signal.SIGINT)  # the route stops as at Ctrl-C
                stopped, deadline = "interrupted at the wall-clock limit", deadline + 60
            elif time.perf_counter() > deadline:
                child.kill()
                stopped = "killed at the wall-clock limit"
            time.sleep(0.5)
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        wall = time.perf_counter() - start
        report: dict[str, Any] = (
            json.loads(out.read_text(encoding="utf-8"))
            if out.exists()
            else {
                "game": game,
                "status": "killed",
                "detail": stopped or f"no report (exit {child.returncode})",
            }
        )
    report.update(
        wall_seconds=wall,
        peak_mib=usage.ru_maxrss / 1024,  # KiB on Linux
        load_before=load_before,
        load_after=_load(),
        time_limit=time_limit,
    )
    if stopped and report.get("status") in (None, "error", "killed"):
        report["status"] = "stopped"
    return report


@dataclass(frozen=True)
class PowerLaw:
    """``y = scale · x^exponent`` fitted by least squares on ``log y`` against ``log x``."""

    exponent: float
    scale: float
    points: int

    def at(self, x: float) -> float:
        return self.scale * x**self.exponent


def fit(xs: Sequence[float], ys: Sequence[float]) -> PowerLaw | None:
    """The power law through ``(xs, ys)``, or None with fewer than two distinct sizes."""
    import numpy as np

    pairs = [(x, y) for x, y in zip(xs, ys, strict=True) if x > 0 and y > 0]
    if len({x for x, _ in pairs}) < 2:
        return None
    logs = np.log([[x, y] for x, y in pairs])
    exponent, intercept = np.polyfit(logs[:, 0], logs[:, 1], 1)
    return PowerLaw(float(exponent), float(math.exp(intercept)), len(pairs))


FIT_RUNGS = 3  # the largest certified rungs fit the laws: the small ones are start-up time


def extrapolate(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Time and memory of the full game's reduced LP from the certified rungs' power laws.

    Only the four-suit decks are fitted: they are reduced by the same 24 suit permutations as
    the full game, so their LP has its shape (a one-suit deck is not reduced at all).

    The LP's time and the peak memory are fitted against the reduced sequences per player
    (what the factorisation sees); building and reducing the LP and certifying the answer
    work on the whole game, and are fitted against its sequences.  The full game is judged
    against one run of 2 hours and 20 GiB."""
    solved = sorted(
        (row for row in rows if row.get("status") in _MEASURED and row.get("suits") == 4),
        key=lambda row: row["formula"]["reduced_sequences"],
    )[-FIT_RUNGS:]
    full = reduced_sizes()
    small = [row["formula"]["reduced_sequences"] for row in solved]
    large = [row["formula"]["sequences"] for row in solved]
    phase = {name: [row["phases"].get(name, 0.0) for row in solved] for name in _PHASES}
    laws = {
        "lp_seconds": (fit(small, phase["lp"]), full.reduced_sequences),
        "build_seconds": (fit(large, phase["sequence_form"]), full.sequences),
        "certificate_seconds": (fit(large, phase["certificate"]), full.sequences),
        "peak_mib": (fit(small, [row["peak_mib"] for row in solved]), full.reduced_sequences),
        "peak_mib_by_game": (fit(large, [row["peak_mib"] for row in solved]), full.sequences),
    }
    out: dict[str, Any] = {"rungs": [row["game"] for row in solved], "full": asdict(full)}
    for name, (law, x) in laws.items():
        out[name] = None if law is None else {"law": asdict(law), "full_game": law.at(x)}
    if all(law is not None for law, _ in laws.values()):
        seconds = sum(out[name]["full_game"] for name in _SECONDS)
        mib = max(out["peak_mib"]["full_game"], out["peak_mib_by_game"]["full_game"])
        out.update(
            seconds=seconds,
            mib=mib,
            fits=seconds <= FULL_BUDGET_SECONDS and mib <= FULL_BUDGET_MIB,
        )
    return out


_PHASES = ("sequence_form", "lp", "behaviour", "certificate")
_MEASURED = ("certified", "not certified")  # the LP solved and measured: its time and memory
_SECONDS = ("lp_seconds", "build_seconds", "certificate_seconds")


def _n(value: float | None, digits: int = 3) -> str:
    if value is None:
        return "—"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.{digits}g}"


def _row(row: dict[str, Any]) -> str:
    from seqform.game.builtin.rhode_island_sizes import rhode_island_sizes

    formula = row.get("formula") or asdict(reduced_sizes(*deck_of(row["game"])))
    lp_rows = rhode_island_sizes(*deck_of(row["game"])).lp_rows(0)
    solved = row.get("solved_lp")
    phases = row.get("phases", {})
    certified = row.get("status") == "certified"
    cells = [
        f"`{row['game']}`",
        f"{formula['sequences']:,}",
        f"{formula['reduced_sequences']:,}",
        f"{lp_rows:,}",
        _estimate(row),
        f"{solved[0]:,} × {solved[1]:,}, {solved[2]:,}" if solved else "—",
        f"{row['solver']} ({row.get('iterations', '?')})" if "solver" in row else "—",
        _n(phases.get("sequence_form")),
        _n(phases.get("lp")),
        _n(phases.get("certificate")),
        _n(row.get("wall_seconds")),
        _n(row.get("peak_mib")),
        f"{row['value']:.9f}" if certified else "—",  # an uncertified value is not shown
        f"{row['relative_exploitability']:.1e}" if "relative_exploitability" in row else "—",
        row.get("status", "—")
        + (f": {row['detail'][:120]}" if row.get("detail") else "")
        + (f" ({row['source']})" if row.get("source") else ""),
        f"{row['load_before'][0]:.1f} / {row['load_after'][0]:.1f}" if "load_after" in row else "—",
    ]
    return "| " + " | ".join(cells) + " |"


def _estimate(row: dict[str, Any]) -> str:
    """``solve``'s memory estimate for the deck when it refused it, from its message."""
    refusal = row.get("refusal")
    if not refusal:
        return "not refused"
    needs = refusal.partition("needs about ")[2].partition(" (estimated)")[0]
    return f"refused: {needs or 'see the JSON'}"


HEADER = (
    "| deck | sequences per player | after suit reduction | LP rows unreduced | "
    "solve without --force | LP solved "
    "(rows × columns, non-zeros) | solver (iterations) | build + reduce, s | LP, s | "
    "certificate, s | wall, s | peak, MiB | value | exploitability / payoff range | status | "
    "load 1 min, start / end |"
)


def render(rows: Sequence[dict[str, Any]], machine: dict[str, Any]) -> str:
    """The results page: the ladder's table, the laws fitted and the full game's verdict."""
    full = reduced_sizes()
    guess = extrapolate(rows)
    lines = [
        "# Rhode Island hold'em: the LP ladder",
        "",
        "Written by `python -m benchmarks.rhode_island` (module docstring): each deck solved by",
        '`seqform.solve(GAME, method="structured")` in a fresh process, suit isomorphism on;',
        "times are wall-clock seconds, peak is the process's resident set.  The machine is",
        f"shared: {machine['cpu']}, {machine['usable_cores']} cores, {machine['memory_gb']} GiB;",
        f"seqform {machine['commit']}; the load average is given with each row.",
        "",
        HEADER,
        "|" + "---|" * HEADER.count(" | ") + "---|",
        *(_row(row) for row in rows),
        "",
        f"The full game: {full.sequences:,} sequences per player, {full.reduced_sequences:,} "
        f"after the suit reduction ({full.reduced_infosets:,} information sets), by formula",
        "(`reduced_sizes`, equal to the reduction's own count on every rung above).",
        "",
    ]
    if "seconds" not in guess:
        lines.append("Too few certified rungs to fit a law.")
        return "\n".join(lines) + "\n"
    lines += [
        "Power laws fitted on the largest four-suit rungs whose LP was solved "
        f"({', '.join(guess['rungs'])}), reduced like the full game:",
        "",
        "| quantity | against | exponent | full game |",
        "|---|---|---|---|",
    ]
    for name, against, unit in (
        ("lp_seconds", "reduced sequences", "s"),
        ("build_seconds", "sequences", "s"),
        ("certificate_seconds", "sequences", "s"),
        ("peak_mib", "reduced sequences", "MiB"),
        ("peak_mib_by_game", "sequences", "MiB"),
    ):
        law = guess[name]
        lines.append(
            f"| {name} | {against} | {law['law']['exponent']:.2f} | "
            f"{law['full_game']:,.0f} {unit} |"
        )
    verdict = "fits" if guess["fits"] else "does not fit"
    lines += [
        "",
        f"Extrapolated, the full game needs about {guess['seconds'] / 3600:,.1f} hours and "
        f"{guess['mib'] / 1024:,.1f} GiB: it **{verdict}** one run of 2 hours and 20 GiB on "
        "this machine.",
    ]
    return "\n".join(lines) + "\n"


def write(rows: Sequence[dict[str, Any]], out: Path) -> None:
    """``rhode_island.json`` (the rows, the machine, the extrapolation) and ``.md``."""
    from benchmarks.machine import describe_machine

    machine = asdict(describe_machine())
    out.mkdir(parents=True, exist_ok=True)
    rows = sorted(rows, key=lambda row: reduced_sizes(*deck_of(row["game"])).reduced_sequences)
    data = {"machine": machine, "rows": rows, "extrapolation": extrapolate(rows)}
    (out / "rhode_island.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    (out / "rhode_island.md").write_text(render(rows, machine), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    if "--cfr" in arguments:  # the CFR curve is its own benchmark, with its own options
        from benchmarks.rhode_island_cfr import main as cfr_main

        return cfr_main([a for a in arguments if a != "--cfr"])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="GAME", help="these decks, not the ladder")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS")
    parser.add_argument("--full", action="store_true", help="the full game, forced (hours)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the results go")
    parser.add_argument("--keep", action="store_true", help="add to the rows already in --out")
    parser.add_argument("--from-json", type=Path, help="render a results file again, no solving")
    parser.add_argument("--rung", help=argparse.SUPPRESS)  # the child's mode
    parser.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--force", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(arguments)
    if args.rung:
        from seqform.io.atomic import write_atomically

        write_atomically(
            args.result, json.dumps(solve_rung(args.rung, args.time_limit, args.force))
        )
        return 0
    if args.from_json:
        write(json.loads(args.from_json.read_text(encoding="utf-8"))["rows"], args.out)
        return 0
    games = [FULL_GAME] if args.full else (args.only or list(LADDER))
    rows: list[dict[str, Any]] = []
    previous = args.out / "rhode_island.json"
    if args.keep and previous.exists():
        rows = [
            row
            for row in json.loads(previous.read_text(encoding="utf-8"))["rows"]
            if row["game"] not in games
        ]
    for game in games:
        print(f"{game}: load {_load()[0]:.1f}", file=sys.stderr, flush=True)
        row = measure(game, args.time_limit, force=True)
        rows.append(row)
        print(_row(row), flush=True)
        write(rows, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
