"""``solve`` with the ordered game isomorphism after the suits (seqform/routes/structured.py,
seqform/structured/reductions/ordered_isomorphism.py): on by default where it applies, the same
value
as the suit classes alone, certified on the unreduced game, its sizes in the reports."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from seqform.certify import is_certified
from seqform.cli.main import main
from seqform.documents.build import document
from seqform.documents.text.compare_sizes import sizes_text
from seqform.documents.text.structured import suit_lines
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.game.builtin.rhode_island_sizes import rhode_island_suit_reduced_sizes
from seqform.game.public.tree import Constant, PublicChance, PublicDecision, PublicLeaf, PublicNode
from seqform.io.documents import validate_document
from seqform.routes.solve import solve
from seqform.structured.reductions.ordered_sizes import ordered_sizes

# Leduc's value to player 1: -0.085606424078 (OpenSpiel's leduc_poker, its tests' reference
# value; tests/test_ordered_isomorphism.py, docs/games.md)
LEDUC_VALUE = -0.085606424078


def test_leduc_is_solved_on_the_ordered_classes_by_default() -> None:
    game = leduc_structured()
    merged = solve(game)
    suits = solve(game, ordered_isomorphism=False)
    assert merged.ordered_isomorphism is not None and suits.ordered_isomorphism is None
    assert merged.value == pytest.approx(LEDUC_VALUE, abs=1e-9)
    assert suits.value == pytest.approx(merged.value, abs=1e-9)
    # lifted and certified on the unreduced game (1,093 sequences per player)
    assert merged.strategies[0].table.num_sequences == 1093
    assert is_certified(merged.certificate)
    assert float(merged.certificate.value) == pytest.approx(LEDUC_VALUE, abs=1e-9)
    # the LP solved is the ordered one, smaller than the suit classes' LP
    assert merged.stats.constraints == merged.ordered_isomorphism.lp[0]
    assert suits.suit_reduction is not None and suits.suit_reduction.reduced_lp is not None
    assert merged.ordered_isomorphism.lp[0] < suits.suit_reduction.reduced_lp[0]
    assert merged.suit_reduction is not None
    assert merged.suit_reduction.reduced == suits.suit_reduction.reduced


def test_a_small_rhode_island_keeps_its_value_on_the_ordered_classes() -> None:
    # two ranks: suits never matter after the deal, so the ordered step merges every round
    # (tests/test_ordered_isomorphism.py)
    game = rhode_island_structured(ranks=2, suits=3, max_bets=1)
    merged = solve(game)
    suits = solve(game, ordered_isomorphism=False)
    assert merged.ordered_isomorphism is not None
    assert merged.ordered_isomorphism.sizes == ordered_sizes(game).ordered  # type: ignore[union-attr]
    assert is_certified(merged.certificate) and is_certified(suits.certificate)
    # -1/64: docs/games.md, `solve "rhode_island(ranks=2, suits=3, max_bets=1)"` (exact)
    assert merged.value == pytest.approx(-1 / 64, abs=1e-9)
    assert suits.value == pytest.approx(merged.value, abs=1e-9)


def test_the_document_and_text_report_the_ordered_step() -> None:
    solution = solve(leduc_structured())
    written = document(solution)
    validate_document(written)
    steps = written["suit_isomorphism"]["steps"]
    names = ["game", "canonical boards", "hand classes", "ordered classes"]
    assert [step["step"] for step in steps] == names
    # leduc 3 × 2, sequences per player: 1,093 in the game, 568 on canonical boards, 547 in
    # suit classes (tests/test_suit_isomorphism.py); after the public card the ordered step
    # leaves one class per pair of ranks (module docstring of ordered_isomorphism)
    assert [step["sequences"][0] for step in steps[:3]] == [1093, 568, 547]
    assert steps[3]["sequences"][0] < 547
    assert steps[2]["lp"] is None  # not built: the LP solved is the ordered one
    assert steps[3]["lp"]["rows"] == solution.stats.constraints
    text = "\n".join(suit_lines(written["suit_isomorphism"]))
    assert "ordered classes" in text and "merged by the ordered game isomorphism" in text


def test_the_option_off_reports_the_suit_steps_alone(capsys) -> None:
    argv = ["solve", "leduc", "--method", "structured", "--format", "json"]
    assert main([*argv, "--no-ordered-isomorphism"]) == 0
    written = json.loads(capsys.readouterr().out)
    steps = written["suit_isomorphism"]["steps"]
    assert [step["step"] for step in steps] == ["game", "canonical boards", "hand classes"]
    assert steps[2]["lp"]["rows"] == written["solver"]["constraints"]


def _betting_after_a_card_depends_on_it(node: PublicNode) -> PublicNode:
    """Leduc with the game over (player 1 wins 1) when the public card is a jack, of
    either suit: still symmetric under the suits, but the betting after a card depends on
    its rank, which the ordered step refuses."""
    if isinstance(node, PublicChance):
        children = tuple(
            PublicLeaf(Constant(Fraction(1))) if card in (0, 1) else child
            for card, child in zip(node.cards, node.children, strict=True)
        )
        return replace(node, children=children)
    if isinstance(node, PublicDecision):
        children = tuple(_betting_after_a_card_depends_on_it(c) for c in node.children)
        return replace(node, children=children)
    return node


def test_a_game_it_does_not_apply_to_is_solved_on_the_suit_classes() -> None:
    base = leduc_structured()
    game = replace(base, root=_betting_after_a_card_depends_on_it(base.root))
    solution = solve(game)
    assert solution.suit_reduction is not None and solution.ordered_isomorphism is None
    assert is_certified(solution.certificate)
    unreduced = solve(game, suit_isomorphism=False)
    assert solution.value == pytest.approx(unreduced.value, abs=1e-9)
    assert len(document(solution)["suit_isomorphism"]["steps"]) == 3


@pytest.mark.parametrize(
    ("ranks", "suits", "max_bets"),
    [(2, 2, 1), (2, 3, 1), (3, 2, 1), (3, 3, 1), (4, 4, 1)],
)
def test_the_ordered_formula_counts_what_the_reduction_counts(ranks, suits, max_bets) -> None:
    formula = rhode_island_suit_reduced_sizes(ranks=ranks, suits=suits, max_bets=max_bets)
    counted = ordered_sizes(rhode_island_structured(ranks=ranks, suits=suits, max_bets=max_bets))
    assert counted is not None and formula.ordered is not None
    assert formula.ordered.sequences == counted.ordered.sequences
    assert formula.ordered.infosets == counted.ordered.infosets
    assert formula.reduced.sequences == counted.suits.sequences


def test_compare_prints_the_ordered_rows_beside_gilpin_and_sandholms(capsys) -> None:
    assert main(["compare", "rhode_island", "--no-solve", "--format", "json"]) == 0
    written = json.loads(capsys.readouterr().out)
    text = sizes_text(written)
    # 13 ranks: signals per round 13, 13 × 25 and 13 × (12 × 24 + 13 × 25) = 7,969 classes
    # (the ordered classes of _ordered_signals, counted by ordered_sizes on small decks in
    # the test above); 3 bets a round give 1,571,076 information sets and 3,927,691
    # sequences per player, rows 3,927,691 + 1,571,076 + 1
    assert "  ordered classes                              5,498,768      5,498,768" in text
    # Gilpin and Sandholm (JACM 2007): 91,224,226 rows unabstracted, 1,237,238 by GameShrink
    assert "91,224,226" in text and "1,237,238" in text
    validate_document(written)
    steps = written["lossless_abstraction"]["steps"]
    assert steps[-1] == {
        "step": "ordered classes",
        "infosets": [1_571_076, 1_571_076],
        "sequences": [3_927_691, 3_927_691],
        "lp_rows": [5_498_768, 5_498_768],
    }
