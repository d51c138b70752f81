"""The game: a validated tree with its names, compiled once to flat arrays."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from seqform.game.compiled import FlatTree, compile_tree
from seqform.game.errors import InvalidGameError
from seqform.game.nodes import Node

__all__ = ["Game"]


_TWO_NAMES = ("Player 1", "Player 2")


def _no_words(infoset: str, action: str) -> str:
    return action


@dataclass(frozen=True, eq=False)
class Game:
    """A validated extensive-form game with perfect recall: ``n >= 2`` players, exact
    payoffs (the LP routes also need two players and zero sum:
    :func:`seqform.game.requirements.require_two_player_zero_sum`).

    Parameters
    ----------
    name
        Display name, e.g. ``"kuhn"``.
    root
        The root node of the tree.
    player_names
        Display names of the players, in order; the default names two players, and
        ``"Player 1"``, ``"Player 2"``, ... for any number of players.
    describe_action
        ``describe_action(infoset, action)`` gives the action in words for displays (Kuhn:
        ``("Jpb", "b") -> "call"``); the default returns the action label unchanged.
    description
        One line on where the game comes from.
    origin
        What the game was built from when its name and description do not say all of it (a
        hold'em spot's :class:`~seqform.holdem.spot.Spot`: its description names the board,
        not the pot, stacks, sizes or range weights), so that a strategy document of the game
        can be checked against it (:func:`seqform.io.document_game.check_document_game`);
        None for the others.

    Attributes
    ----------
    flat
        The tree compiled to arrays (:class:`seqform.game.compiled.FlatTree`), made once here.

    Raises
    ------
    InvalidGameError
        If the terminals' payoffs are not exact or not all for the same number (at least
        two) of players, if a decision belongs to no paid player, if chance probabilities
        do not sum to exactly one, if an information set mixes players or action lists, or
        without perfect recall; or if ``player_names`` has the wrong length.  The message
        names the node (by its history) or the information set.
    """

    name: str
    root: Node
    player_names: tuple[str, ...] = _TWO_NAMES
    describe_action: Callable[[str, str], str] = field(default=_no_words, compare=False)
    description: str = ""
    origin: object | None = field(default=None, repr=False)
    flat: FlatTree = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The one walk over the node objects: it validates the tree and numbers it.
        object.__setattr__(self, "flat", compile_tree(self.root))
        count = self.flat.num_players
        if self.player_names == _TWO_NAMES and count != 2:
            names = tuple(f"Player {number}" for number in range(1, count + 1))
            object.__setattr__(self, "player_names", names)
        elif len(self.player_names) != count:
            raise InvalidGameError(
                f"game {self.name!r} has {count} players but {len(self.player_names)} "
                f"player names: {self.player_names}"
            )

    @property
    def num_players(self) -> int:
        """The number of players (every terminal pays each of them)."""
        return self.flat.num_players
