"""A structured game's LP with hands merged by any labelling of their signals, lifted back:
for merges that are not known to be lossless (GameShrink's, as ``benchmarks/gameshrink.py``
reconstructs it), whose lifted plans must be certified on the game.

The labels name a player's (private card, public cards in the order dealt); two hands with
the same label at the same betting share a sequence of the merged LP
(:func:`~seqform.structured.reductions.suit_reduction.reduce_lp`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import numpy as np

from seqform.game.public.numbering import PublicNumbering, number_public_tree
from seqform.game.public.tree import StructuredGame
from seqform.structured.lp_model import StructuredLP, build_structured_lp
from seqform.structured.reductions.ordered_isomorphism import dealt_paths
from seqform.structured.reductions.suit_classes import GameSize, HandClasses
from seqform.structured.reductions.suit_reduction import reduce_lp

__all__ = ["SignalClass", "SignalMergedLP", "merge_by_signals"]


SignalClass = Callable[[int, int, tuple[int, ...]], Hashable]
"""``(player, hand, public cards in the order dealt) -> label``: hands whose signals share a
label at the same betting are merged by :func:`merge_by_signals`."""


@dataclass(frozen=True)
class SignalMergedLP:
    """A game's structured LP with each player's (hand, public sequence) pairs merged by a
    :data:`SignalClass` (same label and same betting); :meth:`lift` gives the plans of the
    game.  Nothing here says the merge is lossless: certify the lifted plans on the game.

    classes : per player, each sequence's and information set's class
    size : the merged sequences and information sets (LP rows ``1 + infosets[0] +
        sequences[1]``)
    """

    lp: StructuredLP
    classes: tuple[HandClasses, HandClasses]
    size: GameSize

    def lift(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The merged LP's plans as plans of the game: each sequence its class's value."""
        return x[self.classes[0].sequences], y[self.classes[1].sequences]


def _signal_classes(
    numbering: PublicNumbering,
    dealt: dict[str, tuple[tuple[int, ...], tuple[str, ...]]],
    label: SignalClass,
    player: int,
) -> HandClasses:
    histories = numbering.node_histories[player]
    paths = [dealt[history] for history in histories]
    hands = numbering.sequence_index[player].shape[0]
    sequences = np.zeros(numbering.num_sequences(player), dtype=np.int64)
    names: dict[Hashable, int] = {(): 0}
    for public in range(1, numbering.num_public_sequences(player)):
        cards, actions = paths[int(numbering.sequence_node[player][public])]
        betting = (*actions, numbering.sequence_action[player][public])
        for hand in range(hands):
            index = int(numbering.sequence_index[player][hand, public])
            if index >= 0:
                name = (label(player, hand, cards), betting)
                sequences[index] = names.setdefault(name, len(names))
    infosets = np.zeros(numbering.num_infosets(player), dtype=np.int64)
    node_names: dict[Hashable, int] = {}
    for node, (cards, actions) in enumerate(paths):
        for hand in range(hands):
            index = int(numbering.infoset_index[player][hand, node])
            if index >= 0:
                name = (label(player, hand, cards), actions)
                infosets[index] = node_names.setdefault(name, len(node_names))
    return HandClasses(sequences, infosets, len(names), len(node_names))


def merge_by_signals(game: StructuredGame, label: SignalClass) -> SignalMergedLP:
    """The structured LP of ``game`` with the merge ``label`` (:class:`SignalMergedLP`).

    The merge must keep perfect recall: two hands merged at a node must have been merged
    at their previous node of the player (the LP's rows of one class are kept once).
    GameShrink's merges as ``benchmarks/gameshrink.py`` reconstructs them are of this kind.
    """
    numbering = number_public_tree(game)
    dealt = dealt_paths(game)
    classes = (
        _signal_classes(numbering, dealt, label, 0),
        _signal_classes(numbering, dealt, label, 1),
    )
    lp = reduce_lp(build_structured_lp(game), classes)
    size = GameSize(
        (classes[0].num_sequences, classes[1].num_sequences),
        (classes[0].num_infosets, classes[1].num_infosets),
    )
    return SignalMergedLP(lp, classes, size)
