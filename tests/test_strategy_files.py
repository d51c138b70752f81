"""The one reader of strategy and restriction files: each accepted shape, each error."""

import json
import re
from fractions import Fraction

import pytest

from seqform.cli.main import main
from seqform.io.strategy_files import (
    SUM_TOLERANCE,
    ProbabilityRange,
    StrategyFileError,
    parse_probability,
    read_restriction_file,
    read_strategy_file,
)

THIRD, TWO_THIRDS = Fraction(1, 3), Fraction(2, 3)

# Player 1's information sets in 3-card Kuhn, with a complete strategy for them.
PLAYER_ONE = {
    "J": {"p": "2/3", "b": "1/3"},
    "Jpb": {"p": 1, "b": 0},
    "Q": {"p": 1},
    "Qpb": {"p": 0.5, "b": 0.5},
    "K": {"b": 1},
    "Kpb": {"b": 1.0},
}
PLAYER_TWO = {name: {"p": 0.5, "b": 0.5} for name in ("Jp", "Qp", "Kp", "Jb", "Qb", "Kb")}


@pytest.fixture
def write(tmp_path):
    """Write a JSON document (or raw text) to a file and return its path."""

    def written(document, name="strategy.json"):
        path = tmp_path / name
        path.write_text(document if isinstance(document, str) else json.dumps(document))
        return path

    return written


@pytest.fixture(scope="module")
def solve_document(tmp_path_factory):
    path = tmp_path_factory.mktemp("solve") / "kuhn.json"
    assert main(["solve", "kuhn", "--format", "json", "--output", str(path)]) == 0
    return json.loads(path.read_text())


# --- accepted shapes ---------------------------------------------------------------------------


def test_plain_mapping_is_read_exactly_in_action_order(kuhn, write):
    read = read_strategy_file(write(PLAYER_ONE), kuhn)
    assert read.player == 0
    assert list(read.probabilities) == list(kuhn.flat.tables[0].infosets)
    assert read.probabilities["J"] == {"p": TWO_THIRDS, "b": THIRD}
    assert read.probabilities["Q"] == {"p": 1, "b": 0}  # a missing action has probability 0
    assert list(read.probabilities["K"]) == ["p", "b"]
    assert read.probabilities["Qpb"]["b"] == Fraction(1, 2)  # a float read as its decimal


def test_the_player_is_inferred_from_the_information_sets(kuhn, write):
    assert read_strategy_file(write(PLAYER_TWO), kuhn).player == 1


def test_actions_in_words(kuhn, write):
    document = dict(PLAYER_TWO, Kb={"fold": 0, "call": 1}, Jp={"check": "1/3", "bet": "2/3"})
    read = read_strategy_file(write(document), kuhn)
    assert read.probabilities["Kb"] == {"p": 0, "b": 1}
    assert read.probabilities["Jp"] == {"p": THIRD, "b": TWO_THIRDS}


def test_a_named_player_ignores_the_other_players_sets(kuhn, write):
    path = write({**PLAYER_ONE, **PLAYER_TWO})
    assert set(read_strategy_file(path, kuhn, player=1).probabilities) == set(PLAYER_TWO)
    assert set(read_strategy_file(path, kuhn, player=0).probabilities) == set(PLAYER_ONE)


def test_probabilities_within_the_tolerance_are_rescaled_to_one(kuhn, write):
    off = SUM_TOLERANCE / 2
    document = dict(PLAYER_ONE, J={"p": str(TWO_THIRDS + off), "b": str(THIRD)})
    at_j = read_strategy_file(write(document), kuhn).probabilities["J"]
    assert sum(at_j.values()) == 1
    assert at_j["p"] == (TWO_THIRDS + off) / (1 + off)


@pytest.mark.parametrize("player", [0, 1], ids=["player-1", "player-2"])
def test_whole_solve_document(kuhn, write, solve_document, player):
    read = read_strategy_file(write(solve_document), kuhn, player)
    assert read.player == player
    assert list(read.probabilities) == list(kuhn.flat.tables[player].infosets)
    assert all(sum(odds.values()) == 1 for odds in read.probabilities.values())
    if player == 1:  # Kuhn (1950): player 2 calls with Q a third of the time
        assert float(read.probabilities["Qb"]["b"]) == pytest.approx(1 / 3, abs=1e-9)


def test_solve_document_defaults_to_player_one(kuhn, write, solve_document):
    assert read_strategy_file(write(solve_document), kuhn).player == 0


def test_one_entry_of_a_solve_document(kuhn, write, solve_document):
    entry = solve_document["strategies"][1]
    read = read_strategy_file(write(entry), kuhn)
    assert read.player == 1 and set(read.probabilities) == set(PLAYER_TWO)


@pytest.mark.parametrize("player", [0, 1], ids=["player-1", "player-2"])
def test_a_structured_game_reads_the_trees_strategy_by_name(kuhn, write, solve_document, player):
    from seqform.game.builtin.kuhn import kuhn_structured
    from seqform.game.public.numbering import structured_tables

    structured = kuhn_structured(3)
    path = write(solve_document)
    read = read_strategy_file(path, structured, player)
    assert list(read.probabilities) == list(structured_tables(structured)[player].infosets)
    assert read.probabilities == read_strategy_file(path, kuhn, player).probabilities


def test_a_gambit_profile_needs_the_tree(write):
    from seqform.game.builtin.kuhn import kuhn_structured

    with pytest.raises(StrategyFileError, match=r"Gambit profile.*JSON strategy"):
        read_strategy_file(write("NE,1,0,1,0,1,0,1,0,1,0,1,0"), kuhn_structured(3))


def test_restriction_file_values_and_ranges(write):
    path = write({"K": {"b": 1}, "Qpb": {"b": ["1/3", 0.5]}}, "fix.json")
    assert read_restriction_file(path) == {
        "K": {"b": ProbabilityRange(Fraction(1), Fraction(1))},
        "Qpb": {"b": ProbabilityRange(THIRD, Fraction(1, 2))},
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(0.1, Fraction(1, 10), id="float-as-its-decimal"),
        pytest.param(1, Fraction(1), id="integer"),
        pytest.param(" 1/3 ", THIRD, id="fraction-string"),
        pytest.param("0.25", Fraction(1, 4), id="decimal-string"),
        pytest.param("1e-3", Fraction(1, 1000), id="exponent-string"),
    ],
)
def test_parse_probability(value, expected):
    assert parse_probability(value, "here") == expected


# --- errors ------------------------------------------------------------------------------------


def _with(**changes):
    return {**PLAYER_ONE, **changes}


@pytest.mark.parametrize(
    ("document", "player", "message"),
    [
        pytest.param("{", None, "not JSON (", id="not-json"),
        pytest.param([1, 2], None, "must hold an object; expected a solve JSON", id="bad-shape"),
        pytest.param(
            _with(J=[0.5, 0.5]), None, "information set 'J': expected {action", id="bad-entry"
        ),
        pytest.param(
            {"schema": "seqform.exploit/1"},
            None,
            "is a seqform.exploit/1 document",
            id="other-schema",
        ),
        pytest.param(
            {"infosets": [{"name": "J"}]}, None, "needs 'name' and 'actions'", id="bad-entry-list"
        ),
        pytest.param(
            _with(Z={"p": 1}), None, "the game has no information set 'Z'", id="unknown-infoset"
        ),
        pytest.param(
            {"J": {"p": 1}},
            None,
            "no probabilities for 5 information set(s) of player 1",
            id="missing-infoset",
        ),
        pytest.param(
            _with(J={"p": 0.5, "b": 0.6}),
            None,
            "information set 'J': probabilities sum to 1.1, not 1",
            id="sum-off",
        ),
        pytest.param(
            _with(J={"p": "1/3", "b": 0.6666}),  # 6.7e-5 short of 1, over the 1e-6 tolerance
            None,
            "sum to 0.999933333333",
            id="sum-off-by-a-rounding",
        ),
        pytest.param(
            _with(J={"p": "x", "b": 1}),
            None,
            "'J', action 'p': 'x' is not a number",
            id="bad-number",
        ),
        pytest.param(_with(J={"p": True}), None, "True is not a number", id="boolean"),
        pytest.param(
            _with(J={"p": -1, "b": 2}), None, "probability -1 is not between 0 and 1", id="negative"
        ),
        pytest.param(_with(J={"raise": 1}), None, "unknown action 'raise'", id="unknown-action"),
        pytest.param(
            _with(J={"p": 0.5, "check": 0.5}),
            None,
            "action 'p' is given twice",
            id="label-and-word",
        ),
        pytest.param(
            {**PLAYER_ONE, **PLAYER_TWO},
            None,
            "information sets of both players",
            id="both-players",
        ),
        pytest.param(
            {"player": 2, "infosets": []},
            0,
            "a strategy of player 2, not of player 1",
            id="wrong-player",
        ),
        pytest.param(
            {"player": 3, "infosets": []}, None, "'player' must be 1 or 2", id="no-such-player"
        ),
        pytest.param(
            {"strategies": []},
            1,
            "no strategy for player 2",
            id="solve-document-without-the-player",
        ),
    ],
)
def test_strategy_file_errors(kuhn, write, document, player, message):
    path = write(document)
    with pytest.raises(StrategyFileError, match=re.escape(message)) as raised:
        read_strategy_file(path, kuhn, player)
    assert str(path) in str(raised.value)  # every message names the file
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        pytest.param([1, 2], "expected an object", id="bad-shape"),
        pytest.param({"K": 1}, "information set 'K': expected {action", id="bad-entry"),
        pytest.param(
            {"K": {"b": 2}}, "'K', action 'b': probability 2 is not between", id="above-one"
        ),
        pytest.param({"K": {"b": [0.1]}}, "a range is [lo, hi]", id="short-range"),
        pytest.param(
            {"K": {"b": ["1/2", "1/3"]}}, "the range [1/2, 1/3] is empty", id="empty-range"
        ),
    ],
)
def test_restriction_file_errors(write, document, message):
    path = write(document, "fix.json")
    with pytest.raises(StrategyFileError, match=re.escape(message)) as raised:
        read_restriction_file(path)
    assert str(path) in str(raised.value)


def test_a_missing_file_is_an_os_error(kuhn, tmp_path):
    with pytest.raises(OSError):
        read_strategy_file(tmp_path / "absent.json", kuhn)


# --- odd shapes through the command line, one line on stderr and exit 1 ----------------------

DEEP = "[" * 100_000 + "]" * 100_000
ONE_OF_EACH = ("Jpb", "Q", "Qpb", "K", "Kpb")


def _rest(**given):
    """Player 1's strategy with the information sets in ``given`` replaced (raw JSON text)."""
    return {**{name: {"p": 1} for name in ONE_OF_EACH}, **given}


def _one_line_error(capsys, argv, *expected):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("seqform: error: "), err
    assert "Traceback" not in err
    for text in expected:
        assert text in err, err
    return err


@pytest.mark.parametrize(
    ("text", "player", "expected"),
    [
        pytest.param('{"strategies": 5}', "2", "'strategies' must be a list, got 5", id="str-5"),
        pytest.param(
            '{"strategies": null}', "2", "'strategies' must be a list, got None", id="str-null"
        ),
        pytest.param('{"infosets": 5}', "2", "'infosets' must be a list, got 5", id="infosets-5"),
        pytest.param(
            '{"player": 3, "infosets": []}', "2", "'player' must be 1 or 2, got 3", id="player-3"
        ),
        pytest.param(
            '{"player": -5, "infosets": []}', "2", "'player' must be 1 or 2, got -5", id="p-minus5"
        ),
        pytest.param(
            '{"player": 0, "infosets": []}', "2", "'player' must be 1 or 2, got 0", id="player-0"
        ),
        pytest.param(
            '{"strategies": [{"player": 0, "infosets": []}]}',
            "2",
            "strategies entry 1: 'player' must be 1 or 2, got 0",
            id="entry-player-0",
        ),
        pytest.param(
            '{"player": 1.0, "infosets": []}', "1", "'player' must be 1 or 2, got 1.0", id="p-1.0"
        ),
        pytest.param(
            json.dumps(_rest(J={"p": "1e100000"})),
            "1",
            "probability 1e100000 is not between 0 and 1",
            id="prob-1e100000",
        ),
        pytest.param(
            json.dumps(_rest(J={"p": "1e999999999999"})),
            "1",
            "probability 1e999999999999 is not between 0 and 1",
            id="prob-huge-exponent",
        ),
        pytest.param(
            json.dumps(_rest(J={"p": "1e-100000", "b": 1})),
            "1",
            "too small to tell from 0",
            id="prob-1e-100000",
        ),
        pytest.param(
            json.dumps(_rest()).replace("{", '{"J": {"p": 1e100000},', 1),
            "1",
            "the number 1e100000 is beyond a float's range",
            id="float-literal-1e100000",
        ),
        pytest.param(
            json.dumps(_rest(J={"p": "0." + "1" * 5000})),
            "1",
            "a number of 5002 characters",
            id="5000-digits",
        ),
        pytest.param('{"J": {"p": 1}, "J": {"b": 1}}', "1", "the key 'J' is given twice", id="dup"),
        pytest.param(DEEP, "2", "brackets nested 100000 deep", id="deep"),
    ],
)
def test_exploit_strategy_odd_shapes(capsys, tmp_path, text, player, expected):
    path = tmp_path / "odd.json"
    path.write_text(text)
    argv = ["exploit", "kuhn", "--strategy", str(path), "--player", player]
    _one_line_error(capsys, argv, expected, str(path))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(DEEP, "brackets nested 100000 deep", id="deep"),
        pytest.param('{"K": {"b": 1}, "K": {"b": 0}}', "the key 'K' is given twice", id="dup"),
        pytest.param('{"K": {"b": 1, "b": 0}}', "the key 'b' is given twice", id="dup-action"),
    ],
)
@pytest.mark.parametrize("command", ["fix-file", "play"])
def test_fix_file_and_play_auto_odd_shapes(capsys, tmp_path, text, expected, command):
    path = tmp_path / "odd.json"
    path.write_text(text)
    argv = (
        ["solve", "kuhn", "--fix-file", str(path)]
        if command == "fix-file"
        else ["play", "kuhn", "--auto", str(path), "--hands", "2", "--seed", "1"]
    )
    _one_line_error(capsys, argv, expected, str(path))


@pytest.mark.parametrize("command", ["exploit", "fix-file", "play"])
def test_a_file_that_is_not_utf8_is_named(capsys, tmp_path, command):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"K": {"b": "\u00e9"}}'.encode("latin-1"))
    argv = {
        "exploit": ["exploit", "kuhn", "--strategy", str(path), "--player", "1"],
        "fix-file": ["solve", "kuhn", "--fix-file", str(path)],
        "play": ["play", "kuhn", "--auto", str(path), "--hands", "2", "--seed", "1"],
    }[command]
    _one_line_error(capsys, argv, "is not UTF-8 text (byte 0xe9 at offset 13)", str(path))


def test_player_zero_is_not_read_as_player_two(kuhn, write):
    with pytest.raises(StrategyFileError, match="'player' must be 1 or 2, got 0"):
        read_strategy_file(write({"player": 0, "infosets": []}), kuhn)


def test_an_information_set_listed_twice_is_refused(kuhn, write):
    entry = {"name": "J", "actions": [{"action": "p", "probability": 1}]}
    path = write({"player": 1, "infosets": [entry, entry]})
    with pytest.raises(StrategyFileError, match="information set 'J' is given twice"):
        read_strategy_file(path, kuhn)


def test_a_byte_order_mark_is_allowed(kuhn, tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(PLAYER_ONE).encode())
    assert read_strategy_file(path, kuhn).player == 0


def test_a_strategy_file_too_large_is_refused_before_it_is_read(tmp_path, capsys):
    from seqform.io.json_input import MAX_JSON_BYTES

    path = tmp_path / "huge.json"
    with path.open("wb") as file:  # sparse: no disk used, and not JSON if it were read
        file.truncate(MAX_JSON_BYTES + 1)
    assert main(["exploit", "kuhn", "--strategy", str(path)]) == 1
    assert f"is {MAX_JSON_BYTES + 1:,} bytes; seqform reads files of at most" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("command", "words"),
    [
        pytest.param(
            ("exploit", "kuhn", "--strategy"), "the game being exploited, 'kuhn'", id="exploit"
        ),
        pytest.param(
            ("resolve", "leduc", "--blueprint"), "the game being re-solved, 'leduc'", id="resolve"
        ),
        pytest.param(
            (
                "resolve",
                "leduc(bets=((1, 2), (4,)))",
                "--abstract",
                "leduc",
                "--off-tree",
                "translate",
                "--blueprint",
            ),
            "the abstract game, 'leduc'",
            id="off-tree",
        ),
    ],
)
def test_another_games_document_is_refused_in_the_commands_words(command, words, tmp_path, capsys):
    # The refusal said "the game being played" for every command; each caller now names its use.
    path = tmp_path / "kuhn4.json"
    game = {"name": "kuhn(cards=4)", "description": "Kuhn poker (Kuhn 1950) with 4 cards"}
    path.write_text(json.dumps({"schema": "seqform.solve/2", "game": game, "strategies": []}))
    assert main([*command, str(path)]) != 0
    error = capsys.readouterr().err
    assert "is a strategy of 'kuhn(cards=4)' (" in error and f"not of {words} (" in error
    assert "being played" not in error and "Traceback" not in error
