"""Options shared by several commands of ``python -m seqform`` (the game, the output, the
solver, ``--strategies``, ``--max-entries``, the analyses beyond one solve), and the names
the command line gives solvers and methods.  :mod:`seqform.cli.parser` builds each command
from these."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

from seqform.base.limits import LIMITS
from seqform.cli.readers import max_entries, positive_seconds, whole_number
from seqform.documents.layout.summary import MOST_MIXED, STRATEGY_CHOICES, SUMMARY_ABOVE
from seqform.game.builtin.registry import known_names
from seqform.lp.solvers import BACKENDS
from seqform.routes.options import ITERATE_ALGORITHMS, ITERATE_METHODS, METHODS, SOLVERS

__all__ = [
    "ITERATIVE_ALGORITHMS",
    "METHODS",
    "SOLVERS",
    "STRUCTURED_DEFAULT_SOLVER",
    "STRUCTURED_METHODS",
    "Commands",
    "SeqformParser",
    "add_analysis_arguments",
    "add_game_argument",
    "add_iterate_route_arguments",
    "add_lock_arguments",
    "add_max_entries_argument",
    "add_output_arguments",
    "add_solver_arguments",
    "add_strategies_argument",
    "with_parameters",
]

STRUCTURED_DEFAULT_SOLVER = "clarabel"
"""The structured route's interior-point solver, its default (``--solver clarabel``)."""

ITERATIVE_ALGORITHMS: tuple[str, ...] = ITERATE_ALGORITHMS  # of ``seqform iterate``


STRUCTURED_METHODS = ("auto", "structured")
"""``--method`` values that may solve the structured LP (and so take ``--solver clarabel``)."""


_KEY_VALUE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S")


def with_parameters(game: str, extras: Sequence[str]) -> str:
    """``kuhn`` and ``["cards=5"]`` written as one GAME: ``kuhn(cards=5)``."""
    given, head = ", ".join(extras), game.rstrip()
    if not head.endswith(")"):
        return f"{head}({given})"
    head = head[:-1].rstrip()
    return f"{head}{'' if head.endswith('(') else ', '}{given})"


class SeqformParser(argparse.ArgumentParser):
    """argparse, whose ``solve kuhn cards=5`` says to write ``"kuhn(cards=5)"`` (exit 2),
    and whose ``solve kuhn --iterations 5`` is refused by ``seqform solve`` (its usage, not
    the program's) naming the commands that take ``--iterations``."""

    def parse_args(  # type: ignore[override]  # one signature for typeshed's overloads
        self, args: Sequence[str] | None = None, namespace: None = None
    ) -> argparse.Namespace:
        words = list(sys.argv[1:] if args is None else args)
        if self._commands() and words and words[0].startswith("-"):
            option, owners = words[0].split("=", 1)[0], self._taken_by(words[:1])
            if option not in self._option_string_actions and owners:  # before the command
                self.error(
                    f"{option} comes before the command; a command's options go after it "
                    f"(seqform COMMAND ... {option}){owners}"
                )
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            message = f"unrecognized arguments: {' '.join(extras)}"
            game = getattr(parsed, "game", None)
            if isinstance(game, str) and all(_KEY_VALUE.match(extra) for extra in extras):
                message += (
                    f"; a game's parameters go inside its name, quoted: "
                    f'"{with_parameters(game, extras)}"'
                )
            command = self._commands().get(getattr(parsed, "command", None) or "")
            if command is None:
                self.error(message)
            command.error(message + self._taken_by(extras))
        return parsed

    def _commands(self) -> dict[str, argparse.ArgumentParser]:
        """The parser of each command, by name (none for a command's own parser)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}

    def _taken_by(self, extras: Sequence[str]) -> str:
        """``" (--iterations is an option of iterate)"`` for the first unrecognised option
        that other commands take; empty when none does."""
        for extra in extras:
            option = extra.split("=", 1)[0]
            if not option.startswith("--"):
                continue
            owners = [
                name
                for name, parser in self._commands().items()
                if option in parser._option_string_actions
            ]
            if owners:
                return f" ({option} is an option of {', '.join(owners)})"
        return ""


# --- arguments shared by several commands ---------------------------------------------------


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        metavar="GAME",
        help=(
            "a built-in game (" + ", ".join(known_names()) + "), with parameters as "
            "NAME(key=value), a path to a Gambit .efg file, a hold'em spot file (*.toml, "
            "docs/spots.md), or openspiel:NAME; "
            "'seqform games' lists the built-in games and how they name information sets"
        ),
    )
    parser.add_argument(
        "--max-nodes",
        type=whole_number(1),
        metavar="N",
        help="openspiel:NAME only: the most histories to convert (refused with other games)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="build and solve past the memory estimate (by default a game that would not fit "
        "is refused before it is built, with the estimate), and a spot's LP past its size "
        "limit (solve refuses a turn's LP, which does not finish in minutes)",
    )


def add_output_arguments(
    parser: argparse.ArgumentParser,
    summarises: bool = True,
    formats: Sequence[str] = ("text", "json"),
) -> None:
    """``--format`` and ``--output``; ``summarises``: the text summarises large games;
    ``formats``: the formats the command writes.  ``--format`` is left ``None`` when not
    given: :func:`seqform.cli.resolve.resolve_output_format` takes it from ``--output``'s
    suffix (:func:`seqform.cli.output.output_format`)."""
    text = (
        f"text for people (default; a summary above {SUMMARY_ABOVE} information sets)"
        if summarises
        else "text for people (default)"
    )
    csv = ", csv: the aggregate report, one row per spot" if "csv" in formats else ""
    parser.add_argument(
        "--format",
        choices=tuple(formats),
        default=None,
        help=(
            f"{text}, json for programs: the complete result in a documented schema{csv}; "
            "by default taken from --output's suffix (.json: json"
            + (", .csv: csv" if "csv" in formats else "")
            + "; any other: text)"
        ),
    )
    parser.add_argument("--output", metavar="FILE", help="write the result here, not stdout")
    parser.set_defaults(output_formats=tuple(formats))


def add_solver_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="highs",
        help=(
            "highs: the LP handed to HiGHS through highspy (default); cvxpy: the same LP "
            "written in cvxpy, also solved by HiGHS (to cross-check)"
        ),
    )
    parser.add_argument(
        "--solver",
        choices=SOLVERS,
        default=None,
        help=(
            "HiGHS: simplex (the default), ipm (interior point + crossover), pdlp; "
            "clarabel (interior point; the structured route's solver for large LPs)"
        ),
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        metavar="SECONDS",
        help="stop the solver after this long (reported as a limit, never as a solution)",
    )
    talk = parser.add_mutually_exclusive_group()
    talk.add_argument(
        "--verbose", action="store_true", help="show progress and the solver's log on stderr"
    )
    talk.add_argument("--quiet", action="store_true", help="no progress messages")


def add_hand_argument(parser: argparse.ArgumentParser) -> None:
    """``--hand COMBOS`` of a command that reports a hold'em spot (``iterate``, ``show``)."""
    parser.add_argument(
        "--hand",
        action="append",
        default=[],
        metavar="COMBOS",
        help=(
            "a spot: the text report also prints these combos' strategies at every decision "
            "they reach (AhKh, a class such as AKs or QQ meaning its combos, or a comma list; "
            "repeatable); JSON always has every combo"
        ),
    )


def add_strategies_argument(
    parser: argparse.ArgumentParser, summary: str = f"the {MOST_MIXED} most mixed per player"
) -> None:
    """``--strategies``; ``summary`` says what a summary shows for this command."""
    parser.add_argument(
        "--strategies",
        choices=STRATEGY_CHOICES,
        default="auto",
        help=(
            f"text output: all prints every information set; summary: counts and {summary}; "
            f"auto (default): all up to {SUMMARY_ABOVE} information sets (both players), "
            "summary above (JSON is always complete)"
        ),
    )


def add_max_entries_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-entries",
        type=max_entries,
        default=LIMITS.normal_form_entries,
        metavar="N",
        help=(
            "refuse normal-form matrices with more payoff entries than this "
            f"(default {LIMITS.normal_form_entries:,}; write 10000000, 1e7 or 10^7)"
        ),
    )


def add_analysis_arguments(solve: argparse.ArgumentParser) -> None:
    group = solve.add_argument_group("beyond one float equilibrium")
    which = group.add_mutually_exclusive_group()
    which.add_argument(
        "--exact",
        action="store_true",
        help=(
            "exact rational strategies and value, certified in exact arithmetic; on the tree, "
            "or with --method structured on the structured route (HiGHS's basis of the "
            "structured LP re-solved in rationals: within ~60 s up to leduc(ranks=10), "
            "leduc(ranks=6, suits=3), liars_dice(sides=6), kuhn(cards=3000))"
        ),
    )
    which.add_argument(
        "--refine",
        action="store_true",
        help="a quasi-perfect equilibrium: sensible play also after the opponent's mistakes",
    )
    group.add_argument(
        "--fix",
        action="append",
        default=[],
        metavar="SPEC",
        help="restrict behaviour: INFOSET:ACTION=P, <=P or >=P (e.g. K:b=1); repeatable",
    )
    group.add_argument(
        "--fix-file",
        metavar="FILE",
        help='restrictions as JSON {"K": {"b": 1}, "Qpb": {"b": ["1/3", "1/2"]}}',
    )
    group.add_argument(
        "--card-buckets",
        metavar="K1,K2",
        help=(
            "solve a card abstraction with K buckets per betting round (e.g. 3,9; each round's "
            "buckets split the previous round's) and report its strategies' exploitability "
            "in the full game (structured games: leduc, rhode_island, kuhn(cards=N), spots); "
            "it takes --features, --solver clarabel|simplex|ipm, --time-limit and the output "
            "options, and refuses the others (exit 2)"
        ),
    )
    group.add_argument(
        "--features",
        choices=("ehs", "ehs2", "histogram"),
        default=None,
        help=(
            "with --card-buckets only (else a usage error): cluster hands by E[HS] "
            "(default), E[HS^2] or histograms"
        ),
    )
    add_lock_arguments(group)


LOCK_EFFECT_SOLVE = (
    "solved with and without the locks, the report shows the EV and strategy changes"
)


def add_lock_arguments(group: argparse._ActionsContainer, effect: str = LOCK_EFFECT_SOLVE) -> None:
    """``--lock`` and ``--lock-file`` (``solve`` and ``iterate``); ``effect`` says what the
    command does with them."""
    group.add_argument(
        "--lock",
        action="append",
        default=[],
        metavar="LOCK",
        help=(
            'node lock: PLAYER@NODE: ACTION=P,... [; hands=HANDS], e.g. "OOP@: x=1" or '
            '"IP@x: b5=0.5,x=0.5; hands=AA,KK" (a tree game: "P1@J: b=1"); '
            f"{effect}; repeatable"
        ),
    )
    group.add_argument(
        "--lock-file",
        metavar="FILE",
        help="node locks from a TOML ([[lock]] tables) or JSON file (docs/locking.md)",
    )


def add_iterate_route_arguments(iterate: argparse.ArgumentParser) -> None:
    """``iterate``'s ``--method`` (the layout CFR runs on) and ``--no-reference``."""
    iterate.add_argument(
        "--method",
        choices=ITERATE_METHODS,
        default="auto",
        help=(
            "the layout the CFR family runs on: tree (the game tree), structured (vector CFR "
            "on the public tree × hands, no tree: every algorithm but xfp, rcfr and mccfr), "
            "or auto (default): structured where solve's auto route is"
        ),
    )
    iterate.add_argument(
        "--no-reference",
        action="store_true",
        help=(
            "skip the LP reference (by default the LP solves the game on the route solve "
            "takes, unless that would be slow, and the average strategies are measured "
            "against it)"
        ),
    )


# --- one sub-parser per command -------------------------------------------------------------

Commands = argparse._SubParsersAction  # what add_subparsers returns
