"""``seqform iterate GAME --algorithm cfr|cfr+|dcfr|...|xfp|rcfr|mccfr``: iterative solvers,
measured.

Stopping: any of ``--iterations N``, ``--target-exploitability EPS`` (EPS is compared
with the exploitability, NashConv / 2: ``target_exploitability`` in Python) and
``--time-limit S`` of solver time, whichever fires first; with none of the three,
:data:`DEFAULT_ITERATIONS`.  The options are passed to
:func:`~seqform.questions.iterate.iterate` under its keywords, which check them (and refuse
what they refuse from Python: a schedule, ``hs-*``, without ``--iterations``).
Progress on stderr, one line per NashConv sample (every ``--every K`` iterations, where a
target's trend says it is met, and after the last), none with ``--quiet``; the LP reference
follows the route ``solve`` takes (the structured route for a large built-in game), says its
stage on stderr, and is skipped with ``--no-reference`` or, with its reason, where ``solve``
would refuse the LP or it would be
slow; MCCFR without ``--seed`` uses
:data:`~seqform.questions.iterate.DEFAULT_SEED` and says so on stderr.  Ctrl-C (or SIGTERM,
SIGHUP: :mod:`seqform.cli.signals`) stops at the next iteration boundary: the result so far
is written, marked ``interrupted``, and the exit code is 128 + the signal (130 for Ctrl-C).
Interrupted during the LP reference, the finished run is written with the reference marked
interrupted, with the same exit code.  A run is written even when its certificate or its
reference failed (the failure is reported beside it).  ``--lock`` and ``--lock-file`` (as
``solve``'s) run the CFR family with those nodes locked, measured in the locked game beside
the locked LP; the other algorithms refuse them (exit 2).  The analysis is
:func:`seqform.questions.iterate.iterate`; the output :mod:`seqform.documents.text.iterate`.
"""

from __future__ import annotations

import argparse
import sys

from seqform.base.counts import count_text
from seqform.base.interrupt import stop_on_interrupt
from seqform.cli.commands.solve import read_locks
from seqform.cli.errors import (
    EXIT_NOT_CERTIFIED,
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
)
from seqform.cli.hands import hand_text, hands_in_spot_file
from seqform.cli.output import built_for, emit
from seqform.cli.signals import deferred_interrupt, interrupted_code
from seqform.cli.streams import terminal_text
from seqform.documents.iterate import iterate_document
from seqform.documents.text.iterate import iterate_text
from seqform.iterative.run import OnSample, Sample
from seqform.questions.algorithms import SAMPLING
from seqform.questions.iterate import DEFAULT_ITERATIONS, DEFAULT_SEED, iterate
from seqform.structured.vector_cfr import VECTOR_ALGORITHMS

__all__ = ["DEFAULT_ITERATIONS", "run"]


def _say(message: str) -> None:
    print(terminal_text(f"seqform: {message}"), file=sys.stderr, flush=True)


def _progress(quiet: bool) -> OnSample | None:
    """One stderr line per sample: iteration, solver seconds, NashConv."""
    if quiet:
        return None

    def show(sample: Sample) -> None:
        last = "" if sample.last_nash_conv is None else f"  last {sample.last_nash_conv:.3e}"
        _say(
            f"iteration {sample.iteration:>10,}  solver {sample.seconds:9.3f} s  "
            f"NashConv {sample.nash_conv:.3e}{last}"
        )

    return show


def _checked_hands_and_seed(args: argparse.Namespace) -> tuple[tuple[int, int], ...]:
    """The ``--hand`` combos, refused off vector CFR, and ``--seed``, refused for a
    deterministic algorithm (and its default said on stderr for a sampling one)."""
    hands = hands_in_spot_file(args.game, args.hand)
    if hands and (args.method == "tree" or args.algorithm not in VECTOR_ALGORITHMS):
        raise CommandError(
            f"--hand needs vector CFR on the spot (--method structured or auto; "
            f"{', '.join(VECTOR_ALGORITHMS)})",
            EXIT_USAGE,
        )
    sampling = args.algorithm in SAMPLING
    if args.seed is not None and not sampling:
        raise CommandError(
            f"--seed applies to --algorithm mccfr only ({args.algorithm} is deterministic)",
            EXIT_USAGE,
        )
    if sampling and args.seed is None and not args.quiet:
        _say(f"{args.algorithm}: seed {DEFAULT_SEED} (the default; choose one with --seed)")
    return hands


def run(args: argparse.Namespace) -> int:
    """Run ``args.algorithm`` on ``args.game`` and write the measured result."""
    hands = _checked_hands_and_seed(args)
    with stop_on_interrupt():
        result = iterate(
            args.game,
            args.algorithm,
            iterations=args.iterations,
            target_exploitability=args.target_exploitability,
            time_limit=args.time_limit,
            every=args.every,
            seed=args.seed,
            on_sample=_progress(args.quiet),
            method=args.method,
            reference=not args.no_reference,
            force=args.force,
            max_nodes=args.max_nodes,
            progress=None if args.quiet else _say,
            locks=read_locks(args),
            suit_isomorphism=args.suit_isomorphism,
        )
    # The run is finished: a first Ctrl-C while it is written waits for the file (one that
    # already stopped the run was the first: the next ends the writing).
    stopped = result.result.stopped == "interrupted"
    if stopped and not args.quiet:
        _say("stopped; writing the run so far (Ctrl-C again ends without it)")
    with deferred_interrupt(stopped) as interrupted:
        # The text only when asked for: on liars_dice(sides=8) it costs seconds beside the
        # JSON; and for text, the strategies it only summarises are built as summaries.
        document = built_for(args, lambda: iterate_document(result), args.strategies)
        text = "" if args.format == "json" else iterate_text(document, args.strategies)
        if hands and text:
            game, strategies = result.game, result.result.strategies
            text = text.rstrip("\n") + "\n" + hand_text(game, strategies, hands)  # type: ignore[arg-type]
        emit(document, text, args)
    if result.result.stopped == "interrupted":
        done = count_text(result.result.iterations)
        received = result.result.interrupted_by
        by = "" if received in (None, "SIGINT") else f" ({received})"
        _say(f"interrupted{by} after {done} iterations; the result so far")
        return interrupted_code()
    if result.reference.status == "interrupted":
        _say(str(result.certificate_failed or result.reference.skipped))
        return interrupted_code()
    if interrupted():
        _say("interrupted while the finished run was written; it is written whole")
        return interrupted_code()
    if result.reference.status == "failed":
        _say(f"LP reference failed (the run is written): {result.reference.skipped}")
    failed = result.certificate_failed or result.result.failure
    if failed is not None:
        raise CommandError(
            f"the run is written, its certificate failed: {failed}", EXIT_NOT_CERTIFIED
        )
    return EXIT_OK
