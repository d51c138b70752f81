"""The text reports are rendered from the JSON documents (issue 30, point 4): for each kind
converted, the text rendered from the document ``--format json`` prints (parsed back from its
JSON) is the command's text, and a field changed in the document shows in the text."""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from seqform.cli.main import main
from seqform.io.documents import document_text

COUNTS = "player,infoset,action,count\n1,J,p,40\n1,J,b,10\n2,Kb,b,12\n"  # as docs/qre.md


def _renderer(command: str) -> Callable[..., str]:
    module, name = {
        "compare": ("compare", "comparison_text"),
        "compare-sizes": ("compare_sizes", "sizes_text"),
        "qre": ("qre", "qre_text"),
        "exploit": ("exploit", "exploitation_text"),
        "games": ("games", "games_text"),
        "solve-many": ("many", "many_text"),
    }[command]
    found: Callable[..., str] = getattr(
        importlib.import_module(f"seqform.documents.text.{module}"), name
    )
    return found


def _printed(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], str, Any]:
    """The document and the text one run of ``argv`` hands to ``emit``, and its arguments."""
    command = argv[0].replace("-", "_")
    module = importlib.import_module(f"seqform.cli.commands.{command}")
    seen: list[tuple[dict[str, Any], str, Any]] = []
    monkeypatch.setattr(
        module, "emit", lambda document, text, args: seen.append((document, text, args))
    )
    main(argv)
    ((document, text, args),) = seen
    return document, text, args


def _options(document: dict[str, Any], args: Any) -> dict[str, Any]:
    """``--strategies`` for the renderers that take it (not compare-sizes' nor games')."""
    if document["schema"].startswith("seqform.compare-sizes") or not hasattr(args, "strategies"):
        return {}
    return {"strategies": args.strategies}


KINDS = [
    pytest.param(["compare", "kuhn"], "compare", id="compare"),
    pytest.param(["compare", "kuhn", "--no-solve"], "compare", id="compare-no-solve"),
    pytest.param(["compare", "kuhn", "--strategies", "summary"], "compare", id="compare-summary"),
    pytest.param(["compare", "--no-solve", "kuhn(cards=5000)"], "compare-sizes",
                 id="compare-sizes"),
    pytest.param(["qre", "kuhn", "--lambda", "0,1", "--lambda", "10"], "qre", id="qre-points"),
    pytest.param(["qre", "kuhn", "--fit", "{folder}/counts.csv", "--quiet"], "qre", id="qre-fit"),
    pytest.param(["exploit", "kuhn", "--opponent", "always-bluff"], "exploit", id="exploit"),
    pytest.param(["exploit", "kuhn", "--opponent", "never-bluff", "--exact", "--player", "2"],
                 "exploit", id="exploit-exact"),
    pytest.param(["exploit", "kuhn", "--opponent", "never-bluff", "--strategies", "summary"],
                 "exploit", id="exploit-summary"),
    pytest.param(["games"], "games", id="games"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "kind"), KINDS)
def test_the_text_is_rendered_from_the_printed_document(
    argv: list[str], kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "counts.csv").write_text(COUNTS)
    document, text, args = _printed([a.format(folder=tmp_path) for a in argv], monkeypatch)
    printed = json.loads(document_text(document))  # what --format json prints, read back
    assert _renderer(kind)(printed, **_options(document, args)) == text


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        node = document
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


CHANGES = [
    pytest.param(["games"], ("games", 0, "summary"), "A SUMMARY NOBODY WROTE", id="games"),
    pytest.param(["exploit", "kuhn", "--opponent", "always-bluff"], ("gain_exact",), "7/9",
                 id="exploit-gain"),
    pytest.param(["exploit", "kuhn", "--opponent", "always-bluff"],
                 ("fixed", "strategy", "infosets", 0, "actions", 0, "probability"), "3/7",
                 id="exploit-strategy"),
    pytest.param(["compare", "kuhn", "--no-solve"],
                 ("overall", "pure_strategy_profiles", "exact"), "123456789",
                 id="compare-profiles"),
    pytest.param(["compare", "kuhn", "--no-solve"], ("structured_payoff_nonzeros",), 4321,
                 id="compare-structured"),
    pytest.param(["qre", "kuhn", "--lambda", "1"], ("points", 0, "nash_conv"), 0.123456,
                 id="qre-nash-conv"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "path", "value"), CHANGES)
def test_a_field_changed_in_the_document_shows_in_the_text(
    argv: list[str], path: tuple[Any, ...], value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    document, text, args = _printed(argv, monkeypatch)
    changed = copy.deepcopy(document)
    _set(path, value)(changed)
    shown = _renderer(argv[0])(changed, **_options(document, args))
    assert shown != text
    wanted = {"4321": "4,321", "123456789": "123,456,789", "0.123456": "0.123"}.get(
        str(value), str(value)
    )
    assert wanted in shown and wanted not in text
