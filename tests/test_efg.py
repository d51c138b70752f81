"""Gambit .efg in and out: round trips, Gambit's catalogue, the format's traps, bad files.

Reference values are computed in the same test by pygambit's exact rational LP
(``pygambit.nash.lp_solve(game, rational=True)``, Koller, Megiddo and von Stengel 1996),
whose equilibrium payoff to the first player is the value; Kuhn's −1/18 is Kuhn (1950).
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path

import pygambit
import pytest
from gametrees import MAX_PURE_STRATEGIES, most_pure_strategies, random_game, small_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.errors import GameFormatError, InvalidGameError
from seqform.game.formats.efg import read_efg
from seqform.game.formats.efg_labels import gambit_label, label_from_gambit
from seqform.game.formats.from_gambit import game_from_gambit
from seqform.game.formats.to_gambit import game_to_gambit
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Terminal, walk
from seqform.io.export import write_efg
from seqform.io.loader import load_game
from seqform.routes.exact import solve_exact
from seqform.routes.solve import solve

KUHN_VALUE = Fraction(-1, 18)  # Kuhn (1950)
TOLERANCE = 1e-9  # LP value (float, HiGHS) against an exact rational reference


def gambit_value(gambit_game: pygambit.Game) -> Fraction:
    """The value to the first player by pygambit's exact LP on the strategic form.

    Not pygambit's tree-based (sequence-form) ``lp_solve``: on some games it returns a wrong
    value (e.g. where a player has a single action below an opponent's choice, it reports 0
    with that action at probability 0); its strategic-form LP agrees with seqform there.
    """
    result = pygambit.nash.lp_solve(gambit_game, rational=True, use_strategic=True)
    profile = result.equilibria[0]
    return Fraction(profile.payoff(next(iter(gambit_game.players))))


def write(tmp_path: Path, text: str, name: str = "game.efg") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def infosets_by_player(game: Game) -> list[set[str]]:
    names: list[set[str]] = [set(), set()]
    for node, _ in walk(game.root):
        if isinstance(node, Decision):
            names[node.player].add(node.infoset)
    return names


# --- round trips -------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [3, 4, 6], ids=lambda cards: f"kuhn-{cards}-cards")
def test_kuhn_round_trip_gives_the_same_tree(tmp_path, cards):
    game = kuhn_poker(cards)
    path = tmp_path / "kuhn.efg"
    write_efg(game, path)
    back = read_efg(path)
    assert back.root == game.root  # same nodes, labels, infosets, exact probabilities, payoffs
    assert (back.name, back.player_names, back.description) == (
        game.name,
        game.player_names,
        game.description,
    )
    form, back_form = build_sequence_form(game), build_sequence_form(back)
    for player in (0, 1):
        assert back_form.players[player].infosets == form.players[player].infosets
        assert back_form.players[player].num_sequences == form.players[player].num_sequences


def test_written_kuhn_is_solved_by_gambit_to_kuhns_value():
    gambit_game = game_to_gambit(kuhn_poker())
    assert len(gambit_game.nodes) == 55  # 1 deal + 6 deals × 9 nodes
    assert len(gambit_game.infosets) == 12  # 6 per player (Kuhn 1950)
    assert gambit_game.is_perfect_recall
    assert gambit_value(gambit_game) == KUHN_VALUE


def test_written_file_is_pygambits_own_serialisation(tmp_path):
    game = kuhn_poker()
    path = tmp_path / "kuhn.efg"
    write_efg(game, path)
    assert path.read_text() == game_to_gambit(game).to_efg()
    assert path.read_text().startswith('EFG 2 R "kuhn" { "Player 1" "Player 2" }')


# pygambit's strategic-form LP enumerates pure strategies: the games are drawn small enough
# for it (gametrees.small_games), and from hypothesis' fixed sequence (derandomize).
@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(game=small_games)
def test_random_games_survive_the_round_trip_and_agree_with_gambit(game):
    assert most_pure_strategies(game) <= MAX_PURE_STRATEGIES
    gambit_game = game_to_gambit(game)
    back = game_from_gambit(gambit_game)
    assert back.root == game.root
    assert solve(back).value == pytest.approx(float(gambit_value(gambit_game)), abs=TOLERANCE)


def test_labels_gambit_refuses_are_written_acceptably_and_read_back(tmp_path):
    # pygambit 16.7 takes only printable ASCII labels with single spaces, and its writer
    # does not escape a trailing backslash; node labels must be unique.  Such labels came
    # back changed ("U+2660", "bet/", "check twice"), so the file was another game.
    win, lose = Terminal((Fraction(1), Fraction(-1)), "end"), Terminal((-1, 1), "end")
    root = Decision(
        0,
        "P1:[Round 1]\n  ∅ seen",
        ("bet\\", "check  twice", "fold é", "U+00E9"),
        (win, lose, Terminal((Fraction(0), Fraction(0)), "end"), Terminal((-1, 1), "")),
        label="start",
    )
    game = Game(name="odd labels ♠", root=root, description="3 ranks × 2 suits")
    path = tmp_path / "odd.efg"
    write_efg(game, path)
    text = path.read_text()
    assert text.isascii()
    assert '"3 ranks U+00D7 2 suits"' in text
    assert '"betU+005C" "check U+0020twice" "fold U+00E9" "U+0055+00E9"' in text
    gambit_game = pygambit.read_efg(str(path))  # Gambit reads it
    assert gambit_game.title == "odd labels U+2660"
    back = read_efg(path)
    node = back.root
    assert isinstance(node, Decision)
    assert (node.infoset, node.actions) == (root.infoset, root.actions)
    assert [child.label for child in node.children] == ["end#1", "end#2", "end#3", ""]
    assert (back.name, back.description) == (game.name, game.description)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12))
def test_every_label_is_written_for_gambit_and_read_back(text):
    written = gambit_label(text)
    # what pygambit 16.7 accepts (seqform.game.formats.efg_labels)
    assert written.isascii() and written.isprintable() and "\\" not in written
    assert written == written.strip(" ") and "  " not in written
    assert label_from_gambit(written) == text


def test_a_deep_tree_needs_no_recursion(tmp_path):
    # A chain longer than Python's recursion limit: each move stops (payoff) or goes on.
    depth = sys.getrecursionlimit() + 500
    node: Terminal | Decision = Terminal((Fraction(0), Fraction(0)))
    for level in reversed(range(depth)):
        stop = Terminal((Fraction(1), Fraction(-1)) if level % 2 else (Fraction(-1), Fraction(1)))
        node = Decision(level % 2, f"d{level}", ("stop", "go"), (stop, node))
    game = Game(name="long chain", root=node)
    back = game_from_gambit(game_to_gambit(game))
    assert sum(1 for _ in walk(back.root)) == 2 * depth + 1


def test_kuhn_with_thirteen_cards_converts_quickly():
    # 13 cards: 156 deals, 1,405 nodes; generous bound, the conversion takes ~0.05 s.
    game = kuhn_poker(13)
    start = time.perf_counter()
    back = game_from_gambit(game_to_gambit(game))
    assert time.perf_counter() - start < 5
    assert back.root == game.root


# --- Gambit's catalogue --------------------------------------------------------------------

CATALOGUE = list(pygambit.catalog.games()["Game"])
# Every catalogue game loads and is solved by pygambit in well under a second (pygambit
# 16.7, 38 games), so none is skipped for time.


def refusal_reasons(gambit_game: pygambit.Game) -> set[str]:
    """The words of every reason the reader must give for refusing the game, from pygambit."""
    reasons = set()
    if len(gambit_game.players) < 2:
        reasons.add("1 player")
    if not gambit_game.is_tree:
        reasons.add("strategic-form")
        return reasons
    if not gambit_game.is_perfect_recall:
        reasons.add("imperfect recall")
    return reasons


def lp_refusal_reasons(gambit_game: pygambit.Game) -> set[str]:
    """The words of every reason the LP routes must give for refusing a game the reader
    reads: they need two players and constant-sum payoffs."""
    reasons = set()
    if len(gambit_game.players) != 2:
        reasons.add("needs two players")
    elif not gambit_game.is_const_sum:  # constant-sum games are solved
        reasons.add("not zero-sum")
    return reasons


@pytest.mark.parametrize("slug", CATALOGUE)
def test_catalogue_game_is_solved_exactly_or_refused_for_the_right_reason(slug):
    gambit_game = pygambit.catalog.load(slug)
    reasons = refusal_reasons(gambit_game)
    if reasons:
        with pytest.raises(InvalidGameError) as refusal:
            game_from_gambit(gambit_game)
        assert any(reason in str(refusal.value) for reason in reasons), reasons
        return
    game = game_from_gambit(gambit_game)
    assert game.num_players == len(gambit_game.players)
    reasons = lp_refusal_reasons(gambit_game)
    if reasons:
        with pytest.raises(InvalidGameError) as refusal:
            solve(game)
        assert any(reason in str(refusal.value) for reason in reasons), reasons
        return
    solution = solve(game)
    assert solution.value == pytest.approx(float(gambit_value(gambit_game)), abs=TOLERANCE)
    assert solution.nash_conv == pytest.approx(0, abs=TOLERANCE)


def test_catalogue_has_the_zero_sum_games_we_expect():
    # Guards the test above against passing by refusing everything: these are the
    # two-player constant-sum perfect-recall trees of pygambit 16.7's catalogue.
    solvable = {
        slug
        for slug in CATALOGUE
        if not refusal_reasons(pygambit.catalog.load(slug))
        and not lp_refusal_reasons(pygambit.catalog.load(slug))
    }
    assert solvable >= {
        "books/vonstengel2022/fig10.1",  # constant-sum, payoffs summing to 16
        "books/myerson1991/fig2_1",
        "books/vonstengel2022/fig10.12",
        "journals/mor/vonstengelforges2008/fig6",
        "journals/other/reiley2008/fig1",
    }


def test_myerson_card_game_has_value_one_third():
    # Myerson (1991), Fig. 2.1, with the value computed by pygambit in the same test.
    gambit_game = pygambit.catalog.load("books/myerson1991/fig2_1")
    game = game_from_gambit(gambit_game)
    assert gambit_value(gambit_game) == Fraction(1, 3)
    assert solve(game).value == pytest.approx(1 / 3, abs=TOLERANCE)
    assert game.player_names == ("Fred", "Alice")


def test_constant_sum_game_is_read_and_solved_as_such():
    # von Stengel (2022), Fig. 10.1: payoffs always sum to 16; the value to the first
    # player is pygambit's strategic-form LP's, computed here (tests/test_inputs.py checks
    # constant-sum games against their zero-sum shift).
    gambit_game = pygambit.catalog.load("books/vonstengel2022/fig10.1")
    game = game_from_gambit(gambit_game)
    assert game.flat.constant_sum == 16
    assert solve(game).value == pytest.approx(float(gambit_value(gambit_game)), abs=TOLERANCE)


# --- the traps of the format ---------------------------------------------------------------

INNER_OUTCOMES = """\
EFG 2 R "Outcomes on inner nodes" { "Row" "Column" }
"The ante at the root reaches every terminal; the bonus only those below T; the
all-zero outcome at the second Column node must not end the game there."

p "" 1 1 "Row" { "T" "B" } 1 "ante" { 1 -1 }
p "" 2 1 "Column" { "L" "R" } 2 "bonus" { 2 -2 }
t "" 3 "" { 1 -1 }
t "" 4 "" { -3 3 }
p "" 2 1 "Column" { "L" "R" } 5 "nothing" { 0 0 }
t "" 6 "" { -2 2 }
t "" 7 "" { 1 -1 }
"""


def test_outcomes_on_inner_nodes_add_to_every_terminal_below(tmp_path):
    path = write(tmp_path, INNER_OUTCOMES)
    game = read_efg(path)
    payoffs = {
        history: node.payoffs[0] for node, history in walk(game.root) if isinstance(node, Terminal)
    }
    assert payoffs == {("T", "L"): 4, ("T", "R"): 0, ("B", "L"): -1, ("B", "R"): 2}
    reference = gambit_value(pygambit.read_efg(str(path)))
    assert reference == Fraction(8, 7)  # the matrix ((4, 0), (-1, 2)), pygambit's LP
    assert solve(game).value == pytest.approx(float(reference), abs=TOLERANCE)


CHANCE_BELOW_ROOT = """\
EFG 2 R "Chance below the root" { "Row" "Column" }
""

p "" 1 1 "start" { "Play" "Quit" } 0
c "deal" 1 "" { "High" 1/3 "Low" 2/3 } 0
p "" 1 2 "high" { "Raise" "Check" } 0
p "" 2 1 "facing raise" { "Call" "Fold" } 0
t "" 1 "" { 2 -2 }
t "" 2 "" { 1 -1 }
t "" 3 "" { 1 -1 }
p "" 1 3 "low" { "Raise" "Check" } 0
p "" 2 1 "facing raise" { "Call" "Fold" } 0
t "" 4 "" { -2 2 }
t "" 5 "" { 1 -1 }
t "" 6 "" { -1 1 }
t "" 7 "quit" { -1/4 1/4 }
"""


def test_chance_node_below_the_root(tmp_path):
    path = write(tmp_path, CHANCE_BELOW_ROOT)
    game = read_efg(path)
    root = game.root
    assert isinstance(root, Decision)
    deal = root.children[0]
    assert isinstance(deal, Chance)
    assert deal.probabilities == (Fraction(1, 3), Fraction(2, 3))
    assert deal.label == "deal"
    reference = gambit_value(pygambit.read_efg(str(path)))
    assert solve(game).value == pytest.approx(float(reference), abs=TOLERANCE)


LABEL_AT_FIRST_NODE = """\
EFG 2 R "Infoset label at its first node only" { "Hider" "Seeker" }
""

p "" 1 1 "hide" { "Left" "Right" } 0
p "" 2 1 "seek" { "Left" "Right" } 0
t "" 1 "found left" { -1 1 }
t "" 2 "missed left" { 2 -2 }
p "" 2 1 0
t "" 3 "missed right" { 1 -1 }
t "" 4 "found right" { -1 1 }
"""


def test_infoset_label_given_only_at_its_first_node(tmp_path):
    path = write(tmp_path, LABEL_AT_FIRST_NODE)
    game = read_efg(path)
    # One Seeker information set with two nodes: the Seeker does not see where it hid.
    assert infosets_by_player(game) == [{"hide"}, {"seek"}]
    reference = gambit_value(pygambit.read_efg(str(path)))
    assert reference == Fraction(1, 5)  # the matrix ((-1, 2), (1, -1)), pygambit's LP
    # Splitting the set would let the Seeker see the hiding place: value -1 instead.
    assert solve(game).value == pytest.approx(float(reference), abs=TOLERANCE)


def test_decimal_numbers_stay_exact(tmp_path):
    text = """\
EFG 2 R "Decimals" { "A" "B" }
""

c "" 1 "" { "x" 0.25 "y" 0.75 } 0
t "" 1 "" { 1.5 -1.5 }
t "" 2 "" { -0.1 0.1 }
"""
    game = read_efg(write(tmp_path, text))
    root = game.root
    assert isinstance(root, Chance)
    assert root.probabilities == (Fraction(1, 4), Fraction(3, 4))
    assert [child.payoffs for child in root.children] == [
        (Fraction(3, 2), Fraction(-3, 2)),
        (Fraction(-1, 10), Fraction(1, 10)),
    ]


def test_blank_and_repeated_labels_are_made_distinct(tmp_path):
    text = """\
EFG 2 R "" { "" "" }
""

p "" 1 1 "" { "" "" "a" } 0
t "" 1 "" { 1 -1 }
t "" 2 "" { -1 1 }
p "" 2 1 "" { "a" "a" } 0
t "" 3 "" { 0 0 }
t "" 4 "" { 2 -2 }
"""
    path = write(tmp_path, text, "blanks.efg")
    game = read_efg(path)
    root = game.root
    assert isinstance(root, Decision)
    assert root.infoset == "P1:1"  # no label: player and Gambit number
    assert len(set(root.actions)) == 3  # pygambit's reader renames them "_1", "_2"
    assert game.name == "blanks"  # blank title: the file name

    # A game built in memory keeps blanks and repeats; the converter renames them.
    gambit_game = pygambit.Game.new_tree(players=["A", "B"])
    with pytest.warns(FutureWarning):
        gambit_game.append_move(gambit_game.root, "A", ["a", "a"])
    for child, payoff in zip(gambit_game.root.children, (1, -1), strict=True):
        gambit_game.set_outcome(child, gambit_game.add_outcome(f"o{payoff}", [payoff, -payoff]))
    converted = game_from_gambit(gambit_game)
    assert isinstance(converted.root, Decision)
    assert converted.root.actions == ("a#1", "a#2")


def test_repeated_infoset_labels_fall_back_to_player_and_number(tmp_path):
    text = """\
EFG 2 R "Repeated labels" { "A" "B" }
""

p "" 1 1 "same" { "L" "R" } 0
p "" 2 1 "same" { "l" "r" } 0
t "" 1 "" { 1 -1 }
t "" 2 "" { -1 1 }
p "" 2 2 "other" { "l" "r" } 0
t "" 3 "" { 0 0 }
t "" 4 "" { 2 -2 }
"""
    game = read_efg(write(tmp_path, text))
    assert infosets_by_player(game) == [{"P1:1"}, {"P2:1", "other"}]


def test_load_game_reads_efg_paths(tmp_path):
    path = write(tmp_path, LABEL_AT_FIRST_NODE, "hide.efg")
    assert load_game(str(path)).name == "Infoset label at its first node only"


# --- refusals and malformed files ------------------------------------------------------------


def test_truncated_file_gives_the_line(tmp_path):
    # Cut inside the payoffs of line 8; pygambit says line 7, as it does not count the
    # line break inside the two-line description.
    path = write(tmp_path, INNER_OUTCOMES[: INNER_OUTCOMES.index('t "" 4') + 12])
    with pytest.raises(GameFormatError, match=r"line 8, column \d+: Expected numerical payoff"):
        read_efg(path)


def test_syntax_error_gives_the_line_and_the_file(tmp_path):
    path = write(tmp_path, LABEL_AT_FIRST_NODE.replace('{ "Left" "Right" } 0', "{ 0", 1))
    with pytest.raises(GameFormatError) as error:
        read_efg(path)
    assert error.value.line == 4
    assert str(path) in str(error.value)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize(
    ("description", "line"),
    [
        pytest.param("one line", 6, id="one-line-description"),
        pytest.param('two \\"quoted\\"\nlines', 7, id="two-line-description"),
        pytest.param("three\nlines\nhere", 8, id="three-line-description"),
    ],
)
def test_line_numbers_count_line_breaks_inside_the_description(tmp_path, description, line):
    # The bad payoff "x" is on the last line; pygambit reports line 6 in all three cases.
    text = (
        f'EFG 2 R "t" {{ "A" "B" }}\n"{description}"\n\n'
        'p "" 1 1 "I" { "L" "R" } 0\nt "" 1 "" { 1 -1 }\nt "" 2 "" { -1 x }\n'
    )
    with pytest.raises(GameFormatError) as error:
        read_efg(write(tmp_path, text))
    assert (error.value.line, error.value.column) == (line, 18)


def test_not_a_game_file(tmp_path):
    with pytest.raises(GameFormatError, match=r"line 1, column \d+: Expecting EFG"):
        read_efg(write(tmp_path, 'NFG 1 R "a table" { "1" "2" } { 2 2 }\n'))


def test_probabilities_not_summing_to_one_are_refused(tmp_path):
    # pygambit refuses them without a line; the pre-pass names the line and the node.
    path = write(tmp_path, CHANCE_BELOW_ROOT.replace("2/3", "1/2"))
    with pytest.raises(GameFormatError, match=r"sum to exactly 1") as error:
        read_efg(path)
    assert error.value.line == 5
    assert "chance node 'deal'" in error.value.reason
    assert str(path) in str(error.value)


def test_three_players_are_read_and_the_lp_refuses_them(tmp_path):
    # The CFR family and the QRE run n-player games, so the reader keeps all players; the
    # LP routes refuse the game at their own entry.
    text = """\
EFG 2 R "Three" { "A" "B" "C" }
""

p "" 1 1 "a" { "L" "R" } 0
t "" 1 "" { 1 -1 0 }
t "" 2 "" { -1 0 1 }
"""
    game = read_efg(write(tmp_path, text))
    assert game.player_names == ("A", "B", "C")
    assert game.flat.terminal_payoffs_exact[1] == (-1, 0, 1)
    with pytest.raises(InvalidGameError, match=r"needs two players, zero-sum: Three is a three-"):
        solve(game)


def test_exported_three_player_kuhn_reads_back(tmp_path):
    path = tmp_path / "kuhn3.efg"
    original = load_game("kuhn3")
    write_efg(original, path)
    assert read_efg(path).root == original.root


def test_non_zero_sum_is_read_and_the_lp_names_a_terminal_and_its_payoffs(tmp_path):
    # Column gets -1 (ante) - 2 (bonus) + 4 at T R, where Row gets 1 + 2 - 3.
    path = write(tmp_path, INNER_OUTCOMES.replace("{ -3 3 }", "{ -3 4 }"))
    game = read_efg(path)
    with pytest.raises(InvalidGameError) as error:
        solve(game)
    assert "not zero-sum: terminal node 'T R' has payoffs (0, 1), which sum to 1" in str(
        error.value
    )


def test_imperfect_recall_is_refused_naming_the_information_set(tmp_path):
    text = """\
EFG 2 R "Forgetful" { "A" "B" }
""

p "" 1 1 "first" { "L" "R" } 0
p "" 1 2 "second" { "l" "r" } 0
t "" 1 "" { 1 -1 }
t "" 2 "" { -1 1 }
p "" 1 2 0
t "" 3 "" { -1 1 }
t "" 4 "" { 1 -1 }
"""
    path = write(tmp_path, text)
    assert not pygambit.read_efg(str(path)).is_perfect_recall
    with pytest.raises(InvalidGameError, match=r"imperfect recall: .*'second'"):
        read_efg(path)


def test_strategic_form_games_are_refused():
    table = pygambit.Game.from_arrays([[1, -1], [-1, 1]], [[-1, 1], [1, -1]])
    with pytest.raises(InvalidGameError, match=r"strategic-form"):
        game_from_gambit(table)


def test_missing_file_is_an_os_error(tmp_path):
    path = tmp_path / "missing.efg"
    with pytest.raises(FileNotFoundError, match=r"cannot read Gambit file.*missing\.efg"):
        read_efg(path)


def test_directory_is_an_os_error(tmp_path):
    with pytest.raises(OSError, match="cannot read Gambit file"):
        read_efg(tmp_path)


def test_a_game_where_gambits_tree_lp_is_wrong_is_solved_and_proven():
    # random_game(9197) is one of the games on which pygambit's tree-based lp_solve reports 0
    # (measured with pygambit 16.x) while its own strategic-form LP gives -3; seqform's value
    # is proven by the exact best-response certificate, not taken from either LP.
    game = random_game(9197)
    assert gambit_value(game_to_gambit(game)) == -3
    exact = solve_exact(game)
    assert exact.certified
    assert exact.value == -3


# --- where pygambit's tree-based lp_solve is wrong -----------------------------------------

ONLY = """\
EFG 2 R "Only" { "P1" "P2" }
""

p "" 2 1 "" { "l" "r" } 0
t "" 1 "" { 1, -1 }
p "" 1 1 "" { "only" } 0
t "" 2 "" { -1, 1 }
"""


def test_pygambit_lp_solve_is_wrong_where_seqform_proves_the_value(tmp_path):
    # Player 2 chooses l (player 1 gets 1) or r, after which player 1's single action
    # "only" pays -1: player 2 plays r and the value is -1 (by hand; pygambit's
    # strategic-form LP agrees).  pygambit 16.7's sequence-form lp_solve says 0, with
    # player 1's only action at probability 0, and certifies nothing.
    path = write(tmp_path, ONLY)
    gambit_game = pygambit.read_efg(str(path))
    first = next(iter(gambit_game.players))
    tree_lp = pygambit.nash.lp_solve(gambit_game, rational=True).equilibria[0]
    only = next(iter(next(iter(first.infosets)).actions))
    assert (tree_lp.payoff(first), tree_lp[only]) == (0, 0)  # wrong: a probability of 0
    assert gambit_value(gambit_game) == -1  # its strategic-form LP
    game = read_efg(path)
    assert solve(game).value == pytest.approx(-1, abs=TOLERANCE)
    exact = solve_exact(game)
    # the exact proof: both best responses give -1, so no player gains by deviating
    assert exact.value == -1
    assert exact.certificate.best_response_values == (Fraction(-1), Fraction(1))
    assert exact.certificate.nash_conv == 0


GENERAL_SUM = """\
EFG 2 R "general sum" { "Row" "Col" } ""
p "" 1 1 "r" { "T" "B" } 0
p "" 2 1 "c" { "L" "R" } 0
t "" 1 "" { 3, 3 }
t "" 2 "" { 0, 5 }
p "" 2 1 "c" { "L" "R" } 0
t "" 3 "" { 5, 0 }
t "" 4 "" { 1, 1 }
"""


def test_iterate_and_qre_run_what_seqform_exports_and_general_sum_files(tmp_path, capsys):
    # docs/games.md and docs/qre.md: iterate (CFR) and qre run n-player and general-sum games.
    from seqform.cli.main import main

    kuhn3 = tmp_path / "kuhn3.efg"
    assert main(["export", "kuhn3", "--to", "efg", "--output", str(kuhn3)]) == 0
    assert main(["iterate", str(kuhn3), "--algorithm", "cfr", "--iterations", "5"]) == 0
    general = write(tmp_path, GENERAL_SUM, "general.efg")
    assert main(["iterate", str(general), "--algorithm", "cfr", "--iterations", "5"]) == 0
    assert main(["qre", str(general)]) == 0
    assert main(["solve", str(general)]) == 1
    assert "not zero-sum: terminal node 'T R'" in capsys.readouterr().err
