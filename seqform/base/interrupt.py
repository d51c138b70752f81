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

Work that keeps what it has done (the iterations of
:func:`seqform.iterative.run.run_iterations`, the steps of a logit QRE trace,
:func:`seqform.qre.trace.follow_branch`) stops at a boundary instead: inside
:func:`stop_on_interrupt`, while such work runs in :func:`interrupt_boundaries` (and only
then), the first SIGINT does not raise in the middle of a step; the work reads it at its
next boundary, stops, and returns what it has, with the name of the signal the handler was
called for (a handler that turns SIGTERM into Ctrl-C, :mod:`seqform.cli.signals`, passes its
own number).  A second SIGINT raises KeyboardInterrupt at once.  Elsewhere in the block
(building the game, the LP after a run) Python's own handler is in place, so one Ctrl-C
raises KeyboardInterrupt there, which work that keeps a finished result catches where
:func:`interrupt_armed`.

Compiled libraries are imported so that Ctrl-C is neither lost nor breaks them.  A
KeyboardInterrupt raised inside a pybind11 or PyO3 module's initialisation comes out as an
ImportError ("initialization failed") and leaves a module that cannot be imported again in
the process ("generic_type: type ... is already registered!"): HiGHS, OpenSpiel and
Clarabel, which import in a fraction of a second, are imported with Ctrl-C held until the
import returns (:func:`interrupt_held`).  cvxpy's import takes seconds and imports every
solver it knows, taking such an ImportError for a solver not installed (and JAX, which it
imports, ignores one raised in its garbage-collector callback): there Ctrl-C acts at once,
and one that the import swallowed is raised when it returns
(:func:`interrupt_not_swallowed`).  pygambit's interrupted import raises KeyboardInterrupt
and can be imported again (measured), so it needs neither.

A SIGINT ignored when a handler would be installed (``SIG_IGN``: a command started with
``cmd &`` from a script, whose parent asked it to ignore Ctrl-C) stays ignored: every
handler of SIGINT is installed through :func:`sigint_handler`, which then installs
nothing and lets the handler stand in for SIGINT only for the signals handled as Ctrl-C
(SIGTERM, SIGHUP: :func:`interrupt_handler`), so that such a job still keeps its work when
terminated.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import FrameType
from typing import Generic, TypeVar

__all__ = [
    "GRACE_SECONDS",
    "ThreadStartError",
    "interrupt_armed",
    "interrupt_boundaries",
    "interrupt_handler",
    "interrupt_held",
    "interrupt_not_swallowed",
    "run_interruptibly",
    "sigint_handler",
    "stop_on_interrupt",
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


# --- work that stops at its boundaries -----------------------------------------------------

_NOTED = threading.Event()  # set by the boundary handler of interrupt_boundaries
_NOTED_BY: list[int] = []  # the signal that handler was called for
_ARMED = threading.Event()  # set inside stop_on_interrupt (main thread only)


@contextlib.contextmanager
def stop_on_interrupt() -> Iterator[None]:
    """Within the block, Ctrl-C during work in :func:`interrupt_boundaries` stops it at its
    next boundary instead of raising inside a step; a second Ctrl-C raises
    KeyboardInterrupt (module docstring).  Anywhere else in the block the first Ctrl-C
    raises KeyboardInterrupt as usual, which work that keeps a finished result catches
    where :func:`interrupt_armed`.  In other threads it changes nothing (only the main
    thread may handle signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may handle signals; Ctrl-C then acts as usual
        return
    _ARMED.set()
    try:
        yield
    finally:
        _ARMED.clear()
        _NOTED.clear()


def interrupt_armed() -> bool:
    """Whether a Ctrl-C here is to stop the work and keep what is done: inside
    :func:`stop_on_interrupt`, on the main thread (the LP reference after a run, say, is
    then reported as interrupted and the run kept)."""
    return _ARMED.is_set() and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def interrupt_boundaries() -> Iterator[Callable[[], str | None]]:
    """Inside :func:`stop_on_interrupt` on the main thread: the first SIGINT is noted, for
    the work to read at its next boundary, and a second raises KeyboardInterrupt; the
    previous handler is back when the block ends.  Yields ``interrupted()``: the name of
    the signal noted (``"SIGINT"``, or ``"SIGTERM"``, ``"SIGHUP"`` turned into it), else
    None; it still answers after the block (a Ctrl-C in the last step is not lost), until
    the next such block or the end of :func:`stop_on_interrupt`.  Elsewhere it installs
    nothing and ``interrupted()`` is None."""

    def handler(signum: int, frame: FrameType | None) -> None:
        if _NOTED.is_set():
            raise KeyboardInterrupt
        _NOTED_BY[:] = [signum]
        _NOTED.set()

    if not interrupt_armed():
        yield lambda: None
        return
    _NOTED.clear()
    _NOTED_BY.clear()
    with sigint_handler(handler):
        yield _noted_signal


SignalHandler = Callable[[int, FrameType | None], object]

_STANDING_IN: list[SignalHandler] = []
"""Handlers of :func:`sigint_handler` blocks entered while SIGINT was ignored, innermost
last."""


@contextlib.contextmanager
def sigint_handler(handler: SignalHandler) -> Iterator[None]:
    """Within the block, ``handler`` handles SIGINT, and the previous handler is back after
    it; but a SIGINT ignored when the block starts stays ignored, and ``handler`` then only
    stands in for it (:func:`interrupt_handler`; module docstring).  Main thread only."""
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        _STANDING_IN.append(handler)
        try:
            yield
        finally:
            _STANDING_IN.remove(handler)
        return
    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupt_handler() -> SignalHandler | None:
    """What a signal handled as Ctrl-C calls (:mod:`seqform.cli.signals`): SIGINT's handler,
    or where SIGINT is ignored, the handler of the innermost :func:`sigint_handler` block
    standing in for it; None where there is neither."""
    current = signal.getsignal(signal.SIGINT)
    if callable(current):
        return current
    return _STANDING_IN[-1] if _STANDING_IN else None


@contextlib.contextmanager
def interrupt_held() -> Iterator[None]:
    """Within the block (the short import of a compiled library: module docstring), Ctrl-C, or a
    signal handled as it (:mod:`seqform.cli.signals`), is held: the block runs to its end,
    and then the handler the signal was held from is called with its number, as if it had
    come just after the block (Python's own handler raises KeyboardInterrupt there).  Later
    signals within the block are held with the first.  Where SIGINT is ignored, a signal
    handled as Ctrl-C is held all the same and then raises KeyboardInterrupt, as the
    command line's handler does without one (:func:`interrupt_handler`).  In other
    threads it changes nothing (only the main thread may handle signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    release = interrupt_handler()

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    try:
        with sigint_handler(hold):
            yield
    finally:  # a failed import (not installed, say) that was interrupted is interrupted
        if held:
            if release is None:
                raise KeyboardInterrupt
            release(held[0], None)


@contextlib.contextmanager
def interrupt_not_swallowed() -> Iterator[None]:
    """Within the block (cvxpy's import: module docstring), Ctrl-C, or a signal handled as
    it, acts as it would outside the block; but a KeyboardInterrupt it raised is not lost:
    if code in the block caught it and the block ends otherwise (returning, or raising
    something else), KeyboardInterrupt is raised as the block ends.  In other threads it
    changes nothing (only the main thread may handle signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised: list[int] = []
    handler = interrupt_handler()

    def watch(signum: int, frame: FrameType | None) -> None:
        try:
            if handler is None:  # as the command line's handler does without one
                raise KeyboardInterrupt
            handler(signum, frame)
        except KeyboardInterrupt:
            raised.append(signum)
            raise

    try:
        with sigint_handler(watch):
            yield
    except KeyboardInterrupt:
        raise
    except BaseException:
        if raised:
            raise KeyboardInterrupt from None  # the error came of the interrupted import
        raise
    if raised:
        raise KeyboardInterrupt


def _noted_signal() -> str | None:
    """The name of the signal the boundary handler noted, or None."""
    if not _NOTED.is_set():
        return None
    number = _NOTED_BY[0] if _NOTED_BY else signal.SIGINT
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
