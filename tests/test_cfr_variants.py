"""LCFR, PCFR+, DCFR+ and PDCFR+: the rule objects against independent implementations."""

from __future__ import annotations

import numpy as np
import pytest

from seqform.io.loader import load_game
from seqform.iterative.cfr import cfr_plus
from seqform.iterative.rules import CFR_PLUS, DCFR_PLUS, PCFR_PLUS, PDCFR_PLUS, RegretRule
from seqform.iterative.variants import dcfr_plus, lcfr, pcfr_plus, pdcfr_plus

ITERATIONS = 50


@pytest.fixture(scope="module")
def kuhn():
    return load_game("kuhn")


def kuhn_key(name: str) -> str:
    return str("JQK".index(name[0])) + name[1:]


def test_lcfr_matches_openspiel(kuhn):
    pyspiel = pytest.importorskip("pyspiel")
    discounted = pytest.importorskip("open_spiel.python.algorithms.discounted_cfr")
    solver = discounted.LCFRSolver(pyspiel.load_game("kuhn_poker"))
    for _ in range(ITERATIONS):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    ours = lcfr(kuhn, ITERATIONS, every=ITERATIONS)
    for strategy in ours.strategies:
        for name, probabilities in strategy.as_dict().items():
            theirs = average.policy_for_key(kuhn_key(name))
            assert list(probabilities.values()) == pytest.approx(list(theirs), abs=1e-11)


class HistoryWalk:
    """The rules' equations written history by history on OpenSpiel's Kuhn, as Xu et al.'s
    public code lays them out (alternating updates; per information set: regrets, then the
    average with the iteration's reach and policy, then the next policy)."""

    def __init__(self, game, rule: RegretRule) -> None:
        self.game, self.rule = game, rule
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

    def iteration(self, t: int) -> None:
        for player in (0, 1):
            for key in [k for k, owner in self.owner.items() if owner == player]:
                self.instant[key][:] = 0.0
                self.reach[key] = 0.0
            self._walk(self.game.new_initial_state(), player, 1.0, 1.0)
            for key in [k for k, owner in self.owner.items() if owner == player]:
                self.rule.accumulate(self.regrets[key], self.instant[key], t)
                self.cumulative[key] += self.rule.weight(t) * self.reach[key] * self.policy[key]
                matched = np.maximum(self.rule.matched(self.regrets[key], self.instant[key], t), 0)
                total = matched.sum()
                self.policy[key] = (
                    matched / total if total > 0 else np.full(len(matched), 1 / len(matched))
                )


@pytest.mark.parametrize(
    ("rule", "solver"),
    [
        (CFR_PLUS, cfr_plus),
        (PCFR_PLUS, pcfr_plus),
        (DCFR_PLUS, dcfr_plus),
        (PDCFR_PLUS, pdcfr_plus),
    ],
    ids=["cfr+", "pcfr+", "dcfr+", "pdcfr+"],
)
def test_rules_on_the_flat_arrays_equal_the_history_walk(kuhn, rule, solver):
    """The same rule object, on the sequence form and history by history: the same average
    and current policies to 1e-12 (only the summation order differs)."""
    pyspiel = pytest.importorskip("pyspiel")
    walk = HistoryWalk(pyspiel.load_game("kuhn_poker"), rule)
    for t in range(1, ITERATIONS + 1):
        walk.iteration(t)
    ours = solver(kuhn, ITERATIONS, every=ITERATIONS)
    for strategy in ours.strategies:
        for name, probabilities in strategy.as_dict().items():
            cumulative = walk.cumulative[kuhn_key(name)]
            assert list(probabilities.values()) == pytest.approx(
                list(cumulative / cumulative.sum()), abs=1e-12
            )
    if ours.last_strategies is not None:
        for strategy in ours.last_strategies:
            for name, probabilities in strategy.as_dict().items():
                assert list(probabilities.values()) == pytest.approx(
                    list(walk.policy[kuhn_key(name)]), abs=1e-12
                )


def test_predictive_variants_report_the_last_iterate(kuhn):
    for solver in (pcfr_plus, pdcfr_plus):
        result = solver(kuhn, 200, every=100)
        assert result.last_strategies is not None
        assert all(sample.last_nash_conv is not None for sample in result.history)
        # Measured on Kuhn after 200 iterations: last iterates 2e-16 (PCFR+) and 3e-16
        # (PDCFR+), the averages 5.9e-6 and 3.5e-9.
        assert result.last_nash_conv < 1e-4
    assert dcfr_plus(kuhn, 10, every=10).last_nash_conv is None


@pytest.mark.parametrize("solver", [lcfr, pcfr_plus, dcfr_plus, pdcfr_plus])
def test_variants_converge_on_kuhn_and_run_on_kuhn3(kuhn, solver):
    samples = [s.nash_conv for s in solver(kuhn, 300, every=30).history]
    assert samples[-1] < samples[0] / 10
    three = solver(load_game("kuhn3"), 20, every=20)
    assert len(three.strategies) == 3
