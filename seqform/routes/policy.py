"""The route policy: which LP solves a game, whether it fits in memory, and which options go
together — decided once, for Python callers and the command line alike.

A game is solved on one of three routes:

* ``"tree"`` — the sequence-form LP of the game tree (KMvS 1996, eq. 8-9), solved by HiGHS
  (:mod:`seqform.routes.tree`); every game has it, and only it takes ``refine`` and ``fix``;
* ``"structured"`` — the structured sequence-form LP of public tree × private hands, without
  the tree (:mod:`seqform.routes.structured`; Johanson et al. 2011 for the vectorised best
  responses); only the built-in games with such a description (kuhn, leduc, liars_dice)
  and hold'em spot files (``*.toml``, :mod:`seqform.game.holdem`);
* ``"normal"`` — the normal-form matrix game over pure strategies, mapped back by Kuhn's
  theorem (:mod:`seqform.routes.normal`).

``method="auto"`` (the default) takes the structured route when the game has a structured
description and its tree would have more than :data:`AUTO_TREE_NODES` nodes, else the tree.

Memory is checked before anything is built (:mod:`seqform.routes.sizing.memory`): the tree route
by the node count the game's parameters give, the structured route by its sequences.  Kuhn
poker's size is computed from ``cards`` without building its deck (its public betting tree
does not depend on the deck: ``sequences = 1 + cards (S_p − 1)`` per player and
``1 + cards (cards − 1) k`` tree nodes, ``S_p`` and ``k`` read off the 2-card game), so
``kuhn(cards=10**23)`` is refused from its parameters; Rhode Island hold'em's sizes come
from its formula (:mod:`seqform.game.builtin.rhode_island_sizes`), so the full game is
refused in a moment, not after minutes numbering its public tree (both in
:mod:`seqform.routes.sizing.planned`).

Time is checked too, for the LP of a hold'em spot (:mod:`seqform.holdem.lp_work`): its
size is counted before the LP is built, and a turn's LP, which does not finish in minutes,
is refused with the way out (vector CFR).  Vector CFR itself (``iterate``) asks for its
route with ``lp=False``: it is not refused for time, and its memory is its own estimate
(:func:`~seqform.routes.sizing.memory.vector_cfr_estimate`), not the LP's.

:func:`~seqform.routes.options.check_options` (its own module, so that the command line
reads the names without loading numpy) is the one place the option combinations are checked;
:func:`choose_route` checks the route it takes once more.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from seqform.game.builtin.registry import (
    GAMES,
    STRUCTURED_GAMES,
    check_tree_parameters,
    load_structured_game,
    parse_game_spec,
)
from seqform.game.model import Game
from seqform.game.public.explicit import tree_nodes
from seqform.game.public.tree import StructuredGame
from seqform.holdem import SPOT_LP_VARIABLES, LPWorkRefusedError, refuse_slow_lp, spot_size
from seqform.routes.options import (
    ITERATE_METHODS,
    METHODS,
    SOLVERS,
    OptionsError,
    check_options,
    check_route_options,
    resolve_method,
)
from seqform.routes.sizing.memory import (
    MemoryEstimate,
    MemoryRefusedError,
    check_memory,
    structured_estimate,
    tree_estimate,
    vector_cfr_estimate,
)
from seqform.routes.sizing.planned import PlannedSize, planned_size
from seqform.routes.sizing.spots import numbering_estimate, spot_numbering_estimate

if TYPE_CHECKING:
    from seqform.holdem import Spot

__all__ = [
    "AUTO_TREE_NODES",
    "ITERATE_METHODS",
    "METHODS",
    "SOLVERS",
    "SPOT_LP_VARIABLES",
    "LPWorkRefusedError",
    "MemoryRefusedError",
    "OptionsError",
    "Route",
    "check_options",
    "check_route_options",
    "choose_route",
    "refuse_slow_lp",
    "refuse_structured_beyond_memory",
    "refuse_tree_beyond_memory",
    "resolve_method",
]

AUTO_TREE_NODES = 200_000
"""``method="auto"`` takes the structured route above this many tree nodes (at most, as
:func:`~seqform.game.public.explicit.tree_nodes` counts them): a larger game
(leduc(ranks=13), 1.2 M nodes) solves there dozens of times faster than on the tree, while
Leduc 3×2 (9,457 nodes) is as fast on the tree and keeps its exact routes (measurements in
``benchmarks/results/measurements.md``)."""

FORCE = "--force (force=True) to try anyway"
NUMBERING_WAY_OUT = "use narrower ranges or fewer sizes, or " + FORCE


@dataclass(frozen=True)
class Route:
    """The route chosen for a game (module docstring).

    method : ``"tree"``, ``"structured"`` or ``"normal"``
    solver : the solver to use; None on the structured route lets it choose by the LP
        (:func:`~seqform.routes.structured.default_solver`)
    structured : the structured description, on the structured route
    size : the game's size from its parameters, when it is a built-in game
    spot : the hold'em spot file read, when the game is one (its pot is in the file, not in
        the structured game, and the solution's players' summary needs it)
    """

    method: str
    solver: str | None
    structured: StructuredGame | None = None
    size: PlannedSize | None = None
    spot: Spot | None = None

    @property
    def tree_bound(self) -> int | None:
        """At most the tree's nodes, when known without the tree: from the game's parameters,
        or counted from the structured description (a spot file, a structured game given)."""
        if self.size is not None and self.size.tree_bound is not None:
            return self.size.tree_bound
        return None if self.structured is None else tree_nodes(self.structured)


def _spot_game(
    game: Game | StructuredGame | str | os.PathLike[str], method: str, *, force: bool
) -> tuple[Spot | None, Game | StructuredGame | str | os.PathLike[str]]:
    """The hold'em spot file (``*.toml``, :mod:`seqform.holdem.spot`) that ``game`` names,
    read, and its structured game, on the auto and structured routes; ``(None, game)`` for
    any other ``game``.  Unless ``force``, a spot whose public numbering would not fit is
    refused from its betting's counts, before its public tree is built (TexasSolver's
    benchmark flop: in 2 s, where building the tree took 17 s and more); the count equals
    :func:`~seqform.holdem.lp_work.spot_size`'s, which :func:`_checked_structured` takes."""
    if method not in ("auto", "structured") or not isinstance(game, str | os.PathLike):
        return None, game
    if not os.fspath(game).lower().endswith(".toml"):
        return None, game
    from seqform.holdem import read_spot, spot_game

    spot = read_spot(game)
    if not force:
        _refuse(_shown(game), spot_numbering_estimate(spot), NUMBERING_WAY_OUT)
    return spot, spot_game(spot)


def _is_file(game: object) -> bool:
    """Whether ``game`` names an existing file rather than a built-in game."""
    if isinstance(game, os.PathLike):
        return True
    if not isinstance(game, str) or not os.path.exists(game):
        return False
    try:
        return parse_game_spec(game)[0] not in GAMES
    except ValueError:
        return True


def _structured_route(game: Game | StructuredGame | str | os.PathLike[str]) -> StructuredGame:
    """The structured description of ``game`` for ``method="structured"``."""
    if isinstance(game, StructuredGame):
        return game
    if isinstance(game, Game):
        raise OptionsError(
            f"{game.name}: the structured route takes a built-in game by name "
            f"({', '.join(sorted(STRUCTURED_GAMES))}), not a built tree; use method 'tree'"
        )
    if _is_file(game):
        raise OptionsError(
            f"{os.fspath(game)!r} is a file: the structured route takes built-in games by name "
            f"({', '.join(sorted(STRUCTURED_GAMES))}), not files; use --method tree (or auto)"
        )
    assert isinstance(game, str)
    return load_structured_game(game)  # says why a game has no structured description


def choose_route(
    game: Game | StructuredGame | str | os.PathLike[str],
    method: str = "auto",
    *,
    solver: str | None = None,
    backend: str = "highs",
    exact: bool = False,
    refine: bool = False,
    fix: bool = False,
    lock: bool = False,
    force: bool = False,
    lp: bool = True,
    suit_isomorphism: bool = True,
) -> Route:
    """The route that solves ``game`` under these options, checked and sized before
    anything is built (module docstring).

    Length: the one place a route is chosen documents every option; the body is the policy.

    Parameters
    ----------
    game
        A game spec (``"leduc(ranks=13)"``), a path, a built :class:`Game` (always the tree
        or the normal form) or a :class:`StructuredGame` (always the structured route).
    method
        ``"auto"``, ``"tree"``, ``"structured"`` or ``"normal"`` (or an older spelling).
    lock
        Whether node locks are given: where they are on the tree (``method="tree"``, or
        with ``exact``, which takes locks on the tree only) their options are checked with
        the others, so that a refusal names every option it concerns (``--exact and --lock
        need a simplex basis``); :func:`~seqform.routes.locked.check_locked_route` checks
        the rest once the route is chosen.
    force, lp
        Skip the memory check and the LP's time check; whether the route is for the LP
        (``solve``; vector CFR passes False): a spot's LP is sized (:func:`refuse_slow_lp`).
    suit_isomorphism
        Whether the structured route will run suit-reduced (``solve``'s and ``iterate``'s
        option): then a game whose reduced size is known beforehand is sized by it -- the
        LP by its hand classes, vector CFR by its canonical boards.

    Raises
    ------
    OptionsError
        For options that cannot run together, or a route that does not take this game.
    MemoryRefusedError
        When the route's memory estimate exceeds what the process may have (unless
        ``force``); the message gives both and the way out.
    LPWorkRefusedError
        When a hold'em spot's LP would exceed :data:`SPOT_LP_VARIABLES` (unless ``force``).
    UnknownGameError, GameParameterError
        For ``method="structured"`` on a game without a structured description.
    """
    method = resolve_method(method)
    _check(method, solver, backend, exact=exact, refine=refine, fix=fix, lock=lock)
    shown = _shown(game)
    spot, game = _spot_game(game, method, force=force)  # a hold'em spot file: public tree × combos
    spec = game if isinstance(game, str) and not _is_file(game) else None
    numbered = method in ("auto", "structured") and not (refine or fix)
    size = None if spec is None else planned_size(spec, numbered=numbered)
    if method == "auto":
        method = _auto(game, size, tree_only=refine or fix)
        _check(method, solver, backend, exact=exact, refine=refine, fix=fix, lock=lock)
    if method == "structured":
        structured = _checked_structured(
            game, spec, size, shown, force=force, lp=lp, reduced=suit_isomorphism
        )
        chosen = solver if solver is not None or not exact else "simplex"
        return Route("structured", chosen, structured, size, spot)
    if solver == "clarabel":
        raise OptionsError(
            f"{_shown(game)}: --solver clarabel solves the structured route, which this game "
            "does not take here; add --method structured, or drop --solver"
        )
    if not force and spec is not None:
        refuse_tree_beyond_memory(spec, size)
    return Route(method, solver or "simplex", None, size)


def _check(
    method: str,
    solver: str | None,
    backend: str,
    *,
    exact: bool,
    refine: bool,
    fix: bool,
    lock: bool,
) -> None:
    """:func:`check_options` for ``method``, with the locks where they are on the tree (on
    ``method="tree"``, or with ``exact``: :func:`choose_route`'s ``lock``)."""
    on_tree = lock and (exact or method == "tree")
    check_options(
        method, solver=solver, backend=backend, exact=exact, refine=refine, fix=fix, lock=on_tree
    )


def _checked_structured(
    game: Game | StructuredGame | str | os.PathLike[str],
    spec: str | None,
    size: PlannedSize | None,
    shown: str,
    *,
    force: bool,
    lp: bool,
    reduced: bool = False,
) -> StructuredGame:
    """The structured description of ``game``, refused (unless ``force``) beyond memory and,
    for the LP (``lp``), a spot whose LP will not finish (:func:`refuse_slow_lp`); ``reduced``:
    the route runs suit-reduced, so it is sized by the reduced size where that is known (the
    suit classes' LP also where ``solve`` merges them further by the ordered game
    isomorphism: that LP is reduced from the same canonical-board LP and is smaller).
    Without the LP (vector CFR) the memory is vector CFR's own estimate, on canonical boards
    when it runs there."""
    if not force and size is not None and size.sequences is not None:
        if lp:
            smaller = size.reduced_sequences if reduced else None
            estimate = structured_estimate(size.sequences, smaller)
        else:
            stepped = size.canonical_sequences if reduced else None
            estimate = vector_cfr_estimate(size.sequences if stepped is None else stepped)
        _refuse(spec, estimate, "use a smaller game, or " + FORCE)
    # the description planned_size numbered, if it did: one game object, numbered once
    planned = None if size is None or not isinstance(game, str) else size.game
    structured = _structured_route(game) if planned is None else planned
    if force or any(hands.card_matrix.shape[1] != 2 for hands in structured.hands):
        return structured
    counted = spot_size(structured)  # a hold'em spot: its numbering's tables are dense
    estimate = numbering_estimate(
        counted.combos, counted.public_sequences, counted.public_decisions
    )
    _refuse(shown, estimate, NUMBERING_WAY_OUT)
    if lp:
        refuse_slow_lp(structured, shown, counted, reduced=reduced)
    return structured


def _auto(
    game: Game | StructuredGame | str | os.PathLike[str], size: PlannedSize | None, tree_only: bool
) -> str:
    """``auto``: structured when the game has that description and a large tree."""
    if isinstance(game, StructuredGame):
        return "structured"
    if tree_only or size is None or size.tree_bound is None:
        return "tree"
    return "structured" if size.tree_bound > AUTO_TREE_NODES else "tree"


def _shown(game: object) -> str:
    if isinstance(game, Game | StructuredGame):
        return game.name
    return str(os.fspath(game)) if isinstance(game, str | os.PathLike) else repr(game)


def _refuse(spec: str | None, estimate: MemoryEstimate, way_out: str) -> None:
    """:func:`check_memory`, its message led by the game."""
    try:
        check_memory(estimate, way_out)
    except MemoryRefusedError as exc:
        raise MemoryRefusedError(f"{spec}: {exc}") from None


def refuse_tree_beyond_memory(spec: str, size: PlannedSize | None = None) -> None:
    """Refuse, before building it, the tree of a built-in game whose memory estimate
    (:func:`~seqform.routes.sizing.memory.tree_estimate` of the node count its parameters give,
    :func:`planned_size`) exceeds what the process may have, naming the way out: the
    structured route where the game has one, or ``force``.  Games that cannot say their
    size beforehand (``.efg``, OpenSpiel) are not estimated.  First, before any sizing, a
    game whose parameters its tree refuses whatever the memory (Liar's Dice beyond its
    bids: :func:`~seqform.game.builtin.registry.check_tree_parameters`) is refused with the
    build's message.

    Raises
    ------
    ParameterLimitError
        For parameters beyond the tree's limit.
    MemoryRefusedError
        With the estimate, what is available and the way out.
    """
    check_tree_parameters(spec)
    size = planned_size(spec, numbered=False) if size is None else size
    if size is None or size.tree_nodes is None:
        return
    way_out = "too large for the tree route: "
    if size.structured:
        way_out += (
            f"solve it with 'seqform solve \"{spec}\" --method structured', which never "
            'builds the tree (method="structured" from Python), '
        )
    _refuse(spec, tree_estimate(size.tree_nodes), way_out + "or " + FORCE)


def refuse_structured_beyond_memory(spec: str) -> None:
    """Refuse, before building its description, a built-in game whose structured
    sequences (:func:`planned_size`) would not fit in memory
    (:func:`~seqform.routes.sizing.memory.structured_estimate`): sizing it from its public tree
    (``compare --no-solve``) builds its sequence tables, as the structured LP does.

    Raises
    ------
    MemoryRefusedError
        With the estimate, what is available and the way out.
    """
    size = planned_size(spec)
    if size is None or size.sequences is None:
        return
    _refuse(spec, structured_estimate(size.sequences), "use a smaller game, or " + FORCE)
