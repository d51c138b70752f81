"""The structured LP of N-card Kuhn (and another one-card poker game) on the structured
route, against the plain sequence-form LP on the tree, in the same test."""

import numpy as np
import pytest
from gametrees import raise_poker
from reference_trees import one_card_tree

from seqform.game.builtin.kuhn import kuhn_betting, kuhn_poker, kuhn_structured
from seqform.game.builtin.one_card import one_card_game
from seqform.game.public.explicit import tree_nodes
from seqform.lp.solvers import SolverLimitError
from seqform.routes.solve import solve
from seqform.routes.structured import solve_structured
from seqform.structured.lp_model import build_structured_lp
from seqform.structured.lp_solve import solve_structured_lp
from seqform.structured.products import hand_matrix
from seqform.structured.responses import sequence_tables

KUHN_VALUE = -1 / 18  # Kuhn (1950); Wikipedia "Kuhn poker"


def _constraints_hold(game, x, y, atol):
    """E x = e and F y = f, checked information set by information set (the tables'
    spans: each information set's sequences sum to its parent sequence)."""
    for table, plan in zip(sequence_tables(game), (x, y), strict=True):
        assert plan[0] == pytest.approx(1.0, abs=atol)
        starts = table.first_sequence
        counts = np.fromiter((len(a) for a in table.actions), dtype=np.int64)
        sums = np.add.reduceat(plan, starts) if len(starts) else np.zeros(0)
        # reduceat sums up to the next start: the spans are contiguous and in order.
        order = np.argsort(starts)
        assert np.all(np.diff(starts[order]) == counts[order][:-1])
        np.testing.assert_allclose(sums[order], plan[table.parent_sequence][order], atol=atol)


def _kuhn_columns(game, player, probabilities):
    """``(3, S)`` per card: Kuhn's columns ``-, p, b, pb:p, pb:b`` (player 1) or
    ``-, p:p, p:b, b:p, b:b`` (player 2)."""
    return hand_matrix(game, player, probabilities)


@pytest.mark.parametrize("solver", ["clarabel", "simplex", "ipm"])
def test_kuhn_value_and_player_two(solver):
    kuhn = kuhn_structured()
    solution = solve_structured(kuhn, solver=solver)
    assert solution.value == pytest.approx(KUHN_VALUE, abs=1e-8)
    assert solution.nash_conv <= 1e-8
    # Kuhn (1950): player 2's equilibrium is unique; probabilities of betting/calling.
    p2 = _kuhn_columns(kuhn, 1, solution.strategies[1].probabilities)
    np.testing.assert_allclose(p2[:, 2], [1 / 3, 0, 1], atol=1e-6)  # bet after a check
    np.testing.assert_allclose(p2[:, 4], [0, 1 / 3, 1], atol=1e-6)  # call a bet
    p1 = _kuhn_columns(kuhn, 0, solution.strategies[0].probabilities)
    alpha = p1[0, 2]  # Kuhn's family: J bets α ∈ [0, 1/3], K bets 3α, Q calls α + 1/3
    assert -1e-6 <= alpha <= 1 / 3 + 1e-6
    assert p1[2, 2] == pytest.approx(3 * alpha, abs=1e-6)
    assert p1[1, 4] == pytest.approx(alpha + 1 / 3, abs=1e-6)


def test_kuhn_columns_are_the_named_sequences():
    # The columns read above are the sequences the tables name so (hand-major numbering).
    kuhn = kuhn_structured()
    first, second = (np.asarray(t.labels(), dtype=object) for t in sequence_tables(kuhn))
    assert list(_kuhn_columns(kuhn, 0, first)[0, 1:]) == ["J:p", "J:b", "Jpb:p", "Jpb:b"]
    assert list(_kuhn_columns(kuhn, 1, second)[2, 1:]) == ["Kp:p", "Kp:b", "Kb:p", "Kb:b"]


@pytest.mark.parametrize(
    "poker", [kuhn_betting(7), kuhn_betting(40), raise_poker(6)], ids=["kuhn7", "kuhn40", "raise6"]
)
def test_value_equals_the_tree_lp(poker):
    # The reference is the plain sequence-form LP on the explicit tree written from the
    # betting tree (tests/reference_trees.py, HiGHS simplex): no code of the structured route.
    reference = solve(one_card_tree(poker)).value
    game = one_card_game(poker)
    for solver, tolerance in (("clarabel", 1e-8), ("simplex", 1e-11)):
        solution = solve_structured(game, solver=solver)
        assert solution.value == pytest.approx(reference, abs=tolerance)
        assert float(solution.certificate.value) == pytest.approx(reference, abs=tolerance)
        assert solution.nash_conv <= 10 * tolerance
        _constraints_hold(game, *solution.plans, atol=1e-7)


def test_lp_size_is_linear_in_the_deck():
    sizes = [build_structured_lp(kuhn_structured(n)).matrix.nnz for n in (1000, 4000)]
    assert sizes[1] < 4.2 * sizes[0]  # the plain LP's A alone grows 16-fold


def test_large_deck_is_solved_and_certified():
    # 5,000 cards: 20,001 sequences per player; the tree would have 225 million nodes.
    game = kuhn_structured(5000)
    solution = solve_structured(game)
    assert tree_nodes(game) > 2 * 10**8
    assert solution.nash_conv <= 1e-9
    # The certificate pins the value down: a profile with NashConv ε has expected value
    # within ε of the game's value, so the LP's optimum must agree with it to 1e-9.
    assert float(solution.certificate.value) == pytest.approx(solution.value, abs=1e-9)
    # Sanity, not a reference: N-card Kuhn's value stays near Kuhn's -1/18 (the tree LP in
    # test_value_equals_the_tree_lp gives -0.0580 at N = 40).
    assert solution.value == pytest.approx(KUHN_VALUE, abs=2e-3)
    _constraints_hold(game, *solution.plans, atol=1e-6)


def test_time_limit_is_an_error_not_an_answer():
    lp = build_structured_lp(kuhn_structured(20_000))
    with pytest.raises(SolverLimitError, match="Clarabel stopped"):
        solve_structured_lp(lp, time_limit=1e-3)


def test_limit_message_measures_the_last_point():
    with pytest.raises(SolverLimitError, match="exploitability"):
        solve_structured(kuhn_structured(20_000), solver="clarabel", time_limit=1e-3)


def test_unknown_solver_is_refused():
    with pytest.raises(ValueError, match="unknown solver"):
        solve_structured_lp(build_structured_lp(kuhn_structured()), solver="pdlp")  # type: ignore[arg-type]


def test_kuhn_tree_refuses_a_huge_deck():
    with pytest.raises(ValueError, match="--method structured"):
        kuhn_poker(cards=250_000)


def test_a_one_card_poker_game_is_solved_from_the_facade():
    import seqform

    poker = raise_poker(6)
    assert isinstance(poker, seqform.OneCardPoker)
    solution = seqform.solve(seqform.one_card_game(poker))
    # The reference: the tree LP on the tree written from the betting tree.
    assert solution.value == pytest.approx(solve(one_card_tree(poker)).value, abs=1e-8)
    assert solution.nash_conv <= 1e-9
