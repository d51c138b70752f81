"""``seqform show RESULT.json`` on results that are not a hold'em spot's: the report the
command printed, character for character, from the document it wrote; the spot's options
refused; old, unknown and broken documents refused in one line."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from seqform.cli.main import main
from seqform.io.json_text import indented_json


def _printed(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], str]:
    """The document and the text that one run of ``argv`` hands to ``emit``."""
    module = importlib.import_module(f"seqform.cli.commands.{argv[0].replace('-', '_')}")
    seen: list[tuple[dict[str, Any], str]] = []

    def emit(document: dict[str, Any], text: Any, args: Any) -> None:
        seen.append((document, text if isinstance(text, str) else text()))

    with monkeypatch.context() as patched:
        patched.setattr(module, "emit", emit)
        assert main(argv) in (0, 3)
    ((document, text),) = seen
    return document, text


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["solve", "kuhn"], id="solve"),
        pytest.param(["solve", "leduc", "--strategies", "all"], id="solve-all"),
        pytest.param(
            ["solve", "leduc", "--method", "structured", "--strategies", "all"], id="structured"
        ),
        pytest.param(["ranges", "kuhn", "--exact"], id="ranges"),
        pytest.param(["compare", "kuhn"], id="compare"),
        pytest.param(["qre", "kuhn"], id="qre"),
        pytest.param(
            ["iterate", "kuhn", "--algorithm", "cfr+", "--iterations", "50"], id="iterate"
        ),
        pytest.param(["exploit", "kuhn", "--opponent", "uniform"], id="exploit"),
    ],
)
def test_show_prints_what_the_command_printed(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    # The document of a text run is the JSON one where the report prints every strategy (a
    # summarised strategy is built as its summary): Kuhn's, or with --strategies all.
    document, text = _printed(argv, monkeypatch)
    saved = tmp_path / "result.json"
    saved.write_text(indented_json(document))  # as --format json --output writes it
    capsys.readouterr()
    strategies = argv[argv.index("--strategies") + 1] if "--strategies" in argv else "auto"
    assert main(["show", str(saved), "--strategies", strategies]) == 0
    captured = capsys.readouterr()
    assert captured.out == text.rstrip("\n") + "\n" and captured.err == ""


@pytest.mark.parametrize("option", [["--hand", "Js"], ["--node", "x"], ["--grid"]])
def test_a_spots_options_are_refused_for_another_result(
    option: list[str], tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    saved = tmp_path / "kuhn.json"
    assert main(["solve", "kuhn", "--quiet", "--output", str(saved)]) == 0
    capsys.readouterr()
    assert main(["show", str(saved), *option]) == 2
    assert capsys.readouterr().err == (
        f"seqform: error: {option[0]}: {saved} is a seqform.solve/2 document, not a hold'em "
        "spot's result; without it show prints its report\n"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(
            {"schema": "seqform.solve/1"},
            "a seqform.solve/1 document, written by an earlier seqform; this one reads "
            "seqform.solve/2",
            id="previous",
        ),
        pytest.param({"schema": "seqform.other/1"}, "'schema' is 'seqform.other/1'", id="kind"),
        pytest.param({"schema": "seqform.ranges/2"}, "breaks its schema", id="schema"),
    ],
)
def test_a_document_show_cannot_read_is_one_line(
    content: dict[str, Any], message: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps(content))
    assert main(["show", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "x.json" in err and message in err, err


def test_strategies_are_refused_for_a_report_that_prints_none(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    # `games` takes no --strategies; show took `--strategies all` for its document silently
    saved = tmp_path / "games.json"
    assert main(["games", "--format", "json", "--output", str(saved)]) == 0
    capsys.readouterr()
    assert main(["show", str(saved), "--strategies", "all"]) == 2
    assert capsys.readouterr().err == (
        "seqform: error: --strategies all: the report of a seqform.games/1 document prints "
        "no strategies\n"
    )
    assert main(["show", str(saved)]) == 0


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        pytest.param(
            "new.json",
            '{"schema": "seqform.solve/3"}',
            "a seqform.solve/3 document, written by a newer seqform; this one reads "
            "seqform.solve/2",
            id="newer",
        ),
        pytest.param(
            "strategy.json",
            '{"J": {"b": 1}}',
            "it has no 'schema' field: a strategy file",
            id="no-kind",
        ),
        pytest.param(
            "arrays.npz", "PK", "is a strategy-arrays document (.npz), not a result", id="npz"
        ),
    ],
)
def test_a_file_that_is_no_result_says_what_it_is(
    name: str, content: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    # were "'schema' is 'seqform.solve/3'", "'schema' is None" and "not UTF-8 text ..."
    path = tmp_path / name
    path.write_text(content)
    assert main(["show", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
