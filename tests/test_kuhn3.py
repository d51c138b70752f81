"""Three-player Kuhn poker (Abou Risk and Szafron 2010): refused by the LP, solved by CFR.

Sizes and rules are checked against OpenSpiel's ``kuhn_poker(players=3)`` node for node;
CFR's average policies against OpenSpiel's python ``CFRSolver``.  The known fact (Szafron,
Gibson and Sturtevant 2013; /work/shared/KUHN_FACTS.md): in the analytic equilibrium family
player 2 expects −1/48 per hand and player 1 always checks first.  The tests state what
the iterative solvers *measure* after a stated number of iterations.
"""

from __future__ import annotations

import pytest
from openspiel_match import compare_with_openspiel

from seqform.certify import certify, certify_profile
from seqform.forms.strategies import uniform_behaviour
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.builtin.kuhn3 import multiplayer_kuhn
from seqform.game.errors import InvalidGameError
from seqform.io.loader import load_game
from seqform.iterative.cfr import cfr, dcfr
from seqform.iterative.mccfr import external_sampling_mccfr
from seqform.routes.solve import solve

PLAYER_TWO_VALUE = -1 / 48  # Szafron, Gibson and Sturtevant (2013)
ACTIONS = {"Pass": "p", "Bet": "b"}  # kuhn_poker's ActionToString
CARDS = "TJQK"  # OpenSpiel's cards 0, 1, 2, 3


@pytest.fixture(scope="module")
def kuhn3():
    return load_game("kuhn3")


def openspiel_key(name: str) -> str:
    """Our information set "Qpb" is OpenSpiel's "2pb"."""
    return str(CARDS.index(name[0])) + name[1:]


def test_sizes(kuhn3):
    # OpenSpiel's kuhn_poker(players=3) has 312 terminal histories and 16 information
    # states per player (counted by walking it in test_same_game_as_openspiel).
    flat = kuhn3.flat
    assert kuhn3.num_players == 3
    assert kuhn3.player_names == ("Player 1", "Player 2", "Player 3")
    assert len(flat.terminals) == 312  # 24 deals x 13 betting histories
    assert [table.num_infosets for table in flat.tables] == [16, 16, 16]
    assert [table.num_sequences for table in flat.tables] == [33, 33, 33]
    assert flat.not_zero_sum == -1  # zero-sum among three players


def test_same_game_as_openspiel(kuhn3):
    pyspiel = pytest.importorskip("pyspiel")
    theirs = pyspiel.load_game("kuhn_poker(players=3)")
    ours_of = compare_with_openspiel(
        kuhn3, theirs, ACTIONS.__getitem__, lambda card: f"Deal:{CARDS.index(card)}"
    )
    assert len(ours_of) == 48
    assert all(openspiel_key(name) == key for key, name in ours_of.items())


def test_two_player_generalisation_is_kuhn():
    pyspiel = pytest.importorskip("pyspiel")
    two = multiplayer_kuhn(2)
    compare_with_openspiel(
        two,
        pyspiel.load_game("kuhn_poker"),
        ACTIONS.__getitem__,
        lambda c: f"Deal:{'JQK'.index(c)}",
    )
    # Same equilibrium value as the built-in Kuhn (whose deals are one chance node).
    assert solve(two).value == pytest.approx(solve(kuhn_poker()).value, abs=1e-9)


def test_the_lp_refuses_it_with_the_reason(kuhn3):
    with pytest.raises(
        InvalidGameError,
        match=r"^the sequence-form LP needs two players, zero-sum: kuhn3 is a three-player "
        r"game \(terminal node 'T J Q p p p' has payoffs for 3 players\)",
    ):
        solve(kuhn3)


def test_the_two_player_certificate_refuses_it(kuhn3):
    uniform = uniform_behaviour(kuhn3.flat.tables[0])
    with pytest.raises(InvalidGameError, match=r"two-player certificate needs two players"):
        certify(kuhn3, uniform, uniform)


def test_uniform_nash_conv_matches_openspiel(kuhn3):
    pyspiel = pytest.importorskip("pyspiel")
    exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")
    policy = pytest.importorskip("open_spiel.python.policy")
    theirs = pyspiel.load_game("kuhn_poker(players=3)")
    expected = exploitability.nash_conv(theirs, policy.UniformRandomPolicy(theirs))
    measured = certify_profile(kuhn3, [uniform_behaviour(t) for t in kuhn3.flat.tables])
    assert measured.nash_conv == pytest.approx(expected, abs=1e-12)
    assert sum(measured.values) == pytest.approx(0, abs=1e-12)


def test_profile_certificate_is_the_two_player_one_for_two_players():
    kuhn = kuhn_poker()
    uniform = [uniform_behaviour(table) for table in kuhn.flat.tables]
    general, two = certify_profile(kuhn, uniform), certify(kuhn, *uniform)
    assert general.values[0] == pytest.approx(two.value, abs=1e-15)
    assert general.gains == pytest.approx(two.gains, abs=1e-15)
    assert general.nash_conv == pytest.approx(two.nash_conv, abs=1e-15)


def test_cfr_matches_openspiel(kuhn3):
    pyspiel = pytest.importorskip("pyspiel")
    cfr_module = pytest.importorskip("open_spiel.python.algorithms.cfr")
    solver = cfr_module.CFRSolver(pyspiel.load_game("kuhn_poker(players=3)"))
    for _ in range(50):
        solver.evaluate_and_update_policy()
    ours = cfr(kuhn3, 50, every=50)
    average = solver.average_policy()
    worst = 0.0
    for strategy in ours.strategies:
        for name, probabilities in strategy.as_dict().items():
            theirs = average.policy_for_key(openspiel_key(name))
            for ours_p, theirs_p in zip(probabilities.values(), theirs, strict=True):
                worst = max(worst, abs(ours_p - theirs_p))
    assert worst <= 1e-12


def test_cfr_nash_conv_decreases_and_player_two_nears_minus_one_48th(kuhn3):
    result = cfr(kuhn3, 1000, every=10)
    samples = {sample.iteration: sample.nash_conv for sample in result.history}
    # Measured: 0.037 after 100 iterations, 0.0039 after 1000.
    assert samples[10] > samples[100] > samples[1000]
    assert samples[1000] < 5e-3
    certificate = certify_profile(kuhn3, result.strategies)
    assert certificate.nash_conv == pytest.approx(samples[1000], abs=1e-15)
    assert sum(certificate.values) == pytest.approx(0, abs=1e-12)
    # Measured after 1000 iterations: -0.020791, 4.3e-5 from -1/48.
    assert certificate.values[1] == pytest.approx(PLAYER_TWO_VALUE, abs=1e-4)
    # Player 1 bets first at most 1 % of the time with any card (measured: K 0.0099).
    first = result.strategies[0]
    assert max(float(first.at(card)["b"]) for card in CARDS) < 0.011


def test_dcfr_reaches_the_known_family(kuhn3):
    result = dcfr(kuhn3, 10_000, every=10_000)
    certificate = certify_profile(kuhn3, result.strategies)
    # Measured after 10 000 iterations: NashConv 4.5e-8; player 2 -0.0208333.
    assert certificate.nash_conv < 1e-7
    assert certificate.values[1] == pytest.approx(PLAYER_TWO_VALUE, abs=1e-6)
    first = result.strategies[0]
    assert max(float(first.at(card)["b"]) for card in CARDS) < 1e-3  # always checks first


def test_mccfr_runs_on_three_players(kuhn3):
    result = external_sampling_mccfr(kuhn3, 2000, every=500, seed=3)
    assert len(result.strategies) == 3
    assert result.history[-1].nash_conv < result.history[0].nash_conv
