"""What a solve does outside the LP, done once and fast, with the same answer: the game
numbered once per solve, the strategy objects read off whole arrays, the text summary's
floats read without a Fraction, the document built with the cycle collector paused."""

from __future__ import annotations

import gc
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from spot_files import RIVER

from seqform.documents.build import document
from seqform.documents.layout import strategies as layout
from seqform.documents.objects import (
    action_words,
    strategies_for_text,
    strategy_json,
    strategy_summary_json,
)
from seqform.documents.registry import builds
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.public import numbering
from seqform.game.public.table_labels import InfosetNames
from seqform.holdem import report
from seqform.routes.policy import choose_route
from seqform.routes.solve import solve


def _reference_json(
    strategy: BehaviouralStrategy, name: str, words: Any, long_fractions: bool = True
) -> dict[str, Any]:
    """The strategy object item by item, as :func:`strategy_json` wrote it before it read
    the tables as whole lists: the reference it must equal."""
    from seqform.base.numbers import is_readable

    table = strategy.table

    def number(probability: Any) -> Any:
        if not strategy.exact:
            value = float(probability)
            return None if math.isnan(value) else value
        return (
            str(probability) if long_fractions or is_readable(probability) else float(probability)
        )

    infosets = []
    for index, infoset in enumerate(table.infosets):
        actions = [
            {
                "action": action,
                "words": words(infoset, action),
                "probability": number(strategy.probabilities[sequence]),
            }
            for action, sequence in zip(
                table.actions[index], table.sequences_of(index), strict=True
            )
        ]
        infosets.append(
            {"name": infoset, "unreached": bool(strategy.unreached[index]), "actions": actions}
        )
    return {"player": table.player + 1, "name": name, "infosets": infosets}


@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spots") / "river.toml"
    path.write_text(RIVER)
    return path


@pytest.fixture(scope="module")
def solved(river: Path) -> dict[str, Any]:
    return {
        "liars_dice(sides=3) structured": solve("liars_dice(sides=3)", method="structured"),
        "kuhn exact": solve("kuhn", exact=True),
        "leduc tree": solve("leduc"),
        "river spot": solve(str(river)),  # no words of its own: the labels stand
    }


CASES = ["liars_dice(sides=3) structured", "kuhn exact", "leduc tree", "river spot"]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("long_fractions", [True, False])
def test_the_strategy_object_equals_the_one_built_item_by_item(solved, case, long_fractions):
    solution = solved[case]
    words = action_words(solution.game)
    for strategy in solution.strategies:
        built = strategy_json(strategy, "P", words, long_fractions)
        reference = _reference_json(strategy, "P", words, long_fractions)
        assert built == reference
        # the same types too (a float, a str fraction), not merely equal values
        assert _types(built) == _types(reference)


@pytest.mark.parametrize("case", CASES)
def test_a_decision_s_sets_are_found_as_by_their_names(solved, case):
    # action_frequencies reads a spot's sets off the public node (InfosetNames.at_history)
    # rather than a dictionary of every name: the same sets, found or not, as the names say
    solution = solved[case]
    for strategy in solution.strategies:
        table = strategy.table
        game = solution.game
        labels = game.hands[strategy.player].labels if hasattr(game, "hands") else ("",)
        by_name = table.index_of_infoset()
        histories = {name.partition("|")[2] for name in table.infosets} | {"", "x", "nowhere"}
        for history in sorted(histories):
            expected = [by_name.get(f"{label}|{history}") for label in labels]
            assert report._infosets_at(table, labels, history) == expected


def test_the_grid_finds_its_sets_off_the_public_node(monkeypatch, tmp_path):
    # class_mix (a spot report's 13 x 13 grid) looked each combo's set up in a dictionary
    # of every name (2.4 million on a full-range turn: 1 s of the report); it now finds
    # them as action_frequencies does (_infosets_at, checked against the names above), and
    # never builds that dictionary
    from seqform.forms.strategies import uniform_behaviour
    from seqform.game.sequences import PlayerSequences
    from seqform.holdem.game import spot_game
    from seqform.holdem.spot import read_spot
    from seqform.structured.responses import sequence_tables

    path = tmp_path / "river.toml"
    path.write_text(RIVER)
    game = spot_game(read_spot(path))
    table = sequence_tables(game)[0]

    def refused(self):  # type: ignore[no-untyped-def]
        raise AssertionError("the names' dictionary was built")

    monkeypatch.setattr(PlayerSequences, "index_of_infoset", refused)
    found = report.class_mix(game, uniform_behaviour(table), "")
    assert len(found.actions) >= 2 and found.reach == pytest.approx(1.0)
    cells = found.weight > 0  # each class the range holds: the uniform mix of its actions
    np.testing.assert_allclose(found.mix[cells], 1 / len(found.actions))


def test_sets_whose_names_split_two_ways_are_looked_up_by_name():
    names = InfosetNames(["a|", "a"], ["|b", "||b"], np.array([0, 1]), np.array([0, 1]))
    assert names.at_history("||b") is None  # "a|" + "|b" == "a" + "||b"


def _types(strategy: dict[str, Any]) -> list[type]:
    return [type(a["probability"]) for i in strategy["infosets"] for a in i["actions"]]


def test_a_probability_that_overflowed_is_written_null(solved):
    strategy = solved["liars_dice(sides=3) structured"].strategies[0]
    probabilities = strategy.probabilities.copy()
    probabilities[1] = np.nan
    broken = replace(strategy, probabilities=probabilities)
    words = action_words(solved["liars_dice(sides=3) structured"].game)
    built = strategy_json(broken, "P", words)
    assert built == _reference_json(broken, "P", words)
    assert built["infosets"][0]["actions"][0]["probability"] is None


@pytest.mark.parametrize(
    "probability", [0.0, 1.0, 0.1, 1 / 3, 5e-324, 0.9999999999999999, 1, "1/3", "2/7", None]
)
def test_the_summary_reads_a_probability_as_a_fraction_would(probability):
    # the summary's entropy ranks by these floats: a float must come back bit for bit as
    # float(Fraction(float)) gave it, a string fraction rounded once
    from fractions import Fraction

    got = layout._float(probability)
    if probability is None:
        assert math.isnan(got)
    else:
        assert got == float(Fraction(probability)) and isinstance(got, float)


def test_a_structured_solve_numbers_its_public_tree_once(monkeypatch):
    walks = []
    walk = numbering._walk

    def counted(game):
        walks.append(game)
        return walk(game)

    monkeypatch.setattr(numbering, "_walk", counted)
    # a fresh game object: numbering is cached per object, and no other test solves sides=4
    solve("liars_dice(sides=4)", method="structured")
    assert len(walks) == 1  # the route's sizing and its LP share one game object
    route = choose_route("liars_dice(sides=4)", method="structured")
    assert route.size is not None and route.structured is route.size.game


@dataclass(frozen=True)
class _Probe:
    """A result type whose document records whether the collector ran while it was built."""


@builds(_Probe)
def _probe_document(result: _Probe) -> dict[str, Any]:
    return {"schema": "probe", "collector": gc.isenabled()}


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_while_a_document_is_built(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert document(_Probe())["collector"] is False
        assert gc.isenabled() is enabled  # as it was before
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_when_a_builder_is_called_directly(enabled):
    # The CLI's commands call their builders (iterate_document, ...) without document():
    # the turn's CFR document took twice as long with the collector running.
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert _probe_document(_Probe())["collector"] is False
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def _infoset(*probabilities: Any, unreached: bool = False) -> dict[str, Any]:
    actions = [
        {"action": str(k), "words": str(k), "probability": p} for k, p in enumerate(probabilities)
    ]
    return {"name": "i", "unreached": unreached, "actions": actions}


def _by_hand(infoset: dict[str, Any]) -> tuple[bool, float]:
    """Mixed and entropy of one set, by their definitions (the module docstring)."""
    floats = [layout._float(a["probability"]) for a in infoset["actions"]]
    mixed = not max(floats) >= 1 - layout.MIXED_TOLERANCE or any(map(math.isnan, floats))
    return mixed, -sum(p * math.log2(p) for p in floats if p > 0)


@pytest.mark.parametrize(
    "sets",
    [
        [(0.5, 0.5), (1.0, 0.0), (0.25, 0.75, 0.0), (0.0, 1 - 1e-12), (0.1, 0.2, 0.7)],
        [("1/3", "2/3"), ("1", "0"), ("1/2", "1/4", "1/4")],  # an exact run's strings
        [(None, 1.0), (1.0, None), (0.3, 0.7)],  # null: a run that overflowed, mixed
    ],
)
def test_mixed_sets_match_the_definitions_set_by_set(sets):
    reached = [_infoset(*probabilities) for probabilities in sets]
    found = layout.mixed_sets(reached)
    expected = [_by_hand(i) for i in reached]
    assert found.positions.tolist() == [k for k, (mixed, _) in enumerate(expected) if mixed]
    assert found.entropies == pytest.approx([h for mixed, h in expected if mixed], abs=1e-12)


def test_the_summary_shows_the_most_mixed_in_table_order_ties_by_position():
    # 30 sets: entropies 1 bit (halves) at even positions, less at odd ones; the summary
    # keeps MOST_MIXED of the 1-bit ones, the first in table order, printed in table order.
    sets = [_infoset(0.5, 0.5) if k % 2 == 0 else _infoset(0.9, 0.1) for k in range(30)]
    for k, infoset in enumerate(sets):
        infoset["name"] = f"set{k:02d}"
    section = layout.StrategySection({"infosets": sets}, "P1")
    lines = section.render(full=False).lines
    shown = [line.split()[0] for line in lines[3:]]
    assert shown == [f"set{k:02d}" for k in range(0, 2 * layout.MOST_MIXED, 2)]
    assert "30 of them mixed" in lines[1]


def _pure(strategy: BehaviouralStrategy) -> BehaviouralStrategy:
    """``strategy`` with each information set's first action taken for sure."""
    table = strategy.table
    probabilities = np.zeros(table.num_sequences)
    probabilities[0] = 1.0
    probabilities[table.first_sequence] = 1.0
    return replace(strategy, probabilities=probabilities)


def _summary_variants(solved: dict[str, Any]) -> list[tuple[str, BehaviouralStrategy, Any]]:
    variants = []
    for case in CASES:
        solution = solved[case]
        words = action_words(solution.game)
        for strategy in solution.strategies:
            variants.append((case, strategy, words))
        variants.append((f"{case}, pure", _pure(solution.strategies[0].to_float()), words))
    strategy = solved["liars_dice(sides=3) structured"].strategies[1]
    probabilities = strategy.probabilities.copy()
    probabilities[1:4] = np.nan  # a run that overflowed: mixed, shown with nulls
    variants.append(("overflowed", replace(strategy, probabilities=probabilities), words))
    return variants


@pytest.mark.parametrize("long_fractions", [True, False])
def test_a_summary_from_the_arrays_prints_what_the_objects_summarise(solved, long_fractions):
    # the text report's summary object (strategy_summary_json) against the summary of the
    # complete object: the same counts, the same sets in the same order, the same legend
    for case, strategy, words in _summary_variants(solved):
        complete = strategy_json(strategy, "P", words, long_fractions)
        summary = strategy_summary_json(strategy, "P", words, long_fractions)
        for flag in (layout.UNREACHED_FLAG, "set by the refinement"):
            expected = layout.StrategySection(complete, "P1", flag, long_fractions).render(False)
            found = layout.StrategySection(summary, "P1", flag, long_fractions).render(False)
            assert found == expected, case
        assert layout.StrategySection(summary, "P1").infoset_count == len(complete["infosets"])
        with pytest.raises(ValueError, match="cannot be printed in full"):
            layout.StrategySection(summary, "P1").render(True)


@pytest.mark.parametrize("choice", ["auto", "summary", "all"])
@pytest.mark.parametrize("case", CASES)
def test_a_document_built_for_text_prints_the_same_report(solved, case, choice):
    from seqform.documents.text.render import document_report

    solution = solved[case]
    complete = document(solution)
    with strategies_for_text(choice):
        for_text = document(solution)
    assert document_report(for_text, choice) == document_report(complete, choice)
    summarised = [("summary" in s) for s in for_text["strategies"]]
    infosets = [s.table.num_infosets for s in solution.strategies]
    assert summarised == [choice == "summary" or (choice == "auto" and n > 40) for n in infosets]
    assert document(solution) == complete  # the choice ends with the block


def test_an_iterate_run_built_for_text_prints_the_same_report():
    from seqform.documents.iterate import iterate_document
    from seqform.documents.text.iterate import iterate_text
    from seqform.questions.iterate import iterate

    run = iterate("leduc", "cfr+", iterations=20, reference=False)
    complete = iterate_document(run)
    for choice in ("auto", "summary"):
        with strategies_for_text(choice):
            for_text = iterate_document(run)
        assert all("summary" in s for s in for_text["strategies"])
        assert iterate_text(for_text, choice) == iterate_text(complete, choice)
