"""A structured game's label tables, computed on demand from the numbering's arrays.

The sequence table of a structured game (:func:`seqform.game.public.numbering.player_sequences`)
names information set ``(h, k)`` ``labels[h] + history[k]``, gives it node ``k``'s actions,
and gives sequence ``(h, s)`` public sequence ``s``'s action label.  Held as one Python
object per information set and per sequence, those names cost far more than the game's
arrays (a string of ~60 bytes and a reference per entry: on Rhode Island hold'em, tens of
millions of them, gigabytes).  Here each table is a read-only
:class:`collections.abc.Sequence` over small integer arrays that builds the label asked for
in ``__getitem__``, so CFR, certification and lifting, which read only the arrays, never
make one.

Equality follows the tuple the table stands for: two tables are equal when their items
are (compared by their arrays when both are of this module and share the same names, else
item by item), and a table equals the tuple of its items.  The tables are not hashable,
as lists are not.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

__all__ = [
    "InfosetActions",
    "InfosetNames",
    "PickedLabels",
    "SequenceActions",
    "index_dtype",
    "narrow_index",
]


def index_dtype(bound: int) -> type[np.signedinteger[Any]]:
    """int32 when every index below ``bound`` fits in it, else int64.

    ``bound`` is one more than the largest value an array may hold (a count), so the
    choice depends on the game's size and not on the data.  int32 halves the grids and
    tables; numpy, scipy's sparse indices and the numba kernels take either.
    """
    return np.int32 if bound <= np.iinfo(np.int32).max else np.int64


def narrow_index(values: np.ndarray, bound: int) -> np.ndarray:
    """``values`` as :func:`index_dtype` of ``bound`` (no copy if already so)."""
    return np.asarray(values, dtype=index_dtype(bound))


class _LazyTable(Sequence[Any]):
    """A read-only sequence whose ``i``-th item is made by :meth:`_item` (module docstring)."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]

    def __len__(self) -> int:
        raise NotImplementedError

    def _item(self, index: int) -> Any:
        raise NotImplementedError

    def _same(self, other: _LazyTable) -> bool | None:
        """True/False when the arrays decide equality, ``None`` when items must be compared."""
        return None

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Any, ...]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return tuple(self._item(i) for i in range(*index.indices(len(self))))
        size = len(self)
        position = int(index)  # numpy integers too; TypeError for anything else
        if position < 0:
            position += size
        if not 0 <= position < size:
            raise IndexError(f"index {index} out of range for a table of {size}")
        return self._item(position)

    def __iter__(self) -> Iterator[Any]:
        for index in range(len(self)):
            yield self._item(index)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        if len(self) != len(other):
            return False
        if type(other) is type(self):
            decided = self._same(other)
            if decided is not None:
                return decided
        return all(a == b for a, b in zip(self, other, strict=True))

    def __repr__(self) -> str:
        shown = ", ".join(repr(self._item(i)) for i in range(min(3, len(self))))
        more = ", ..." if len(self) > 3 else ""
        return f"{type(self).__name__}([{shown}{more}], {len(self):,} items)"


class PickedLabels(_LazyTable):
    """Item ``i`` is ``labels[picked[i]]``: a table of some of another table's labels (the
    hand classes of canonical boards, named after their first members) without making
    them, where a flop has tens of millions."""

    __slots__ = ("labels", "picked")

    def __init__(self, labels: Sequence[Any], picked: np.ndarray) -> None:
        self.labels = labels
        self.picked = picked

    def __len__(self) -> int:
        return len(self.picked)

    def _item(self, index: int) -> Any:
        return self.labels[int(self.picked[index])]


class InfosetNames(_LazyTable):
    """Per information set ``i``, its name ``labels[hands[i]] + histories[nodes[i]]``."""

    __slots__ = ("hands", "histories", "labels", "nodes")

    def __init__(
        self,
        labels: Sequence[str],
        histories: Sequence[str],
        hands: np.ndarray,
        nodes: np.ndarray,
    ) -> None:
        self.labels = tuple(labels)
        self.histories = tuple(histories)
        self.hands = hands
        self.nodes = nodes

    def __len__(self) -> int:
        return len(self.hands)

    def _item(self, index: int) -> str:
        return self.labels[self.hands[index]] + self.histories[self.nodes[index]]

    def at_history(self, history: str) -> list[int | None] | None:
        """Per label (hand), the index of the information set named ``label + history``, None
        where there is none; found from the public node, without making the names (a turn
        has millions).  None when a name might split another way (a label with a ``"|"`` or
        a history without one first): then only the names themselves can say."""
        if not history.startswith("|") or any("|" in label for label in self.labels):
            return None
        if not all(node.startswith("|") for node in self.histories):
            return None
        found: list[int | None] = [None] * len(self.labels)
        for node in (j for j, name in enumerate(self.histories) if name == history):
            positions = np.flatnonzero(self.nodes == node)
            for hand, position in zip(
                self.hands[positions].tolist(), positions.tolist(), strict=True
            ):
                found[hand] = position
        return found

    def __iter__(self) -> Iterator[str]:
        # the arrays read once as Python ints: numpy's scalar indexing per item is slow
        labels, histories = self.labels, self.histories
        for hand, node in zip(self.hands.tolist(), self.nodes.tolist(), strict=True):
            yield labels[hand] + histories[node]

    def _same(self, other: _LazyTable) -> bool | None:
        assert isinstance(other, InfosetNames)
        if self.labels != other.labels or self.histories != other.histories:
            return None
        if np.array_equal(self.hands, other.hands) and np.array_equal(self.nodes, other.nodes):
            return True
        return None


class InfosetActions(_LazyTable):
    """Per information set ``i``, the action labels of its public node ``nodes[i]``."""

    __slots__ = ("node_actions", "nodes")

    def __init__(self, node_actions: Sequence[tuple[str, ...]], nodes: np.ndarray) -> None:
        self.node_actions = tuple(node_actions)
        self.nodes = nodes

    def __len__(self) -> int:
        return len(self.nodes)

    def _item(self, index: int) -> tuple[str, ...]:
        return self.node_actions[self.nodes[index]]

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        node_actions = self.node_actions
        for node in self.nodes.tolist():
            yield node_actions[node]

    def _same(self, other: _LazyTable) -> bool | None:
        assert isinstance(other, InfosetActions)
        if self.node_actions == other.node_actions and np.array_equal(self.nodes, other.nodes):
            return True
        return None


class SequenceActions(_LazyTable):
    """Per game sequence ``j``, the action label of its public sequence (``""`` for 0).

    Sequence ``j >= 1`` is action ``j − first[i]`` of information set
    ``i = sequence_infoset[j]``, whose public node's first sequence is ``node_first[nodes[i]]``:
    no array per sequence beyond the table's own ``sequence_infoset``.
    """

    __slots__ = ("first", "node_first", "nodes", "public_action", "sequence_infoset")

    def __init__(
        self,
        public_action: Sequence[str],
        node_first: np.ndarray,
        nodes: np.ndarray,
        first: np.ndarray,
        sequence_infoset: np.ndarray,
    ) -> None:
        self.public_action = tuple(public_action)
        self.node_first = node_first
        self.nodes = nodes
        self.first = first
        self.sequence_infoset = sequence_infoset

    def __len__(self) -> int:
        return len(self.sequence_infoset)

    def _item(self, index: int) -> str:
        infoset = int(self.sequence_infoset[index])
        if infoset < 0:
            return ""
        offset = index - int(self.first[infoset])
        return self.public_action[int(self.node_first[self.nodes[infoset]]) + offset]

    def _same(self, other: _LazyTable) -> bool | None:
        assert isinstance(other, SequenceActions)
        if self.public_action != other.public_action:
            return None
        pairs = (
            (self.node_first, other.node_first),
            (self.nodes, other.nodes),
            (self.first, other.first),
            (self.sequence_infoset, other.sequence_infoset),
        )
        if all(np.array_equal(a, b) for a, b in pairs):
            return True
        return None
