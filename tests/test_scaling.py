"""The large-game path in CI: big N-card Kuhn through the flat pipeline (not timed)."""

import numpy as np
import pytest

from seqform.game.builtin.kuhn import kuhn_poker
from seqform.lp.solvers import SolverLimitError
from seqform.routes.solve import solve


def test_large_n_card_kuhn_is_solved_and_certified():
    # 150 cards: 22,350 deals, 201,150 nodes, 601 sequences per player.
    game = kuhn_poker(cards=150)
    solution = solve(game)
    assert game.flat.num_nodes == 150 * 149 * 9 + 1
    assert [t.num_sequences for t in solution.form.players] == [601, 601]
    assert solution.nash_conv <= 1e-6
    x, y = solution.plans
    np.testing.assert_allclose(solution.form.E @ x, solution.form.e, atol=1e-9)
    np.testing.assert_allclose(solution.form.F @ y, solution.form.f, atol=1e-9)


def test_time_limit_is_an_error_not_an_answer():
    messages = []
    with pytest.raises(SolverLimitError, match=r"stopped \(time limit reached\)"):
        solve(kuhn_poker(cards=60), time_limit=0.0, progress=messages.append)
    assert messages[0].startswith("sequence form of kuhn(cards=60)")
    assert messages[1].startswith("LP: ")
