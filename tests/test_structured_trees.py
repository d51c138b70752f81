"""Structured games (public tree × private hands): the trees generated from the description
equal the hand-written trees node for node, and the numbering without the tree gives the
compiled tree's sequence tables (by label)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from reference_trees import liars_dice_tree, one_card_tree
from structured_helpers import SMALL

from seqform.game.builtin.kuhn import kuhn_betting, kuhn_poker
from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.game.builtin.leduc_tree import leduc_tree
from seqform.game.builtin.liars_dice import liars_dice, liars_dice_structured
from seqform.game.errors import InvalidGameError
from seqform.game.public.explicit import explicit_game, tree_nodes
from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import (
    Constant,
    Hands,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    Sign,
    StructuredGame,
)
from seqform.structured.responses import sequence_tables

# Node objects are frozen dataclasses, so == compares the whole trees: structure, players,
# information-set names, actions, chance labels, outcomes and exact probabilities, payoffs.


@pytest.mark.parametrize("cards", [3, 4, 5, 6])
def test_kuhn_tree_is_the_showdown_tree(cards):
    generated, reference = kuhn_poker(cards), one_card_tree(kuhn_betting(cards))
    assert generated.root == reference.root
    assert (generated.name, generated.description) == (reference.name, reference.description)


LEDUC_SIZES = [(r, s) for r in (2, 3, 4) for s in (1, 2, 3) if r * s >= 3]


@pytest.mark.parametrize(("ranks", "suits"), LEDUC_SIZES, ids=[f"{r}x{s}" for r, s in LEDUC_SIZES])
def test_leduc_tree_is_the_hand_written_tree(ranks, suits):
    assert leduc_poker(ranks, suits).root == leduc_tree(ranks, suits)


# (2, 2) is the case of several dice: a count of face f or the wild face over only the
# first die fails it (checked); (3, 2) built two trees of 24,571 sequences for seconds and
# no rule that the one-die cases with three to five faces and (2, 2) do not cover
LIARS_DICE_SIZES = [(2, 1), (3, 1), (4, 1), (5, 1), (2, 2)]


@pytest.mark.parametrize(
    ("sides", "dice"), LIARS_DICE_SIZES, ids=[f"{s}-sides-{d}-dice" for s, d in LIARS_DICE_SIZES]
)
def test_liars_dice_tree_is_the_hand_written_tree(sides, dice):
    assert liars_dice(sides, dice).root == liars_dice_tree(sides, dice)


def test_leduc_with_hidden_suits_stays_hand_written():
    assert leduc_poker(suit_isomorphism=True).root == leduc_tree(3, 2, True)


@pytest.mark.parametrize("name", list(SMALL))
def test_sequence_tables_are_the_trees(name):
    game = SMALL[name]()
    tree = explicit_game(game)
    for player, table in enumerate(sequence_tables(game)):
        compiled = tree.flat.tables[player]
        assert sorted(table.labels()) == sorted(compiled.labels())
        assert sorted(table.infosets) == sorted(compiled.infosets)
        # Each information set has the same actions and is reached by the same sequence.
        ours = {name: i for i, name in enumerate(table.infosets)}
        for index, name in enumerate(compiled.infosets):
            mine = ours[name]
            assert table.actions[mine] == compiled.actions[index]
            assert table.label(int(table.parent_sequence[mine])) == compiled.label(
                int(compiled.parent_sequence[index])
            )
            assert table.label(int(table.first_sequence[mine])) == compiled.label(
                int(compiled.first_sequence[index])
            )


def test_big_leduc_is_numbered_without_the_tree():
    # 93,185 sequences per player for leduc(ranks=13, suits=4), counted by the tree route on
    # the built tree; here no tree (9.98 M nodes) is built.
    game = leduc_structured(13, 4)
    numbering = number_public_tree(game)
    assert numbering.num_sequences(0) == numbering.num_sequences(1) == 93_185
    assert tree_nodes(game) > 9_000_000
    first, second = sequence_tables(game)
    assert first.num_sequences == second.num_sequences == 93_185
    assert first.infosets[0] == "2s|"


@pytest.mark.parametrize(
    ("sides", "sequences"),
    # OpenSpiel's counts, as tests/test_liars_dice.py records them (one die each).
    [(2, 31), (3, 190), (4, 1021), (5, 5116), (6, 24571)],
)
def test_liars_dice_sequence_counts(sides, sequences):
    tables = sequence_tables(liars_dice_structured(sides))
    assert [t.num_sequences for t in tables] == [sequences, sequences]


def test_leduc_levels_make_pairs_beat_high_cards():
    game = leduc_structured(3, 2)
    numbering = number_public_tree(game)
    levels = next(lv for lv in numbering.leaf_levels if lv is not None)
    assert levels[0] is levels[1]  # shared, never copied per leaf
    assert levels[0].max() >= 3  # some card pairs with the public card: rank + ranks


def _hands(size: int) -> Hands:
    return Hands(tuple(str(h) for h in range(size)), (Fraction(1),) * size, np.arange(size))


def _game(root) -> StructuredGame:
    return StructuredGame("toy", (_hands(3), _hands(3)), Fraction(1, 6), root, lambda g, s: s(0, 1))


def test_malformed_public_trees_are_named():
    leaf = PublicLeaf(Constant(Fraction(1)))
    with pytest.raises(InvalidGameError, match="toy: public history 'x': repeated action"):
        number_public_tree(_game(PublicDecision(0, ("a", "a"), (leaf, leaf), "x")))
    with pytest.raises(InvalidGameError, match="needs levels"):
        number_public_tree(_game(PublicDecision(0, ("a",), (PublicLeaf(Sign(Fraction(1))),), "")))
    with pytest.raises(InvalidGameError, match="player 2 acts; the players are 0 and 1"):
        number_public_tree(_game(PublicDecision(2, ("a",), (leaf,), "")))
    chance = PublicChance("card", ("A", "B"), (0,), Fraction(1, 2), (leaf, leaf))
    with pytest.raises(InvalidGameError, match="a card and a child per outcome"):
        number_public_tree(_game(chance))
    with pytest.raises(InvalidGameError, match="a card is held by two hands"):
        bad = Hands(("a", "b"), (Fraction(1), Fraction(1)), np.array([0, 0]))
        StructuredGame("toy", (bad, bad), Fraction(1), leaf, lambda g, s: s(0, 1))


def test_tree_refused_when_too_large():
    with pytest.raises(ValueError, match="--method structured, which never builds"):
        explicit_game(leduc_structured(13, 4), max_nodes=1_000_000)
