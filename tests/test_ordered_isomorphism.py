"""Ordered game isomorphism beyond suits (seqform/structured/reductions/ordered_isomorphism.py): the
classes' sizes by formula, and the merged LP lifted back and certified on the game."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import pytest

from seqform.forms.strategies import behaviour_from_plan
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.rhode_island import rhode_island_structured
from seqform.game.public.symmetry import game_symmetries
from seqform.game.public.tree import (
    Constant,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    StructuredGame,
)
from seqform.structured.lp_model import build_structured_lp
from seqform.structured.lp_solve import solve_structured_lp
from seqform.structured.reductions.ordered_isomorphism import (
    card_partitions,
    reduce_by_ordered_isomorphism,
)
from seqform.structured.reductions.ordered_sizes import ordered_sizes
from seqform.structured.reductions.suit_reduction import lift_plans, reduce_by_suits
from seqform.structured.responses import certify, payoff_range, sequence_tables


def test_leduc_merges_suited_and_unsuited_hands_after_the_public_card():
    r = 5
    sizes = ordered_sizes(leduc_structured(ranks=r, suits=4))
    assert sizes is not None
    # Round 1: one class per rank; round 2 (the module docstring): suits keep a hand
    # suited or not with the board, r (2r - 1) classes; the ordered merge leaves r².
    assert sizes.classes_per_round == ((r, r), (r * (2 * r - 1), r * r))
    assert sizes.ordered.rows < sizes.suits.rows < sizes.canonical.rows < sizes.full.rows


def test_rhode_island_merges_the_off_suits_of_a_rank_in_the_last_round():
    r = 3
    sizes = ordered_sizes(rhode_island_structured(ranks=r, suits=4, max_bets=1))
    assert sizes is not None
    # Per first public card (module docstring): (r-1)(2r-2) + r(3r-2) hand classes on the
    # last round's canonical boards by suits, (r-1)(2r-2) + r(2r-1) ordered.
    suits = r * ((r - 1) * (2 * r - 2) + r * (3 * r - 2))
    ordered = r * ((r - 1) * (2 * r - 2) + r * (2 * r - 1))
    assert sizes.classes_per_round == ((r, r), (r * (2 * r - 1),) * 2, (suits, ordered))


def test_two_suits_of_rhode_island_leave_nothing_to_merge():
    sizes = ordered_sizes(rhode_island_structured(ranks=3, suits=2, max_bets=1))
    assert sizes is not None
    assert sizes.ordered == sizes.suits


@dataclass(frozen=True)
class Solved:
    """The lifted answer's value and NashConv / payoff range on the game; beside it the
    value of the unreduced LP, or of the suit-reduced one (lossless, and certified on the
    game in tests/test_suit_isomorphism.py) where the unreduced simplex takes minutes."""

    value: float
    nash_conv: float
    reference: float


def _solved(game: StructuredGame, unreduced: bool = False) -> Solved:
    """The merged LP solved, lifted and certified on the game (:class:`Solved`)."""
    ordered = reduce_by_ordered_isomorphism(game)
    suits = reduce_by_suits(game)
    assert ordered is not None and suits is not None
    assert ordered.ordered.sequences[0] < ordered.suits.sequences[0]
    # the counts without the LP are the LP's
    sizes = ordered_sizes(game)
    assert sizes is not None and sizes.ordered == ordered.ordered and sizes.suits == suits.reduced
    solution = solve_structured_lp(ordered.reduction.lp, solver="simplex")
    x, y = lift_plans(ordered.reduction, solution.x, solution.y)
    first, second = sequence_tables(game)
    certificate = certify(game, behaviour_from_plan(first, x), behaviour_from_plan(second, y))
    lp = build_structured_lp(game) if unreduced else suits.lp
    reference = solve_structured_lp(lp, solver="simplex").value
    scale = float(payoff_range(game))
    return Solved(certificate.value, certificate.nash_conv / scale, reference)


@pytest.mark.parametrize(
    "game",
    [leduc_structured(), pytest.param(leduc_structured(ranks=4, suits=3), marks=pytest.mark.slow)],
    ids=["leduc", "leduc(ranks=4, suits=3)"],
)
def test_the_merged_lp_lifts_to_an_equilibrium_of_leduc(game):
    solved = _solved(game)
    value, reference = solved.value, solved.reference
    assert solved.nash_conv < 1e-9
    assert value == pytest.approx(reference, abs=1e-9 * float(payoff_range(game)))
    if game.name == "leduc":
        # Leduc's value to player 1: -0.085606424078 (OpenSpiel's leduc_poker, its tests'
        # reference value; seqform's docs/games.md)
        assert value == pytest.approx(-0.085606424078, abs=1e-11)


@pytest.mark.slow
def test_the_merged_lp_lifts_to_an_equilibrium_of_rhode_island():
    # ranks=3, suits=3: the last round merges the off-suits of a rank; the public cards must
    # be taken in the order dealt (Ks then Qh is not Qh then Ks)
    game = rhode_island_structured(ranks=3, suits=3, max_bets=1)
    solved = _solved(game)
    value, reference = solved.value, solved.reference
    assert solved.nash_conv < 1e-9
    assert value == pytest.approx(reference, abs=1e-9 * float(payoff_range(game)))


def test_rhode_island_of_two_ranks_merges_in_the_last_round_only():
    # With two ranks no flush or straight exists, so every swap of two cards of a rank keeps
    # the showdowns' order from the first public card on; but a swap there moves cards still
    # to be dealt, and merging by it let the LP's answer be exploited (condition 4 of the
    # module's docstring): only the last round merges beyond suits.
    sizes = ordered_sizes(rhode_island_structured(ranks=2, suits=3, max_bets=1))
    assert sizes is not None
    assert sizes.classes_per_round == ((2, 2), (6, 6), (20, 16))


def test_only_the_last_public_card_is_a_place_for_swaps():
    # Condition 4: Rhode Island deals two public cards, so the first chance node (no board
    # yet) has another below it and takes no swap; Leduc's only public card is the last.
    game = rhode_island_structured(ranks=2, suits=3, max_bets=1)
    parts = card_partitions(game, game_symmetries(game))
    assert parts is not None and parts.dealt_below == frozenset({()})
    leduc = leduc_structured()
    leduc_parts = card_partitions(leduc, game_symmetries(leduc))
    assert leduc_parts is not None and leduc_parts.dealt_below == frozenset()


@pytest.mark.slow
def test_the_merged_lp_of_two_ranks_lifts_to_an_equilibrium():
    game = rhode_island_structured(ranks=2, suits=3, max_bets=1)
    solved = _solved(game, unreduced=True)
    assert solved.nash_conv < 1e-9
    assert solved.value == pytest.approx(solved.reference, abs=1e-9 * float(payoff_range(game)))
    # -1/64: docs/games.md, `solve "rhode_island(ranks=2, suits=3, max_bets=1)"` (exact)
    assert solved.value == pytest.approx(-1 / 64, abs=1e-12)


def test_the_merged_lp_of_two_ranks_and_three_bets_lifts_to_an_equilibrium():
    # The case that found condition 4: with the first public card's swaps merged, this LP
    # had the game's value and a lifted answer exploitable by 2e-4 of the payoff range
    # (the suit-reduced LP's value is the reference: lossless, tests/test_suit_isomorphism.py)
    game = rhode_island_structured(ranks=2, suits=3)
    solved = _solved(game)
    assert solved.nash_conv < 1e-9
    assert solved.value == pytest.approx(solved.reference, abs=1e-9 * float(payoff_range(game)))


def _first_chance_changed(node: PublicNode) -> PublicNode:
    """The public tree with its first public chance node's second card followed by a fold
    instead of the betting the other cards have."""
    if isinstance(node, PublicChance):
        children = (node.children[0], PublicLeaf(Constant(Fraction(1))), *node.children[2:])
        return replace(node, children=children)
    if isinstance(node, PublicDecision):
        return replace(node, children=tuple(_first_chance_changed(c) for c in node.children))
    return node


def test_no_swap_where_the_betting_after_a_card_depends_on_the_card():
    game = leduc_structured()
    changed = replace(game, root=_first_chance_changed(game.root))
    assert ordered_sizes(game) is not None
    assert card_partitions(changed, game_symmetries(changed)) is None
