"""A strategy's information sets written from its arrays (``--format json``:
:class:`seqform.documents.layout.infosets_json.InfosetObjects`) are the text the objects made one
by one were written as, character for character.

The reference is the document built as before (:func:`seqform.documents.objects.strategy_json`'s
objects) written by ``json.dumps(document, indent=2)``, Python's own encoder, on spots
(river and turn: names in two pieces, actions per public node), tree and structured games
with action words, exact strategies, and strategies holding NaN, ``-0.0`` and many or few
distinct values.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import seqform
from seqform.cli.main import main
from seqform.documents.iterate import iterate_document
from seqform.documents.layout.infosets_json import DISTINCT_SHARE, InfosetObjects
from seqform.documents.objects import action_words, strategies_for_json, strategy_json
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.leduc import leduc_structured
from seqform.io.documents import document_chunks, document_text, validate_document
from seqform.questions.iterate import iterate
from tests.spot_files import RIVER, SMALL

SMALL_TURN = SMALL.replace('board = "Ks7h2d9c4s"', 'board = "Ks7h2d9c"')


def _spot(tmp_path: Path, text: str) -> str:
    path = tmp_path / "spot.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _both_ways(build: object) -> tuple[dict[str, object], dict[str, object]]:
    """The document ``build()`` makes with objects, and the one ``--format json`` makes."""
    plain = build()  # type: ignore[operator]
    with strategies_for_json():
        written = build()  # type: ignore[operator]
    return plain, written


def _assert_same_text(plain: dict[str, object], written: dict[str, object]) -> None:
    expected = json.dumps(plain, indent=2) + "\n"
    assert document_text(plain) == expected
    assert document_text(written) == expected
    assert "".join(document_chunks(written, pieces=7)) == expected


@pytest.mark.parametrize(
    "spot",
    [
        pytest.param(SMALL, id="small-river"),
        pytest.param(RIVER, id="river"),
        pytest.param(SMALL_TURN, id="small-turn"),
    ],
)
def test_an_iterate_document_of_a_spot_is_written_as_its_objects_were(spot, tmp_path):
    run = iterate(_spot(tmp_path, spot), "cfr+", iterations=20, reference=False)
    plain, written = _both_ways(lambda: iterate_document(run))
    assert isinstance(written["strategies"][0]["infosets"], InfosetObjects)  # type: ignore[index]
    _assert_same_text(plain, written)


def test_a_solved_spot_is_written_as_its_objects_were(tmp_path):
    solution = seqform.solve(_spot(tmp_path, RIVER))
    _assert_same_text(*_both_ways(lambda: seqform.document(solution)))


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: seqform.solve("kuhn"), id="kuhn-float"),
        pytest.param(lambda: seqform.solve("kuhn", exact=True), id="kuhn-exact"),
        pytest.param(lambda: seqform.iterate("leduc", "cfr+", iterations=30), id="leduc-cfr"),
        pytest.param(
            lambda: seqform.iterate(leduc_structured(), "cfr+", iterations=30, method="structured"),
            id="leduc-structured-words",
        ),
    ],
)
def test_games_with_action_words_are_written_as_their_objects_were(make):
    result = make()
    _assert_same_text(*_both_ways(lambda: seqform.document(result)))


def _with(strategy: BehaviouralStrategy, probabilities: np.ndarray) -> BehaviouralStrategy:
    return BehaviouralStrategy(strategy.table, probabilities, strategy.unreached)


@pytest.fixture(scope="module")
def leduc() -> tuple[BehaviouralStrategy, object]:
    """Player 1's equilibrium strategy on Leduc and the game's action words."""
    solution = seqform.solve("leduc")
    return solution.strategies[0], action_words(solution.game)


@pytest.mark.parametrize("few", [True, False], ids=["few-distinct", "all-distinct"])
@pytest.mark.parametrize("long_fractions", [True, False], ids=["long", "readable"])
def test_odd_probabilities_are_written_as_json_dumps_writes_them(leduc, few, long_fractions):
    leduc_strategy, words = leduc
    size = leduc_strategy.table.num_sequences
    assert size > 8 * DISTINCT_SHARE  # few distinct values: each is written once
    random = np.random.default_rng(0)
    values = random.integers(0, 2, size) / 3 if few else random.random(size)
    values[1:6] = [np.nan, -0.0, 0.0, np.inf, 5e-324]
    strategy = _with(leduc_strategy, values)
    plain = strategy_json(strategy, "P1", words, long_fractions)
    with strategies_for_json():
        written = strategy_json(strategy, "P1", words, long_fractions)
    assert document_text(written) == json.dumps(plain, indent=2) + "\n"  # type: ignore[arg-type]


@pytest.mark.parametrize("long_fractions", [True, False], ids=["long", "readable"])
def test_exact_probabilities_are_written_as_their_objects_were(leduc, long_fractions):
    leduc_strategy = leduc[0]
    exact = np.array([Fraction(1, 3), Fraction(123456789, 987654321)] * 1000, dtype=object)
    strategy = _with(leduc_strategy, exact[: leduc_strategy.table.num_sequences])
    plain = strategy_json(strategy, "P1", str.__add__, long_fractions)
    with strategies_for_json():
        written = strategy_json(strategy, "P1", str.__add__, long_fractions)
    assert document_text(written) == json.dumps(plain, indent=2) + "\n"  # type: ignore[arg-type]


def test_the_information_sets_are_still_a_sequence_of_their_objects(leduc):
    leduc_strategy, words = leduc
    plain = strategy_json(leduc_strategy, "P1", words)["infosets"]
    objects = InfosetObjects(leduc_strategy, words, long_fractions=True)
    assert list(objects) == plain
    assert objects[-1] == plain[-1]
    assert objects[2:5] == plain[2:5]
    with pytest.raises(IndexError):
        objects[len(plain)]


def test_iterate_writes_the_spots_strategies_as_the_library_builds_them(tmp_path):
    spot = _spot(tmp_path, SMALL_TURN)
    output = tmp_path / "run.json"
    argv = ["iterate", spot, "--algorithm", "cfr+", "--iterations", "20", "--no-reference"]
    assert main([*argv, "--quiet", "--format", "json", "--output", str(output)]) == 0
    written = json.loads(output.read_text(encoding="utf-8"))
    validate_document(written)
    run = iterate(spot, "cfr+", iterations=20, reference=False)
    expected = json.loads(json.dumps(iterate_document(run)))
    assert written["strategies"] == expected["strategies"]
    assert written["spot"] == expected["spot"]
