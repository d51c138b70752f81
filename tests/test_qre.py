"""Agent logit QRE: the equations, Gambit's answers on the games both can run, the fit.

Gambit is the reference: pygambit 16.7 computes the same agent (behaviour) logit QRE in the
same tests.  Its ``LogitQREMixedBehaviorProfile.profile`` raises "Cannot create a
MixedBehaviorProfile outside a Game", so its results are read by index, ``qre[i]`` being
the probability of ``game.actions[i]`` (players, information sets, actions in order).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from fractions import Fraction

import numpy as np
import pygambit
import pytest
from gametrees import random_game
from scipy.optimize import minimize_scalar

from seqform.game.builtin.kuhn3 import multiplayer_kuhn
from seqform.game.errors import InvalidGameError
from seqform.game.formats.from_gambit import game_from_gambit
from seqform.game.formats.to_gambit import game_to_gambit, sequence_probabilities
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Terminal
from seqform.io.action_counts import ActionCountsError, read_action_counts
from seqform.io.loader import load_game
from seqform.qre.equations import evaluate, logit_equations
from seqform.qre.equilibria import action_labels, logit_qre, trace_logit
from seqform.qre.fit import fit_logit
from seqform.qre.limit import compare_limit
from seqform.qre.trace import TraceSettings

AGREEMENT = 1e-6  # both tracers solve the equations to ~1e-9; Gambit's output has 1e-8 noise
CATALOGUE = [  # two-player constant-sum trees of pygambit 16.7's catalogue (see test_efg)
    "books/myerson1991/fig2_1",
    "books/vonstengel2022/fig10.12",
    "journals/mor/vonstengelforges2008/fig6",
    "journals/other/reiley2008/fig1",
]


def gambit_probabilities(game: Game, gambit_game: pygambit.Game, profile) -> np.ndarray:
    """Gambit's probabilities in the order of :func:`action_labels` (module docstring)."""
    return sequence_probabilities(game, gambit_game, profile)


def our_probabilities(point) -> np.ndarray:
    return np.concatenate([s.probabilities[1:] for s in point.strategies])


def games_both_run() -> list:
    params = [pytest.param(load_game("kuhn"), id="kuhn")]
    slow = pytest.mark.slow
    params += [
        pytest.param(random_game(seed), id=f"random-{seed}", marks=slow) for seed in range(6)
    ]
    params += [
        pytest.param(
            game_from_gambit(pygambit.catalog.load(slug)), id=slug.split("/")[-1], marks=slow
        )
        for slug in CATALOGUE
    ]
    return params


@pytest.mark.parametrize("game", games_both_run())
def test_qre_at_given_lambdas_matches_gambit(game):
    lambdas = [0.5, 2.0, 10.0]
    ours = logit_qre(game, lambdas).points
    gambit_game = game_to_gambit(game)
    theirs = pygambit.qre.logit_solve_lambda(gambit_game, lam=lambdas)
    for point, reference in zip(ours, theirs, strict=True):
        assert point.lam == pytest.approx(reference.lam, rel=1e-6)
        expected = gambit_probabilities(game, gambit_game, reference)
        np.testing.assert_allclose(our_probabilities(point), expected, atol=AGREEMENT)


LIMIT_TOLERANCE = 1e-7  # both stop rules at 1e-7 × the payoff range (see the test)


@pytest.mark.slow
@pytest.mark.parametrize("game", games_both_run())
def test_traced_limit_matches_gambits_logit_solve(game):
    # Gambit's limit (logit_solve, maxregret 1e-7) is a point of our branch: our QRE at the
    # λ where Gambit's trace stopped (the last point of its logit_solve_branch) is its
    # profile.  Our stop rule asks NashConv as well as the agent regret to be small, so our
    # limit lies at least as far along the branch; on these games it stays within 1e-3 of
    # Gambit's (1e-5 on the two-player ones, 2e-4 on 3-player Kuhn, whose Gambit trace ends
    # at λ ≈ 1.1e4 and ours at about 5.8e5).  1e-7 rather than Gambit's default 1e-8: there some
    # branches need λ ≈ 1e6-1e7, where doubles resolve exact ties of conditional values
    # only to about λ² × 1e-16 (random-5 drifts by 3e-3 at a 0.5/0.5 information set).
    # Gambit's branch is traced once: its last point is what logit_solve returns
    # (test_gambits_limit_is_the_last_point_of_its_branch).  3-player Kuhn, whose branch
    # takes Gambit about a minute, is checked the same way by benchmarks/qre_kuhn3_limit.py.
    gambit_game = game_to_gambit(game)
    end = pygambit.qre.logit_solve_branch(gambit_game, maxregret=LIMIT_TOLERANCE)[-1]
    expected = gambit_probabilities(game, gambit_game, end)  # a branch point: by position
    stopped_at = end.lam
    there = logit_qre(game, [stopped_at]).points[0]
    # 1e-4, not AGREEMENT: at λ ≈ 3e5 random-5's tied 0.5/0.5 pair is resolved to ~6e-6
    np.testing.assert_allclose(our_probabilities(there), expected, atol=1e-4)
    branch = trace_logit(game, tolerance=LIMIT_TOLERANCE)
    assert branch.converged and branch.lambdas[-1] >= stopped_at * (1 - 1e-6)
    assert branch.agent_regret <= LIMIT_TOLERANCE * branch.payoff_range
    np.testing.assert_allclose(our_probabilities(branch.limit), expected, atol=1e-3)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("first_step", "max_accel"), [(0.029, 1.1), (0.02, 2.0)], ids=["slow-growth", "fast-growth"]
)
def test_kuhn3_trace_reaches_its_limit_whatever_the_step_sizes(first_step, max_accel):
    # Near λ ≈ 3e5-5e5 the corrector's first correction is rounding of order 1 (the
    # residual's noise grows like λ × |β|); it used to reject every step down to 1e-10 and
    # lose the branch at λ ≈ 3.4e5 (slow-growth) and 5.2e5 (fast-growth), or to take a
    # diverging correction for a stall.  The default settings happened to pass.
    settings = TraceSettings(first_step=first_step, max_accel=max_accel)
    branch = trace_logit(multiplayer_kuhn(3), tolerance=LIMIT_TOLERANCE, settings=settings)
    assert branch.converged, branch.reason
    assert branch.agent_regret <= LIMIT_TOLERANCE * branch.payoff_range


def test_gambits_limit_is_the_last_point_of_its_branch():
    # what lets the test above trace Gambit's branch once instead of twice
    gambit_game = game_to_gambit(load_game("kuhn"))
    limit = pygambit.nash.logit_solve(gambit_game, maxregret=LIMIT_TOLERANCE).equilibria[0]
    end = pygambit.qre.logit_solve_branch(gambit_game, maxregret=LIMIT_TOLERANCE)[-1]
    for position, action in enumerate(gambit_game.actions):  # profile by action, point by position
        assert float(limit[action]) == pytest.approx(float(end[position]), abs=1e-12)


@pytest.mark.slow
def test_kuhn_branch_selects_one_member_of_the_alpha_family():
    # Kuhn (1950): player 1's equilibria bet the Jack with α in [0, 1/3], the King with 3α.
    branch = trace_logit(load_game("kuhn"))
    comparison = compare_limit(branch.game, branch.limit)
    parameter = comparison.parameters[0]
    assert parameter is not None
    label, alpha, low, high = parameter
    assert label == "J:b" and (low, high) == pytest.approx((0, 1 / 3))
    assert low < alpha < high
    king = branch.limit.strategies[0].at("K")["b"]
    assert king == pytest.approx(3 * alpha, abs=1e-4)
    assert comparison.segment_distance[0] < 1e-4
    assert comparison.ranges_skipped is None


@pytest.mark.slow
def test_ranges_beyond_its_work_limit_is_skipped_with_its_reason_and_refine_still_runs():
    # qre leduc spent 18 of its 20 minutes in ranges (8,736 LPs); compare_limit now applies
    # ranges' work limit (here 0 s, so even Kuhn's few LPs exceed it) and says why
    branch = trace_logit(load_game("kuhn"))
    comparison = compare_limit(branch.game, branch.limit, max_seconds=0.0)
    assert comparison.ranges_skipped is not None and "LPs" in comparison.ranges_skipped
    assert comparison.parameters == (None, None) and comparison.segment_distance == (None, None)
    assert len(comparison.refined_difference) == 2
    assert comparison.parameters[1] is None  # player 2's equilibrium strategy is unique


def test_a_larger_face_is_reported_by_its_dimension_not_as_unique():
    # Player 2 ends the game at once (r: 1 to player 1) or lets chance pick one of two
    # information sets where player 1 is indifferent (0 either way): player 2's optimal plan
    # is the point l, player 1's optimal plans are the square x[A:a], x[B:a] in [0, 1]
    # (ranges finds dimension 2), so no one parameter places the limit.
    def indifferent(infoset: str) -> Decision:
        return Decision(0, infoset, ("a", "b"), (Terminal((0, 0)), Terminal((0, 0))))

    chance = Chance(
        ("h", "t"), (Fraction(1, 2), Fraction(1, 2)), (indifferent("A"), indifferent("B"))
    )
    game = Game(
        name="two indifferences", root=Decision(1, "Q", ("l", "r"), (chance, Terminal((1, -1))))
    )
    branch = trace_logit(game)
    comparison = compare_limit(game, branch.limit)
    assert comparison.dimensions == (2, 0)
    assert comparison.parameters == (None, None)


def test_jacobian_matches_finite_differences():
    game = random_game(3)
    equations = logit_equations(game)
    beta = equations.uniform() + 0.3 * np.random.default_rng(0).standard_normal(equations.size)
    point = evaluate(equations, beta, 1.7)
    assert point.jacobian is not None
    numeric = np.empty((equations.size, equations.size))
    for k in range(equations.size):
        step = np.zeros(equations.size)
        step[k] = 1e-6
        above = evaluate(equations, beta + step, 1.7, jacobian=False).residual
        below = evaluate(equations, beta - step, 1.7, jacobian=False).residual
        numeric[:, k] = (above - below) / 2e-6
    np.testing.assert_allclose(point.jacobian.toarray(), numeric, atol=1e-6)


@pytest.mark.slow
def test_three_player_kuhn_matches_gambit():
    # QRE is defined for any number of players; Gambit traces the same branch.  Gambit's
    # corrector lands on each requested lambda whatever its step, so it is given long steps:
    # its default (0.03, growing by 1.1) took 16 s of CPU for the same two points; a wrong
    # payoff or equation for the third player still moves them by far more than AGREEMENT.
    game = multiplayer_kuhn(3)
    ours = logit_qre(game, [1.0, 4.0]).points
    gambit_game = game_to_gambit(game)
    theirs = pygambit.qre.logit_solve_lambda(
        gambit_game, lam=[1.0, 4.0], first_step=0.2, max_accel=1.5
    )
    for point, reference in zip(ours, theirs, strict=True):
        assert len(point.strategies) == 3
        expected = gambit_probabilities(game, gambit_game, reference)
        np.testing.assert_allclose(our_probabilities(point), expected, atol=AGREEMENT)


def test_zero_chance_information_set_is_refused():
    root = Chance(
        outcomes=("x", "y"),
        probabilities=(1, 0),
        children=(
            Terminal((1, -1)),
            Decision(0, "only", ("a", "b"), (Terminal((1, -1)), Terminal((0, 0)))),
        ),
    )
    with pytest.raises(InvalidGameError, match="chance probability 0"):
        logit_equations(Game(name="zero", root=root))


def simulated_counts(game: Game, lam: float, per_infoset: int, seed: int) -> np.ndarray:
    point = logit_qre(game, [lam]).points[0]
    rng = np.random.default_rng(seed)
    counts = []
    for strategy in point.strategies:
        table = strategy.table
        for infoset in range(table.num_infosets):
            sequences = list(table.sequences_of(infoset))
            counts.extend(rng.multinomial(per_infoset, strategy.probabilities[sequences]))
    return np.array(counts, dtype=float)


@pytest.mark.slow
def test_fit_recovers_lambda_from_simulated_play():
    # Data drawn from the QRE at λ = 1.5 (seeded): the estimate is within sampling error.
    game = load_game("kuhn")
    counts = simulated_counts(game, 1.5, per_infoset=4000, seed=7)
    fit = fit_logit(game, counts)
    assert fit.lam == pytest.approx(1.5, rel=0.1)
    assert not fit.at_end
    assert fit.log_likelihood == pytest.approx(counts @ np.log(our_probabilities(fit.point)))


def gambit_order(game: Game, gambit_game: pygambit.Game) -> np.ndarray:
    """For each of our actions (:func:`action_labels` order), its index in Gambit's."""
    return gambit_probabilities(game, gambit_game, list(range(len(gambit_game.actions))))


@pytest.mark.slow
def test_fit_matches_gambits_estimator():
    # pygambit 16.7's public logit_estimate on behaviour profiles crashes the interpreter
    # (signal 11) in its default global search, and with local_max=True it reaches the
    # estimate but raises building the result's `profile` ("Cannot create a
    # MixedBehaviorProfile outside a Game").  Its compiled estimator
    # (_logit_behavior_estimate, local_max=True: the first interior maximum along the
    # branch) is therefore called directly, in a subprocess in case it crashes, and only
    # its λ and log-likelihood are read.  The data's likelihood has one maximum along the
    # branch (test below), so the local and global maximisers agree.
    game = load_game("kuhn")
    counts = simulated_counts(game, 1.5, per_infoset=500, seed=3)
    gambit_counts = np.zeros(len(counts))
    gambit_counts[gambit_order(game, game_to_gambit(game)).astype(int)] = counts
    script = textwrap.dedent(
        f"""
        import pygambit.gambit as libgbt
        from seqform.io.loader import load_game
        from seqform.game.formats.to_gambit import game_to_gambit
        game = game_to_gambit(load_game("kuhn"))
        data = game.mixed_behavior_profile(rational=False)
        for action, count in zip(game.actions, {gambit_counts.tolist()!r}):
            data[action] = count
        result = libgbt._logit_behavior_estimate(
            data, local_max=True, first_step=0.03, max_accel=1.1
        )
        print(result.lam, result.log_like)
        """
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    if run.returncode < 0:
        pytest.skip(f"pygambit's estimator crashed (signal {-run.returncode})")
    assert run.returncode == 0, run.stderr
    lam, log_likelihood = (float(word) for word in run.stdout.split())
    fit = fit_logit(game, counts)
    assert fit.lam == pytest.approx(lam, rel=1e-6)
    assert fit.log_likelihood == pytest.approx(log_likelihood, rel=1e-9)


@pytest.mark.slow
def test_fit_maximises_the_likelihood_of_gambits_qre():
    # An estimate made without our tracer: scipy's bounded Brent maximises the
    # log-likelihood of the counts at Gambit's QRE (logit_solve_lambda) over λ in [0, 20]
    # (the likelihood of data simulated at λ = 1.5 rises then falls along the branch).
    game = load_game("kuhn")
    counts = simulated_counts(game, 1.5, per_infoset=500, seed=3)
    gambit_game = game_to_gambit(game)

    def minus_log_likelihood(lam: float) -> float:
        reference = pygambit.qre.logit_solve_lambda(gambit_game, lam=[lam])[0]
        return -float(counts @ np.log(gambit_probabilities(game, gambit_game, reference)))

    best = minimize_scalar(
        minus_log_likelihood, bounds=(0.0, 20.0), method="bounded", options={"xatol": 1e-8}
    )
    fit = fit_logit(game, counts)
    assert fit.lam == pytest.approx(best.x, rel=1e-6)
    assert fit.log_likelihood == pytest.approx(-best.fun, rel=1e-9)
    assert not fit.at_end


def test_counts_read_from_json_and_csv_agree(tmp_path):
    game = load_game("kuhn")
    as_json = tmp_path / "counts.json"
    as_json.write_text(
        json.dumps({"counts": {"1": {"J": {"p": 40, "b": 10}}, "2": {"Kb": {"b": 5}}}})
    )
    as_csv = tmp_path / "counts.csv"
    as_csv.write_text("player,infoset,action,count\n1,J,p,40\n1,J,b,10\n2,Kb,b,5\n")
    first, second = read_action_counts(game, as_json), read_action_counts(game, as_csv)
    np.testing.assert_array_equal(first, second)
    labels = action_labels(game)
    assert first[labels.index((0, "J", "b"))] == 10 and first.sum() == 55


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("player,infoset,action,count\n1,J,x,3\n", "no action 'x'", id="action"),
        pytest.param("player,infoset,action,count\n1,J,b,-3\n", "whole number", id="negative"),
        pytest.param("p,i,a,c\n", "header", id="header"),
    ],
)
def test_bad_counts_are_refused_with_the_entry(tmp_path, text, message):
    path = tmp_path / "counts.csv"
    path.write_text(text)
    with pytest.raises(ActionCountsError, match=message):
        read_action_counts(load_game("kuhn"), path)
