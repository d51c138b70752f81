"""One-card showdown games without the tree: the sequence tables (their labels), the products
A y and A.T x, the certificate, each checked against the explicit tree
(seqform.forms.sequence_form and seqform.certify), which shares no code with the sorted-card
sums."""

from fractions import Fraction

import numpy as np
import pytest
from gametrees import raise_poker

from seqform.analyses.solve import solve
from seqform.certify import best_response as best_response_on_tree
from seqform.certify import certify as certify_on_tree
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_from_plan,
    plan_from_behaviour,
)
from seqform.game.builtin.kuhn import kuhn_poker, kuhn_showdown
from seqform.game.builtin.showdown_poker import Bet, Fold, Showdown, ShowdownPoker, showdown_game
from seqform.game.errors import InvalidGameError
from seqform.structured.showdown import (
    best_response,
    card_matrix,
    certify,
    node_matrix,
    payoff_to_first,
    payoff_to_second,
    sequence_table,
    sequence_tables,
)

GAMES = [kuhn_showdown(3), kuhn_showdown(5), raise_poker(4), raise_poker(7)]
IDS = ["kuhn3", "kuhn5", "raise4", "raise7"]


def _strategy(poker, player, probabilities):
    """A BehaviouralStrategy from per-card probabilities of shape (N, S_p)."""
    table = sequence_table(poker, player)
    flat = np.concatenate([[1.0], probabilities[:, 1:].ravel()])
    return BehaviouralStrategy(table, flat, np.zeros(table.num_infosets, bool))


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
        behaviours.append(_strategy(poker, player, probabilities))
    as_dicts = [b.as_dict() for b in behaviours]  # carried over to the tree by name
    ours = certify(poker, *behaviours)
    tree = certify_on_tree(game, *as_dicts)
    assert float(ours.value) == pytest.approx(float(tree.value), abs=1e-12)
    for mine, theirs in zip(ours.best_response_values, tree.best_response_values, strict=True):
        assert float(mine) == pytest.approx(float(theirs), abs=1e-12)
    assert float(ours.exploitability) > 1e-3  # random play is far from equilibrium


@pytest.mark.parametrize("poker", GAMES, ids=IDS)
def test_labels_equal_the_tree(poker):
    # The tree-free tables name information sets and sequences as the explicit tree does:
    # same names, same actions, same parent sequence; only the order may differ.
    game = showdown_game(poker)
    for ours, tree in zip(sequence_tables(poker), game.flat.tables, strict=True):
        assert sorted(ours.labels()) == sorted(tree.labels())
        assert len(set(ours.infosets)) == ours.num_infosets
        index = tree.index_of_infoset()
        for infoset, name in enumerate(ours.infosets):
            theirs = index[name]
            assert ours.actions[infoset] == tree.actions[theirs]
            assert ours.label(int(ours.parent_sequence[infoset])) == tree.label(
                int(tree.parent_sequence[theirs])
            )
            assert [ours.label(s) for s in ours.sequences_of(infoset)] == [
                tree.label(s) for s in tree.sequences_of(theirs)
            ]


def test_kuhn_labels_name_the_cards():
    first, second = sequence_tables(kuhn_showdown())
    assert first.infosets == ("J", "Jpb", "Q", "Qpb", "K", "Kpb")
    assert second.infosets == ("Jp", "Jb", "Qp", "Qb", "Kp", "Kb")
    assert second.labels()[:3] == ["∅", "Jp:p", "Jp:b"]


def test_best_response_strategy_equals_the_tree():
    # The same respond() on both routes: the same best actions, by name.
    poker = raise_poker(5)
    game = showdown_game(poker)
    rng = np.random.default_rng(5)
    probabilities = np.ones((5, poker.betting_table.num_sequences(0)))
    for sequences in poker.betting_table.node_sequences[0]:
        weights = rng.random((5, len(sequences)))
        probabilities[:, sequences] = weights / weights.sum(axis=1, keepdims=True)
    opponent = _strategy(poker, 0, probabilities)
    ours = best_response(poker, 1, opponent)
    tree = best_response_on_tree(game, 1, opponent.as_dict())
    assert float(ours.value) == pytest.approx(float(tree.value), abs=1e-12)
    assert ours.strategy.as_dict() == tree.strategy.as_dict()


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
    behaviour = _strategy(poker, 0, probabilities)
    plan = plan_from_behaviour(behaviour)
    again = behaviour_from_plan(sequence_table(poker, 0), plan)
    np.testing.assert_allclose(
        card_matrix(poker, 0, again.probabilities), probabilities, atol=1e-12
    )
    assert not again.unreached.any()


def test_unreached_nodes_are_uniform_and_flagged():
    poker = kuhn_showdown(4)
    plan = np.zeros(poker.num_sequences(0))
    plan[0] = 1.0
    plan[1 + 4 * np.arange(4) + 1] = 1.0  # every card bets: the check-bet node is unreached
    behaviour = behaviour_from_plan(sequence_table(poker, 0), plan)
    unreached = node_matrix(poker, 0, behaviour.unreached)
    assert unreached[:, 1].all() and not unreached[:, 0].any()
    np.testing.assert_allclose(card_matrix(poker, 0, behaviour.probabilities)[:, 3:5], 0.5)


def test_best_response_to_never_bluffing_gains_one_ninth():
    # The same opponent as tests/test_exploit.py: player 1 never bets J and never calls
    # with Q; player 2's best response gains 1/9 over the value -1/18 (seqform exploit,
    # computed exactly on the tree).
    poker = kuhn_showdown()
    probabilities = np.ones((3, 5))
    probabilities[:, 1:] = [[1, 0, 1, 0], [1, 0, 1, 0], [0, 1, 0, 1]]  # J, Q check-fold; K bets
    behaviour = _strategy(poker, 0, probabilities)
    best_second = best_response(poker, 1, behaviour).value
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
