"""Which path re-solves a game, tree or structured, and the one entry point that asks.

The gadget games of :mod:`seqform.resolving.gadgets` are trees built from the game's own
nodes, so the tree path needs the game's tree; the structured path
(:mod:`seqform.resolving.structured_resolve`) builds each gadget as a structured LP on the
public tree × hands and needs no tree.  A game given as a tree takes the tree path.  A
structured game takes the tree path while its tree has at most :data:`RESOLVE_TREE_NODES`
nodes (the two agree there: the same targets, gifts and gadget values), and the structured
path above, where writing the tree and its gadget games would cost more than the LPs.  The
refinement (``refine=True``) exists on the tree path only, the exact re-solve
(``exact=True``, :mod:`seqform.resolving.exact_gadgets`) on the structured path only.

A game given by name or path is read as ``seqform resolve GAME`` reads it
(:func:`game_to_resolve`): a built-in game with a structured description (``leduc``,
``rhode_island``, ...) as public tree × hands when that path is chosen, else its tree
(:func:`~seqform.io.loader.load_game`), so the tree is built only when the tree path runs.
A blueprint given as a path is read as ``--blueprint FILE`` is (:func:`read_blueprint`):
both players' strategies from one strategy document of the game.

Canonical boards (:func:`canonical_route`).  On the structured path a game invariant under
suit permutations (Leduc, Rhode Island) is re-solved on its canonical boards by default
(``suit_isomorphism=True``, as ``solve`` and ``iterate`` reduce it; docs/resolving.md "On
canonical boards"): one subgame per orbit of boards, on hand classes, the same answer up to
the LPs' choice among optima, certified in the game.  That is the game's re-solve only for
a blueprint the suit permutations leave unchanged (an abstraction or CFR on canonical boards,
CFR on the game from the uniform strategy); any other blueprint (Monte Carlo CFR's, one
changed by hand) re-solves the game itself, and the result's ``notes`` say why.
``suit_isomorphism=False`` re-solves the game itself always, and is refused on the tree
path, which has no such reduction.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.registry import STRUCTURED_GAMES, load_structured_game, parse_game_spec
from seqform.game.model import Game
from seqform.game.public.explicit import explicit_game, tree_nodes
from seqform.game.public.tree import StructuredGame
from seqform.io.loader import as_game
from seqform.io.strategy_files import GameUse, load_strategy
from seqform.resolving.blueprints import blueprint_on
from seqform.resolving.resolve import ResolveResult
from seqform.resolving.resolve import resolve as resolve_tree
from seqform.resolving.structured_resolve import resolve_structured
from seqform.resolving.subgame_classes import blueprint_on_boards
from seqform.resolving.subgames import ResolveError
from seqform.structured.reductions.suit_classes import CanonicalBoards, canonical_boards

__all__ = [
    "PATHS",
    "RESOLVE_TREE_NODES",
    "Blueprint",
    "CanonicalRoute",
    "blueprint_profile",
    "canonical_route",
    "choose_path",
    "game_to_resolve",
    "read_blueprint",
    "resolve",
]

PATHS = ("auto", "tree", "structured")

RESOLVE_TREE_NODES = 100_000
"""The largest tree a structured game is re-solved on by default: Leduc 5×2's (68,941
nodes) re-solves in seconds on the tree path; Leduc 13×4's (10 million) is not written."""

Blueprint = Sequence[BehaviouralStrategy | Mapping[str, Any]] | str | os.PathLike[str]
"""Both players' strategies (``BehaviouralStrategy``\\ s or ``{infoset: {action:
probability}}`` mappings), or the path of a strategy document holding both."""


def choose_path(
    game: Game | StructuredGame, path: str = "auto", refine: bool = False, exact: bool = False
) -> str:
    """``"tree"`` or ``"structured"`` for ``game`` (module docstring); ``path`` other than
    ``"auto"`` is kept when the game allows it.

    Raises
    ------
    ResolveError
        For an unknown path, the structured path asked of a tree, the refinement asked
        where only the structured path is chosen, or the exact re-solve (structured path
        only) asked of a tree or with the refinement.
    """
    if path not in PATHS:
        raise ResolveError(f"path: {path!r} is not one of {', '.join(PATHS)}")
    if exact:
        return _exact_path(game, path, refine)
    if isinstance(game, Game):
        if path == "structured":
            raise ResolveError(
                f"path: {game.name} is given as a tree; the structured path needs its public "
                "tree × hands (a built-in game's structured description)"
            )
        return "tree"
    chosen = path
    if path == "auto":
        chosen = "tree" if tree_nodes(game) <= RESOLVE_TREE_NODES else "structured"
    if chosen == "structured" and refine:
        raise ResolveError(
            f"refine: the refinement re-solves on the tree, and {game.name}'s has "
            f"{tree_nodes(game):,} nodes; drop --refine to re-solve on the structured LPs"
        )
    return chosen


def _exact_path(game: Game | StructuredGame, path: str, refine: bool) -> str:
    """The exact re-solve's path: the structured one, whatever the tree's size."""
    if refine:
        raise ResolveError("exact: the refinement is exact already; give --exact or --refine")
    if isinstance(game, Game) or path == "tree":
        raise ResolveError(
            "exact: the exact re-solve runs on the structured path (gadget LPs re-solved in "
            "rationals on the public tree × hands); give a built-in structured game such as "
            "leduc or rhode_island, and --path structured or auto"
        )
    return "structured"


def game_to_resolve(
    game: Game | StructuredGame | str | os.PathLike[str],
    path: str = "auto",
    refine: bool = False,
    exact: bool = False,
) -> Game | StructuredGame:
    """The game :func:`resolve` re-solves: ``game`` itself when built; for a name, the
    structured description of a built-in game that has one where :func:`choose_path` takes
    the structured path, else the game's tree (a name or a path,
    :func:`~seqform.io.loader.load_game`).

    Raises
    ------
    TypeError
        For a ``game`` that is none of those.
    ResolveError
        As :func:`choose_path`, for the structured description.
    """
    if isinstance(game, Game | StructuredGame):
        return game
    structured = _structured_or_none(game) if isinstance(game, str) else None
    if structured is not None and choose_path(structured, path, refine, exact) == "structured":
        return structured
    return as_game(game, "resolve")


def _structured_or_none(spec: str) -> StructuredGame | None:
    """The structured description of the built-in game ``spec``; None for a game without
    one, or with parameters only its tree takes (the tree's loader then says what is wrong)."""
    try:
        name, _ = parse_game_spec(spec)
        return load_structured_game(spec) if name in STRUCTURED_GAMES else None
    except ValueError:
        return None


def read_blueprint(
    game: Game | StructuredGame, blueprint: Blueprint, use: GameUse = "re-solved"
) -> Sequence[BehaviouralStrategy | Mapping[str, Any]]:
    """``blueprint`` as both players' strategies: a path (``str`` or ``os.PathLike``) read as
    ``--blueprint FILE`` is (:func:`~seqform.io.strategy_files.load_strategy`, a document of
    ``game`` holding both; ``use`` says what ``game`` is, for the refusal of another game's
    document), a pair as given.

    Raises
    ------
    TypeError
        For anything but a path or a sequence of strategies (a mapping, a number).
    OSError
        If the file cannot be read.
    StrategyFileError
        (a ``ValueError``) If it does not hold a strategy of each player of ``game``.
    """
    if isinstance(blueprint, os.PathLike):
        blueprint = os.fspath(blueprint)
    if isinstance(blueprint, str):
        return tuple(load_strategy(game, blueprint, player, use=use) for player in (0, 1))
    if isinstance(blueprint, Sequence) and not isinstance(blueprint, str | bytes):
        return blueprint
    raise TypeError(
        "blueprint must be both players' strategies (a pair of BehaviouralStrategy or "
        "{infoset: {action: probability}} mappings) or the path of a strategy document "
        f"(str or os.PathLike), not {type(blueprint).__name__} {blueprint!r:.60}"
    )


def blueprint_profile(
    game: Game, blueprint: Blueprint, use: GameUse = "re-solved"
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """``blueprint`` (:func:`read_blueprint`) as strategies of ``game``'s tables, matched by
    information-set name.

    Raises
    ------
    ResolveError
        For a blueprint that is not both players' strategies of ``game``.
    TypeError, OSError, StrategyFileError
        As :func:`read_blueprint`.
    """
    return blueprint_on(game, read_blueprint(game, blueprint, use))


@dataclass(frozen=True)
class CanonicalRoute:
    """Where the structured path re-solves (module docstring, "Canonical boards").

    boards : the game's canonical boards, or None to re-solve the game itself
    blueprint : the blueprint to re-solve from: ``G'``'s with ``boards``, else as given
    notes : why the game itself is re-solved where its canonical boards were asked for
    """

    boards: CanonicalBoards | None
    blueprint: Sequence[BehaviouralStrategy | Mapping[str, Any]]
    notes: tuple[str, ...] = ()


def canonical_route(
    game: StructuredGame,
    blueprint: Sequence[BehaviouralStrategy | Mapping[str, Any]],
    *,
    exact: bool = False,
    suit_isomorphism: bool = True,
) -> CanonicalRoute:
    """Re-solve ``game`` on its canonical boards or on itself (module docstring): on its
    canonical boards when ``suit_isomorphism``, the game has suit permutations, the
    blueprint is unchanged by them (projected in Fractions for ``exact``) (projected to ``G'``,
    :func:`~seqform.resolving.subgame_classes.blueprint_on_boards`); else on the game, with
    a note where the boards were asked for and the game has them.

    Raises
    ------
    ResolveError
        For a blueprint that is not both players' strategies of ``game``.
    """
    boards = canonical_boards(game) if suit_isomorphism else None
    if boards is None:
        return CanonicalRoute(None, blueprint)
    itself = "; the game itself is re-solved"
    first, second = blueprint_on(game, blueprint)
    if not exact:
        first, second = first.to_float(), second.to_float()
    try:
        projected = blueprint_on_boards(boards, (first, second))
    except ResolveError as exc:
        return CanonicalRoute(None, blueprint, (f"suit isomorphism: {exc}{itself}",))
    return CanonicalRoute(boards, projected)


def resolve(
    game: Game | StructuredGame | str | os.PathLike[str],
    blueprint: Blueprint,
    *,
    round_number: int = 2,
    gadget: str = "resolve",
    refine: bool = False,
    path: str = "auto",
    exact: bool = False,
    suit_isomorphism: bool = True,
    progress: Callable[[str], None] | None = None,
    workers: int = 1,
) -> ResolveResult:
    """Re-solve every subgame of round ``round_number`` of ``game`` from ``blueprint`` with
    ``gadget`` on the path :func:`choose_path` picks (``result.path`` says which), as
    :func:`seqform.resolving.resolve.resolve` (tree) or
    :func:`seqform.resolving.structured_resolve.resolve_structured` (structured) does;
    ``progress`` hears the structured path's gadget LPs one by one; ``exact`` solves every
    gadget LP exactly and certifies in Fractions (structured path only).

    ``game`` is a built game, a name (``"leduc"``) or a path (:func:`game_to_resolve`);
    ``blueprint`` both players' strategies or the path of a strategy document of the game
    (:func:`read_blueprint`).  On the structured path ``suit_isomorphism`` re-solves on the
    game's canonical boards where that is the game's re-solve (:func:`canonical_route`):
    ``result.boards`` is then set, ``result.strategies`` are ``G'``'s and
    ``result.game_strategies()`` the game's; ``result.notes`` say why the game itself was
    re-solved instead.  ``workers`` re-solves the structured path's subgames on that many
    processes, with the same answers
    (:func:`~seqform.resolving.structured_resolve.resolve_structured`).

    Length: the entry point documents each option; the body picks the path and runs it.

    Raises
    ------
    TypeError
        For a ``game`` or ``blueprint`` of another kind.
    ResolveError
        As both paths, and :func:`choose_path`; for ``suit_isomorphism=False`` or
        ``workers`` on the tree path (no reduction to turn off there, one process).
    OSError, StrategyFileError
        For a blueprint file that cannot be read or is not a strategy document of the game.
    """
    game = game_to_resolve(game, path, refine, exact)
    chosen = choose_path(game, path, refine, exact)
    strategies = read_blueprint(game, blueprint)
    if chosen == "structured":
        assert isinstance(game, StructuredGame)
        route = canonical_route(game, strategies, exact=exact, suit_isomorphism=suit_isomorphism)
        result = resolve_structured(
            game,
            route.blueprint,
            round_number=round_number,
            gadget=gadget,
            exact=exact,
            progress=progress,
            boards=route.boards,
            workers=workers,
        )
        return replace(result, notes=route.notes) if route.notes else result
    if not suit_isomorphism:
        raise ResolveError(
            "suit_isomorphism: --no-suit-isomorphism (suit_isomorphism=False) turns off the "
            f"structured path's re-solve on canonical boards; {game.name} is re-solved on its "
            "tree, which has none (--path structured re-solves a built-in game on its public "
            "tree × hands)"
        )
    if workers != 1:
        raise ResolveError(
            f"workers: the tree path re-solves in one process, not {workers!r} (--path "
            "structured re-solves a built-in game's subgames on worker processes)"
        )
    tree = game if isinstance(game, Game) else explicit_game(game)
    return resolve_tree(tree, strategies, round_number=round_number, gadget=gadget, refine=refine)
