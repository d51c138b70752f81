"""Full-game exploitability of card abstractions as buckets grow: a table and a plot.

For each game and each rung of a ladder of bucket counts (one count per round), the card
abstraction is solved (``seqform.abstract``), its equilibrium lifted to the full game and
measured there by best response (Johanson, Burch, Valenzano and Bowling, AAMAS 2013).  The
curve need not fall at every rung: Waugh et al. (AAMAS 2009) showed that a finer
abstraction can give a more exploitable strategy (abstraction pathologies).

Writes ``benchmarks/results/abstraction_ladder.md``, ``.csv`` and ``.png``.  Leduc 13 × 4
always; Rhode Island Hold'em too where seqform has it (``rhode_island``).  Run from the
checkout::

    python -m benchmarks.abstraction_ladder [--features ehs|ehs2|histogram] [--quick]

Exploitability is in chips per game and in milli-chips per game (mbb/g with the ante, one
chip, as the unit).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import seqform
from seqform.routes.structured import solve_structured

RESULTS = Path(__file__).parent / "results"

LEDUC_LADDER = ("1,1", "2,2", "2,4", "3,3", "3,6", "3,9", "4,8", "5,10", "6,12", "13,13", "13,26")
"""Leduc 13 × 4: from no card information to the ranks (13) and beyond."""

RHODE_ISLAND_LADDER = ("1,1,1", "2,4,8", "3,9,27", "5,10,20", "13,26,52")
"""Rhode Island Hold'em, three rounds."""


def _games(quick: bool) -> list[tuple[str, tuple[str, ...]]]:
    games = [("leduc(ranks=13, suits=4)", LEDUC_LADDER[:4] if quick else LEDUC_LADDER)]
    try:
        seqform.load_structured_game("rhode_island")
    except ValueError:
        print("rhode_island: not in this seqform; Leduc only", file=sys.stderr)
    else:
        games.append(("rhode_island", RHODE_ISLAND_LADDER[:2] if quick else RHODE_ISLAND_LADDER))
    return games


def run(features: str, quick: bool) -> list[dict[str, object]]:
    """Every rung of every game's ladder, measured."""
    rows: list[dict[str, object]] = []
    for name, ladder in _games(quick):
        game = seqform.load_structured_game(name)
        start = time.perf_counter()
        full = solve_structured(game)
        print(
            f"{name}: full LP value {full.value:.9f} in {time.perf_counter() - start:.1f} s",
            file=sys.stderr,
        )
        for spec in ladder:
            start = time.perf_counter()
            result = seqform.abstract(game, spec, features=features)
            seconds = time.perf_counter() - start
            row = {
                "game": name,
                "buckets": spec,
                "features": features,
                "abstract_sequences": result.abstract.tables[0].num_sequences,
                "abstract_value": result.value,
                "full_value": full.value,
                "abstract_exploitability": result.abstract_exploitability,
                "exploitability": result.exploitability,
                "milli_exploitability": 1000 * result.exploitability,
                "seconds": seconds,
            }
            print(row, file=sys.stderr)
            rows.append(row)
    return rows


def write_table(rows: list[dict[str, object]], stem: Path) -> None:
    """The rows as CSV and as a markdown table."""
    with stem.with_suffix(".csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = [
        "| game | buckets | abstract sequences | abstract value | full value | "
        "exploitability in the abstract game | full-game exploitability (chips) | "
        "(milli-chips/game) | seconds |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['game']} | {row['buckets']} | {row['abstract_sequences']:,} | "
            f"{row['abstract_value']:.6f} | {row['full_value']:.6f} | "
            f"{row['abstract_exploitability']:.1e} | {row['exploitability']:.6f} | "
            f"{row['milli_exploitability']:.1f} | {row['seconds']:.1f} |"
        )
    features = rows[0]["features"]
    header = (
        f"# Card abstraction ladder ({features})\n\n"
        "Written by `python -m benchmarks.abstraction_ladder`: each abstraction solved, its "
        "equilibrium lifted to the full game and measured there by best response "
        "(Johanson et al., AAMAS 2013). One run on the development machine (2 cores, shared).\n\n"
    )
    stem.with_suffix(".md").write_text(header + "\n".join(lines) + "\n")


def plot(rows: list[dict[str, object]], path: Path) -> None:
    """Full-game exploitability against the abstract game's sequences, one line per game."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5))
    for game in dict.fromkeys(str(row["game"]) for row in rows):
        mine = [row for row in rows if row["game"] == game]
        sizes = [float(row["abstract_sequences"]) for row in mine]  # type: ignore[arg-type]
        values = [max(float(row["milli_exploitability"]), 1e-6) for row in mine]  # type: ignore[arg-type]
        axes.plot(sizes, values, marker="o", label=game)
        for size, value, row in zip(sizes, values, mine, strict=True):
            axes.annotate(
                str(row["buckets"]),
                (size, value),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=8,
            )
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("abstract game: sequences per player")
    axes.set_ylabel("full-game exploitability (milli-chips per game)")
    axes.set_title(
        f"Card abstraction: lifted strategies measured in the full game ({rows[0]['features']})",
        fontsize=10,
    )
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--features", choices=("ehs", "ehs2", "histogram"), default="ehs")
    parser.add_argument("--quick", action="store_true", help="the first rungs only")
    args = parser.parse_args(argv)
    rows = run(args.features, args.quick)
    stem = RESULTS / "abstraction_ladder"
    write_table(rows, stem)
    plot(rows, stem.with_suffix(".png"))
    print(stem.with_suffix(".md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
