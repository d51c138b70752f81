"""``seqform ranges GAME``: the set of all equilibria."""

from __future__ import annotations

import argparse
import functools
import sys

from seqform.cli.errors import EXIT_OK, CommandError
from seqform.cli.output import emit
from seqform.cli.progress import load_reporting, logger
from seqform.cli.streams import terminal_text
from seqform.documents.ranges import ranges_document
from seqform.documents.text.ranges import ranges_text
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.questions.ranges import equilibrium_ranges
from seqform.questions.ranges_work import refuse_planned_work
from seqform.routes.policy import refuse_tree_beyond_memory

__all__ = ["run"]


def _started(line: str) -> None:
    """The one line a long ``ranges`` says when it starts, on stderr even when piped."""
    print(terminal_text(f"seqform: {line}"), file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Every action probability's range over all equilibria of ``args.game``, within the
    library's work limit (:func:`~seqform.questions.ranges.equilibrium_ranges`'
    ``max_seconds``) unless ``--force``."""
    if not args.force:  # from a built-in game's parameters, before its tree: memory, work
        refuse_tree_beyond_memory(args.game)
        refuse_planned_work(args.game)
    game = load_reporting(args.game, max_nodes=args.max_nodes, force=True)  # checked above
    logger.info("computing the ranges over all equilibria of %s", game.name)
    compute = functools.partial(equilibrium_ranges, game, exact=args.exact, progress=_started)
    try:
        ranges = compute(max_seconds=None) if args.force else compute()
    except (ExactSolveError, ArithmeticError) as exc:
        raise CommandError(f"exact computation failed: {exc}") from exc
    document = ranges_document(ranges)
    emit(document, lambda: ranges_text(document, args.strategies), args)
    return EXIT_OK
