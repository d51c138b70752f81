"""The sub-parsers of the commands players use around a solved game: ``play`` (a hand at a
time against the equilibrium), ``show`` (a saved spot result reopened) and ``solve-many``
(a folder of spots, with per-board aggregates): parts of :func:`seqform.cli.parser.build_parser`."""

from __future__ import annotations

from seqform.cli.options import (
    Commands,
    add_hand_argument,
    add_output_arguments,
    add_strategies_argument,
)
from seqform.cli.readers import whole_number

__all__ = ["add_play", "add_show", "add_solve_many"]


def add_play(commands: Commands) -> None:
    play = commands.add_parser(
        "play",
        help="play Kuhn, Leduc, Rhode Island or a hold'em spot against the equilibrium",
        description=(
            "Play Kuhn poker, Leduc or Rhode Island hold'em, or a hold'em spot file against "
            "the equilibrium that seqform computes: your cards, the public cards and the pot, "
            "the bot's actions, the showdown and a running total with its expectation. Kuhn "
            "keys: c check or call, b bet, f fold, q quit; Leduc and Rhode Island: f fold, c "
            "check or call, b bet, r raise, q quit; a spot: the action (x, b5, c, f, r20) or "
            "its word (check, call, fold), q quit."
        ),
    )
    play.add_argument(
        "game",
        metavar="GAME",
        nargs="?",
        default="kuhn",
        help=(
            "kuhn (default), kuhn(cards=N), leduc(...), rhode_island(...) (a deck small "
            "enough to solve), or a spot file (*.toml, docs/spots.md)"
        ),
    )
    play.add_argument("--seat", type=int, choices=(1, 2), help="1 acts first; asked if omitted")
    play.add_argument(
        "--seed", type=int, metavar="N", help="seed the deals and the bot, for a replayable session"
    )
    play.add_argument("--hands", type=whole_number(1), metavar="N", help="stop after N hands")
    play.add_argument(
        "--auto",
        metavar="STRATEGY",
        help=(
            "let a strategy play your seat: equilibrium, always-bet, check-fold, random, "
            "never-bluff, always-bluff, calling-station (Leduc, Rhode Island, a spot: "
            "equilibrium, always-bet, check-fold, calling-station, random), or a JSON file: "
            "{infoset: {action: probability}} or a solve/iterate/resolve document of the "
            "same game (a name with a path separator or a suffix such as .json is a file)"
        ),
    )
    play.add_argument(
        "--summary-only", action="store_true", help="with --auto: write only the final summary"
    )
    play.add_argument(
        "--force",
        action="store_true",
        help="solve past the memory estimate and a spot's LP size limit, as solve --force",
    )


def add_show(commands: Commands) -> None:
    show = commands.add_parser(
        "show",
        help="reopen a saved result (a command's --format json --output): no solving",
        description=(
            "Reopen a JSON result that a command wrote (--format json --output FILE) and "
            "print the report the command printed, without solving. A hold'em spot's result "
            "(solve or iterate SPOT.toml) is reopened without the spot file: the same text "
            "report, a combo's strategy (--hand), the frequencies and the 13 × 13 grid of "
            "hand classes at any decision (--node, --grid), and a static HTML report of every "
            "decision (--html). See docs/cli.md and docs/spots.md."
        ),
    )
    show.add_argument(
        "result",
        metavar="RESULT",
        help="a result: any command's --format json (a spot's for --hand, --node, --grid, --html)",
    )
    add_hand_argument(show)
    show.add_argument(
        "--node",
        action="append",
        default=[],
        metavar="HISTORY",
        help=(
            "show the decision after these public actions instead of the whole report: its "
            "frequencies and the grid of its bets and raises (root or '' for the first "
            "decision, x, x-b5, ...; repeatable; the report lists them)"
        ),
    )
    show.add_argument(
        "--grid",
        action="store_true",
        help="one 13 × 13 grid per action at each --node (at the first decision without one)",
    )
    show.add_argument(
        "--html",
        metavar="FILE",
        help=(
            "also write a self-contained HTML report to FILE (.html or .htm): every decision's "
            "range grid coloured by action (only the --node decisions when given)"
        ),
    )
    show.add_argument(
        "--output", metavar="FILE", help="write the text to FILE (not .json or .csv), not stdout"
    )
    show.set_defaults(output_formats=("text",))  # its suffix is checked as every command's
    add_strategies_argument(show)


def add_solve_many(commands: Commands) -> None:
    many = commands.add_parser(
        "solve-many",
        help="solve a folder of hold'em spot files in parallel; one report",
        description=(
            "Solve every spot file (*.toml) of DIR by the structured LP, in parallel on this "
            "machine (default) or on a Dask or Ray cluster, and write one report: each "
            "player's EV in chips and share of the pot, the exploitability in chips and % of "
            "the pot, the main action frequencies (OOP's first decision, IP's after a "
            "check), and the aggregate report players read: each range's equity and equity "
            "realisation, the EV of each of OOP's first actions, the board's texture; as CSV "
            "too with --csv (or beside --output). A spot that fails is a row with its error "
            "(exit code 1). See docs/spots.md."
        ),
    )
    many.add_argument("directory", metavar="DIR", help="a folder of spot files (*.toml)")
    many.add_argument(
        "--workers",
        type=whole_number(1),
        metavar="N",
        help="processes on this machine, or in a local Dask/Ray cluster (default: all cores)",
    )
    where = many.add_mutually_exclusive_group()
    where.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on the Dask cluster at ADDRESS (tcp://host:8786), or 'local' to start one",
    )
    where.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run on the Ray cluster at ADDRESS (ray://host:10001, auto), or 'local'",
    )
    many.add_argument("--exact", action="store_true", help="also solve each spot exactly")
    many.add_argument("--quiet", action="store_true", help="no progress on stderr")
    many.add_argument(
        "--csv",
        metavar="FILE",
        help=(
            "write the aggregate report as CSV too, one row per spot (default with --output: "
            "beside it, FILE.csv for --output FILE.json)"
        ),
    )
    many.add_argument(
        "--plot",
        metavar="FILE",
        help="draw OOP's bet frequency by board texture (.png, .svg, .pdf; needs matplotlib)",
    )
    add_output_arguments(many, summarises=False, formats=("text", "json", "csv"))
