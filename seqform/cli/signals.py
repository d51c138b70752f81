"""SIGTERM and SIGHUP are handled as Ctrl-C is: the work stops the way SIGINT stops it, an
``iterate`` run so far is written, and the exit code is ``128 + n`` for signal ``n`` (143 for
SIGTERM, 129 for SIGHUP, 130 for Ctrl-C), as a shell reports a process its signal killed.

Python's own handling of SIGINT (:class:`KeyboardInterrupt`, or the iteration boundary
handler of :func:`seqform.base.interrupt.stop_on_interrupt`) already stops every stage
cleanly, so the handler installed here records the signal and calls whatever handles SIGINT
at that moment, with the signal's own number (so that an ``iterate`` run says it was
stopped by SIGTERM, not by Ctrl-C); where SIGINT is ignored (a background job), the handler
that stands in for it (:func:`seqform.base.interrupt.interrupt_handler`), else it raises
KeyboardInterrupt.  It is installed by the command line's ``main`` only,
for the length of the command, and the previous handlers are restored after; a signal
ignored when the command started (``nohup`` ignores SIGHUP) stays ignored.

A process forked while the handler is installed (a worker of ``solve-many``'s process pool)
inherits it; there it restores the default action and re-sends the signal to itself, so a
worker told to end ends, and never outlives the command.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

from seqform.base.interrupt import interrupt_handler, sigint_handler

__all__ = [
    "TERMINATING",
    "deferred_interrupt",
    "forget_caught_interrupts",
    "interrupted_code",
    "interrupting_signal",
    "terminate_as_interrupt",
]

TERMINATING: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals handled as Ctrl-C (SIGHUP does not exist on Windows)."""

_RECEIVED: list[int] = []


def interrupting_signal() -> signal.Signals:
    """The signal that interrupted the command: the last of :data:`TERMINATING` received,
    else SIGINT."""
    return signal.Signals(_RECEIVED[-1]) if _RECEIVED else signal.SIGINT


def interrupted_code() -> int:
    """``128 + n`` for the signal ``n`` that interrupted the command (130 for Ctrl-C)."""
    return 128 + int(interrupting_signal())


@contextlib.contextmanager
def deferred_interrupt(already: bool = False) -> Iterator[Callable[[], bool]]:
    """Within the block (a finished result being written), the first Ctrl-C, or a signal
    handled as it, is noted and the block goes on, so that what is finished is written
    whole; a second raises KeyboardInterrupt.  Yields whether one came.  ``already``: the
    run being written was itself stopped by one, so the next is that second (a user
    writing a large run's strategies pressed Ctrl-C again and had to press it a third
    time).  In other threads it changes nothing (only the main thread may handle
    signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    came = threading.Event()
    if already:
        came.set()

    def note(signum: int, frame: FrameType | None) -> None:
        if came.is_set():
            raise KeyboardInterrupt
        came.set()

    with sigint_handler(note):  # an ignored SIGINT stays ignored
        yield came.is_set


def forget_caught_interrupts() -> None:
    """Clear CPython's mark that a KeyboardInterrupt went unhandled, which one caught can
    leave, so that the process ends with the command's exit code.

    CPython ends a process by SIGINT after its main module returns whenever a
    KeyboardInterrupt went unhandled, as a shell expects of a program killed by Ctrl-C
    (bpo-1054041).  It marks one as unhandled when it leaves code run by ``exec`` of a
    string (``run_eval_code_obj`` in CPython's Python/pythonrun.c), even if a caller then
    catches it.  Libraries run such code while they are imported (:mod:`dataclasses` and
    :func:`collections.namedtuple` make their methods so), so a Ctrl-C during a lazy import
    left the mark, and ``python -m seqform`` died by SIGINT (exit -2 to its parent) after
    saying "seqform: interrupted" and returning 130.  Each ``exec`` of a string clears the
    mark as it starts: an empty one is all it takes.
    """
    exec("")


def _handler(owner: int) -> Callable[[int, FrameType | None], None]:
    def handle(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:  # a forked worker: end as the default action would
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        _RECEIVED.append(signum)
        interrupt = interrupt_handler()
        if interrupt is None:  # SIGINT ignored (a background job): stop all the same
            raise KeyboardInterrupt
        interrupt(signum, frame)  # its own number: the boundary handler reports it

    return handle


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP act as SIGINT (module docstring); outside the
    main thread it changes nothing (only the main thread may set handlers)."""
    _RECEIVED.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handle = _handler(os.getpid())
    previous = {}
    for number in TERMINATING:
        current = signal.getsignal(number)
        if current is signal.SIG_IGN:
            continue
        previous[number] = current
        signal.signal(number, handle)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
