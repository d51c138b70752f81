"""``seqform export GAME --to efg|npz|mps FILE``."""

from __future__ import annotations

import argparse
import sys

from seqform.cli.errors import EXIT_OK, CommandError
from seqform.cli.progress import load_reporting
from seqform.io.export import export_game

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Write ``args.game`` in the format ``args.to`` to ``args.file``."""
    game = load_reporting(args.game, max_nodes=args.max_nodes)
    try:
        path = export_game(game, args.to, args.file)
    except OSError as exc:
        raise CommandError(f"cannot write {args.file!r}: {exc.strerror or exc}") from exc
    print(f"seqform: wrote {game.name} as {args.to} to {path}", file=sys.stderr)
    return EXIT_OK
