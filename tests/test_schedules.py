"""The hyperparameter schedules of Zhang, McAleer and Sandholm (2024): HS-DCFR and HS-PCFR+.

Two references.  The paper's recurrences (arXiv 2404.09097 v2, eq. 2-4, as stated in
:mod:`seqform.iterative.rules`), written history by history on OpenSpiel's Kuhn in this file:
the old cumulative regret discounted by ``d(t − 1)`` with the exponents read at ``t − 1``
before the new regret is added, and the average in either reading of a scheduled ``γ`` —
the new strategy weighed ``t^{γ(t)}`` (power), or the old sum multiplied by
``((t − 1)/t)^{γ(t − 1)}`` before the new one is added (factor).  seqform's rule instead
weighs each iteration by precomputed weights and discounts after adding; the orders are the
same numbers up to rounding.  And OpenSpiel's own ``DCFRSolver`` (python,
``discounted_cfr.py``) with the schedule's ``α, β, γ`` set before each iteration: an
independent implementation of HS-DCFR in the power reading.
"""

from __future__ import annotations

import numpy as np
import pytest

from seqform.cli.main import main
from seqform.io.loader import load_game
from seqform.iterative.cfr import solve_with_rule
from seqform.iterative.rules import (
    DCFR,
    FACTOR_READINGS,
    HS_DCFR_15,
    HS_DCFR_30,
    HS_PCFR_PLUS_15,
    HS_PCFR_PLUS_30,
    PCFR_PLUS,
    Linear,
    ScheduledRule,
    for_run,
)
from seqform.iterative.run import Stopping

ITERATIONS = 50


def kuhn_key(name: str) -> str:
    return str("JQK".index(name[0])) + name[1:]


def _discount(regrets: np.ndarray, tau: int, alpha: float, beta: float) -> np.ndarray:
    """DCFR's factor (Brown and Sandholm 2019): ``τ^α/(τ^α + 1)`` on ``R > 0``, ``τ^β/(τ^β +
    1)`` elsewhere; nothing is left at ``τ = 0``."""
    if tau == 0:
        return np.zeros_like(regrets)
    return np.where(regrets > 0, tau**alpha / (tau**alpha + 1), tau**beta / (tau**beta + 1))


class PaperWalk:
    """HS-DCFR or HS-PCFR+ by the paper's recurrences on OpenSpiel's tree (module docstring);
    alternating updates, player 0 first, as every seqform regret method."""

    def __init__(self, game, rule: ScheduledRule, horizon: int) -> None:
        self.game, self.horizon = game, horizon
        self.gamma0, self.dcfr = rule.gamma.start, rule.alpha is not None
        self.power = rule.averaging == "power"
        self.regrets: dict[str, np.ndarray] = {}
        self.instant: dict[str, np.ndarray] = {}
        self.policy: dict[str, np.ndarray] = {}
        self.cumulative: dict[str, np.ndarray] = {}
        self.reach: dict[str, float] = {}
        self.owner: dict[str, int] = {}

    def _key(self, state) -> str:
        key = state.information_state_string()
        if key not in self.policy:
            count = len(state.legal_actions())
            for table in (self.regrets, self.instant, self.cumulative):
                table[key] = np.zeros(count)
            self.policy[key] = np.full(count, 1.0 / count)
            self.reach[key] = 0.0
            self.owner[key] = state.current_player()
        return key

    def _walk(self, state, player: int, own: float, others: float) -> float:
        if state.is_terminal():
            return state.returns()[player]
        if state.is_chance_node():
            return sum(
                p * self._walk(state.child(a), player, own, others * p)
                for a, p in state.chance_outcomes()
            )
        key, actions = self._key(state), state.legal_actions()
        policy = self.policy[key]
        if state.current_player() != player:
            return sum(
                policy[i] * self._walk(state.child(a), player, own, others * policy[i])
                for i, a in enumerate(actions)
            )
        values = np.array(
            [
                self._walk(state.child(a), player, own * policy[i], others)
                for i, a in enumerate(actions)
            ]
        )
        value = float(policy @ values)
        self.instant[key] += others * (values - value)
        self.reach[key] += own
        return value

    def _update(self, key: str, t: int) -> None:
        tau, progress = t - 1, (t - 1) / self.horizon  # the exponents of iteration t - 1
        new = self.reach[key] * self.policy[key]
        if self.power:  # iteration t weighs t^gamma(t)
            weight = t ** (self.gamma0 - 5 * t / self.horizon)
            self.cumulative[key] = self.cumulative[key] + weight * new
        else:  # the old sum times ((t - 1)/t)^gamma(t - 1)
            factor = (tau / t) ** (self.gamma0 - 5 * progress)
            self.cumulative[key] = self.cumulative[key] * factor + new
        if self.dcfr:  # eq. 4: alpha = 1 + 3t/n, beta = -1 - 2t/n
            old = self.regrets[key]
            old = old * _discount(old, tau, 1 + 3 * progress, -1 - 2 * progress)
            self.regrets[key] = old + self.instant[key]
            matched = np.maximum(self.regrets[key], 0.0)
        else:  # predictive regret matching+ (Farina, Kroer and Sandholm 2021)
            self.regrets[key] = np.maximum(self.regrets[key] + self.instant[key], 0.0)
            matched = np.maximum(self.regrets[key] + self.instant[key], 0.0)
        total = matched.sum()
        self.policy[key] = matched / total if total > 0 else np.full(len(matched), 1 / len(matched))

    def iteration(self, t: int) -> None:
        for player in (0, 1):
            for key in [k for k, owner in self.owner.items() if owner == player]:
                self.instant[key][:] = 0.0
                self.reach[key] = 0.0
            self._walk(self.game.new_initial_state(), player, 1.0, 1.0)
            for key in [k for k, owner in self.owner.items() if owner == player]:
                self._update(key, t)


@pytest.mark.parametrize(
    "rule",
    [HS_DCFR_30, HS_DCFR_15, HS_PCFR_PLUS_30, HS_PCFR_PLUS_15, *FACTOR_READINGS.values()],
    ids=[*(f"{name}-power" for name in FACTOR_READINGS), *(f"{n}-factor" for n in FACTOR_READINGS)],
)
def test_schedules_equal_the_papers_recurrences(rule: ScheduledRule) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    walk = PaperWalk(pyspiel.load_game("kuhn_poker"), rule, ITERATIONS)
    for t in range(1, ITERATIONS + 1):
        walk.iteration(t)
    stopping = Stopping(ITERATIONS, None, None, ITERATIONS)
    ours = solve_with_rule(load_game("kuhn"), rule, "hs", stopping, last_iterate=True)
    assert ours.last_strategies is not None
    for average, current in zip(ours.strategies, ours.last_strategies, strict=True):
        for name, probabilities in average.as_dict().items():
            cumulative = walk.cumulative[kuhn_key(name)]
            assert list(probabilities.values()) == pytest.approx(
                list(cumulative / cumulative.sum()), abs=1e-12
            )
        for name, probabilities in current.as_dict().items():
            assert list(probabilities.values()) == pytest.approx(
                list(walk.policy[kuhn_key(name)]), abs=1e-12
            )


@pytest.mark.parametrize("rule", [HS_DCFR_30, HS_DCFR_15], ids=["hs-dcfr30", "hs-dcfr15"])
def test_hs_dcfr_equals_openspiels_dcfr_solver_with_the_schedule(rule: ScheduledRule) -> None:
    # OpenSpiel's python DCFRSolver weighs iteration t by t**gamma and discounts the
    # regrets by its _iteration after adding them (discounted_cfr.py); its alpha, beta and
    # gamma are plain attributes, set here to eq. 4's values before each iteration.
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import discounted_cfr

    theirs = discounted_cfr.DCFRSolver(pyspiel.load_game("kuhn_poker"))
    for t in range(1, ITERATIONS + 1):
        progress = t / ITERATIONS
        theirs.alpha, theirs.beta = 1 + 3 * progress, -1 - 2 * progress
        theirs.gamma = rule.gamma.start + rule.gamma.change * progress
        theirs.evaluate_and_update_policy()
    average = theirs.average_policy()
    stopping = Stopping(ITERATIONS, None, None, ITERATIONS)
    ours = solve_with_rule(load_game("kuhn"), rule, "hs", stopping)
    compared = 0
    for strategy in ours.strategies:
        for name, probabilities in strategy.as_dict().items():
            key = kuhn_key(name)
            state_policy = average.policy_for_key(key)
            assert list(probabilities.values()) == pytest.approx(
                [state_policy[a] for a in range(len(probabilities))], abs=1e-12
            ), key
            compared += 1
    assert compared == 12


@pytest.mark.parametrize(
    ("constant", "fixed"),
    [
        (ScheduledRule(False, False, Linear(2.0, 0.0), Linear(1.5, 0.0), Linear(0.0, 0.0)), DCFR),
        (ScheduledRule(True, True, Linear(2.0, 0.0)), PCFR_PLUS),
    ],
    ids=["dcfr", "pcfr+"],
)
def test_a_constant_schedule_is_the_fixed_rule(constant: ScheduledRule, fixed) -> None:
    # A schedule whose exponents do not move weighs iteration t by (t/n)^γ, DCFR's t^γ
    # scaled: the same averages (Brown and Sandholm 2019; Farina et al. 2021).
    game, stopping = load_game("leduc(ranks=3, suits=2)"), Stopping(40, None, None, 40)
    scheduled = solve_with_rule(game, constant, "constant", stopping)
    ours = solve_with_rule(game, fixed, "fixed", stopping)
    for first, second in zip(scheduled.strategies, ours.strategies, strict=True):
        assert np.max(np.abs(first.probabilities - second.probabilities)) <= 1e-12
    assert scheduled.nash_conv == pytest.approx(ours.nash_conv, abs=1e-12)


def test_a_schedule_needs_the_runs_length() -> None:
    with pytest.raises(ValueError, match="give the number of iterations"):
        for_run(HS_PCFR_PLUS_30, None)
    with pytest.raises(ValueError, match="outside the schedule"):
        HS_DCFR_30.weight(1)  # not bound to a run
    assert for_run(DCFR, None) is DCFR


def test_the_cli_refuses_a_schedule_without_iterations(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["iterate", "kuhn", "--algorithm", "hs-pcfr+30", "--target-exploitability", "1e-3"]
    assert main(argv) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "give --iterations" in error


def test_the_cli_runs_a_schedule(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["iterate", "kuhn", "--algorithm", "hs-pcfr+30", "--iterations", "100", "--quiet"]
    assert main([*argv, "--no-reference"]) == 0
    out = capsys.readouterr().out
    assert "HS-PCFR+(30)" in out and "Last iterate" in out


def test_the_library_refuses_a_schedule_without_iterations() -> None:
    # the policy is the library's: Python callers get the refusal the command line shows
    from seqform.questions.iterate import iterate
    from seqform.routes.options import OptionsError

    with pytest.raises(OptionsError, match="give --iterations"):
        iterate("kuhn", "hs-dcfr30", target_exploitability=1e-3)
