"""How long and how much memory a logit trace will take, estimated from the game's size
before its first step; a trace beyond the limits is refused with the estimate.

The size is ``N``, the number of action probabilities (every player's sequences but the
empty ones, the unknowns of :mod:`seqform.qre.equations`).  A built-in game says
it from its parameters before its tree is built
(:func:`~seqform.routes.sizing.planned.planned_size`); any other game once it is loaded.

Model
-----
Each step of :func:`~seqform.qre.trace.follow_branch` factors the
``(N+1) × (N+1)`` augmented Jacobian by sparse LU a little more than once (rejected steps
and the corrector's refactorisations included) and certifies the point by best response;
the LU is most of the time.  The Jacobian has, per action, an entry for every action on the
paths below it, and its LU fills a share of ``N²`` that falls only slowly with ``N``.  So

    seconds ≈ TRACE_STEPS × STEP_SECONDS × (N / STEP_REFERENCE)²

``STEP_SECONDS`` is Leduc's seconds a step in a loaded run, ``STEP_REFERENCE`` its ``N``;
the exponent 2 rounds up the growth per step measured between kuhn(cards=40) and
kuhn(cards=80) and between Leduc and leduc(ranks=4).  ``TRACE_STEPS`` rounds up the longest
branches seen (Leduc's; a hold'em river spot's is shorter); Kuhn with any number of cards
takes far fewer steps, each dearer than the model's, and the product fits again.  The
number of steps depends on how the branch bends, not on the size, so the estimate tells
minutes from hours, no better.  Fitted on N-card Kuhn (up to 80 cards), Leduc,
leduc(ranks=4) and a river spot; the measurements are in
``benchmarks/results/measurements.md``.

Memory: the LU factor counted as if dense, ``8 N²`` bytes (more than the fills measured),
plus every accepted point's ``β`` kept twice (the trace's points and
:class:`~seqform.qre.equilibria.LogitBranch`'s probabilities), plus the interpreter's base
(:data:`~seqform.routes.sizing.memory.BASE_BYTES`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from seqform.game.model import Game
from seqform.game.requirements import require_finite_payoffs
from seqform.io.loader import as_game, load_game
from seqform.questions.ranges_work import DEFAULT_MAX_SECONDS, WorkRefusedError
from seqform.routes.sizing.memory import BASE_BYTES, MemoryEstimate, check_memory
from seqform.routes.sizing.planned import planned_size

__all__ = [
    "STEP_REFERENCE",
    "STEP_SECONDS",
    "TRACE_STEPS",
    "TraceEstimate",
    "refuse_large_trace",
    "trace_estimate",
    "trace_unknowns",
    "traceable_game",
]

TRACE_STEPS = 400
STEP_SECONDS = 0.55
STEP_REFERENCE = 2_184  # Leduc's action probabilities, where STEP_SECONDS was measured


@dataclass(frozen=True)
class TraceEstimate:
    """The estimated work of a trace (module docstring) for ``unknowns`` action
    probabilities: ``steps`` of ``seconds_per_step`` each, and ``bytes`` of memory."""

    unknowns: int
    steps: int
    seconds_per_step: float
    bytes: int

    @property
    def seconds(self) -> float:
        return self.steps * self.seconds_per_step

    def __str__(self) -> str:
        return (
            f"about {_duration(self.seconds)} (up to {self.steps:,} steps of about "
            f"{_duration(self.seconds_per_step)} each, for {self.unknowns:,} action "
            "probabilities)"
        )


def _duration(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds:.2g} s"
    if seconds < 120:
        return f"{seconds:,.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:,.0f} min"
    return f"{seconds / 3600:,.0f} h"


def trace_estimate(unknowns: int) -> TraceEstimate:
    """The work of tracing a game of ``unknowns`` action probabilities (module docstring)."""
    per_step = STEP_SECONDS * (unknowns / STEP_REFERENCE) ** 2
    kept = 2 * TRACE_STEPS * unknowns * 8
    return TraceEstimate(unknowns, TRACE_STEPS, per_step, BASE_BYTES + 8 * unknowns**2 + kept)


def trace_unknowns(game: Game | str) -> int | None:
    """``N`` of the module docstring: from a built game, or from a built-in game's spec
    before its tree is built; None for a spec whose size is known only once loaded (a file,
    ``openspiel:``, a built-in game that does not say its sequences)."""
    if isinstance(game, Game):
        return sum(table.num_sequences - 1 for table in game.flat.tables)
    size = planned_size(game)
    if size is None or size.sequences is None:
        return None
    return size.sequences - 2  # both players' empty sequences


def refuse_large_trace(
    game: Game | str, *, max_seconds: float | None = DEFAULT_MAX_SECONDS
) -> TraceEstimate | None:
    """Refuse a trace whose estimate exceeds ``max_seconds`` (None: no time limit) or the
    memory the process may have, time checked first; the estimate, or None where the size
    is not known yet (:func:`trace_unknowns`).

    Raises
    ------
    seqform.routes.sizing.memory.MemoryRefusedError
        When the memory estimate exceeds what the process may have.
    seqform.questions.ranges_work.WorkRefusedError
        When the time estimate exceeds ``max_seconds``.
    """
    unknowns = trace_unknowns(game)
    if unknowns is None:
        return None
    name = game.name if isinstance(game, Game) else game
    estimate = trace_estimate(unknowns)
    if max_seconds is not None and estimate.seconds > max_seconds:
        raise WorkRefusedError(
            f"{name}: the logit trace would take {estimate}, more than the limit of "
            f"{max_seconds:,.0f} s; --force (force=True) runs it anyway"
        )
    what = f"{name}: the logit trace ({unknowns:,} action probabilities)"
    check_memory(
        MemoryEstimate(estimate.bytes, what), "use a smaller game, or --force (force=True)"
    )
    return estimate


def traceable_game(
    game: Game | str | os.PathLike[str], *, force: bool = False, caller: str = "trace_logit"
) -> Game:
    """``game``, loaded if it is a name or a path, its trace refused first unless ``force``
    (:func:`refuse_large_trace`: before the tree is built where a built-in game's spec says
    its size, else once it is built), and a game with a payoff beyond the float range
    refused in any case (the trace computes in floats).

    Raises
    ------
    TypeError
        For a ``game`` that is neither a :class:`~seqform.game.model.Game`, a name nor a
        path, naming ``caller`` (:func:`~seqform.io.loader.as_game`'s message).
    seqform.game.errors.InvalidGameError
        For a payoff beyond the float range
        (:func:`~seqform.game.requirements.require_finite_payoffs`).
    """
    if not isinstance(game, str):
        game = as_game(game, caller)  # a Game as it is, a path read as a file
    if not force:
        refuse_large_trace(game)
    loaded = game if isinstance(game, Game) else load_game(game)
    if not force and loaded is not game:
        refuse_large_trace(loaded)
    require_finite_payoffs(loaded, "the logit QRE trace")
    return loaded
