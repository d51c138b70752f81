"""Suit isomorphism on the structured route: canonical cards, the reduced LP's sizes, and
its lifted answer certified on the unreduced game."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from seqform.certify import is_certified
from seqform.documents.build import document
from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.game.public.suits import (
    canonical_board,
    setwise_stabilizer,
    symmetric_group,
)
from seqform.game.public.symmetry import game_symmetries
from seqform.game.public.tree import Hands
from seqform.io.documents import validate_document
from seqform.routes.solve import solve
from seqform.routes.structured import solve_structured
from seqform.routes.tree import solve_tree
from seqform.structured.lp_model import build_structured_lp
from seqform.structured.reductions.suit_reduction import reduce_by_suits

LEDUC_VALUE = -0.085606424078  # Lanctot et al. (2017); OpenSpiel's sequence_form_lp_test.py


def test_canonical_board_maps_each_orbit_to_one_board() -> None:
    group = symmetric_group(4)
    # Kh then Kd (cards 45, 46 with 4 suits): the first K goes to Ks (44), the second to the
    # smallest suit left free by the first, Kh (45)
    assert canonical_board(group, [45, 46]).cards == (44, 45)
    assert canonical_board(group, [47, 44]).cards == (44, 45)
    # Kd then 2d: the permutation taking d to s takes 2d (card 6) to 2s (card 4)
    assert canonical_board(group, [46, 6]).cards == (44, 4)
    assert canonical_board(group, [46, 7]).cards == (44, 5)  # 2c: the next free suit
    assert len(group.stabilizer([44]).orbit(45)) == 3  # the three other suits
    assert group.stabilizer([44, 45]).orbit(46) == (46, 47)


def test_setwise_stabilizer_of_a_flop() -> None:
    # hold'em numbering 4·rank + suit: 2c 2d 7h is fixed by swapping c and d only
    flop = [0, 1, 4 * 5 + 2]
    assert setwise_stabilizer(symmetric_group(4), flop).elements == ((0, 1, 2, 3), (1, 0, 2, 3))


def test_leduc_sizes_at_each_step() -> None:
    reduction = reduce_by_suits(leduc_structured(3, 2))
    assert reduction is not None and reduction.group_order == 2
    # a player's public sequences: 7 in round 1 (c, r | f, c, r after cr | f, c after rr)
    # and 5 round-one endings × 7 = 35 per public card; a hand sees the boards it does not
    # hold.  Game: 1 + 6 hands × (7 + 5 boards × 35) = 1,093 (the docstring of leduc.py).
    assert reduction.full.sequences == (1093, 1093)
    # canonical boards Js, Qs, Ks (one per rank): the three spade hands see 2, the others 3:
    # 1 + 6 × 7 + 35 × (3 × 2 + 3 × 3) = 568
    assert reduction.canonical_size.sequences == (568, 568)
    # hand classes: in round 1 the two suits of a rank are one class (3 × 7); after a
    # spade on board no permutation but the identity fixes it, so 15 × 35 stay: 547
    assert reduction.reduced.sequences == (547, 547)
    assert reduction.lp.shape[0] < build_structured_lp(leduc_structured(3, 2)).shape[0]


def test_reduced_value_is_the_unreduced_value_and_certified_on_the_game() -> None:
    game = leduc_structured(3, 2)
    reduced = solve_structured(game, ordered_isomorphism=False)
    full = solve_structured(game, suit_isomorphism=False)
    assert reduced.suit_reduction is not None and full.suit_reduction is None
    assert full.stats.constraints == build_structured_lp(game).shape[0]  # the old LP
    assert reduced.stats.constraints == reduced.suit_reduction.reduced_lp[0]
    assert reduced.value == pytest.approx(full.value, abs=1e-9)
    assert reduced.value == pytest.approx(LEDUC_VALUE, abs=1e-9)
    # the certificate is measured on the unreduced game, from the lifted strategies
    assert reduced.strategies[0].table.num_sequences == 1093
    assert is_certified(reduced.certificate)
    assert float(reduced.certificate.value) == pytest.approx(full.value, abs=1e-9)


def test_reduced_value_matches_the_tree_route() -> None:
    # 2 ranks × 2 suits: 1 + 4 × 7 + 35 × (1 + 2 + 1 + 2) = 239 sequences on canonical
    # boards, 2 × 7 + 6 × 35 + 1 = 225 in classes; the tree route solves the explicit tree
    reduced = solve_structured(leduc_structured(2, 2))
    assert reduced.suit_reduction is not None
    assert reduced.suit_reduction.canonical.sequences == (239, 239)
    assert reduced.suit_reduction.reduced.sequences == (225, 225)
    tree = solve_tree(leduc_poker(2, 2))
    assert reduced.value == pytest.approx(tree.value, abs=1e-9)
    assert is_certified(reduced.certificate)


def _weighted(game, weights: list[int]):  # type: ignore[no-untyped-def]
    hands = game.hands[0]
    changed = Hands(hands.labels, tuple(Fraction(w) for w in weights), hands.cards)
    return replace(game, hands=(changed, changed))


def test_asymmetric_hands_are_not_reduced() -> None:
    game = _weighted(leduc_structured(3, 2), [1, 2, 1, 1, 1, 1])  # Jh twice as likely as Js
    assert game_symmetries(game).group.trivial
    assert reduce_by_suits(game) is None
    assert solve_structured(game).suit_reduction is None
    assert reduce_by_suits(replace(leduc_structured(3, 2), suits=None)) is None


def test_a_partial_symmetry_keeps_its_subgroup() -> None:
    # 2 ranks × 3 suits, spades weighted 2: only the swap of hearts and diamonds remains
    game = _weighted(leduc_structured(2, 3), [2, 1, 1, 2, 1, 1])
    assert game_symmetries(game).group.elements == ((0, 1, 2), (0, 2, 1))
    reduced = solve_structured(game)
    full = solve_structured(game, suit_isomorphism=False)
    assert reduced.suit_reduction is not None and reduced.suit_reduction.group_order == 2
    assert reduced.value == pytest.approx(full.value, abs=1e-9)
    assert is_certified(reduced.certificate)


@pytest.mark.slow
def test_the_document_reports_the_steps() -> None:
    solution = solve("leduc(ranks=2, suits=2)", method="structured", ordered_isomorphism=False)
    written = document(solution)
    validate_document(written)
    steps = written["suit_isomorphism"]["steps"]
    assert [step["step"] for step in steps] == ["game", "canonical boards", "hand classes"]
    assert steps[2]["lp"]["rows"] == solution.stats.constraints
    off = document(solve("leduc(ranks=2, suits=2)", method="structured", suit_isomorphism=False))
    validate_document(off)
    assert off["suit_isomorphism"] is None
