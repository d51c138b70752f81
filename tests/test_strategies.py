"""Realization plans and behavioural strategies: the two maps and the unreached rule."""

from fractions import Fraction

import numpy as np
import pytest
from gametrees import games, random_behaviour, random_exact_behaviour
from hypothesis import given, settings

from seqform.documents.solve import solution_document
from seqform.documents.text.solve import solution_text
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import (
    _first_largest,
    behaviour_from_mapping,
    behaviour_from_plan,
    plan_from_behaviour,
    round_strategy,
)
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.builtin.leduc import leduc_poker
from seqform.routes.solve import solve


@settings(max_examples=60, deadline=None)
@given(game=games)
def test_behaviour_plan_round_trip(game):
    # KMvS 1996 §3 / Kuhn 1953: with every information set reached, the maps are inverse.
    for table in game.flat.tables:
        behaviour = random_behaviour(table, 7)
        plan = plan_from_behaviour(behaviour)
        back = behaviour_from_plan(table, plan)
        assert not back.unreached.any()
        np.testing.assert_allclose(back.probabilities, behaviour.probabilities, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(game=games)
def test_exact_behaviour_plan_round_trip(game):
    # The same maps in Fractions: the round trip is the identity, exactly.
    for table in game.flat.tables:
        behaviour = random_exact_behaviour(table, 11)
        assert behaviour is not None and behaviour.exact
        plan = plan_from_behaviour(behaviour)
        assert all(isinstance(p, Fraction) for p in plan)
        back = behaviour_from_plan(table, plan)
        assert back.exact and not back.unreached.any()
        assert list(back.probabilities) == list(behaviour.probabilities)
        assert list(plan_from_behaviour(back)) == list(plan)


def test_exact_unreached_is_uniform_or_the_callers_choice():
    table = build_sequence_form(kuhn_poker()).players[0]
    bets = {card: {"p": Fraction(0), "b": Fraction(1)} for card in "JQK"}
    calls = {f"{card}pb": {"p": Fraction(1), "b": Fraction(0)} for card in "JQK"}
    plan = plan_from_behaviour(behaviour_from_mapping(table, {**bets, **calls}))
    uniform = behaviour_from_plan(table, plan)
    assert uniform.exact
    assert uniform.at("Kpb") == {"p": Fraction(1, 2), "b": Fraction(1, 2)}
    assert {table.infosets[i] for i in np.flatnonzero(uniform.unreached)} == {"Jpb", "Qpb", "Kpb"}
    chosen = behaviour_from_plan(table, plan, unreached_behaviour=lambda h: [1, 0])
    assert chosen.at("Kpb") == {"p": 1, "b": 0} and chosen.at("K") == {"p": 0, "b": 1}
    assert list(plan_from_behaviour(chosen)) == list(plan)


def test_rounding_keeps_each_infoset_summing_to_one():
    solution = solve(kuhn_poker())
    for strategy in solution.strategies:
        rounded = round_strategy(strategy)
        assert rounded is not None and rounded.exact
        for name in strategy.table.infosets:
            assert sum(rounded.at(name).values()) == 1
        assert rounded.to_float().at("K" if strategy.player == 0 else "Kb") == pytest.approx(
            strategy.at("K" if strategy.player == 0 else "Kb"), abs=1e-9
        )


def test_rounding_sets_the_first_of_tied_largest_probabilities():
    # By hand: at denominator 2, 0.35 and 0.3 both round to 1/2, so the first of the two
    # largest takes 1 - 1/2 - 1/2 = 0 and the second keeps its 1/2.
    table = build_sequence_form(leduc_poker()).players[1]
    given = {
        name: [0.35, 0.35, 0.3] if len(actions) == 3 else [0.5, 0.5]
        for name, actions in zip(table.infosets, table.actions, strict=True)
    }
    rounded = round_strategy(behaviour_from_mapping(table, given), max_denominator=2)
    assert rounded is not None
    facing = next(name for name, actions in given.items() if len(actions) == 3)
    assert list(rounded.at(facing).values()) == [0, Fraction(1, 2), Fraction(1, 2)]


def test_the_largest_of_each_set_is_found_whatever_the_order_of_the_sets():
    # Sets numbered out of the order of their sequences (a structured table may): the
    # sequences 1-2, 3-5 and 6 belong to sets 1, 2 and 0.
    values = np.array([1.0, 0.2, 0.8, 0.3, 0.3, 0.1, 1.0])
    assert _first_largest(values, np.array([6, 1, 3])).tolist() == [6, 2, 3]


def test_unreached_infoset_is_flagged_and_uniform():
    form = build_sequence_form(kuhn_poker())
    table = form.players[0]
    labels = table.labels()
    # Player 1 bets every card: the information sets after check-bet are never reached.
    plan = np.zeros(table.num_sequences)
    plan[0] = 1
    for card in "JQK":
        plan[labels.index(f"{card}:b")] = 1
    np.testing.assert_allclose(form.E @ plan, form.e)
    behaviour = behaviour_from_plan(table, plan)
    flagged = {table.infosets[i] for i in np.flatnonzero(behaviour.unreached)}
    assert flagged == {"Jpb", "Qpb", "Kpb"}
    assert behaviour.at("Kpb") == {"p": 0.5, "b": 0.5}  # the documented rule: uniform
    assert behaviour.at("K") == {"p": 0.0, "b": 1.0}
    # Its plan is the plan we started from: the rule changes no payoff.
    np.testing.assert_allclose(plan_from_behaviour(behaviour), plan, atol=1e-15)


def test_unreached_flag_appears_in_text_and_json():
    # Whatever equilibrium the solver picks, the outputs flag exactly the information sets
    # whose parent sequence has plan value 0.
    solution = solve(kuhn_poker(), solver="ipm")
    document = solution_document(solution)
    text = solution_text(document)
    for player, strategy in enumerate(solution.strategies):
        x = solution.plans[player]
        table = strategy.table
        expected = x[table.parent_sequence] <= 1e-12
        np.testing.assert_array_equal(strategy.unreached, expected)
        flags = [i["unreached"] for i in document["strategies"][player]["infosets"]]
        assert flags == expected.tolist()
    assert ("unreached by own play" in text) == any(s.unreached.any() for s in solution.strategies)


@pytest.mark.parametrize("cards", [3, 5])
def test_solution_behaviour_reproduces_the_plan_where_reached(cards):
    solution = solve(kuhn_poker(cards=cards))
    for player, strategy in enumerate(solution.strategies):
        x = solution.plans[player]
        rebuilt = plan_from_behaviour(strategy)
        np.testing.assert_allclose(rebuilt, x, atol=1e-9)


def test_infoset_lookup_by_name_is_built_once_and_read_only():
    # BehaviouralStrategy.at(name) looks names up here: building the map on every call made
    # looking up every information set quadratic in their number.
    table = kuhn_poker().flat.tables[1]
    index = table.index_of_infoset()
    assert index is table.index_of_infoset()
    assert index == {name: i for i, name in enumerate(table.infosets)}
    with pytest.raises(TypeError):
        index["new"] = 0  # type: ignore[index]


def test_infoset_depths_are_kept_read_only_by_a_small_table_only(monkeypatch):
    # An iterative run certifies the same table at every sample; making its depths again
    # each time was a sixth of a Leduc certificate.  A flop's table makes them again.
    from seqform.game import sequences

    table = kuhn_poker().flat.tables[0]
    depths = table.infoset_depths()
    assert table.infoset_depths() is depths
    # Kuhn's player 1 (KMvS 1996): J, Q, K at the root, then Jpb, Qpb, Kpb after check-bet
    assert dict(zip(table.infosets, depths.tolist(), strict=True)) == {
        "J": 0, "Q": 0, "K": 0, "Jpb": 1, "Qpb": 1, "Kpb": 1,
    }  # fmt: skip
    with pytest.raises(ValueError, match="read-only"):
        depths[0] = 5
    monkeypatch.setattr(sequences, "DEPTHS_KEPT_UP_TO", table.num_infosets - 1)
    large = kuhn_poker().flat.tables[0]
    assert large.infoset_depths() is not large.infoset_depths()
    assert np.array_equal(large.infoset_depths(), depths)


def _kuhn_first(rows: dict) -> dict:
    table = kuhn_poker().flat.tables[0]
    return {name: rows for name in table.infosets}


@pytest.mark.parametrize(
    ("row", "message"),
    [
        pytest.param({"z": 1}, "names action 'z' at information set 'J'", id="unknown-action"),
        pytest.param({"p": 5, "b": 5}, "gives 5 at information set 'J'", id="above-1"),
        pytest.param({"p": -0.5, "b": 1.5}, "gives -0.5 at", id="negative"),
        pytest.param({"p": float("nan"), "b": 1.0}, "gives nan at", id="nan"),
        pytest.param({"p": 0.5, "b": 0.4}, "summing to 0.9, not 1", id="sum"),
        pytest.param({"p": Fraction(1, 3), "b": Fraction(1, 3)}, "summing to 0.6666", id="exact"),
        pytest.param(["x", 1], "gives 'x' as a probability", id="text"),
    ],
)
def test_a_mapping_that_is_no_strategy_is_refused_not_certified(row, message):
    # certify used to take {J: {z: 1}} as all-zero play and find it an equilibrium (NashConv
    # 0); a strategy that is not one is refused, naming where
    from seqform.certify import certify

    game = kuhn_poker()
    other = {name: {"p": 1} for name in game.flat.tables[1].infosets}
    with pytest.raises(ValueError, match=message):
        behaviour_from_mapping(game.flat.tables[0], _kuhn_first(row))
    with pytest.raises(ValueError, match=message):
        certify(game, _kuhn_first(row), other)


def test_an_action_the_set_lacks_may_be_given_probability_zero():
    # a tree's blueprint on a structured game, whose information set lacks a raise
    strategy = behaviour_from_mapping(kuhn_poker().flat.tables[0], _kuhn_first({"p": 1, "r": 0}))
    assert strategy.probabilities[1] == 1


def test_the_question_functions_take_a_game_name_as_solve_does():
    # equilibrium_ranges("kuhn") and the like raised AttributeError: 'str' object has no
    # attribute 'flat'; they read a name as solve does, and refuse other things by name
    from seqform.questions.exploit import exploit, named_opponent
    from seqform.questions.ranges import equilibrium_ranges
    from seqform.routes.refine import refine

    game = kuhn_poker()
    fixed = named_opponent("kuhn", "uniform", 0)
    assert exploit("kuhn", fixed).gain == pytest.approx(exploit(game, fixed).gain)
    assert refine("kuhn").value == pytest.approx(-1 / 18)  # Kuhn 1950: the game's value
    assert equilibrium_ranges("kuhn").value == pytest.approx(-1 / 18)
    with pytest.raises(TypeError, match="exploit\\(\\) takes a Game, a game name or a path"):
        exploit(5, fixed)  # type: ignore[arg-type]


def test_exploit_takes_a_mapping_as_its_message_says():
    from seqform.questions.exploit import exploit

    game = kuhn_poker()
    always_check = {name: {"p": 1} for name in game.flat.tables[0].infosets}
    found = exploit(game, always_check)  # type: ignore[arg-type]
    expected = exploit(game, behaviour_from_mapping(game.flat.tables[0], always_check))
    assert found.gain == pytest.approx(expected.gain)
