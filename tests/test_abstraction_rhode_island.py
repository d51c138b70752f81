"""Card abstraction on Rhode Island Hold'em (seqform.abstraction): three rounds of buckets,
each refining the last; hand strength of three-card hands; the lossless abstraction is the
LP's answer, and a coarse one is measured in the full game as the tree measures it."""

from __future__ import annotations

import numpy as np
import pytest

from seqform.abstraction.buckets import card_abstraction
from seqform.abstraction.features import final_boards, hand_features
from seqform.abstraction.rounds import CardBucketsError, game_rounds, parse_card_buckets
from seqform.abstraction.solve import abstract
from seqform.certify import certify as tree_certify
from seqform.game.builtin.rhode_island import rhode_island, rhode_island_structured
from seqform.routes.structured import solve_structured


@pytest.fixture(scope="module")
def four_cards():
    # J Q K A of one suit: every three-card hand is a flush, and J-Q-K, Q-K-A straight flushes
    return rhode_island_structured(ranks=4, suits=1)


def test_rhode_island_has_three_rounds(four_cards):
    assert game_rounds(four_cards).lengths == (0, 1, 2)
    assert parse_card_buckets("2,3,4", four_cards) == (2, 3, 4)
    with pytest.raises(CardBucketsError, match=r"3 betting round.*e\.g\. 3,4,4$"):
        parse_card_buckets("2,4", four_cards)  # the example is one the 4-card deck takes
    assert parse_card_buckets("3,4,4", four_cards) == (3, 4, 4)


def test_round_one_hand_strength_ranks_three_card_hands(four_cards):
    # By hand, from the rules (module docstring of seqform.game.builtin.rhode_island): the
    # three boards of the other cards are equally likely and the opponent holds the last.
    # J loses to every board's straight flush or higher flush; Q wins on J-K (Q-J-K straight
    # flush) and K-A (Q-K-A), loses on J-A (K-J-A beats Q-J-A); K wins all three; A wins only
    # on Q-K (A-Q-K over J-Q-K).  E[HS] of J, Q, K, A: 0, 2/3, 1, 1/3.
    labels = four_cards.hands[0].labels
    assert [label[0] for label in labels] == ["J", "Q", "K", "A"]
    features = hand_features(final_boards(four_cards), 0, (), "ehs")
    assert features[:, 0] == pytest.approx([0, 2 / 3, 1, 1 / 3], abs=1e-12)


@pytest.mark.parametrize("features", ["ehs", "ehs2", "histogram"])
def test_each_rounds_buckets_split_the_previous_rounds(features):
    game = rhode_island_structured(ranks=3, suits=2)
    abstraction = card_abstraction(game, (2, 3, 4), features)
    rounds = abstraction.rounds
    for player in (0, 1):
        for round_index, holders in ((1, 1), (2, 2)):
            for path in rounds.paths(player, round_index):
                later = abstraction.buckets[player][path]
                earlier = abstraction.buckets[player][rounds.parent(path)]
                assert (later >= 0).sum() == game.num_hands(player) - holders  # public cards
                for bucket in range(later.max() + 1):
                    assert len(set(earlier[later == bucket].tolist())) == 1
        assert abstraction.largest(player, 2) == 4


@pytest.mark.slow  # two abstract LPs and the full LP: about 3 s
def test_lossless_buckets_give_the_lps_answer(four_cards):
    full = solve_structured(four_cards)  # the full structured LP: the reference
    result = abstract(four_cards, "4,4,4")
    assert result.value == pytest.approx(full.value, abs=1e-9)
    assert result.abstract.tables[0].num_sequences == full.strategies[0].table.num_sequences
    assert result.exploitability == pytest.approx(full.certificate.exploitability, abs=1e-9)
    assert result.abstract_exploitability == pytest.approx(0, abs=1e-9)


@pytest.mark.slow  # an abstract LP and the explicit tree's best responses: about 2 s
def test_one_bucket_is_measured_as_the_tree_measures_it(four_cards):
    result = abstract(four_cards, "1,1,1")
    tree = rhode_island(ranks=4, suits=1)  # the explicit tree, its information sets named alike
    by_name = [strategy.as_dict() for strategy in result.strategies]
    independent = tree_certify(tree, by_name[0], by_name[1])
    assert result.nash_conv == pytest.approx(float(independent.nash_conv), abs=1e-9)
    assert result.exploitability > 1  # no card seen: far from the game's equilibrium
    assert result.abstract_exploitability == pytest.approx(0, abs=1e-9)
    assert np.isfinite(result.value)
