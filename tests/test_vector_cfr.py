"""Vector CFR on the public tree × hands: the same iterates as tree CFR.

The reference is the same library's tree implementation (:mod:`seqform.iterative.cfr`, itself
checked against OpenSpiel's CFR solvers to 1e-12 in tests/test_iterative.py and
tests/test_cfr_variants.py), run on the explicit tree of the same game in the same test.

Two claims, each over 100 iterations on every small instance that has both layouts:

* **lockstep, every rule** (on the four largest instances, one rule of each kind): at each
  of the 100 iterations the tree run's state (cumulative regrets, average weights, current
  behaviour: :class:`~seqform.iterative.cfr.RegretState`) is loaded into the vector run,
  both take one step, and the states, the average strategies and, after the last, NashConv
  agree to 1e-10.  So every one of the 100 steps is the same map on both layouts, up to the
  order of floating-point sums;
* **end to end, where round-off stays small**: two free runs of 100 iterations end with the
  same average strategies and NashConv to 1e-10 — CFR on every instance, CFR+ on all but
  three Leduc instances.  Free runs of the other rules do not stay within 1e-10 of each other
  over 100 iterations, and this is not a difference of the layouts: the 1e-16 differences of
  summation order grow by a roughly constant factor per iteration (CFR+ on leduc(ranks=3,
  suits=3): 1e-12 at iteration 23, 1e-9 at 40, 1e-6 at 66, 1e-2 at 100, no ties involved),
  as OpenSpiel's own runs drift apart after a one-ulp change.  The lockstep check is what
  shows that the layouts compute the same iteration.
"""

from __future__ import annotations

import numpy as np
import pytest

from seqform.certify import certify
from seqform.cli.main import main
from seqform.game.builtin.registry import load_structured_game
from seqform.io.loader import load_game
from seqform.iterative.cfr import FullTreeRegrets, RegretState, sequence_positions, solve_with_rule
from seqform.iterative.layout import build_layout
from seqform.iterative.passes import TIE_TOLERANCE
from seqform.iterative.rules import RULES
from seqform.iterative.run import Stopping
from seqform.questions.iterate import iterate
from seqform.structured.vector_cfr import VectorRegrets, structured_nash_conv, vector_cfr

ITERATIONS = 100  # the two claims' horizon (module docstring)
TOLERANCE = 1e-10


def _largest_difference(first, second) -> float:
    """``max |b1 − b2|`` over the information sets, matched by name."""
    worst = 0.0
    for mine, theirs in zip(first, second, strict=True):
        index = theirs.table.index_of_infoset()
        for infoset, name in enumerate(mine.table.infosets):
            other = index[name]
            assert mine.table.actions[infoset] == theirs.table.actions[other]
            ours = mine.probabilities[list(mine.table.sequences_of(infoset))]
            tree = theirs.probabilities[list(theirs.table.sequences_of(other))]
            worst = max(worst, float(np.max(np.abs(ours - tree))))
    return worst


def _state_differences(first: RegretState, second: RegretState) -> dict[str, float]:
    """The largest difference of each part of two states in one numbering: regrets relative
    to the largest regret (at least 1), average weights relative to their total ``S[0]``
    (the average realization plans' difference), behaviours as they are."""
    differences = {"regrets": 0.0, "average plan": 0.0, "behaviour": 0.0}
    for player in range(len(first.tables)):
        regrets, other_regrets = first.regrets[player], second.regrets[player]
        scale = max(1.0, float(np.max(np.abs(regrets))))
        weights, other_weights = first.cumulative[player], second.cumulative[player]
        parts = {
            "regrets": np.abs(regrets - other_regrets) / scale,
            "average plan": np.abs(weights / weights[0] - other_weights / other_weights[0]),
            "behaviour": np.abs(first.behaviour[player] - second.behaviour[player]),
        }
        for name, part in parts.items():
            differences[name] = max(differences[name], float(np.max(part)))
    return differences


GAMES = [
    *(f"kuhn(cards={cards})" for cards in (3, 4, 5, 6)),
    *(f"leduc(ranks={r}, suits={s})" for r in (2, 3, 4) for s in (1, 2, 3) if r * s >= 3),
    *(f"liars_dice(sides={sides})" for sides in (2, 3, 4, 5)),
]
QUICK = {"kuhn(cards=3)", "leduc(ranks=2, suits=2)", "liars_dice(sides=3)"}
GAME_PARAMS = [pytest.param(g, marks=() if g in QUICK else pytest.mark.slow) for g in GAMES]
# The four largest instances (two thirds of the lockstep test's time on every rule) take two
# rules: plain CFR and PDCFR+, which has every part the others combine (predictive,
# discounted, +); every rule runs on the smaller instances of each game, whose layouts have
# the same shapes (rounds, suits, bids).  One rule of each kind (plain, +, discounted,
# predictive, both) ran there until plain pytest grew past its 8-minute budget.
LARGEST = {
    "leduc(ranks=3, suits=3)",
    "leduc(ranks=4, suits=2)",
    "leduc(ranks=4, suits=3)",
    "liars_dice(sides=5)",
}
RULE_KINDS = ("cfr", "pdcfr+")
LOCKSTEP_CASES = [
    pytest.param(game, rule, marks=() if game in QUICK else pytest.mark.slow)
    for rule in RULES
    for game in GAMES
    if game not in LARGEST or rule in RULE_KINDS
]


@pytest.mark.parametrize(("spec", "algorithm"), LOCKSTEP_CASES)
def test_every_step_is_the_same_on_both_layouts(spec: str, algorithm: str) -> None:
    # Ties are cleared in both (seqform.iterative.passes.ties_cleared), the tree run with
    # vector CFR's tolerance.  Measured worst over all 165 cases (every rule on every
    # instance): behaviour 4e-14, regrets 2e-15 of the largest, average plan 0 (one step
    # from the same behaviour adds the same plan).
    tree_game, structured = load_game(spec), load_structured_game(spec)
    tree = FullTreeRegrets(
        build_layout(tree_game),
        [RULES[algorithm]] * 2,
        tie_tolerance=TIE_TOLERANCE,
        horizon=ITERATIONS,
    )
    vector = VectorRegrets(structured, algorithm, horizon=ITERATIONS)
    tables = vector.state().tables
    positions = [
        sequence_positions(own, other)
        for own, other in zip(tree.state().tables, tables, strict=True)
    ]
    for iteration in range(1, ITERATIONS + 1):
        vector.restore(tree.state().renumbered(tables, positions))
        tree.step(iteration)
        vector.step(iteration)
        after = tree.state().renumbered(tables, positions)
        differences = _state_differences(after, vector.state())
        assert max(differences.values()) <= TOLERANCE, (iteration, differences)
        assert vector.state().iteration == after.iteration == iteration
    averages = vector.average(), tree.average()
    assert _largest_difference(*averages) <= TOLERANCE
    tree_nash_conv = certify(tree_game, *averages[1]).nash_conv
    assert structured_nash_conv(structured, averages[0]) == pytest.approx(
        tree_nash_conv, abs=TOLERANCE
    )


DRIFTING = {  # CFR+ free runs, average strategies apart after 100 iterations (measured; the
    # products' summation order changed once, from 4e-10, 9e-3 and 2e-9 to these)
    "leduc(ranks=3, suits=2)": "2e-10",
    "leduc(ranks=3, suits=3)": "1e-2",
    "leduc(ranks=4, suits=3)": "6e-9",
}


def _free_run_params() -> list[object]:
    params = []
    for spec in GAMES:
        for algorithm in ("cfr", "cfr+"):
            marks = [] if spec in QUICK else [pytest.mark.slow]
            if algorithm == "cfr+" and spec in DRIFTING:
                reason = f"round-off grows to {DRIFTING[spec]} in a free run (module docstring)"
                marks.append(pytest.mark.xfail(reason=reason, strict=False))
            params.append(pytest.param(spec, algorithm, marks=marks, id=f"{spec}-{algorithm}"))
    return params


@pytest.mark.parametrize(("spec", "algorithm"), _free_run_params())
def test_free_runs_end_with_the_same_average(spec: str, algorithm: str) -> None:
    stopping = Stopping(ITERATIONS, None, None, ITERATIONS)
    vector = vector_cfr(load_structured_game(spec), algorithm, stopping)
    tree = solve_with_rule(
        load_game(spec), RULES[algorithm], algorithm, stopping, tie_tolerance=TIE_TOLERANCE
    )
    assert _largest_difference(vector.strategies, tree.strategies) <= TOLERANCE
    assert vector.nash_conv == pytest.approx(tree.nash_conv, abs=TOLERANCE)
    assert [s.iteration for s in vector.history] == [s.iteration for s in tree.history]


def test_a_state_carries_a_run_over_between_layouts() -> None:
    spec = "leduc(ranks=2, suits=2)"
    tree = FullTreeRegrets(build_layout(load_game(spec)), [RULES["cfr+"]] * 2)
    for iteration in range(1, 6):
        tree.step(iteration)
    vector = VectorRegrets(load_structured_game(spec), "cfr+")
    with pytest.raises(ValueError, match="numbered by another table"):
        vector.restore(tree.state())
    moved = tree.state().renumbered(vector.state().tables)
    vector.restore(moved)
    back = vector.state()
    assert back.iteration == 5
    for name in ("regrets", "cumulative", "behaviour"):
        for ours, theirs in zip(getattr(back, name), getattr(moved, name), strict=True):
            np.testing.assert_array_equal(ours, theirs)
    assert _largest_difference(vector.average(), tree.average()) == 0.0
    kuhn = VectorRegrets(load_structured_game("kuhn"), "cfr").state()
    with pytest.raises(ValueError, match="different sequences"):
        sequence_positions(tree.state().tables[0], kuhn.tables[0])


def test_the_tree_only_algorithms_are_refused() -> None:
    with pytest.raises(ValueError, match="runs on the game tree only"):
        vector_cfr(load_structured_game("kuhn"), "xfp", Stopping(10, None, None, 10))


def test_iterate_on_the_structured_method(capsys: pytest.CaptureFixture[str]) -> None:
    run = iterate("leduc", "cfr+", iterations=20, every=10, method="structured")
    tree = iterate("leduc", "cfr+", iterations=20, every=10, method="tree")
    assert run.result.nash_conv == pytest.approx(tree.result.nash_conv, abs=1e-10)
    assert run.reference.value == pytest.approx(tree.reference.value, abs=1e-9)
    argv = ["iterate", "leduc", "--algorithm", "cfr+", "--iterations", "20", "--quiet"]
    assert main([*argv, "--method", "structured"]) == 0
    assert "NashConv" in capsys.readouterr().out
