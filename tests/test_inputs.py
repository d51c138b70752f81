"""Inputs at the edges — payoffs beyond the floats, constant-sum games.

Each class of input is checked over a generated family where one fits, against an
independent computation (the zero-sum shift of a constant-sum game, the same game with its
payoffs divided by a power of ten).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pygambit
import pytest

import seqform
from seqform.cli.main import main
from seqform.game.errors import InvalidGameError
from seqform.game.formats.efg import read_efg
from seqform.game.formats.from_gambit import game_from_gambit
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal
from seqform.routes.exact import solve_exact
from seqform.routes.normal import solve_normal_form
from seqform.routes.solve import solve

TOLERANCE = 1e-9  # float LP value against an exact reference


def shifted(game: Game, player_two: Fraction) -> Game:
    """The same tree with ``player_two`` added to player 2's payoff at every terminal."""

    def rebuild(node: Node) -> Node:
        if isinstance(node, Terminal):
            first, second = node.payoffs
            return Terminal((first, second + player_two), node.label)
        children = tuple(rebuild(child) for child in node.children)
        if isinstance(node, Chance):
            return Chance(node.outcomes, node.probabilities, children, node.label)
        return Decision(node.player, node.infoset, node.actions, children, node.label)

    return Game(f"{game.name}+{player_two}", rebuild(game.root), game.player_names)


def scaled(game: Game, factor: Fraction) -> Game:
    """The same tree with every payoff multiplied by ``factor``."""

    def rebuild(node: Node) -> Node:
        if isinstance(node, Terminal):
            return Terminal(tuple(payoff * factor for payoff in node.payoffs), node.label)
        children = tuple(rebuild(child) for child in node.children)
        if isinstance(node, Chance):
            return Chance(node.outcomes, node.probabilities, children, node.label)
        return Decision(node.player, node.infoset, node.actions, children, node.label)

    return Game(f"{game.name}×{factor}", rebuild(game.root), game.player_names)


# A Gambit-catalogue-style constant-sum game, written for this test: two voters split 10
# seats; chance deals the first a strong (2/3) or weak hand, she bids high or low, the
# second (who sees only the bid) contests or concedes.  Every terminal pays 10 in total.
SEATS = """\
EFG 2 R "Seats" { "First" "Second" }
"Constant-sum: every terminal's payoffs sum to 10."

c "" 1 "" { "strong" 2/3 "weak" 1/3 } 0
p "" 1 1 "strong" { "high" "low" } 0
p "" 2 1 "after high" { "contest" "concede" } 0
t "" 1 "" { 7, 3 }
t "" 2 "" { 6, 4 }
p "" 2 2 "after low" { "contest" "concede" } 0
t "" 3 "" { 5, 5 }
t "" 4 "" { 4, 6 }
p "" 1 2 "weak" { "high" "low" } 0
p "" 2 1 "after high" { "contest" "concede" } 0
t "" 5 "" { 1, 9 }
t "" 6 "" { 6, 4 }
p "" 2 2 "after low" { "contest" "concede" } 0
t "" 7 "" { 3, 7 }
t "" 8 "" { 4, 6 }
"""


@pytest.fixture
def seats(tmp_path: Path) -> Path:
    path = tmp_path / "seats.efg"
    path.write_text(SEATS, encoding="utf-8")
    return path


def test_constant_sum_game_solves_as_its_zero_sum_shift(seats):
    game = read_efg(seats)
    assert game.flat.constant_sum == 10
    zero_sum = shifted(game, Fraction(-10))
    assert zero_sum.flat.constant_sum == 0
    reference = solve_exact(zero_sum)  # the zero-sum game of the hint we used to give
    assert reference.certified
    exact = solve_exact(game)
    assert exact.certified and exact.value == reference.value
    assert solve(game).value == pytest.approx(float(reference.value), abs=TOLERANCE)
    assert solve_normal_form(game).value == pytest.approx(float(reference.value), abs=TOLERANCE)
    # pygambit's strategic-form LP on the file itself, an independent solver
    gambit = pygambit.nash.lp_solve(
        pygambit.read_efg(str(seats)), rational=True, use_strategic=True
    )
    first = next(iter(gambit.equilibria[0].game.players))
    assert Fraction(gambit.equilibria[0].payoff(first)) == exact.value


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param([], id="float"),
        pytest.param(["--exact"], id="exact"),
        pytest.param(["--refine"], id="refine"),
        pytest.param(["--method", "normal"], id="normal"),
    ],
)
def test_constant_sum_reports_both_values(seats, extra, capsys):
    reference = solve_exact(shifted(read_efg(seats), Fraction(-10))).value
    assert main(["solve", str(seats), *extra]) == 0
    text = capsys.readouterr().out
    assert "Constant-sum game: every terminal's payoffs sum to 10" in text
    assert "Value to Second: 10 - (value to First) = " in text
    assert main(["solve", str(seats), *extra, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["value"] == pytest.approx(float(reference), abs=TOLERANCE)
    assert document["constant_sum"]["total"] == "10"
    second = document["constant_sum"]["value_to_player_2"]
    assert second == pytest.approx(float(10 - reference), abs=TOLERANCE)


@pytest.mark.parametrize("command", ["compare", "ranges", "exploit"])
def test_constant_sum_other_commands_say_so(seats, command, tmp_path, capsys):
    extra: list[str] = []
    if command == "exploit":  # the equilibrium written by solve, read back as a strategy
        strategy = tmp_path / "strategy.json"
        assert main(["solve", str(seats), "--format", "json", "--output", str(strategy)]) == 0
        extra = ["--strategy", str(strategy)]
    assert main([command, str(seats), *extra]) == 0
    assert "Constant-sum game" in capsys.readouterr().out


def test_general_sum_efg_is_refused_by_the_lp_naming_two_terminals(tmp_path):
    path = tmp_path / "general.efg"
    path.write_text(SEATS.replace("{ 4, 6 }\np", "{ 4, 7 }\np"), encoding="utf-8")
    game = read_efg(path)  # read as it is: iterate and qre run general-sum games
    with pytest.raises(InvalidGameError, match=r"'strong low concede' has payoffs \(4, 7\), "):
        solve(game)


def test_catalogue_constant_sum_game_matches_its_shift():
    # von Stengel (2022), Fig. 10.1, from pygambit's catalogue: payoffs sum to 16.
    game = game_from_gambit(pygambit.catalog.load("books/vonstengel2022/fig10.1"))
    exact, reference = solve_exact(game), solve_exact(shifted(game, Fraction(-16)))
    assert exact.certified and exact.value == reference.value


# --- payoffs beyond the floats ---------------------------------------------------------------

MATCHING = """\
EFG 2 R "Big" { "P1" "P2" }
""

p "" 1 1 "" { "a" "b" } 0
p "" 2 1 "" { "l" "r" } 0
t "" 1 "" { BIG, -BIG }
t "" 2 "" { -3, 3 }
p "" 2 2 "" { "l" "r" } 0
t "" 3 "" { -1, 1 }
t "" 4 "" { BIG, -BIG }
"""
# Player 1 picks a (player 2 answers r: -3) or b (r: BIG, l: -1), so the value is -1 for
# any BIG > 0 (player 2 answers b with l) — by hand, and checked below on the game divided
# by BIG for the magnitudes a float can hold.


EXPONENTS = [0, 5, 12, 14, 15, 16, 20, 100, 308, 309, 400, 5000]


@pytest.mark.parametrize("exponent", EXPONENTS)
def test_large_payoffs_exact_route_solves_float_route_refuses(tmp_path, exponent, capsys):
    # Every payoff of the same magnitude: the small ones are -3 BIG and -BIG, the value -BIG.
    path = tmp_path / "big.efg"
    text = MATCHING.replace("-3, 3", "-3BIG, 3BIG").replace("-1, 1", "-BIG, BIG")
    path.write_text(text.replace("3BIG", f"3e{exponent}").replace("BIG", f"1e{exponent}"))
    game = read_efg(path)  # exact input stays exact
    assert game.flat.terminal_payoffs_exact[0][0] == 10**exponent
    exact = solve_exact(game)
    assert exact.certified and exact.value == -(10**exponent)
    if exponent < 15:
        assert solve(game).value == pytest.approx(-(10**exponent), rel=TOLERANCE)
        return
    with pytest.raises(InvalidGameError, match=r"terminal node 'a l' has payoffs .*--exact"):
        solve(game)
    assert main(["solve", str(path)]) == 1
    assert "--exact" in capsys.readouterr().err
    if exponent < 4000:  # Python prints integers of up to 4300 digits (sys.int_info)
        assert main(["solve", str(path), "--exact", "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["value_fraction"] == str(-(10**exponent))


@pytest.mark.parametrize("exponent", EXPONENTS)
def test_wide_payoff_range_is_solved_or_bracketed_never_wrong(tmp_path, exponent, capsys):
    # Payoffs 1eN beside -3 and -1: the float step of the exact route resolves about 21
    # orders of magnitude (module docstring of seqform.game.requirements); beyond, the exact
    # certificate still brackets the value -1 and says why it could not prove it.
    path = tmp_path / "wide.efg"
    path.write_text(MATCHING.replace("BIG", f"1e{exponent}"), encoding="utf-8")
    exact = solve_exact(read_efg(path))
    assert exact.bounds.lower <= -1 <= exact.bounds.upper
    if exponent <= 20:
        assert exact.certified and exact.value == -1
        return
    if not exact.certified:
        assert any("orders of magnitude" in note for note in exact.notes)
        assert main(["solve", str(path), "--exact"]) == 3  # bounds written, not certified
        assert "orders of magnitude" in capsys.readouterr().out


def test_payoff_scaling_matches_the_scaled_game():
    # The exact route's float step divides A by a power of two; the answer must be the
    # game's own: compare with the same game divided by 10**20, solved without scaling.
    from seqform.game.builtin.kuhn import kuhn_poker

    game = kuhn_poker()
    large = scaled(game, Fraction(10**20))
    assert solve_exact(large).value == solve_exact(game).value * 10**20  # Kuhn: -1/18


# --- the library's arguments ---------------------------------------------------------------


def two_leaves() -> tuple[Terminal, Terminal]:
    return Terminal((Fraction(1), Fraction(-1))), Terminal((Fraction(0), Fraction(0)))


@pytest.mark.parametrize("value", [5, None, 2.5, b"kuhn", ["kuhn"]], ids=repr)
def test_solve_and_load_game_refuse_what_is_not_a_game_name_or_path(value):
    from seqform.io.loader import load_game

    with pytest.raises(TypeError, match=r"^solve\(\) takes a Game, a game name or a path"):
        solve(value)
    with pytest.raises(TypeError, match=r"^load_game\(\) takes a game name or a path"):
        load_game(value)


def test_solve_accepts_a_name_and_a_path_like_load_game(seats):
    from seqform.io.loader import load_game

    # Kuhn (1950): the value to the first player is -1/18.
    assert solve("kuhn").value == pytest.approx(-1 / 18, abs=TOLERANCE)
    assert load_game(seats).flat.constant_sum == 10  # pathlib.Path

    class Where:  # any os.PathLike, not only pathlib's
        def __fspath__(self) -> str:
            return str(seats)

    assert solve(Where()).value == pytest.approx(solve(str(seats)).value, abs=TOLERANCE)


@pytest.mark.parametrize(
    ("decision", "error", "message"),
    [
        pytest.param(
            lambda leaves: Decision(1.0, "I", ("l", "r"), leaves),
            TypeError,
            r"decision node 'root' belongs to player 1\.0 of type float",
            id="float-player",
        ),
        pytest.param(
            lambda leaves: Decision(0, ["I"], ("l", "r"), leaves),
            TypeError,
            r"decision node 'root' has information set \['I'\] of type list",
            id="unhashable-infoset",
        ),
        pytest.param(
            lambda leaves: Decision(-1, "I", ("l", "r"), leaves),
            ValueError,
            r"decision node 'root' belongs to player -1;",
            id="negative-player",
        ),
    ],
)
def test_bad_decision_names_the_node_and_the_value_as_given(decision, error, message):
    root = Chance(("h",), (Fraction(1),), (decision(two_leaves()),))
    with pytest.raises(error, match=message.replace("'root'", "'h'")) as raised:
        Game("bad", root)
    assert isinstance(raised.value, InvalidGameError)  # the CLI's one-line errors


def test_one_player_name_is_refused_before_any_report():
    root = Decision(0, "I", ("l", "r"), two_leaves())
    with pytest.raises(InvalidGameError, match=r"2 players but 1 player names"):
        Game("named", root, player_names=("Ann",))


@pytest.mark.parametrize("call", ["build_sequence_form", "certify"])
def test_lower_level_functions_refuse_a_non_game(call):
    import seqform

    with pytest.raises(TypeError, match="needs a seqform Game, not str"):
        if call == "certify":
            seqform.certify("kuhn", None, None)
        else:
            seqform.build_sequence_form("kuhn")


# --- files written atomically --------------------------------------------------------------


def _limited_run(argv: list[str], limit: int) -> subprocess.CompletedProcess[str]:
    """``python -m seqform ARGV`` with files limited to ``limit`` bytes (RLIMIT_FSIZE)."""

    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "seqform", *argv],
        capture_output=True,
        text=True,
        preexec_fn=limit_files,
        timeout=300,
    )


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["export", "kuhn(cards=6)", "--to", "efg"], id="export-efg"),
        pytest.param(["export", "kuhn(cards=6)", "--to", "npz"], id="export-npz"),
        pytest.param(["export", "kuhn(cards=6)", "--to", "mps"], id="export-mps"),
        pytest.param(["solve", "kuhn(cards=6)", "--format", "json", "--output"], id="output"),
    ],
)
def test_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, argv):
    suffix = {"efg": ".efg", "npz": ".npz", "mps": ".mps"}.get(argv[-1], ".json")
    target = tmp_path / f"result{suffix}"
    old = b"the previous result\n"
    target.write_bytes(old)
    run = _limited_run([*argv, str(target)], limit=2048)  # each output is larger
    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith("seqform: error: cannot write"), run.stderr
    assert "Traceback" not in run.stderr
    assert target.read_bytes() == old
    assert sorted(path.name for path in tmp_path.iterdir()) == [target.name]
    # the same command without the limit replaces the file
    assert _limited_run([*argv, str(target)], limit=resource.RLIM_INFINITY).returncode == 0
    assert target.read_bytes() != old


def test_write_to_a_missing_folder_says_cannot_write(capsys):
    assert main(["export", "kuhn", "--to", "npz", "/nonexistent/folder/x.npz"]) == 1
    assert "cannot write '/nonexistent/folder/x.npz'" in capsys.readouterr().err


def test_a_failed_atomic_write_names_the_file_asked_for_not_the_temporary_one():
    # the temporary file beside it (.x.png.<hex>.tmp.png) is seqform's; qre --plot named it
    from seqform.io.atomic import write_atomically

    with pytest.raises(FileNotFoundError) as raised:
        write_atomically("/nonexistent/folder/x.png", b"picture")
    assert raised.value.filename == "/nonexistent/folder/x.png"


# --- OpenSpiel's size limit ----------------------------------------------------------------


def test_max_nodes_reaches_the_openspiel_loader(monkeypatch, capsys):
    import seqform.game.formats.openspiel as openspiel
    from seqform.game.builtin.kuhn import kuhn_poker

    asked: list[int] = []

    def fake(spec: str, *, max_nodes: int = openspiel.DEFAULT_MAX_NODES) -> Game:
        asked.append(max_nodes)
        return kuhn_poker()

    monkeypatch.setattr(openspiel, "load_openspiel_game", fake)
    assert main(["solve", "openspiel:kuhn_poker", "--max-nodes", "1234"]) == 0
    assert main(["export", "openspiel:kuhn_poker", "--to", "efg", "/dev/null"]) == 0
    assert asked == [1234, openspiel.DEFAULT_MAX_NODES]
    with pytest.raises(SystemExit) as usage:  # argparse's usage error
        main(["solve", "kuhn", "--max-nodes", "0"])
    assert usage.value.code == 2
    assert "--max-nodes: must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "kuhn", "--max-nodes", "10"],
        ["solve", "leduc", "--method", "tree", "--max-nodes", "10"],
        ["solve", "leduc(ranks=13)", "--max-nodes", "10"],  # the structured route
        ["exploit", "kuhn", "--opponent", "uniform", "--max-nodes", "10"],
        ["iterate", "kuhn", "--algorithm", "cfr", "--iterations", "5", "--max-nodes", "10"],
        ["compare", "kuhn", "--max-nodes", "10"],
        ["solve", "leduc(ranks=2, suits=2)", "--card-buckets", "1,2", "--max-nodes", "10"],
    ],
)
def test_max_nodes_is_refused_where_it_would_not_limit(argv, capsys):
    # Leduc's tree has 9,457 nodes (tests/test_games.py): a limit of 10 that let it be
    # built and solved was accepted and ignored
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--max-nodes (max_nodes) limits the histories converted from an openspiel" in err
    assert "Traceback" not in err


def test_max_nodes_is_refused_by_the_library_too():
    from seqform.game.builtin.kuhn import kuhn_poker
    from seqform.game.errors import GameParameterError
    from seqform.io.loader import load_game

    for call in (
        lambda: load_game("kuhn", max_nodes=10),
        lambda: seqform.solve("kuhn", max_nodes=10),
        lambda: seqform.solve(kuhn_poker(), max_nodes=10),
        lambda: seqform.iterate("kuhn", "cfr", iterations=5, max_nodes=10),
    ):
        with pytest.raises(GameParameterError, match="is not one, and is built whole"):
            call()


def test_openspiel_limit_message_names_the_option():
    pytest.importorskip("pyspiel")
    from seqform.io.loader import load_game

    with pytest.raises(ValueError, match=r"more than 10 histories; .*--max-nodes N"):
        load_game("openspiel:kuhn_poker", max_nodes=10)
    assert load_game("openspiel:kuhn_poker", max_nodes=100).flat.num_nodes == 58


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["solve", "kuhn", "--no-suit-isomorphism"], "--no-suit-isomorphism"),
        (["solve", "leduc", "--method", "tree", "--no-ordered-isomorphism"], "--no-ordered"),
        (["solve", "kuhn", "--method", "normal", "--no-suit-isomorphism"], "--no-suit"),
        (["iterate", "kuhn", "--algorithm", "cfr", "--iterations", "3", "--no-suit-isomorphism"],
         "--no-suit-isomorphism"),
        (["iterate", "leduc", "--algorithm", "xfp", "--iterations", "3", "--no-suit-isomorphism"],
         "--no-suit-isomorphism"),
    ],
)  # fmt: skip
def test_turning_off_a_reduction_the_route_lacks_is_a_usage_error(argv, named, capsys):
    # The tree and the normal form have no suit or ordered isomorphism: the options were
    # accepted and did nothing (exit 0).
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert named in err and "turns off a reduction of the structured route" in err


def test_the_normal_form_s_options_are_refused_on_other_routes(capsys):
    # --max-entries 5 on the tree route was accepted and did nothing (exit 0)
    assert main(["solve", "kuhn", "--max-entries", "5"]) == 2
    assert "--max-entries (max_entries) belongs to the normal form" in capsys.readouterr().err
    assert main(["solve", "kuhn", "--method", "normal", "--max-entries", "10^4"]) == 0
    from seqform.routes.options import OptionsError

    with pytest.raises(OptionsError, match=r"reduced=True belongs to the normal form"):
        seqform.solve("kuhn", reduced=True)
    with pytest.raises(OptionsError, match=r"max_entries\) belongs to the normal form"):
        seqform.solve("leduc(ranks=13)", max_entries=5)  # the structured route


def test_the_library_refuses_turning_off_a_reduction_the_route_lacks():
    from seqform.routes.options import OptionsError

    with pytest.raises(OptionsError, match="here the game is on the tree route"):
        seqform.solve("kuhn", suit_isomorphism=False)
    with pytest.raises(OptionsError, match="--no-suit-isomorphism"):
        seqform.iterate("kuhn", "cfr", iterations=3, suit_isomorphism=False)
    # the structured route takes both (the full LP, certified on the game either way)
    solution = seqform.solve("leduc(ranks=2, suits=2)", method="structured", suit_isomorphism=False)
    assert solution.certificate.relative_exploitability <= 1e-9
