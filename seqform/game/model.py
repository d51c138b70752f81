"""The game: a validated tree with its names, compiled once to flat arrays."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from seqform.game.compiled import FlatTree, compile_tree
from seqform.game.nodes import Node

__all__ = ["Game"]


def _no_words(infoset: str, action: str) -> str:
    return action


@dataclass(frozen=True, eq=False)
class Game:
    """A validated two-player zero-sum extensive-form game with perfect recall.

    Parameters
    ----------
    name
        Display name, e.g. ``"kuhn"``.
    root
        The root node of the tree.
    player_names
        Display names of players 0 and 1.
    describe_action
        ``describe_action(infoset, action)`` gives the action in words for displays (Kuhn:
        ``("Jpb", "b") -> "call"``); the default returns the action label unchanged.
    description
        One line on where the game comes from.

    Attributes
    ----------
    flat
        The tree compiled to arrays (:class:`seqform.game.compiled.FlatTree`), made once here.

    Raises
    ------
    InvalidGameError
        If the tree is not a two-player zero-sum game with perfect recall, if chance
        probabilities do not sum to exactly one, or if an information set mixes players or
        action lists.  The message names the node (by its history) or the information set.
    """

    name: str
    root: Node
    player_names: tuple[str, str] = ("Player 1", "Player 2")
    describe_action: Callable[[str, str], str] = field(default=_no_words, compare=False)
    description: str = ""
    flat: FlatTree = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The one walk over the node objects: it validates the tree and numbers it.
        object.__setattr__(self, "flat", compile_tree(self.root))
