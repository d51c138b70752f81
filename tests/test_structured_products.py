"""Structured games without the tree: A y and Aᵀ x by running sums, the explicit A and its
size, best responses and the certificate, each against the compiled tree's sequence form
(seqform.forms.sequence_form) and certificate (seqform.certify), which share no code with the
running sums; floats and exact Fractions."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from structured_helpers import SMALL, random_behaviour, tree_to_structured

from seqform.certify import best_response as best_response_on_tree
from seqform.certify import certify as certify_on_tree
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import behaviour_from_mapping
from seqform.game.builtin.kuhn import kuhn_structured
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.liars_dice import liars_dice_structured
from seqform.game.public.explicit import explicit_game
from seqform.routes.solve import solve
from seqform.structured.leaf_groups import leaf_index
from seqform.structured.payoff_matrix import payoff_entries, payoff_matrix, payoff_nnz
from seqform.structured.products import payoff_to_first, payoff_to_second
from seqform.structured.responses import best_response, certify, sequence_tables

NAMES = list(SMALL)


@pytest.fixture(scope="module", params=NAMES)
def instance(request):
    game = SMALL[request.param]()
    tree = explicit_game(game)
    return game, tree, build_sequence_form(tree), tree_to_structured(game, tree)


def _on_structured(vector, index, size):
    out = np.empty(size, dtype=vector.dtype)
    out[index] = vector
    return out


def test_products_equal_the_trees_matrix(instance):
    game, _tree, form, (rows, columns) = instance
    rng = np.random.default_rng(7)
    for _ in range(3):
        x, y = rng.normal(size=len(rows)), rng.normal(size=len(columns))
        ay = payoff_to_first(game, _on_structured(y, columns, len(columns)))[rows]
        atx = payoff_to_second(game, _on_structured(x, rows, len(rows)))[columns]
        np.testing.assert_allclose(ay, form.A @ y, atol=1e-12)
        np.testing.assert_allclose(atx, form.A.T @ x, atol=1e-12)


def _exact_vector(rng, size):
    out = np.empty(size, dtype=object)
    out[:] = [
        Fraction(int(n), int(d))
        for n, d in zip(rng.integers(-9, 10, size), rng.integers(1, 7, size), strict=True)
    ]
    return out


def test_exact_products_equal_the_trees_exact_matrix(instance):
    game, _tree, form, (rows, columns) = instance
    tree_rows, tree_columns, values = form.payoff_entries
    rng = np.random.default_rng(3)
    x, y = _exact_vector(rng, len(rows)), _exact_vector(rng, len(columns))
    expected_ay = [Fraction(0)] * len(rows)
    expected_atx = [Fraction(0)] * len(columns)
    for r, c, v in zip(tree_rows.tolist(), tree_columns.tolist(), values, strict=True):
        expected_ay[r] += v * y[c]
        expected_atx[c] += v * x[r]
    ay = payoff_to_first(game, _on_structured(y, columns, len(columns)))[rows]
    atx = payoff_to_second(game, _on_structured(x, rows, len(rows)))[columns]
    assert [Fraction(v) for v in ay] == expected_ay
    assert [Fraction(v) for v in atx] == expected_atx


def test_explicit_matrix_and_its_size(instance):
    game, _tree, form, (rows, columns) = instance
    ours = payoff_matrix(game)
    assert abs(ours[rows][:, columns] - form.A).max() < 1e-15
    assert payoff_nnz(game) == len(payoff_entries(game).values) == form.A.nnz


def _transfer(table, strategy):
    return behaviour_from_mapping(table, strategy.as_dict())


def test_best_responses_equal_on_random_strategies(instance):
    game, tree, _form, _maps = instance
    rng = np.random.default_rng(11)
    tables = sequence_tables(game)
    for player in (0, 1):
        opponent = random_behaviour(tables[1 - player], rng)
        ours = best_response(game, player, opponent)
        theirs = best_response_on_tree(
            tree, player, _transfer(tree.flat.tables[1 - player], opponent)
        )
        assert ours.value == pytest.approx(theirs.value, abs=1e-12)


def test_exact_certificate_equals_the_trees(instance):
    game, tree, _form, _maps = instance
    rng = np.random.default_rng(5)
    first, second = (random_behaviour(t, rng, exact=True) for t in sequence_tables(game))
    ours = certify(game, first, second)
    theirs = certify_on_tree(
        tree, _transfer(tree.flat.tables[0], first), _transfer(tree.flat.tables[1], second)
    )
    assert isinstance(ours.value, Fraction)
    # the structured range counts every showdown as both +stake and -stake, the tree's only
    # the payoffs dealt hands reach: larger where a range never wins (QQ against QQ,AA)
    assert ours.payoff_range >= theirs.payoff_range
    assert replace(ours, payoff_range=theirs.payoff_range) == theirs


def test_certificate_of_the_lp_solution_equals_the_trees(instance):
    game, tree, _form, _maps = instance
    solution = solve(tree)
    tables = sequence_tables(game)
    strategies = [_transfer(tables[p], solution.strategies[p]) for p in (0, 1)]
    ours = certify(game, *strategies)
    theirs = solution.certificate
    assert ours.value == pytest.approx(theirs.value, abs=1e-12)
    assert ours.nash_conv == pytest.approx(theirs.nash_conv, abs=1e-12)
    pairs = zip(ours.best_response_values, theirs.best_response_values, strict=True)
    for mine, tree_value in pairs:
        assert mine == pytest.approx(tree_value, abs=1e-12)


def test_strategy_of_another_game_is_refused():
    small, other = SMALL["kuhn3"](), SMALL["kuhn5"]()
    strategy = random_behaviour(sequence_tables(other)[1], np.random.default_rng(0))
    with pytest.raises(ValueError, match="kuhn: a strategy of player 2 has 21 sequences"):
        best_response(small, 0, strategy)


@pytest.mark.parametrize(
    "make",
    [
        lambda: kuhn_structured(40),
        lambda: leduc_structured(5, 2),
        lambda: leduc_structured(4, 3),
        lambda: liars_dice_structured(5),
        lambda: liars_dice_structured(2, 2),
    ],
    ids=["kuhn40", "leduc5x2", "leduc4x3", "liars-dice-5", "liars-dice-2x2"],
)
def test_nnz_by_level_histograms_equals_the_entries_written_out(make):
    # payoff_nnz counts from level histograms and clashes; payoff_entries writes every
    # non-zero entry of A pair by pair (exact), an independent count.  Two dice of two
    # sides give levels 0, 1 and 2 per face, as three sides did at 30 times the sequences.
    game = make()
    assert payoff_nnz(game) == len(payoff_entries(game).values)


def test_nnz_of_n_card_kuhn_is_five_leaves_of_ordered_deals():
    # Kuhn-N: 5 betting leaves, each non-zero on every ordered pair of distinct cards
    # (a showdown between distinct ranks never ties): nnz(A) = 5 N (N - 1).  At N = 10^5
    # the old pair-by-pair count ran out of memory.
    for cards in (3, 1000, 100_000):
        assert payoff_nnz(kuhn_structured(cards)) == 5 * cards * (cards - 1)


def test_the_leaf_slots_are_held_once() -> None:
    # each group's slots are a view into the concatenation the products' bincount reads,
    # with the numbers the group was built with (the products above check them)
    index = leaf_index(leduc_structured(3, 2))
    for player in (0, 1):
        start = 0
        for group in index.groups:
            size = group.slots[player].size
            assert np.shares_memory(group.slots[player], index.slots[player])
            assert (group.slots[player].ravel() == index.slots[player][start : start + size]).all()
            start += size
        assert start == len(index.slots[player])
