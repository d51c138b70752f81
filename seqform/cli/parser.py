"""The argument parser of ``python -m seqform``: one sub-parser per command.

Each sub-parser sets ``command`` (its name); :mod:`seqform.cli.main` runs the module of
:mod:`seqform.cli.commands` with that name.

The options several commands share, and the names of solvers and methods, are in
:mod:`seqform.cli.options`.

The commands players use around a solved game (``play``, ``show``, ``solve-many``) are in
:mod:`seqform.cli.parser_players`, and ``resolve`` (re-solving, off-tree actions) in
:mod:`seqform.cli.parser_resolve`.

Size: the solving and measuring commands' surface, one short function per command, read in
one place; split further it would scatter the options that must agree across commands.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from seqform.cli.errors import EXIT_CODES_HELP
from seqform.cli.options import (
    ITERATIVE_ALGORITHMS,
    METHODS,
    MOST_MIXED,
    Commands,
    SeqformParser,
    add_analysis_arguments,
    add_game_argument,
    add_hand_argument,
    add_iterate_route_arguments,
    add_lock_arguments,
    add_max_entries_argument,
    add_output_arguments,
    add_solver_arguments,
    add_strategies_argument,
)
from seqform.cli.parser_players import add_play, add_show, add_solve_many
from seqform.cli.parser_resolve import add_resolve
from seqform.cli.readers import (
    growth_factor,
    opponent_name,
    positive_number,
    positive_seconds,
    whole_number,
)
from seqform.version import __version__

__all__ = ["build_parser"]


class _CommandParser(SeqformParser):
    """A command's parser; ``intermixed`` ones read positionals between options, so that
    an optional positional after them is found (``export kuhn --to efg FILE``: argparse
    otherwise gives ``FILE`` nothing at ``kuhn`` and refuses it later as unrecognized)."""

    intermixed = False
    _inside = False  # parse_known_intermixed_args calls parse_known_args itself

    def parse_known_args(  # type: ignore[override]  # one signature for typeshed's overloads
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if not self.intermixed or self._inside:
            return super().parse_known_args(args, namespace)
        self._inside = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._inside = False


def add_suit_isomorphism_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """``--no-suit-isomorphism`` (``args.suit_isomorphism``, default True): on the structured
    route, ``what`` instead of the reduced run a suit-symmetric game gets by default."""
    parser.add_argument(
        "--no-suit-isomorphism",
        dest="suit_isomorphism",
        action="store_false",
        help=(
            f"structured route: {what} that a game symmetric under suit permutations "
            "(leduc, rhode_island) gets by default; the answer is the same, certified on the "
            "full game either way"
        ),
    )


def _add_solve(commands: Commands) -> None:
    solve = commands.add_parser(
        "solve",
        help="solve a game: value, sizes, strategies and an exploitability certificate",
        description="Solve a game and certify the answer by best response.",
        epilog=EXIT_CODES_HELP,
    )
    add_game_argument(solve)
    add_solver_arguments(solve)
    add_output_arguments(solve)
    add_strategies_argument(solve)
    solve.add_argument(
        "--method",
        choices=METHODS,
        default="auto",
        help=(
            "auto (default): the structured route for kuhn, leduc and liars_dice when their "
            "tree would be large, else the tree; tree: the sequence-form LP of "
            "the game tree; structured: the structured sequence-form LP from the public tree × "
            "private hands, without the game tree (kuhn, leduc, liars_dice at any size); "
            "normal: the normal-form matrix game over pure strategies, mapped back by Kuhn's "
            "theorem"
        ),
    )
    add_max_entries_argument(solve)
    add_analysis_arguments(solve)
    add_suit_isomorphism_argument(
        solve,
        "solve the full LP, not the smaller one on canonical boards and hand classes",
    )
    solve.add_argument(
        "--no-ordered-isomorphism",
        dest="ordered_isomorphism",
        action="store_false",
        help=(
            "structured route: stay at the suit isomorphism's hand classes, without merging "
            "them further by the ordered game isomorphism (leduc, rhode_island: one-card "
            "hands); the answer is the same, certified on the full game either way"
        ),
    )
    solve.add_argument(
        "--hand",
        action="append",
        default=[],
        metavar="COMBOS",
        help=(
            "a spot file: the text report also prints these combos' strategies at every "
            "decision they reach (AhKh, a class such as AKs or QQ meaning its combos, or a "
            "comma list; repeatable); JSON always has every combo"
        ),
    )


def _add_compare(commands: Commands) -> None:
    compare = commands.add_parser(
        "compare",
        help="normal form beside sequence form: sizes, and both LPs solved side by side",
        description=(
            "Count information sets, sequences, pure and reduced pure strategies exactly; give "
            "the sizes of the normal-form matrix, the sequence-form matrices and both LPs; "
            "solve every formulation within the size limit and compare values and strategies."
        ),
    )
    add_game_argument(compare)
    add_solver_arguments(compare)
    add_output_arguments(compare)
    add_strategies_argument(compare)
    add_max_entries_argument(compare)
    compare.add_argument(
        "--no-solve", action="store_true", help="sizes only: build and solve no LP"
    )


def _add_export(commands: Commands) -> None:
    export = commands.add_parser(
        "export",
        help="write a game as Gambit .efg, its sequence form as .npz, or its LP as MPS",
        description=(
            "Write GAME for other tools: --to efg (the tree, for Gambit), npz (E, F, A with "
            "labels and exact entries; layout in seqform/io/export.py), mps (the min-max LP), "
            "gambit-profile (the solved equilibrium for Gambit; see seqform/io/gambit_profile.py)."
        ),
    )
    add_game_argument(export)
    export.add_argument(
        "--to",
        choices=("efg", "npz", "mps", "gambit-profile"),
        required=True,
        help=(
            "efg: the game tree as a Gambit extensive-form file; npz: the sequence form "
            "(E, e, F, f, A with labels and exact entries); mps: the min-max LP; "
            "gambit-profile: the certified equilibrium as a Gambit behaviour profile"
        ),
    )
    export.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        help="the file to write (replaced if it exists; or give it as --output FILE)",
    )
    export.add_argument(
        "--output", metavar="FILE", help="the file to write, as every other command takes it"
    )
    assert isinstance(export, _CommandParser)
    export.intermixed = True  # FILE after --to


def _add_ranges(commands: Commands) -> None:
    ranges = commands.add_parser(
        "ranges",
        help="the set of all equilibria: min and max of every action probability",
        description=(
            "For each information-set action, the minimum and maximum behavioural probability "
            "and realization-plan entry over all optimal strategies of its player, the "
            "dimension of each player's set and, when it is one-dimensional, its parameter. "
            "It solves many LPs: 71 for Kuhn, in well under a second; up to four per "
            "sequence. After the value LP the work is estimated (LPs × that LP's time), said "
            "on stderr when it is 5 s or more, and refused beyond 5 minutes (or 20,000 LPs, "
            "before any LP) unless --force (--verbose shows progress)."
        ),
    )
    add_game_argument(ranges)
    ranges.add_argument(
        "--exact", action="store_true", help="exact fractions, each LP re-solved exactly"
    )
    ranges.add_argument("--verbose", action="store_true", help="show progress on stderr")
    add_output_arguments(ranges)
    add_strategies_argument(ranges, f"the {MOST_MIXED} information sets that vary most")


def _add_exploit(commands: Commands) -> None:
    exploit = commands.add_parser(
        "exploit",
        help="best response to a fixed strategy and its gain over the equilibrium",
        description=(
            "Fix one player's strategy (a JSON file, or a named Kuhn opponent) and compute the "
            "other player's best response, its expected value and its gain over the "
            "equilibrium value."
        ),
    )
    add_game_argument(exploit)
    source = exploit.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--strategy",
        metavar="FILE",
        help="a solve --format json document, one of its strategies, {infoset: {action: "
        "probability}}, a Gambit behaviour profile (export --to gambit-profile), or a "
        "strategy-arrays document (.npz) of a structured game, whose two players are "
        "certified together",
    )
    source.add_argument(
        "--opponent",
        type=opponent_name,
        metavar="NAME",
        help="a named Kuhn opponent: never-bluff, always-bluff, calling-station, uniform, "
        "equilibrium",
    )
    exploit.add_argument(
        "--player",
        type=int,
        choices=(1, 2),
        help="the player whose strategy is fixed (default: inferred from the file, else 1)",
    )
    exploit.add_argument(
        "--exact",
        action="store_true",
        help=(
            "the equilibrium value, and so the gain, as exact fractions (the best response "
            "is exact either way)"
        ),
    )
    exploit.add_argument("--verbose", action="store_true", help="show progress on stderr")
    add_output_arguments(exploit)
    add_strategies_argument(
        exploit, f"the fixed strategy's {MOST_MIXED} most mixed, the best response's counts"
    )


ALGORITHM_HELP = (
    "cfr: vanilla CFR (Zinkevich et al. 2007); cfr+ (Tammelin 2014); dcfr "
    "(Brown and Sandholm 2019); lcfr: linear CFR (Brown and Sandholm 2019); pcfr+: "
    "predictive CFR+ (Farina et al. 2021); dcfr+, pdcfr+ (Xu et al. 2024); hs-dcfr30, "
    "hs-dcfr15, hs-pcfr+30, hs-pcfr+15: hyperparameter schedules over --iterations "
    "(Zhang, McAleer and Sandholm 2024); xfp: "
    "extensive-form fictitious play (Heinrich et al. 2015); rcfr: regression CFR "
    "(Waugh et al. 2015); mccfr: external-sampling Monte Carlo CFR "
    "(Lanctot et al. 2009). pcfr+, pdcfr+ and hs-pcfr+* also report the last iterate's "
    "NashConv"
)


def _add_iterate(commands: Commands) -> None:
    """``iterate``.  Length: one call per option, in the order ``--help`` lists them."""
    iterate = commands.add_parser(
        "iterate",
        help="the CFR family: average strategies, NashConv history, distance to the LP",
        description=(
            "Run a CFR-family algorithm, fictitious play or regression CFR on GAME (any "
            "number of players); NashConv every K iterations on stderr; then the average "
            "strategies, value estimates, NashConv history and, where the LP can solve the "
            "game, the distance to the exact value and each unique equilibrium strategy."
        ),
    )
    add_game_argument(iterate)
    iterate.add_argument(
        "--algorithm",
        choices=ITERATIVE_ALGORITHMS,
        required=True,
        help=ALGORITHM_HELP,
    )
    iterate.add_argument(
        "--iterations",
        type=whole_number(1),
        metavar="N",
        help=(
            "run at most N iterations (default 1000 if no other stopping rule is given); "
            "the stopping rules combine, whichever fires first"
        ),
    )
    iterate.add_argument(
        "--target-exploitability",
        type=positive_number,
        metavar="EPS",
        help="stop once a measured exploitability (NashConv / 2) is at most EPS",
    )
    iterate.add_argument(
        "--time-limit",
        type=positive_seconds,
        metavar="SECONDS",
        help="stop once the solver has run this long (NashConv measurements not counted)",
    )
    iterate.add_argument(
        "--every",
        type=whole_number(1),
        default=100,
        metavar="K",
        help=(
            "measure NashConv every K iterations and after the last (default 100); with "
            "--target-exploitability also once where the last two measurements' trend "
            "meets the target"
        ),
    )
    iterate.add_argument(
        "--seed",
        type=whole_number(0),
        metavar="N",
        help="random seed of mccfr (default 0, printed on stderr)",
    )
    iterate.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_iterate_route_arguments(iterate)
    add_suit_isomorphism_argument(
        iterate,
        "run vector CFR on the game itself, not on canonical boards and hand classes",
    )
    add_lock_arguments(
        iterate,
        "the CFR family keeps them (not xfp, rcfr, mccfr), measured in the locked game "
        "beside the locked LP",
    )
    add_output_arguments(iterate)
    add_strategies_argument(iterate)
    add_hand_argument(iterate)


def _add_games(commands: Commands) -> None:
    games = commands.add_parser(
        "games",
        help="the built-in games, their parameters and how their information sets are named",
        description=(
            "List the built-in games with their parameters and defaults, and the grammar of "
            "their information-set labels (Kuhn's Qpb: holding Q, after check then bet)."
        ),
    )
    add_output_arguments(games, summarises=False)


def _add_qre(commands: Commands) -> None:
    qre = commands.add_parser(
        "qre",
        help="logit quantal response equilibria: the branch to its limit, points, fit λ",
        description=(
            "Agent logit QRE (McKelvey and Palfrey 1998), Gambit's behaviour logit: by "
            "default the principal branch is traced from λ = 0 until NashConv <= "
            "--tolerance × payoff range, and its limit is certified and placed among all "
            "equilibria (ranges, refine) for two-player zero-sum games. Any number of "
            "players. A trace estimated beyond 300 s, or beyond the memory available, is "
            "refused before its first step with the estimate unless --force. See docs/qre.md."
        ),
    )
    add_game_argument(qre)
    qre.add_argument(
        "--lambda",
        dest="lambdas",
        action="append",
        metavar="L",
        help="the QRE at λ = L instead of the limit (repeatable, or a comma list: 1,10)",
    )
    qre.add_argument(
        "--fit",
        metavar="DATA",
        help="maximum-likelihood λ for observed action counts (.json or .csv; docs/qre.md)",
    )
    qre.add_argument("--plot", metavar="FILE", help="draw the branch (needs matplotlib)")
    qre.add_argument(
        "--tolerance",
        type=positive_number,
        default=1e-6,
        metavar="T",
        help="stop the trace at NashConv <= T × payoff range (default 1e-6)",
    )
    qre.add_argument(
        "--max-lambda",
        type=positive_number,
        default=None,
        metavar="L",
        help="stop the trace and --fit's at λ = L (default 1e8 / the payoff range: λ is in "
        "1 / the payoff unit; --lambda traces to its largest λ)",
    )
    qre.add_argument(
        "--max-accel",
        type=growth_factor,
        default=1.5,
        metavar="A",
        help="largest growth of a step, from 1.05 to 1e6 (default 1.5; Gambit uses 1.1)",
    )
    qre.add_argument(
        "--no-compare",
        action="store_true",
        help="skip the comparison with ranges and refine (ranges is skipped by itself, with "
        "a note, where its work estimate exceeds 300 s, as `seqform ranges` refuses; --force "
        "lifts that limit too)",
    )
    qre.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_output_arguments(qre)
    add_strategies_argument(qre)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m seqform``."""
    parser = SeqformParser(
        prog="seqform",
        description=(
            "Solve two-player zero-sum extensive-form games exactly by the sequence-form "
            "linear program (Koller, Megiddo and von Stengel 1996). Start with "
            "'seqform solve kuhn'; 'seqform games' lists the built-in games, and "
            "'seqform COMMAND --help' gives a command's options."
        ),
        epilog=EXIT_CODES_HELP,
    )
    parser.add_argument("--version", action="version", version=f"seqform {__version__}")
    commands = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        required=True,
        help="one of:",
        parser_class=_CommandParser,
    )
    for add in (
        _add_solve,
        _add_compare,
        _add_export,
        add_play,
        _add_ranges,
        _add_exploit,
        _add_iterate,
        _add_games,
        _add_qre,
        add_solve_many,
        add_show,
        add_resolve,
    ):
        add(commands)
    for command in commands.choices.values():  # every command's --help ends with them
        command.epilog = command.epilog or EXIT_CODES_HELP
    return parser
