"""Command line: ``python -m seqform solve GAME`` and friends.

Exit codes: 0 success; 1 bad input (unreadable or invalid game, bad parameters) or a
solver that did not prove optimality; 2 usage errors, including an unknown game name.
Errors are one line on stderr, never a traceback.  Results go to stdout (or
``--output FILE``); progress and logs go to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from seqform.game.builtin.registry import known_names
from seqform.game.errors import InvalidGameError, UnknownGameError
from seqform.game.loader import load_game
from seqform.game.model import Game
from seqform.lp.minmax import ALGORITHMS, BACKENDS, SolverError
from seqform.version import __version__

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


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"the time limit must be positive, got {text!r}")
    return seconds


def _add_solver_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="highs",
        help="highs: direct highspy (default); cvxpy: the model in cvxpy, solved by HiGHS",
    )
    parser.add_argument(
        "--solver",
        choices=(*ALGORITHMS, "clarabel"),
        default=None,
        help=(
            "HiGHS algorithm: simplex (the default), ipm (interior point + crossover), pdlp; "
            "clarabel (interior point, the default of --method sparsified)"
        ),
    )
    parser.add_argument(
        "--time-limit",
        type=_positive_seconds,
        metavar="SECONDS",
        help="stop the solver after this long (reported as a limit, never as a solution)",
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
    solve.add_argument(
        "--method",
        choices=("sequence", "normal", "sparsified"),
        default="sequence",
        help=(
            "sequence: the sequence-form LP (default); normal: the normal-form matrix game "
            "over pure strategies, mapped back by Kuhn's theorem; sparsified: the "
            "sequence-form LP with its payoff matrix factored by card sums, without the game "
            "tree (one-card showdown games: kuhn(cards=N), up to N in the hundreds of thousands)"
        ),
    )
    _add_max_entries_argument(solve)
    _add_analysis_arguments(solve)
    solve.set_defaults(handler=_run_solve)

    compare = commands.add_parser(
        "compare",
        help="normal form beside sequence form: sizes, and both LPs solved side by side",
        description=(
            "Count information sets, sequences, pure and reduced pure strategies exactly; give "
            "the sizes of the normal-form matrix, the sequence-form matrices and both LPs; "
            "solve every formulation within the size limit and compare values and strategies."
        ),
    )
    _add_game_argument(compare)
    _add_solver_arguments(compare)
    _add_output_arguments(compare)
    _add_max_entries_argument(compare)
    compare.add_argument(
        "--no-solve", action="store_true", help="sizes only: build and solve no LP"
    )
    compare.set_defaults(handler=_run_compare)

    export = commands.add_parser(
        "export",
        help="write a game as Gambit .efg, its sequence form as .npz, or its LP as MPS",
        description=(
            "Write GAME for other tools: --to efg (the tree, for Gambit), npz (E, F, A with "
            "labels and exact entries; layout in seqform/io/export.py), mps (the min-max LP)."
        ),
    )
    _add_game_argument(export)
    export.add_argument("--to", choices=("efg", "npz", "mps"), required=True)
    export.add_argument("file", metavar="FILE", help="where to write")
    export.set_defaults(handler=_run_export)

    play = commands.add_parser(
        "play",
        help="play Kuhn poker in the terminal against the equilibrium strategy",
        description=(
            "Play Kuhn poker against the equilibrium that seqform computes: your card, the "
            "bot's actions, the showdown and a running total with its expectation. Keys: "
            "c check or call, b bet, f fold, q quit."
        ),
    )
    play.add_argument(
        "game", metavar="GAME", nargs="?", default="kuhn", help="kuhn (default) or kuhn(cards=N)"
    )
    play.add_argument("--seat", type=int, choices=(1, 2), help="1 acts first; asked if omitted")
    play.add_argument(
        "--seed", type=int, help="seed the deals and the bot, for a replayable session"
    )
    play.add_argument("--hands", type=int, metavar="N", help="stop after N hands")
    play.add_argument(
        "--auto",
        metavar="STRATEGY",
        help=(
            "let a strategy play your seat: equilibrium, always-bet, check-fold, random, "
            "never-bluff, always-bluff, calling-station, or a JSON file "
            "{infoset: {action: probability}}"
        ),
    )
    play.add_argument(
        "--summary-only", action="store_true", help="with --auto: write only the final summary"
    )
    play.set_defaults(handler=_run_play)
    _add_analysis_commands(commands)
    return parser


def _max_entries(text: str) -> int:
    """Read a size limit written as ``10000000``, ``1e7`` or ``10^7``."""
    cleaned = text.strip().replace("_", "").replace("**", "^")
    try:
        if "^" in cleaned:
            base, exponent = cleaned.split("^")
            value = int(base) ** int(exponent)
        else:
            number = float(cleaned)
            if not number.is_integer():
                raise ValueError(cleaned)
            value = int(cleaned) if cleaned.isdigit() else int(number)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(
            f"expected a whole number of entries such as 10000000, 1e7 or 10^7, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"the limit must be at least 1, got {text!r}")
    return value


def _add_max_entries_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-entries",
        type=_max_entries,
        default=10**7,
        metavar="N",
        help=(
            "refuse normal-form matrices with more payoff entries than this "
            "(default 10^7; write 10000000, 1e7 or 10^7)"
        ),
    )


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


LARGE_GAME_NODES = 100_000  # from this size on, progress is shown unless --quiet


class _Progress:
    """Stage messages on stderr: always with --verbose, for large games by default, never
    with --quiet."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.verbose = bool(getattr(args, "verbose", False))
        self.quiet = bool(getattr(args, "quiet", False))
        self.large = False
        self.start = time.perf_counter()

    def __call__(self, message: str) -> None:
        if self.quiet or not (self.verbose or self.large):
            return
        print(f"seqform: [{time.perf_counter() - self.start:6.1f} s] {message}", file=sys.stderr)


@contextlib.contextmanager
def _solver_log_to_stderr(active: bool) -> Iterator[None]:
    """Send what the solver writes to the process's stdout (HiGHS logs there, from C++) to
    stderr instead, so that stdout carries only the result."""
    if not active:
        yield
        return
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _load(spec: str, progress: _Progress | None = None) -> Game:
    if progress is not None:
        progress(f"building game {spec}")
    game = load_game(spec)
    if progress is not None:
        progress.large = game.flat.num_nodes >= LARGE_GAME_NODES
        progress(f"built {game.name}: {game.flat.num_nodes:,} nodes")
    return game


def _run_solve(args: argparse.Namespace) -> int:
    from seqform.analyses.solve import solve
    from seqform.cli.render.report import solution_json, solution_text

    if args.exact or args.refine or args.fix or args.fix_file:
        return _run_solve_analysis(args)
    if args.method == "normal":
        return _solve_normal(args)
    if args.method == "sparsified":
        return _solve_sparsified(args)
    progress = _Progress(args)
    game = _load(args.game, progress)
    with _solver_log_to_stderr(args.verbose):
        solution = solve(
            game,
            backend=args.backend,
            algorithm=args.solver,
            time_limit=args.time_limit,
            verbose=args.verbose,
            progress=progress,
        )
    progress(f"done: value {solution.value:+.10f}, exploitability {solution.exploitability:.3g}")
    _render(solution_json(solution), solution_text(solution), args)
    return EXIT_OK


def _solve_sparsified(args: argparse.Namespace) -> int:
    from seqform.analyses.showdown import solve_showdown
    from seqform.cli.render.showdown import showdown_json, showdown_text
    from seqform.game.builtin.registry import load_showdown_game

    if args.backend != "highs":
        raise CommandError("--method sparsified builds its own LP; --backend does not apply")
    if args.solver not in ("clarabel", "simplex", "ipm"):
        raise CommandError(
            f"--method sparsified solves with clarabel (default), simplex or ipm, not {args.solver}"
        )
    progress = _Progress(args)
    progress(f"reading game {args.game}")
    poker = load_showdown_game(args.game)
    progress.large = poker.tree_nodes >= LARGE_GAME_NODES
    with _solver_log_to_stderr(args.verbose):
        solution = solve_showdown(
            poker,
            solver=args.solver,
            time_limit=args.time_limit,
            verbose=args.verbose,
            progress=progress,
        )
    progress(f"done: value {solution.value:+.10f}, exploitability {solution.exploitability:.3g}")
    _render(showdown_json(solution), showdown_text(solution), args)
    return EXIT_OK


def _run_export(args: argparse.Namespace) -> int:
    from seqform.io.export import export_game

    game = _load(args.game)
    path = export_game(game, args.to, args.file)
    print(f"seqform: wrote {game.name} as {args.to} to {path}", file=sys.stderr)
    return EXIT_OK


def _run_play(args: argparse.Namespace) -> int:
    from seqform.cli.play import run_play

    if args.auto is not None and args.hands is None:
        raise CommandError("--auto needs --hands N", EXIT_USAGE)
    if args.summary_only and args.auto is None:
        raise CommandError("--summary-only needs --auto (you cannot play blind)", EXIT_USAGE)
    run_play(
        args.game,
        seat=args.seat,
        seed=args.seed,
        hands=args.hands,
        auto=args.auto,
        source=sys.stdin,
        out=sys.stdout,
        echo=not sys.stdin.isatty(),
        summary_only=args.summary_only,
    )
    return EXIT_OK


def _solve_normal(args: argparse.Namespace) -> int:
    from seqform.analyses.normal import solve_normal_form
    from seqform.cli.render.report import solution_json, solution_text
    from seqform.forms.normal_counts import NormalFormTooLargeError

    game = _load(args.game)
    logger.info("solving the normal-form LP with HiGHS %s via %s", args.solver, args.backend)
    try:
        result = solve_normal_form(
            game,
            max_entries=args.max_entries,
            backend=args.backend,
            algorithm=args.solver,
            time_limit=args.time_limit,
            verbose=args.verbose,
        )
    except NormalFormTooLargeError as exc:
        raise CommandError(f"{game.name}: {exc}; change the limit with --max-entries") from exc
    _render(
        solution_json(result.solution, method="normal", normal_form=result.summary),
        solution_text(result.solution, normal_form=result.summary),
        args,
    )
    return EXIT_OK


def _run_compare(args: argparse.Namespace) -> int:
    from seqform.analyses.compare import compare, comparison_json, comparison_text

    game = _load(args.game)
    logger.info("comparing the normal form and the sequence form of %s", game.name)
    comparison = compare(
        game,
        max_entries=args.max_entries,
        solve_lps=not args.no_solve,
        backend=args.backend,
        algorithm=args.solver,
        time_limit=args.time_limit,
    )
    _render(comparison_json(comparison), comparison_text(comparison), args)
    return EXIT_OK


# --- exact solutions, refinement, restrictions, the equilibrium set, exploitation ---


def _add_analysis_arguments(solve: argparse.ArgumentParser) -> None:
    group = solve.add_argument_group("beyond one float equilibrium")
    group.add_argument(
        "--exact",
        action="store_true",
        help="exact rational strategies and value, certified in exact arithmetic",
    )
    group.add_argument(
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


def _add_analysis_commands(commands: argparse._SubParsersAction) -> None:
    ranges = commands.add_parser(
        "ranges",
        help="the set of all equilibria: min and max of every action probability",
        description=(
            "For each information-set action, the minimum and maximum behavioural probability "
            "and realization-plan entry over all optimal strategies of its player, the "
            "dimension of each player's set and, when it is one-dimensional, its parameter."
        ),
    )
    _add_game_argument(ranges)
    ranges.add_argument(
        "--exact", action="store_true", help="exact fractions, each LP re-solved exactly"
    )
    ranges.add_argument("--verbose", action="store_true", help="show progress on stderr")
    _add_output_arguments(ranges)
    ranges.set_defaults(handler=_run_ranges)

    exploit = commands.add_parser(
        "exploit",
        help="best response to a fixed strategy and its gain over the equilibrium",
        description=(
            "Fix one player's strategy (a JSON file, or a named Kuhn opponent) and compute the "
            "other player's best response, its expected value and its gain over the "
            "equilibrium value."
        ),
    )
    _add_game_argument(exploit)
    source = exploit.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--strategy",
        metavar="FILE",
        help="JSON: a solve --format json document, one of its strategies, or "
        "{infoset: {action: probability}}",
    )
    source.add_argument(
        "--opponent",
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
        "--exact", action="store_true", help="the equilibrium value exactly (and the gain)"
    )
    exploit.add_argument("--verbose", action="store_true", help="show progress on stderr")
    _add_output_arguments(exploit)
    exploit.set_defaults(handler=_run_exploit)


def _run_solve_analysis(args: argparse.Namespace) -> int:
    """``solve`` with --exact, --refine or --fix: seqform.analyses.exact, refine, restrict."""
    from seqform.analyses.restrict import (
        load_fix_file,
        parse_fix,
        resolve_restrictions,
        solve_restricted,
    )
    from seqform.cli.render import analyses as render
    from seqform.lp.exact.rational import ExactSolveError

    if args.method != "sequence":
        raise CommandError("--exact, --refine and --fix work with --method sequence only")
    if args.backend != "highs":
        raise CommandError("--exact, --refine and --fix use HiGHS directly: drop --backend")
    if args.solver == "pdlp":
        raise CommandError("--exact, --refine and --fix need a simplex basis: use simplex or ipm")
    bounds = [parse_fix(spec) for spec in args.fix]
    if args.fix_file:
        bounds += load_fix_file(args.fix_file)
    if args.refine and bounds:
        raise CommandError("--refine cannot be combined with --fix or --fix-file")
    game = _load(args.game)
    try:
        if args.refine:
            from seqform.analyses.refine import refine

            logger.info("solving the perturbed LP (quasi-perfect refinement)")
            refined = refine(game, algorithm=args.solver, time_limit=args.time_limit)
            _render(render.refined_json(refined), render.refined_text(refined), args)
            return EXIT_OK
        if args.exact:
            from seqform.analyses.exact import solve_exact

            logger.info("solving exactly")
            exact = solve_exact(
                game,
                restrictions=bounds or None,
                algorithm=args.solver,
                time_limit=args.time_limit,
            )
            _render(render.exact_json(exact), render.exact_text(exact), args)
            return EXIT_OK
    except (ExactSolveError, ArithmeticError) as exc:
        raise CommandError(f"exact computation failed: {exc}") from exc
    from seqform.forms.sequence_form import build_sequence_form

    form = build_sequence_form(game)
    restrictions = resolve_restrictions(form, bounds)
    solution = solve_restricted(
        game, restrictions, form=form, algorithm=args.solver, time_limit=args.time_limit
    )
    _render(
        render.restricted_json(solution, restrictions),
        render.restricted_text(solution, restrictions),
        args,
    )
    return EXIT_OK


def _run_ranges(args: argparse.Namespace) -> int:
    from seqform.analyses.ranges import equilibrium_ranges
    from seqform.cli.render import analyses as render
    from seqform.lp.exact.rational import ExactSolveError

    game = _load(args.game)
    logger.info("computing the ranges over all equilibria of %s", game.name)
    try:
        ranges = equilibrium_ranges(game, exact=args.exact)
    except (ExactSolveError, ArithmeticError) as exc:
        raise CommandError(f"exact computation failed: {exc}") from exc
    _render(render.ranges_json(ranges), render.ranges_text(ranges), args)
    return EXIT_OK


def _run_exploit(args: argparse.Namespace) -> int:
    from seqform.analyses.exploit import exploit, load_strategy, named_opponent
    from seqform.cli.render import analyses as render

    game = _load(args.game)
    player = None if args.player is None else args.player - 1
    if args.opponent is not None:
        fixed = named_opponent(game, args.opponent, 0 if player is None else player)
        source = args.opponent
    else:
        fixed = load_strategy(game, args.strategy, player)
        source = f"the strategy in {args.strategy}"
    try:
        result = exploit(game, fixed, source=source, exact=args.exact)
    except ArithmeticError as exc:
        raise CommandError(f"exact computation failed: {exc}") from exc
    _render(render.exploitation_json(result), render.exploitation_text(result), args)
    return EXIT_OK


def _default_solver(args: argparse.Namespace) -> None:
    """``--solver``: clarabel for ``--method sparsified``, HiGHS simplex otherwise."""
    if not hasattr(args, "solver"):
        return
    sparsified = getattr(args, "method", None) == "sparsified"
    if args.solver is None:
        args.solver = "clarabel" if sparsified else "simplex"
    elif args.solver == "clarabel" and not sparsified:
        raise CommandError(
            "--solver clarabel solves the sparsified LP only (with --method sparsified)",
            EXIT_USAGE,
        )


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
        _default_solver(args)
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
