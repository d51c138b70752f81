"""The text reports are rendered from the JSON documents (issue 30, point 4): for each kind
converted, the text rendered from the document ``--format json`` prints (parsed back from its
JSON) is the command's text, and a field changed in the document shows in the text."""

from __future__ import annotations

import copy
import importlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_inputs import SEATS  # a constant-sum game: every terminal pays 10 in total

import seqform
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
        "ranges": ("ranges", "ranges_text"),
        "iterate": ("iterate", "iterate_text"),
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

    def emit(document: dict[str, Any], text: Any, args: Any) -> None:
        seen.append(
            (document, text if isinstance(text, str) else text(), args)
        )  # text or its maker

    monkeypatch.setattr(module, "emit", emit)
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
    pytest.param(["compare", "{folder}/seats.efg", "--no-solve"], "compare",
                 id="compare-no-solve"),
    pytest.param(["compare", "kuhn", "--no-solve"], "compare", id="compare-no-solve-kuhn"),
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
    pytest.param(["ranges", "kuhn"], "ranges", id="ranges"),
    pytest.param(["ranges", "kuhn", "--exact"], "ranges", id="ranges-exact",
                 marks=pytest.mark.slow),
    pytest.param(["ranges", "kuhn", "--strategies", "summary"], "ranges", id="ranges-summary"),
    pytest.param(["ranges", "{folder}/seats.efg"], "ranges", id="ranges-constant-sum"),
    pytest.param(["ranges", "{folder}/seats.efg", "--exact"], "ranges",
                 id="ranges-constant-sum-exact"),
    pytest.param(["iterate", "kuhn", "--algorithm", "cfr", "--iterations", "30", "--every", "1",
                  "--no-reference", "--quiet"], "iterate", id="iterate-history"),
    pytest.param(["iterate", "kuhn", "--algorithm", "pcfr+", "--iterations", "20", "--quiet"],
                 "iterate", id="iterate-last-iterate"),
    pytest.param(["iterate", "kuhn3", "--algorithm", "cfr", "--iterations", "5", "--quiet"],
                 "iterate", id="iterate-three-players"),
    pytest.param(["iterate", "kuhn", "--algorithm", "mccfr", "--iterations", "50", "--seed", "1",
                  "--no-reference", "--quiet"], "iterate", id="iterate-mccfr"),
    pytest.param(["iterate", "kuhn", "--algorithm", "cfr+", "--method", "structured",
                  "--iterations", "10", "--quiet"], "iterate", id="iterate-structured"),
    pytest.param(["iterate", "kuhn", "--algorithm", "cfr", "--target-exploitability", "0.05",
                  "--strategies", "summary", "--quiet"], "iterate", id="iterate-target"),
    pytest.param(["iterate", "{folder}/seats.efg", "--algorithm", "cfr", "--iterations", "5",
                  "--quiet"], "iterate", id="iterate-constant-sum"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "kind"), KINDS)
def test_the_text_is_rendered_from_the_printed_document(
    argv: list[str], kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "counts.csv").write_text(COUNTS)
    (tmp_path / "seats.efg").write_text(SEATS)
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
    pytest.param(["compare", "kuhn"],
                 ("overall", "pure_strategy_profiles", "exact"), "123456789",
                 id="compare-profiles"),
    pytest.param(["compare", "kuhn"], ("structured_payoff_nonzeros",), 4321,
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


CFR = ["iterate", "kuhn", "--algorithm", "cfr", "--iterations", "5", "--quiet", "--no-reference"]
PCFR = ["iterate", "kuhn", "--algorithm", "pcfr+", "--iterations", "5", "--quiet", "--no-reference"]

RANGES_AND_ITERATE = [
    pytest.param(["ranges", "kuhn"], ("players", 0, "infosets", 0, "actions", 0, "words"),
                 "wager", "  J        wager ", id="ranges-words"),
    pytest.param(["ranges", "kuhn"], ("players", 0, "parametrisation", "parameter"), "Q:b",
                 "t = x[Q:b] ranges over", id="ranges-parameter"),
    pytest.param(["ranges", "kuhn"], ("players", 1, "infosets", 0, "actions", 0, "probability"),
                 {"low": 0.25, "high": 0.5}, "  Qp       check   [1/4, 1/2]", id="ranges-interval"),
    pytest.param(["ranges", "kuhn", "--exact"], ("value_exact",), "-1/17", "(= -1/17)",
                 id="ranges-exact-value", marks=pytest.mark.slow),
    pytest.param(["ranges", "kuhn"], ("constant_sum",),
                 {"total": "7", "value_to_player_2": 7.5, "value_to_player_2_exact": None,
                  "treated_as": "zero-sum"}, "= +7.5000000000", id="ranges-constant-sum"),
    pytest.param(["iterate", "kuhn", "--algorithm", "cfr", "--iterations", "5", "--quiet"],
                 ("reference", "value_distance"), 0.123456, "the estimate is 1.23e-01 away",
                 id="iterate-reference"),
    pytest.param(CFR, ("players", 1, "gain"), 0.000123456, "  1.235e-04", id="iterate-gain"),
    pytest.param(CFR, ("method",), "structured", "measured by best responses on the public tree",
                 id="iterate-method"),
    pytest.param(CFR, ("stopped",), "interrupted", "stopped by an interrupt (Ctrl-C)",
                 id="iterate-stopped"),
    pytest.param(CFR, ("certificate", "expected_value"), 0.25,
                 "expected value                 +0.25", id="iterate-certificate"),
    pytest.param(CFR, ("strategies", 1, "infosets", 0, "actions", 0, "words"), "wait",
                 "  Qp       wait ", id="iterate-strategy"),
    pytest.param(PCFR, ("last_iterate_nash_conv",), None, "Last iterate: NashConv nan",
                 id="iterate-last-iterate-failed"),
    pytest.param(["iterate", "kuhn3", "--algorithm", "cfr", "--iterations", "5", "--quiet",
                  "--no-reference"], ("players", 2, "gain"), 10.0,
                 "NashConv (the sum of the gains) 10.", id="iterate-nash-conv"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "path", "value", "wanted"), RANGES_AND_ITERATE)
def test_a_field_of_a_ranges_or_iterate_document_shows_in_the_text(
    argv: list[str],
    path: tuple[Any, ...],
    value: Any,
    wanted: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    document, text, args = _printed(argv, monkeypatch)
    changed = copy.deepcopy(document)
    _set(path, value)(changed)
    shown = _renderer(argv[0])(changed, args.strategies)
    assert wanted in shown and wanted not in text


def _timeless(text: str) -> str:
    """``text`` with every measured time written ``<time>``: ``0.31 s``, and the solver
    seconds of the NashConv history's rows."""
    text = re.sub(r"\d+\.\d+ s\b", "<time> s", text)
    return re.sub(r"^(\s+[\d,]+\s+)\d+\.\d{3}(\s)", r"\1<time>\2", text, flags=re.MULTILINE)


def test_render_text_of_ranges_and_iterate_is_the_command_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["ranges", "kuhn"])
    ranges = seqform.render_text(seqform.equilibrium_ranges(seqform.load_game("kuhn")))
    assert _timeless(ranges + "\n") == _timeless(capsys.readouterr().out)
    main(["iterate", "kuhn", "--algorithm", "pcfr+", "--iterations", "5", "--no-reference"])
    run = seqform.render_text(seqform.iterate("kuhn", "pcfr+", iterations=5, reference=False))
    assert _timeless(run + "\n") == _timeless(capsys.readouterr().out)
