"""Liar's Dice: the same game as OpenSpiel's liars_dice, node for node, and its value."""

from __future__ import annotations

import functools
import random
from fractions import Fraction

import pytest
from openspiel_match import (
    behaviour,
    compare_with_openspiel,
    infosets,
    node_at,
    openspiel_uniform_value,
    openspiel_value,
    sizes,
)

from seqform.certify import expected_value
from seqform.game.builtin.liars_dice import MAX_BIDS, bid_label, liars_dice, liars_dice_words
from seqform.game.builtin.registry import GAMES
from seqform.game.model import Game
from seqform.game.nodes import Chance, Node, Terminal
from seqform.io.loader import load_game
from seqform.routes.solve import solve

# Neller and Lanctot (2013), "An Introduction to Counterfactual Regret Minimization", as
# quoted by OpenSpiel's sequence_form_lp_test.py (test_liars_dice): one six-sided die each.
SIX_SIDED_VALUE = -0.027131782945736


def openspiel_label(text: str) -> str:
    """Our label of an OpenSpiel liars_dice action: bids ``"q-f"`` alike, ``"Liar"`` lower case."""
    return "liar" if text == "Liar" else text


def openspiel_roll(face: str) -> str:
    """OpenSpiel's liars_dice string of the chance outcome (a die showing) ``face``."""
    return f"Roll {face}"


def openspiel_spec(sides: int, dice: int) -> str:
    return f"liars_dice(dice_sides={sides},numdice={dice})"


@functools.cache
def built(sides: int, dice: int) -> Game:
    """The game, built once per test session (the six-sided one takes about a second)."""
    return liars_dice(sides, dice)


@pytest.fixture
def six_sided() -> Game:
    return built(6, 1)


SMALL = [
    pytest.param(2, 1, id="2-sides"),
    pytest.param(3, 1, id="3-sides"),
    pytest.param(4, 1, id="4-sides"),
    pytest.param(2, 2, id="2-sides-2-dice"),
]


@pytest.mark.parametrize(("sides", "dice"), SMALL)
def test_same_game_as_openspiel(sides, dice):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(openspiel_spec(sides, dice))
    compare_with_openspiel(built(sides, dice), game, openspiel_label, openspiel_roll)


@pytest.mark.parametrize(
    ("sides", "dice", "expected"),
    # OpenSpiel 2.0.2, counted by walking liars_dice(dice_sides=k,numdice=d): terminal
    # histories, information states per player, and 1 + their actions per player (equal to
    # len(infoset_actions_to_seq) of sequence_form_utils.construct_vars for 5 and 6 sides).
    [
        pytest.param(2, 1, (60, (16, 16), (31, 31)), id="2-sides"),
        pytest.param(3, 1, (567, (96, 96), (190, 190)), id="3-sides"),
        pytest.param(4, 1, (4080, (512, 512), (1021, 1021)), id="4-sides"),
        pytest.param(5, 1, (25575, (2560, 2560), (5116, 5116)), id="5-sides"),
        pytest.param(2, 2, (4080, (384, 384), (766, 766)), id="2-sides-2-dice"),
    ],
)
def test_sizes_match_openspiel(sides, dice, expected):
    assert sizes(built(sides, dice)) == expected


def test_six_sided_sizes_match_openspiel(six_sided):
    # OpenSpiel 2.0.2, counted as above: 147,420 terminal histories, 12,288 information
    # states and 24,571 sequences per player.
    assert sizes(six_sided) == (147420, (12288, 12288), (24571, 24571))


@pytest.mark.parametrize(
    ("sides", "dice", "value"),
    # OpenSpiel 2.0.2's expected_game_score.policy_value of UniformRandomPolicy gives
    # 0.125, 0.0185185... and 0.0625 (and -0.0324074... = -7/216 for six sides, left out
    # here for time; the six-sided game is checked by its sizes and its value).
    [
        pytest.param(2, 1, Fraction(1, 8), id="2-sides"),
        pytest.param(3, 1, Fraction(1, 54), id="3-sides"),
        pytest.param(2, 2, Fraction(1, 16), id="2-sides-2-dice"),
    ],
)
def test_uniform_play_value_matches_openspiel(sides, dice, value):
    pyspiel = pytest.importorskip("pyspiel")
    game = built(sides, dice)
    ours = expected_value(game, *behaviour(game, lambda actions: [1] * actions))
    theirs = openspiel_uniform_value(pyspiel.load_game(openspiel_spec(sides, dice)))
    assert ours == value
    assert float(ours) == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize(("sides", "dice", "seed"), [(3, 1, 0), (3, 1, 1), (2, 2, 2)])
def test_random_behaviour_value_matches_openspiel(sides, dice, seed):
    pyspiel = pytest.importorskip("pyspiel")
    game = built(sides, dice)
    openspiel_game = pyspiel.load_game(openspiel_spec(sides, dice))
    ours = compare_with_openspiel(game, openspiel_game, openspiel_label, openspiel_roll)
    rng = random.Random(seed)
    strategies = behaviour(game, lambda actions: [rng.randint(0, 5) + 1 for _ in range(actions)])
    value = expected_value(game, *strategies)
    assert float(value) == pytest.approx(
        openspiel_value(openspiel_game, strategies, ours), abs=1e-12
    )


def test_information_set_names(six_sided):
    table = infosets(six_sided)
    assert table["3|"] == (0, 12)  # player 1 must open with one of the 12 bids
    assert table["5|1-2"] == (1, 11)  # bids 1-3 … 2-6, or liar
    assert table["5|1-2,2-4"] == (0, 3)  # 2-5, 2-6 or liar
    assert table["1|2-6"] == (1, 1)  # after the highest bid only liar is left
    assert six_sided.describe_action("5|1-2", "2-5") == "bid 2 × face 5"
    assert liars_dice_words("5|1-2", "liar") == "call liar"


def test_two_dice_are_seen_sorted():
    table = infosets(built(2, 2))
    assert table["12|"] == (0, 8)
    assert "21|" not in table
    assert table["22|1-1"] == (1, 8)


def test_bid_labels_follow_openspiel_order():
    assert [bid_label(index, 3) for index in range(6)] == ["1-1", "1-2", "1-3", "2-1", "2-2", "2-3"]


@pytest.mark.parametrize(
    ("sides", "dice", "history", "payoff"),
    [
        (6, 1, ("3", "6", "2-3", "liar"), 1),  # the 6 is wild: two 3s, the bid stands
        (6, 1, ("3", "6", "2-6", "liar"), -1),  # a bid on 6s counts 6s only, once
        (6, 1, ("6", "6", "2-1", "liar"), 1),  # two wild 6s make two 1s
        (6, 1, ("3", "5", "1-4", "liar"), -1),  # no 4 and no 6: the caller wins
        (6, 1, ("3", "5", "1-4", "1-5", "liar"), -1),  # player 2's true bid, player 1 calls
        (6, 1, ("3", "5", "1-4", "1-6", "liar"), 1),  # player 2's false bid
        (2, 2, ("1", "2", "2", "2", "4-1", "liar"), 1),  # one 1 and three wild 2s
        (2, 2, ("1", "2", "1", "2", "1-1", "4-2", "liar"), 1),  # only two 2s
    ],
)
def test_payoffs(sides, dice, history, payoff):
    node = node_at(built(sides, dice), history)
    assert node == Terminal((Fraction(payoff), Fraction(-payoff)))


def test_dice_are_fair_and_exact():
    game = liars_dice(2, 2)
    distinct: dict[int, Chance] = {}
    stack: list[Node] = [game.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Chance) and id(node) not in distinct:
            distinct[id(node)] = node
            stack.extend(node.children)
    for node in distinct.values():
        assert node.outcomes == ("1", "2")
        assert node.probabilities == (Fraction(1, 2),) * 2
    # One roll at a time, player 1's dice first; the subtrees after "1 2" and "2 1" are
    # shared: 1 + 2 + 3 + 3 × 2 chance nodes instead of 1 + 2 + 4 + 8.
    assert len(distinct) == 12


def test_registered():
    assert GAMES["liars_dice"] is liars_dice
    assert load_game("liars_dice(sides=3)").name == "liars_dice(sides=3)"
    assert load_game("liars_dice(sides=2, dice=2)").name == "liars_dice(sides=2, dice=2)"
    with pytest.raises(ValueError, match="sides must be at least 2, got 1"):
        load_game("liars_dice(sides=1)")


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"sides": 1}, "sides must be at least 2, got 1"),
        ({"sides": 2.5}, "sides must be an integer, got 2.5"),
        ({"dice": 0}, "dice must be at least 1, got 0"),
        ({"dice": True}, "dice must be an integer"),
        ({"sides": 8}, f"give 16 bids .* at most {MAX_BIDS} bids"),
        ({"sides": 4, "dice": 2}, "2 dice of 4 sides per player give 16 bids"),
    ],
)
def test_invalid_parameters(parameters, message):
    with pytest.raises(ValueError, match=message):
        liars_dice(**parameters)


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["compare", "liars_dice(sides=8)"], id="compare"),
        pytest.param(["solve", "liars_dice(sides=8)", "--method", "tree"], id="solve-tree"),
        pytest.param(["exploit", "liars_dice(sides=8)", "--opponent", "uniform"], id="exploit"),
        pytest.param(["ranges", "liars_dice(sides=8)"], id="ranges"),
    ],
)
def test_the_bids_limit_refuses_before_the_game_is_sized(argv, monkeypatch, capsys):
    """The tree's bids limit is a usage error (exit 2) from the parameters alone: these
    commands built and numbered the 2**16-node public tree (2 s) for the memory check
    before the tree's own check refused it."""
    from seqform.cli.main import main
    from seqform.game.builtin import registry

    def built(sides: int = 6, dice: int = 1):  # the parameters read as the real one's
        raise AssertionError("the public tree was built before the bids limit refused it")

    monkeypatch.setitem(registry.STRUCTURED_GAMES, "liars_dice", built)
    assert main(argv) == 2
    assert f"give 16 bids and 2**16 nodes per roll; seqform builds at most {MAX_BIDS}" in (
        capsys.readouterr().err
    )


@pytest.fixture
def openspiel_lp_value(monkeypatch):
    """Player 1's value from OpenSpiel's sequence_form_lp.solve_zero_sum_game, with HiGHS.

    OpenSpiel's default LP solver is ECOS, which is not installed here, and its LinearProgram
    passes ECOS's own options to any solver; so pass no options and ask cvxpy for HiGHS.
    """
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import lp_solver, sequence_form_lp

    solve_lp = lp_solver.LinearProgram.solve
    monkeypatch.setattr(
        lp_solver.LinearProgram,
        "solve",
        lambda self, solver: solve_lp(self, solver=solver, solver_kwargs={}),
    )

    def value(spec: str) -> float:
        return sequence_form_lp.solve_zero_sum_game(pyspiel.load_game(spec), solver="HIGHS")[0]

    return value


@pytest.mark.parametrize("sides", [2, 3])
def test_value_matches_openspiel_lp(openspiel_lp_value, sides):
    solution = solve(built(sides, 1))
    assert solution.value == pytest.approx(openspiel_lp_value(openspiel_spec(sides, 1)), abs=1e-9)
    assert solution.nash_conv == pytest.approx(0, abs=1e-9)


def test_six_sided_value(six_sided):
    solution = solve(six_sided)
    assert solution.value == pytest.approx(SIX_SIDED_VALUE, abs=1e-9)
    assert solution.nash_conv == pytest.approx(0, abs=1e-9)
