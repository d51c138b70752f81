"""The LP beside an iterative run: its exact value and, where it is unique, the equilibrium
strategy, at the distance the average profile is from them (:mod:`seqform.questions.iterate`'s
module docstring says what is measured and when it is skipped).

On the tree route uniqueness is decided by :func:`seqform.questions.ranges.equilibrium_ranges`;
on the structured route (vector CFR) the value is compared and uniqueness left undecided.

An LP that ``solve`` refuses (:func:`seqform.routes.policy.choose_route`: beyond memory, or
a hold'em spot's LP that would not finish, :mod:`seqform.holdem.lp_work`) is refused here by
the same call and the reference skipped with its reason, unless ``force`` (as ``solve``'s).

A locked run (node locks, :mod:`seqform.routes.locked`) is compared with the locked LP, solved
as ``solve --lock`` solves it (:func:`seqform.routes.solve.solve_on_route` with the locks), on
the layout the run stepped on (the locks were resolved against it): the tree for a run on the
tree, the structured LP for vector CFR.  Its value estimate is the locked certificate's, and
uniqueness is not decided (the ranges solve the game without its locks).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from seqform.base.limits import LIMITS
from seqform.certify import certify
from seqform.forms.locks import ResolvedLocks
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.game.requirements import is_two_player_zero_sum
from seqform.lp.solvers import SolverError
from seqform.questions.ranges import equilibrium_ranges
from seqform.routes.locked import check_locked_route
from seqform.routes.options import OptionsError
from seqform.routes.policy import LPWorkRefusedError, MemoryRefusedError, Route, choose_route
from seqform.routes.solve import solve_on_route
from seqform.routes.structured import solve_structured

__all__ = [
    "LP_MAX_SEQUENCES",
    "RANGES_MAX_SEQUENCES",
    "REFERENCE_STRUCTURED_SEQUENCES",
    "REFERENCE_TREE_NODES",
    "LpReference",
    "PlayerDistance",
    "reference",
    "structured_reference",
    "tree_reference",
]

LP_MAX_SEQUENCES = LIMITS.reference_sequences  # why: seqform.base.limits

REFERENCE_TREE_NODES = LIMITS.reference_tree_nodes  # why: seqform.base.limits

REFERENCE_STRUCTURED_SEQUENCES = LIMITS.reference_structured_sequences  # why: seqform.base.limits

RANGES_MAX_SEQUENCES = LIMITS.reference_ranges_sequences  # why: seqform.base.limits


@dataclass(frozen=True)
class PlayerDistance:
    """How far one player's average strategy is from its equilibrium strategy.

    dimension : of the player's set of optimal realization plans (0: unique); None when
        not computed (the game is over :data:`RANGES_MAX_SEQUENCES`)
    distance : ``max |b̄(a | h) − b*(a | h)|`` over the information sets the equilibrium
        plan reaches, when the equilibrium is unique; else None
    infosets : the number of information sets compared
    """

    player: int
    dimension: int | None
    distance: float | None
    infosets: int

    @property
    def unique(self) -> bool | None:
        return None if self.dimension is None else self.dimension == 0


@dataclass(frozen=True)
class LpReference:
    """The exact answer beside the iterative one (module docstring).

    skipped : why there is no LP reference (None when there is one)
    value : the LP value ``v*`` to player 0
    value_distance : ``|u_0(σ̄) − v*|``
    players : per player, the strategy distance (empty when skipped)
    uniqueness_skipped : why uniqueness was not decided (None when it was)
    seconds : time for the LP and, if run, the ranges
    status : ``"computed"``; ``"skipped"`` (not asked, refused as ``solve`` refuses it, or
        over a limit of this module); ``"failed"`` (the LP or its measurement raised; the
        reason is in ``skipped``); ``"interrupted"`` (Ctrl-C while it ran)
    """

    skipped: str | None
    value: float | None = None
    value_distance: float | None = None
    players: tuple[PlayerDistance, ...] = ()
    uniqueness_skipped: str | None = None
    seconds: float = 0.0
    status: str = "skipped"


def reference(
    game: Game,
    strategies: tuple[BehaviouralStrategy, ...],
    *,
    spec: str | None = None,
    progress: Callable[[str], None] | None = None,
    force: bool = False,
) -> LpReference:
    """The LP's value and unique equilibrium strategies beside ``strategies``; on the route
    ``solve`` takes for ``spec`` when given (the tree of ``game`` otherwise), skipped with a
    note where ``solve`` refuses it (unless ``force``) or it would be slow (module
    docstring)."""
    return tree_reference(game, strategies, spec, progress, force)


def _refused(subject: Game | StructuredGame | str, method: str, force: bool) -> Route | str:
    """The route ``solve`` takes for ``subject``, or why ``solve`` refuses its LP."""
    try:
        return choose_route(subject, method, force=force)
    except (MemoryRefusedError, LPWorkRefusedError) as exc:
        return f"solve refuses this LP: {exc}"


def tree_reference(
    game: Game,
    strategies: tuple[BehaviouralStrategy, ...],
    spec: str | None,
    progress: Callable[[str], None] | None,
    force: bool = False,
    locks: ResolvedLocks | None = None,
) -> LpReference:
    if not is_two_player_zero_sum(game):
        count = game.flat.num_players
        what = f"has {count} players" if count != 2 else "is not zero-sum"
        return LpReference(f"{game.name} {what}; the LP solves two-player zero-sum games")
    start = time.perf_counter()
    if locks is None:
        route = _refused(spec if spec is not None else game, "auto", force)
    else:
        route = _locked_route(game, force)
    if isinstance(route, str):
        return LpReference(route)
    slow = _too_slow(game, route)
    if slow is not None:
        return LpReference(f"{slow}: skipped, the LP reference would be slow")
    locked = "" if locks is None else "locked "
    if progress is not None:
        progress(f"LP reference: solving {game.name}{_with(locks)} on the {route.method} route")
    try:
        solution = solve_on_route(route.structured or game, route, locks=locks)
    except SolverError as exc:
        return LpReference(f"the {locked}LP failed: {exc}", status="failed")
    bounds = None if locks is None else locks.bounds()
    estimate = float(certify(game, strategies[0], strategies[1], bounds).value)
    if locks is None:
        dimensions, uniqueness_skipped = _dimensions(game, route.method, progress)
    else:
        dimensions, uniqueness_skipped = (None, None), _LOCKED_UNIQUENESS
    players = tuple(
        _player_distance(strategies[player], solution.strategies[player], dimensions[player])
        for player in (0, 1)
    )
    return LpReference(
        skipped=None,
        value=float(solution.value),
        value_distance=abs(estimate - float(solution.value)),
        players=players,
        uniqueness_skipped=uniqueness_skipped,
        seconds=time.perf_counter() - start,
        status="computed",
    )


_LOCKED_UNIQUENESS = (
    "uniqueness is not decided for a locked game: the ranges solve it without its locks"
)


def _with(locks: ResolvedLocks | None) -> str:
    if locks is None:
        return ""
    plural = "" if locks.count == 1 else "s"
    return f" with its locks ({locks.count:,} information set{plural})"


def _locked_route(game: Game, force: bool) -> Route | str:
    """The tree route of the locked LP (the run's locks are resolved against the tree), or
    why ``solve --lock`` would refuse it."""
    route = _refused(game, "tree", force)
    if isinstance(route, str):
        return route
    try:
        check_locked_route(route, exact=False, refine=False, backend="highs")
    except OptionsError as exc:
        return f"solve refuses the locked LP: {exc}"
    return route


def _too_slow(game: Game, route: Any) -> str | None:
    """Why the reference on ``route`` would be slow, or None (module docstring)."""
    if route.method == "structured":
        sequences = route.size.sequences if route.size is not None else None
        if sequences is not None and sequences > REFERENCE_STRUCTURED_SEQUENCES:
            return (
                f"{sequences:,} sequences on the structured route, over the limit of "
                f"{REFERENCE_STRUCTURED_SEQUENCES:,}"
            )
        return None
    largest = max(table.num_sequences for table in game.flat.tables)
    if largest > LP_MAX_SEQUENCES:
        return f"{largest:,} sequences for one player, over the LP limit of {LP_MAX_SEQUENCES:,}"
    nodes = game.flat.num_nodes
    if nodes > REFERENCE_TREE_NODES:
        return (
            f"{nodes:,} nodes on the tree route, over the limit of {REFERENCE_TREE_NODES:,} "
            "(name a built-in game by its spec for the structured route)"
        )
    return None


def _dimensions(
    game: Game, method: str, progress: Callable[[str], None] | None
) -> tuple[tuple[int | None, ...], str | None]:
    """Each player's dimension of optimal plans (None: not decided) and why not decided."""
    largest = max(table.num_sequences for table in game.flat.tables)
    if method == "tree" and largest <= RANGES_MAX_SEQUENCES:
        if progress is not None:
            progress("LP reference: deciding uniqueness (ranges)")
        # bounded by RANGES_MAX_SEQUENCES, not by the time limit of `seqform ranges`
        ranges = equilibrium_ranges(game, form=build_sequence_form(game), max_seconds=None)
        return tuple(player.dimension for player in ranges.players), None
    return (None, None), (
        f"{largest:,} sequences for one player, over the limit of {RANGES_MAX_SEQUENCES} "
        "for deciding uniqueness, which would be slow"
    )


def _player_distance(
    average: BehaviouralStrategy, equilibrium: BehaviouralStrategy, dimension: int | None
) -> PlayerDistance:
    """``max |b̄ − b*|`` over the sequences at information sets ``b*``'s plan reaches."""
    table = equilibrium.table
    reached = ~np.asarray(equilibrium.unreached, dtype=bool)
    if dimension != 0:
        return PlayerDistance(table.player, dimension, None, int(reached.sum()))
    infoset = table.sequence_infoset[1:]
    compared = reached[infoset]
    gaps = np.abs(average.probabilities[1:] - equilibrium.probabilities[1:])[compared]
    distance = float(gaps.max()) if gaps.size else 0.0
    return PlayerDistance(table.player, dimension, distance, int(reached.sum()))


def structured_reference(
    game: StructuredGame,
    strategies: tuple[BehaviouralStrategy, ...],
    estimate: float,
    progress: Callable[[str], None] | None,
    force: bool = False,
    locks: ResolvedLocks | None = None,
) -> LpReference:
    """The structured LP's value beside the run (uniqueness is not decided there), skipped
    where ``solve`` refuses it (unless ``force``); with ``locks``, the locked structured LP
    (``estimate`` is then the locked certificate's value)."""
    refused = _refused(game, "structured", force)
    if isinstance(refused, str):
        return LpReference(refused)
    start = time.perf_counter()
    locked = "" if locks is None else "locked "
    if progress is not None:
        progress(f"LP reference: solving {game.name}{_with(locks)} on the structured route")
    try:
        solution = solve_structured(game, locks=locks)
    except SolverError as exc:
        return LpReference(f"the {locked}LP failed: {exc}", status="failed")
    players = tuple(
        _player_distance(strategies[player], solution.strategies[player], None) for player in (0, 1)
    )
    return LpReference(
        skipped=None,
        value=float(solution.value),
        value_distance=abs(estimate - float(solution.value)),
        players=players,
        uniqueness_skipped="not decided on the structured route (ranges need the tree)",
        seconds=time.perf_counter() - start,
        status="computed",
    )
