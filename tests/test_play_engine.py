"""The play engine driven from Python, without a terminal (:mod:`seqform.play`): many hands
played by a scripted policy average out to the game's value, on Kuhn poker and on a spot;
a hand is stepped by free functions; a spot that ``solve`` refuses, ``play`` refuses too."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from spot_files import RIVER

from seqform.cli.main import main
from seqform.holdem.lp_work import LPWorkRefusedError
from seqform.holdem.report import seat_ev
from seqform.play import (
    CHANCE,
    Score,
    apply,
    auto_move,
    deal_card,
    deal_hand,
    hand_result,
    legal_actions,
    opponent_move,
    play_hand,
    start_session,
)
from seqform.play.start import check_playable

KUHN_VALUE = -1 / 18  # to player 1 (Kuhn 1950)


# docs/spots.md "A turn spot, measured": solve refuses its LP (580,368 variables) at once
WIDE_TURN = """\
board = "Ks7h2d9c"
pot = 10
effective_stack = 50
oop_range = "22+,A2s+"
ip_range = "22+,A2s+"
bet_sizes = [0.75]
raise_sizes = [1]
max_raises = 1
"""


def average_within_bound(session, hands: int) -> tuple[float, float]:
    """The average payoff of ``hands`` hands of the session's ``auto`` strategy, and four
    standard errors of it (the sample's own deviation / sqrt(hands)): a bound the average
    misses with probability below 1e-4 by the central limit theorem."""
    score = Score(session.seat_value)
    squares = 0.0
    for number in range(1, hands + 1):
        result = play_hand(session, auto_move, number=number)
        score = score.add(result)
        squares += float(result.payoff) ** 2
    mean = score.average
    deviation = math.sqrt(squares / hands - mean**2)
    return mean, 4 * deviation / math.sqrt(hands)


@pytest.mark.slow
@pytest.mark.parametrize("seat", [0, 1])
def test_kuhn_hands_average_to_the_game_value(seat):
    session = start_session("kuhn", seat, seed=2024, auto="equilibrium")
    assert session.seat_value == pytest.approx(KUHN_VALUE if seat == 0 else -KUHN_VALUE)
    mean, bound = average_within_bound(session, 20_000)
    assert abs(mean - session.seat_value) <= bound


@pytest.mark.slow
def test_spot_hands_average_to_the_seats_ev(tmp_path: Path):
    path = tmp_path / "river.toml"
    path.write_text(RIVER)
    session = start_session(path, 1, seed=7, auto="equilibrium")
    # IP's EV in chips: half the pot less the LP's value to OOP, 2525/978 (solve river.toml)
    assert session.seat_value == pytest.approx(seat_ev(Fraction(2525, 978), 10, 1), abs=1e-8)
    mean, bound = average_within_bound(session, 3_000)
    assert abs(mean - session.seat_value) <= bound


def test_a_hand_is_stepped_by_free_functions():
    session = start_session("kuhn", 1, seed=5)
    state = deal_hand(session)
    assert state.player == 0 and legal_actions(state) == ("p", "b")
    with pytest.raises(ValueError, match="'x' is not an action here; the actions are p, b"):
        apply(state, "x")
    while state.player is not None:
        assert state.player != CHANCE
        if state.player == session.seat:
            state = apply(state, legal_actions(state)[-1])  # bet, or call
        else:
            state = apply(state, opponent_move(state))
    result = hand_result(state)
    assert result.payoff == result.won and abs(result.payoff) in (1, 2)
    with pytest.raises(ValueError, match="no card is dealt here"):
        deal_card(state)


@pytest.mark.slow
def test_a_spot_solve_refuses_is_refused_before_building(tmp_path: Path, capsys):
    path = tmp_path / "turn.toml"
    path.write_text(WIDE_TURN)
    with pytest.raises(LPWorkRefusedError, match="580,368 variables"):
        check_playable(path)
    assert main(["play", str(path), "--auto", "random", "--hands", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the spot's LP would have 580,368 variables" in err
