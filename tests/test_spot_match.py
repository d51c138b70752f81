"""A strategy document of a spot is used only with the spot it was computed for.

A spot's description names its street and board only, and its information sets are named by
combo and history, so a spot with the same labels and another pot or other range weights
passed the wrong-game check: the document's ``"spot"``/``"definition"`` is now compared with
the spot in use (:func:`seqform.holdem.spot_difference`), in
:func:`seqform.io.document_game.check_document_game`, for ``exploit``, ``play --auto`` and
``resolve --blueprint`` alike, from the command line and from Python."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seqform.cli.main import main
from seqform.documents.spots.spot import definition_json
from seqform.holdem import SpotDifference, spot_difference, spot_from_mapping
from seqform.io.json_input import StrategyFileError
from seqform.io.loader import load_game
from seqform.play.start import start_session
from seqform.questions.exploit import load_strategy

# A river spot of 4 + 6 combos on Ks7h2d9c4s: solved in well under a second.
RIVER = {
    "board": "Ks7h2d9c4s",
    "pot": 10,
    "effective_stack": 20,
    "oop_range": "AA,QQ:0.5",
    "ip_range": "JJ",
    "bet_sizes": [1],
    "max_raises": 0,
}


def _toml(keys: dict[str, object]) -> str:
    return "".join(f"{key} = {json.dumps(value)}\n" for key, value in keys.items())


@pytest.fixture(scope="module")
def spots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The spot solved (``river.json``), the same spot in another folder, the spot with
    AA at weight 1/2, and the solve document without its definition."""
    folder = tmp_path_factory.mktemp("spots")
    (folder / "same").mkdir()
    (folder / "other").mkdir()
    files = {
        "spot": folder / "river.toml",
        "same": folder / "same" / "river.toml",
        "other": folder / "other" / "river.toml",
        "document": folder / "river.json",
        "older": folder / "older.json",
    }
    files["spot"].write_text(_toml(RIVER))
    files["same"].write_text(_toml(RIVER))
    files["other"].write_text(_toml(RIVER | {"oop_range": "AA:0.5,QQ:0.5"}))
    solve = ["solve", str(files["spot"]), "--quiet", "--format", "json"]
    assert main([*solve, "--output", str(files["document"])]) == 0
    document = json.loads(files["document"].read_text())
    del document["spot"]["definition"]
    files["older"].write_text(json.dumps(document))
    return files


def test_spot_difference_names_the_first_key_and_both_values() -> None:
    spot = spot_from_mapping(RIVER)
    assert spot_difference(spot, spot_from_mapping(RIVER, name="elsewhere.toml")) is None
    # the same combos and weights written otherwise are the same range
    reordered = spot_from_mapping(RIVER | {"oop_range": "QQ:0.5,AA"})
    assert spot_difference(spot, reordered) is None
    weighed = spot_from_mapping(RIVER | {"oop_range": "AA:0.5,QQ:0.5"})
    assert spot_difference(weighed, spot) == SpotDifference("oop_range", "AA weighs ", "0.5", "1")
    # one combo of the group: the combo is named; a combo not in a range weighs 0
    one = spot_from_mapping(RIVER | {"oop_range": "AA,QQ:0.5,AhKh:0.25"})
    assert spot_difference(spot, one) == SpotDifference("oop_range", "AhKh weighs ", "0", "0.25")
    missing = spot_from_mapping(RIVER | {"ip_range": "JsJh,JsJd,JsJc,JhJd,JhJc"})
    assert spot_difference(spot, missing) == SpotDifference("ip_range", "JdJc weighs ", "1", "0")
    pot = spot_from_mapping(RIVER | {"pot": 12.5})
    assert spot_difference(spot, pot) == SpotDifference("pot", "", "10", "12.5")
    sizes = spot_from_mapping(RIVER | {"ip_bet_sizes": [0.5, 1], "oop_bet_sizes": [1]})
    assert spot_difference(spot, sizes) == SpotDifference("ip_bet_sizes", "", "[1]", "[0.5, 1]")
    threshold = spot_from_mapping(RIVER | {"all_in_threshold": 0.67})
    assert spot_difference(spot, threshold) == SpotDifference(
        "all_in_threshold", "", "none", "0.67"
    )


def test_street_tables_are_compared_by_the_sizes_they_give() -> None:
    turn = RIVER | {"board": "Ks7h2d9c"}
    spot = spot_from_mapping(turn)
    # the river's sizes written as a table of their own are the same spot
    tabled = spot_from_mapping(turn | {"river": {"bet_sizes": [1]}})
    assert spot_difference(spot, tabled) is None
    donk = spot_from_mapping(turn | {"river": {"bet_sizes": [1], "donk_sizes": [0.5]}})
    assert spot_difference(spot, donk) == SpotDifference("[river] donk_sizes", "", "none", "[0.5]")


def test_a_saved_definition_reads_back_to_the_same_spot() -> None:
    # what the check relies on: a document's definition of the very spot is not refused
    turn = RIVER | {
        "board": "Ks7h2d9c",
        "oop_range": "AA,QQ:0.3,AhKh:1/3",
        "all_in_threshold": 0.67,
        "donk_sizes": [0.33],
        "river": {"oop_bet_sizes": [0.75], "ip_bet_sizes": [1], "ip_all_in": False},
    }
    spot = spot_from_mapping(turn)
    saved = json.loads(json.dumps(definition_json(spot)))
    assert spot_difference(spot_from_mapping(saved), spot) is None


def test_a_spot_document_used_with_another_game_is_refused_by_name(
    spots: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["exploit", "kuhn", "--strategy", str(spots["document"])]) == 1
    assert "not of the game being exploited, 'kuhn'" in capsys.readouterr().err


def test_exploit_refuses_a_document_of_other_weights(
    spots: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["exploit", str(spots["other"]), "--strategy", str(spots["document"])]
    assert main(argv) == 1
    error = capsys.readouterr().err
    assert "is a strategy of another spot, not of the game being exploited" in error
    assert "oop_range: AA weighs 1 in the file, 0.5 in the spot" in error
    assert "Traceback" not in error


def test_exploit_accepts_the_same_spot_from_another_file(
    spots: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["exploit", str(spots["same"]), "--strategy", str(spots["document"])]
    assert main([*argv, "--format", "json"]) == 0
    # the spot's own equilibrium: nothing to gain against it (the solve's certificate)
    assert json.loads(capsys.readouterr().out)["gain"] == pytest.approx(0, abs=1e-9)


def test_a_document_without_a_definition_is_matched_by_name_and_description(
    spots: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["exploit", str(spots["other"]), "--strategy", str(spots["older"])]
    assert main(argv) == 0
    capsys.readouterr()


def test_python_refuses_as_the_cli_does(spots: dict[str, Path]) -> None:
    other = load_game(str(spots["other"]))
    with pytest.raises(StrategyFileError, match=r"oop_range: AA weighs 1 in the file, 0\.5 in"):
        load_strategy(other, spots["document"], 0)
    with pytest.raises(StrategyFileError, match="not of the game being played"):
        start_session(str(spots["other"]), 1, seed=1, auto=str(spots["document"]))


def test_resolve_refuses_a_blueprint_of_other_weights(
    spots: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["resolve", str(spots["other"]), "--blueprint", str(spots["document"])]
    assert main(argv) == 1
    error = capsys.readouterr().err
    assert "not of the game being re-solved" in error and "AA weighs 1 in the file" in error


def test_a_definition_that_is_not_a_spot_is_refused(
    spots: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(spots["document"].read_text())
    document["spot"]["definition"]["pot"] = -1
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document))
    assert main(["exploit", str(spots["spot"]), "--strategy", str(broken)]) == 1
    assert "spot/definition: pot must be greater than 0" in capsys.readouterr().err
