"""Work that stops on Ctrl-C: it runs in a worker thread, the caller's thread waits.

Python runs its SIGINT handler (which raises :class:`KeyboardInterrupt`) only in the main
thread, and only between bytecodes: while HiGHS or Clarabel computes in C++/Rust on the
main thread, Ctrl-C waits until the solver returns (minutes on a large LP).  So
:func:`run_interruptibly` runs the work in a daemon thread (HiGHS, Clarabel and pygambit's
reader release the GIL or run Python code in it) and waits for it in short slices, where
the interrupt arrives at once.  It then sets ``stop``, which the solver's own interrupt
callback reads (HiGHS's ``cbSimplexInterrupt``/``cbIpmInterrupt``, Clarabel's termination
callback), gives the work :data:`GRACE_SECONDS` to return, and raises
:class:`KeyboardInterrupt` whether or not it did: work without a callback (HiGHS's PDLP,
cvxpy's HiGHS, pygambit reading a deep ``.efg`` file) is left to die with the process,
which the command line ends at once (:func:`work_left_running`).

The wait is an :class:`threading.Event`, never :meth:`threading.Thread.join`: in CPython
3.11 a join interrupted by Ctrl-C releases the running thread's own state lock and marks it
stopped while it still runs, and the interpreter's shutdown after that ended a command
killed by SIGINT (exit -2) instead of with its code 130.

Outside the main thread (a solve inside a worker of the caller's own) the work simply runs
in place, signals never reach such a thread anyway; unless it needs a stack of its own
size (``stack_size``), when it runs in a thread and is waited for.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = [
    "GRACE_SECONDS",
    "ThreadStartError",
    "run_interruptibly",
    "work_left_running",
]

T = TypeVar("T")

GRACE_SECONDS = 1.0
"""How long interrupted work may take to return before it is abandoned."""

_POLL_SECONDS = 0.05

_ABANDONED: list[threading.Event] = []
"""Workers still running after their interrupt's grace period (see
:func:`work_left_running`)."""


class ThreadStartError(RuntimeError):
    """No thread could be started for the work (e.g. its stack does not fit under a limit
    on virtual memory)."""


def work_left_running() -> bool:
    """True if interrupted work has not returned yet.

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


def run_interruptibly(
    work: Callable[[], T],
    stop: threading.Event | None = None,
    *,
    stack_size: int | None = None,
    name: str = "seqform-solver",
) -> T:
    """``work()``, run so that Ctrl-C stops it within about a second (module docstring).

    Parameters
    ----------
    work
        The work; its exceptions are re-raised here.
    stop
        Set when the caller is interrupted; ``work``'s solver callbacks read it.
    stack_size
        The worker thread's stack in bytes (:func:`threading.stack_size`), for work that
        recurses deeper than the default stack allows; ``None`` keeps the default.
    name
        The worker thread's name.

    Raises
    ------
    KeyboardInterrupt
        If interrupted while ``work`` ran (``stop`` is then set).
    ThreadStartError
        If the worker thread cannot be started.
    """
    in_main = threading.current_thread() is threading.main_thread()
    if not in_main and stack_size is None:
        return work()
    outcome: _Outcome[T] = _Outcome()
    done = threading.Event()

    def target() -> None:
        try:
            outcome.value.append(work())
        except BaseException as exc:  # handed to the caller's thread
            outcome.error.append(exc)
        finally:
            done.set()

    _start(threading.Thread(target=target, name=name, daemon=True), stack_size)
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


def _start(thread: threading.Thread, stack_size: int | None) -> None:
    """Start ``thread`` with a stack of ``stack_size`` bytes (the default if ``None``)."""
    previous = threading.stack_size(stack_size) if stack_size is not None else None
    try:
        thread.start()
    except RuntimeError as exc:
        raise ThreadStartError(str(exc)) from exc
    finally:
        if previous is not None:
            threading.stack_size(previous)
