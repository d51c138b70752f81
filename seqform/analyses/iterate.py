"""An iterative run measured against the exact answer: the CFR family beside the LP.

:func:`iterate` runs one solver of :mod:`seqform.iterative` (:data:`SOLVERS`: the CFR
family, fictitious play, regression CFR, external-sampling MCCFR) and measures its
average profile ``σ̄`` twice:

* by best responses on the tree: each player's value ``u_i(σ̄)``, best-response value and
  gain, and NashConv ``Σ_i (max_{σ'_i} u_i(σ'_i, σ̄_{-i}) − u_i(σ̄))``
  (:func:`seqform.certify.certify_profile`, any number of players; for a two-player
  zero-sum game also :func:`seqform.certify.certify`, the certificate of ``solve``);
* against the LP (:func:`reference`), for two-player zero-sum games, on the route
  ``solve`` takes (:mod:`seqform.analyses.route`: the structured route for a built-in game
  named by its spec whose tree is large, else the tree), skipped with a one-line note where
  it would be slow (over :data:`LP_MAX_SEQUENCES` sequences per player or
  :data:`REFERENCE_TREE_NODES` nodes on the tree, over :data:`REFERENCE_STRUCTURED_SEQUENCES`
  sequences on the structured route) or when not asked for (``reference=False``): the
  distance ``|u_0(σ̄) − v*|`` to the exact value ``v*`` and, for each player whose set of
  optimal realization plans is a single point, the distance to that equilibrium strategy,

      max over h reached by the equilibrium plan, a at h  of  |b̄(a | h) − b*(a | h)|,

  where ``b*`` is the LP's behavioural strategy (unique at every information set its own
  plan reaches, ``x*[parent(h)] > 0``; elsewhere any behaviour is optimal, so those sets
  are left out).  Uniqueness is decided, not assumed: the dimension of each player's
  optimal set comes from :func:`seqform.analyses.ranges.equilibrium_ranges` (dimension 0:
  unique), computed for games with at most :data:`RANGES_MAX_SEQUENCES` sequences per
  player (it solves about four LPs per action; Leduc would take minutes).  A player whose
  set is larger gets no strategy distance (the nearest equilibrium strategy is then not
  the LP's vertex).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from seqform.analyses.ranges import equilibrium_ranges
from seqform.analyses.route import (
    ITERATE_METHODS,
    choose_route,
    refuse_tree_beyond_memory,
    resolve_method,
)
from seqform.analyses.solve import solve_on_route
from seqform.certify import Certificate, NPlayerCertificate, certify, certify_profile
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.loader import load_game
from seqform.game.model import Game
from seqform.game.requirements import is_two_player_zero_sum
from seqform.iterative.cfr import cfr, cfr_plus, dcfr
from seqform.iterative.mccfr import DEFAULT_SEED, external_sampling_mccfr
from seqform.iterative.rcfr import rcfr
from seqform.iterative.run import IterativeResult, OnSample, Stopping
from seqform.iterative.variants import dcfr_plus, lcfr, pcfr_plus, pdcfr_plus
from seqform.iterative.xfp import xfp
from seqform.lp.solvers import SolverError

__all__ = [
    "DEFAULT_SEED",
    "LP_MAX_SEQUENCES",
    "RANGES_MAX_SEQUENCES",
    "REFERENCE_STRUCTURED_SEQUENCES",
    "REFERENCE_TREE_NODES",
    "SOLVERS",
    "IterativeRun",
    "LpReference",
    "PlayerDistance",
    "iterate",
    "reference",
]

SOLVERS: Mapping[str, Callable[..., IterativeResult]] = {
    "cfr": cfr,
    "cfr+": cfr_plus,
    "dcfr": dcfr,
    "lcfr": lcfr,
    "pcfr+": pcfr_plus,
    "dcfr+": dcfr_plus,
    "pdcfr+": pdcfr_plus,
    "xfp": xfp,
    "rcfr": rcfr,
    "mccfr": external_sampling_mccfr,
}
"""The iterative solvers by name; only ``mccfr`` takes a seed.  ``pcfr+`` and ``pdcfr+``
also report their last iterate (:attr:`IterativeResult.last_nash_conv`)."""

SAMPLING = frozenset({"mccfr"})

LP_MAX_SEQUENCES = 50_000
"""The LP reference is computed when each player has at most this many sequences (Liar's
Dice with 6 sides, 24 571 per player, solves in about a second)."""

REFERENCE_TREE_NODES = 400_000
"""The LP reference on the tree route is computed for trees of at most this many nodes
(Liar's Dice with 6 sides, 294,913 nodes, solves in about a second; leduc(ranks=13),
1.2 M nodes, took over 150 s there, issue 24, where the structured route takes 2 s)."""

REFERENCE_STRUCTURED_SEQUENCES = 400_000
"""The LP reference on the structured route is computed up to this many sequences (both
players; leduc(ranks=13, suits=4), 186,370, solves in seconds; liars_dice(sides=8),
1,048,562, in minutes)."""

RANGES_MAX_SEQUENCES = 150
"""Uniqueness is decided when each player has at most this many sequences (N-card Kuhn
with N = 30, 121 per player, takes about 0.6 s)."""


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
    """

    skipped: str | None
    value: float | None = None
    value_distance: float | None = None
    players: tuple[PlayerDistance, ...] = ()
    uniqueness_skipped: str | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class IterativeRun:
    """An iterative run with its measurements.

    result : what the solver returned (average strategies, history, why it stopped)
    stopping : the rules it ran under
    profile : each player's value, best-response value and gain, and NashConv
    certificate : the two-player zero-sum certificate (None for other games)
    reference : the LP beside it
    """

    game: Game
    result: IterativeResult
    stopping: Stopping
    profile: NPlayerCertificate
    certificate: Certificate | None
    reference: LpReference

    @property
    def values(self) -> tuple[float, ...]:
        """Each player's expected payoff under the average profile (the value estimate)."""
        return self.profile.values


def iterate(
    game: Game | str | os.PathLike[str],
    algorithm: str,
    stopping: Stopping,
    *,
    seed: int | None = None,
    on_sample: OnSample | None = None,
    method: str = "auto",
    reference: bool = True,
    force: bool = False,
    max_nodes: int | None = None,
    progress: Callable[[str], None] | None = None,
    with_reference: bool | None = None,
) -> IterativeRun:
    """Run ``algorithm`` (a key of :data:`SOLVERS`) under ``stopping`` and measure it.

    ``game`` is a built game, or a spec or path: then its tree is refused before it is built
    when it would not fit in memory (unless ``force``), and the LP reference follows the
    route ``solve`` takes for that spec (module docstring).  ``method`` is the layout the
    CFR family runs on (:data:`~seqform.analyses.route.ITERATE_METHODS`; ``"auto"`` is the
    tree).  ``seed`` is for ``mccfr`` only (default :data:`DEFAULT_SEED`); ``on_sample`` sees
    each NashConv sample (return True to stop); ``reference=False`` skips the LP reference
    (``with_reference`` is its older name); ``progress`` hears the reference's stages.

    Raises
    ------
    OptionsError
        For a method the CFR family does not run on.
    ValueError
        For an unknown algorithm, or a seed given to a deterministic one.
    MemoryRefusedError
        For a tree that would not fit in memory (unless ``force``).
    """
    resolve_method(method, ITERATE_METHODS)
    options = _solver_options(algorithm, stopping, seed, on_sample)
    spec = game if isinstance(game, str) else None
    tree = _load(game, force, max_nodes)
    result = SOLVERS[algorithm](tree, stopping.iterations, **options)
    strategies = result.strategies
    two_player = is_two_player_zero_sum(tree)
    wanted = reference if with_reference is None else with_reference
    return IterativeRun(
        game=tree,
        result=result,
        stopping=stopping,
        profile=certify_profile(tree, strategies),
        certificate=certify(tree, strategies[0], strategies[1]) if two_player else None,
        reference=_reference_unless(tree, result, spec, progress, wanted),
    )


def _solver_options(
    algorithm: str, stopping: Stopping, seed: int | None, on_sample: OnSample | None
) -> dict[str, object]:
    """The keyword arguments ``SOLVERS[algorithm]`` takes; a seed only for sampling ones."""
    if algorithm not in SOLVERS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(SOLVERS)}")
    options: dict[str, object] = {
        "target": stopping.target,
        "time_limit": stopping.time_limit,
        "every": stopping.every,
        "on_sample": on_sample,
    }
    if algorithm in SAMPLING:
        options["seed"] = seed
    elif seed is not None:
        raise ValueError(f"{algorithm} is deterministic; a seed applies to mccfr only")
    return options


def _load(game: Game | str | os.PathLike[str], force: bool, max_nodes: int | None) -> Game:
    if isinstance(game, Game):
        return game
    if isinstance(game, str) and not force:
        refuse_tree_beyond_memory(game)
    return load_game(game, max_nodes=max_nodes)


def reference(
    game: Game,
    strategies: tuple[BehaviouralStrategy, ...],
    *,
    spec: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> LpReference:
    """The LP's value and unique equilibrium strategies beside ``strategies``; on the route
    ``solve`` takes for ``spec`` when given (the tree of ``game`` otherwise), skipped with a
    note where it would be slow (module docstring)."""
    return _reference(game, strategies, spec, progress)


def _reference_unless(
    game: Game,
    result: IterativeResult,
    spec: str | None,
    progress: Callable[[str], None] | None,
    asked: bool,
) -> LpReference:
    """:func:`reference`, unless not ``asked`` or the run was interrupted (Ctrl-C asked to
    stop: the result so far is reported without the LP, which may take minutes)."""
    if not asked:
        return LpReference("not asked (--no-reference)")
    if result.stopped == "interrupted":
        return LpReference("interrupted before the LP reference")
    return _reference(game, result.strategies, spec, progress)


def _reference(
    game: Game,
    strategies: tuple[BehaviouralStrategy, ...],
    spec: str | None,
    progress: Callable[[str], None] | None,
) -> LpReference:
    if not is_two_player_zero_sum(game):
        count = game.flat.num_players
        what = f"has {count} players" if count != 2 else "is not zero-sum"
        return LpReference(f"{game.name} {what}; the LP solves two-player zero-sum games")
    start = time.perf_counter()
    route = choose_route(spec if spec is not None else game, "auto", force=True)
    slow = _too_slow(game, route)
    if slow is not None:
        return LpReference(f"{slow}: skipped, the LP reference would be slow")
    if progress is not None:
        progress(f"LP reference: solving {game.name} on the {route.method} route")
    try:
        solution = solve_on_route(route.structured or game, route)
    except SolverError as exc:
        return LpReference(f"the LP failed: {exc}")
    estimate = float(certify(game, strategies[0], strategies[1]).value)
    dimensions, uniqueness_skipped = _dimensions(game, route.method, progress)
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
    )


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
        ranges = equilibrium_ranges(game, form=build_sequence_form(game))
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
