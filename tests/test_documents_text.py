"""The text reports of the solve family are rendered from the JSON document
(:mod:`seqform.documents.text.render`): the text ``solve`` prints is the text of the document
``solve --format json`` prints, and ``seqform.render_text(result)`` gives a Python user the
same text as the command line.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_holdem_cli import SPOT  # the river spot of docs/spots.md
from test_inputs import SEATS  # a constant-sum game: every terminal pays 10 in total

import seqform
from seqform.cli.main import main
from seqform.documents.text.render import document_report

TIME = re.compile(r"\d+\.\d{3} s")


def _timeless(text: str) -> str:
    """``text`` with every measured time (``0.014 s``) written ``<time> s``."""
    return TIME.sub("<time> s", text)


def _printed(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(argv)
    return capsys.readouterr().out


KINDS = [
    pytest.param(["solve", "kuhn"], {}, id="solve"),
    pytest.param(["solve", "kuhn", "--method", "normal"], {"method": "normal"}, id="normal"),
    pytest.param(["solve", "kuhn", "--exact"], {"exact": True}, id="exact"),
    pytest.param(["solve", "kuhn", "--refine"], {"refine": True}, id="refine"),
    pytest.param(["solve", "kuhn", "--fix", "K:b=1"], {"fix": "K:b=1"}, id="fix"),
    pytest.param(["solve", "kuhn", "--exact", "--fix", "J:b<=1/4"],
                 {"exact": True, "fix": "J:b<=1/4"}, id="exact-fix"),
    pytest.param(["solve", "kuhn", "--method", "structured"], {"method": "structured"},
                 id="structured"),
    pytest.param(["solve", "kuhn", "--method", "structured", "--exact"],
                 {"method": "structured", "exact": True}, id="structured-exact"),
    pytest.param(["solve", "{folder}/river.toml"], {}, id="spot"),
    pytest.param(["solve", "{folder}/seats.efg"], {}, id="constant-sum"),
    pytest.param(["solve", "{folder}/seats.efg", "--exact"], {"exact": True},
                 id="constant-sum-exact"),
    pytest.param(["solve", "leduc", "--strategies", "summary"], {}, id="summary"),
]  # fmt: skip


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "river.toml").write_text(SPOT)
    (tmp_path / "seats.efg").write_text(SEATS)
    return tmp_path


def _argv(argv: list[str], folder: Path) -> list[str]:
    return [part.format(folder=folder) for part in argv]


@pytest.mark.parametrize(("argv", "options"), KINDS)
def test_the_text_is_the_text_of_the_json_document(
    argv: list[str], options: dict[str, Any], folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _argv(argv, folder)
    text = _printed(argv, capsys)
    printed = json.loads(_printed([*argv, "--format", "json"], capsys))
    strategies = argv[argv.index("--strategies") + 1] if "--strategies" in argv else "auto"
    assert _timeless(document_report(printed, strategies) + "\n") == _timeless(text)


@pytest.mark.parametrize(("argv", "options"), KINDS)
def test_render_text_gives_the_command_line_text(
    argv: list[str], options: dict[str, Any], folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _argv(argv, folder)
    text = _printed(argv, capsys)
    strategies = argv[argv.index("--strategies") + 1] if "--strategies" in argv else "auto"
    result = seqform.solve(argv[1], **options)
    assert _timeless(seqform.render_text(result, strategies) + "\n") == _timeless(text)


# --- the text reads the document ---------------------------------------------------------------

Change = Callable[[dict[str, Any]], None]


def _set(path: tuple[Any, ...], value: Any) -> Change:
    def change(document: dict[str, Any]) -> None:
        node = document
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("options", "change", "shown"),
    [
        ({}, _set(("game", "description"), "a changed sentence"), "kuhn — a changed sentence"),
        ({}, _set(("sizes", "players", 0, "infosets"), 12345), "12,345"),
        ({}, _set(("strategies", 0, "infosets", 0, "actions", 0, "words"), "wait"), "wait 0.6667"),
        ({}, _set(("solver", "iterations"), 4242), "optimal after 4,242 iterations"),
        ({"method": "normal"}, _set(("normal_form", "matrix_entries"), 777), "777 entries"),
        ({"exact": True}, _set(("exact", "notes"), ["a note"]), "  note: a note"),
        ({"refine": True}, _set(("refinement", "pivots"), 99), "after 99 exact pivot(s)"),
        ({"fix": "K:b=1"}, _set(("restrictions", "bounds", 0, "action"), "p"), "  K:p = 1"),
        ({"method": "structured"}, _set(("sizes", "auxiliary_variables"), 31), "(31 auxiliary"),
    ],
)
def test_a_field_of_the_document_shows_in_the_text(
    options: dict[str, Any], change: Change, shown: str
) -> None:
    built = seqform.document(seqform.solve("kuhn", **options))
    assert shown not in document_report(built)
    changed = copy.deepcopy(built)
    change(changed)
    assert shown in document_report(changed)


def test_the_legend_follows_the_documents_labels() -> None:
    # "labels" names the built-in game whose grammar explains the labels (game/builtin/labels)
    built = seqform.document(seqform.solve("kuhn"))
    assert built["game"]["labels"] == "kuhn"
    assert "  Labels: Jpb = holding J" in document_report(built)
    built["game"]["labels"] = None  # a .efg file keeps its own labels: no legend
    assert "Labels:" not in document_report(built)


def test_a_spot_files_solution_carries_its_summary_and_opening_grid(folder: Path) -> None:
    solution = seqform.solve(str(folder / "river.toml"))
    assert solution.spot is not None and solution.spot.opening is not None
    built = seqform.document(solution)
    grid = built["spot"]["opening_grid"]
    # docs/spots.md: OOP bets JTs always, 99 44% of the time, AA and QQ never
    assert grid["actions"] == ["b5", "b30"]
    rows = "AKQJT98765432"
    assert grid["frequency"][rows.index("J")][rows.index("T")] == pytest.approx(1.0)
    assert grid["frequency"][rows.index("9")][rows.index("9")] == pytest.approx(0.44, abs=0.01)
    assert grid["frequency"][rows.index("A")][rows.index("A")] == pytest.approx(0.0, abs=1e-6)
    assert grid["frequency"][rows.index("K")][rows.index("K")] is None  # not in OOP's range
    built["spot"]["opening_grid"]["frequency"][rows.index("J")][rows.index("T")] = 0.5
    assert "  J     .   .   .   .  50" in document_report(built)


def test_a_solve_document_loads_no_other_document_module() -> None:
    # documents/build.py imports the document modules on demand (its docstring)
    import ast
    import subprocess
    import sys

    code = (
        "import sys, seqform\n"
        "seqform.document(seqform.solve('kuhn', method='normal'))\n"
        "print(sorted(m for m in sys.modules if m.startswith('seqform.documents.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = ast.literal_eval(out.stdout)  # a printed list of module names
    assert "seqform.documents.solve" in loaded
    assert not {"seqform.documents.qre", "seqform.documents.ranges"} & set(loaded)


def test_a_builder_is_found_along_the_result_types_mro() -> None:
    from seqform.documents.registry import builder_of
    from seqform.documents.solve import solution_document
    from seqform.routes.tree import Solution

    class Mine(Solution):
        pass

    found = builder_of(Mine)
    assert found is not None and found.build is solution_document
