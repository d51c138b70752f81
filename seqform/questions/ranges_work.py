"""How much work the equilibrium ranges are, and their refusal before it starts.

:func:`seqform.questions.ranges.equilibrium_ranges` solves at most two LPs per plan entry
and two per action probability; each is timed like the value LP it solves first.  Work
estimated beyond a limit is refused with the estimate (:class:`WorkRefusedError`), and
long work says it started.  More than :data:`MAX_LPS` LPs are refused before the first;
for a built-in game whose parameters say its sequences
(:func:`~seqform.routes.sizing.planned.planned_size`) before the game is built
(:func:`refuse_planned_work`): ``ranges "leduc(ranks=13)"`` built its 1.2 million nodes
before saying 183,456 LPs were too many.  Work beyond the time limit is refused from the
counts too, before the value LP (:func:`least_work`): each LP takes at least
:data:`SECONDS_PER_NONZERO` per non-zero of the min-max LP, and ``ranges "kuhn(cards=500)"``
solved its value LP (55 s) before its estimate of hours was refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from seqform.base.limits import LIMITS
from seqform.forms.sequence_form import SequenceForm
from seqform.routes.sizing.planned import planned_size

__all__ = [
    "ANNOUNCE_SECONDS",
    "DEFAULT_MAX_SECONDS",
    "MAX_LPS",
    "SECONDS_PER_NONZERO",
    "WorkEstimate",
    "WorkRefusedError",
    "check_lps",
    "check_work",
    "least_work",
    "refuse_planned_work",
    "work_estimate",
]

DEFAULT_MAX_SECONDS = LIMITS.ranges_seconds  # why: seqform.base.limits

MAX_LPS = LIMITS.ranges_lps  # why: seqform.base.limits

ANNOUNCE_SECONDS = 5.0
"""Work estimated at this or more says one line that it started, even when piped."""

SECONDS_PER_NONZERO = 3e-7
"""Seconds an LP of the ranges takes at least per non-zero of the min-max LP (``E``, ``F``
and ``A``): 100 times below the fastest value LP measured, 3.0e-5 s per non-zero (HiGHS's
simplex; from 3.0e-5 for Liar's Dice with 3 sides to 6.6e-5 for Leduc, Kuhn with 13 to 200
cards, Liar's Dice with 4 to 6 sides), so that the counts refuse only work far beyond the
limit and the value LP's time judges the rest."""


class WorkRefusedError(ValueError):
    """Work estimated beyond the limit, refused before it starts (the message has the
    estimate)."""


@dataclass(frozen=True)
class WorkEstimate:
    """How long the ranges will take: at most ``lps`` LPs like the value LP, which took
    ``seconds_each`` (the sequence form's build included); with ``nonzeros``, the least
    time from the counts instead (:func:`least_work`), before any LP."""

    lps: int
    seconds_each: float
    nonzeros: int | None = None

    @property
    def seconds(self) -> float:
        return self.lps * self.seconds_each

    def __str__(self) -> str:
        total = self.seconds
        shown = f"{total:,.0f} s" if total < 120 else f"{total / 60:,.0f} min"
        if self.nonzeros is not None:
            return (
                f"up to {self.lps:,} LPs of at least {self.seconds_each:.2g} s each (their "
                f"{self.nonzeros:,} non-zeros at {SECONDS_PER_NONZERO:g} s each), at least "
                f"{shown}"
            )
        return (
            f"up to {self.lps:,} LPs of about {self.seconds_each:.2g} s each (the value LP's "
            f"time), about {shown}"
        )


def check_work(
    name: str,
    estimate: WorkEstimate,
    max_seconds: float | None,
    progress: Callable[[str], None] | None,
) -> None:
    """Refuse work beyond ``max_seconds``; else say the estimate when it is long."""
    if max_seconds is not None and estimate.seconds > max_seconds:
        raise WorkRefusedError(
            f"{name}: ranges would take {estimate}, more than the limit of "
            f"{max_seconds:,.0f} s; --force (max_seconds=None) runs it anyway"
        )
    if progress is not None and estimate.seconds >= ANNOUNCE_SECONDS:
        progress(f"ranges: started; {estimate}")


def work_estimate(form: SequenceForm, seconds_each: float) -> WorkEstimate:
    """At most two LPs per plan entry and two per action probability (module docstring),
    each timed like the value LP."""
    sequences = sum(player.num_sequences for player in form.players)
    return WorkEstimate(lps=_lps(sequences), seconds_each=seconds_each)


def least_work(form: SequenceForm) -> WorkEstimate:
    """The least time the ranges take, from the counts alone: every LP at least
    :data:`SECONDS_PER_NONZERO` per non-zero of ``E``, ``F`` and ``A``."""
    nonzeros = int(form.A.nnz + form.E.nnz + form.F.nnz)
    return _least(work_estimate(form, 0.0).lps, nonzeros)


def _least(lps: int, nonzeros: int) -> WorkEstimate:
    return WorkEstimate(lps, nonzeros * SECONDS_PER_NONZERO, nonzeros)


def _lps(sequences: int) -> int:
    """The LPs for ``sequences`` of both players, their empty sequences included."""
    return 4 * (sequences - 2)


def check_lps(name: str, lps: int) -> None:
    """Refuse more than :data:`MAX_LPS` LPs (the caller skips it when forced)."""
    if lps > MAX_LPS:
        raise WorkRefusedError(
            f"{name}: ranges would solve up to {lps:,} LPs, more than {MAX_LPS:,} (hours "
            "of work); --force (max_seconds=None) runs it anyway"
        )


def refuse_planned_work(spec: object, max_seconds: float | None = DEFAULT_MAX_SECONDS) -> None:
    """:func:`check_lps` of a built-in game named by ``spec``, from the sequences its
    parameters say, before it is built, and :func:`check_work` of the least time those LPs
    take (:func:`least_work`, from the non-zeros its public tree counts: ``nnz(A)`` by
    :func:`~seqform.structured.payoff_matrix.payoff_nnz`, ``nnz(E) + nnz(F)`` at least the
    sequences) unless ``max_seconds`` is None; other games (files, ``openspiel:``, games
    whose size the parameters do not say) are checked once built.

    Raises
    ------
    WorkRefusedError
        With the count of LPs, or the least time they take.
    """
    if not isinstance(spec, str):
        return
    size = planned_size(spec)
    if size is None or size.sequences is None:
        return
    lps = _lps(size.sequences)
    check_lps(spec, lps)
    if max_seconds is None:
        return
    from seqform.game.builtin.registry import load_structured_game
    from seqform.structured.payoff_matrix import payoff_nnz

    # within MAX_LPS the game has at most a few thousand sequences: numbered in moments
    game = size.game if size.game is not None else load_structured_game(spec)
    check_work(spec, _least(lps, payoff_nnz(game) + size.sequences), max_seconds, None)
