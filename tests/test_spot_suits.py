"""Suit isomorphism on hold'em spots: the suit permutations a spot is proven invariant under
(board fixed as a set, both ranges weight for weight), and the LP solved on hand classes and
canonical river cards agreeing with the unreduced spot, certified on the unreduced spot."""

from __future__ import annotations

import pytest

from seqform.certify import is_certified
from seqform.game.public.symmetry import canonical_game, game_symmetries
from seqform.game.public.tree import PublicChance, PublicDecision, PublicNode, StructuredGame
from seqform.holdem.game import spot_game
from seqform.holdem.spot import spot_from_mapping
from seqform.routes.structured import solve_structured
from seqform.structured.reductions.suit_reduction import reduce_by_suits

IDENTITY = (0, 1, 2, 3)  # suits c d h s (seqform.holdem.cards)


def _spot(board: str, oop: str, ip: str, **extra: object) -> StructuredGame:
    mapping = {
        "board": board,
        "pot": 10,
        "effective_stack": 30,
        "oop_range": oop,
        "ip_range": ip,
        "bet_sizes": [0.5],
        "raise_sizes": [1],
        "max_raises": 1,
        **extra,
    }
    return spot_game(spot_from_mapping(mapping, "spot"))


def _elements(game: StructuredGame) -> set[tuple[int, ...]]:
    return set(game_symmetries(game).group.elements)


def test_a_spot_declares_its_suits_and_board() -> None:
    game = _spot("Ks9s7s4s2s", "AA", "QQ")
    assert game.suits == 4
    assert game.fixed_cards == (47, 31, 23, 11, 3)  # 4 · rank + suit, spades are suit 3


def test_a_monotone_river_merges_the_other_three_suits() -> None:
    # every permutation of c, d, h fixes a board of spades; both ranges are whole pairs
    elements = _elements(_spot("Ks9s7s4s2s", "AA,QQ", "KQ,JJ"))
    assert len(elements) == 6 and all(element[3] == 3 for element in elements)


def test_the_board_is_fixed_as_a_set_not_card_by_card() -> None:
    # KsKh7d7c2d: 2d fixes d, 7d and 7c then fix c; swapping h and s maps {Ks, Kh} onto
    # itself, so the board as a set stays (no single card of it does)
    assert _elements(_spot("KsKh7d7c2d", "AA,QQ", "JJ,T9")) == {IDENTITY, (0, 1, 3, 2)}
    # a rainbow board with no pair: each suit is pinned by a card of its own
    assert _elements(_spot("Ks7h2d9c4s", "AA,QQ", "JJ,T9")) == {IDENTITY}


def test_a_range_that_is_not_suit_symmetric_is_not_merged() -> None:
    # TexasSolver merges suits whatever the ranges (its issues 72, 86, 99): AsKs and AhKh at
    # different weights on a club board must keep every suit apart
    game = _spot("Tc8c6c4c2c", "AsKs,AhKh:0.5", "QQ")
    assert _elements(game) == {IDENTITY}
    assert reduce_by_suits(game) is None
    assert solve_structured(game).suit_reduction is None
    # AdKd at AhKh's weight: the swap of d and h is respected, and only it
    partial = _spot("Tc8c6c4c2c", "AsKs,AhKh:0.5,AdKd:0.5", "QQ")
    assert _elements(partial) == {IDENTITY, (0, 2, 1, 3)}


def test_the_reduced_river_agrees_with_the_unreduced_and_is_certified_on_it() -> None:
    game = _spot("Ks9s7s4s2s", "AA,AKs,QQ:0.5,JT,99", "KK:0.25,AQo,QJs,77")
    reduced = solve_structured(game)
    full = solve_structured(game, suit_isomorphism=False)
    assert reduced.suit_reduction is not None and full.suit_reduction is None
    assert reduced.suit_reduction.group_order == 6
    assert reduced.suit_reduction.reduced.sequences[0] < reduced.suit_reduction.full.sequences[0]
    # the certificate is the unreduced spot's: its tables, its best responses
    assert reduced.strategies[0].table.num_sequences == reduced.suit_reduction.full.sequences[0]
    assert is_certified(reduced.certificate) and is_certified(full.certificate)
    assert reduced.value == pytest.approx(full.value, abs=1e-8)
    assert float(reduced.certificate.value) == pytest.approx(
        float(full.certificate.value), abs=1e-8
    )


def _first_chance(node: PublicNode) -> PublicChance:
    while not isinstance(node, PublicChance):
        assert isinstance(node, PublicDecision)
        node = node.children[-1]  # the line that puts the chips in: it reaches the river
    return node


def test_a_turn_spot_merges_river_cards_by_the_boards_stabilizer() -> None:
    # all-in or check: the turn's last line deals the river to the showdown
    game = _spot("Ks9s7s4s", "AA", "QQ", effective_stack=5, bet_sizes=[1.0], raise_sizes=[])
    symmetries = game_symmetries(game)
    assert symmetries.group.order == 6
    river = _first_chance(canonical_game(game, symmetries).root)
    # 48 river cards: the 9 spades left are each fixed; the 39 others, one per rank of
    # 3 suits (c d h): 13 canonical cards standing for 3 each
    assert len(river.cards) == 9 + 13
    assert sorted(river.multiplicity or ()) == [1] * 9 + [3] * 13
    # the lifted answer is certified on the unreduced turn spot
    reduced = solve_structured(game)
    assert reduced.suit_reduction is not None
    assert is_certified(reduced.certificate)
