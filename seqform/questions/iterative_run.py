"""What an iterative run returns with its measurements, and what both of its routes share.

:func:`seqform.questions.iterate.iterate` runs on the game tree or, through
:mod:`seqform.questions.iterate_structured`, on the public tree × hands; both return an
:class:`IterativeRun`, measure a two-player zero-sum run by the same certificate
(:func:`two_player_profile`) and keep the run whatever happens to its LP reference
(:func:`kept_reference`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from seqform.base.interrupt import interrupt_armed
from seqform.certify import Certificate, NPlayerCertificate
from seqform.forms.locks import ResolvedLocks
from seqform.game.model import Game
from seqform.iterative.run import IterativeResult, Stopping
from seqform.lp.solvers import SolverError
from seqform.questions.lp_reference import LpReference
from seqform.structured.reductions.suit_classes import ReductionSizes

if TYPE_CHECKING:
    from seqform.holdem import SpotSummary

__all__ = [
    "CUT_SHORT",
    "NOT_MEASURED",
    "IterativeRun",
    "kept_measured",
    "kept_reference",
    "two_player_profile",
]

CUT_SHORT = (
    "interrupted after the run, before its certificate: the run is written unmeasured "
    "(seqform exploit GAME --strategy FILE measures it)"
)
"""Why a run has no certificate when Ctrl-C (or a signal handled as it) stopped the
measurements after it."""
NOT_MEASURED = "not run: interrupted after the run"
"""Why such a run has no LP reference."""


@dataclass(frozen=True)
class IterativeRun:
    """An iterative run with its measurements.

    result : what the solver returned (average strategies, history, why it stopped)
    stopping : the rules it ran under
    profile : each player's value, best-response value and gain, and NashConv (None when
        it could not be measured: ``certificate_failed``)
    certificate : the two-player zero-sum certificate (None for other games, or when it
        could not be measured)
    reference : the LP beside it (skipped, failed or interrupted with its reason: the run
        is kept whatever happened to the reference)
    certificate_failed : why the profile and certificate could not be measured (the payoffs'
        sums left the float range), else None
    spot : for a hold'em spot file run on the structured route, the players' report of the
        average strategies (:func:`seqform.holdem.spot_report`, as ``solve SPOT.toml``
        reports the LP's): EVs in chips and shares of the pot, the exploitability, the
        frequencies and the opening grid; else None
    locks : the node locks the run kept, resolved against the game (then ``profile`` and
        ``certificate`` measure the locked game); None for a run without locks
    suit_reduction : when vector CFR ran on canonical boards
        (:mod:`seqform.questions.iterate_structured`), the sizes
        of the game, of ``G'`` and of the hand classes; ``result``'s strategies are then
        the lifted ones and its NashConv samples those of the lift
    """

    game: Game
    result: IterativeResult
    stopping: Stopping
    profile: NPlayerCertificate | None
    certificate: Certificate | None
    reference: LpReference
    certificate_failed: str | None = None
    spot: SpotSummary | None = None
    locks: ResolvedLocks | None = None
    suit_reduction: ReductionSizes | None = None

    @property
    def values(self) -> tuple[float, ...]:
        """Each player's expected payoff under the average profile (the value estimate;
        ``nan`` when it could not be measured)."""
        if self.profile is None:
            return (math.nan,) * self.game.num_players
        return self.profile.values


def two_player_profile(certificate: Certificate) -> NPlayerCertificate:
    """The per-player view of a two-player zero-sum certificate."""
    value = float(certificate.value)
    return NPlayerCertificate(
        values=(value, -value),
        best_response_values=tuple(float(v) for v in certificate.best_response_values),
        gains=tuple(float(g) for g in certificate.gains),
        nash_conv=float(certificate.nash_conv),
    )


def kept_reference(compute: Callable[[], LpReference]) -> LpReference:
    """The LP reference, or why there is none: the run before it is never lost to it.  A
    failure (the solver, payoffs the LP refuses, memory) is reported as ``"failed"``; a
    Ctrl-C inside :func:`~seqform.base.interrupt.stop_on_interrupt` as ``"interrupted"``
    (outside it, Ctrl-C raises as usual)."""
    try:
        return compute()
    except KeyboardInterrupt:
        if not interrupt_armed():
            raise
        return LpReference(
            "interrupted during the LP reference; the finished run is written without it",
            status="interrupted",
        )
    except (SolverError, ValueError) as exc:
        return LpReference(f"the LP failed: {exc}", status="failed")
    except MemoryError:
        return LpReference("the LP failed: out of memory", status="failed")


def kept_measured(measure: Callable[[], IterativeRun], cut_short: IterativeRun) -> IterativeRun:
    """``measure()``, the finished run with its certificate (and a spot's report and the LP
    beside it), or ``cut_short``, the run without them (:data:`CUT_SHORT`), when a Ctrl-C
    inside :func:`~seqform.base.interrupt.stop_on_interrupt` stops the measuring: a
    flop's certificate takes about a minute, and the run before it is not to be lost to it
    (outside that block, Ctrl-C raises as usual)."""
    try:
        return measure()
    except KeyboardInterrupt:
        if not interrupt_armed():
            raise
        return cut_short
