"""A sequence form or a strategy of another game, or of the other player, is refused by
every entry point that accepts one (seqform.forms.provenance)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

import seqform
from seqform.forms.provenance import require_strategy_of, sequence_form_of
from seqform.forms.sequence_form import build_sequence_form
from seqform.game.model import Game
from seqform.game.nodes import Decision, Terminal
from seqform.io.loader import load_game

# kuhn(cards=4) numbers its sequences like Kuhn but labels its cards 1..4, so its form fits
# Kuhn's arrays only by accident of size; any other game would do.
OTHER = "kuhn(cards=4)"


@pytest.fixture(scope="module")
def other_form():
    return build_sequence_form(load_game(OTHER))


ENTRY_POINTS = [
    pytest.param(lambda game, form: seqform.solve(game, form=form), id="solve"),
    pytest.param(lambda game, form: seqform.solve(game, form=form, exact=True), id="exact"),
    pytest.param(lambda game, form: seqform.refine(game, form=form), id="refine"),
    pytest.param(lambda game, form: seqform.solve(game, form=form, method="normal"), id="normal"),
    pytest.param(lambda game, form: seqform.solve(game, form=form, fix=["J:b=0"]), id="fix"),
    pytest.param(lambda game, form: seqform.equilibrium_ranges(game, form=form), id="ranges"),
    pytest.param(
        lambda game, form: seqform.exploit(
            game, seqform.named_opponent(game, "uniform", 0), form=form
        ),
        id="exploit",
    ),
]


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_a_form_of_another_game_is_refused(kuhn, other_form, entry):
    with pytest.raises(ValueError, match=r"form is the sequence form of 'kuhn\(cards=4\)', not of"):
        entry(kuhn, other_form)


def test_a_form_of_an_equal_game_is_accepted(kuhn):
    # Another object built from the same name: the same labels and terminals.
    form = build_sequence_form(load_game("kuhn"))
    assert sequence_form_of(kuhn, form) is form


def test_a_form_with_the_same_labels_and_other_payoffs_is_refused():
    def game(payoff: int) -> Game:
        leaves = (
            Terminal((Fraction(payoff), Fraction(-payoff))),
            Terminal((Fraction(0), Fraction(0))),
        )
        return Game(name=f"pay {payoff}", root=Decision(0, "h", ("a", "b"), leaves))

    with pytest.raises(ValueError, match=r"labels agree but the terminals"):
        sequence_form_of(game(1), build_sequence_form(game(2)))


def test_a_form_that_is_not_a_form_is_refused(kuhn):
    with pytest.raises(TypeError, match=r"form must be a SequenceForm"):
        seqform.solve(kuhn, form="kuhn")


@pytest.fixture(scope="module")
def strategies(kuhn):
    return seqform.solve(kuhn).strategies


def test_swapped_players_are_refused_naming_the_problem(kuhn, strategies):
    first, second = strategies
    for check in (seqform.certify, seqform.expected_value):
        with pytest.raises(ValueError, match=r"first is a strategy of player 1, .* swapped"):
            check(kuhn, second, first)


def test_strategies_of_another_game_are_refused(kuhn):
    other = seqform.solve(load_game(OTHER)).strategies
    with pytest.raises(ValueError, match=r"first is not a strategy of player 0 in 'kuhn'"):
        seqform.certify(kuhn, *other)
    with pytest.raises(ValueError, match=r"fixed is not a strategy of player 0 in 'kuhn'"):
        seqform.exploit(kuhn, other[0])
    with pytest.raises(ValueError, match=r"opponent is not a strategy of player 1 in 'kuhn'"):
        seqform.best_response(kuhn, 0, other[1])


def test_a_strategy_with_other_actions_is_refused(kuhn, strategies):
    table = strategies[0].table
    renamed = replace(table, actions=(("x", "y"), *table.actions[1:]))
    strategy = replace(strategies[0], table=renamed)
    with pytest.raises(ValueError, match=r"at information set 'J' it has actions \['x', 'y'\]"):
        require_strategy_of(kuhn, strategy, "first", 0)


def test_the_strategies_of_the_game_pass(kuhn, strategies):
    assert seqform.certify(kuhn, *strategies).exploitability == pytest.approx(0, abs=1e-9)
