"""``seqform play [GAME]``: the entry point; the terminal front end is :mod:`seqform.cli.play`,
the engine :mod:`seqform.play`."""

from __future__ import annotations

import argparse
import sys

from seqform.cli.errors import EXIT_OK, EXIT_USAGE, CommandError
from seqform.cli.play.run import run_play

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Play Kuhn poker, Leduc or Rhode Island hold'em, or a spot on stdin and stdout (or let
    ``--auto`` play ``--hands`` hands)."""
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
        force=args.force,
    )
    return EXIT_OK
