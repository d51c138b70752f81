"""Command line: ``python -m seqform solve GAME`` and friends.

Exit codes: 0 success; 1 bad input (unreadable or invalid game, bad parameters) or a
solver that did not prove optimality; 2 usage errors, including an unknown game name.
Errors are one line on stderr, never a traceback.  Results go to stdout (or
``--output FILE``); progress and logs go to stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from seqform import __version__
from seqform.game import InvalidGameError
from seqform.games import UnknownGameError, known_names, load_game
from seqform.lp import ALGORITHMS, BACKENDS, SolverError

__all__ = ["build_parser", "main"]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2

logger = logging.getLogger("seqform")


class CommandError(Exception):
    """A failure that the CLI reports in one line with an exit code."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


def _add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        metavar="GAME",
        help=(
            "a built-in game (" + ", ".join(known_names()) + "), with parameters as "
            "NAME(key=value), a path to a Gambit .efg file, or openspiel:NAME"
        ),
    )


def _add_output_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--output", metavar="FILE", help="write the result here, not stdout")


def _add_solver_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="highs",
        help="highs: direct highspy (default); cvxpy: the model in cvxpy, solved by HiGHS",
    )
    parser.add_argument(
        "--solver",
        choices=ALGORITHMS,
        default="simplex",
        help="HiGHS algorithm: simplex (default), ipm (interior point + crossover), pdlp",
    )
    parser.add_argument(
        "--time-limit", type=float, metavar="SECONDS", help="stop the solver after this long"
    )
    parser.add_argument(
        "--verbose", action="store_true", help="show progress and the solver's log on stderr"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress messages")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m seqform``."""
    parser = argparse.ArgumentParser(
        prog="seqform",
        description=(
            "Solve two-player zero-sum extensive-form games exactly by the sequence-form "
            "linear program (Koller, Megiddo and von Stengel 1996)."
        ),
    )
    parser.add_argument("--version", action="version", version=f"seqform {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    solve = commands.add_parser(
        "solve",
        help="solve a game: value, sizes, strategies and an exploitability certificate",
        description="Solve a game and certify the answer by best response.",
    )
    _add_game_argument(solve)
    _add_solver_arguments(solve)
    _add_output_arguments(solve)
    solve.set_defaults(handler=_run_solve)
    return parser


def _write(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    try:
        Path(output).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {output!r}: {exc.strerror or exc}") from exc


def _render(document: dict, text: str, args: argparse.Namespace) -> None:
    if args.format == "json":
        _write(json.dumps(document, indent=2), args.output)
    else:
        _write(text, args.output)


def _load(spec: str):  # noqa: ANN202 - returns seqform.game.Game
    logger.info("building game %s", spec)
    return load_game(spec)


def _run_solve(args: argparse.Namespace) -> int:
    from seqform.report import solution_json, solution_text
    from seqform.solve import solve

    game = _load(args.game)
    logger.info("solving the sequence-form LP with HiGHS %s via %s", args.solver, args.backend)
    solution = solve(
        game,
        backend=args.backend,
        algorithm=args.solver,
        time_limit=args.time_limit,
        verbose=args.verbose,
    )
    _render(solution_json(solution), solution_text(solution), args)
    return EXIT_OK


def _configure_logging(args: argparse.Namespace) -> None:
    level = logging.WARNING
    if getattr(args, "verbose", False):
        level = logging.INFO
    if getattr(args, "quiet", False):
        level = logging.ERROR
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("seqform: %(message)s"))
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args)
    try:
        return args.handler(args)
    except UnknownGameError as exc:
        print(f"seqform: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except CommandError as exc:
        print(f"seqform: error: {exc}", file=sys.stderr)
        return exc.code
    except (InvalidGameError, SolverError, ValueError, OSError) as exc:
        message = str(exc) or type(exc).__name__
        if isinstance(exc, OSError) and exc.filename is not None:
            message = f"cannot read {exc.filename!r}: {exc.strerror or exc}"
        print(f"seqform: error: {message}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("seqform: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print("seqform: error: out of memory; try a smaller game", file=sys.stderr)
        return EXIT_ERROR
    except ImportError as exc:
        print(f"seqform: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
