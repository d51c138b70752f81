"""The set-up before a run, built faster with the same arrays: each new construction is
compared with the straightforward one it replaced (``np.unique``, ...), on small games whose
structure is the same as a flop's."""

from __future__ import annotations

import numpy as np
import pytest

from seqform.game.builtin.registry import load_structured_game
from seqform.game.public.numbering import number_public_tree
from seqform.structured.reductions import suit_classes
from seqform.structured.reductions.suit_classes import canonical_boards, dense_ranks

SYMMETRIC = ["leduc(ranks=3, suits=2)", "leduc(ranks=4, suits=3)"]


@pytest.mark.parametrize(
    ("size", "bound", "low"),
    [(0, 4, 0), (1, 1, 0), (12, 3, -1), (1000, 50, 0), (1000, 50, -1), (5000, 10**5, -1)],
)
def test_dense_ranks_are_unique_s_inverse(size: int, bound: int, low: int) -> None:
    values = np.random.default_rng(size + bound).integers(low, bound, size)
    expected = np.unique(values, return_inverse=True)[1]
    for kind in (np.int32, np.int64):
        found = dense_ranks(values, bound, kind)
        assert found.dtype == kind
        assert np.array_equal(found, expected)


def _class_of_by_sorting(
    index: np.ndarray, representative: np.ndarray, size: int, skip: bool
) -> np.ndarray:
    """:func:`~seqform.structured.reductions.suit_classes.class_of` as it was first written:
    the classes as ``np.unique``'s inverse of each entry's representative's number."""
    target = index[representative, np.arange(index.shape[1])[None, :]]
    owner = np.full(size, -1, dtype=np.int64)
    mask = index >= 0
    if skip:
        mask[:, 0] = False
        owner[0] = 0
    owner[index[mask]] = target[mask]
    return np.unique(owner, return_inverse=True)[1]


@pytest.mark.parametrize("spec", SYMMETRIC)
def test_the_hand_classes_are_those_sorting_found(spec: str) -> None:
    boards = canonical_boards(load_structured_game(spec))
    assert boards is not None
    numbering = number_public_tree(boards.canonical)
    for player, classes in enumerate(boards.classes):
        for keys, index, size, skip, found in (
            (
                numbering.sequence_cards[player],
                numbering.sequence_index[player],
                numbering.num_sequences(player),
                True,
                classes.sequences,
            ),
            (
                numbering.node_cards[player],
                numbering.infoset_index[player],
                numbering.num_infosets(player),
                False,
                classes.infosets,
            ),
        ):
            representative = suit_classes._representatives(
                numbering, boards.symmetries, player, keys
            )
            expected = _class_of_by_sorting(index, representative, size, skip)
            assert np.array_equal(found, expected)
            assert int(found.max()) + 1 < len(found)  # some classes have several members
