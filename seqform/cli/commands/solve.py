"""``seqform solve GAME``: the sequence-form LP of the tree, the structured route (the
sparsified LP of public tree × private hands, no tree; ``--method sparsified`` is its old
name), or the normal form; ``--method auto`` (the default) takes the structured route when
the game has one and its tree would have more than :data:`AUTO_TREE_NODES` nodes.  ``--exact``,
``--refine`` and ``--fix`` are in :mod:`seqform.cli.commands.solve_beyond`."""

from __future__ import annotations

import argparse
from typing import Any

from seqform.analyses.memory import (
    MemoryRefusedError,
    check_memory,
    structured_estimate,
)
from seqform.analyses.normal import solve_normal_form
from seqform.analyses.solve import Solution, solve
from seqform.analyses.structured import StructuredSolution, solve_structured
from seqform.cli.commands import solve_beyond
from seqform.cli.errors import EXIT_USAGE, CommandError, certified_exit
from seqform.cli.output import emit
from seqform.cli.progress import (
    LARGE_GAME_NODES,
    Progress,
    load_reporting,
    logger,
    solver_log_to_stderr,
)
from seqform.cli.render.blocks import uncertified_reason
from seqform.cli.render.report import solution_json, solution_text
from seqform.cli.render.structured import structured_json, structured_text
from seqform.forms.normal_counts import NormalFormTooLargeError
from seqform.game.builtin.registry import load_structured_game
from seqform.game.public_explicit import tree_nodes
from seqform.game.public_numbering import number_public_tree
from seqform.game.public_tree import StructuredGame
from seqform.lp.solvers import SPARSIFIED_SOLVERS

__all__ = ["AUTO_TREE_NODES", "run"]

AUTO_TREE_NODES = 200_000
"""``--method auto`` takes the structured route above this many tree nodes (at most, as
:func:`~seqform.game.public_explicit.tree_nodes` counts them): leduc(ranks=13) (1.2 M nodes)
solves there in 2 s against 98 s on the tree, while Leduc 3×2 (9,457 nodes) is as fast on
the tree and keeps its exact routes."""


def _structured_or_none(spec: str) -> StructuredGame | None:
    """The game's structured description, or ``None`` when it has none (any other game, or
    parameters only its tree takes: the tree route then reads the spec and reports)."""
    try:
        return load_structured_game(spec)
    except ValueError:  # UnknownGameError, GameParameterError, InvalidGameError
        return None


def _route(args: argparse.Namespace) -> StructuredGame | None:
    """Resolve ``--method auto``: the structured game when the structured route is taken,
    else ``None`` (``args.method`` becomes ``"tree"`` and ``--solver`` HiGHS simplex)."""
    if args.method == "structured":
        return load_structured_game(args.game)
    if args.method != "auto":
        return None
    tree_only = args.refine or args.fix or args.fix_file  # --exact works on both routes
    game = None if tree_only else _structured_or_none(args.game)
    if game is not None and tree_nodes(game) > AUTO_TREE_NODES:
        args.method = "structured"
        return game
    if args.solver == "clarabel":
        raise CommandError(
            f"{args.game}: --solver clarabel solves the structured route, which this game "
            "does not take here; add --method structured, or drop --solver",
            EXIT_USAGE,
        )
    args.method, args.solver = "tree", args.solver or "simplex"
    return None


def run(args: argparse.Namespace) -> int:
    """Solve ``args.game`` by ``args.method``, or hand over to the analyses beyond it."""
    structured = _route(args)
    if not args.force:
        _check_memory(args, structured)
    if args.exact or args.refine or args.fix or args.fix_file:
        return solve_beyond.run(args)
    if args.method == "normal":
        return _solve_normal(args)
    if structured is not None:
        return _solve_structured(args, structured)
    progress = Progress(args)
    game = load_reporting(args.game, progress, max_nodes=args.max_nodes, force=args.force)
    with solver_log_to_stderr(args.verbose):
        solution = solve(
            game,
            backend=args.backend,
            algorithm=args.solver,
            time_limit=args.time_limit,
            verbose=args.verbose,
            progress=progress,
        )
    return _finish(
        progress, solution, solution_json(solution), solution_text(solution, args.strategies), args
    )


def _finish(
    progress: Progress,
    solution: Solution | StructuredSolution,
    document: dict[str, Any],
    text: str,
    args: argparse.Namespace,
) -> int:
    """Say on stderr that the solve is done, write its result, and exit by its certificate."""
    progress(f"done: value {solution.value:+.10f}, exploitability {solution.exploitability:.3g}")
    emit(document, text, args)
    return certified_exit(uncertified_reason(solution.certificate))


def _solve_structured(args: argparse.Namespace, game: StructuredGame) -> int:
    if args.backend != "highs":
        raise CommandError("the structured route builds its own LP; --backend does not apply")
    if args.solver is not None and args.solver not in SPARSIFIED_SOLVERS:
        raise CommandError(
            f"the structured route solves with clarabel, simplex or ipm, not {args.solver}"
        )
    progress = Progress(args)
    nodes = tree_nodes(game)
    progress.large = nodes >= LARGE_GAME_NODES
    progress(
        f"{game.name}: the structured route (public tree × private hands); the tree would "
        f"have at most {nodes:,} nodes and is not built"
    )
    with solver_log_to_stderr(args.verbose):
        solution = solve_structured(
            game,
            solver=args.solver,
            time_limit=args.time_limit,
            verbose=args.verbose,
            progress=progress,
        )
    text = structured_text(solution, args.strategies)
    return _finish(progress, solution, structured_json(solution), text, args)


def _solve_normal(args: argparse.Namespace) -> int:
    game = load_reporting(args.game, max_nodes=args.max_nodes, force=args.force)
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
    emit(solution_json(result), solution_text(result, args.strategies), args)
    return certified_exit(uncertified_reason(result.certificate))


def _check_memory(args: argparse.Namespace, structured: StructuredGame | None) -> None:
    """Refuse, before building anything, a route whose memory estimate exceeds what the
    process may have (:mod:`seqform.analyses.memory`), saying how to get round it: the
    structured route by its sequences here; the tree route (built-in games, by their nodes)
    where every command loads its game (:func:`~seqform.cli.progress.load_reporting`)."""
    if structured is None:
        return
    numbering = number_public_tree(structured)
    sequences = numbering.num_sequences(0) + numbering.num_sequences(1)
    try:
        check_memory(structured_estimate(sequences), "use a smaller game, or --force to try anyway")
    except MemoryRefusedError as exc:
        raise CommandError(f"{args.game}: {exc}") from exc
