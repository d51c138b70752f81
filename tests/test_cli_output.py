"""What the command line prints, as a user reads it (issue 15): options that contradict each
other, help for every option, summaries of large games, label legends, one number format."""

import argparse

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
            [
                "iterate",
                "kuhn",
                "--algorithm",
                "cfr",
                "--iterations",
                "5",
                "--target-exploitability",
                "1e-3",
            ],
            "argument --target-exploitability: not allowed with argument --iterations",
        ),
        (
            ["exploit", "kuhn", "--opponent", "uniform", "--strategy", "x.json"],
            "argument --strategy: not allowed with argument --opponent",
        ),
    ],
    ids=["quiet-verbose", "verbose-quiet", "exact-refine", "compare", "iterate", "exploit"],
)
def test_contradictory_options_are_a_usage_error(argv, message, capsys):
    # Issue 15 item 6: one of the pair silently won; now argparse refuses the pair (exit 2).
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
    # Issue 15 item 6: `--format` and `--to` had empty help lines.
    for name, command in _subparsers(build_parser()).items():
        for action in command._actions:
            if action.option_strings and action.help != argparse.SUPPRESS:
                assert action.help, f"{name} {action.option_strings[0]} has no help line"
