"""HiGHS runs that stop on Ctrl-C and report their progress.

:func:`watched` hands back a function running a ``highspy.Highs`` so that Ctrl-C stops it
(HiGHS's interrupt callbacks, :func:`~seqform.base.interrupt.run_interruptibly`) and its
iterations reach the current progress listener (:mod:`seqform.base.progress`), read from
the callbacks' counts and from HiGHS's iteration log (:func:`log_status`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from seqform.base.interrupt import run_interruptibly
from seqform.base.progress import ProgressListener, Step, current_listener

if TYPE_CHECKING:
    import highspy

__all__ = ["log_status", "option", "watched"]

_REPORT_SECONDS = 0.25  # at most this often a run reports its iterations


def log_status(line: str) -> tuple[int, str] | None:
    """The iteration and a short status from one line of HiGHS's iteration log, else None.

    Simplex lines are ``iteration objective Pr: ... Du: ... time``; interior point (IPX)
    lines ``iteration primal dual pinf dinf gap time``; PDLP (cuPDLP-C) lines ``iteration
    primal dual gap pinf dinf time [tag]``.  The objective is HiGHS's, as it logs it (its
    sign may be that of the minimisation HiGHS solves internally).
    """
    tokens = line.split()
    if len(tokens) < 3 or not tokens[0].isdigit():
        return None
    try:
        if tokens[2].startswith(("Pr:", "Ph1:", "Ph2:")):
            return int(tokens[0]), f"objective {float(tokens[1]):.6g}"
        if len(tokens) >= 8 and tokens[-1].startswith("["):
            return int(tokens[0]), f"gap {abs(float(tokens[3])):.2e}"
        if len(tokens) == 7:
            return int(tokens[0]), f"gap {abs(float(tokens[5])):.2e}"
    except ValueError:
        return None
    return None


@dataclass
class _HighsWatch:
    r"""Ctrl-C and progress for the runs of one ``Highs``: its interrupt callbacks read
    ``stop``; its iteration counts and log lines go to ``listener`` as :class:`Step`\ s."""

    listener: ProgressListener | None
    phase: str
    stop: threading.Event = field(default_factory=threading.Event)
    iteration: int = 0
    detail: str = ""
    reported: float = 0.0

    def check(self, event: highspy.HighsCallbackEvent) -> None:
        """HiGHS's simplex and interior-point interrupt callback."""
        if self.stop.is_set():
            event.interrupt()
            return
        counts = (event.data_out.simplex_iteration_count, event.data_out.ipm_iteration_count)
        self.iteration = max(self.iteration, *counts)
        self.tell()

    def log(self, event: highspy.HighsCallbackEvent) -> None:
        """HiGHS's logging callback: a line of the iteration log updates the status."""
        status = log_status(event.message or "")
        if status is not None:
            self.iteration, self.detail = max(self.iteration, status[0]), status[1]
            self.tell()

    def tell(self, *, finished: bool = False) -> None:
        now = time.perf_counter()
        if self.listener is None or (now - self.reported < _REPORT_SECONDS and not finished):
            return
        self.reported = now
        step = Step(self.phase, self.iteration, None, self.detail, finished, solver=True)
        self.listener(step)


def option(highs: highspy.Highs, name: str) -> bool | int | float | str:
    """The value of an option (highspy returns ``(status, value)``)."""
    value = highs.getOptionValue(name)
    return value[1] if isinstance(value, tuple) else value


@contextmanager
def watched(highs: highspy.Highs) -> Iterator[Callable[[], object]]:
    """A function running ``highs`` so that Ctrl-C stops it (HiGHS's interrupt callbacks,
    :func:`~seqform.base.interrupt.run_interruptibly`) and its progress reaches the current
    listener (:mod:`seqform.base.progress`); the callbacks are removed afterwards.

    With a listener, HiGHS's log is turned on (into the callback only, unless it was
    already on: ``--verbose``) so that its lines give the objective or gap.
    """
    watch = _HighsWatch(current_listener(), f"HiGHS {option(highs, 'solver')}")
    logging_before = bool(option(highs, "output_flag"))
    highs.cbSimplexInterrupt += watch.check
    highs.cbIpmInterrupt += watch.check
    if watch.listener is not None:
        highs.cbLogging += watch.log
        if not logging_before:
            highs.setOptionValue("log_to_console", False)
            highs.setOptionValue("output_flag", True)
    try:
        yield lambda: run_interruptibly(highs.run, watch.stop)
    finally:
        watch.tell(finished=True)
        highs.cbSimplexInterrupt -= watch.check
        highs.cbIpmInterrupt -= watch.check
        if watch.listener is not None:
            highs.cbLogging -= watch.log
            if not logging_before:
                highs.setOptionValue("output_flag", False)
                highs.setOptionValue("log_to_console", True)
