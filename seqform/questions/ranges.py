"""The whole set of equilibria, action by action: the range of each probability.

In a two-player zero-sum game the equilibria are exactly the pairs of optimal (maxmin)
strategies, so the set is a product of one polytope per player (von Neumann 1928).  For
player 0 it is the optimal face of the merged LP (KMvS 1996, eq. 11; see
:mod:`seqform.lp.exact.minmax`), projected on ``x``:

    P = { x : E x = e,  x >= 0,  F.T q − A.T x <= 0 and f @ q >= v for some q },

with ``v`` the value; for player 1 the same with the roles swapped (payoff ``−A.T``,
value ``−v``).

Realization-plan ranges: ``min`` and ``max`` of ``x[s]`` over ``P``, two LPs per sequence.

Behavioural ranges: ``b(a | h) = x[h, a] / x[parent(h)]`` over the ``x`` in ``P`` that reach
``h`` (``x[parent(h)] > 0``) — a linear-fractional program.  The Charnes–Cooper (1962)
substitution ``t = 1 / x[parent(h)]``, ``x̃ = t x``, ``q̃ = t q`` makes it the LP

    max / min x̃[h, a]   s.t.  x̃[parent(h)] = 1,  E x̃ = e t,  F.T q̃ − A.T x̃ <= 0,
                              f @ q̃ >= v t,  x̃ >= 0,  t >= 0,

whose optimum is the supremum / infimum of the ratio (attained: ``P`` is a polytope).  It
is infeasible exactly when no optimal strategy reaches ``h``; the range is then reported
as absent (any behaviour there is optimal).

Shape of the set.  Every LP solution is a vertex of ``P``; their affine hull has the
dimension of ``P`` once no direction is missing.  That is checked with random directions
``ℓ`` orthogonal to the vertices found: if ``max ℓ·x > min ℓ·x`` over ``P`` the two new
vertices are added, otherwise ``P`` lies in the hull (for a random ``ℓ`` this fails only
with probability 0).  A one-dimensional ``P`` is a segment, reported with a parameter —
the first plan entry that varies, preferring one whose range starts at 0 — and every
varying entry as an affine function of it.

Exact mode: the value comes from :func:`seqform.routes.exact.solve_exact`, and every LP's
optimal basis is re-solved and verified exactly (:func:`seqform.lp.exact.basis.resolve_basis`),
so endpoints and vertices are exact fractions.  Cost: about four LPs per action (fewer
where a vertex already shows an endpoint 0 or 1); Kuhn takes well under a second, Leduc
minutes.

Size: a little over 400 lines: the behavioural and plan ranges, the shape of the set and
their progress reports belong to one computation over the same LPs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.base.arguments import require_count, require_time_limit
from seqform.base.progress import Step, report
from seqform.forms.provenance import sequence_form_of
from seqform.forms.sequence_form import SequenceForm
from seqform.game.model import Game
from seqform.game.requirements import require_float_payoffs
from seqform.io.loader import as_game
from seqform.lp.exact.face import (
    FLOAT_TOLERANCE,
    FaceOptimiser,
    Number,
    Vertices,
    maximise_or_none,
    settle_dimension,
)
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.exact.minmax import MinmaxProgram, minmax_program, solve_minmax_program
from seqform.lp.exact.program import LinearProgram
from seqform.questions.ranges_work import (
    DEFAULT_MAX_SECONDS,
    check_lps,
    check_work,
    least_work,
    refuse_planned_work,
    work_estimate,
)

__all__ = [
    "ActionRange",
    "AffineEntry",
    "EquilibriumRanges",
    "Parametrisation",
    "PlayerRanges",
    "Range",
    "equilibrium_ranges",
]


@dataclass(frozen=True)
class Range:
    """``low <= quantity <= high`` over all equilibria (of one player)."""

    low: Number
    high: Number

    @property
    def fixed(self) -> bool:
        return self.low == self.high


@dataclass(frozen=True)
class ActionRange:
    """The ranges of one action at one information set.

    probability : range of ``b(a | h)`` over the optimal strategies that reach ``h``; None
        if none reaches it (then any behaviour there is optimal)
    plan : range of the realization-plan entry ``x[h, a]``
    """

    infoset: str
    action: str
    words: str
    probability: Range | None
    plan: Range


@dataclass(frozen=True)
class AffineEntry:
    """``x[label] = constant + slope · t`` along a one-dimensional set."""

    label: str
    constant: Number
    slope: Number


@dataclass(frozen=True)
class Parametrisation:
    """A one-dimensional set of optimal plans, ``t = x[parameter]`` in ``[low, high]``."""

    parameter: str
    low: Number
    high: Number
    entries: tuple[AffineEntry, ...]


@dataclass(frozen=True)
class PlayerRanges:
    """The optimal strategies of one player.

    value : the value to this player
    dimension : dimension of the set of optimal realization plans (0: unique)
    vertices : the vertices found (plans, on the player's sequence indices)
    parametrisation : for a one-dimensional set, its parameter and affine entries
    verified : every endpoint was proven exactly (exact mode) — False if some exact
        re-solve failed and a float endpoint was kept
    linear_programs : LPs solved for this player
    """

    player: int
    name: str
    value: Number
    actions: tuple[ActionRange, ...]
    dimension: int
    vertices: tuple[tuple[Number, ...], ...]
    parametrisation: Parametrisation | None
    verified: bool
    linear_programs: int

    @property
    def unique(self) -> bool:
        return self.dimension == 0


@dataclass(frozen=True)
class EquilibriumRanges:
    """Both players' ranges; ``exact`` tells whether numbers are Fractions."""

    game: Game
    form: SequenceForm
    exact: bool
    value: Number
    players: tuple[PlayerRanges, PlayerRanges]
    seconds: float


def equilibrium_ranges(
    game: Game | str | os.PathLike[str],
    *,
    exact: bool = False,
    form: SequenceForm | None = None,
    seed: int = 0,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    progress: Callable[[str], None] | None = None,
) -> EquilibriumRanges:
    """Ranges of every plan entry and behaviour probability over all equilibria.

    Length: the docstring documents each option and error; the body is short.

    Parameters
    ----------
    game
        The game.
    exact
        Exact fractions (value from :func:`seqform.routes.exact.solve_exact`, every LP re-solved
        exactly); otherwise floats, with the value row relaxed by ``FLOAT_TOLERANCE``.
    form
        Its sequence form, if already built.
    seed
        Seed of the random directions that check the dimension.
    max_seconds
        Refuse work estimated beyond this many seconds: from the counts before the value
        LP (:func:`~seqform.questions.ranges_work.least_work`), then from the value LP's
        time (:func:`~seqform.questions.ranges_work.work_estimate`; by default
        :data:`~seqform.questions.ranges_work.DEFAULT_MAX_SECONDS`, five minutes, as
        ``seqform ranges``), and before it more than
        :data:`~seqform.questions.ranges_work.MAX_LPS` LPs; None: no limit (``--force``).
    progress
        Told the estimate once it is known, when it is
        :data:`~seqform.questions.ranges_work.ANNOUNCE_SECONDS` or more.

    Raises
    ------
    seqform.lp.exact.linear_solver.ExactSolveError
        In exact mode, if the value cannot be certified.
    seqform.lp.solvers.SolverError
        If an LP is not solved.
    WorkRefusedError
        When the estimate exceeds ``max_seconds``, or, unless ``max_seconds`` is None, the
        LPs exceed :data:`~seqform.questions.ranges_work.MAX_LPS` (a built-in game named by
        its spec: before it is built).
    """
    seed = require_count("seed", seed)
    max_seconds = require_time_limit("max_seconds", max_seconds)
    if max_seconds is not None:  # a built-in game's LPs and their least time, before it is built
        refuse_planned_work(game, max_seconds)
    game = as_game(game, "equilibrium_ranges")
    start = time.perf_counter()
    require_float_payoffs(game, "the LP of value ranges")
    form = sequence_form_of(game, form)
    if max_seconds is not None:  # the counts before the value LP
        check_lps(game.name, work_estimate(form, 0.0).lps)
        check_work(game.name, least_work(form), max_seconds, None)
    lp_start = time.perf_counter()
    value = _value(game, form, exact)
    check_work(
        game.name, work_estimate(form, time.perf_counter() - lp_start), max_seconds, progress
    )
    rng = np.random.default_rng(seed)
    # the faces' LPs in payoffs of [1, 2) (the same plans): their value row is met within
    # HiGHS's absolute tolerance, which payoffs of 1e-9 or 1e9 would swamp or miss
    scaled = form.normalised_for_floats()
    inner = value / (scaled.payoff_scale if exact else float(scaled.payoff_scale))
    players = tuple(
        replace(
            _player_ranges(game, scaled, player, inner if player == 0 else -inner, exact, rng),
            value=value if player == 0 else -value,
        )
        for player in (0, 1)
    )
    return EquilibriumRanges(
        game=game,
        form=form,
        exact=exact,
        value=value,
        players=(players[0], players[1]),
        seconds=time.perf_counter() - start,
    )


def _value(game: Game, form: SequenceForm, exact: bool) -> Number:
    """The game's value: exact (certified by :func:`~seqform.routes.exact.solve_exact`) or
    float."""
    if not exact:
        scaled = form.normalised_for_floats()
        return scaled.unscaled(solve_minmax_program(minmax_program(scaled)).value)
    from seqform.routes.exact import solve_exact

    solution = solve_exact(game, form=form)
    if solution.value is None:
        raise ExactSolveError(
            f"the value could not be certified (it lies in [{solution.bounds.lower}, "
            f"{solution.bounds.upper}]); exact ranges need it"
        )
    return solution.value


def _plan_ranges(face_lp: FaceOptimiser, vertices: Vertices) -> dict[int, Range]:
    """``min`` and ``max`` of every plan entry over ``P`` (no LP for a minimum a vertex
    already shows to be 0)."""
    exact = vertices.exact
    vertices.remember(face_lp.maximise({})[1])  # one optimal plan, even with nothing to range
    ranges = {}
    for sequence in range(1, vertices.n):
        report(Step("ranges: plan entries", sequence - 1, vertices.n - 1))
        low_known = any(_same(v[sequence], 0, exact) for v in vertices.plans)
        best = face_lp.maximise({sequence: 1})
        vertices.remember(best[1])
        if low_known:
            ranges[sequence] = Range(0 if not exact else Fraction(0), best[0])
            continue
        worst = face_lp.maximise({sequence: -1})
        vertices.remember(worst[1])
        ranges[sequence] = Range(-worst[0], best[0])
    report(Step("ranges: plan entries", vertices.n - 1, vertices.n - 1, finished=True))
    return ranges


def _charnes_cooper(minmax: MinmaxProgram, value: Number) -> LinearProgram:
    """The Charnes–Cooper LP of the module docstring, without its normalisation row.

    Columns ``x̃, q̃, t`` (``t`` last); the own constraint rows become ``E x̃ − e t = 0``,
    and ``f @ q̃ >= v t`` is added.
    """
    base = minmax.program
    root_q = minmax.q_columns.start
    own_rows = range(len(minmax.best_reply_rows), base.num_rows)
    cc = base.with_columns([({own_rows.start: Fraction(-1)}, Fraction(0), Fraction(0), None)])
    t_col = cc.num_cols - 1
    zero = Fraction(0)
    cc = replace(
        cc,
        row_lower=tuple(zero if i in own_rows else b for i, b in enumerate(cc.row_lower)),
        row_upper=tuple(zero if i in own_rows else b for i, b in enumerate(cc.row_upper)),
    )
    return cc.with_rows([({root_q: Fraction(1), t_col: -Fraction(value)}, zero, None)])


def _probability_ranges(
    game: Game,
    table: Any,
    cc: LinearProgram,
    vertices: Vertices,
    plan_ranges: Mapping[int, Range],
) -> tuple[list[ActionRange], FaceOptimiser]:
    """The range of every ``b(a | h)``, by the Charnes–Cooper LP; also its optimiser.

    One HiGHS model serves every information set: the normalisation row
    ``x̃[parent(h)] = 1`` is re-pointed when the parent changes.
    """
    exact = vertices.exact
    t_col = cc.num_cols - 1
    normaliser = cc.num_rows
    first_parent = int(table.parent_sequence[0]) if table.num_infosets else 0
    optimiser = FaceOptimiser(
        cc.with_rows([({first_parent: Fraction(1)}, Fraction(1), Fraction(1))]), exact
    )
    current = first_parent
    actions: list[ActionRange] = []
    for infoset in range(table.num_infosets):
        report(Step("ranges: action probabilities", infoset, table.num_infosets))
        parent = int(table.parent_sequence[infoset])
        if parent != current:
            optimiser.model.change_coefficient(normaliser, current, 0.0)
            optimiser.model.change_coefficient(normaliser, parent, 1.0)
            if exact:
                optimiser.program = cc.with_rows(
                    [({parent: Fraction(1)}, Fraction(1), Fraction(1))]
                )
            current = parent
        name = table.infosets[infoset]
        for action, sequence in zip(
            table.actions[infoset], table.sequences_of(infoset), strict=True
        ):
            actions.append(
                ActionRange(
                    infoset=name,
                    action=action,
                    words=game.describe_action(name, action),
                    probability=_probability_range(optimiser, vertices, parent, sequence, t_col),
                    plan=plan_ranges[sequence],
                )
            )
    return actions, optimiser


def _probability_range(
    optimiser: FaceOptimiser, vertices: Vertices, parent: int, sequence: int, t_col: int
) -> Range | None:
    """The range of ``x[sequence] / x[parent]``, or None if no optimal plan reaches it;
    endpoints 0 and 1 seen at known vertices need no LP."""
    exact = vertices.exact
    reaching = [v for v in vertices.plans if v[parent] > (0 if exact else FLOAT_TOLERANCE)]
    ratios = [v[sequence] / v[parent] for v in reaching]
    one, nothing = (Fraction(1), Fraction(0)) if exact else (1.0, 0.0)
    high = one if any(_same(r, 1, exact) for r in ratios) else None
    low = nothing if any(_same(r, 0, exact) for r in ratios) else None
    if high is None:
        found = maximise_or_none(optimiser, {sequence: 1})
        if found is not None:
            high = found[0]
            vertices.remember(found[1], found[1][t_col])
    if low is None and (high is not None or reaching):
        found = maximise_or_none(optimiser, {sequence: -1})
        if found is not None:
            low = -found[0]
            vertices.remember(found[1], found[1][t_col])
    return None if high is None or low is None else Range(low, high)


def _player_ranges(
    game: Game,
    form: SequenceForm,
    player: int,
    value: Number,
    exact: bool,
    rng: np.random.Generator,
) -> PlayerRanges:
    table = form.players[player]
    minmax = minmax_program(form, player=player)
    base = minmax.program
    root_q = minmax.q_columns.start
    face = base.with_rows([({root_q: Fraction(1)}, Fraction(value), None)])
    face_lp = FaceOptimiser(face, exact)
    vertices = Vertices(table.num_sequences, exact)
    plan_ranges = _plan_ranges(face_lp, vertices)
    actions, cc_lp = _probability_ranges(
        game, table, _charnes_cooper(minmax, value), vertices, plan_ranges
    )
    dimension = settle_dimension(
        face_lp, vertices.plans, vertices.remember, table.num_sequences, exact, rng
    )
    parametrisation = (
        _parametrise(table, vertices.plans, plan_ranges, exact) if dimension == 1 else None
    )
    return PlayerRanges(
        player=player,
        name=game.player_names[player],
        value=value,
        actions=tuple(actions),
        dimension=dimension,
        vertices=tuple(tuple(v) for v in vertices.plans),
        parametrisation=parametrisation,
        verified=face_lp.verified and cc_lp.verified,
        linear_programs=face_lp.solved + cc_lp.solved,
    )


def _parametrise(
    table: Any, vertices: list[list[Number]], plan_ranges: Mapping[int, Range], exact: bool
) -> Parametrisation | None:
    """A one-dimensional set as ``x = x_low + (t − t_low) · slope`` in the first varying entry."""
    varying = [s for s, r in plan_ranges.items() if not _same(r.low, r.high, exact)]
    if not varying:
        return None
    starting_at_zero = [s for s in varying if _same(plan_ranges[s].low, 0, exact)]
    parameter = (starting_at_zero or varying)[0]
    low_vertex = min(vertices, key=lambda v: v[parameter])
    high_vertex = max(vertices, key=lambda v: v[parameter])
    span = high_vertex[parameter] - low_vertex[parameter]
    entries = []
    for s in range(1, table.num_sequences):
        slope = (high_vertex[s] - low_vertex[s]) / span
        if _same(slope, 0, exact):
            continue
        constant = low_vertex[s] - slope * low_vertex[parameter]
        entries.append(AffineEntry(label=table.label(s), constant=constant, slope=slope))
    return Parametrisation(
        parameter=table.label(parameter),
        low=low_vertex[parameter],
        high=high_vertex[parameter],
        entries=tuple(entries),
    )


def _same(a: Number, b: Number, exact: bool) -> bool:
    return a == b if exact else abs(float(a) - float(b)) <= FLOAT_TOLERANCE
