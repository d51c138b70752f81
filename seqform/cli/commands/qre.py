"""``seqform qre GAME``: logit quantal response equilibria (trace, points, fit, picture).

Ctrl-C (or SIGTERM, SIGHUP: :mod:`seqform.cli.signals`) during the trace of the branch
stops it after the step under way: the branch so far is written (``--output``, and
``--plot``), its trace's ``reason`` ``"interrupted"`` with the signal, its last point in
place of the limit, in every mode (``--lambda`` and ``--fit`` are not computed), and the
exit code is 128 + the signal (130 for Ctrl-C), as ``iterate``'s.  Elsewhere (loading the
game, the comparison with all equilibria, the points of ``--lambda`` and the fit) Ctrl-C
stops the command at once with nothing written.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time

from seqform.base.interrupt import stop_on_interrupt
from seqform.cli.errors import EXIT_OK, EXIT_USAGE, CommandError, certified_exit, refuse_unused
from seqform.cli.output import emit
from seqform.cli.progress import load_reporting
from seqform.cli.signals import deferred_interrupt, interrupted_code
from seqform.cli.streams import terminal_text
from seqform.documents.qre import qre_result_document
from seqform.documents.text.qre import qre_text
from seqform.qre.equilibria import (
    DEFAULT_TOLERANCE,
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

    def report(lam: float, nash_conv: float) -> None:
        nonlocal last
        now = time.perf_counter()
        if quiet or now - last < PROGRESS_EVERY:
            return
        last = now
        print(
            f"seqform: [{now - start:6.1f} s] qre: λ = {lam:.4g}, NashConv {nash_conv:.3g}",
            file=sys.stderr,
        )

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


def _write_interrupted(branch: LogitBranch, args: argparse.Namespace) -> int:
    """Write the branch an interrupt stopped (module docstring); its exit code.  A first
    Ctrl-C while it is written is the second: it ends the writing."""
    if not args.quiet:
        _say("stopped; writing the trace so far (Ctrl-C again ends without it)")
    with deferred_interrupt(True):
        document = qre_result_document(branch)
        emit(document, qre_text(document, args.strategies), args)
        if args.plot:
            _plot(branch, args.plot)
    received = branch.interrupted_by
    by = "" if received == "SIGINT" else f" ({received})"
    steps = len(branch.lambdas) - 1
    _say(f"interrupted{by} after {steps} steps, at λ = {branch.lambdas[-1]:.6g}; the trace so far")
    return interrupted_code()


def _say(message: str) -> None:
    print(terminal_text(f"seqform: {message}"), file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """The logit QRE of ``args.game``: traced to its limit, at ``--lambda`` points, or
    fitted to ``--fit`` data; a branch that floating point cannot follow to a requested
    ``λ`` is one error line (exit 1), not a traceback, and so is a trace beyond its work
    limit (:mod:`seqform.qre.work`, lifted by ``--force``), as ``ranges``'.  A
    trace that ends before its stop rule holds is written with its last point and exits 3
    (not certified), as ``solve``'s answer above its tolerance does.  Before any work, the
    options the mode does not use are refused (:func:`_refuse_unused`) and so is a
    ``--plot`` name matplotlib cannot write; the picture is written after the report."""
    try:
        return _run(args)
    except ArithmeticError as exc:  # BranchLostError, or a λ the trace did not reach
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
    counts = None
    if args.fit:
        from seqform.io.action_counts import read_action_counts

        counts = read_action_counts(game, args.fit)
    settings = TraceSettings(max_lambda=args.max_lambda, max_accel=args.max_accel)
    branch = None
    if args.plot or not (lambdas or args.fit):
        with stop_on_interrupt():  # the trace's steps: Ctrl-C keeps the branch so far
            branch = trace_logit(
                game,
                tolerance=args.tolerance,
                settings=settings,
                progress=_reporter(args.quiet),
                force=force,
                compare=not (lambdas or args.fit or args.no_compare),
                # the library's work limit on the place among all equilibria; as `ranges
                # --force`, none with --force
                **({"ranges_seconds": None} if force else {}),
            )
        if branch.interrupted_by is not None:
            return _write_interrupted(branch, args)
    result: LogitBranch | LogitPoints | LogitFit
    if counts is not None:
        result = fit_logit(game, counts, settings=settings, force=force, branch=branch)
    elif lambdas:
        # the trace ends at the last λ asked for: --max-accel applies, --max-lambda does not
        to_lambdas = dataclasses.replace(settings, max_lambda=math.inf)
        result = logit_qre(game, lambdas, settings=to_lambdas, force=force, branch=branch)
    else:
        assert branch is not None
        result = branch
    document = qre_result_document(result)
    emit(document, lambda: qre_text(document, args.strategies), args)
    if args.plot:  # after the report: a picture that cannot be written loses no answer
        assert branch is not None
        _plot(branch, args.plot)
    if isinstance(result, LogitBranch):  # the limit is the answer
        return certified_exit(result.shortfall)
    return EXIT_OK
