"""The structured label tables computed on demand equal the tables spelled out in full."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.game.public.numbering import number_public_tree, player_sequences
from seqform.game.public.table_labels import (
    InfosetActions,
    InfosetNames,
    SequenceActions,
    index_dtype,
)
from seqform.game.public.tree import StructuredGame

GAMES = {
    "leduc": lambda: leduc_structured(3, 2),
    "rhode-island-3x2": lambda: rhode_island_structured(ranks=3, suits=2),
}


def _eager(game: StructuredGame, player: int) -> tuple[tuple, tuple, tuple]:
    """The three label tables by plain loops over the numbering's grids (the module
    docstring of :mod:`seqform.game.public.numbering`): hand-major, row by row."""
    numbering = number_public_tree(game)
    labels = game.hands[player].labels
    infosets, actions, sequence_action = [], [], [""]
    infoset_index = numbering.infoset_index[player]
    sequence_index = numbering.sequence_index[player]
    for hand in range(infoset_index.shape[0]):
        for node in range(infoset_index.shape[1]):
            if infoset_index[hand, node] >= 0:
                infosets.append(labels[hand] + numbering.node_histories[player][node])
                actions.append(numbering.node_actions[player][node])
        for public in range(1, sequence_index.shape[1]):
            if sequence_index[hand, public] > 0:
                sequence_action.append(numbering.sequence_action[player][public])
    return tuple(infosets), tuple(actions), tuple(sequence_action)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("player", [0, 1])
def test_every_label_equals_the_eager_table(name: str, player: int) -> None:
    game = GAMES[name]()
    table = player_sequences(game, player)
    infosets, actions, sequence_action = _eager(game, player)
    assert list(table.infosets) == list(infosets)
    assert list(table.actions) == list(actions)
    assert list(table.sequence_action) == list(sequence_action)
    assert [table.infosets[i] for i in range(len(infosets))] == list(infosets)
    assert [table.sequence_action[j] for j in range(len(sequence_action))] == list(sequence_action)
    # the tables compare equal to the tuples they stand for, both ways round
    assert table.infosets == infosets and infosets == table.infosets
    assert table.actions == actions and table.sequence_action == sequence_action
    assert table.infosets != (*infosets[:-1], "other")
    assert (table.action_counts() == [len(a) for a in actions]).all()


def test_the_tables_make_no_label_until_asked() -> None:
    table = player_sequences(leduc_structured(3, 2), 0)
    assert isinstance(table.infosets, InfosetNames)
    assert isinstance(table.actions, InfosetActions)
    assert isinstance(table.sequence_action, SequenceActions)


def test_a_table_reads_like_a_tuple() -> None:
    game = leduc_structured(3, 2)
    table = player_sequences(game, 1)
    names = tuple(table.infosets)
    assert table.infosets[-1] == names[-1]
    assert table.infosets[np.int64(2)] == names[2]
    assert table.infosets[1:7:2] == names[1:7:2]
    assert names[3] in table.infosets and table.infosets.index(names[3]) == 3
    assert table.sequence_action[0] == ""
    with pytest.raises(IndexError):
        table.infosets[len(names)]
    with pytest.raises(TypeError):
        hash(table.infosets)
    # a second build of the same game: equal by the arrays, and equal after a round trip
    again = player_sequences(game, 1)
    assert again.infosets == table.infosets and again.sequence_action == table.sequence_action
    copied = pickle.loads(pickle.dumps(table))
    assert copied.infosets == table.infosets and copied.actions == table.actions
    assert table.index_of_infoset()[names[5]] == 5


def test_the_grids_are_int32_where_the_counts_fit() -> None:
    numbering = number_public_tree(leduc_structured(3, 2))
    table = player_sequences(leduc_structured(3, 2), 0)
    for player in (0, 1):
        assert numbering.sequence_index[player].dtype == np.int32
        assert numbering.infoset_index[player].dtype == np.int32
    for array in (table.parent_sequence, table.first_sequence, table.sequence_infoset):
        assert array.dtype == np.int32
    assert index_dtype(2**31 - 1) == np.int32
    assert index_dtype(2**31) == np.int64


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("block", [1, 4, None])  # a hand a block, 4 + 2 hands, one block
def test_each_sequence_s_information_set_is_read_alike_in_any_block(
    name: str, block: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from seqform.game.public import numbering as module

    game = GAMES[name]()
    if block is not None:
        monkeypatch.setattr(
            module,
            "TABLE_BLOCK",
            block * module.number_public_tree(game).sequence_index[0].shape[1],
        )
    for player in (0, 1):
        grids = number_public_tree(game)
        sequence_index = grids.sequence_index[player]
        expected = np.full(grids.num_sequences(player), -1)
        for hand in range(sequence_index.shape[0]):  # plain loops, hand by hand
            for public in range(1, sequence_index.shape[1]):
                if sequence_index[hand, public] > 0:
                    node = grids.sequence_node[player][public]
                    expected[sequence_index[hand, public]] = grids.infoset_index[player][hand, node]
        table = player_sequences(game, player)
        assert np.array_equal(table.sequence_infoset, expected)
