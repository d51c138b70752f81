"""``seqform games``: the built-in games, their parameters and how they name information
sets (the label grammar of :mod:`seqform.game.builtin.labels`)."""

from __future__ import annotations

import argparse

from seqform.cli.errors import EXIT_OK
from seqform.cli.output import emit
from seqform.documents.games import games_document
from seqform.documents.text.games import games_text
from seqform.game.builtin.catalogue import builtin_games

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """List the built-in games."""
    document = games_document(builtin_games())
    emit(document, games_text(document), args)
    return EXIT_OK
