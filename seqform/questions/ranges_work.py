"""How much work the equilibrium ranges are, and their refusal before it starts.

:func:`seqform.questions.ranges.equilibrium_ranges` solves at most two LPs per plan entry
and two per action probability; each is timed like the value LP it solves first.  Work
estimated beyond a limit is refused with the estimate (:class:`WorkRefusedError`), and
long work says it started.  More than :data:`MAX_LPS` LPs are refused before the first;
for a built-in game whose parameters say its sequences
(:func:`~seqform.routes.sizing.planned.planned_size`) before the game is built
(:func:`refuse_planned_lps`): ``ranges "leduc(ranks=13)"`` built its 1.2 million nodes
before saying 183,456 LPs were too many.
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
    "WorkEstimate",
    "WorkRefusedError",
    "check_lps",
    "check_work",
    "refuse_planned_lps",
    "work_estimate",
]

DEFAULT_MAX_SECONDS = LIMITS.ranges_seconds  # why: seqform.base.limits

MAX_LPS = LIMITS.ranges_lps  # why: seqform.base.limits

ANNOUNCE_SECONDS = 5.0
"""Work estimated at this or more says one line that it started, even when piped."""


class WorkRefusedError(ValueError):
    """Work estimated beyond the limit, refused before it starts (the message has the
    estimate)."""


@dataclass(frozen=True)
class WorkEstimate:
    """How long the ranges will take: at most ``lps`` LPs like the value LP, which took
    ``seconds_each`` (the sequence form's build included)."""

    lps: int
    seconds_each: float

    @property
    def seconds(self) -> float:
        return self.lps * self.seconds_each

    def __str__(self) -> str:
        total = self.seconds
        shown = f"{total:,.0f} s" if total < 120 else f"{total / 60:,.0f} min"
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


def refuse_planned_lps(spec: object) -> None:
    """:func:`check_lps` of a built-in game named by ``spec``, from the sequences its
    parameters say, before it is built; other games (files, ``openspiel:``, games whose size
    the parameters do not say) are checked once built.

    Raises
    ------
    WorkRefusedError
        With the count of LPs.
    """
    if not isinstance(spec, str):
        return
    size = planned_size(spec)
    if size is not None and size.sequences is not None:
        check_lps(spec, _lps(size.sequences))
