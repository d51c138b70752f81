"""What the command line prints, as a user reads it: options that contradict each
other, help for every option, summaries of large games, label legends, one number format."""

import argparse
import csv
import json

import pytest

from seqform.cli.main import main
from seqform.cli.parser import build_parser


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["solve", "kuhn", "--quiet", "--verbose"],
            "argument --verbose: not allowed with argument --quiet",
        ),
        (
            ["solve", "kuhn", "--verbose", "--quiet"],
            "argument --quiet: not allowed with argument --verbose",
        ),
        (
            ["solve", "kuhn", "--exact", "--refine"],
            "argument --refine: not allowed with argument --exact",
        ),
        (
            ["compare", "kuhn", "--quiet", "--verbose"],
            "argument --verbose: not allowed with argument --quiet",
        ),
        (
            ["exploit", "kuhn", "--opponent", "uniform", "--strategy", "x.json"],
            "argument --strategy: not allowed with argument --opponent",
        ),
    ],
    ids=["quiet-verbose", "verbose-quiet", "exact-refine", "compare", "exploit"],
)
def test_contradictory_options_are_a_usage_error(argv, message, capsys):
    # One of the pair silently won; argparse must refuse the pair (exit 2).
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    assert message in capsys.readouterr().err


def test_refine_with_fix_is_a_usage_error(capsys):
    assert main(["solve", "kuhn", "--refine", "--fix", "K:b=1"]) == 2
    assert "--refine cannot be combined with --fix" in capsys.readouterr().err


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_option_has_a_help_line():
    # `--format` and `--to` had empty help lines.
    for name, command in _subparsers(build_parser()).items():
        for action in command._actions:
            if action.option_strings and action.help != argparse.SUPPRESS:
                assert action.help, f"{name} {action.option_strings[0]} has no help line"


# --- strategies at any size ---------------------------------------------------------------


@pytest.fixture(scope="module")
def leduc_reports():
    """`solve leduc` as text (default and --strategies all) and as JSON."""
    import contextlib
    import io

    outputs = {}
    for key, extra in (
        ("auto", []),
        ("all", ["--strategies", "all"]),
        ("json", ["--format", "json"]),
    ):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert main(["solve", "leduc", *extra]) == 0
        outputs[key] = buffer.getvalue()
    return outputs


def test_leduc_text_is_a_summary_and_all_prints_every_infoset(leduc_reports):
    # Leduc has 468 information sets per player (Lanctot et al. 2017; tests/test_leduc.py):
    # the full report printed all of them, 961 lines, by default.
    summary, full = leduc_reports["auto"].splitlines(), leduc_reports["all"].splitlines()
    assert len(summary) <= 60
    assert len(full) >= 2 * 468
    assert "--strategies all prints every one;" in leduc_reports["auto"]
    assert "Value to Player 1: -0.0856064241" in summary[1]  # both keep the headline
    untimed = [line for line in summary[:16] if "solve " not in line]  # timings vary
    assert untimed == [line for line in full[:16] if "solve " not in line]  # same blocks


def test_the_summary_shows_the_most_mixed_information_sets(leduc_reports):
    import json
    import math

    document = json.loads(leduc_reports["json"])
    lines = leduc_reports["auto"].splitlines()
    for player in document["strategies"]:

        def entropy(infoset):
            ps = [a["probability"] for a in infoset["actions"]]
            return -sum(p * math.log2(p) for p in ps if p > 0)

        reached = [i for i in player["infosets"] if not i["unreached"]]
        ranked = sorted(reached, key=entropy, reverse=True)
        expected = {i["name"] for i in ranked[:10]}  # computed from the JSON, independently
        title = f"{player['name']} — behavioural strategy (summary)"
        start = lines.index(title) + 3  # title, counts, column heads
        shown = {line.split()[0] for line in lines[start : start + 10]}
        assert shown == expected
        mixed = sum(max(a["probability"] for a in i["actions"]) < 1 - 1e-9 for i in reached)
        assert lines[start - 2] == (
            f"  468 information sets, {len(reached)} reached by own play, {mixed} of them "
            "mixed; the 10 most mixed:"
        )


def test_json_stays_complete(leduc_reports):
    import json

    document = json.loads(leduc_reports["json"])
    assert [len(p["infosets"]) for p in document["strategies"]] == [468, 468]


@pytest.mark.parametrize(
    ("choice", "summarised"), [("summary", True), ("all", False), ("auto", False)]
)
def test_strategies_choice_on_a_small_game(choice, summarised, capsys):
    assert main(["solve", "kuhn", "--strategies", choice]) == 0
    out = capsys.readouterr().out
    assert ("Player 1 — behavioural strategy (summary)" in out) is summarised
    assert ("  Kb       fold 0.0000  call 1.0000" in out) is not summarised or "Kb" in out


def test_a_large_json_to_a_terminal_gets_a_note(monkeypatch, capsys):
    from seqform.cli import output

    monkeypatch.setattr(output, "LARGE_JSON_BYTES", 1000)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["solve", "kuhn", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("{") and captured.out.rstrip().endswith("}")  # complete
    assert "that JSON is 0.0 MB; write it to a file with --output FILE" in captured.err
    monkeypatch.setattr("sys.stdout.isatty", lambda: False)  # piped or redirected: no note
    assert main(["solve", "kuhn", "--format", "json"]) == 0
    assert capsys.readouterr().err == ""


# --- labels explained ----------------------------------------------------------------------


def test_kuhn_tables_have_a_legend_and_the_unreached_flag_names_its_place(capsys):
    assert main(["solve", "kuhn"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # KUHN_FACTS: player 1's sets J, Jpb, …; player 2's Qp, Qb, …
    assert (
        "  Labels: Jpb = holding J, after check (p), bet (b); p = check or fold, b = bet or call"
        in lines
    )
    assert "  Labels: Qp = holding Q, after check (p); p = check or fold, b = bet or call" in lines
    assert main(["solve", "kuhn", "--fix", "K:b=1"]) == 0  # K bets, so Kpb is unreached
    out = capsys.readouterr().out
    assert "(unreached by own play: docs/output.md)" in out


def test_the_docs_explain_labels_where_the_output_says():
    from pathlib import Path

    page = (Path(__file__).parents[1] / "docs" / "output.md").read_text(encoding="utf-8")
    assert page.startswith("# Reading the output\n")
    section = page
    section = section.replace("\\|", "|")  # pipes escaped in the Markdown table
    from seqform.game.builtin.labels import LABEL_GRAMMARS

    for name, grammar in LABEL_GRAMMARS.items():
        assert f"`{name}`" in section and grammar.example in section, name
    assert "unreached" in section


def test_a_game_without_a_grammar_gets_no_legend(tmp_path, capsys):
    target = tmp_path / "kuhn.efg"
    assert main(["export", "kuhn", "--to", "efg", str(target)]) == 0
    assert main(["solve", str(target)]) == 0
    assert "Labels:" not in capsys.readouterr().out  # a .efg keeps the labels of its source


@pytest.mark.parametrize(
    "spec",
    [
        "kuhn",
        "kuhn(cards=12)",
        "leduc",
        "leduc(suit_isomorphism=True)",
        "liars_dice(sides=3)",
        "liars_dice(sides=2, dice=2)",
    ],
)
def test_every_label_of_a_builtin_game_reads_aloud(spec):
    from seqform.forms.sequence_form import build_sequence_form
    from seqform.game.builtin.labels import grammar_of
    from seqform.io.loader import load_game

    game = load_game(spec)
    grammar = grammar_of(game)
    assert grammar is not None
    for table in build_sequence_form(game).players:
        for label in table.infosets:
            text = grammar.explain(label)
            # The owner's private information opens the label and is read back first.
            private = label.split("|")[0].rstrip("pb") if "|" not in label else label.split("|")[0]
            assert " ".join(private) in text or private in text, (label, text)


def test_games_lists_every_builtin_game_with_its_labels(capsys):
    import json

    from seqform.game.builtin.registry import GAMES

    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "  e.g. Qpb = holding Q, after check (p), bet (b)" in out
    assert main(["games", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == "seqform.games/1"
    assert [g["name"] for g in document["games"]] == sorted(GAMES)
    assert all(g["labels"] and g["actions"] for g in document["games"])


def test_both_routes_name_player_2s_information_sets_alike(capsys):
    # The structured route named player 2's Kuhn sets J, Q, K where the tree route said
    # Qp, Qb, … (KUHN_FACTS); both must print the same rows and legend.
    def rows(argv):
        assert main(argv) == 0
        lines = capsys.readouterr().out.splitlines()
        start = lines.index("Player 2 — behavioural strategy")
        return sorted(line.split()[0] for line in lines[start + 2 : start + 8])

    tree = rows(["solve", "kuhn"])
    assert tree == ["Jb", "Jp", "Kb", "Kp", "Qb", "Qp"]
    assert rows(["solve", "kuhn", "--method", "structured"]) == tree


ESCAPES_EFG = (
    'EFG 2 R "\x1b]0;PWNED\x07 title \x1b[2J" { "P1\x1b[31m" "P2" }\n""\n\n'
    'p "" 1 1 "i\x9b2J" { "a\x1b[2J" "b" } 0\n'
    't "" 1 "o" { 1, -1 }\nt "" 2 "o2" { -1, 1 }\n'
)


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "--quiet"],
        ["iterate", "--algorithm", "cfr", "--iterations", "10", "--quiet"],
        ["ranges"],
        ["compare"],
    ],
    ids=["solve", "iterate", "ranges", "compare"],
)
def test_labels_cannot_drive_the_terminal(command, tmp_path, capsys):
    # ESC]0;...BEL sets a terminal's title, ESC[2J and CSI (\x9b) 2J clear its screen
    game = tmp_path / "escapes.efg"
    game.write_text(ESCAPES_EFG, encoding="utf-8")
    main([command[0], str(game), *command[1:]])
    out, err = capsys.readouterr()
    for stream in (out, err):
        assert "\x1b" not in stream and "\x07" not in stream and "\x9b" not in stream
    if command[0] == "solve":
        assert "Game: \\x1b]0;PWNED\\x07 title \\x1b[2J" in out
        assert "i\\x9b2J" in out


def test_terminal_text_escapes_controls_but_newline_and_tab():
    from seqform.cli.streams import terminal_text

    assert terminal_text("a\tb\nc") == "a\tb\nc"
    assert terminal_text("\x1b[2J\r\x7f\x9b é") == "\\x1b[2J\\r\\x7f\\x9b é"


# --- the format taken from --output's suffix ----------------------------------------------


@pytest.mark.parametrize(
    ("name", "json_written"),
    [("a.json", True), ("a.JSON", True), ("a.txt", False), ("a.md", False), ("a", False)],
)
def test_the_output_suffix_names_the_format(name, json_written, tmp_path):
    # `solve kuhn --output a.json` wrote the text report into a.json.
    target = tmp_path / name
    assert main(["solve", "kuhn", "--quiet", "--output", str(target)]) == 0
    written = target.read_text()
    if json_written:
        assert json.loads(written)["schema"] == "seqform.solve/2"
    else:
        assert written.startswith("Game: kuhn")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["solve", "kuhn", "--format", "text", "--output", "a.json"],
            "--format text contradicts --output a.json, whose suffix says json",
        ),
        (
            ["games", "--format", "json", "--output", "a.txt"],
            "--format json contradicts --output a.txt, whose suffix says text",
        ),
        (["solve", "kuhn", "--output", "a.csv"], "solve writes text or json, not csv"),
    ],
    ids=["text-json", "json-txt", "csv"],
)
def test_a_format_the_suffix_contradicts_is_a_usage_error(argv, message, tmp_path, capsys):
    argv = [str(tmp_path / a) if a.startswith("a.") else a for a in argv]
    assert main(argv) == 2
    assert message.replace("a.", str(tmp_path / "a.")) in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # refused before anything is written


def test_an_explicit_format_agreeing_or_with_another_suffix_is_taken(tmp_path):
    report = tmp_path / "kuhn.out"
    assert main(["solve", "kuhn", "--quiet", "--format", "json", "--output", str(report)]) == 0
    assert json.loads(report.read_text())["schema"] == "seqform.solve/2"
    agreeing = tmp_path / "kuhn.json"
    assert main(["solve", "kuhn", "--quiet", "--format", "json", "--output", str(agreeing)]) == 0
    assert json.loads(agreeing.read_text())["schema"] == "seqform.solve/2"


def test_every_command_with_format_and_output_infers_the_format():
    # The policy is one function (seqform.cli.output.output_format); each command with both
    # options must leave --format unset by default and say which formats it writes.
    with_both = []
    for name, command in _subparsers(build_parser()).items():
        options = {o for a in command._actions for o in a.option_strings}
        if {"--format", "--output"} <= options:
            with_both.append(name)
            assert command.get_default("format") is None, name
            assert command.get_default("output_formats")[0] == "text", name
    assert {"solve", "iterate", "solve-many", "resolve", "games"} <= set(with_both)


def test_solve_many_writes_csv_to_a_csv_output(tmp_path):
    folder = tmp_path / "spots"
    folder.mkdir()
    (folder / "broken.toml").write_text('board = "Ks7h"\n')  # a row with its error, no solve
    report = tmp_path / "report.csv"
    assert (
        main(["solve-many", str(folder), "--workers", "1", "--quiet", "--output", str(report)]) == 1
    )
    rows = list(csv.DictReader(report.open()))
    assert [row["file"] for row in rows] == ["broken.toml"]
    assert "missing pot" in rows[0]["error"]


@pytest.mark.parametrize(
    ("module", "renderer", "argv"),
    [
        ("exploit", "exploitation_text", ["exploit", "kuhn", "--opponent", "uniform"]),
        ("ranges", "ranges_text", ["ranges", "kuhn"]),
        ("compare", "comparison_text", ["compare", "kuhn"]),
    ],
)
def test_json_output_renders_no_text_report(module, renderer, argv, monkeypatch, capsys):
    # The text report reads every information set of the document's strategies: for
    # --format json it is work thrown away (a turn spot's, seconds), so it is never made.
    import importlib

    def refuse(*_args, **_kwargs):
        raise AssertionError("the text report was rendered for --format json")

    monkeypatch.setattr(importlib.import_module(f"seqform.cli.commands.{module}"), renderer, refuse)
    assert main([*argv, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)
