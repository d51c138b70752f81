"""Work in a child process that Ctrl-C stops at once, and that dies with its parent.

A compiled solver that holds the GIL inside one call cannot be stopped by Ctrl-C until the
call returns: Python runs a signal's handler in the main thread, between bytecodes, and no
thread runs while the GIL is held (:mod:`seqform.base.interrupt` stops work *between* such
calls).  Clarabel's set-up (its KKT matrix ordered and factorised symbolically) is one such
call: 3 s on ``liars_dice(sides=8)``'s LP, during which a thread beside it ran 4 times
where it should have run 530.  :func:`run_in_child` runs such work in a forked child
instead; the parent waits on a pipe a fifth of a second at a time, so Ctrl-C (or SIGTERM,
which the command line handles as Ctrl-C) reaches it at once, and the child is killed.

The child shares the parent's memory as it was at the fork (copy on write: the LP is not
copied); it sends its messages (progress) and its answer back through the pipe.  It ignores
Ctrl-C itself (a terminal sends it to every process of the command; the parent decides) and,
on Linux, dies with the parent however the parent ends (:func:`die_with_parent`), so a parent
killed by ``kill -9`` or ``timeout`` leaves no child behind.  Where ``fork`` is not a start
method (Windows), or in a daemonic process, :func:`child_processes` is False and the caller
runs the work itself.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["ChildProcessFailed", "child_processes", "die_with_parent", "run_in_child"]

T = TypeVar("T")

POLL_SECONDS = 0.2
"""How long the parent waits on the pipe at a time: the delay before it sees Ctrl-C."""

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class ChildProcessFailed(RuntimeError):
    """The child ended without an answer (killed, out of memory) or with an error that did
    not pickle; the message says which."""


def child_processes() -> bool:
    """Whether :func:`run_in_child` can fork here: ``fork`` is a start method, and this
    process is not a daemonic one (a worker of some pools), which multiprocessing does not
    let have children."""
    daemonic = multiprocessing.current_process().daemon
    return "fork" in multiprocessing.get_all_start_methods() and not daemonic


def die_with_parent(parent: int) -> None:
    """In a child: ignore Ctrl-C (the parent stops it) and, on Linux, die with ``parent``
    however it ends (``prctl(PR_SET_PDEATHSIG, SIGKILL)``); exit at once if it is gone
    already (it died before the ``prctl`` took effect)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def run_in_child(
    work: Callable[[Callable[[Any], None]], T], on_message: Callable[[Any], None]
) -> T:
    """``work(send)`` in a forked child (module docstring); each ``send(message)`` there is
    ``on_message(message)`` here, in order, and the value ``work`` returns is returned.
    Where the fork is refused, ``work(on_message)`` runs here instead.

    Raises
    ------
    BaseException
        What ``work`` raised, when it pickles; KeyboardInterrupt from Ctrl-C here (the child
        is killed first).
    ChildProcessFailed
        When the child ends without an answer, or with an exception that does not pickle.
    """
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, writer, os.getpid()), daemon=True)
    try:
        child.start()
    except OSError:  # fork refused (the memory's commit limit, say): the work runs here
        reader.close()
        writer.close()
        return work(on_message)
    writer.close()
    try:
        while True:
            if not reader.poll(POLL_SECONDS):
                if not child.is_alive() and not reader.poll():
                    raise ChildProcessFailed(_ended(child.exitcode))
                continue
            try:
                kind, payload = reader.recv()
            except EOFError:
                child.join()
                raise ChildProcessFailed(_ended(child.exitcode)) from None
            if kind == "message":
                on_message(payload)
            elif kind == "answer":
                return payload
            else:
                raise payload
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        reader.close()


def _ended(code: int | None) -> str:
    if code is not None and code < 0:
        return f"the solver's process was killed by signal {-code} (out of memory?)"
    return f"the solver's process ended without an answer (exit code {code})"


def _child(work: Callable[[Callable[[Any], None]], Any], writer: Any, parent: int) -> None:
    die_with_parent(parent)

    def send(message: Any) -> None:
        writer.send(("message", message))

    try:
        answer = ("answer", work(send))
    except BaseException as exc:  # handed to the parent
        answer = ("error", exc)
    try:
        writer.send(answer)
    except Exception as exc:  # an answer or an exception that does not pickle
        writer.send(("error", ChildProcessFailed(f"the solver's answer did not pickle: {exc}")))
    writer.close()
    os._exit(0)  # no atexit handlers, no finalisers of the parent's objects
