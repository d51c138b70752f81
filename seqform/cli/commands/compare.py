"""``seqform compare GAME``: the normal form beside the sequence form; for a game with a
structured description (kuhn, leduc, liars_dice), also the non-zeros of the structured LP's
payoff part beside nnz(A) (:mod:`seqform.structured.lp_model`)."""

from __future__ import annotations

import argparse

from seqform.cli.errors import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
    certified_exit,
    refuse_unused,
)
from seqform.cli.output import emit
from seqform.cli.progress import load_reporting, logger
from seqform.documents.compare import comparison_document, sizes_document
from seqform.documents.text.compare import comparison_text
from seqform.documents.text.compare_sizes import sizes_text
from seqform.game.builtin.registry import STRUCTURED_GAMES, load_structured_game, parse_game_spec
from seqform.game.errors import GameParameterError, TreeTooLargeError
from seqform.game.public.tree import StructuredGame
from seqform.holdem import is_spot_file
from seqform.questions.compare import compare, lp_options_given
from seqform.questions.formula_sizes import known_sizes
from seqform.routes.sizing.memory import MemoryRefusedError

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Size up both formulations of ``args.game`` and solve those within the limit; with
    ``--no-solve``, a built-in game with a structured description is sized from its public
    tree × private hands (or its formulas) without its tree, whatever the tree's size
    (:func:`~seqform.questions.formula_sizes.known_sizes`).  Exit 3 once the report is
    written when the values disagree or an LP's answer is not certified
    (:attr:`~seqform.questions.compare.Comparison.shortfall`), as ``solve``.
    ``--no-solve`` refuses the options of the LPs it does not solve."""
    if args.no_solve:
        refuse_unused(
            "--no-solve",
            _not_for_sizes(args),
            "it gives the sizes only: no LP is solved and no strategy is shown",
        )
        if args.max_nodes is None:  # --max-nodes: openspiel:NAME's, refused by the build
            sizes = known_sizes(args.game, max_entries=args.max_entries, force=args.force)
            if sizes is not None:
                document = sizes_document(sizes)
                emit(document, lambda: sizes_text(document), args)
                return EXIT_OK
    try:
        game = load_reporting(args.game, max_nodes=args.max_nodes, force=args.force)
    except (TreeTooLargeError, MemoryRefusedError) as refused:
        if args.no_solve or not _has_structured(args.game):
            raise
        # a limit of the parameters (Liar's Dice's bids) is a usage error in every command,
        # an estimate's refusal (nodes, memory) exit 1
        code = EXIT_USAGE if isinstance(refused, GameParameterError) else EXIT_ERROR
        raise CommandError(
            f"{refused}; `compare {args.game} --no-solve` gives both formulations' sizes "
            "without the tree",
            code,
        ) from refused
    logger.info("comparing the normal form and the sequence form of %s", game.name)
    comparison = compare(
        game,
        max_entries=args.max_entries,
        solve_lps=not args.no_solve,
        backend=args.backend,
        solver=args.solver,
        time_limit=args.time_limit,
        structured=_structured_or_none(args.game),
    )
    document = comparison_document(comparison)
    emit(document, lambda: comparison_text(document, args.strategies), args)
    return certified_exit(comparison.shortfall, "the comparison")


def _not_for_sizes(args: argparse.Namespace) -> list[str]:
    """The options given (not at their defaults) that ``--no-solve`` has no use for: those
    of the LPs, as the library refuses them (:func:`~seqform.questions.compare.lp_options_given`;
    ``--verbose`` and ``--quiet`` aside), and ``--strategies``, whose strategies come from
    the LPs."""
    flags = {
        "backend": f"--backend {args.backend}",
        "solver": f"--solver {args.solver}",
        "time_limit": "--time-limit",
    }
    given = [flags[name] for name in lp_options_given(args.backend, args.solver, args.time_limit)]
    if args.strategies != "auto":
        given.append(f"--strategies {args.strategies}")
    return given


def _has_structured(spec: str) -> bool:
    """Whether ``spec`` is a hold'em spot file or a built-in game with a structured
    description, without building it (the full Rhode Island hold'em's takes 40 s)."""
    if is_spot_file(spec):
        return True
    try:
        name, _ = parse_game_spec(spec)
    except ValueError:
        return False
    return name in STRUCTURED_GAMES


def _structured_or_none(spec: str) -> StructuredGame | None:
    """The structured description of a built-in game, or None for a game without one (or
    with parameters only the tree takes)."""
    try:
        return load_structured_game(spec)
    except ValueError:
        return None
