"""Messages on stderr while a command runs: stage progress, the ``seqform`` logger, and the
solver's own log (which HiGHS writes to the process's stdout) moved to stderr.

Results go to stdout (or ``--output FILE``); everything here goes to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import time
from collections.abc import Iterator

from seqform.game.loader import load_game
from seqform.game.model import Game

__all__ = [
    "LARGE_GAME_NODES",
    "Progress",
    "configure_logging",
    "load_reporting",
    "logger",
    "solver_log_to_stderr",
]

LARGE_GAME_NODES = 100_000  # from this size on, progress is shown unless --quiet

logger = logging.getLogger("seqform")


class Progress:
    """Stage messages on stderr: always with --verbose, for large games by default, never
    with --quiet."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.verbose = bool(getattr(args, "verbose", False))
        self.quiet = bool(getattr(args, "quiet", False))
        self.large = False
        self.start = time.perf_counter()

    def __call__(self, message: str) -> None:
        if self.quiet or not (self.verbose or self.large):
            return
        print(f"seqform: [{time.perf_counter() - self.start:6.1f} s] {message}", file=sys.stderr)


@contextlib.contextmanager
def solver_log_to_stderr(active: bool) -> Iterator[None]:
    """Send what the solver writes to the process's stdout (HiGHS logs there, from C++) to
    stderr instead, so that stdout carries only the result."""
    if not active:
        yield
        return
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def load_reporting(
    spec: str, progress: Progress | None = None, *, max_nodes: int | None = None
) -> Game:
    """:func:`~seqform.game.loader.load_game`, telling ``progress`` (if any) how it went;
    from :data:`LARGE_GAME_NODES` nodes on, progress is shown by default."""
    if progress is not None:
        progress(f"building game {spec}")
    game = load_game(spec, max_nodes=max_nodes)
    if progress is not None:
        progress.large = game.flat.num_nodes >= LARGE_GAME_NODES
        progress(f"built {game.name}: {game.flat.num_nodes:,} nodes")
    return game


def configure_logging(args: argparse.Namespace) -> None:
    """The ``seqform`` logger on stderr: warnings, info with --verbose, errors with --quiet."""
    level = logging.WARNING
    if getattr(args, "verbose", False):
        level = logging.INFO
    if getattr(args, "quiet", False):
        level = logging.ERROR
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("seqform: %(message)s"))
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False
