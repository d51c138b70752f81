"""How long phases say how far they are, without printing: one hook for every room.

A phase that can take more than a couple of seconds (building a tree by histories, a
solver's iterations, ``ranges``' LPs, refinement rounds) calls :func:`report` with a
:class:`Step`: its name, how much is done and of what total (when the total is known), and
a short detail (a solver's objective or gap).  Nobody listens unless a caller installed a
listener with :func:`listening` (the command line does, to draw a progress bar on a
terminal); otherwise :func:`report` costs one context-variable look-up and does nothing.
Library code never prints: it reports here, and the listener decides what to show.

The listener is held in a :class:`contextvars.ContextVar`, so that nested phases of the
same run (a solve inside ``ranges``) reach it without passing it down every call.  A
solver running in a worker thread reports through the listener its caller read (see
:func:`current_listener`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["ProgressListener", "Step", "current_listener", "listening", "report"]


@dataclass(frozen=True)
class Step:
    """One report of a long phase.

    phase : what is running, e.g. ``"building tree"``, ``"HiGHS simplex"``
    done, total : how far it is (histories, LPs, iterations); ``total`` None when unknown
    detail : a short status, e.g. ``"objective -1.0231e-01"``; may be empty
    finished : the phase is over (a display may remove its line)
    solver : the step comes from an LP solver's own iterations (shown on a status line
        that is replaced by the next solver, not added to)
    """

    phase: str
    done: float = 0.0
    total: float | None = None
    detail: str = ""
    finished: bool = False
    solver: bool = False


ProgressListener = Callable[[Step], None]
"""Receives every :class:`Step`; must be quick and must not raise."""

_LISTENER: ContextVar[ProgressListener | None] = ContextVar("seqform_progress", default=None)


def current_listener() -> ProgressListener | None:
    """The listener installed by :func:`listening` around this call, if any."""
    return _LISTENER.get()


def report(step: Step) -> None:
    """Tell the current listener (if any) about ``step``."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(step)


@contextlib.contextmanager
def listening(listener: ProgressListener | None) -> Iterator[None]:
    """Send every :func:`report` made inside the block to ``listener`` (None: to nobody)."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
