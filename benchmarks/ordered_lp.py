"""The structured route's LP with and without the ordered game isomorphism, in one process.

Run from the checkout::

    python -m benchmarks.ordered_lp                              # rhode_island(ranks=3)
    python -m benchmarks.ordered_lp "rhode_island(ranks=4)" leduc(ranks=13,suits=4)

Each game is solved twice by ``seqform.solve(GAME, method="structured")``: at the suit
isomorphism's hand classes alone (``ordered_isomorphism=False``), then with the ordered
game isomorphism's merge after them (the default,
:mod:`seqform.structured.reductions.ordered_isomorphism`).  Both answers are lifted to the game and
certified there; the page gives each run's LP (rows, non-zeros), Clarabel's iterations,
the phases (build and reduce, LP, certificate), the value and the exploitability, and the
ratio of the LP times measured in this one run (the machine is shared: a ratio from one
run is what is comparable, not the seconds).  The table goes to standard output and to
``benchmarks/results/ordered_lp.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from seqform import solve

RESULTS = Path(__file__).parent / "results"
DEFAULT_GAMES = ("rhode_island(ranks=3)",)


@dataclass(frozen=True)
class Run:
    """One solve: the LP's size, the solver's iterations, the phases and the answer."""

    game: str
    ordered: bool
    rows: int
    nonzeros: int
    iterations: int
    build: float
    lp: float
    certificate: float
    value: float
    exploitability: float


def measure(game: str, ordered: bool) -> Run:
    """``game`` solved on the structured route, with or without the ordered step."""
    solution = solve(game, method="structured", ordered_isomorphism=ordered, force=True)
    timings, stats = solution.timings, solution.stats
    return Run(
        game=game,
        ordered=ordered,
        rows=stats.constraints,
        nonzeros=stats.nonzeros,
        iterations=stats.iterations,
        build=timings.sequence_form,
        lp=timings.lp,
        certificate=timings.certificate,
        value=float(solution.value),
        exploitability=float(solution.certificate.relative_exploitability),
    )


def table(runs: list[tuple[Run, Run]]) -> str:
    """The page: one row per run, and the LP-time ratio per game."""
    lines = [
        "| game | classes | LP rows | non-zeros | iterations | build + reduce | LP | "
        "certificate | value | exploitability | LP time ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for suits, ordered in runs:
        for run in (suits, ordered):
            ratio = f"{suits.lp / max(ordered.lp, 1e-9):.2f}" if run is ordered else ""
            lines.append(
                f"| `{run.game}` | {'ordered' if run.ordered else 'suits'} | {run.rows:,} | "
                f"{run.nonzeros:,} | {run.iterations} | {run.build:.1f} s | {run.lp:.1f} s | "
                f"{run.certificate:.1f} s | {run.value:.9f} | {run.exploitability:.1e} | "
                f"{ratio} |"
            )
    load = " to ".join(f"{x:.1f}" for x in os.getloadavg())
    return "\n".join([*lines, "", f"Load average at the end (1, 5, 15 min): {load}."])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(DEFAULT_GAMES))
    args = parser.parse_args(argv)
    runs = []
    for game in args.games:
        suits = measure(game, ordered=False)
        print(f"{game}: suits {suits.lp:.1f} s of LP", file=sys.stderr)
        ordered = measure(game, ordered=True)
        print(f"{game}: ordered {ordered.lp:.1f} s of LP", file=sys.stderr)
        runs.append((suits, ordered))
    page = table(runs)
    print(page)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "ordered_lp.md").write_text(page + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
