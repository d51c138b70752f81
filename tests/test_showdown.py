"""One-card showdown games without the tree: numbering, the products A y and A.T x, the
certificate, each checked against the explicit tree (seqform.forms.sequence_form and
seqform.certify), which shares no code with the sorted-card sums."""

from fractions import Fraction

import numpy as np
import pytest
from gametrees import raise_poker

from seqform.analyses.solve import solve
from seqform.certify import certify as certify_on_tree
from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker, kuhn_showdown
from seqform.game.builtin.showdown_poker import Bet, Fold, Showdown, ShowdownPoker, showdown_game
from seqform.game.errors import InvalidGameError
from seqform.structured.showdown import (
    ShowdownBehaviour,
    behaviour_from_plan,
    best_response_value,
    certify,
    payoff_to_first,
    payoff_to_second,
    plan_from_behaviour,
)

GAMES = [kuhn_showdown(3), kuhn_showdown(5), raise_poker(4), raise_poker(7)]
IDS = ["kuhn3", "kuhn5", "raise4", "raise7"]


def _index_maps(poker, form):
    """For each player, the tree's sequence index of every showdown sequence index."""
    table = poker.betting_table
    maps = []
    for player in (0, 1):
        labels = {label: k for k, label in enumerate(form.players[player].labels())}
        index = np.zeros(poker.num_sequences(player), dtype=int)
        width = table.num_sequences(player) - 1
        for card in range(poker.cards):
            for node, sequences in enumerate(table.node_sequences[player]):
                for action, sequence in zip(
                    table.node_actions[player][node], sequences, strict=True
                ):
                    name = poker.infoset_name(player, card, node)
                    index[1 + card * width + sequence - 1] = labels[f"{name}:{action}"]
        maps.append(index)
    return maps


@pytest.mark.parametrize("poker", GAMES, ids=IDS)
def test_products_equal_the_tree_payoff_matrix(poker):
    form = build_sequence_form(showdown_game(poker))
    maps = _index_maps(poker, form)
    rng = np.random.default_rng(7)
    x = rng.random(poker.num_sequences(0))
    y = rng.random(poker.num_sequences(1))
    tree_x = np.zeros(form.A.shape[0])
    tree_x[maps[0]] = x
    tree_y = np.zeros(form.A.shape[1])
    tree_y[maps[1]] = y
    np.testing.assert_allclose(payoff_to_second(poker, x), (form.A.T @ tree_x)[maps[1]], atol=1e-14)
    np.testing.assert_allclose(payoff_to_first(poker, y), (form.A @ tree_y)[maps[0]], atol=1e-14)


@pytest.mark.parametrize("poker", GAMES, ids=IDS)
def test_certificate_equals_the_tree_walk_for_random_strategies(poker):
    game = showdown_game(poker)
    rng = np.random.default_rng(11)
    behaviours = []
    for player in (0, 1):
        probabilities = np.ones((poker.cards, poker.betting_table.num_sequences(player)))
        for sequences in poker.betting_table.node_sequences[player]:
            weights = rng.random((poker.cards, len(sequences)))
            probabilities[:, sequences] = weights / weights.sum(axis=1, keepdims=True)
        unreached = np.zeros((poker.cards, poker.betting_table.num_nodes(player)), bool)
        behaviours.append(ShowdownBehaviour(player, probabilities, unreached))
    as_dicts = [
        {
            poker.infoset_name(b.player, card, node): list(b.probabilities[card, sequences])
            for card in range(poker.cards)
            for node, sequences in enumerate(poker.betting_table.node_sequences[b.player])
        }
        for b in behaviours
    ]
    ours = certify(poker, *behaviours)
    tree = certify_on_tree(game, *as_dicts)
    assert float(ours.value) == pytest.approx(float(tree.value), abs=1e-12)
    for mine, theirs in zip(ours.best_response_values, tree.best_response_values, strict=True):
        assert float(mine) == pytest.approx(float(theirs), abs=1e-12)
    assert float(ours.exploitability) > 1e-3  # random play is far from equilibrium


@pytest.mark.parametrize("cards", [3, 4, 9])
def test_showdown_game_is_kuhn_poker(cards):
    # The tree built from the showdown description has Kuhn's value (tree LP, same run).
    ours = solve(showdown_game(kuhn_showdown(cards)))
    theirs = solve(kuhn_poker(cards))
    assert ours.value == pytest.approx(theirs.value, abs=1e-12)
    assert [t.infosets for t in ours.form.players] != []
    assert set(ours.form.players[0].infosets) == set(theirs.form.players[0].infosets)


def test_kuhn_counts_without_the_tree():
    # Kuhn (1950): 6 + 6 information sets, 13 sequences each (KUHN_FACTS.md).
    kuhn = kuhn_showdown()
    assert [kuhn.num_infosets(p) for p in (0, 1)] == [6, 6]
    assert [kuhn.num_sequences(p) for p in (0, 1)] == [13, 13]
    assert kuhn.tree_nodes == kuhn_poker().flat.num_nodes == 55
    big = kuhn_showdown(250_000)  # 10^6 sequences per player, 4N + 1
    assert big.num_sequences(0) == big.num_sequences(1) == 1_000_001
    assert big.num_leaves == 5 * 250_000 * 249_999


def test_plan_and_behaviour_round_trip():
    poker = raise_poker(6)
    rng = np.random.default_rng(3)
    probabilities = np.ones((6, poker.betting_table.num_sequences(0)))
    for sequences in poker.betting_table.node_sequences[0]:
        weights = rng.random((6, len(sequences))) + 0.1
        probabilities[:, sequences] = weights / weights.sum(axis=1, keepdims=True)
    behaviour = ShowdownBehaviour(0, probabilities, np.zeros((6, 3), bool))
    plan = plan_from_behaviour(poker, behaviour)
    again = behaviour_from_plan(poker, 0, plan)
    np.testing.assert_allclose(again.probabilities, probabilities, atol=1e-12)
    assert not again.unreached.any()


def test_unreached_nodes_are_uniform_and_flagged():
    poker = kuhn_showdown(4)
    plan = np.zeros(poker.num_sequences(0))
    plan[0] = 1.0
    plan[1 + 4 * np.arange(4) + 1] = 1.0  # every card bets: the check-bet node is unreached
    behaviour = behaviour_from_plan(poker, 0, plan)
    assert behaviour.unreached[:, 1].all() and not behaviour.unreached[:, 0].any()
    np.testing.assert_allclose(behaviour.probabilities[:, 3:5], 0.5)


def test_best_response_to_never_bluffing_gains_one_ninth():
    # The same opponent as tests/test_exploit.py: player 1 never bets J and never calls
    # with Q; player 2's best response gains 1/9 over the value -1/18 (seqform exploit,
    # computed exactly on the tree).
    poker = kuhn_showdown()
    probabilities = np.ones((3, 5))
    probabilities[:, 1:] = [[1, 0, 1, 0], [1, 0, 1, 0], [0, 1, 0, 1]]  # J, Q check-fold; K bets
    behaviour = ShowdownBehaviour(0, probabilities, np.zeros((3, 2), bool))
    x = plan_from_behaviour(poker, behaviour)
    best_second = best_response_value(poker, 1, -payoff_to_second(poker, x))
    game = kuhn_poker()
    tree = certify_on_tree(
        game,
        {
            n: list(probabilities[c, s])
            for c, n0 in enumerate("JQK")
            for n, s in ((n0, [1, 2]), (n0 + "pb", [3, 4]))
        },
        {n: [0.5, 0.5] for n in ("Jp", "Jb", "Qp", "Qb", "Kp", "Kb")},
    )
    assert best_second == pytest.approx(float(tree.best_response_values[1]), abs=1e-12)


@pytest.mark.parametrize(
    ("betting", "message"),
    [
        (Bet(2, ("a",), (Showdown(Fraction(1)),)), "player 2 bets"),
        (Bet(0, ("a", "a"), (Showdown(Fraction(1)), Showdown(Fraction(1)))), "repeated"),
        (Bet(0, ("a",), (Fold(0, Fraction(0)),)), "positive amount"),
        (Bet(0, ("a",), (Showdown(Fraction(-1)),)), "positive stake"),
        (Bet(0, ("a", "b"), (Showdown(Fraction(1)),)), "one child per action"),
        (Bet(0, ("a",), (Bet(1, ("x",), ("oops",)),)), "history 'ax'"),
    ],
)
def test_invalid_betting_trees_are_named(betting, message):
    with pytest.raises(InvalidGameError, match=message):
        ShowdownPoker(name="bad", cards=3, betting=betting)


@pytest.mark.parametrize("cards", [1, 0, True, "3", 2.5])
def test_too_few_cards(cards):
    with pytest.raises(InvalidGameError, match="cards must be an integer >= 2"):
        kuhn_showdown(cards)


def test_showdown_game_refuses_a_huge_tree():
    with pytest.raises(ValueError, match="would have"):
        showdown_game(kuhn_showdown(10_000))
