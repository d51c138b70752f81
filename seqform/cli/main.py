"""Command line: ``python -m seqform solve GAME`` and friends.

Exit codes (:mod:`seqform.cli.errors`): 0 success; 1 bad input (an unreadable or invalid
game file) or a solver that did not prove optimality; 2 usage errors, including an unknown
game name and an unknown, unreadable or out-of-range game parameter.  Errors are one line
on stderr, never a traceback; this module is the one place that turns exceptions into those
lines and codes.  Results go to stdout (or
``--output FILE``); progress and logs go to stderr.  A pipe closed by its reader ends the
command silently with exit 141, and a standard stream closed at start is handled as Unix
tools do (:mod:`seqform.cli.streams`).

The parser is :mod:`seqform.cli.parser`; each command is a module of
:mod:`seqform.cli.commands`; the text is rendered from the JSON document by
:mod:`seqform.documents.text`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
import warnings
from collections.abc import Sequence

from seqform.base.interrupt import work_left_running
from seqform.cli.errors import EXIT_ERROR, EXIT_USAGE, CommandError
from seqform.cli.output import stdout_failure
from seqform.cli.parser import build_parser
from seqform.cli.progress import configure_logging, live_progress
from seqform.cli.resolve import (
    check_files,
    is_output,
    resolve_export_file,
    resolve_output_format,
    resolve_solver,
)
from seqform.cli.signals import (
    forget_caught_interrupts,
    interrupted_code,
    interrupting_signal,
    terminate_as_interrupt,
)
from seqform.cli.streams import (
    open_standard_streams,
    pipe_closed,
    stderr_quiet_when_unread,
    terminal_text,
)
from seqform.forms.locks import LockError
from seqform.game.errors import GameParameterError, InvalidGameError, UnknownGameError
from seqform.holdem import CardError, SpotFileError
from seqform.io.loader import check_max_nodes
from seqform.lp.solvers import SolverError
from seqform.routes.options import OptionsError

__all__ = ["COMMANDS", "build_parser", "main", "run_command"]

# Each command's module, imported when the command runs: ``--help`` and ``solve kuhn`` must not
# pay for pygambit, cvxpy, OpenSpiel or pandas, which only some commands need.
COMMANDS: dict[str, str] = {
    name: f"seqform.cli.commands.{name.replace('-', '_')}"
    for name in (
        "solve",
        "compare",
        "export",
        "play",
        "ranges",
        "exploit",
        "iterate",
        "games",
        "qre",
        "solve-many",
        "show",
        "resolve",
    )
}


FLOAT_WARNINGS = r"(invalid value|overflow|divide by zero|underflow) encountered"
"""numpy's warnings of float arithmetic, which the command line does not print: a result
that they concern is judged by its certificate, whose verdict is said in words (``iterate``
on payoffs near the float range: "its certificate failed: ... overflows the float range")."""


def run_command(args: argparse.Namespace) -> int:
    """Import the module of ``args.command`` and run it, without numpy's float warnings
    (:data:`FLOAT_WARNINGS`); return its exit code."""
    module = importlib.import_module(COMMANDS[args.command])
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", FLOAT_WARNINGS, RuntimeWarning)
        code: int = module.run(args)
    return code


def _say(line: str) -> None:
    """``line`` on stderr, unless its reader has gone (then nobody is told)."""
    try:
        print(terminal_text(line), file=sys.stderr, flush=True)
    except BrokenPipeError:
        pipe_closed()


def _error(message: str, code: int = EXIT_ERROR) -> int:
    _say(f"seqform: error: {message}")
    return code


def _interrupted() -> int:
    """Ctrl-C (or SIGTERM, SIGHUP: :mod:`seqform.cli.signals`): one line, exit 128 + the
    signal (at once if interrupted work could not be stopped)."""
    received = interrupting_signal()
    _say("seqform: interrupted" + ("" if received == signal.SIGINT else f" ({received.name})"))
    return _end_unless_work_left(interrupted_code())


def _end_unless_work_left(code: int) -> int:
    """``code``; but end the process at once when interrupted work could not be stopped (a
    solver without an interrupt hook, a deep file being read): the interpreter's shutdown
    under running C++ code aborts the process (:func:`~seqform.base.interrupt.work_left_running`).
    """
    if work_left_running():
        with contextlib.suppress(BrokenPipeError, CommandError, ValueError):  # nobody reads it
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)
    return code


def _failure(exc: Exception, args: argparse.Namespace | None) -> str:
    """The line for a bad input or a failed solve or write: an ``OSError`` about a file names
    the file and whether it was read or written (one of the command's outputs:
    :func:`~seqform.cli.resolve.is_output`)."""
    if isinstance(exc, OSError) and exc.filename is not None:
        verb = "write" if is_output(exc.filename, args) else "read"
        return f"cannot {verb} {exc.filename!r}: {exc.strerror or exc}"
    return str(exc) or type(exc).__name__


def _flush_stdout() -> None:
    """Flush stdout; a failure other than a closed pipe is an error naming stdout."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise stdout_failure(exc) from exc


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code.  SIGTERM and SIGHUP are handled as
    Ctrl-C for the length of the command (:mod:`seqform.cli.signals`)."""
    with terminate_as_interrupt():
        open_standard_streams()
        with stderr_quiet_when_unread():  # the log's reader may leave; the run goes on
            code = _main(argv)
    forget_caught_interrupts()  # a caught Ctrl-C must not end the process by SIGINT
    return code


def _main(argv: Sequence[str] | None) -> int:
    args = None
    try:
        args = build_parser().parse_args(argv)
        configure_logging(args)
        resolve_solver(args)
        resolve_export_file(args)
        check_files(args)  # before any work: no output replaces an input, each can be written
        resolve_output_format(args)
        if hasattr(args, "max_nodes"):  # every command that takes a game, on every route
            check_max_nodes(args.game, args.max_nodes)
        with live_progress(args):
            code = run_command(args)
        _flush_stdout()  # a closed pipe or a full disk shows here, not at exit
        return _end_unless_work_left(code)
    except BrokenPipeError:  # the reader stopped reading: no error (cli/streams.py)
        return pipe_closed()
    except (
        UnknownGameError,
        GameParameterError,
        OptionsError,
        CardError,
        SpotFileError,
        LockError,
    ) as exc:
        return _error(str(exc), EXIT_USAGE)
    except CommandError as exc:
        return _error(str(exc), exc.code)
    except (InvalidGameError, SolverError, ValueError, OSError) as exc:
        return _error(_failure(exc, args))
    except KeyboardInterrupt:
        return _interrupted()
    except MemoryError as exc:  # with its reason where one was given (a reader's stack)
        return _error(f"out of memory: {exc}" if str(exc) else "out of memory; try a smaller game")
    except ImportError as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            # Ctrl-C while a compiled module initialised (``import highspy`` on first use):
            # pybind11 reports it as ImportError("initialization failed") caused by it
            return _interrupted()
        return _error(str(exc))
