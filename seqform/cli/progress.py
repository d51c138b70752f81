"""Messages on stderr while a command runs: stage progress, the ``seqform`` logger, the
solver's own log (which HiGHS writes to the process's stdout) moved to stderr, and the live
display of long phases.

Results go to stdout (or ``--output FILE``); everything here goes to stderr.

On a terminal (stderr a TTY), without ``--quiet`` or ``--verbose``, :func:`live_progress`
draws with ``rich`` what the library reports (:mod:`seqform.base.progress`): a bar for a
phase whose total is known (``ranges``' LPs, CFR iterations), a line with the elapsed time
and a count where it is not (OpenSpiel histories, refinement rounds), and one live status
line for the LP solver (HiGHS's iteration and objective or gap, Clarabel's iteration and
gap).  The display is transient: it disappears when the command ends.  Piped, nothing is
drawn; ``--verbose`` keeps the solver's full log instead.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

from seqform.base.progress import Step, current_listener, listening, report
from seqform.cli.streams import terminal_text
from seqform.game.builtin.registry import builtin_tree_nodes
from seqform.game.model import Game
from seqform.io.loader import load_game
from seqform.routes.policy import refuse_tree_beyond_memory

__all__ = [
    "LARGE_GAME_NODES",
    "LiveDisplay",
    "Progress",
    "configure_logging",
    "live_progress",
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
        if self.quiet:
            return
        if current_listener() is not None:  # a live display shows the stage instead
            report(Step(message))
            return
        if not (self.verbose or self.large):
            return
        elapsed = time.perf_counter() - self.start
        print(terminal_text(f"seqform: [{elapsed:6.1f} s] {message}"), file=sys.stderr)


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
    spec: str,
    progress: Progress | None = None,
    *,
    max_nodes: int | None = None,
    force: bool = False,
) -> Game:
    """:func:`~seqform.io.loader.load_game`, telling ``progress`` (if any) how it went;
    from :data:`LARGE_GAME_NODES` nodes on, progress is shown by default.  Unless ``force``
    (``--force``), a built-in game's tree that would not fit in memory is refused first
    (:func:`seqform.routes.policy.refuse_tree_beyond_memory`, the library's policy).  A
    built-in game whose parameters say it is large is announced as large before it is built
    (piped, a 10-million-node build was silent for minutes)."""
    if not force:
        refuse_tree_beyond_memory(spec)
    if progress is not None:
        nodes = builtin_tree_nodes(spec)  # a built-in game's size, before it is built
        progress.large = progress.large or (nodes or 0) >= LARGE_GAME_NODES
        progress(f"building game {spec}" + (f" ({nodes:,} nodes)" if nodes else ""))
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


class LiveDisplay:
    r"""Draws the :class:`~seqform.base.progress.Step`\ s it is given with a ``rich``
    progress display: one task per counted phase, one for the current stage message, one
    for the running solver (replaced, not added to, by the next solver)."""

    def __init__(self, progress: Any) -> None:
        self.progress = progress
        self.tasks: dict[str, Any] = {}

    def __call__(self, step: Step) -> None:
        key = "solver" if step.solver else ("stage" if step.total is None else step.phase)
        if key == "stage" and step.done == 0 and not step.detail and not step.finished:
            self._stage(step.phase)
            return
        task = self.tasks.get(key)
        description = step.phase
        if step.solver or (step.total is None and step.done):
            description = f"{step.phase}: {int(step.done):,}" + (
                " iterations" if step.solver else ""
            )
        if task is None:
            task = self.progress.add_task(description, total=step.total, detail=step.detail)
            self.tasks[key] = task
        self.progress.update(
            task,
            description=description,
            completed=step.done if step.total is not None else 0,
            total=step.total,
            detail=step.detail,
            visible=not step.finished,
        )
        if step.finished:
            del self.tasks[key]

    def _stage(self, message: str) -> None:
        """The current stage, on its own line with its elapsed time."""
        task = self.tasks.get("stage")
        if task is not None:
            self.progress.remove_task(task)
        self.tasks["stage"] = self.progress.add_task(message, total=None, detail="")


def _columns() -> list[Any]:
    from rich.progress import (
        BarColumn,
        SpinnerColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    return [
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[detail]}"),
    ]


@contextlib.contextmanager
def live_progress(args: argparse.Namespace) -> Iterator[None]:
    """Show what the command reports on a live display (module docstring), or nothing."""
    from rich.console import Console

    console = Console(stderr=True)
    quiet = bool(getattr(args, "quiet", False))
    verbose = bool(getattr(args, "verbose", False))
    interactive = getattr(args, "command", None) == "play"
    if quiet or verbose or interactive or not console.is_terminal:
        yield
        return
    from rich.progress import Progress as RichProgress

    with (
        RichProgress(
            *_columns(), console=console, transient=True, redirect_stdout=False
        ) as progress,
        listening(LiveDisplay(progress)),
    ):
        yield
