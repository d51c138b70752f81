"""A spot's report from CFR as from the LP, and saved spot results reopened by ``show``:
the same report, ``--hand``, ``--node``, ``--grid``, the HTML page (its structure, read
with the standard library's parser; the page is looked at in a browser by
``benchmarks/html_report.py``), and every wrong file refused in one line."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from spot_files import RIVER

import seqform
from seqform.cli.main import main
from seqform.documents.build import document
from seqform.documents.spots.spot import definition_json, node_json
from seqform.holdem import action_frequencies, class_mix, decision_histories, spot_game
from seqform.holdem.spot import read_spot, spot_from_mapping
from seqform.io.documents import validate_document
from seqform.io.spot_results import SpotResultError, read_spot_result
from seqform.routes.structured import solve_structured
from seqform.structured.responses import sequence_tables
from tests.spot_files import SMALL


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    return path


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _saved(argv: list[str], path: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    code, _, _ = _run([*argv, "--format", "json", "--output", str(path)], capsys)
    assert code == 0
    return json.loads(path.read_text())


def test_iterate_reports_a_spot_as_solve_does(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solved = _saved(["solve", str(small)], tmp_path / "lp.json", capsys)["spot"]
    iterated = document(seqform.iterate(str(small), "cfr+", iterations=100, reference=False))
    validate_document(iterated)
    spot = iterated["spot"]
    assert sorted(spot) == sorted(solved)
    assert sorted(spot["opening_grid"]) == sorted(solved["opening_grid"])
    assert spot["definition"] == solved["definition"]
    assert spot["ev"]["oop"] + spot["ev"]["ip"] == pytest.approx(10)
    # the exploitability is NashConv / 2 of the average (the certificate's, in chips)
    assert spot["exploitability"] == pytest.approx(iterated["certificate"]["nash_conv"] / 2)
    assert spot["exploitability_pot"] == pytest.approx(spot["exploitability"] / 10)
    # |u(σ̄) − v*| ≤ NashConv(σ̄): each player's value lies within its own gain of v*
    # (v* − gain_2 ≤ u_1(σ̄) ≤ v* + gain_1), so the EVs are that close to the LP's
    gap = abs(spot["ev"]["oop"] - solved["ev"]["oop"])
    assert 0 < spot["exploitability"] < 0.05 and gap <= 2 * spot["exploitability"] + 1e-9
    for lp, cfr in zip(solved["frequencies"], spot["frequencies"], strict=True):
        assert lp["actions"].keys() == cfr["actions"].keys()
    argv = ["iterate", str(small), "--algorithm", "cfr+", "--iterations", "20", "--quiet"]
    code, text, _ = _run([*argv, "--no-reference", "--hand", "AhAd"], capsys)
    assert code == 0
    assert "Spot (pot 10, combos 10 OOP / 10 IP)" in text
    assert "of the pot; NashConv / 2)" in text and "OOP first decision: % of each" in text
    assert "AhAd (OOP, weight 1; showdown equity" in text


def test_hand_on_iterate_needs_vector_cfr(small: Path, capsys: pytest.CaptureFixture[str]):
    argv = ["iterate", str(small), "--algorithm", "xfp", "--iterations", "2", "--hand", "AhAd"]
    code, _, err = _run(argv, capsys)
    assert code == 2 and "--hand needs vector CFR" in err


@pytest.mark.parametrize("command", ["solve", "iterate"])
def test_show_reopens_the_saved_report(
    command: str, small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [command, str(small)]
    if command == "iterate":
        argv += ["--algorithm", "cfr+", "--iterations", "20", "--quiet", "--no-reference"]
    saved = tmp_path / "result.json"
    _saved(argv, saved, capsys)
    # the text as the command printed it, rendered again from the saved document
    code, printed, _ = _run([*argv, "--format", "text", "--hand", "AA"], capsys)
    assert code == 0
    code, shown, _ = _run(["show", str(saved), "--hand", "AA"], capsys)
    assert code == 0
    report, _, decisions = shown.rpartition("\n\nDecisions (show --node HISTORY): ")
    solver_lines = ("Solver:", "  LP ", "Run:", "        ")  # timings differ from run to run
    kept = [line for line in printed.splitlines() if not line.startswith(solver_lines)]
    again = [line for line in report.splitlines() if not line.startswith(solver_lines)]
    assert again == kept
    # b30 is all-in (stack 30), offered beside the 0.5-pot bet
    assert decisions.startswith("root (OOP), x (IP), b5 (IP), b30 (IP), x-b5 (OOP)")


def test_show_a_node_and_its_grids(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "result.json"
    document = _saved(["solve", str(small)], saved, capsys)
    code, text, _ = _run(["show", str(saved), "--node", "x"], capsys)
    assert code == 0
    after_check = document["spot"]["frequencies"][1]  # IP after a check, as the report has it
    shares = " ".join(f"{a} {100 * f:.0f}%" for a, f in after_check["actions"].items())
    assert f"IP after x: {shares}" in text
    assert text.count("% of each hand class that plays") == 1  # the bet's grid
    code, text, _ = _run(["show", str(saved), "--node", "root", "--grid"], capsys)
    assert code == 0 and text.count("% of each hand class that plays") == 3  # x, b5, b30
    code, _, err = _run(["show", str(saved), "--node", "x-x"], capsys)
    assert code == 2 and "no decision after 'x-x'; the spot's decisions are root, 'x'" in err


def test_a_class_mix_averages_to_the_ranges_frequencies(tmp_path: Path) -> None:
    path = tmp_path / "river.toml"
    path.write_text(RIVER)
    game = spot_game(read_spot(path))
    strategies = solve_structured(game).strategies
    histories = decision_histories(strategies)
    assert histories[:2] == ((0, ""), (1, "x"))
    assert len({history for _, history in histories}) == len(histories)
    for player, history in histories:
        mix = class_mix(game, strategies[player], history)
        found = action_frequencies(game, strategies[player], history)
        assert found is not None and found.actions == mix.actions
        if mix.weight.sum() > 0:  # the weights add up to 1 and average the cells to the range
            assert mix.weight.sum() == pytest.approx(1)
            averaged = (mix.weight[..., None] * np.nan_to_num(mix.mix)).sum(axis=(0, 1))
            assert averaged == pytest.approx(found.frequencies)
        else:
            assert np.isnan(found.frequencies).all()
        node = node_json(mix)  # a decision reached only by a float zero is not shown
        assert node["reached"] == (mix.reach > 1e-9)
        if node["reached"]:
            assert list(node["actions"].values()) == pytest.approx(found.frequencies)


def test_the_definition_reads_back_to_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "river.toml"
    path.write_text(RIVER.replace("bet_sizes = [0.5]", "bet_sizes = [0.5, 1.25]"))
    spot = read_spot(path)
    again = spot_from_mapping(definition_json(spot), name=spot.name)
    assert again == spot
    first, second = sequence_tables(spot_game(spot)), sequence_tables(spot_game(again))
    assert [t.infosets for t in first] == [t.infosets for t in second]


# A flop spot with every key a flop spot may add to a river's: a donk size, TexasSolver's
# all-in threshold and a street table (tests/test_holdem_flop.py's TINY flop, stacks of one
# pot so that the flop's public tree stays small).
STREETS = {
    "board": "Ks7h2d",
    "pot": 2,
    "effective_stack": 2,
    "oop_range": "AhAd,KhQh",
    "ip_range": "AsKd,QdQc:0.5",
    "bet_sizes": [1],
    "max_raises": 0,
    "all_in": False,
    "donk_sizes": [0.5],
    "all_in_threshold": 0.9,
    "turn": {"bet_sizes": [0.5], "ip_all_in": True},
}


@pytest.mark.parametrize("board", ["Ks7h2d", "Ks7h2d9c"])
def test_the_definition_keeps_donks_the_threshold_and_street_tables(board: str) -> None:
    spot = spot_from_mapping({**STREETS, "board": board}, name="streets")
    assert spot.tables and spot.donk_sizes and spot.all_in_threshold  # a real test
    definition = definition_json(spot)
    assert definition["turn"]["ip_all_in"] is True and definition["all_in_threshold"] == 0.9
    assert spot_from_mapping(definition, name=spot.name) == spot
    assert json.loads(json.dumps(definition)) == definition  # plain JSON


def _show_gives_the_report(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``show`` of the result ``argv`` saves prints the report ``argv`` prints (but the
    timings, which differ from run to run)."""
    saved = tmp_path / "result.json"
    _saved(argv, saved, capsys)
    code, printed, _ = _run([*argv, "--format", "text"], capsys)
    assert code == 0
    code, shown, err = _run(["show", str(saved)], capsys)
    assert code == 0, err
    report = shown.rpartition("\n\nDecisions (show --node HISTORY): ")[0]
    timings = ("Solver:", "  LP ", "Run:", "        ")
    kept = [line for line in printed.splitlines() if not line.startswith(timings)]
    assert [line for line in report.splitlines() if not line.startswith(timings)] == kept


def test_show_reopens_a_turn_spot_with_a_street_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spot = tmp_path / "turn.toml"
    spot.write_text(
        'board = "Ks7h2d9c"\npot = 2\neffective_stack = 6\noop_range = "AhAd,KhQh"\n'
        'ip_range = "AsKd,QdQc:0.5"\nbet_sizes = [1]\nmax_raises = 0\n'
        "donk_sizes = [0.5]\nall_in_threshold = 0.9\n[turn]\nbet_sizes = [0.5]\n"
    )
    _show_gives_the_report(["solve", str(spot)], tmp_path, capsys)


class _Page(HTMLParser):
    """What the test reads of the page: tags, grid cells, external references."""

    def __init__(self) -> None:
        super().__init__()
        self.grids = 0
        self.cells = 0
        self.sections = 0
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table" and found.get("class") == "grid":
            self.grids += 1
        if tag == "td" and self.grids:
            self.cells += 1
        if tag == "section":
            self.sections += 1
        for key in ("src", "href"):
            if found.get(key) and not str(found[key]).startswith("#"):
                self.external.append(str(found[key]))
        if tag == "link" or tag == "script":
            self.external.append(tag)


def test_the_html_report_has_a_grid_per_decision(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "result.json"
    _saved(["solve", str(small)], saved, capsys)
    page = tmp_path / "report.html"
    code, _, err = _run(["show", str(saved), "--html", str(page)], capsys)
    assert code == 0 and f"wrote {page}" in err
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    parsed = _Page()
    parsed.feed(text)
    decisions = decision_histories(read_spot_result(saved).strategies)
    reached = len(decisions) - text.count("never reached by its own strategy")
    assert parsed.sections == len(decisions) and parsed.grids == reached
    assert parsed.cells == 169 * reached
    assert parsed.external == []  # self-contained: nothing fetched
    assert "EV</b></td><td>OOP 5.2451 chips (52.45% of the pot)" in text


@pytest.mark.parametrize("name", ["report.json", "report", "report.txt"])
def test_an_html_report_must_be_named_html(
    name: str, small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--html report.json` wrote a web page where a reader of JSON would look
    saved = tmp_path / "result.json"
    _saved(["solve", str(small)], saved, capsys)
    page = tmp_path / name
    code, out, err = _run(["show", str(saved), "--html", str(page)], capsys)
    assert code == 2 and out == "" and not page.exists()
    assert err == (
        f"seqform: error: --html {page}: the HTML report needs a file ending in .html or .htm\n"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(lambda d: "not json", "not JSON", id="not-json"),
        pytest.param(lambda d: {**d, "schema": "seqform.nothing/9"}, "'schema' is", id="kind"),
        pytest.param(lambda d: [d], "not a seqform document", id="list"),
        pytest.param(
            lambda d: {**d, "spot": {k: v for k, v in d["spot"].items() if k != "definition"}},
            "'spot' has no 'definition'",
            id="no-definition",
        ),
        pytest.param(
            lambda d: {**d, "spot": {**d["spot"], "ev": "lots"}}, "at spot/ev", id="schema"
        ),
        pytest.param(
            lambda d: {
                **d,
                "spot": {
                    **d["spot"],
                    "definition": {**d["spot"]["definition"], "ip_range": "QQ"},
                },
            },
            "no information set",
            id="another-spot",
        ),
        pytest.param(
            lambda d: {
                **d,
                "spot": {**d["spot"], "definition": {**d["spot"]["definition"], "board": "Ks"}},
            },
            "spot/definition",
            id="bad-definition",
        ),
        # null stands for a number beyond the floats: the value was shown as +inf
        pytest.param(lambda d: {**d, "value": None}, "'value' is null", id="value-null"),
        pytest.param(lambda d: {**d, "value": 3.0}, "is not 'value_fraction'", id="value-edited"),
        pytest.param(
            lambda d: {**d, "value_fraction": "1/0"}, "is not a fraction", id="fraction-over-0"
        ),
    ],
)
def test_show_refuses_a_wrong_file_in_one_line(
    change, message: str, small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _saved(["solve", str(small)], tmp_path / "good.json", capsys)
    bad = tmp_path / "bad.json"
    changed = change(document)
    bad.write_text(changed if isinstance(changed, str) else json.dumps(changed))
    code, out, err = _run(["show", str(bad)], capsys)
    assert code == 1 and out == ""
    assert err.startswith("seqform: error: ") and err.count("\n") == 1
    assert str(bad) in err and message in err
    with pytest.raises(SpotResultError, match=r"bad\.json"):
        read_spot_result(bad)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"value_fraction": "a third"}, "is not a fraction", id="fraction-words"),
        pytest.param({"value": "2.58"}, "'value' '2.58' is not a number", id="value-text"),
    ],
)
def test_without_jsonschema_the_value_is_still_checked(
    change: dict, message: str, small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from seqform.io import spot_results

    document = _saved(["solve", str(small)], tmp_path / "good.json", capsys)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**document, **change}))
    with pytest.MonkeyPatch.context() as patch:  # jsonschema is optional (the dev extra)
        patch.setattr(spot_results, "_check_schema", lambda document, where: None)
        with pytest.raises(SpotResultError, match=message):
            read_spot_result(bad)


def test_a_value_beyond_the_floats_is_read_from_its_fraction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a payoff of -10^400 (beyond the floats): the exact route writes the value as null and
    # its fraction; show renders it, signed, and refuses a float put in its place
    big = "1" + "0" * 400
    game = tmp_path / "huge.efg"
    game.write_text(
        'EFG 2 R "huge" { "P1" "P2" } ""\n'
        'p "" 1 1 "" { "a" "b" } 0\n'
        f't "" 1 "o1" {{ -{big}, {big} }}\n'
        f't "" 2 "o2" {{ -{big}0, {big}0 }}\n'
    )
    document = _saved(["solve", str(game), "--exact"], tmp_path / "good.json", capsys)
    assert document["value"] is None and document["value_fraction"] == f"-{big}"
    code, out, _ = _run(["show", str(tmp_path / "good.json")], capsys)
    assert code == 0 and "Value to P1: -1.0000000000e+400" in out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**document, "value": -1e300}))
    code, out, err = _run(["show", str(bad)], capsys)
    assert code == 1 and out == "" and "is not 'value_fraction'" in err


def test_a_probability_out_of_range_names_its_place(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from seqform.io import spot_results

    document = _saved(["solve", str(small)], tmp_path / "good.json", capsys)
    document["strategies"][1]["infosets"][2]["actions"][0]["probability"] = 1.5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    # without the schema check (jsonschema is optional), the reader's own check names it
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spot_results, "_check_schema", lambda document, where: None)
        with pytest.raises(SpotResultError, match=r"strategies/1/infosets/2: a probability"):
            read_spot_result(bad)


def _first_set(document: dict) -> dict:
    return document["strategies"][0]["infosets"][0]


def _set_first(document: dict, change) -> dict:
    changed = json.loads(json.dumps(document))
    change(_first_set(changed), changed)
    return changed


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(
            lambda s, d: s["actions"][0].update(probability=min(1.0, _p(s, 0) + 0.5)),
            "probabilities sum to",
            id="sum-above-1",
        ),
        pytest.param(
            lambda s, d: [a.update(probability=0.0) for a in s["actions"]],
            "probabilities sum to 0",
            id="all-zero",
        ),
        pytest.param(
            lambda s, d: s["actions"].remove(max(s["actions"], key=lambda a: a["probability"])),
            "probabilities sum to",
            id="dropped",
        ),
        pytest.param(
            lambda s, d: s["actions"][0].update(action="q"), "unknown action 'q'", id="renamed"
        ),
        pytest.param(
            lambda s, d: s["actions"].append(dict(s["actions"][0])),
            "is given twice",
            id="action-twice",
        ),
        pytest.param(
            lambda s, d: d["strategies"][0]["infosets"].append(dict(s)),
            "is given twice",
            id="set-twice",
        ),
        pytest.param(
            lambda s, d: d["strategies"].append(dict(d["strategies"][0])),
            "a list of 3 breaks the rule maxItems 2",  # the schema's words, short
            id="player-twice",
        ),
    ],
)
def test_show_refuses_a_corrupt_strategy_naming_the_set(
    change, message: str, small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # what exploit and play refuse in a strategy file, show refuses in a saved result: a
    # report of frequencies that do not sum to 1 would be a wrong answer, not a view
    document = _saved(["solve", str(small)], tmp_path / "good.json", capsys)
    name = _first_set(document)["name"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_set_first(document, change)))
    code, out, err = _run(["show", str(bad), "--node", "root"], capsys)
    assert code == 1 and out == ""
    assert err.startswith("seqform: error: ") and err.count("\n") == 1
    assert str(bad) in err and message in err
    if "maxItems" not in message:  # the reader's own checks name the information set
        assert name in err and "strategies/0/infosets/" in err


def _p(infoset: dict, k: int) -> float:
    return float(infoset["actions"][k]["probability"])


def test_a_structured_result_without_its_spot_is_shown_as_its_report(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # show reopens any result (tests/test_show_results.py); a spot's options need a spot's
    document = _saved(["solve", str(small)], tmp_path / "good.json", capsys)
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({k: v for k, v in document.items() if k != "spot"}))
    code, out, err = _run(["show", str(bare)], capsys)
    assert code == 0 and out.startswith("Game: ") and err == ""
    code, out, err = _run(["show", str(bare), "--node", "x"], capsys)
    assert code == 2 and out == ""
    assert err == (
        f"seqform: error: --node: {bare} is a seqform.structured/2 document, not a hold'em "
        "spot's result; without it show prints its report\n"
    )
    with pytest.raises(SpotResultError, match="not a hold'em spot's"):
        read_spot_result(bare)
