"""Vector CFR on the public tree × hands (issue 21): the same iterates as tree CFR.

The reference is the same library's tree implementation (:mod:`seqform.iterative.cfr`, itself
checked against OpenSpiel's CFR solvers to 1e-12 in tests/test_iterative.py and
tests/test_cfr_variants.py), run on the explicit tree of the same game in the same test.
"""

from __future__ import annotations

import numpy as np
import pytest

from seqform.analyses.iterate import iterate
from seqform.cli.main import main
from seqform.game.builtin.registry import load_structured_game
from seqform.game.loader import load_game
from seqform.iterative.cfr import solve_with_rule
from seqform.iterative.layout import TIE_TOLERANCE
from seqform.iterative.rules import LAST_ITERATE, RULES, SCHEDULED
from seqform.iterative.run import Stopping
from seqform.structured.vector_cfr import vector_cfr

ITERATIONS = 20
PREDICTIVE_ITERATIONS = 10  # optimistic updates amplify round-off (see the test)


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


GAMES = [
    *(f"kuhn(cards={cards})" for cards in (3, 4, 5, 6)),
    *(f"leduc(ranks={r}, suits={s})" for r in (2, 3, 4) for s in (1, 2, 3) if r * s >= 3),
    *(f"liars_dice(sides={sides})" for sides in (2, 3, 4, 5)),
]
QUICK = {"kuhn(cards=3)", "leduc(ranks=2, suits=2)", "liars_dice(sides=3)"}


@pytest.mark.parametrize(
    "spec", [pytest.param(g, marks=() if g in QUICK else pytest.mark.slow) for g in GAMES]
)
@pytest.mark.parametrize("algorithm", list(RULES))
def test_the_same_iterates_as_tree_cfr(spec: str, algorithm: str) -> None:
    # Both sum the same numbers in different orders; ties are cleared in both, the tree run
    # with vector CFR's tolerance (seqform.iterative.layout.ties_cleared).  PCFR+ and PDCFR+
    # amplify the remaining round-off fast (on leduc(ranks=2, suits=2) 1e-16 grows to 6e-6
    # by 20 iterations, as OpenSpiel drifts from itself after a one-ulp change), so they are
    # compared over 10.  So are the hyperparameter schedules (hs-*): over a 20-iteration run
    # their exponents change fast, and the 1e-17 differences grow to 1e-14 by 10 iterations,
    # 1e-11 by 15 and 6e-8 by 20 on leduc(ranks=2, suits=3) (DCFR's: 4e-12 by 20).
    amplifying = algorithm in LAST_ITERATE or algorithm in SCHEDULED
    iterations = PREDICTIVE_ITERATIONS if amplifying else ITERATIONS
    stopping = Stopping(iterations, None, None, 5)
    vector = vector_cfr(load_structured_game(spec), algorithm, stopping)
    tree = solve_with_rule(
        load_game(spec), RULES[algorithm], algorithm, stopping, tie_tolerance=TIE_TOLERANCE
    )
    assert _largest_difference(vector.strategies, tree.strategies) <= 1e-10
    assert vector.nash_conv == pytest.approx(tree.nash_conv, abs=1e-10)
    assert [s.iteration for s in vector.history] == [s.iteration for s in tree.history]


def test_the_tree_only_algorithms_are_refused() -> None:
    with pytest.raises(ValueError, match="runs on the game tree only"):
        vector_cfr(load_structured_game("kuhn"), "xfp", Stopping(10, None, None, 10))


def test_iterate_on_the_structured_method(capsys: pytest.CaptureFixture[str]) -> None:
    run = iterate("leduc", "cfr+", Stopping(20, None, None, 10), method="structured")
    tree = iterate("leduc", "cfr+", Stopping(20, None, None, 10), method="tree")
    assert run.result.nash_conv == pytest.approx(tree.result.nash_conv, abs=1e-10)
    assert run.reference.value == pytest.approx(tree.reference.value, abs=1e-9)
    argv = ["iterate", "leduc", "--algorithm", "cfr+", "--iterations", "20", "--quiet"]
    assert main([*argv, "--method", "structured"]) == 0
    assert "NashConv" in capsys.readouterr().out
