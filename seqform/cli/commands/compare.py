"""``seqform compare GAME``: the normal form beside the sequence form."""

from __future__ import annotations

import argparse

from seqform.analyses.compare import compare
from seqform.cli.errors import EXIT_OK
from seqform.cli.output import emit
from seqform.cli.progress import load_reporting, logger
from seqform.cli.render.compare import comparison_json, comparison_text

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Size up both formulations of ``args.game`` and solve those within the limit."""
    game = load_reporting(args.game)
    logger.info("comparing the normal form and the sequence form of %s", game.name)
    comparison = compare(
        game,
        max_entries=args.max_entries,
        solve_lps=not args.no_solve,
        backend=args.backend,
        algorithm=args.solver,
        time_limit=args.time_limit,
    )
    emit(comparison_json(comparison), comparison_text(comparison, args.strategies), args)
    return EXIT_OK
