"""Vector CFR on canonical boards ``G'``, its average lifted to the game ``G`` and measured
there (:func:`seqform.structured.vector_cfr.canonical_vector_cfr`).

The references are computed in the same test: the structured certificate on ``G``
(:func:`seqform.structured.responses.certify`), vector CFR run on ``G`` itself (whose
iterates the class-tied run on ``G'`` reproduces, module docstring of
:mod:`seqform.structured.vector_cfr`), and the tree's best responses
(:func:`seqform.certify.certify`) on the explicit tree of the same game.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from seqform.certify import certify
from seqform.cli.main import main
from seqform.documents.iterate import iterate_document
from seqform.documents.text.iterate import iterate_text
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_from_mapping,
    plan_from_behaviour,
)
from seqform.game.builtin.registry import load_structured_game
from seqform.game.model import Game
from seqform.io.documents import validate_document
from seqform.io.loader import load_game
from seqform.iterative.run import Stopping
from seqform.questions.iterate import iterate
from seqform.structured.reductions.suit_classes import (
    canonical_boards,
    certify_on_classes,
    lift_behaviour,
)
from seqform.structured.responses import certify as structured_certify
from seqform.structured.vector_cfr import canonical_vector_cfr, vector_cfr

ITERATIONS = 20  # few enough that round-off does not grow between the runs (test_vector_cfr)
ROUNDING = 1e-9

GAMES = [
    "leduc(ranks=3, suits=2)",
    "leduc(ranks=4, suits=2)",
    pytest.param("rhode_island(ranks=3, suits=2)", marks=pytest.mark.slow),  # 6 s
]


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr"])
def test_the_lift_has_the_nash_conv_measured_on_canonical_boards(spec: str, algorithm: str) -> None:
    game = load_structured_game(spec)
    stopping = Stopping(ITERATIONS, None, None, ITERATIONS)
    run = canonical_vector_cfr(game, algorithm, stopping, engine="numpy")
    assert run is not None
    lifted = run.lifted()
    on_game = structured_certify(game, *lifted)
    on_classes = certify_on_classes(run.boards, *run.result.strategies)
    assert run.result.nash_conv == pytest.approx(float(on_game.nash_conv), abs=ROUNDING)
    assert on_classes.value == pytest.approx(float(on_game.value), abs=ROUNDING)
    for mine, theirs in zip(
        on_classes.best_response_values, on_game.best_response_values, strict=True
    ):
        assert float(mine) == pytest.approx(float(theirs), abs=ROUNDING)
    # the class-tied iterates are vector CFR's on the game itself, lifted
    direct = vector_cfr(game, algorithm, stopping, engine="numpy")
    assert run.result.nash_conv == pytest.approx(direct.nash_conv, abs=ROUNDING)
    for mine, theirs in zip(lifted, direct.strategies, strict=True):
        assert np.abs(plan_from_behaviour(mine) - plan_from_behaviour(theirs)).max() < ROUNDING


def test_the_average_is_the_same_on_each_hand_class() -> None:
    # without one regret per class, plain CFR on G' breaks the classes (a spread of 0.9 on
    # leduc(ranks=4, suits=2) after 30 iterations) and solves another game
    game = load_structured_game("leduc(ranks=4, suits=2)")
    run = canonical_vector_cfr(game, "cfr+", Stopping(30, None, None, 30), engine="numpy")
    assert run is not None
    for strategy, classes in zip(run.result.strategies, run.boards.sequence_classes(), strict=True):
        plan = plan_from_behaviour(strategy)
        low = np.full(classes.max() + 1, np.inf)
        high = np.full(classes.max() + 1, -np.inf)
        np.minimum.at(low, classes, plan)
        np.maximum.at(high, classes, plan)
        assert (high - low).max() < ROUNDING


@pytest.mark.slow  # compiles the kernels when their cache is cold
def test_the_compiled_engine_ties_the_classes_too() -> None:
    # the smallest game of GAMES, reduced by the same swap of two suits as the larger ones:
    # the cost is numba's compilation, which the game's size does not change
    pytest.importorskip("numba")
    game = load_structured_game("leduc(ranks=3, suits=2)")
    stopping = Stopping(ITERATIONS, None, None, ITERATIONS)
    numpy_run = canonical_vector_cfr(game, "dcfr", stopping, engine="numpy")
    compiled = canonical_vector_cfr(game, "dcfr", stopping, engine="compiled")
    assert numpy_run is not None and compiled is not None
    assert compiled.result.nash_conv == pytest.approx(numpy_run.result.nash_conv, abs=ROUNDING)


@pytest.mark.slow  # compiles the kernels when their cache is cold
def test_the_compiled_last_iterate_is_measured_as_itself() -> None:
    # a compiled run on canonical boards measures its average from its arrays; its last
    # iterate (pcfr+) was measured by the same function, so the report gave the average's
    # NashConv twice ("Last iterate: NashConv 1.887e-01 (the average's: 1.887e-01)")
    pytest.importorskip("numba")
    game = load_structured_game("leduc(ranks=3, suits=2)")
    stopping = Stopping(ITERATIONS, None, None, 5)
    run = canonical_vector_cfr(game, "pcfr+", stopping, engine="compiled")
    assert run is not None and run.result.last_strategies is not None
    for sample in run.result.history:
        assert sample.last_nash_conv is not None
        assert sample.last_nash_conv != pytest.approx(sample.nash_conv, rel=1e-3)
    current = tuple(lift_behaviour(run.boards, s) for s in run.result.last_strategies)
    on_game = structured_certify(game, *current)  # the last iterate, lifted, on the game
    assert run.result.last_nash_conv == pytest.approx(float(on_game.nash_conv), abs=ROUNDING)


def test_the_tree_best_responses_agree() -> None:
    spec = "leduc(ranks=3, suits=2)"
    run = canonical_vector_cfr(
        load_structured_game(spec), "cfr+", Stopping(ITERATIONS, None, None, ITERATIONS)
    )
    assert run is not None
    tree = load_game(spec)
    on_tree = certify(tree, *_on_tree(tree, run.lifted()))
    assert float(on_tree.nash_conv) == pytest.approx(run.result.nash_conv, abs=ROUNDING)


def _on_tree(tree: Game, strategies: tuple[BehaviouralStrategy, ...]) -> list[BehaviouralStrategy]:
    """The strategies moved onto the tree's tables by information-set name."""
    out = []
    for strategy, table in zip(strategies, build_sequence_form(tree).players, strict=True):
        names = strategy.table.infosets
        mapping = {name: list(strategy.at(i).values()) for i, name in enumerate(names)}
        out.append(behaviour_from_mapping(table, mapping))
    return out


def test_a_game_without_suit_symmetry_is_not_reduced() -> None:
    assert canonical_boards(load_structured_game("kuhn")) is None


def test_iterate_runs_on_canonical_boards_and_certifies_on_the_game() -> None:
    spec = "leduc(ranks=4, suits=2)"
    run = iterate(spec, "cfr+", iterations=20, every=20, method="structured", reference=False)
    assert run.suit_reduction is not None and run.suit_reduction.group_order == 2
    # sizes: tests/test_suit_isomorphism.py counts the steps of this reduction
    assert run.suit_reduction.canonical.sequences < run.suit_reduction.full.sequences
    assert run.certificate is not None
    assert float(run.certificate.nash_conv) == pytest.approx(run.result.nash_conv, abs=ROUNDING)
    document = iterate_document(run)
    validate_document(document)
    assert document["suit_isomorphism"]["permutations"] == 2
    assert "Suit isomorphism: run on canonical boards" in iterate_text(document)
    plain = iterate(
        spec, "cfr+", iterations=20, every=20, method="structured", reference=False,
        suit_isomorphism=False,
    )  # fmt: skip
    assert plain.suit_reduction is None
    assert iterate_document(plain)["suit_isomorphism"] is None
    assert plain.result.nash_conv == pytest.approx(run.result.nash_conv, abs=ROUNDING)


def test_the_command_line_turns_it_off(capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["iterate", "leduc(ranks=4, suits=2)", "--algorithm", "cfr+", "--iterations"]
    arguments += ["10", "--method", "structured", "--no-reference", "--format", "json"]
    assert main([*arguments, "--no-suit-isomorphism", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["suit_isomorphism"] is None
    assert main([*arguments, "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["suit_isomorphism"]["permutations"] == 2
