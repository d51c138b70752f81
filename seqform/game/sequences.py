"""One player's information sets and sequences: the frozen label table and its builder.

The walk of :mod:`seqform.game.compiled` fills one :class:`SequenceTableBuilder` per
player and freezes it into a :class:`PlayerSequences`; see that module for the numbering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

__all__ = [
    "DEPTHS_KEPT_UP_TO",
    "EMPTY",
    "InfosetEntry",
    "PlayerSequences",
    "SequenceTableBuilder",
    "sequence_text",
]

EMPTY = 0  # index of the empty sequence

DEPTHS_KEPT_UP_TO = 1 << 20
"""Information sets up to which a table keeps its depths
(:meth:`PlayerSequences.infoset_depths`)."""


@dataclass(frozen=True)
class PlayerSequences:
    """The label table of one player's information sets and sequences.

    infosets : names of the player's information sets, in index order
    actions : per information set, its action labels
    parent_sequence : per information set, the sequence that leads to it
    first_sequence : per information set, the index of its first action's sequence
    sequence_infoset : per sequence, its information set index (-1 for the empty sequence)
    sequence_action : per sequence, its action label ("" for the empty sequence)

    ``infosets``, ``actions`` and ``sequence_action`` are tuples for a tree, and for a
    structured game read-only sequences that make each label when asked
    (:mod:`seqform.game.public.table_labels`): compare them with ``==``, never by identity,
    and count actions with :meth:`action_counts`.  The integer arrays are int64, or int32
    where a structured game's counts fit.
    """

    player: int
    infosets: Sequence[str]
    actions: Sequence[tuple[str, ...]]
    parent_sequence: np.ndarray
    first_sequence: np.ndarray
    sequence_infoset: np.ndarray
    sequence_action: Sequence[str]

    @property
    def num_sequences(self) -> int:
        return len(self.sequence_infoset)

    @property
    def num_infosets(self) -> int:
        return len(self.first_sequence)

    def sequences_of(self, infoset: int) -> range:
        """The sequence indices of the actions at information set ``infoset``."""
        first = int(self.first_sequence[infoset])
        return range(first, first + len(self.actions[infoset]))

    def label(self, sequence: int) -> str:
        """``"Kpb:b"`` for a sequence ending with action ``b`` at ``Kpb``; ``"∅"`` if empty."""
        infoset = int(self.sequence_infoset[sequence])
        if infoset < 0:
            return "∅"
        return f"{self.infosets[infoset]}:{self.sequence_action[sequence]}"

    def labels(self) -> list[str]:
        """The labels of all sequences in index order."""
        return [self.label(sequence) for sequence in range(self.num_sequences)]

    def index_of_infoset(self) -> Mapping[str, int]:
        """Map each information-set name to its index (built once, then O(1) per lookup)."""
        return self._infoset_index

    @cached_property
    def _infoset_index(self) -> Mapping[str, int]:
        # cached_property writes to the instance __dict__, which a frozen dataclass allows
        return MappingProxyType({name: index for index, name in enumerate(self.infosets)})

    def infoset_depths(self) -> np.ndarray:
        """Depth of each information set in the player's own information-set tree (roots
        0), read-only.  Kept with the table when it has at most :data:`DEPTHS_KEPT_UP_TO`
        information sets: an iterative run measures a certificate of the same small table
        thousands of times (a sixth of each on Leduc was this array), while a flop's table
        has tens of millions and its depths are made again rather than held."""
        kept: np.ndarray | None = self.__dict__.get("_depths")
        if kept is not None:
            return kept
        depth = np.zeros(self.num_infosets, dtype=np.int64)
        if self.num_infosets:
            parent_infoset = self.sequence_infoset[self.parent_sequence]  # -1 below the root
            has_parent = parent_infoset >= 0
            # Parents have smaller indices, so repeating "depth = depth(parent) + 1" settles
            # in as many rounds as the tree is deep.
            while True:
                updated = np.where(has_parent, depth[np.maximum(parent_infoset, 0)] + 1, 0)
                if np.array_equal(updated, depth):
                    break
                depth = updated
        depth.flags.writeable = False
        if self.num_infosets <= DEPTHS_KEPT_UP_TO:
            self.__dict__["_depths"] = depth  # as cached_property does: fields stay frozen
        return depth

    def action_counts(self) -> np.ndarray:
        """Number of actions per information set (counted from ``sequence_infoset``, so no
        label is built)."""
        return np.bincount(self.sequence_infoset[1:], minlength=self.num_infosets).astype(
            np.int64, copy=False
        )


class InfosetEntry(NamedTuple):
    """What the walk remembers of an information set the first time it meets it."""

    number: int  # the information set's index among its player's
    first_sequence: int  # the sequence of its first action
    parent_sequence: int  # the player's own sequence that leads to it
    actions: tuple[str, ...]
    first_node: int  # the node where the walk met it first (to name it in messages)


class SequenceTableBuilder:
    """Mutable accumulator of one player's information sets during the walk."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.index: dict[str, InfosetEntry] = {}
        self.infosets: list[str] = []
        self.actions: list[tuple[str, ...]] = []
        self.parent: list[int] = []
        self.first: list[int] = []
        self.sequence_infoset: list[int] = [-1]
        self.sequence_action: list[str] = [""]

    def add(self, name: str, actions: tuple[str, ...], own: int, node: int) -> int:
        """Number a new information set and its actions' sequences; return the first."""
        first_sequence = len(self.sequence_action)
        self.index[name] = InfosetEntry(len(self.infosets), first_sequence, own, actions, node)
        self.infosets.append(name)
        self.actions.append(actions)
        self.parent.append(own)
        self.first.append(first_sequence)
        self.sequence_infoset.extend([len(self.infosets) - 1] * len(actions))
        self.sequence_action.extend(actions)
        return first_sequence

    def freeze(self) -> PlayerSequences:
        return PlayerSequences(
            player=self.player,
            infosets=tuple(self.infosets),
            actions=tuple(self.actions),
            parent_sequence=np.asarray(self.parent, dtype=np.int64),
            first_sequence=np.asarray(self.first, dtype=np.int64),
            sequence_infoset=np.asarray(self.sequence_infoset, dtype=np.int64),
            sequence_action=tuple(self.sequence_action),
        )


def sequence_text(table: SequenceTableBuilder, sequence: int) -> str:
    """Name a sequence by its whole path of own choices, e.g. ``"X:a Y:b"``."""
    if sequence == EMPTY:
        return "the empty sequence"
    parts: list[str] = []
    while sequence != EMPTY:
        infoset = table.sequence_infoset[sequence]
        parts.append(f"{table.infosets[infoset]}:{table.sequence_action[sequence]}")
        sequence = table.parent[infoset]
    return " ".join(reversed(parts))
