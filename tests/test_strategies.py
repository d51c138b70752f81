"""Realization plans and behavioural strategies: the two maps and the unreached rule."""

import numpy as np
import pytest
from gametrees import games, random_behaviour
from hypothesis import given, settings

from seqform.analyses.solve import solve
from seqform.cli.render.report import solution_json, solution_text
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import behaviour_from_plan, plan_from_behaviour
from seqform.game.builtin.kuhn import kuhn_poker


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
    solution = solve(kuhn_poker(), algorithm="ipm")
    document = solution_json(solution)
    text = solution_text(solution)
    for player, strategy in enumerate(solution.behaviour):
        x = solution.plans[player]
        table = strategy.table
        expected = x[table.parent_sequence] <= 1e-12
        np.testing.assert_array_equal(strategy.unreached, expected)
        flags = [i["unreached"] for i in document["strategies"][player]["infosets"]]
        assert flags == expected.tolist()
    assert ("unreached by own play" in text) == any(s.unreached.any() for s in solution.behaviour)


@pytest.mark.parametrize("cards", [3, 5])
def test_solution_behaviour_reproduces_the_plan_where_reached(cards):
    solution = solve(kuhn_poker(cards=cards))
    for player, strategy in enumerate(solution.behaviour):
        x = solution.plans[player]
        rebuilt = plan_from_behaviour(strategy)
        np.testing.assert_allclose(rebuilt, x, atol=1e-9)
