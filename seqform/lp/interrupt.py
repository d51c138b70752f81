"""Solvers that stop on Ctrl-C: the solve runs in a worker thread, the caller's thread waits.

Python runs its SIGINT handler (which raises :class:`KeyboardInterrupt`) only in the main
thread, and only between bytecodes: while HiGHS or Clarabel computes in C++/Rust on the
main thread, Ctrl-C waits until the solver returns (minutes on a large LP).  So
:func:`run_interruptibly` runs the solve in a daemon thread (HiGHS and Clarabel release
the GIL while they compute) and waits for it in short slices, where the interrupt arrives
at once.  It then sets ``stop``, which the solver's own interrupt callback reads
(HiGHS's ``cbSimplexInterrupt``/``cbIpmInterrupt``, Clarabel's termination callback), gives
the solver :data:`GRACE_SECONDS` to return, and raises :class:`KeyboardInterrupt` whether
or not it did: a solver without a callback (HiGHS's PDLP, cvxpy's HiGHS) is left to die
with the process, which the command line ends at once with exit code 130.

Outside the main thread (a solve inside a worker of the caller's own) the solve simply
runs in place: signals never reach such a thread anyway.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["GRACE_SECONDS", "run_interruptibly", "solver_left_running"]

T = TypeVar("T")

GRACE_SECONDS = 1.0
"""How long an interrupted solver may take to return before it is abandoned."""

_POLL_SECONDS = 0.05

_ABANDONED: list[threading.Event] = []
"""Workers still running after their interrupt's grace period (see
:func:`solver_left_running`)."""


def solver_left_running() -> bool:
    """True if an interrupted solver has not returned yet.

    The process must then end without the interpreter's normal shutdown (``os._exit``):
    tearing down C++ state under a running HiGHS aborts the process (SIGABRT, "terminate
    called without an active exception"), which the command line must never show.
    """
    return not all(done.is_set() for done in _ABANDONED)


@dataclass
class _Outcome(Generic[T]):
    """What the worker thread left: the result, or the exception it raised."""

    value: list[T] = field(default_factory=list)
    error: list[BaseException] = field(default_factory=list)


def run_interruptibly(work: Callable[[], T], stop: threading.Event | None = None) -> T:
    """``work()``, run so that Ctrl-C stops it within about a second (module docstring).

    Parameters
    ----------
    work
        The solve; its exceptions are re-raised here.
    stop
        Set when the caller is interrupted; ``work``'s solver callbacks read it.

    Raises
    ------
    KeyboardInterrupt
        If interrupted while ``work`` ran (``stop`` is then set).
    """
    if threading.current_thread() is not threading.main_thread():
        return work()
    outcome: _Outcome[T] = _Outcome()
    # an Event, not Thread.join: a join interrupted by Ctrl-C can leave is_alive() False
    # while the thread still runs (CPython 3.11)
    done = threading.Event()

    def target() -> None:
        try:
            outcome.value.append(work())
        except BaseException as exc:  # handed to the caller's thread
            outcome.error.append(exc)
        finally:
            done.set()

    threading.Thread(target=target, name="seqform-solver", daemon=True).start()
    try:
        while not done.wait(_POLL_SECONDS):
            pass
    except KeyboardInterrupt:
        if stop is not None:
            stop.set()
        if not done.wait(GRACE_SECONDS):
            _ABANDONED.append(done)
        raise
    if outcome.error:
        raise outcome.error[0]
    return outcome.value[0]
