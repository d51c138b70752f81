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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.public.explicit import explicit_game, tree_nodes
from seqform.game.public.tree import StructuredGame
from seqform.resolving.resolve import ResolveResult
from seqform.resolving.resolve import resolve as resolve_tree
from seqform.resolving.structured_resolve import resolve_structured
from seqform.resolving.subgames import ResolveError

__all__ = ["PATHS", "RESOLVE_TREE_NODES", "choose_path", "resolve"]

PATHS = ("auto", "tree", "structured")

RESOLVE_TREE_NODES = 100_000
"""The largest tree a structured game is re-solved on by default: Leduc 5×2's (68,941
nodes) re-solves in seconds on the tree path; Leduc 13×4's (10 million) is not written."""


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


def resolve(
    game: Game | StructuredGame,
    blueprint: Sequence[BehaviouralStrategy | Mapping[str, Any]],
    *,
    round_number: int = 2,
    gadget: str = "resolve",
    refine: bool = False,
    path: str = "auto",
    exact: bool = False,
    progress: Callable[[str], None] | None = None,
) -> ResolveResult:
    """Re-solve every subgame of round ``round_number`` of ``game`` from ``blueprint`` with
    ``gadget`` on the path :func:`choose_path` picks (``result.path`` says which), as
    :func:`seqform.resolving.resolve.resolve` (tree) or
    :func:`seqform.resolving.structured_resolve.resolve_structured` (structured) does;
    ``progress`` hears the structured path's gadget LPs one by one; ``exact`` solves every
    gadget LP exactly and certifies in Fractions (structured path only).

    Raises
    ------
    ResolveError
        As both paths, and :func:`choose_path`.
    """
    chosen = choose_path(game, path, refine, exact)
    if chosen == "structured":
        assert isinstance(game, StructuredGame)
        return resolve_structured(
            game,
            blueprint,
            round_number=round_number,
            gadget=gadget,
            exact=exact,
            progress=progress,
        )
    tree = game if isinstance(game, Game) else explicit_game(game)
    return resolve_tree(tree, blueprint, round_number=round_number, gadget=gadget, refine=refine)
