"""benchmarks/gameshrink.py: GameShrink's merge as reconstructed there reproduces the
published size of Rhode Island's abstraction, and is not lossless under seqform's rules."""

from __future__ import annotations

import pytest

from benchmarks.gameshrink import (
    leduc_showdown,
    merged_check,
    rhode_island_formula_signals,
    rhode_island_showdown,
    signal_tree,
)
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.rhode_island_sizes import rhode_island_signal_sizes


def test_the_signal_counts_give_the_published_lp_rows():
    # Gilpin and Sandholm (EC 2006, JACM 2007): 91,224,226 LP rows unabstracted
    assert rhode_island_signal_sizes((52, 52 * 51, 52 * 51 * 50)).lp_rows(0) == 91_224_226
    # the suit reduction's count (docs/games.md): 6,889,976 rows
    suits = rhode_island_formula_signals(13, 4)["suits"]
    assert rhode_island_signal_sizes(suits).lp_rows(0) == 6_889_976


@pytest.mark.slow
def test_the_reconstruction_reproduces_gameshrinks_published_rows():
    tree = signal_tree(52, 2, rhode_island_showdown(13, 4))
    assert tree.per_round == (13, 205, 1774)
    # Gilpin and Sandholm (EC 2006, JACM 2007): 1,237,238 LP rows after GameShrink
    assert rhode_island_signal_sizes((13, 205, 1774)).lp_rows(0) == 1_237_238


def test_leducs_signal_tree_merges_by_wins_and_losses():
    tree = signal_tree(6, 1, leduc_showdown(3, 2))
    # (wins, losses) against the opponent's 4 cards, worked out by hand: J pairs (4, 0),
    # else (0, 3); Q pairs (4, 0), on a J (0, 3), on a K (2, 1); K pairs (4, 0), else
    # (2, 1): 2 + 3 + 2 classes after the board
    assert tree.per_round == (3, 7)


def test_the_gameshrink_merge_changes_leducs_value_and_the_ordered_merge_does_not():
    game = leduc_structured()
    exact = merged_check(game, "ordered")
    shrunk = merged_check(game, "GameShrink")
    # Leduc's value to player 1: -0.085606424078 (OpenSpiel's leduc_poker; docs/games.md)
    assert exact.lp_value == pytest.approx(-0.085606424078, abs=1e-11)
    assert exact.nash_conv < 1e-9
    assert abs(shrunk.lp_value - exact.lp_value) > 1e-3
    assert shrunk.nash_conv > 1e-3
