"""The ``.efg`` pre-pass: players the header does not declare, UTF-8 and labels
pygambit refuses, text after the tree, nodes that contradict the file (chance probabilities,
outcomes, information sets), deep trees; and the linear ``.efg`` writer.

Reference values: pygambit's exact strategic-form LP (``lp_solve(rational=True,
use_strategic=True)``) on the same game, or the ASCII twin of a file read by pygambit alone.
"""

from __future__ import annotations

import time
from fractions import Fraction

import pygambit
import pytest
from gametrees import games
from hypothesis import HealthCheck, given, settings

import seqform.game.formats.efg as efg
import seqform.game.formats.efg_scan as efg_scan
from seqform.cli.main import main
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.errors import GameFormatError
from seqform.game.formats.efg import read_efg
from seqform.game.formats.efg_tokens import position
from seqform.game.formats.from_gambit import game_from_gambit
from seqform.game.formats.to_gambit import game_to_gambit
from seqform.game.nodes import Decision, Terminal, walk
from seqform.io.export import efg_text, write_efg
from seqform.io.loader import load_game
from seqform.routes.solve import solve

HIDE_AND_SEEK = """\
EFG 2 R "{title}" {{ "{hider}" "Seeker" }}
"{description}"

p "{start}" 1 1 "{hide}" {{ "{left}" "Right" }} 0
p "" 2 1 "seek" {{ "Left" "Right" }} 0
t "{found}" 1 "found left" {{ -1 1 }}
t "" 2 "missed left" {{ 2 -2 }}
p "" 2 1 0
t "" 3 "missed right" {{ 1 -1 }}
t "" 4 "found right" {{ -1 1 }}
"""
ASCII = {
    "title": "Hide and seek",
    "hider": "Hider",
    "description": "one line",
    "start": "start",
    "hide": "hide",
    "left": "Left",
    "found": "found",
}
SEEK_VALUE = Fraction(1, 5)  # the hider's matrix ((-1, 2), (1, -1)): Left with 2/5, pygambit


def hide_and_seek(**changes: str) -> str:
    return HIDE_AND_SEEK.format(**{**ASCII, **changes})


def refused(tmp_path, capsys, content: str | bytes) -> GameFormatError:
    """The error reading ``content`` as a file; the CLI exits 1 with one line on stderr."""
    path = tmp_path / "game.efg"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    with pytest.raises(GameFormatError) as error:
        read_efg(path)
    assert str(path) in str(error.value)
    capsys.readouterr()
    assert main(["solve", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("seqform: error: cannot read") and err.count("\n") == 1
    reason = error.value.reason
    assert "_M_range_check" not in reason and "codec" not in reason and reason != "stoi"
    return error.value


def test_the_ascii_twin_has_gambits_value(tmp_path):
    path = tmp_path / "seek.efg"
    path.write_text(hide_and_seek())
    gambit_game = pygambit.read_efg(str(path))
    result = pygambit.nash.lp_solve(gambit_game, rational=True, use_strategic=True)
    assert result.equilibria[0].payoff(next(iter(gambit_game.players))) == SEEK_VALUE
    assert solve(read_efg(path)).value == pytest.approx(float(SEEK_VALUE), abs=1e-9)


# --- players ---------------------------------------------------------------------------------


@pytest.mark.parametrize("player", ["3", "0", "-1"])
def test_an_undeclared_player_is_named_with_its_node_and_line(tmp_path, capsys, player):
    text = hide_and_seek().replace('p "" 2 1 "seek"', f'p "look" {player} 1 "seek"')
    error = refused(tmp_path, capsys, text)
    assert (error.line, error.column) == (5, 10)
    assert error.reason == (
        f"decision node 'look' belongs to player {player}, but the header declares 2 players "
        '(1 "Hider", 2 "Seeker"); players are numbered from 1, chance nodes are \'c\' lines'
    )


@pytest.mark.parametrize(
    ("number", "problem"), [("-", "is not a whole number"), ("99999999999", "is too large")]
)
def test_a_player_number_that_stoi_refuses_gets_a_line(tmp_path, capsys, number, problem):
    # pygambit says only "stoi".
    text = hide_and_seek().replace('p "" 2 1 "seek"', f'p "" {number} 1 "seek"')
    error = refused(tmp_path, capsys, text)
    assert (error.line, error.column, error.reason) == (5, 6, f"player number '{number}' {problem}")


def test_a_zero_denominator_gets_a_line(tmp_path, capsys):
    error = refused(tmp_path, capsys, hide_and_seek().replace("{ 2 -2 }", "{ 2/0 -2 }"))
    assert (error.line, error.column, error.reason) == (7, 24, "payoff '2/0' divides by zero")


# --- UTF-8 and labels pygambit refuses ------------------------------------------------------


def test_non_ascii_title_labels_and_description_are_read_and_kept(tmp_path):
    path = tmp_path / "cache.efg"
    text = hide_and_seek(
        title="Cache-cache ♠",
        hider="Cacheur",
        description="à deux",
        start="début",
        hide="cacher  ici ",
        left="à gauche",
        found="trouvé",
    )
    path.write_text(text, encoding="utf-8")
    game = read_efg(path)
    assert (game.name, game.player_names, game.description) == (
        "Cache-cache ♠",
        ("Cacheur", "Seeker"),
        "à deux",
    )
    root = game.root
    assert isinstance(root, Decision)
    assert (root.label, root.infoset, root.actions) == (
        "début",
        "cacher  ici",
        ("à gauche", "Right"),
    )
    assert root.children[0].children[0].label == "trouvé"
    assert solve(game).value == pytest.approx(float(SEEK_VALUE), abs=1e-9)  # the ASCII twin's


def test_repeated_non_ascii_labels_are_renamed_like_ascii_ones(tmp_path):
    path = tmp_path / "repeat.efg"
    path.write_text(hide_and_seek(left="Right"), encoding="utf-8")
    ascii_actions = read_efg(path).root.actions
    path.write_text(hide_and_seek(left="é").replace('"Right" } 0\np "" 2', '"é" } 0\np "" 2'))
    assert ascii_actions == ("Right_1", "Right_2")  # pygambit's renaming
    assert read_efg(path).root.actions == ("é_1", "é_2")


def test_a_file_that_is_not_utf8_names_the_line_and_byte(tmp_path, capsys):
    error = refused(tmp_path, capsys, hide_and_seek(left="à gauche").encode("latin-1"))
    assert (error.line, error.column) == (4, 25)
    assert error.reason.startswith("not UTF-8 text: byte 0xe0")


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.efg"
    path.write_bytes(hide_and_seek().encode("utf-8-sig"))
    assert read_efg(path).name == "Hide and seek"


def test_non_ascii_outside_quotes_is_refused_with_its_line(tmp_path, capsys):
    error = refused(tmp_path, capsys, hide_and_seek().replace('t "" 2 "missed', 'é "" 2 "missed'))
    assert (error.line, error.column) == (7, 1) and error.reason.startswith("unexpected 'é'")


def test_repeated_node_labels_are_read(tmp_path):
    # pygambit 16.7 refuses them ("Node label must be unique"); seqform keeps node labels
    # aside from pygambit, and they need not be unique.
    path = tmp_path / "labels.efg"
    path.write_text(hide_and_seek(start="same", found="same"))
    game = read_efg(path)
    assert game.root.label == game.root.children[0].children[0].label == "same"


# --- text after the tree ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "shown"),
    [('t "" 5 "" { 0 0 }\n', "'t'"), ("junk\n", "'junk'"), ("{ 1 -1 }\n", "'{'")],
)
def test_text_after_the_tree_is_refused_with_its_line(tmp_path, capsys, extra, shown):
    error = refused(tmp_path, capsys, hide_and_seek() + "\n" + extra)
    assert (error.line, error.column) == (12, 1)
    assert error.reason.startswith(
        f"{shown} after the end of the game tree (its last node ends on line 10)"
    )


def test_blank_lines_after_the_tree_are_fine(tmp_path):
    path = tmp_path / "blank.efg"
    path.write_text(hide_and_seek() + "\n\n  \t\n")
    assert read_efg(path).name == "Hide and seek"


# --- nodes that contradict the file: the node's own line --------------------------------------

SHARED = """\
EFG 2 R "shared" { "A" "B" }
""

c "deal" 1 "" { "H" 1/2 "T" 1/2 } 0
p "" 1 1 "a" { "x" "y" } 0
p "" 2 1 "b" { "l" "r" } 0
t "" 1 "win" { 1, -1 }
t "" 2 "lose" { -1, 1 }
t "" 2
p "" 1 2 "c" { "x" "y" } 0
t "" 1
p "" 2 1 "b" { "l" "r" } 0
t "" 2
t "" 1
"""


def shared(line: int, node: str) -> str:
    """:data:`SHARED` with its ``line`` (one-based) replaced by ``node``."""
    lines = SHARED.splitlines(keepends=True)
    lines[line - 1] = node + "\n"
    return "".join(lines)


def test_the_shared_game_is_read(tmp_path):
    path = tmp_path / "shared.efg"
    path.write_text(shared(12, 'p "" 2 1 0'))  # a member may leave out the declaration
    assert read_efg(path).name == "shared"


@pytest.mark.parametrize(
    ("odds", "problem"),
    [
        ('"H" 1/2 "T" 0.4', "sum to 9/10 (1/2 + 0.4); they must sum to exactly 1"),
        ('"H" 0.7 "T" 0.7', "sum to 1.4 (0.7 + 0.7); they must sum to exactly 1"),
        ('"H" 3/2 "T" -1/2', "gives action 'T' the probability -1/2; probabilities must not"),
    ],
)
def test_bad_chance_probabilities_name_the_line_and_node(tmp_path, capsys, odds, problem):
    # pygambit says only "Probabilities must sum to exactly one", with no line.
    error = refused(tmp_path, capsys, shared(4, f'c "deal" 1 "" {{ {odds} }} 0'))
    assert (error.line, error.column) == (4, 1)
    assert "chance node 'deal' (chance information set 1)" in error.reason
    assert problem in error.reason


@pytest.mark.parametrize("line", [9, 14])
def test_an_undefined_outcome_is_named_on_its_own_line(tmp_path, capsys, line):
    # pygambit reports the line after (where its lookahead stopped), without the number.
    error = refused(tmp_path, capsys, shared(line, 't "" 9'))
    assert (error.line, error.column) == (line, 6)
    assert error.reason.startswith("outcome 9 is not defined")


@pytest.mark.parametrize(
    ("node", "change"),
    [
        ('t "" 2 "lose" { -5, 5 }', "given the payoffs -5, 5 here but -1, 1 on line 8"),
        ('t "" 2 "other" { -1, 1 }', "named 'other' here but 'lose' on line 8"),
    ],
)
def test_a_redefined_outcome_is_named_on_its_own_line(tmp_path, capsys, node, change):
    error = refused(tmp_path, capsys, shared(13, node))
    assert (error.line, error.column) == (13, 6)
    assert error.reason.startswith(f"outcome 2 is {change}")


def test_an_outcome_name_without_payoffs_is_named_on_its_own_line(tmp_path, capsys):
    # pygambit says "Expected '{'" on the next line.
    error = refused(tmp_path, capsys, shared(9, 't "" 7 ""'))
    assert (error.line, error.column) == (9, 6)
    assert error.reason.startswith("outcome 7's name '' is not followed by its payoffs")


@pytest.mark.parametrize(
    ("node", "problem"),
    [
        (
            'p "" 2 1 "b" { "l" "r" "m" } 0\nt "" 1',
            "is given 3 actions here ('l', 'r', 'm') but 2 on line 6 ('l', 'r')",
        ),
        ('p "" 2 1 "b" { "r" "l" } 0', "is given the actions 'r', 'l' here but 'l', 'r' on line 6"),
        ('p "" 2 1 "zz" { "l" "r" } 0', "is named 'zz' here but 'b' on line 6"),
    ],
)
def test_an_information_set_whose_members_disagree_is_refused(tmp_path, capsys, node, problem):
    # The pre-pass used to count the first declaration's children ("'t' after the end of
    # the game tree"), pygambit named player 1, and a second name was dropped silently.
    error = refused(tmp_path, capsys, shared(12, node))
    assert (error.line, error.column) == (12, 10)
    assert error.reason.startswith(f"player 2's information set 1 {problem}")


def test_the_line_of_a_first_declaration_is_found_without_recounting():
    # `_Walk.line` (a binary search in the line breaks, found once) against `position`,
    # which counts the breaks before the offset: the same line at every offset, blank
    # lines, a carriage return and the last character included.
    text = 'EFG 2 R "x" { "A" "B" }\r\n""\n\n\np "" 1 1 "a" { "l" "r" } 0\nt "" 1'
    walk = efg_scan._Walk("x.efg", text, [])
    assert [walk.line(offset) for offset in range(len(text) + 1)] == [
        position(text, offset)[0] for offset in range(len(text) + 1)
    ]


# --- deep trees --------------------------------------------------------------------------------


def chain(depth: int) -> str:
    """A chain of decisions, each with one continuing action, alternating players."""
    lines = ['EFG 2 R "chain" { "A" "B" }', '""', ""]
    for level in range(depth):
        lines.append(f'p "n{level}" {level % 2 + 1} {level // 2 + 1} "d{level}" {{ "go" }} 0')
    lines.append('t "end" 1 "end" { 1 -1 }')
    return "\n".join(lines) + "\n"


@pytest.mark.slow
def test_a_20000_deep_chain_is_read(tmp_path):
    # pygambit's reader recurses per level: the process crashed between 10,000 and 20,000
    # levels before deep files were read in a thread with a stack sized for them.  How long
    # it takes is measured, not asserted (docs/games.md; tests/test_efg_deep.py checks that
    # the work is linear).
    path = tmp_path / "chain.efg"
    path.write_text(chain(20_000))
    game = read_efg(path)
    nodes = [node for node, _ in walk(game.root)]
    assert len(nodes) == 20_001
    assert [node.label for node in nodes[:3]] == ["n0", "n1", "n2"] and nodes[-1].label == "end"
    assert [node.infoset for node in nodes[:3]] == ["d0", "d1", "d2"]  # type: ignore[union-attr]
    assert isinstance(nodes[-1], Terminal) and nodes[-1].payoffs == (1, -1)


def test_a_tree_deeper_than_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(efg, "MAX_DEPTH", 100)
    path = tmp_path / "chain.efg"
    path.write_text(chain(150))
    with pytest.raises(GameFormatError, match=r"the game tree is 151 levels deep"):
        read_efg(path)


# --- the writer ----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["kuhn", "kuhn(cards=5)", "leduc", "liars_dice(sides=2)"])
def test_the_written_text_is_pygambits_byte_for_byte(spec):
    game = load_game(spec)
    assert efg_text(game) == game_to_gambit(game).to_efg()


@settings(
    max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(game=games)
def test_random_games_are_written_as_pygambit_writes_them(game):
    assert efg_text(game) == game_to_gambit(game).to_efg()


def test_an_efg_round_trip_gives_the_same_game_to_pygambit_and_seqform(tmp_path):
    source = tmp_path / "source.efg"
    source.write_text(hide_and_seek())
    game = read_efg(source)
    path = tmp_path / "written.efg"
    write_efg(game, path)
    back = read_efg(path)
    assert back.root == game.root and back.player_names == game.player_names
    assert game_from_gambit(pygambit.read_efg(str(path))).root == game.root


def test_kuhn_with_forty_cards_is_written_quickly(tmp_path):
    # 14,041 nodes; through pygambit's tree 2.6 s, the text about 0.1 s.  Generous bound.
    game = kuhn_poker(40)
    start = time.perf_counter()
    write_efg(game, tmp_path / "kuhn40.efg")
    assert time.perf_counter() - start < 10
    assert read_efg(tmp_path / "kuhn40.efg").root == game.root


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "huge.efg"
    with path.open("wb") as file:  # sparse: no disk used
        file.truncate(efg.MAX_EFG_BYTES + 1)

    def no_reading(*args, **kwargs):
        raise AssertionError("the file was read")

    monkeypatch.setattr(efg.Path, "read_bytes", no_reading)
    with pytest.raises(efg.GameFormatError, match=f"{efg.MAX_EFG_BYTES + 1:,} bytes"):
        efg.read_efg(path)
