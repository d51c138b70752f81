"""The standard streams at their edges: closed when seqform starts, or a pipe whose reader
stops reading.  Unix tools behave this way, and so does the command line.

A stream closed at start (``seqform solve kuhn >&-``)
    Python starts with ``sys.stdout`` set to None, and the next file the process opens
    takes descriptor 1, where HiGHS prints.  :func:`open_standard_streams` gives each
    closed descriptor 0, 1, 2 ``/dev/null`` and replaces a missing ``sys`` stream:
    ``sys.stdin`` reads as empty (end of input), ``sys.stderr`` discards, and
    ``sys.stdout`` becomes :class:`ClosedStdout`, whose first write fails with the one-line
    error "standard output is closed" (exit 1, as coreutils' "write error: Bad file
    descriptor").  A command that writes its result with ``--output FILE`` writes the file
    as usual: nothing else is written to stdout.

A pipe closed by its reader (``seqform solve leduc | head -1``)
    Python ignores SIGPIPE, so the write fails with :class:`BrokenPipeError`.  The reader
    chose to stop reading; that is no error.  :func:`pipe_closed` points stdout and stderr
    at ``/dev/null`` (so that Python's flush at exit cannot fail again and print
    "Exception ignored") and the command exits :data:`~seqform.cli.errors.EXIT_PIPE_CLOSED`
    (141 = 128 + SIGPIPE, what a shell reports for a C tool ended by SIGPIPE: ``yes | head
    -1`` under ``set -o pipefail``) without a word and without a traceback.  This is the
    pattern of CPython's documentation (the :mod:`signal` module, "Note on SIGPIPE"); the
    signal's default action is not restored, since it would end the process in the middle
    of an ``--output`` file, where the atomic writer now removes its temporary file.

A reader of stderr that stops reading (``seqform iterate leduc --output r.json 2>&1 | head -1``)
    The messages on stderr are the log, not the result: a run whose result goes to
    ``--output`` must not be lost because the log's reader left.  For the length of a
    command, ``sys.stderr`` is a :class:`QuietWhenUnread`, which at its first
    :class:`BrokenPipeError` points descriptor 2 at ``/dev/null`` and goes on; exit 141 is
    left to a broken stdout, where the result goes.

Text from a file shown on a terminal (:func:`terminal_text`)
    A game's title and labels are the file's: an ``.efg`` label may hold ``ESC]0;…BEL``
    (which sets the terminal's title) or ``ESC[2J`` (which clears the screen).  Every line of
    text the command line writes, results and messages alike, goes through
    :func:`terminal_text`, which writes each control character other than newline and tab
    as Python writes it in a ``repr`` (``\\x1b``), the form the error messages' ``!r`` quotes
    already show.  JSON needs nothing: its encoder escapes them.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from seqform.cli.errors import EXIT_PIPE_CLOSED, CommandError

__all__ = [
    "ClosedStdout",
    "QuietWhenUnread",
    "open_standard_streams",
    "pipe_closed",
    "stderr_quiet_when_unread",
    "terminal_text",
]

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""The C0 controls but tab and newline, DEL, and the C1 controls (``\x9b`` is a CSI)."""


def terminal_text(text: str) -> str:
    """``text`` with its control characters but newline and tab written as escapes
    (``"\\x1b"``, as ``repr`` writes them), so that no text shown on a terminal can drive it."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(lambda found: repr(found.group())[1:-1], text)


CLOSED_STDOUT = (
    "cannot write the result: standard output is closed (write it to a file with --output FILE)"
)


class ClosedStdout(io.TextIOBase):
    """``sys.stdout`` when descriptor 1 was closed at start: flushing does nothing, and a
    write raises :class:`~seqform.cli.errors.CommandError` (exit 1) saying so."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise CommandError(CLOSED_STDOUT)

    def fileno(self) -> int:
        return 1  # /dev/null there (open_standard_streams), for HiGHS's redirection

    def isatty(self) -> bool:
        return False


def _descriptor_open(descriptor: int) -> bool:
    try:
        os.fstat(descriptor)
    except OSError:
        return False
    return True


class QuietWhenUnread:
    """A text stream (``sys.stderr``) whose reader may leave: writes and flushes after the
    pipe breaks go to ``/dev/null`` instead of raising (module docstring).  Everything else
    is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.unread = False

    def write(self, text: str) -> int:
        if not self.unread:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self._to_null()
        return len(text)

    def flush(self) -> None:
        if not self.unread:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._to_null()

    def _to_null(self) -> None:
        """Point the stream's descriptor at ``/dev/null``, so that what its buffer still
        holds and C code's writes to descriptor 2 go nowhere; a stream without one (a
        test's capture) is just no longer written."""
        self.unread = True
        try:
            null = os.open(os.devnull, os.O_WRONLY)
        except OSError:
            return
        try:
            os.dup2(null, self.stream.fileno())
        except (AttributeError, OSError, ValueError):
            pass
        finally:
            os.close(null)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextmanager
def stderr_quiet_when_unread() -> Iterator[None]:
    """``sys.stderr`` as a :class:`QuietWhenUnread` inside the block (module docstring)."""
    saved = sys.stderr
    sys.stderr = QuietWhenUnread(saved)
    try:
        yield
    finally:
        sys.stderr = saved


def open_standard_streams() -> None:
    """Give closed descriptors 0-2 ``/dev/null`` and missing ``sys`` streams a stand-in
    (module docstring).  Does nothing when all three are open, as they nearly always are."""
    for descriptor in (0, 1, 2):
        if not _descriptor_open(descriptor):
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: usually this one
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115  # lives as long as sys
    if sys.stdout is None:
        sys.stdout = ClosedStdout()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def pipe_closed() -> int:
    """After a :class:`BrokenPipeError`: stdout and stderr to ``/dev/null``, whatever they
    still hold discarded at exit; return :data:`~seqform.cli.errors.EXIT_PIPE_CLOSED`."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (sys.stdout, sys.stderr):
            try:
                descriptor = stream.fileno()
            except (AttributeError, OSError, ValueError):  # a stream without one (tests)
                continue
            os.dup2(null, descriptor)
    finally:
        os.close(null)
    return EXIT_PIPE_CLOSED
