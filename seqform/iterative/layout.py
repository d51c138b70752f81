"""The compiled tree rearranged once for counterfactual regret minimisation.

CFR (Zinkevich et al. 2007) needs, per player and iteration, sums over the player's own
information-set tree (:mod:`seqform.iterative.passes`).  This module numbers each player's
sequences so that those sums are a few slices per depth.

Internal order
--------------
Each player's sequences are renumbered so that the information sets of one depth of the
player's own information-set tree, and their sequences, are contiguous slices (index 0
stays the empty sequence).  A level-by-level pass is then one slice per depth: the
number of numpy calls per iteration is proportional to the depth, and the work and the
memory to the size of the tree.  :func:`to_table_order` maps an internal array back to
the sequence indices of :class:`~seqform.game.compiled.PlayerSequences`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from seqform.forms.strategies import infoset_depths
from seqform.game.model import Game
from seqform.game.sequences import PlayerSequences

__all__ = [
    "CHUNK",
    "Level",
    "PlayerLayout",
    "TreeLayout",
    "build_layout",
    "sequence_layout",
    "to_table_order",
]


@dataclass(frozen=True)
class Level:
    """One depth of a player's information-set tree, in internal indices.

    sequences : the slice of internal sequence positions at this depth
    infosets : the slice of internal information-set indices at this depth
    actions : the number of actions of each of these information sets when they all have
        the same number (Kuhn poker: 2), else 0; then a per-infoset sum is ``actions``
        strided additions (:func:`~seqform.iterative.passes.infoset_sums`), several times
        faster than ``reduceat`` over many short segments
    """

    sequences: slice
    infosets: slice
    actions: int = 0


@dataclass(frozen=True, eq=False)
class PlayerLayout:
    """One player's sequences in internal order (see the module docstring).

    table : the player's label table, in the compiled tree's numbering
    order : per internal position, the table's sequence index (``order[0] == 0``)
    sequence_parent : per internal position, the parent sequence of its information set
        (0 at 0), so that ``x[s] = x[sequence_parent[s]] * b[s]``
    infoset_parent : per internal information set, its parent sequence (internal)
    infoset_first : per internal information set, its first sequence (internal)
    action_count : per internal position, the number of actions of its information set, in
        the narrowest unsigned type that holds them (uint8 below 256 actions)
    levels : the depths of the information-set tree, shallowest first
    terminal_sequence : per terminal of the tree, the player's internal sequence there
    terminal_utility : per terminal, chance probability times the player's payoff

    :attr:`sequence_infoset` (per internal position, its internal information set) and
    :attr:`level_starts` are built on first read and kept: the numpy passes read them, the
    compiled kernels and the certificate on hand classes do not (on a flop they are 4 and
    about 2 bytes a sequence, 0.5 and 0.25 GB).
    """

    table: PlayerSequences
    order: np.ndarray
    sequence_parent: np.ndarray
    infoset_parent: np.ndarray
    infoset_first: np.ndarray
    action_count: np.ndarray
    levels: tuple[Level, ...]
    terminal_sequence: np.ndarray
    terminal_utility: np.ndarray

    @property
    def num_sequences(self) -> int:
        return len(self.order)

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_first)

    @cached_property
    def level_starts(self) -> tuple[np.ndarray, ...]:
        """Per level, the first sequence of each of its information sets relative to
        ``level.sequences.start`` (the offsets ``np.add.reduceat`` needs); built on first
        read (the class docstring), then kept."""
        first = self.infoset_first
        return tuple(first[level.infosets] - level.sequences.start for level in self.levels)

    @cached_property
    def sequence_infoset(self) -> np.ndarray:
        """Per internal position, its internal information set (-1 at 0), in the index
        arrays' integer type; built on first read (the class docstring), then kept
        (``cached_property`` writes the instance's ``__dict__``, which a frozen dataclass
        allows)."""
        index = self.infoset_first.dtype
        counts = np.diff(self.infoset_first, append=np.asarray(self.num_sequences, index))
        return np.repeat(
            np.arange(-1, self.num_infosets, dtype=index),
            np.concatenate([np.ones(1, dtype=index), counts]),
        )


@dataclass(frozen=True, eq=False)
class TreeLayout:
    """Every player's layout of one game, computed once by :func:`build_layout`."""

    players: tuple[PlayerLayout, ...]


def build_layout(game: Game) -> TreeLayout:
    """Renumber every player's sequences by depth and attach the terminals' data
    (the utility of player ``i`` is chance times ``i``'s own payoff, so general-sum and
    n-player games need nothing else)."""
    flat = game.flat
    return TreeLayout(
        players=tuple(
            _player_layout(
                flat.tables[player],
                flat.terminal_sequences[player],
                flat.terminal_reach * flat.terminal_payoffs[player],
            )
            for player in range(flat.num_players)
        )
    )


def _infoset_order(depth: np.ndarray, within_depth: np.ndarray | None) -> np.ndarray:
    """Internal information set -> table information set: by depth, then by the key, then
    as the table numbers them."""
    if within_depth is None:
        return np.argsort(depth, kind="stable")
    return np.lexsort((within_depth, depth))


CHUNK = 1 << 22
"""Sequences per slice where a per-sequence index is computed piecewise: the temporaries of
one slice (a few tens of MB) instead of arrays as long as the table (on a flop, gigabytes)."""


def _player_layout(
    table: PlayerSequences,
    terminal_sequences: np.ndarray,
    utility: np.ndarray,
    within_depth: np.ndarray | None = None,
    index: type[np.signedinteger] = np.int64,
) -> PlayerLayout:
    """The layout of ``table`` with its index arrays in ``index`` (int32 where every index
    fits), built without a per-sequence temporary longer than :data:`CHUNK`."""
    counts = table.action_counts()
    depth = infoset_depths(table)
    infoset_order = _infoset_order(depth, within_depth)
    sorted_depth = depth[infoset_order]
    del depth
    internal_counts = counts[infoset_order].astype(index)
    infoset_first = np.ones(table.num_infosets, dtype=index)
    infoset_first[1:] += np.cumsum(internal_counts, dtype=index)[:-1]
    position, order = _positions(table, infoset_order, infoset_first)
    infoset_parent = position[table.parent_sequence[infoset_order]]
    sequence_parent = np.zeros(table.num_sequences, dtype=index)
    action_count = np.ones(table.num_sequences, dtype=_count_type(internal_counts))
    step = max(1, CHUNK // 4)  # information sets: each has a few sequences side by side
    for low in range(0, table.num_infosets, step):
        high = min(low + step, table.num_infosets)
        start = int(infoset_first[low])
        stop = start + int(internal_counts[low:high].sum())
        repeats = internal_counts[low:high]
        sequence_parent[start:stop] = np.repeat(infoset_parent[low:high], repeats)
        action_count[start:stop] = np.repeat(internal_counts[low:high], repeats)

    levels = _levels(sorted_depth, infoset_first, internal_counts)
    return PlayerLayout(
        table=table,
        order=order,
        sequence_parent=sequence_parent,
        infoset_parent=infoset_parent,
        infoset_first=infoset_first,
        action_count=action_count,
        levels=levels,
        terminal_sequence=position[terminal_sequences].astype(np.int64),
        terminal_utility=utility,
    )


def _count_type(counts: np.ndarray) -> np.dtype:
    """The narrowest unsigned type that holds every action count (uint8 below 256 actions
    an information set: on a flop ``action_count`` is then 1 byte a sequence, not 4)."""
    return np.min_scalar_type(int(counts.max(initial=1)))


def _positions(
    table: PlayerSequences, infoset_order: np.ndarray, infoset_first: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per table sequence its internal position, and its inverse ``order``, in
    ``infoset_first``'s integer type: the empty sequence stays at 0, the actions of each
    information set follow its internal first position in action order.  A table
    information set's sequences are contiguous, so each shifts by one number per set."""
    index = infoset_first.dtype
    rank = np.empty(table.num_infosets, dtype=index)
    rank[infoset_order] = np.arange(table.num_infosets, dtype=index)
    shift = infoset_first[rank] - table.first_sequence.astype(index)
    del rank
    position = np.zeros(table.num_sequences, dtype=index)
    order = np.zeros(table.num_sequences, dtype=index)
    for low in range(1, table.num_sequences, CHUNK):
        high = min(low + CHUNK, table.num_sequences)
        part = position[low:high]
        np.take(shift, table.sequence_infoset[low:high], out=part, mode="clip")
        part += np.arange(low, high, dtype=index)
        order[part] = np.arange(low, high, dtype=index)
    return position, order


def _levels(
    sorted_depth: np.ndarray, infoset_first: np.ndarray, internal_counts: np.ndarray
) -> tuple[Level, ...]:
    """The :class:`Level` of each depth, from the internal information sets' depths."""
    levels = []
    for level in range(int(sorted_depth.max()) + 1 if len(sorted_depth) else 0):
        low, high = np.searchsorted(sorted_depth, [level, level + 1])
        first = int(infoset_first[low])
        last = int(infoset_first[high - 1] + internal_counts[high - 1])
        level_counts = np.unique(internal_counts[low:high])
        levels.append(
            Level(
                sequences=slice(first, last),
                infosets=slice(int(low), int(high)),
                actions=int(level_counts[0]) if len(level_counts) == 1 else 0,
            )
        )
    return tuple(levels)


def sequence_layout(table: PlayerSequences, within_depth: np.ndarray | None = None) -> PlayerLayout:
    """A player's layout from the sequence table alone, without terminals: for the
    structured route, whose sequence payoffs come from products
    (:func:`sequence_counterfactual_values`).  ``within_depth``: per table information set,
    a key that orders the information sets of one depth (stable; by default the table's
    order) — the public node, say, so that one node's hands sit side by side.  The index
    arrays are int32 where every index fits: a public tree × hands game has tens of millions
    of sequences (a flop: 221 million), and these arrays are most of what vector CFR keeps
    beside its own state."""
    index = np.int32 if table.num_sequences < 2**31 else np.int64
    return _player_layout(table, np.zeros(0, dtype=np.int64), np.zeros(0), within_depth, index)


def to_table_order(
    layout: PlayerLayout, values: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """An array on internal positions, rearranged onto the table's sequence indices (into
    ``out`` when given)."""
    result = np.empty_like(values) if out is None else out
    result[layout.order] = values
    return result
