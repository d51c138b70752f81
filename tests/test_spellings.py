"""OpenSpiel's spellings of the built-in games, parameter names in any case, ``export
--output`` and usage errors with exit code 2."""

from __future__ import annotations

import json

import pytest

from seqform.cli.main import main
from seqform.game.builtin.registry import build_builtin_game, load_structured_game
from seqform.game.errors import GameParameterError


@pytest.mark.parametrize(
    ("openspiel", "seqform"),
    [
        pytest.param("kuhn_poker", "kuhn", id="kuhn_poker"),
        pytest.param("KUHN_POKER(players=2)", "kuhn", id="kuhn_poker-2p"),
        pytest.param("kuhn_poker(players=3)", "kuhn3", id="kuhn_poker-3p"),
        pytest.param("kuhn(players=3)", "kuhn3", id="kuhn-3p"),
        pytest.param("leduc_poker", "leduc", id="leduc_poker"),
        pytest.param(
            "leduc_poker(players=2, action_mapping=false, starting_player=0, "
            "suit_isomorphism=true)",
            "leduc(suit_isomorphism=True)",
            id="leduc_poker-defaults",
        ),
        pytest.param("liars_dice(dice_sides=3)", "liars_dice(sides=3)", id="dice_sides"),
        pytest.param(
            "liars_dice(dice_sides=2, numdice=2, players=2, bidding_rule='reset-face')",
            "liars_dice(sides=2, dice=2)",
            id="liars_dice-all",
        ),
    ],
)
def test_openspiel_spellings_build_the_built_in_game(openspiel: str, seqform: str) -> None:
    # The built-in games are OpenSpiel's (tests/test_openspiel.py walks them node for node);
    # here each spelling must give the game that seqform's own name gives.
    game, expected = build_builtin_game(openspiel), build_builtin_game(seqform)
    assert game.name == expected.name
    assert game.flat.num_nodes == expected.flat.num_nodes


def test_the_structured_route_reads_openspiel_spellings_too() -> None:
    assert load_structured_game("leduc_poker").name == load_structured_game("leduc").name


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param(
            "kuhn_poker(players=4)",
            "seqform's kuhn is OpenSpiel's with players=2 (kuhn3 with players=3); for "
            "players=4 convert OpenSpiel's game: 'openspiel:kuhn_poker(players=4)'",
            id="kuhn-4p",
        ),
        pytest.param(
            "leduc(players=3)",
            "for players=3 convert OpenSpiel's game: 'openspiel:leduc_poker(players=3)'",
            id="leduc-3p",
        ),
        pytest.param(
            "leduc_poker(action_mapping=true)",
            "'openspiel:leduc_poker(action_mapping=true)'",
            id="action-mapping",
        ),
        pytest.param("kuhn(Cards=5)", "no parameter 'Cards' (did you mean cards?)", id="case"),
        pytest.param("leduc(Ranks=4)", "no parameter 'Ranks' (did you mean ranks?)", id="case2"),
        pytest.param("kuhn(card=5)", "no parameter 'card' (did you mean cards?)", id="typo"),
        pytest.param("kuhn(cards=1)", "cards must be an integer >= 2, got 1", id="range"),
        pytest.param("leduc(ranks=0)", "ranks must be between 2 and 13, got 0", id="range2"),
    ],
)
def test_a_spelling_that_is_not_built_in_says_what_is(spec: str, message: str) -> None:
    with pytest.raises(GameParameterError) as refused:
        build_builtin_game(spec)
    assert message in str(refused.value)


def test_solve_and_iterate_take_openspiel_spellings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "kuhn_poker", "--format", "json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["value_fraction"] == "-1/18"  # Kuhn (1950)
    argv = ["iterate", "kuhn_poker(players=3)", "--algorithm", "cfr", "--iterations", "5"]
    assert main([*argv, "--quiet", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["game"]["name"] == "kuhn3"  # three players, run by iterate


def _exit_code(argv: list[str]) -> int:
    """``main(argv)``'s exit code, argparse's usage errors (SystemExit) included."""
    try:
        return main(argv)
    except SystemExit as exit:
        return int(exit.code or 0)


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["play", "--hands", "-1"], id="play-hands"),
        pytest.param(["iterate", "kuhn", "--algorithm", "cfr", "--time-limit", "inf"], id="inf"),
        pytest.param(["solve", "kuhn", "--time-limit", "nan"], id="nan"),
        pytest.param(["solve", "kuhn(foo=1)"], id="unknown-parameter"),
        pytest.param(["solve", "kuhn(cards=1)"], id="parameter-out-of-range"),
        pytest.param(["solve", "kuhn_poker(players=4)"], id="openspiel-setting"),
        pytest.param(["solve", "texas"], id="unknown-game"),
        pytest.param(["exploit", "kuhn", "--opponent", "maniac"], id="unknown-opponent"),
        pytest.param(["export", "kuhn", "--to", "efg"], id="export-no-file"),
        pytest.param(["export", "kuhn", "--to", "efg", "a.efg", "--output", "b.efg"], id="both"),
    ],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code(argv) == 2
    err = capsys.readouterr().err
    assert "error: " in err and "Traceback" not in err


def test_export_takes_output_as_every_other_command(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    by_option, positional = tmp_path / "option.efg", tmp_path / "positional.efg"
    assert main(["export", "kuhn", "--to", "efg", "--output", str(by_option)]) == 0
    assert main(["export", "kuhn", "--to", "efg", str(positional)]) == 0
    assert by_option.read_text() == positional.read_text()
    capsys.readouterr()
    assert _exit_code(["export", "kuhn", "--to", "efg", "x.efg", "--output", "y.efg"]) == 2
    assert "not both" in capsys.readouterr().err
