"""The command line, called as a function and once as a real subprocess."""

import dataclasses
import json
import subprocess
import sys

import pytest

from seqform.cli.errors import EXIT_NOT_CERTIFIED
from seqform.cli.main import main
from seqform.routes import exact as exact_module
from seqform.routes.exact import ValueBounds, solve_exact


def test_solve_kuhn_text(capsys):
    assert main(["solve", "kuhn"]) == 0
    out = capsys.readouterr().out
    assert "Value to Player 1: -0.0555555556 (= -1/18)" in out  # Kuhn (1950)
    assert "E, F shape            7×13      7×13" in out
    assert "13×13, 30 non-zeros; 30 terminal histories" in out
    assert "equilibrium (≤ 1e-09)" in out
    assert "Kb       fold 0.0000  call 1.0000" in out  # player 2 always calls with K


def test_solve_kuhn_json(capsys):
    assert main(["solve", "kuhn", "--format", "json", "--backend", "cvxpy"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == "seqform.solve/2"
    assert document["value"] == pytest.approx(-1 / 18, abs=1e-9)  # Kuhn (1950)
    assert document["value_fraction"] == "-1/18"
    assert document["solver"]["backend"] == "cvxpy"
    players = document["sizes"]["players"]
    assert [p["sequences"] for p in players] == [13, 13]
    assert [p["constraint_shape"] for p in players] == [[7, 13], [7, 13]]
    assert document["sizes"]["payoff_shape"] == [13, 13]
    assert document["certificate"]["equilibrium"] is True
    second = document["strategies"][1]
    kb = next(i for i in second["infosets"] if i["name"] == "Kb")
    assert [(a["words"], a["probability"]) for a in kb["actions"]] == [
        ("fold", pytest.approx(0, abs=1e-9)),
        ("call", pytest.approx(1, abs=1e-9)),
    ]


def test_output_file(tmp_path, capsys):
    target = tmp_path / "kuhn.json"
    assert main(["solve", "kuhn", "--format", "json", "--output", str(target)]) == 0
    assert capsys.readouterr().out == ""
    assert json.loads(target.read_text())["value_fraction"] == "-1/18"


def test_unknown_game_exits_2_and_lists_names(capsys):
    assert main(["solve", "texas"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("seqform: error: unknown game 'texas'; known games: ")
    assert "kuhn" in err
    assert "Traceback" not in err


def test_bad_parameter_is_one_line(capsys):
    assert main(["solve", "kuhn(cards=1)"]) == 2  # a usage error, as an unknown game
    err = capsys.readouterr().err
    assert err == "seqform: error: kuhn: cards must be an integer >= 2, got 1\n"


def test_unknown_parameter_is_named(capsys):
    assert main(["solve", "kuhn(decks=2)"]) == 2
    assert capsys.readouterr().err == (
        "seqform: error: game 'kuhn' has no parameter 'decks'; its parameters "
        "(with defaults): cards=3\n"
    )


def test_missing_file(capsys, tmp_path):
    assert main(["solve", str(tmp_path / "missing.efg")]) == 1
    err = capsys.readouterr().err
    assert "missing.efg" in err and "Traceback" not in err


def test_subprocess_python_m_seqform():
    completed = subprocess.run(
        [sys.executable, "-m", "seqform", "solve", "kuhn"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert "(= -1/18)" in completed.stdout
    assert completed.stderr == ""


def test_progress_on_large_games_and_quiet(capsys):
    # 110 cards: 110·109 deals × 9 nodes + the root = 107,911 nodes, above the 100k-node
    # threshold for progress messages.
    assert main(["solve", "kuhn(cards=110)"]) == 0
    err = capsys.readouterr().err
    assert "built kuhn(cards=110): 107,911 nodes" in err
    assert "LP: " in err and "done: value" in err
    assert main(["solve", "kuhn(cards=110)", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_verbose_sends_the_solver_log_to_stderr(capfd):
    assert main(["solve", "kuhn", "--verbose", "--format", "json"]) == 0
    out, err = capfd.readouterr()
    assert json.loads(out)["value_fraction"] == "-1/18"  # stdout is only the result
    assert "LP has 20 rows; 20 cols" in err  # HiGHS's log (its banner is discarded)
    assert "building game kuhn" in err


def test_unknown_openspiel_game_is_one_line(capfd):
    pytest.importorskip("pyspiel")
    assert main(["solve", "openspiel:nosuchgame"]) == 2
    err = capfd.readouterr().err
    # OpenSpiel's C++ would list every game it knows on stderr; only our line remains.
    assert err == "seqform: error: OpenSpiel cannot load 'nosuchgame': Unknown game 'nosuchgame'\n"


@pytest.mark.parametrize("seconds", ["-1", "0", "soon"])
def test_bad_time_limit_is_a_usage_error(seconds, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "kuhn", "--time-limit", seconds])
    assert stopped.value.code == 2
    assert "--time-limit" in capsys.readouterr().err


def test_every_command_of_the_parser_has_a_module():
    from seqform.cli.main import COMMANDS
    from seqform.cli.parser import build_parser

    subparsers = next(
        action for action in build_parser()._actions if action.dest == "command"
    ).choices
    assert set(subparsers) == set(COMMANDS)


def test_the_solver_names_are_lps_plus_the_structured_default():
    from seqform.cli.options import SOLVERS, STRUCTURED_DEFAULT_SOLVER
    from seqform.lp.solvers import HIGHS_SOLVERS, STRUCTURED_SOLVERS

    assert (*HIGHS_SOLVERS, STRUCTURED_DEFAULT_SOLVER) == SOLVERS
    assert STRUCTURED_DEFAULT_SOLVER in STRUCTURED_SOLVERS


@pytest.mark.parametrize(
    ("value", "fraction", "probability"),
    [
        pytest.param(-1 / 18, "-1/18", "-0.0556 (-1/18)", id="kuhn-value"),
        pytest.param(2 / 3, "2/3", "0.6667 (2/3)", id="two-thirds"),
        pytest.param(1.0, "1", "1.0000", id="whole"),
        pytest.param(0.123456789, None, "0.1235", id="no-small-fraction"),
    ],
)
def test_numbers_are_written_one_way(value, fraction, probability):
    from seqform.base.numbers import fraction_text, probability_text

    assert fraction_text(value) == fraction
    assert probability_text(value) == probability


def test_pdlp_answer_is_not_certified_and_exits_3(capsys):
    # PDLP stops at its own tolerance (about 1e-7 on Kuhn), not at the certificate's 1e-9
    assert main(["solve", "kuhn", "--solver", "pdlp"]) == EXIT_NOT_CERTIFIED == 3
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[1] == "Value to Player 1: NOT certified; the certificate bounds it by"
    assert "<= value <=" in lines[2] and "LP float optimum" in lines[2]
    assert "NOT an equilibrium within 1e-09" in captured.out
    assert captured.err.startswith("seqform: error: the answer is not certified: exploitability")
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "headline"),
    [
        pytest.param(["kuhn"], "Value to Player 1: NOT certified", id="sequence"),
        pytest.param(["kuhn", "--method", "normal"], "Value to Player 1: NOT", id="normal"),
        pytest.param(
            ["kuhn(cards=4)", "--method", "structured"], "Value to Player 1: NOT", id="structured"
        ),
        pytest.param(["kuhn", "--refine"], "Value to Player 1: NOT certified", id="refine"),
        pytest.param(
            ["kuhn", "--fix", "J:b=0"],
            "Value of the restricted game to Player 1: NOT certified",
            id="fix",
        ),
    ],
)
def test_every_solve_route_exits_3_when_its_certificate_fails(argv, headline, monkeypatch, capsys):
    # a tolerance no certificate meets: every route must then refuse to call its answer certified
    # (the module by its name: the verdict reads its own global)
    monkeypatch.setattr(sys.modules["seqform.certify.verdict"], "EQUILIBRIUM_TOLERANCE", -1.0)
    assert main(["solve", *argv]) == EXIT_NOT_CERTIFIED
    captured = capsys.readouterr()
    assert captured.out.splitlines()[1].startswith(headline)
    assert "the answer is not certified" in captured.err
    monkeypatch.undo()
    assert main(["solve", *argv, "--quiet"]) == 0


def test_exact_with_only_bounds_exits_3(monkeypatch, capsys):
    def bounds_only(*args, **kwargs):
        found = solve_exact(*args, **kwargs)
        lower = found.bounds.lower
        return dataclasses.replace(found, bounds=ValueBounds(lower - 1, lower + 1))

    # the exact route's pipeline, as seqform.routes.solve.solve_on_route runs it
    monkeypatch.setattr(exact_module, "solve_exact", bounds_only)
    assert main(["solve", "kuhn", "--exact"]) == EXIT_NOT_CERTIFIED
    captured = capsys.readouterr()
    assert "Value to Player 1: NOT certified; the exact certificate bounds it by" in captured.out
    assert "no exact equilibrium was found" in captured.err


def test_help_documents_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "3 answer written but not certified" in " ".join(capsys.readouterr().out.split())


# --- mistakes in GAME get a message that says what to write ---------------------------------

KNOWN = (
    "known games: kuhn, kuhn3, leduc, liars_dice, rhode_island "
    "(or a path to a .efg file, or openspiel:NAME)"
)


def _error_line(capsys) -> str:
    """The one line on stderr (argparse's usage line, if any, before it)."""
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.endswith("\n")
    return err.splitlines()[-1]


def test_misspelt_game_gets_the_closest_name(capsys):
    assert main(["solve", "kuhnn"]) == 2
    assert _error_line(capsys) == (
        f"seqform: error: unknown game 'kuhnn' (did you mean kuhn?); {KNOWN}"
    )


@pytest.mark.parametrize("spec", ["Kuhn", "KUHN(cards=3)"])
def test_game_names_are_read_in_any_case(spec, capsys):
    assert main(["solve", spec, "--format", "json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["value_fraction"] == "-1/18"


def test_unreadable_value_says_what_the_parameter_takes(capsys):
    assert main(["solve", "kuhn(cards=abc)"]) == 2
    assert _error_line(capsys) == (
        "seqform: error: game 'kuhn': cards takes an integer (default 3), not 'abc'"
    )


def test_parameters_as_separate_words_get_the_quoted_spelling(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "kuhn", "cards=5"])
    assert stopped.value.code == 2
    assert _error_line(capsys) == (
        "seqform solve: error: unrecognized arguments: cards=5; a game's parameters go inside "
        'its name, quoted: "kuhn(cards=5)"'
    )


def test_a_commands_option_before_the_command_says_where_it_goes(capsys):
    # was "argument COMMAND: invalid choice: '5'"
    with pytest.raises(SystemExit) as stopped:
        main(["--iterations", "5", "iterate", "kuhn"])
    assert stopped.value.code == 2
    assert _error_line(capsys) == (
        "seqform: error: --iterations comes before the command; a command's options go after "
        "it (seqform COMMAND ... --iterations) (--iterations is an option of iterate)"
    )


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["solve", "kuhn", "--iterations", "5"],
            "seqform solve: error: unrecognized arguments: --iterations 5 "
            "(--iterations is an option of iterate)",
        ),
        (
            ["export", "kuhn", "--to", "efg", "k.efg", "--strategies=all"],
            "seqform export: error: unrecognized arguments: --strategies=all (--strategies is "
            "an option of solve, compare, ranges, exploit, iterate, qre, show)",
        ),
        (["solve", "kuhn", "--bogus"], "seqform solve: error: unrecognized arguments: --bogus"),
    ],
)
def test_an_option_of_another_command_is_refused_by_the_command_naming_its_owners(
    argv, line, capsys
):
    # was the program's usage and "seqform: error: unrecognized arguments: --iterations 5"
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: seqform {argv[0]} ")  # the command's usage
    assert err.splitlines()[-1] == line


def test_a_directory_is_not_a_game(tmp_path, capsys):
    assert main(["solve", str(tmp_path)]) == 1
    assert _error_line(capsys) == (
        f"seqform: error: cannot read {str(tmp_path)!r}: is a directory, not a game file"
    )


def test_a_name_too_long_for_a_file_is_an_unknown_game(capsys):
    assert main(["solve", "x" * 300]) == 2
    assert _error_line(capsys) == (
        f"seqform: error: unknown game {'x' * 60!r}… (300 characters); {KNOWN}"
    )


def test_a_parameter_given_twice_is_refused(capsys):
    assert main(["solve", "kuhn(cards=3, cards=4)"]) == 2
    assert _error_line(capsys) == "seqform: error: game 'kuhn': parameter 'cards' is given twice"


def test_double_star_parameters_are_refused_with_the_spelling(capsys):
    assert main(["solve", "kuhn(**{'cards': 3})"]) == 2
    assert _error_line(capsys) == (
        "seqform: error: game 'kuhn': write each parameter as key=value, e.g. kuhn(cards=3), "
        "not **{...}"
    )


def test_a_5000_digit_number_is_too_large_not_a_file_name(capsys):
    assert main(["solve", f"kuhn(cards={'9' * 5000})"]) == 2
    assert _error_line(capsys) == (
        "seqform: error: game 'kuhn': cannot read the parameters: a number of 5000 digits is "
        "too large for any parameter"
    )


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["solve", "kuhn", "--fix", "J:b=2"], id="fix-probability"),
        pytest.param(["solve", "kuhn", "--fix", "Jb"], id="fix-unreadable"),
        # as leduc(suits=1000): a built-in game's parameter beyond what seqform builds
        pytest.param(["solve", "liars_dice(dice=50)"], id="liars-dice-bids"),
        pytest.param(["solve", "leduc(suits=1000)"], id="leduc-suits"),
    ],
)
def test_usage_errors_exit_2(argv, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("seqform: error: ")
