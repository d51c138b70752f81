"""Pools of worker processes that die with their parent and stop at Ctrl-C.

Two users: ``solve-many`` farms spot files out to a pool (:mod:`seqform.routes.many`), and
a re-solve farms out its subgames (:mod:`seqform.resolving.structured_resolve`).  Both need
the same policy, written once here (:func:`worker_pool`): each worker ignores Ctrl-C (the
terminal sends it to every process of the command; the parent decides) and, on Linux, dies
with its parent however the parent ends (:func:`~seqform.base.child.die_with_parent`), and
when the parent stops (Ctrl-C, an error, a consumer that stops reading) the workers are
terminated at once: a worker busy in an LP does not see a cancelled queue.

:func:`forked_map` is a map in order over ``range(count)`` whose workers are forked from
this process as it is at the call, so they read its memory (a game's tables, a blueprint)
without pickling it; only the indices go out and the answers come back.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from seqform.base.child import POLL_SECONDS, child_processes, die_with_parent

__all__ = ["forked_map", "worker_pool"]

T = TypeVar("T")


@contextmanager
def worker_pool(workers: int, context: BaseContext | None = None) -> Iterator[ProcessPoolExecutor]:
    """A process pool of ``workers`` (module docstring), shut down on leaving; on any
    exception, ``GeneratorExit`` and ``KeyboardInterrupt`` included, its workers are
    terminated and its queue cancelled before the exception goes on."""
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )
    try:
        yield pool
    except BaseException:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()  # a running LP does not see the cancel; end its worker
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


_TASK: Callable[[int], Any] | None = None
"""The function of the running :func:`forked_map`, which its forked workers inherit."""


def _run_task(index: int) -> Any:
    assert _TASK is not None  # set before the pool forked this worker
    return _TASK(index)


def _answer(future: Future[T]) -> T:
    """The future's result, waited for a fifth of a second at a time so that Ctrl-C (and
    SIGTERM, which the command line turns into it) is seen at once."""
    while True:
        try:
            return future.result(timeout=POLL_SECONDS)
        except FutureTimeout:
            continue


def forked_map(function: Callable[[int], T], count: int, workers: int = 1) -> Iterator[T]:
    """``function(0), ..., function(count - 1)`` in that order; with ``workers > 1`` on that
    many processes forked from this one (module docstring), else here, one after the other
    (also where ``fork`` is not available, or in a daemonic process).

    Raises
    ------
    BaseException
        What ``function`` raised in a worker (when it pickles), after the other workers are
        terminated; ``concurrent.futures.process.BrokenProcessPool`` when a worker died
        (killed, out of memory).
    """
    if workers <= 1 or count <= 1 or not child_processes():
        for index in range(count):
            yield function(index)
        return
    global _TASK
    _TASK = function
    try:
        with worker_pool(min(workers, count), multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_run_task, index) for index in range(count)]
            for future in futures:
                yield _answer(future)
    finally:
        _TASK = None
