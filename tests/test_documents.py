"""Every ``--format json`` output against its JSON Schema.

The schemas are package data (``seqform/io/schemas``, :mod:`seqform.io.documents`); each
command's document is validated with ``jsonschema`` (draft 2020-12), a wrong document must
fail, and the strategies a document holds are read back by the one reader
(:mod:`seqform.io.strategy_files`) as written.
"""

from __future__ import annotations

import copy
import json
import re
from fractions import Fraction
from importlib import resources
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from test_inputs import SEATS

from seqform.cli.main import main
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.io.documents import (
    DOCUMENTS,
    DocumentError,
    load_schema,
    schema_id,
    validate_document,
)
from seqform.io.strategy_files import read_strategy_file


def _document(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main([*argv, "--format", "json"]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


# --- the schemas as package data -----------------------------------------------------------------


@pytest.mark.parametrize("name", [*DOCUMENTS.values(), "common"])
def test_each_schema_is_package_data_and_a_valid_draft_2020_12_schema(name: str) -> None:
    path = resources.files("seqform.io").joinpath("schemas", f"{name}.schema.json")
    assert path.is_file()
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] and schema["description"]
    assert schema == load_schema(name)


@pytest.mark.parametrize(("kind", "name"), DOCUMENTS.items())
def test_each_document_schema_names_its_kind(kind: str, name: str) -> None:
    schema = load_schema(name)
    assert schema["$id"] == schema_id(kind)
    assert schema["properties"]["schema"]["const"] == kind


def _undescribed(node: Any, where: str) -> list[str]:
    """The properties under ``node`` with neither a description nor a ``$ref`` to one."""
    missing: list[str] = []
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            if "description" not in value and "$ref" not in value:
                missing.append(f"{where}.{key}")
        for key, value in node.items():
            missing += _undescribed(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            missing += _undescribed(value, f"{where}[{index}]")
    return missing


@pytest.mark.parametrize("name", [*DOCUMENTS.values(), "common"])
def test_every_field_is_described(name: str) -> None:
    assert _undescribed(load_schema(name), name) == []


# --- every command's document --------------------------------------------------------------------

COMMANDS = [
    pytest.param(["solve", "kuhn"], "seqform.solve/2", id="solve-auto"),
    pytest.param(["solve", "kuhn", "--method", "tree"], "seqform.solve/2", id="solve-tree"),
    pytest.param(
        ["solve", "kuhn", "--method", "structured"], "seqform.structured/2", id="solve-structured"
    ),
    pytest.param(["solve", "kuhn", "--method", "normal"], "seqform.solve/2", id="solve-normal"),
    pytest.param(["solve", "kuhn", "--exact"], "seqform.solve/2", id="solve-exact"),
    pytest.param(["solve", "kuhn", "--refine"], "seqform.solve/2", id="solve-refine"),
    pytest.param(["solve", "kuhn", "--fix", "K:b=1"], "seqform.solve/2", id="solve-fix"),
    pytest.param(
        ["solve", "kuhn", "--exact", "--fix", "J:b<=1/4"], "seqform.solve/2", id="solve-exact-fix"
    ),
    pytest.param(
        ["solve", "kuhn", "--method", "structured", "--exact"],
        "seqform.structured/2",
        id="solve-structured-exact",
    ),
    pytest.param(["compare", "kuhn"], "seqform.compare/2", id="compare"),
    pytest.param(["ranges", "kuhn"], "seqform.ranges/2", id="ranges"),
    pytest.param(["ranges", "kuhn", "--exact"], "seqform.ranges/2", id="ranges-exact"),
    pytest.param(
        ["exploit", "kuhn", "--opponent", "always-bluff"], "seqform.exploit/2", id="exploit"
    ),
    pytest.param(
        ["exploit", "kuhn", "--opponent", "never-bluff", "--exact"],
        "seqform.exploit/2",
        id="exploit-exact",
    ),
    pytest.param(
        ["iterate", "kuhn", "--algorithm", "cfr+", "--iterations", "20"],
        "seqform.iterate/2",
        id="iterate",
    ),
    pytest.param(
        ["iterate", "kuhn", "--algorithm", "mccfr", "--iterations", "20", "--seed", "3"],
        "seqform.iterate/2",
        id="iterate-mccfr",
    ),
    pytest.param(
        ["iterate", "kuhn", "--algorithm", "cfr+", "--method", "structured", "--iterations", "5"],
        "seqform.iterate/2",
        id="iterate-structured",
    ),
    pytest.param(
        ["iterate", "kuhn3", "--algorithm", "pcfr+", "--iterations", "5"],
        "seqform.iterate/2",
        id="iterate-three-players",
    ),
    pytest.param(["games"], "seqform.games/1", id="games"),
    pytest.param(["qre", "kuhn", "--quiet"], "seqform.qre/2", id="qre-trace"),
    pytest.param(
        ["qre", "kuhn", "--lambda", "0,1", "--lambda", "10"], "seqform.qre/2", id="qre-lambda"
    ),
]


@pytest.mark.parametrize(("argv", "kind"), COMMANDS)
def test_every_command_writes_a_document_its_schema_accepts(
    argv: list[str], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document(argv, capsys)
    assert document["schema"] == kind
    validate_document(document)


def test_a_qre_fit_writes_a_document_its_schema_accepts(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    # observed counts in the CSV format of docs/qre.md
    data = tmp_path / "counts.csv"
    data.write_text("player,infoset,action,count\n1,J,p,40\n1,J,b,10\n2,Kb,b,12\n")
    document = _document(["qre", "kuhn", "--fit", str(data), "--quiet"], capsys)
    assert document["mode"] == "fit" and document["fit"]["observations"] == 62
    validate_document(document)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("argv", "kind"),
    [
        pytest.param(["solve", "leduc"], "seqform.solve/2", id="solve-leduc"),
        pytest.param(
            ["solve", "leduc", "--method", "structured"], "seqform.structured/2", id="structured"
        ),
        pytest.param(["compare", "leduc"], "seqform.compare/2", id="compare-leduc"),
    ],
)
def test_larger_games_write_documents_their_schema_accepts(
    argv: list[str], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document(argv, capsys)
    assert document["schema"] == kind
    validate_document(document)


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param([], id="float"),
        pytest.param(["--exact"], id="exact"),
        pytest.param(["--method", "normal"], id="normal"),
    ],
)
def test_a_constant_sum_game_writes_the_constant_sum_key(
    extra: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    # the Seats game of tests/test_inputs.py: every terminal pays 10 in total
    path = tmp_path / "seats.efg"
    path.write_text(SEATS, encoding="utf-8")
    document = _document(["solve", str(path), *extra], capsys)
    assert document["constant_sum"]["total"] == "10"
    validate_document(document)


@pytest.mark.parametrize(
    "extra", [pytest.param([], id="float"), pytest.param(["--exact"], id="exact")]
)
def test_a_constant_sum_games_ranges_carry_the_constant_sum(
    extra: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    # the Seats game of tests/test_inputs.py: every terminal pays 10 in total
    path = tmp_path / "seats.efg"
    path.write_text(SEATS, encoding="utf-8")
    document = _document(["ranges", str(path), *extra], capsys)
    shifted = document["constant_sum"]
    assert shifted["total"] == "10"
    assert shifted["value_to_player_2"] == pytest.approx(10 - document["value"])
    assert (shifted["value_to_player_2_exact"] is not None) == bool(extra)
    validate_document(document)


def test_the_tree_route_is_called_tree_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    # as the CLI's --method tree: the documents said "sequence" where the CLI said tree
    assert _document(["solve", "kuhn", "--method", "tree"], capsys)["method"] == "tree"


# --- wrong documents fail ---------------------------------------------------------------------


def _without(key: str) -> Any:
    def change(document: dict[str, Any]) -> None:
        del document[key]

    return change


def _set(value: Any, *path: Any) -> Any:
    def change(document: dict[str, Any]) -> None:
        node: Any = document
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return change


MUTATIONS = [
    pytest.param(_without("certificate"), "(top)", id="missing-certificate"),
    pytest.param(_set("sequence-form", "method"), "method", id="unknown-method"),
    pytest.param(_set("-1/18", "value"), "value", id="value-as-string"),
    pytest.param(_set("0.5", "value_fraction"), "value_fraction", id="decimal-as-fraction"),
    pytest.param(_set(1.5, "strategies", 0, "infosets", 0, "actions", 0, "probability"),
                 "strategies/0/infosets/0/actions/0/probability", id="probability-above-one"),
    pytest.param(_set([], "strategies"), "strategies", id="no-strategies"),
    pytest.param(_set(True, "surprise"), "(top)", id="undocumented-key"),
    pytest.param(_set(3, "sizes", "payoff_shape"), "sizes/payoff_shape", id="shape-not-a-pair"),
]  # fmt: skip


@pytest.fixture(scope="module")
def kuhn_document() -> dict[str, Any]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["solve", "kuhn", "--format", "json"]) == 0
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


@pytest.mark.parametrize(("mutate", "where"), MUTATIONS)
def test_a_wrong_document_fails_its_schema(
    kuhn_document: dict[str, Any], mutate: Any, where: str
) -> None:
    validate_document(kuhn_document)  # the unchanged document passes
    wrong = copy.deepcopy(kuhn_document)
    mutate(wrong)
    with pytest.raises(DocumentError, match=re.escape(f"at {where}:")):
        validate_document(wrong)


def test_a_document_of_no_known_kind_is_refused() -> None:
    with pytest.raises(DocumentError, match="not a seqform document"):
        validate_document({"schema": "seqform.unknown/1"})


# --- the reader reads back what the builders write ------------------------------------------------


def _probabilities(entry: dict[str, Any]) -> dict[str, dict[str, Fraction]]:
    return {
        infoset["name"]: {
            action["action"]: Fraction(action["probability"]) for action in infoset["actions"]
        }
        for infoset in entry["infosets"]
    }


@pytest.mark.parametrize(
    ("argv", "tolerance"),
    [
        pytest.param(["solve", "kuhn", "--exact"], 0, id="solve-exact"),
        pytest.param(["solve", "kuhn"], 1e-12, id="solve"),
        pytest.param(["iterate", "kuhn", "--algorithm", "cfr+", "--iterations", "20"], 1e-12,
                     id="iterate"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("player", [0, 1])
def test_the_reader_reads_back_the_strategies_a_document_holds(
    argv: list[str],
    tolerance: float,
    player: int,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Any,
) -> None:
    document = _document(argv, capsys)
    path = tmp_path / "document.json"
    path.write_text(json.dumps(document))
    read = read_strategy_file(path, kuhn_poker(), player)
    # an exact solve's exact strategies are under "exact"; floats sum to 1 up to rounding,
    # which the reader rescales away (SUM_TOLERANCE)
    written = _probabilities(document.get("exact", document)["strategies"][player])
    assert read.player == player and list(read.probabilities) == list(written)
    for infoset, actions in written.items():
        assert list(read.probabilities[infoset]) == list(actions)
        for action, probability in actions.items():
            assert abs(read.probabilities[infoset][action] - probability) <= tolerance


def test_a_document_written_before_the_method_was_renamed_is_still_read(
    kuhn_document: dict[str, Any], tmp_path: Any
) -> None:
    old = {**copy.deepcopy(kuhn_document), "method": "sequence"}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    read = read_strategy_file(path, kuhn_poker(), 0)
    assert read.player == 0 and len(read.probabilities) == len(old["strategies"][0]["infosets"])
