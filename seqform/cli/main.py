"""Command line: ``python -m seqform solve GAME`` and friends.

Exit codes (:mod:`seqform.cli.errors`): 0 success; 1 bad input (unreadable or invalid game,
bad parameters) or a solver that did not prove optimality; 2 usage errors, including an
unknown game name.  Errors are one line on stderr, never a traceback; this module is the one
place that turns exceptions into those lines and codes.  Results go to stdout (or
``--output FILE``); progress and logs go to stderr.

The parser is :mod:`seqform.cli.parser`; each command is a module of
:mod:`seqform.cli.commands`; the text and JSON are written by :mod:`seqform.cli.render`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from seqform.cli.commands import (
    compare,
    exploit,
    export,
    games,
    iterate,
    play,
    qre,
    ranges,
    solve,
)
from seqform.cli.errors import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_USAGE, CommandError
from seqform.cli.parser import build_parser, resolve_solver
from seqform.cli.progress import configure_logging, live_progress
from seqform.game.errors import InvalidGameError, UnknownGameError
from seqform.lp.interrupt import solver_left_running
from seqform.lp.solvers import SolverError

__all__ = ["COMMANDS", "build_parser", "main"]

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "solve": solve.run,
    "compare": compare.run,
    "export": export.run,
    "play": play.run,
    "ranges": ranges.run,
    "exploit": exploit.run,
    "iterate": iterate.run,
    "games": games.run,
    "qre": qre.run,
}


def _error(message: str, code: int = EXIT_ERROR) -> int:
    print(f"seqform: error: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    args = build_parser().parse_args(argv)
    configure_logging(args)
    try:
        resolve_solver(args)
        with live_progress(args):
            return COMMANDS[args.command](args)
    except UnknownGameError as exc:
        return _error(str(exc), EXIT_USAGE)
    except CommandError as exc:
        return _error(str(exc), exc.code)
    except (InvalidGameError, SolverError, ValueError, OSError) as exc:
        message = str(exc) or type(exc).__name__
        if isinstance(exc, OSError) and exc.filename is not None:
            message = f"cannot read {exc.filename!r}: {exc.strerror or exc}"
        return _error(message)
    except KeyboardInterrupt:
        print("seqform: interrupted", file=sys.stderr)
        if solver_left_running():  # a solver without an interrupt hook: end at once
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(EXIT_INTERRUPTED)
        return EXIT_INTERRUPTED
    except MemoryError:
        return _error("out of memory; try a smaller game")
    except ImportError as exc:
        return _error(str(exc))
