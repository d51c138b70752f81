"""``seqform solve GAME`` with ``--exact``, ``--refine`` or ``--fix``/``--fix-file``:
:mod:`seqform.analyses.exact`, :mod:`~seqform.analyses.refine` and
:mod:`~seqform.analyses.restrict`; ``--method structured --exact`` is
:mod:`seqform.analyses.structured_exact` (no tree)."""

from __future__ import annotations

import argparse

from seqform.analyses.exact import solve_exact
from seqform.analyses.refine import refine
from seqform.analyses.restrict import (
    ActionBound,
    load_fix_file,
    parse_fix,
    resolve_restrictions,
    solve_restricted,
)
from seqform.analyses.structured_exact import solve_structured_exact
from seqform.cli.errors import EXIT_USAGE, CommandError, certified_exit
from seqform.cli.output import emit
from seqform.cli.progress import LARGE_GAME_NODES, Progress, load_reporting, logger
from seqform.cli.render.blocks import uncertified_reason
from seqform.cli.render.exact import AnyExactSolution, exact_json, exact_text
from seqform.cli.render.numbers import value_text
from seqform.cli.render.refine import refined_json, refined_text
from seqform.cli.render.report import solution_json
from seqform.cli.render.restrict import restricted_text
from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.registry import load_structured_game
from seqform.game.model import Game
from seqform.game.public_explicit import tree_nodes
from seqform.lp.exact.linear_solver import ExactSolveError

__all__ = ["run"]


def _bounds(args: argparse.Namespace) -> list[ActionBound]:
    """Check the options that go with these analyses; the ``--fix`` bounds, in order."""
    if args.method not in ("tree", "auto"):
        raise CommandError(
            "--refine and --fix work on the game tree only (--method tree), --exact on the "
            "tree or the structured route (--method tree or structured)"
        )
    if args.backend != "highs":
        raise CommandError("--exact, --refine and --fix use HiGHS directly: drop --backend")
    if args.solver == "pdlp":
        raise CommandError("--exact, --refine and --fix need a simplex basis: use simplex or ipm")
    bounds = [parse_fix(spec) for spec in args.fix]
    if args.fix_file:
        bounds += load_fix_file(args.fix_file)
    if args.refine and bounds:
        raise CommandError("--refine cannot be combined with --fix or --fix-file", EXIT_USAGE)
    return bounds


def run(args: argparse.Namespace) -> int:
    """The refined, exact or restricted solution of ``args.game``."""
    if args.method == "structured" and args.exact and not (args.fix or args.fix_file):
        return _structured_exact(args)
    bounds = _bounds(args)
    game = load_reporting(args.game, max_nodes=args.max_nodes, force=args.force)
    try:
        if args.refine:
            logger.info("solving the perturbed LP (quasi-perfect refinement)")
            refined = refine(game, algorithm=args.solver, time_limit=args.time_limit)
            emit(refined_json(refined), refined_text(refined, args.strategies), args)
            return certified_exit(uncertified_reason(refined.certificate))
        if args.exact:
            logger.info("solving exactly")
            exact = solve_exact(
                game,
                restrictions=bounds or None,
                algorithm=args.solver,
                time_limit=args.time_limit,
            )
            emit(exact_json(exact), exact_text(exact, args.strategies), args)
            return certified_exit(_exact_uncertified_reason(exact))
    except (ExactSolveError, ArithmeticError) as exc:
        raise CommandError(f"exact computation failed: {exc}") from exc
    return _solve_restricted(game, bounds, args)


def _solve_restricted(game: Game, bounds: list[ActionBound], args: argparse.Namespace) -> int:
    form = build_sequence_form(game)
    restrictions = resolve_restrictions(form, bounds)
    solution = solve_restricted(
        game, restrictions, form=form, algorithm=args.solver, time_limit=args.time_limit
    )
    emit(solution_json(solution), restricted_text(solution, args.strategies), args)
    return certified_exit(uncertified_reason(solution.certificate))


def _structured_exact(args: argparse.Namespace) -> int:
    """``--method structured --exact``: HiGHS's basis of the sparsified LP re-solved in
    rationals, certified by the public-tree best responses in Fractions."""
    if args.backend != "highs":
        raise CommandError("--exact uses HiGHS directly: drop --backend")
    if args.solver not in (None, "simplex", "ipm"):
        raise CommandError(
            f"--exact needs a simplex basis: use --solver simplex or ipm, not {args.solver}"
        )
    game = load_structured_game(args.game)
    progress = Progress(args)
    progress.large = tree_nodes(game) >= LARGE_GAME_NODES
    try:
        exact = solve_structured_exact(
            game,
            algorithm=args.solver or "simplex",
            time_limit=args.time_limit,
            progress=progress,
        )
    except (ExactSolveError, ArithmeticError) as exc:
        raise CommandError(f"exact computation failed: {exc}") from exc
    emit(exact_json(exact), exact_text(exact, args.strategies), args)
    return certified_exit(_exact_uncertified_reason(exact))


def _exact_uncertified_reason(solution: AnyExactSolution) -> str | None:
    """Why ``--exact`` proved no value (it proved the bounds the report shows instead)."""
    if solution.certified:
        return None
    lower, upper = solution.bounds.lower, solution.bounds.upper
    return (
        "no exact equilibrium was found; the exact certificate proves only "
        f"{value_text(lower)} <= value <= {value_text(upper)}"
    )
