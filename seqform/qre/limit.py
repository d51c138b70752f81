"""The limit of a traced logit branch placed among a two-player zero-sum game's equilibria.

As ``λ → ∞`` the principal branch converges to a Nash equilibrium (McKelvey and Palfrey 1995,
Thm 2; :func:`seqform.qre.equilibria.trace_logit`).  Which one: :func:`compare_limit` finds it
in the set of all equilibria (:mod:`seqform.questions.ranges`: for Kuhn poker, the member
``α = x[J:b]`` of the one-parameter family) and measures it beside the quasi-perfect
refinement (:func:`seqform.routes.refine.refine`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.model import Game
from seqform.io.loader import as_game
from seqform.questions.ranges_work import DEFAULT_MAX_SECONDS as DEFAULT_RANGES_SECONDS

if TYPE_CHECKING:
    from seqform.questions.ranges import Parametrisation

__all__ = ["LimitComparison", "compare_limit"]


class Profile(Protocol):
    """What :func:`compare_limit` reads of a traced limit
    (:class:`seqform.qre.equilibria.QREPoint`): every player's behaviour."""

    @property
    def strategies(self) -> tuple[BehaviouralStrategy, ...]: ...


@dataclass(frozen=True)
class LimitComparison:
    """Where the traced limit lies among the equilibria of a two-player zero-sum game.

    parameters : per player, ``(parameter, t, low, high)`` when the player's optimal plans
        form a segment ``t = x[parameter]`` in ``[low, high]`` (:mod:`.ranges`): the ``t`` of
        the limit's plan (Kuhn's ``α``), else None
    segment_distance : per player, the largest distance of the limit's plan entries from the
        segment's affine entries at that ``t`` (None without a segment)
    refined_difference : per player, the largest difference of a behaviour probability
        between the limit and the quasi-perfect equilibrium (:func:`.refine.refine`)
    ranges_skipped : why the place among all equilibria was not computed (``ranges``'
        work estimate beyond ``max_seconds``: Leduc's 8,736 LPs), else None; ``parameters``
        and ``segment_distance`` are then None for both players
    dimensions : per player, the dimension of the set of optimal realization plans that
        ``ranges`` found (0: one optimal strategy; 1: the segment of ``parameters``; 2 or
        more: a larger face, which one parameter does not describe); None where ranges
        was skipped
    """

    parameters: tuple[tuple[str, float, float, float] | None, ...]
    segment_distance: tuple[float | None, ...]
    refined_difference: tuple[float, ...]
    ranges_skipped: str | None = None
    dimensions: tuple[int | None, ...] = (None, None)


def compare_limit(
    game: Game | str | os.PathLike[str],
    limit: Profile,
    *,
    max_seconds: float | None = DEFAULT_RANGES_SECONDS,
) -> LimitComparison:
    """Place a two-player zero-sum limit among all equilibria and beside ``refine``.

    The place among all equilibria needs ``ranges``, two LPs per sequence; where its work
    estimate exceeds ``max_seconds`` (the limit ``seqform ranges`` applies; None: no limit)
    it is skipped and the reason kept in :attr:`LimitComparison.ranges_skipped` (on Leduc
    it was nearly all of the time ``qre leduc`` took; ``benchmarks/results/measurements.md``).
    ``refine`` runs in any case.
    """
    game = as_game(game, "compare_limit")
    from seqform.questions.ranges import EquilibriumRanges, equilibrium_ranges
    from seqform.questions.ranges_work import WorkRefusedError
    from seqform.routes.refine import refine

    ranges: EquilibriumRanges | None = None
    skipped: str | None = None
    try:
        ranges = equilibrium_ranges(game, max_seconds=max_seconds)
    except WorkRefusedError as refused:
        skipped = str(refused)
    for strategy, table in zip(limit.strategies[:2], game.flat.tables, strict=False):
        if strategy.table.infosets != table.infosets:
            raise ValueError(
                f"limit: a point of another game than {game.name!r} (player "
                f"{strategy.player + 1}'s information sets differ); compare it on its own game"
            )
    refined = refine(game).strategies
    placed = [
        _place(strategy, None if ranges is None else ranges.players[player].parametrisation)
        for player, strategy in enumerate(limit.strategies[:2])
    ]
    parameters = [parameter for parameter, _ in placed]
    distances = [distance for _, distance in placed]
    differences = tuple(
        float(np.abs(ours.probabilities - theirs.probabilities).max())
        for ours, theirs in zip(limit.strategies[:2], refined, strict=True)
    )
    dimensions = tuple(
        None if ranges is None else ranges.players[player].dimension for player in (0, 1)
    )
    return LimitComparison(tuple(parameters), tuple(distances), differences, skipped, dimensions)


def _place(
    strategy: BehaviouralStrategy, parametrisation: Parametrisation | None
) -> tuple[tuple[str, float, float, float] | None, float | None]:
    """Where ``strategy`` sits on the segment of equilibria ``parametrisation`` describes
    (its parameter's value and range) and how far its plan is from that segment; None and
    None without one."""
    if parametrisation is None:
        return None, None
    plan = plan_from_behaviour(strategy)
    labels = {label: index for index, label in enumerate(strategy.table.labels())}
    t = float(plan[labels[parametrisation.parameter]])
    parameter = (
        parametrisation.parameter,
        t,
        float(parametrisation.low),
        float(parametrisation.high),
    )
    distance = max(
        (
            abs(float(plan[labels[e.label]]) - float(e.constant) - float(e.slope) * t)
            for e in parametrisation.entries
        ),
        default=0.0,
    )
    return parameter, distance
