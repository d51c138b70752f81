"""One-card poker games (N-card Kuhn and a raise game) on the structured route: the
sequence tables (their labels), the products A y and A.T x, best responses and the
certificate, each checked against the explicit tree written from the betting tree
(tests/reference_trees.one_card_tree, then seqform.forms.sequence_form and seqform.certify),
which shares no code with the structured route's running sums."""

from fractions import Fraction

import numpy as np
import pytest
from gametrees import raise_poker
from reference_trees import one_card_tree
from structured_helpers import random_behaviour, tree_to_structured

from seqform.certify import best_response as best_response_on_tree
from seqform.certify import certify as certify_on_tree
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import (
    behaviour_from_mapping,
    behaviour_from_plan,
    plan_from_behaviour,
)
from seqform.game.builtin.kuhn import kuhn_betting, kuhn_poker, kuhn_structured
from seqform.game.builtin.one_card import (
    Bet,
    Fold,
    OneCardPoker,
    Showdown,
    one_card_game,
)
from seqform.game.errors import InvalidGameError
from seqform.game.public.explicit import tree_nodes
from seqform.game.public.numbering import number_public_tree
from seqform.routes.solve import solve
from seqform.structured.products import hand_matrix, payoff_to_first, payoff_to_second
from seqform.structured.responses import best_response, certify, sequence_tables

POKERS = [kuhn_betting(3), kuhn_betting(5), raise_poker(4), raise_poker(7)]
IDS = ["kuhn3", "kuhn5", "raise4", "raise7"]


@pytest.fixture(scope="module", params=list(zip(POKERS, IDS, strict=True)), ids=IDS)
def instance(request):
    poker = request.param[0]
    game, tree = one_card_game(poker), one_card_tree(poker)
    return game, tree, build_sequence_form(tree), tree_to_structured(game, tree)


def test_products_equal_the_tree_payoff_matrix(instance):
    game, _tree, form, (rows, columns) = instance
    rng = np.random.default_rng(7)
    x, y = rng.random(len(rows)), rng.random(len(columns))
    ours_x, ours_y = np.empty(len(rows)), np.empty(len(columns))
    ours_x[rows], ours_y[columns] = x, y
    np.testing.assert_allclose(payoff_to_second(game, ours_x)[columns], form.A.T @ x, atol=1e-14)
    np.testing.assert_allclose(payoff_to_first(game, ours_y)[rows], form.A @ y, atol=1e-14)


def test_certificate_equals_the_tree_walk_for_random_strategies(instance):
    game, tree, _form, _maps = instance
    rng = np.random.default_rng(11)
    behaviours = [random_behaviour(table, rng) for table in sequence_tables(game)]
    ours = certify(game, *behaviours)
    theirs = certify_on_tree(tree, *(b.as_dict() for b in behaviours))  # carried over by name
    assert float(ours.value) == pytest.approx(float(theirs.value), abs=1e-12)
    for mine, other in zip(ours.best_response_values, theirs.best_response_values, strict=True):
        assert float(mine) == pytest.approx(float(other), abs=1e-12)
    assert float(ours.nash_conv) > 1e-3  # random play is far from equilibrium


def test_labels_equal_the_tree(instance):
    # The tree-free tables name information sets and sequences as the explicit tree does:
    # same names, same actions, same parent sequence; only the order may differ.
    game, tree, _form, _maps = instance
    for ours, theirs in zip(sequence_tables(game), tree.flat.tables, strict=True):
        assert sorted(ours.labels()) == sorted(theirs.labels())
        assert len(set(ours.infosets)) == ours.num_infosets
        index = theirs.index_of_infoset()
        for infoset, name in enumerate(ours.infosets):
            other = index[name]
            assert ours.actions[infoset] == theirs.actions[other]
            assert ours.label(int(ours.parent_sequence[infoset])) == theirs.label(
                int(theirs.parent_sequence[other])
            )
            assert [ours.label(s) for s in ours.sequences_of(infoset)] == [
                theirs.label(s) for s in theirs.sequences_of(other)
            ]


def test_kuhn_labels_name_the_cards():
    first, second = sequence_tables(kuhn_structured())
    assert first.infosets == ("J", "Jpb", "Q", "Qpb", "K", "Kpb")
    assert second.infosets == ("Jp", "Jb", "Qp", "Qb", "Kp", "Kb")
    assert second.labels()[:3] == ["∅", "Jp:p", "Jp:b"]


def test_best_response_strategy_equals_the_tree():
    # The same respond() on both routes: the same best actions, by name.
    poker = raise_poker(5)
    game, tree = one_card_game(poker), one_card_tree(poker)
    opponent = random_behaviour(sequence_tables(game)[0], np.random.default_rng(5))
    ours = best_response(game, 1, opponent)
    theirs = best_response_on_tree(tree, 1, opponent.as_dict())
    assert float(ours.value) == pytest.approx(float(theirs.value), abs=1e-12)
    assert ours.strategy.as_dict() == theirs.strategy.as_dict()


@pytest.mark.parametrize("cards", [3, 4, 9])
def test_showdown_tree_is_kuhn_poker(cards):
    # The tree written from the betting tree has Kuhn's value (tree LP, same run).
    ours = solve(one_card_tree(kuhn_betting(cards)))
    theirs = solve(kuhn_poker(cards))
    assert ours.value == pytest.approx(theirs.value, abs=1e-12)
    assert set(ours.form.players[0].infosets) == set(theirs.form.players[0].infosets)


def test_kuhn_counts_without_the_tree():
    # Kuhn (1950): 6 + 6 information sets, 13 sequences each (KUHN_FACTS.md).
    numbering = number_public_tree(kuhn_structured())
    assert [numbering.num_infosets(p) for p in (0, 1)] == [6, 6]
    assert [numbering.num_sequences(p) for p in (0, 1)] == [13, 13]
    assert one_card_tree(kuhn_betting()).flat.num_nodes == kuhn_poker().flat.num_nodes == 55
    assert tree_nodes(kuhn_structured()) >= 55  # an upper bound, never built
    big = number_public_tree(kuhn_structured(250_000))  # 10^6 sequences per player, 4N + 1
    assert big.num_sequences(0) == big.num_sequences(1) == 1_000_001
    assert big.num_leaves == 5  # betting leaves; the tree has 5 N (N - 1) terminal histories


def test_plan_and_behaviour_round_trip():
    game = one_card_game(raise_poker(6))
    table = sequence_tables(game)[0]
    rng = np.random.default_rng(3)
    behaviour = random_behaviour(table, rng)
    probabilities = behaviour.probabilities
    probabilities[1:] = 0.1 + probabilities[1:]  # every action played: nothing unreached
    for infoset in range(table.num_infosets):
        span = table.sequences_of(infoset)
        probabilities[span] /= probabilities[span].sum()
    plan = plan_from_behaviour(behaviour)
    again = behaviour_from_plan(table, plan)
    np.testing.assert_allclose(again.probabilities, probabilities, atol=1e-12)
    assert not again.unreached.any()


def test_unreached_nodes_are_uniform_and_flagged():
    game = kuhn_structured(4)
    table = sequence_tables(game)[0]
    plan = np.zeros(table.num_sequences)
    plan[0] = 1.0
    plan[[table.labels().index(f"{card}:b") for card in "1234"]] = 1.0  # every card bets
    behaviour = behaviour_from_plan(table, plan)
    reached = {
        name: not flag for name, flag in zip(table.infosets, behaviour.unreached, strict=True)
    }
    assert reached == {name: "pb" not in name for name in table.infosets}
    columns = hand_matrix(game, 0, behaviour.probabilities)  # -, p, b, pb:p, pb:b
    np.testing.assert_allclose(columns[:, 3:5], 0.5)


def test_best_response_to_never_bluffing_gains_one_ninth():
    # The same opponent as tests/test_exploit.py: player 1 never bets J and never calls
    # with Q; player 2's best response gains 1/9 over the value -1/18 (seqform exploit,
    # computed exactly on the tree).
    never_bluffing = {"J": [1, 0], "Jpb": [1, 0], "Q": [1, 0], "Qpb": [1, 0]}
    never_bluffing |= {"K": [0, 1], "Kpb": [0, 1]}
    game = kuhn_structured()
    behaviour = behaviour_from_mapping(sequence_tables(game)[0], never_bluffing)
    best_second = best_response(game, 1, behaviour).value
    tree = certify_on_tree(
        kuhn_poker(), never_bluffing, {n: [0.5, 0.5] for n in ("Jp", "Jb", "Qp", "Qb", "Kp", "Kb")}
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
        (Bet(0, ("a",), (Bet(1, ("x",), ("oops",)),)), "history 'ax'"),  # type: ignore[arg-type]
    ],
)
def test_invalid_betting_trees_are_named(betting, message):
    with pytest.raises(InvalidGameError, match=message):
        OneCardPoker(name="bad", cards=3, betting=betting)


@pytest.mark.parametrize("cards", [1, 0, True, "3", 2.5])
def test_too_few_cards(cards):
    with pytest.raises(InvalidGameError, match="cards must be an integer >= 2"):
        kuhn_structured(cards)


def test_kuhn_tree_refuses_a_huge_tree():
    with pytest.raises(ValueError, match="would have"):
        kuhn_poker(10_000)
