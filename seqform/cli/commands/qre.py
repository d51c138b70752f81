"""``seqform qre GAME``: logit quantal response equilibria (trace, points, fit, picture).

Ctrl-C (or SIGTERM, SIGHUP: :mod:`seqform.cli.signals`) keeps what is finished, as
``iterate``'s: during the trace of the branch it stops after the step under way and the
branch so far is written (``--output``, and ``--plot``), its trace's ``reason``
``"interrupted"`` with the signal, its last point in place of the limit (with ``--plot``,
``--lambda`` and ``--fit`` are then not computed); during the comparison with all
equilibria, the finished branch is written without it; during the trace of ``--lambda``,
the points crossed so far (nothing if none was); during the trace of ``--fit``, the fit
along the branch so far.  The document's ``interrupted`` says what was cut short, and the
exit code is 128 + the signal (130 for Ctrl-C).  While the game is loaded, Ctrl-C stops
the command at once with nothing written.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time

import numpy as np

from seqform.base.interrupt import stop_on_interrupt
from seqform.cli.errors import (
    EXIT_NOT_CERTIFIED,
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
    certified_exit,
    refuse_unused,
)
from seqform.cli.output import emit
from seqform.cli.progress import load_reporting
from seqform.cli.signals import deferred_interrupt, interrupted_code, interrupting_signal
from seqform.cli.streams import terminal_text
from seqform.documents.qre import qre_result_document
from seqform.documents.text.qre import qre_text
from seqform.game.model import Game
from seqform.qre.equilibria import (
    DEFAULT_TOLERANCE,
    Interruption,
    LambdaNotReachedError,
    LogitBranch,
    LogitPoints,
    logit_qre,
    trace_logit,
)
from seqform.qre.fit import LogitFit, fit_logit
from seqform.qre.trace import TraceSettings
from seqform.qre.work import refuse_large_trace

__all__ = ["parse_lambdas", "run"]

PROGRESS_EVERY = 1.0  # seconds between progress lines on stderr


def parse_lambdas(values: list[str] | None) -> list[float]:
    """``--lambda 1 --lambda 2,5`` as ``[1.0, 2.0, 5.0]``; a usage error if not numbers >= 0."""
    lambdas: list[float] = []
    for value in values or []:
        for part in value.split(","):
            try:
                lam = float(part)
            except ValueError:
                raise CommandError(f"--lambda {part!r}: not a number", EXIT_USAGE) from None
            if not (lam >= 0 and lam != float("inf")):
                raise CommandError(f"--lambda {part!r}: must be finite and >= 0", EXIT_USAGE)
            lambdas.append(lam)
    return sorted(lambdas)


def _reporter(quiet: bool):
    start = last = time.perf_counter()

    def report(lam: float, nash_conv: float | None = None) -> None:
        nonlocal last
        now = time.perf_counter()
        if quiet or now - last < PROGRESS_EVERY:
            return
        last = now
        measured = "" if nash_conv is None else f", NashConv {nash_conv:.3g}"
        print(f"seqform: [{now - start:6.1f} s] qre: λ = {lam:.4g}{measured}", file=sys.stderr)

    return report


def _plot(branch: LogitBranch, path: str) -> None:
    from seqform.cli.plots.qre import plot_branch

    plot_branch(branch, path)


def _refuse_unused(args: argparse.Namespace, lambdas: list[float]) -> None:
    """Refuse the options given (not at their defaults) that the mode does not use.

    The trace to the limit (the default) uses them all.  ``--lambda`` follows the branch
    to its largest ``λ`` with ``--max-accel`` only, and ``--fit`` stops its trace at the
    limit of the default tolerance or at ``--max-lambda`` (:func:`~seqform.qre.fit.fit_logit`);
    neither places a limit among all equilibria (``--no-compare``).  With ``--plot`` both
    also trace the branch it draws, which ``--tolerance`` and ``--max-lambda`` stop."""
    if not (lambdas or args.fit):
        return
    given = {
        "--tolerance": args.tolerance != DEFAULT_TOLERANCE and not args.plot,
        "--max-lambda": args.max_lambda is not None and bool(lambdas) and not args.plot,
        "--no-compare": args.no_compare,
    }
    mode = "--lambda" if lambdas else "--fit"
    why = (
        "the points are traced to the largest λ asked for and not compared with all equilibria"
        if lambdas
        else f"the fit's trace stops at --max-lambda or at NashConv <= {DEFAULT_TOLERANCE:g} × "
        "the payoff range, and the fit is not compared with all equilibria"
    )
    if not args.plot:
        why += "; --tolerance and --max-lambda apply to the branch that --plot draws"
    refuse_unused(mode, [option for option, present in given.items() if present], why)


Result = LogitBranch | LogitPoints | LogitFit


def _write_interrupted(result: Result, interruption: Interruption, args: argparse.Namespace) -> int:
    """Write what an interrupt left finished (module docstring); its exit code.  A first
    Ctrl-C while it is written is the second: it ends the writing."""
    received = interruption.signal or interrupting_signal().name  # a KeyboardInterrupt's
    result = dataclasses.replace(result, interrupted=Interruption(interruption.during, received))
    by = "" if received == "SIGINT" else f" ({received})"
    branch = result if isinstance(result, LogitBranch) else result.branch
    if isinstance(result, LogitPoints) and not result.points:
        _say(f"interrupted{by} before the trace reached the first λ asked for; nothing written")
        return interrupted_code()
    if not args.quiet:
        _say("stopped; writing what is finished (Ctrl-C again ends without it)")
    with deferred_interrupt(True):
        document = qre_result_document(result)
        emit(document, qre_text(document, args.strategies), args)
        if args.plot and branch is not None:
            _plot(branch, args.plot)
    _say(f"interrupted{by} {_cut_short(result, interruption.during, args)}")
    return interrupted_code()


def _cut_short(result: Result, during: str, args: argparse.Namespace) -> str:
    """What the interrupt cut short and what is written, for stderr."""
    if during == "comparison":
        return "during the comparison with all equilibria; the finished trace without it"
    if isinstance(result, LogitBranch):
        steps, reached = len(result.lambdas) - 1, result.lambdas[-1]
        return f"after {steps} steps, at λ = {reached:.6g}; the trace so far"
    if isinstance(result, LogitPoints):
        asked = len(parse_lambdas(args.lambdas))
        return (
            f"during the trace, after {result.steps} steps; the {len(result.points)} of the "
            f"{asked} points asked for that it crossed"
        )
    return "during the trace; the fit along the branch so far (not refined)"


def _say(message: str) -> None:
    print(terminal_text(f"seqform: {message}"), file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """The logit QRE of ``args.game``: traced to its limit, at ``--lambda`` points, or
    fitted to ``--fit`` data.  A branch that floating point cannot follow to a requested
    ``λ`` writes the points it reached and exits 3 (one error line, exit 1, when it reached
    none); a trace beyond its work limit (:mod:`seqform.qre.work`, lifted by ``--force``) is
    one error line, as ``ranges``'.  A trace that ends before its stop rule holds is written
    with its last point and exits 3 (not certified), as ``solve``'s answer above its
    tolerance does.  Before any work, the options the mode does not use are refused
    (:func:`_refuse_unused`) and so is a ``--plot`` name matplotlib cannot write; the
    picture is written after the report."""
    try:
        return _run(args)
    except LambdaNotReachedError as exc:  # the points reached are finished work
        if not exc.result.points:
            raise CommandError(f"qre: {exc}") from exc
        if interrupted := _written(exc.result, args):
            return interrupted
        raise CommandError(
            f"qre: {exc}; the {len(exc.result.points)} λ reached are written",
            EXIT_NOT_CERTIFIED,
        ) from exc
    except ArithmeticError as exc:  # BranchLostError
        raise CommandError(f"qre: {exc}") from exc


def _run(args: argparse.Namespace) -> int:
    lambdas = parse_lambdas(args.lambdas)
    if lambdas and args.fit:
        raise CommandError("--lambda and --fit cannot be combined", EXIT_USAGE)
    _refuse_unused(args, lambdas)
    if args.plot:  # before the trace: a format matplotlib writes
        from seqform.cli.plots.files import plot_format

        plot_format(args.plot, "qre")
    force = args.force
    if not force:  # a built-in game's trace is refused before its tree is built
        refuse_large_trace(args.game)
    game = load_reporting(args.game, max_nodes=args.max_nodes, force=force)
    counts: np.ndarray | None = None
    if args.fit:
        from seqform.io.action_counts import read_action_counts

        counts = read_action_counts(game, args.fit)
    with stop_on_interrupt():  # Ctrl-C keeps what is finished (module docstring)
        result = _computed(args, game, lambdas, counts)
    if result.interrupted is not None:
        return _write_interrupted(result, result.interrupted, args)
    if interrupted := _written(result, args):
        return interrupted
    if isinstance(result, LogitBranch):  # the limit is the answer
        return certified_exit(result.shortfall)
    return EXIT_OK


def _written(result: Result, args: argparse.Namespace) -> int:
    """Write the finished ``result``'s report (and ``--plot``); 0, or the exit code of an
    interrupt that came while it was written.  A first Ctrl-C then waits for the files (as
    iterate's); it used to end the command with nothing written."""
    with deferred_interrupt() as interrupted:
        document = qre_result_document(result)
        emit(document, lambda: qre_text(document, args.strategies), args)
        if args.plot:  # after the report: a picture that cannot be written loses no answer
            branch = result if isinstance(result, LogitBranch) else result.branch
            assert branch is not None
            _plot(branch, args.plot)
    if interrupted():
        _say("interrupted while the finished answer was written; it is written whole")
        return interrupted_code()
    return 0


def _computed(
    args: argparse.Namespace, game: Game, lambdas: list[float], counts: np.ndarray | None
) -> Result:
    """The branch traced to its limit, the points or the fit; with ``--plot`` the branch it
    draws first, which alone is returned if an interrupt cut its trace short."""
    settings = TraceSettings(max_lambda=args.max_lambda, max_accel=args.max_accel)
    force = args.force
    report = _reporter(args.quiet)
    branch = None
    if args.plot or not (lambdas or args.fit):
        branch = trace_logit(
            game,
            tolerance=args.tolerance,
            settings=settings,
            progress=report,
            force=force,
            compare=not (lambdas or args.fit or args.no_compare),
            # the library's work limit on the place among all equilibria; as `ranges
            # --force`, none with --force
            **({"ranges_seconds": None} if force else {}),
        )
        if branch.interrupted is not None or not (lambdas or args.fit):
            return branch
    if counts is not None:
        return fit_logit(
            game, counts, settings=settings, force=force, branch=branch, progress=report
        )
    # the trace ends at the last λ asked for: --max-accel applies, --max-lambda does not
    to_lambdas = dataclasses.replace(settings, max_lambda=math.inf)
    return logit_qre(
        game, lambdas, settings=to_lambdas, force=force, branch=branch, progress=report
    )
