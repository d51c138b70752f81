"""Best responses and the certificate: the flat (numpy) path against the node walk."""

from fractions import Fraction

import numpy as np
import pytest
from gametrees import games, random_behaviour
from hypothesis import given, settings

from seqform.certify import (
    best_response,
    certify,
    certify_by_walk,
    flat_best_response,
    flat_expected_value,
)
from seqform.forms.strategies import plan_from_behaviour
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Terminal


@settings(max_examples=80, deadline=None)
@given(game=games)
def test_flat_certificate_equals_walk(game):
    tables = game.flat.tables
    b0, b1 = random_behaviour(tables[0], 3), random_behaviour(tables[1], 4)
    flat = certify(game, b0, b1)
    walked = certify_by_walk(game, b0, b1)
    assert flat.value == pytest.approx(float(walked.value), abs=1e-10)
    for fast, slow in zip(flat.best_response_values, walked.best_response_values, strict=True):
        assert fast == pytest.approx(float(slow), abs=1e-10)
    assert flat.exploitability >= -1e-12


@settings(max_examples=40, deadline=None)
@given(game=games)
def test_flat_best_response_choice_achieves_its_value(game):
    tables = game.flat.tables
    b0, b1 = random_behaviour(tables[0], 5), random_behaviour(tables[1], 6)
    y = plan_from_behaviour(b1)
    response = flat_best_response(game, 0, y)
    walked = best_response(game, 0, b1)
    assert response.value == pytest.approx(float(walked.value), abs=1e-10)
    # Playing the chosen actions purely achieves the best-response value.
    table = tables[0]
    probabilities = np.zeros(table.num_sequences)
    probabilities[0] = 1
    probabilities[table.first_sequence + response.choice] = 1
    pure = type(b0)(table=table, probabilities=probabilities, unreached=b0.unreached)
    achieved = flat_expected_value(game, plan_from_behaviour(pure), y)
    assert achieved == pytest.approx(response.value, abs=1e-10)


def test_exact_walk_on_matching_pennies_with_chance():
    # Nature flips a fair coin that only player 1 sees; player 1 guesses, player 2 (blind)
    # guesses too; player 1 wins 1 if both guesses equal the coin... a small game whose
    # best responses are found by hand: against a uniform player 2, player 1 earns 0
    # whatever she does, and player 2 against a uniform player 1 also earns 0.
    def leaves(coin: str) -> tuple:
        return tuple(
            Decision(
                1,
                "guess2",
                ("h", "t"),
                tuple(
                    Terminal((Fraction(1), Fraction(-1)))
                    if mine == theirs
                    else Terminal((Fraction(-1), Fraction(1)))
                    for theirs in "ht"
                ),
            )
            for mine in "ht"
        )

    root = Chance(
        ("h", "t"),
        (Fraction(1, 2), Fraction(1, 2)),
        tuple(Decision(0, f"saw-{c}", ("h", "t"), leaves(c)) for c in "ht"),
    )
    game = Game("pennies", root)
    uniform0 = {"saw-h": [Fraction(1, 2)] * 2, "saw-t": [Fraction(1, 2)] * 2}
    uniform1 = {"guess2": [Fraction(1, 2)] * 2}
    certificate = certify(game, uniform0, uniform1)
    assert certificate.value == 0
    assert certificate.best_response_values == (0, 0)
    assert certificate.exploitability == 0


def test_kuhn_flat_and_walk_agree_on_uniform():
    game = kuhn_poker()
    from seqform.forms.strategies import uniform_behaviour

    tables = game.flat.tables
    flat = certify(game, uniform_behaviour(tables[0]), uniform_behaviour(tables[1]))
    # OpenSpiel's exploitability test: NashConv of uniform Kuhn play is 11/12.
    assert flat.exploitability == pytest.approx(11 / 12, abs=1e-12)
