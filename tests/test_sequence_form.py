"""The sequence form of Kuhn poker and of random games."""

from fractions import Fraction

import numpy as np
import pytest
from gametrees import games, random_behaviour
from hypothesis import given, settings

from seqform.certify import expected_value
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import plan_from_behaviour


def test_kuhn_shapes(kuhn_form):
    # 13 sequences and 6 information sets per player; E, F are 7×13 (KUHN_FACTS.md,
    # AI Poker Tutorial §3.2).
    assert kuhn_form.E.shape == (7, 13)
    assert kuhn_form.F.shape == (7, 13)
    assert kuhn_form.A.shape == (13, 13)
    assert kuhn_form.num_terminals == 30  # 6 deals × 5 histories (Kuhn 1950)
    np.testing.assert_array_equal(kuhn_form.e, [1, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(kuhn_form.f, [1, 0, 0, 0, 0, 0, 0])


def test_kuhn_rows_of_E_follow_the_tutorial(kuhn_form):
    # AI Poker Tutorial §3.2: x∅ = 1; x_cb + x_cp = x∅; x_cpb + x_cpp = x_cp.
    table = kuhn_form.players[0]
    labels = table.labels()
    E = kuhn_form.E.toarray()
    rows = {
        tuple(sorted((labels[j], int(E[i, j])) for j in np.flatnonzero(E[i]))) for i in range(7)
    }
    expected = {(("∅", 1),)}
    for card in "JQK":
        expected.add(tuple(sorted([("∅", -1), (f"{card}:p", 1), (f"{card}:b", 1)])))
        expected.add(tuple(sorted([(f"{card}:p", -1), (f"{card}pb:p", 1), (f"{card}pb:b", 1)])))
    assert rows == expected


def test_kuhn_sequence_labels(kuhn_form):
    first, second = (table.labels() for table in kuhn_form.players)
    assert first[0] == second[0] == "∅"
    assert sorted(first[1:]) == sorted(
        f"{infoset}:{action}" for infoset in ("J", "Q", "K", "Jpb", "Qpb", "Kpb") for action in "pb"
    )
    assert sorted(second[1:]) == sorted(
        f"{card}{history}:{action}" for card in "JQK" for history in "pb" for action in "pb"
    )


def test_kuhn_payoff_entries_are_exact_and_summed(kuhn_form):
    rows, cols, exact = kuhn_form.payoff_entries
    assert all(isinstance(value, Fraction) for value in exact)
    labels0, labels1 = (table.labels() for table in kuhn_form.players)
    entry = {(labels0[r], labels1[c]): value for r, c, value in zip(rows, cols, exact, strict=True)}
    # K bets, Q calls: player 1 wins 2 with chance 1/6 (Kuhn 1950 rules).
    assert entry[("K:b", "Qb:b")] == Fraction(2, 6)
    # J checks, K checks: showdown for 1, player 1 loses.
    assert entry[("J:p", "Kp:p")] == Fraction(-1, 6)
    np.testing.assert_allclose(kuhn_form.A.toarray()[rows, cols], [float(v) for v in exact])


def test_sequences_precede_their_infoset(kuhn_form):
    for table in kuhn_form.players:
        assert all(table.parent_sequence < table.first_sequence)


@settings(max_examples=60, deadline=None)
@given(game=games)
def test_plan_payoff_matches_tree_walk(game):
    form = build_sequence_form(game)
    b0 = random_behaviour(form.players[0], 1)
    b1 = random_behaviour(form.players[1], 2)
    x, y = plan_from_behaviour(b0), plan_from_behaviour(b1)
    np.testing.assert_allclose(form.E @ x, form.e, atol=1e-12)
    np.testing.assert_allclose(form.F @ y, form.f, atol=1e-12)
    assert x @ form.A @ y == pytest.approx(float(expected_value(game, b0, b1)), abs=1e-10)
