"""``seqform solve GAME``: the sequence-form LP (default), the normal form, or the
sparsified LP without the tree; ``--exact``, ``--refine`` and ``--fix`` are in
:mod:`seqform.cli.commands.solve_beyond`."""

from __future__ import annotations

import argparse
from typing import Any

from seqform.analyses.memory import (
    MemoryRefusedError,
    check_memory,
    sparsified_estimate,
    tree_estimate,
)
from seqform.analyses.normal import solve_normal_form
from seqform.analyses.showdown import ShowdownSolution, solve_showdown
from seqform.analyses.solve import Solution, solve
from seqform.cli.commands import solve_beyond
from seqform.cli.errors import CommandError, certified_exit
from seqform.cli.output import emit
from seqform.cli.parser import SPARSIFIED_DEFAULT_SOLVER
from seqform.cli.progress import (
    LARGE_GAME_NODES,
    Progress,
    load_reporting,
    logger,
    solver_log_to_stderr,
)
from seqform.cli.render.blocks import uncertified_reason
from seqform.cli.render.report import solution_json, solution_text
from seqform.cli.render.showdown import showdown_json, showdown_text
from seqform.forms.normal_counts import NormalFormTooLargeError
from seqform.game.builtin.registry import (
    SHOWDOWN_GAMES,
    builtin_tree_nodes,
    load_showdown_game,
)
from seqform.lp.solvers import SPARSIFIED_SOLVERS

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Solve ``args.game`` by ``args.method``, or hand over to the analyses beyond it."""
    if not args.force:
        _check_memory(args)
    if args.exact or args.refine or args.fix or args.fix_file:
        return solve_beyond.run(args)
    if args.method == "normal":
        return _solve_normal(args)
    if args.method == "sparsified":
        return _solve_sparsified(args)
    progress = Progress(args)
    game = load_reporting(args.game, progress)
    with solver_log_to_stderr(args.verbose):
        solution = solve(
            game,
            backend=args.backend,
            algorithm=args.solver,
            time_limit=args.time_limit,
            verbose=args.verbose,
            progress=progress,
        )
    return _finish(progress, solution, solution_json(solution), solution_text(solution), args)


def _finish(
    progress: Progress,
    solution: Solution | ShowdownSolution,
    document: dict[str, Any],
    text: str,
    args: argparse.Namespace,
) -> int:
    """Say on stderr that the solve is done, write its result, and exit by its certificate."""
    progress(f"done: value {solution.value:+.10f}, exploitability {solution.exploitability:.3g}")
    emit(document, text, args)
    return certified_exit(uncertified_reason(solution.certificate))


def _sparsified_solvers_text() -> str:
    """``"clarabel (default), simplex or ipm"``."""
    names = [
        f"{name} (default)" if name == SPARSIFIED_DEFAULT_SOLVER else name
        for name in SPARSIFIED_SOLVERS
    ]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _solve_sparsified(args: argparse.Namespace) -> int:
    if args.backend != "highs":
        raise CommandError("--method sparsified builds its own LP; --backend does not apply")
    if args.solver not in SPARSIFIED_SOLVERS:
        raise CommandError(
            f"--method sparsified solves with {_sparsified_solvers_text()}, not {args.solver}"
        )
    progress = Progress(args)
    progress(f"reading game {args.game}")
    poker = load_showdown_game(args.game)
    progress.large = poker.tree_nodes >= LARGE_GAME_NODES
    with solver_log_to_stderr(args.verbose):
        solution = solve_showdown(
            poker,
            solver=args.solver,
            time_limit=args.time_limit,
            verbose=args.verbose,
            progress=progress,
        )
    return _finish(progress, solution, showdown_json(solution), showdown_text(solution), args)


def _solve_normal(args: argparse.Namespace) -> int:
    game = load_reporting(args.game)
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
    emit(solution_json(result), solution_text(result), args)
    return certified_exit(uncertified_reason(result.certificate))


def _check_memory(args: argparse.Namespace) -> None:
    """Refuse, before building anything, a route whose memory estimate exceeds what the
    process may have (:mod:`seqform.analyses.memory`), saying how to get round it."""
    name = args.game.split("(", 1)[0].strip().lower()  # a bad spec is reported by the build
    if args.method == "sparsified":
        cards = load_showdown_game(args.game).cards
        estimate = sparsified_estimate(cards)
        way_out = "use a smaller game, or --force to try anyway"
    else:
        nodes = builtin_tree_nodes(args.game)
        if nodes is None:
            return
        estimate = tree_estimate(nodes)
        way_out = "too large for the tree route: "
        if name in SHOWDOWN_GAMES:
            way_out += "solve it with --method sparsified, which never builds the tree, "
        elif name == "leduc":
            way_out += "solve it with --method structured, which never builds the tree, "
        way_out += "or --force to try anyway"
    try:
        check_memory(estimate, way_out)
    except MemoryRefusedError as exc:
        raise CommandError(f"{args.game}: {exc}") from exc
