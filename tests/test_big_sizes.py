"""``python -m benchmarks.big_sizes``: the documents' big sizes certified by a default solve,
checked here on the smallest instance so the benchmark cannot rot."""

from __future__ import annotations

import pytest

from benchmarks import big_sizes


def test_the_benchmark_certifies_a_small_game_and_measures_it(capsys):
    assert big_sizes.main(["--only", "kuhn(cards=10)"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("kuhn(cards=10)") and "certified" in line and "MiB peak" in line


def test_a_game_that_does_not_certify_fails_the_run(capsys):
    # kuhn3 has three players: the LP refuses it (exit 1), so it is not certified
    assert big_sizes.main(["--only", "kuhn3"]) == 1
    assert "NOT certified (exit 1)" in capsys.readouterr().out


@pytest.mark.parametrize("game", big_sizes.BIG_SIZES)
def test_the_big_sizes_are_games_seqform_knows(game):
    from seqform.game.builtin.registry import known_names

    assert game.split("(")[0] in known_names()
