"""``seqform resolve GAME --blueprint FILE``: re-solve a blueprint's subgames of one round."""

from __future__ import annotations

import argparse

from seqform.cli.errors import EXIT_OK, EXIT_USAGE, CommandError
from seqform.cli.output import emit
from seqform.cli.progress import load_reporting
from seqform.documents.resolve import resolve_document
from seqform.documents.text.resolve import resolve_text
from seqform.io.strategy_files import StrategyFileError
from seqform.questions.exploit import load_strategy
from seqform.resolving.resolve import resolve
from seqform.resolving.subgames import ResolveError

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Read both players' blueprint from ``--blueprint``, re-solve, report."""
    game = load_reporting(args.game, max_nodes=args.max_nodes, force=args.force)
    try:
        blueprint = tuple(load_strategy(game, args.blueprint, player) for player in (0, 1))
    except (StrategyFileError, KeyError) as exc:
        raise CommandError(f"--blueprint: {exc}", EXIT_USAGE) from exc
    except OSError as exc:
        raise CommandError(
            f"--blueprint: cannot read {args.blueprint!r}: {exc.strerror or exc}", EXIT_USAGE
        ) from exc
    try:
        result = resolve(
            game, blueprint, round_number=args.round, gadget=args.gadget, refine=args.refine
        )
    except ResolveError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from exc
    document = resolve_document(result)
    emit(document, resolve_text(document), args)
    return EXIT_OK
