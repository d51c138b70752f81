"""Card abstraction on canonical boards (``abstract(..., suit_isomorphism=True)``): its buckets
are the game's own at the canonical deal paths, its abstract game has the value of the
game's abstract game, and its answer, played in the game, is an equilibrium of the game's
abstract game whose exploitability on the game is the one certified on hand classes."""

from __future__ import annotations

import numpy as np
import pytest

from seqform.abstraction.buckets import card_abstraction
from seqform.abstraction.solve import _abstract_certificate, abstract
from seqform.documents.build import document
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.structured.reductions.suit_classes import canonical_boards
from seqform.structured.responses import certify

# bucket counts below the lossless limit: there the buckets are the game's own, bit for bit
LEDUC_CASES = [
    pytest.param(lambda: leduc_structured(3, 2), (2, 3), id="leduc-3x2"),
    pytest.param(lambda: leduc_structured(4, 3), (2, 4), id="leduc-4x3"),
]
CASES = [
    *LEDUC_CASES,
    pytest.param(
        lambda: rhode_island_structured(ranks=2, suits=3),
        (1, 2, 3),
        id="ri-2x3",
        marks=pytest.mark.slow,
    ),
]
VALUE_TOLERANCE = 1e-8  # two Clarabel solves at gap 1e-12 of LPs with one optimum value


@pytest.mark.parametrize(("make", "counts"), CASES)
def test_buckets_on_canonical_boards_are_the_games_own(make, counts):
    game = make()
    boards = canonical_boards(game)
    assert boards is not None
    full = card_abstraction(game, counts)
    reduced = card_abstraction(game, counts, canonical=boards)
    for player in (0, 1):
        paths = set(reduced.rounds.node_paths[player])
        assert len(paths) < len(set(full.rounds.node_paths[player]))
        for path in paths:
            assert np.array_equal(reduced.buckets[player][path], full.buckets[player][path])


def _on_abstract_game(built, strategy: BehaviouralStrategy) -> BehaviouralStrategy:
    """A strategy of the game that plays alike in each bucket, as one of the abstract game;
    fails if it does not play alike."""
    player = strategy.player
    table = built.tables[player]
    probabilities = np.zeros(table.num_sequences)
    probabilities[built.sequence_map[player]] = strategy.probabilities
    assert np.array_equal(probabilities[built.sequence_map[player]], strategy.probabilities)
    unreached = np.zeros(table.num_infosets, dtype=bool)
    unreached[built.infoset_map[player]] = strategy.unreached
    return BehaviouralStrategy(table, probabilities, unreached)


@pytest.mark.parametrize(("make", "counts"), LEDUC_CASES)
def test_the_reduced_abstraction_answers_the_games_abstraction(make, counts):
    # Rhode Island 2×3's case (its unreduced abstraction: 7 s) is a big case in
    # benchmarks/checks/test_big_cases.py
    answers_the_games_abstraction(make(), counts)


def answers_the_games_abstraction(game, counts):
    """The abstraction on canonical boards against the game's own abstraction: the same
    value, an equilibrium of the game's abstract game, certified as the game measures it."""
    unreduced = abstract(game, counts)
    reduced = abstract(game, counts, suit_isomorphism=True)
    assert reduced.boards is not None
    assert reduced.abstract.tables[0].num_sequences < unreduced.abstract.tables[0].num_sequences
    assert reduced.value == pytest.approx(unreduced.value, abs=VALUE_TOLERANCE)
    # played in the game, the reduced answer is a profile of the game's abstract game ...
    played = reduced.game_strategies()
    built = unreduced.abstract
    profile = (_on_abstract_game(built, played[0]), _on_abstract_game(built, played[1]))
    # ... and an equilibrium of it
    inside = _abstract_certificate(game, built, profile)
    assert float(inside.exploitability) == pytest.approx(0, abs=VALUE_TOLERANCE)
    # measured on the game as the unreduced route measures, it has the certificate taken on
    # hand classes
    on_game = certify(game, *played)
    assert float(on_game.nash_conv) == pytest.approx(reduced.nash_conv, abs=1e-10)
    assert float(on_game.nash_conv) > 0.01  # a coarse abstraction: nothing trivially equal


def test_a_game_without_suit_symmetry_is_abstracted_as_it_is():
    game = leduc_structured(3, 1)
    reduced = abstract(game, (2, 3), suit_isomorphism=True)
    unreduced = abstract(game, (2, 3))
    assert reduced.boards is None
    assert reduced.game_strategies() is reduced.strategies
    assert reduced.exploitability == pytest.approx(unreduced.exploitability, abs=1e-12)


def test_a_reduced_abstractions_document_names_the_games_information_sets():
    game = leduc_structured(3, 2)
    reduced = document(abstract(game, (2, 3), suit_isomorphism=True))
    unreduced = document(abstract(game, (2, 3)))
    assert reduced["full_game"]["sequences"] == unreduced["full_game"]["sequences"]
    for mine, theirs in zip(reduced["strategies"], unreduced["strategies"], strict=True):
        assert [i["name"] for i in mine["infosets"]] == [i["name"] for i in theirs["infosets"]]
