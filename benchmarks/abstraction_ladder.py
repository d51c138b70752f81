"""Full-game exploitability of card abstractions as buckets grow: a table and a plot.

For each game and each rung of a ladder of bucket counts (one count per round), the card
abstraction is solved (``seqform.abstract``), its equilibrium lifted to the full game and
measured there by best response (Johanson, Burch, Valenzano and Bowling, AAMAS 2013).  The
curve need not fall at every rung: Waugh et al. (AAMAS 2009) showed that a finer
abstraction can give a more exploitable strategy (abstraction pathologies).

Games: Leduc 13 × 4 (two rounds), Rhode Island Hold'em on the 16-card deck
``rhode_island(ranks=4)`` (three rounds: each count is the total over the round's parents)
and the full 52-card Rhode Island Hold'em (``--games rhode_island_52``).  On the 16-card
deck the abstraction keeps every deal path's buckets apart (no suit isomorphism), so 2,4,8
buckets already make an abstract LP of 663,061 sequences a player (Clarabel: minutes).
Counts cannot pass a player's hands (16, then 15 and 14 once public cards are turned), so
the ladder stops at 3,6,12; its lossless end is the full game's own LP (suit-reduced,
``solve_structured``), which the lossless abstraction equals
(``tests/test_abstraction_rhode_island.py``).

The 52-card game is abstracted on canonical boards (``seqform.abstract(...,
suit_isomorphism=True)``: one deal path per suit-orbit, buckets that are unions of hand
classes, the same value as the abstraction on every deal path,
``tests/test_abstraction_suits.py``) and its lifted strategies are certified on hand classes
of the game on canonical boards, which gives their exploitability on the 52-card game at an
eighth of its size (the best response on the game itself needs about 15 GB).  Its
value is not solved here: the "full value" is the interval the certified DCFR average
proves (``benchmarks/results/rhode_island_cfr.md``: ``[-0.659337, -0.654373]``).  Peak RSS
is the process's, so a row's is the largest of its own and the rows before it in the run.

Exploitability is written in chips per game, in mbb/game (thousandths of the big blind: as
in docs/resolving.md, Leduc's big blind is its ante, one chip; Rhode Island's its first
round's bet, 10 chips) and in % of the ante (Leduc 1, Rhode Island 5).

Writes ``benchmarks/results/abstraction_ladder.md``, ``.csv`` and ``.png`` after every rung;
a run of some games keeps the other games' rows from the CSV.  Run from the checkout, at
low priority on a shared machine::

    nice -n 19 python -m benchmarks.abstraction_ladder [--games leduc,rhode_island,rhode_island_52]
        [--features ehs|ehs2|histogram] [--quick] [--rungs '3,3,3;4,8,14']
"""

from __future__ import annotations

import argparse
import csv
import datetime
import os
import resource
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import seqform
from benchmarks.ladder_page import FIELDS, plot, write_table
from benchmarks.machine import describe_machine
from seqform.lp.solvers import SolverError
from seqform.routes.structured import solve_structured

RESULTS = Path(__file__).parent / "results"


@dataclass(frozen=True)
class Ladder:
    """One game's rungs and its units.

    game : the game's name as ``seqform.load_structured_game`` takes it
    rungs : the bucket counts, one per round, coarsest first
    big_blind : chips of the big blind (mbb/game are its thousandths)
    ante : chips each player antes
    lossless_by_lp : add the full game's LP as the last (lossless) rung
    suit_isomorphism : abstract on canonical boards (module docstring)
    value_bounds : the full game's value as an interval proved elsewhere, instead of its LP
    """

    game: str
    rungs: tuple[str, ...]
    big_blind: float
    ante: float
    lossless_by_lp: bool = False
    suit_isomorphism: bool = False
    value_bounds: tuple[float, float] | None = None


LADDERS = {
    "leduc": Ladder(
        "leduc(ranks=13, suits=4)",
        ("1,1", "2,2", "2,4", "3,3", "3,6", "3,9", "4,8", "5,10", "6,12", "13,13", "13,26"),
        big_blind=1.0,
        ante=1.0,
    ),
    "rhode_island": Ladder(
        "rhode_island(ranks=4)",
        ("1,1,1", "2,2,2", "3,3,3", "2,4,8", "3,6,12", "4,8,14", "5,10,14"),
        big_blind=10.0,
        ante=5.0,
        lossless_by_lp=True,
    ),
    "rhode_island_52": Ladder(
        "rhode_island",
        ("1,1,1", "2,2,2", "3,3,3", "2,4,8", "3,6,12"),
        big_blind=10.0,
        ante=5.0,
        suit_isomorphism=True,
        # benchmarks/results/rhode_island_cfr.md: DCFR's average certified on G, 778 iterations
        value_bounds=(-0.659337, -0.654373),
    ),
}
"""Leduc 13 × 4: from no card information to the ranks (13) and beyond; Rhode Island on 16
cards; the 52-card Rhode Island on canonical boards (module docstring)."""


def _units(ladder: Ladder, exploitability: float) -> dict[str, float]:
    return {
        "mbb_per_game": 1000 * exploitability / ladder.big_blind,
        "percent_of_ante": 100 * exploitability / ladder.ante,
    }


def _load() -> float:
    return os.getloadavg()[0]


def _peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kB on Linux


def run(
    ladders: list[Ladder],
    features: str,
    quick: bool,
    done: list[dict[str, object]],
    only: tuple[str, ...] | None = None,
) -> list[dict[str, object]]:
    """Every rung of every ladder (``only`` those rungs, if given), measured; ``done`` (the
    kept rows) and the new rows are written, in ladder order, after each rung.

    Length: per rung, the abstraction, its full-game measure, and the rewrite of every file,
    so that a stop keeps what is done; a failed rung is reported and skipped in place.
    """
    rows = list(done)
    for ladder in ladders:
        game = seqform.load_structured_game(ladder.game)
        start = time.perf_counter()
        full = None if ladder.value_bounds else solve_structured(game)
        full_seconds = time.perf_counter() - start
        if full is not None:
            print(
                f"{ladder.game}: full LP value {full.value:.9f} in {full_seconds:.1f} s",
                file=sys.stderr,
            )
        full_value = "" if full is None else full.value
        rungs = ladder.rungs[:2] if quick else ladder.rungs
        for spec in [rung for rung in rungs if only is None or rung in only]:
            start = time.perf_counter()
            try:
                result = seqform.abstract(
                    game, spec, features=features, suit_isomorphism=ladder.suit_isomorphism
                )
            except SolverError as error:  # a point its certificate rejects, say: no row
                print(f"{ladder.game} {spec}: {error}", file=sys.stderr)
                continue
            row: dict[str, object] = {
                "game": ladder.game,
                "buckets": spec,
                "features": features,
                "abstract_sequences": result.abstract.tables[0].num_sequences,
                "abstract_value": result.value,
                "full_value": full_value,
                "abstract_exploitability": result.abstract_exploitability,
                "exploitability": result.exploitability,
                **_units(ladder, result.exploitability),
                "lp_seconds": result.timings["lp"],
                "seconds": time.perf_counter() - start,
                "load": _load(),
                "peak_rss_gb": _peak_rss_gb(),
            }
            print(row, file=sys.stderr)
            rows.append(row)
            _write(_ordered(rows))
        if full is not None and ladder.lossless_by_lp and not quick and only is None:
            exploitability = float(full.certificate.exploitability)
            rows.append(
                {
                    "game": ladder.game,
                    "buckets": "lossless (full LP)",
                    "features": features,
                    "abstract_sequences": full.strategies[0].table.num_sequences,
                    "abstract_value": full.value,
                    "full_value": full.value,
                    "abstract_exploitability": exploitability,
                    "exploitability": exploitability,
                    **_units(ladder, exploitability),
                    "lp_seconds": full.timings["lp"],
                    "seconds": full_seconds,
                    "load": _load(),
                    "peak_rss_gb": _peak_rss_gb(),
                }
            )
            _write(_ordered(rows))
    return _ordered(rows)


def _ordered(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """Game by game, each ladder's rungs in its order, the lossless rung last."""
    games = [ladder.game for ladder in LADDERS.values()]

    def key(row: dict[str, object]) -> tuple[int, int]:
        ladder = next(lad for lad in LADDERS.values() if lad.game == row["game"])
        rungs = list(ladder.rungs)
        buckets = str(row["buckets"])
        return games.index(ladder.game), rungs.index(buckets) if buckets in rungs else len(rungs)

    return sorted(rows, key=key)


def kept_rows(games: set[str], only: tuple[str, ...] | None = None) -> list[dict[str, object]]:
    """The CSV's rows of the games not run now, or with ``only``, of the rungs not run now
    (older CSVs lack some columns: the units are recomputed from the exploitability, the
    rest left empty)."""
    path = (RESULTS / "abstraction_ladder").with_suffix(".csv")
    if not path.exists():
        return []
    kept: list[dict[str, object]] = []
    with path.open(newline="") as handle:
        for old in csv.DictReader(handle):
            ladder = next((lad for lad in LADDERS.values() if lad.game == old["game"]), None)
            rerun = ladder is not None and ladder.game in games
            if ladder is None or (rerun and (only is None or old["buckets"] in only)):
                continue
            row: dict[str, object] = {field: old.get(field, "") or "" for field in FIELDS}
            if old["full_value"]:  # empty where the value is an interval (value_bounds)
                row["full_value"] = float(old["full_value"])
            for field in (
                "abstract_value",
                "abstract_exploitability",
                "exploitability",
                "seconds",
            ):
                row[field] = float(old[field])
            row["abstract_sequences"] = int(old["abstract_sequences"])
            row.update(_units(ladder, float(old["exploitability"])))
            kept.append(row)
    return kept


_HEADER: list[str] = []


def _write(rows: list[dict[str, object]]) -> None:
    stem = RESULTS / "abstraction_ladder"
    bounds = {lad.game: lad.value_bounds for lad in LADDERS.values() if lad.value_bounds}
    write_table(rows, stem, _HEADER, bounds)
    plot(
        rows,
        stem.with_suffix(".png"),
        {lad.game for lad in LADDERS.values() if lad.suit_isomorphism},
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games",
        default="leduc,rhode_island",
        help="comma-separated: leduc, rhode_island (16 cards), rhode_island_52 (the full game)",
    )
    parser.add_argument("--features", choices=("ehs", "ehs2", "histogram"), default="ehs")
    parser.add_argument("--quick", action="store_true", help="the first rungs only")
    parser.add_argument(
        "--rungs",
        help="run only these rungs, separated by ';' (e.g. '3,3,3;4,8,14'); keep the rest",
    )
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.games.split(",")]
    unknown = [name for name in names if name not in LADDERS]
    if unknown:
        parser.error(f"--games: unknown {', '.join(unknown)}; choose from {', '.join(LADDERS)}")
    ladders = [LADDERS[name] for name in names]
    machine = describe_machine()
    command = "nice -n 19 python -m benchmarks.abstraction_ladder " + shlex.join(
        argv if argv is not None else sys.argv[1:]
    )
    markdown = (RESULTS / "abstraction_ladder").with_suffix(".md")
    earlier = markdown.read_text().splitlines() if markdown.exists() else []
    _HEADER[:] = [
        f"# Card abstraction ladder ({args.features})",
        "",
        "Written by `python -m benchmarks.abstraction_ladder` (module docstring): each "
        "abstraction solved, its equilibrium lifted to the full game and measured there by "
        "best response (Johanson et al., AAMAS 2013).  mbb/game are thousandths of the big "
        "blind (Leduc: the ante, 1 chip; Rhode Island: the first round's bet, 10 chips); % of "
        "ante: Leduc's is 1 chip, Rhode Island's 5.  Rhode Island's last rung is the full "
        "game's LP (suit-reduced), the lossless abstraction.  The 52-card `rhode_island` is "
        "abstracted on canonical boards and certified on hand classes; its full value is the "
        "interval the certified DCFR average proves (rhode_island_cfr.md).  `load` is the "
        "1-minute load average as the row ended, `peak RSS` the process's so far; rows "
        "without them are from an earlier run that did not record them.",
        "",
        f"Rows of {', '.join(names)}: `{command.strip()}`, started "
        f"{datetime.datetime.now().isoformat(timespec='minutes')}, load {_load():.1f} at the "
        f"start; {machine.cpu}, {machine.usable_cores} cores shared, {machine.memory_gb} GiB; "
        f"seqform {machine.commit}.",
        "",
    ]
    # the command lines of the runs whose rows are kept stay above the new run's
    _HEADER[-2:-2] = [line + "\n" for line in earlier if line.startswith("Rows of ")]
    only = tuple(args.rungs.split(";")) if args.rungs else None
    done = kept_rows({ladder.game for ladder in ladders}, only)
    rows = run(ladders, args.features, args.quick, done, only)
    _write(rows)
    print((RESULTS / "abstraction_ladder").with_suffix(".md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
