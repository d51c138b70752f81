"""Strategies across tools: seqform's strategies as OpenSpiel policies and back.

References: NashConv of the uniform random profile in Kuhn poker is 11/12 (OpenSpiel's
exploitability test, quoted in KUHN_FACTS.md); OpenSpiel's own ``exploitability.nash_conv``
and ``best_response`` judge seqform's strategies, and its ``CFRSolver`` trains the policies
that seqform reads back.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from openspiel_match import behaviour, compare_with_openspiel

from seqform.certify import certify
from seqform.forms.strategies import behaviour_from_mapping, uniform_behaviour
from seqform.game.formats.openspiel import OpenSpielUnavailableError
from seqform.io.loader import load_game
from seqform.io.openspiel_mapping import openspiel_spec, policy_correspondence
from seqform.io.openspiel_policy import from_openspiel_policy, to_openspiel_policy
from seqform.iterative.cfr import cfr_plus
from seqform.questions.exploit import exploit
from seqform.routes.solve import solve

UNIFORM_KUHN_NASH_CONV = Fraction(11, 12)  # OpenSpiel's exploitability_test.py
LEDUC_ACTIONS = {"Fold": "f", "Call": "c", "Raise": "r"}  # leduc_poker's ActionToString
GAMES = ["kuhn", "leduc", "liars_dice(sides=3)", "liars_dice(sides=2, dice=2)"]


@pytest.fixture(scope="module")
def linked(pyspiel):
    """Each game, its correspondence and its LP equilibrium, made once."""
    cache = {}

    def get(name: str):
        if name not in cache:
            game = load_game(name)
            cache[name] = (game, policy_correspondence(game), solve(game).strategies)
        return cache[name]

    return get


def random_profile(game, seed: int, exact: bool = False):
    """Random behavioural strategies of both players (exact or float)."""
    rng = random.Random(seed)
    mappings = behaviour(game, lambda n: [rng.randint(1, 6) for _ in range(n)])
    strategies = [
        behaviour_from_mapping(t, m) for t, m in zip(game.flat.tables, mappings, strict=True)
    ]
    return strategies if exact else [s.to_float() for s in strategies]


@pytest.mark.parametrize(
    ("name", "spec"),
    [
        ("kuhn", "kuhn_poker"),
        ("leduc", "leduc_poker"),
        ("leduc(suit_isomorphism=True)", "leduc_poker(suit_isomorphism=true)"),
        ("liars_dice", "liars_dice(dice_sides=6,numdice=1)"),
        ("liars_dice(sides=4, dice=2)", "liars_dice(dice_sides=4,numdice=2)"),
    ],
)
def test_openspiel_spec_of_builtin_games(name, spec):
    assert openspiel_spec(SimpleNamespace(name=name)) == spec  # only the name is read


@pytest.mark.parametrize("name", ["kuhn(cards=5)", "leduc(ranks=4, suits=2)", "rps.efg"])
def test_games_without_an_openspiel_counterpart_are_refused(name):
    with pytest.raises(ValueError, match="no counterpart in OpenSpiel"):
        openspiel_spec(SimpleNamespace(name=name))


def test_missing_openspiel_is_reported(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes `import pyspiel` fail
    with pytest.raises(OpenSpielUnavailableError, match="pip install"):
        policy_correspondence(load_game("kuhn"))


def test_kuhn_information_sets_are_openspiels(linked):
    game, link, _ = linked("kuhn")
    # OpenSpiel writes cards J, Q, K as 0, 1, 2 and Pass/Bet (ids 0, 1) as p/b.
    for player, table in enumerate(game.flat.tables):
        for index, name in enumerate(table.infosets):
            assert link.keys[player][index] == str("JQK".index(name[0])) + name[1:]
            assert link.action_ids[player][index] == (0, 1)
    assert link.locate("1pb") == (0, game.flat.tables[0].infosets.index("Qpb"))


@pytest.mark.parametrize("name", ["leduc", "liars_dice(sides=3)"])
def test_correspondence_agrees_with_the_node_for_node_match(linked, pyspiel, name):
    game, link, _ = linked(name)
    if name == "leduc":
        expected = compare_with_openspiel(game, link.openspiel_game, LEDUC_ACTIONS.__getitem__)
    else:
        expected = compare_with_openspiel(
            game,
            link.openspiel_game,
            lambda text: "liar" if text == "Liar" else text,
            lambda face: f"Roll {face}",
        )
    found = {
        key: game.flat.tables[player].infosets[index]
        for player in (0, 1)
        for index, key in enumerate(link.keys[player])
    }
    assert found == expected


@pytest.mark.parametrize("name", GAMES)
def test_lp_equilibrium_has_openspiel_nash_conv_zero(linked, name):
    from open_spiel.python.algorithms import exploitability

    game, link, equilibrium = linked(name)
    policy = to_openspiel_policy(game, *equilibrium, correspondence=link)
    assert exploitability.nash_conv(link.openspiel_game, policy) <= 1e-9


@pytest.mark.parametrize("name", GAMES)
def test_seqform_to_openspiel_and_back_keeps_every_probability(linked, name):
    game, link, equilibrium = linked(name)
    for profile in (equilibrium, random_profile(game, seed=3)):
        policy = to_openspiel_policy(game, *profile, correspondence=link)
        back = from_openspiel_policy(game, policy, correspondence=link).strategies
        for ours, returned in zip(profile, back, strict=True):
            assert np.abs(ours.probabilities - returned.probabilities).max() <= 1e-15


def test_uniform_kuhn_nash_conv_is_eleven_twelfths_in_both_tools(linked):
    from open_spiel.python.algorithms import exploitability

    game, link, _ = linked("kuhn")
    uniform = [uniform_behaviour(table, exact=True) for table in game.flat.tables]
    policy = to_openspiel_policy(game, *uniform, correspondence=link)
    theirs = exploitability.nash_conv(link.openspiel_game, policy)
    assert certify(game, *uniform).nash_conv == UNIFORM_KUHN_NASH_CONV
    assert theirs == pytest.approx(float(UNIFORM_KUHN_NASH_CONV), abs=1e-12)


@pytest.mark.parametrize("name", GAMES)
def test_nash_conv_of_an_exact_random_profile_matches_the_certificate(linked, name):
    from open_spiel.python.algorithms import exploitability

    game, link, _ = linked(name)
    profile = random_profile(game, seed=7, exact=True)
    ours = certify(game, *profile).nash_conv
    assert isinstance(ours, Fraction)
    policy = to_openspiel_policy(game, *profile, correspondence=link)
    theirs = exploitability.nash_conv(link.openspiel_game, policy)
    assert theirs == pytest.approx(float(ours), abs=1e-9)


def test_iterative_strategies_are_judged_alike(linked):
    from open_spiel.python.algorithms import exploitability

    game, link, _ = linked("leduc")
    average = cfr_plus(game, 20, every=20).strategies
    policy = to_openspiel_policy(game, *average, correspondence=link)
    theirs = exploitability.nash_conv(link.openspiel_game, policy)
    assert theirs == pytest.approx(float(certify(game, *average).nash_conv), abs=1e-9)
    assert theirs > 1e-3  # not yet an equilibrium, so the agreement is not trivial


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_openspiel_cfr_policy_to_seqform_and_back(linked, name):
    from open_spiel.python.algorithms import cfr, exploitability

    game, link, _ = linked(name)
    solver = cfr.CFRSolver(link.openspiel_game)
    for _ in range(30 if name == "kuhn" else 2):
        solver.evaluate_and_update_policy()
    trained = solver.average_policy()
    read = from_openspiel_policy(game, trained, correspondence=link)
    again = to_openspiel_policy(game, *read.strategies, correspondence=link)
    rows = [trained.state_lookup[key] for key in again.state_lookup]
    difference = trained.action_probability_array[rows] - again.action_probability_array
    assert np.abs(difference).max() <= 1e-15
    theirs = exploitability.nash_conv(link.openspiel_game, trained)
    assert float(certify(game, *read.strategies).nash_conv) == pytest.approx(theirs, abs=1e-9)


def test_a_policy_that_is_not_a_table_is_read_state_by_state(linked):
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    game, link, _ = linked("kuhn")
    read = from_openspiel_policy(game, policy.UniformRandomPolicy(link.openspiel_game))
    assert certify(game, *read.strategies).nash_conv == pytest.approx(11 / 12, abs=1e-12)
    # exploit judges it too: player 2's best response gains what OpenSpiel's says it gets.
    judged = exploit(game, read.first)
    uniform = to_openspiel_policy(game, *read.strategies, correspondence=link)
    theirs = exploitability.best_response(link.openspiel_game, uniform, 1)
    assert float(judged.value) == pytest.approx(theirs["best_response_value"], abs=1e-12)


def test_openspiel_game_loaded_by_seqform(pyspiel):
    from open_spiel.python.algorithms import exploitability

    game = load_game("openspiel:kuhn_poker")
    link = policy_correspondence(game)
    assert link.locate("1pb") == (0, game.flat.tables[0].infosets.index("P1:1pb"))
    equilibrium = solve(game).strategies
    policy = to_openspiel_policy(game, *equilibrium, correspondence=link)
    assert exploitability.nash_conv(link.openspiel_game, policy) <= 1e-9
    back = from_openspiel_policy(game, policy, correspondence=link).strategies
    for ours, returned in zip(equilibrium, back, strict=True):
        assert np.abs(ours.probabilities - returned.probabilities).max() <= 1e-15


def test_policy_of_another_game_names_the_information_state(linked, pyspiel):
    from open_spiel.python import policy

    game, link, _ = linked("kuhn")
    leduc_policy = policy.TabularPolicy(pyspiel.load_game("leduc_poker"))
    with pytest.raises(ValueError, match=r"no information state '\d+' \(player 1's information"):
        from_openspiel_policy(game, leduc_policy, correspondence=link)


def test_strategies_of_another_game_are_refused(linked):
    game, link, _ = linked("kuhn")
    _, _, leduc_equilibrium = linked("leduc")
    with pytest.raises(ValueError, match="not one of 'kuhn'"):
        to_openspiel_policy(game, *leduc_equilibrium, correspondence=link)


def test_a_policy_that_is_not_a_distribution_names_the_information_state(linked, pyspiel):
    from open_spiel.python import policy

    game, link, _ = linked("kuhn")
    broken = policy.TabularPolicy(link.openspiel_game)
    broken.action_probability_array[broken.state_lookup["1pb"]] = [0.7, 0.7]
    with pytest.raises(ValueError, match=r"information state '1pb' \(player 1's .* 'Qpb'"):
        from_openspiel_policy(game, broken, correspondence=link)


def test_two_different_games_are_not_linked(pyspiel):
    kuhn = load_game("kuhn")
    with pytest.raises(ValueError, match=r"^.kuhn. is not OpenSpiel.s leduc_poker\(\): the chance"):
        policy_correspondence(kuhn, pyspiel.load_game("leduc_poker"))
