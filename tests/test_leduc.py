"""Leduc hold'em: the same game as OpenSpiel's leduc_poker, node for node, and its value."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from openspiel_match import (
    behaviour,
    compare_with_openspiel,
    infosets,
    node_at,
    openspiel_uniform_value,
    openspiel_value,
    sizes,
)

from seqform.certify import expected_value
from seqform.game.builtin.leduc import leduc_poker, leduc_words
from seqform.game.builtin.registry import GAMES
from seqform.game.model import Game
from seqform.game.nodes import Chance, Terminal
from seqform.io.loader import load_game
from seqform.routes.solve import solve

LEDUC_VALUE = -0.085606424078  # Lanctot et al. (2017); OpenSpiel's sequence_form_lp_test.py
OPENSPIEL_ACTIONS = {"Fold": "f", "Call": "c", "Raise": "r"}  # leduc_poker's ActionToString


@pytest.fixture(scope="module")
def leduc() -> Game:
    return leduc_poker()


OPENSPIEL_GAMES = [
    pytest.param({}, "leduc_poker", id="suits-seen"),
    pytest.param(
        {"suit_isomorphism": True}, "leduc_poker(suit_isomorphism=true)", id="suits-hidden"
    ),
]


@pytest.mark.parametrize(("parameters", "spec"), OPENSPIEL_GAMES)
def test_same_game_as_openspiel(parameters, spec):
    pyspiel = pytest.importorskip("pyspiel")
    compare_with_openspiel(
        leduc_poker(**parameters), pyspiel.load_game(spec), OPENSPIEL_ACTIONS.__getitem__
    )


@pytest.mark.parametrize(
    ("parameters", "expected"),
    [
        # OpenSpiel 2.0.2, counted by walking leduc_poker: 5,520 terminal histories; 936
        # information states (kNumInfoStates in leduc_poker.h); 1,093 sequences per player
        # (len(infoset_actions_to_seq) of sequence_form_utils.construct_vars).
        pytest.param({}, (5520, (468, 468), (1093, 1093)), id="suits-seen"),
        # OpenSpiel 2.0.2, counted by walking leduc_poker(suit_isomorphism=true).
        pytest.param({"suit_isomorphism": True}, (1116, (144, 144), (337, 337)), id="suits-hidden"),
    ],
)
def test_sizes_match_openspiel(parameters, expected):
    assert sizes(leduc_poker(**parameters)) == expected


@pytest.mark.parametrize(("ranks", "suits"), [(2, 2), (4, 2), (3, 3), (5, 1)])
def test_sizes_follow_from_the_rules(ranks, suits):
    # Per deal: 4 folds in round 1, and for each of the 5 ways round 1 is called and each
    # public card, 4 folds and 5 showdowns.  A player holding one of C cards has 3
    # information sets in round 1 and 3 for each (round 1, public card) in round 2; each
    # player has 7 actions over the 3 information sets of a round.
    cards = ranks * suits
    deals = cards * (cards - 1)
    terminals = deals * (4 + 5 * (cards - 2) * 9)
    per_player = cards * 3 + cards * (cards - 1) * 5 * 3
    sequences = 1 + cards * 7 + cards * (cards - 1) * 5 * 7
    assert sizes(leduc_poker(ranks, suits)) == (
        terminals,
        (per_player, per_player),
        (sequences, sequences),
    )


def test_uniform_play_value_matches_openspiel(leduc):
    pyspiel = pytest.importorskip("pyspiel")
    uniform = behaviour(leduc, lambda actions: [1] * actions)
    ours = expected_value(leduc, *uniform)
    theirs = openspiel_uniform_value(pyspiel.load_game("leduc_poker"))
    assert ours == Fraction(-5, 64)  # exact; OpenSpiel's policy_value gives -0.078125
    assert float(ours) == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_behaviour_value_matches_openspiel(leduc, seed):
    pyspiel = pytest.importorskip("pyspiel")
    openspiel_game = pyspiel.load_game("leduc_poker")
    ours = compare_with_openspiel(leduc, openspiel_game, OPENSPIEL_ACTIONS.__getitem__)
    rng = random.Random(seed)
    strategies = behaviour(leduc, lambda actions: [rng.randint(0, 5) + 1 for _ in range(actions)])
    value = expected_value(leduc, *strategies)
    assert float(value) == pytest.approx(
        openspiel_value(openspiel_game, strategies, ours), abs=1e-12
    )


def test_information_set_names(leduc):
    table = infosets(leduc)
    assert table["Ks|"] == (0, 2)  # player 1 opens round 1: check or bet
    assert table["Qh|c"] == (1, 2)  # player 2 after a check
    assert table["Js|r"] == (1, 3)  # player 2 facing a bet: fold, call or raise
    assert table["Ks|cr"] == (0, 3)
    assert table["Ks|rr"] == (0, 2)  # two bets made: fold or call
    assert table["Ks|rc|Qh|"] == (0, 2)  # player 1 opens round 2 too
    assert table["Jh|crrc|Js|cr"] == (0, 3)
    assert table["Qs|cc|Ks|rr"] == (0, 2)
    assert "Ks|cc" not in table  # a second check ends the round


@pytest.mark.parametrize(
    ("infoset", "action", "words"),
    [
        ("Ks|", "c", "check"),
        ("Ks|", "r", "bet"),
        ("Qh|c", "r", "bet"),
        ("Qh|r", "f", "fold"),
        ("Qh|r", "c", "call"),
        ("Qh|r", "r", "raise"),
        ("Ks|rr|Qh|", "c", "check"),
        ("Ks|rr|Qh|cr", "c", "call"),
    ],
)
def test_actions_in_words(leduc, infoset, action, words):
    assert leduc.describe_action(infoset, action) == words
    assert leduc_words(infoset, action) == words


@pytest.mark.parametrize(
    ("history", "payoff"),
    [
        (("Ks", "Qs", "r", "f"), 1),  # a fold wins the other's ante
        (("Ks", "Qs", "c", "r", "f"), -1),
        (("Ks", "Qs", "c", "r", "r", "f"), 3),  # 1 + 2 from the bet
        (("Ks", "Qs", "r", "c", "Qh", "c", "c"), -3),  # Q pairs the public Q
        (("Ks", "Qs", "r", "r", "c", "Jh", "r", "c"), 9),  # 1 + 2 + 2 + 4, K high
        (("Ks", "Kh", "r", "r", "c", "Jh", "r", "r", "c"), 0),  # equal ranks split
        (("Js", "Qs", "r", "c", "Kh", "r", "r", "f"), -7),  # round 2 raise folded to
    ],
)
def test_payoffs(leduc, history, payoff):
    node = node_at(leduc, history)
    assert node == Terminal((Fraction(payoff), Fraction(-payoff)))


def test_deals_are_exact_and_uniform(leduc):
    assert isinstance(leduc.root, Chance)
    assert leduc.root.outcomes == ("Js", "Jh", "Qs", "Qh", "Ks", "Kh")  # OpenSpiel's order
    assert set(leduc.root.probabilities) == {Fraction(1, 6)}
    public = node_at(leduc, ("Ks", "Qs", "c", "c"))
    assert isinstance(public, Chance)
    assert public.outcomes == ("Js", "Jh", "Qh", "Kh")
    assert set(public.probabilities) == {Fraction(1, 4)}
    hidden = leduc_poker(suit_isomorphism=True)
    assert isinstance(hidden.root, Chance)
    assert hidden.root.probabilities == (Fraction(1, 3),) * 3
    after_pair = node_at(hidden, ("K", "K", "c", "c"))
    assert isinstance(after_pair, Chance)
    assert dict(zip(after_pair.outcomes, after_pair.probabilities, strict=True)) == {
        "J": Fraction(1, 2),
        "Q": Fraction(1, 2),
    }


def test_registered():
    assert GAMES["leduc"] is leduc_poker
    assert load_game("leduc").name == "leduc"
    assert load_game("leduc(ranks=4)").name == "leduc(ranks=4, suits=2)"
    assert load_game("leduc(suit_isomorphism=True)").name == "leduc(suit_isomorphism=True)"
    with pytest.raises(ValueError, match="ranks must be between 2 and 13, got 20"):
        load_game("leduc(ranks=20)")


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"ranks": 1}, "ranks must be between 2 and 13, got 1"),
        ({"ranks": 14}, "ranks must be between 2 and 13, got 14"),
        ({"ranks": 3.0}, "ranks must be an integer, got 3.0"),
        ({"ranks": True}, "ranks must be an integer"),
        ({"suits": 0}, "suits must be between 1 and 4, got 0"),
        ({"suits": 5}, "suits must be between 1 and 4"),
        ({"ranks": 2, "suits": 1}, "has 2 cards; two private cards and a public card need"),
        ({"suit_isomorphism": "yes"}, "suit_isomorphism must be True or False"),
    ],
)
def test_invalid_parameters(parameters, message):
    with pytest.raises(ValueError, match=message):
        leduc_poker(**parameters)


def test_value(leduc):
    solution = solve(leduc)
    assert solution.value == pytest.approx(LEDUC_VALUE, abs=1e-6)
    assert solution.nash_conv == pytest.approx(0, abs=1e-9)


def test_hiding_suits_keeps_the_value():
    assert solve(leduc_poker(suit_isomorphism=True)).value == pytest.approx(LEDUC_VALUE, abs=1e-6)
    seen, hidden = (solve(leduc_poker(4, 2, flag)).value for flag in (False, True))
    assert seen == pytest.approx(hidden, abs=1e-9)
