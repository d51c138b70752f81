"""A public subgame of the game on canonical boards, on its hand classes.

Re-solving on canonical boards (:func:`seqform.resolving.structured_resolve.resolve_structured`
with ``boards``) writes a public subgame of ``G'``
(:mod:`seqform.structured.reductions.suit_classes`) as a structured game ``sub``
(:func:`seqform.resolving.public_subgames.subgame_game`).  Like ``G'`` itself, ``sub`` is the
game only for plans that are the same on each hand class: a hand of ``sub`` meets only the
canonical cards it does not block, each with its orbit's weight (in Leduc with two suits
the hand ``Qs`` never meets a queen on the board, ``Qh`` meets ``Qs`` twice), so a best
response hand by hand is not the game's; only a class's sum is.  Its LP, best responses and
counterfactual values are therefore taken on classes:

* the *classes* of ``sub``'s sequences and information sets are ``G'``'s
  (:func:`~seqform.structured.reductions.suit_classes.canonical_boards`), found by name;
  the hands blocked by the path's public cards, absent from ``G'`` and of weight 0 in
  ``sub``, are each a class of their own;
* the *root classes* are the opponent's hands at the subgame's root (the gadget's root
  information sets ``J``) up to the stabilizer of the path's public cards: ``h`` and ``τh``
  have the same value in the game, and only their sum is known on ``sub``.

:attr:`SubgameClasses.boards` views ``sub`` as its own game on canonical boards with these
classes, so that :func:`~seqform.structured.reductions.suit_classes.class_tables`,
:func:`~seqform.structured.reductions.suit_classes.certify_on_classes` and
:func:`~seqform.structured.reductions.suit_reduction.reduce_lp` apply to it unchanged.

What the re-solve asks of its input on canonical boards is here too: :func:`canonical_game_for`
(the boards of this game), :func:`blueprint_on_boards` (a blueprint of the game,
invariant under its suit permutations, as one of ``G'``) and :func:`require_class_symmetric` (a
blueprint that is the same on each hand class).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_with_reach,
    plan_from_behaviour,
)
from seqform.game.public.numbering import structured_tables
from seqform.game.public.symmetry import Symmetries
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.resolving.public_subgames import PublicSubgame
from seqform.resolving.subgames import ResolveError
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    HandClasses,
    class_sums,
    class_tables,
    dense_ranks,
    first_members,
    sequence_images,
)

__all__ = [
    "SYMMETRY_TOLERANCE",
    "SubgameClasses",
    "blueprint_on_boards",
    "canonical_game_for",
    "require_class_symmetric",
    "subgame_classes",
]


@dataclass(frozen=True, eq=False)
class SubgameClasses:
    """The hand classes of a public subgame ``sub`` of ``G'`` (module docstring).

    boards : ``sub`` as its own game on canonical boards, with its classes
    tables : per player of ``sub``, the sequence table of its classes
    root : per hand of ``sub``'s player 1 (the opponent), its root class
    root_sizes : per root class, its hands
    orbit : the boards of ``G`` the subgame's path stands for (the product of the
        multiplicities of its public cards: the group's order over their stabilizer's)
    """

    boards: CanonicalBoards
    tables: tuple[PlayerSequences, PlayerSequences]
    root: np.ndarray
    root_sizes: np.ndarray
    orbit: int

    @property
    def hand_classes(self) -> tuple[HandClasses, HandClasses]:
        return self.boards.classes

    def lift(self, player: int, values: np.ndarray) -> np.ndarray:
        """Per sequence of ``sub``'s ``player``, the value of its class in ``values``."""
        return values[self.hand_classes[player].sequences]

    def on_classes(self, player: int, values: np.ndarray) -> np.ndarray:
        """Per class of ``player``'s sequences, the sum of ``values`` over its members."""
        classes = self.hand_classes[player]
        return class_sums(classes.sequences, values, classes.num_sequences)

    def root_sums(self, values: np.ndarray) -> np.ndarray:
        """Per root class, the sum of the per-hand ``values`` over its hands."""
        return class_sums(self.root, values, len(self.root_sizes))

    def root_hands(self) -> np.ndarray:
        """Per root class, its first hand."""
        return first_members(self.root, len(self.root_sizes))

    def root_labels(self) -> list[str]:
        """Per root class, the label of its first hand."""
        labels = self.boards.game.hands[1].labels
        return [labels[h] for h in self.root_hands().tolist()]


def _player_classes(
    full: PlayerSequences, classes: HandClasses, sub: PlayerSequences
) -> HandClasses:
    """``classes`` (of ``G'``'s table ``full``) on ``sub``'s table, by information-set name;
    an information set not in ``G'`` (a hand holding a public card of the path) and its
    sequences are classes of their own."""
    index = full.index_of_infoset()
    found = np.fromiter(
        (index.get(name, -1) for name in sub.infosets), dtype=np.int64, count=sub.num_infosets
    )
    mapped = found >= 0
    fresh_infosets = np.cumsum(~mapped) - 1
    infosets = np.where(
        mapped, classes.infosets[np.maximum(found, 0)], classes.num_infosets + fresh_infosets
    )
    counts = sub.action_counts()
    offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    own = np.repeat(sub.first_sequence, counts) + offsets
    theirs = np.repeat(full.first_sequence[np.maximum(found, 0)], counts) + offsets
    inside = np.repeat(mapped, counts)
    fresh = classes.num_sequences + np.cumsum(~inside) - 1
    sequences = np.zeros(sub.num_sequences, dtype=np.int64)
    sequences[own] = np.where(inside, classes.sequences[np.where(inside, theirs, 0)], fresh)
    sequence_bound = classes.num_sequences + int((~inside).sum())
    infoset_bound = classes.num_infosets + int((~mapped).sum())
    sequence_classes = dense_ranks(sequences, sequence_bound)
    infoset_classes = dense_ranks(infosets, infoset_bound)
    return HandClasses(
        sequence_classes,
        infoset_classes,
        int(sequence_classes.max(initial=0)) + 1,
        int(infoset_classes.max(initial=-1)) + 1,
    )


def subgame_classes(
    boards: CanonicalBoards, subgame: PublicSubgame, sub: StructuredGame, player: int
) -> SubgameClasses:
    """The classes of ``sub``, the public subgame ``subgame`` of ``boards.canonical`` written
    with ``G'``'s ``player`` as its player 0 (module docstring)."""
    full = structured_tables(boards.canonical)
    own = structured_tables(sub)
    order = (player, 1 - player)
    classes = (
        _player_classes(full[order[0]], boards.classes[order[0]], own[0]),
        _player_classes(full[order[1]], boards.classes[order[1]], own[1]),
    )
    group = boards.symmetries.group
    fixing = set(group.stabilizer(subgame.cards).elements)
    images = np.stack(
        [
            pair[order[1]]
            for element, pair in zip(group.elements, boards.symmetries.hand_maps, strict=True)
            if element in fixing
        ]
    )
    root = dense_ranks(images.min(axis=0), sub.num_hands(1))
    maps = boards.symmetries.hand_maps
    if player == 1:
        maps = tuple((second, first) for first, second in maps)
    view = CanonicalBoards(sub, sub, Symmetries(group, maps), classes)
    return SubgameClasses(
        boards=view,
        tables=class_tables(view),
        root=root,
        root_sizes=np.bincount(root),
        orbit=group.order // len(fixing),
    )


SYMMETRY_TOLERANCE = 1e-9
"""The largest difference of a blueprint's realization plans within a hand class taken as
rounding (a CFR average on ``G'`` is the same on each class up to float sums)."""


def canonical_game_for(game: StructuredGame, boards: CanonicalBoards) -> StructuredGame:
    """``G'`` of ``boards``, after the one refusal of the re-solve on canonical boards:
    boards of another game."""
    if boards.game is not game:
        raise ResolveError(
            f"boards: the canonical boards of {boards.game.name}, not of {game.name}"
        )
    return boards.canonical


def require_class_symmetric(
    boards: CanonicalBoards, profile: tuple[BehaviouralStrategy, BehaviouralStrategy]
) -> None:
    """Refuse a blueprint whose plan differs within a hand class of ``G'`` (beyond
    :data:`SYMMETRY_TOLERANCE`): the subgames of ``G'`` are the game's only for such plans."""
    for player, strategy in enumerate(profile):
        classes = boards.classes[player]
        plan = plan_from_behaviour(strategy)
        first = first_members(classes.sequences, classes.num_sequences)
        spread = float(np.abs(plan - plan[first[classes.sequences]]).max(initial=0.0))
        if spread > SYMMETRY_TOLERANCE:
            raise ResolveError(
                f"blueprint of player {player + 1}: its realization plan differs by "
                f"{spread:.3g} within a hand class of {boards.canonical.name}; re-solving on "
                "canonical boards needs a blueprint that is the same on each class (as "
                "abstract(..., suit_isomorphism=True) and vector CFR on canonical boards give)"
            )


def blueprint_on_boards(
    boards: CanonicalBoards, profile: tuple[BehaviouralStrategy, BehaviouralStrategy]
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """A blueprint of the game (``boards.game``'s tables; float or exact) as one of ``G'``: each
    sequence of ``G'`` plays as the game's sequences it is the image of
    (:func:`~seqform.structured.reductions.suit_classes.sequence_images`), which is the
    game's blueprint again when that is invariant under the suit permutations: its
    realization plan equals its projection's lifted (within :data:`SYMMETRY_TOLERANCE`), and
    the projection is the same on each hand class (:func:`require_class_symmetric`).

    Raises
    ------
    ResolveError
        For a blueprint that a suit permutation changes, naming the player and how much.
    """
    tables = structured_tables(boards.canonical)
    found = []
    for player, strategy in enumerate(profile):
        images = sequence_images(boards, player)
        size = tables[player].num_sequences
        exact = strategy.exact
        probabilities = np.full(size, Fraction(1), dtype=object) if exact else np.ones(size)
        probabilities[images] = strategy.probabilities
        projected = behaviour_with_reach(tables[player], probabilities)
        lifted = plan_from_behaviour(projected)[images]
        spread = float(np.abs(plan_from_behaviour(strategy) - lifted).max(initial=0.0))
        if spread > SYMMETRY_TOLERANCE:
            raise ResolveError(
                f"blueprint of player {player + 1}: its realization plan differs by "
                f"{spread:.3g} between sequences of {boards.game.name} that a suit "
                "permutation maps onto each other"
            )
        found.append(projected)
    first, second = found
    require_class_symmetric(boards, (first, second))
    return first, second
