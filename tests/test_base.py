"""The room below every other: huge numbers written one way, node counts by one rule."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from seqform.base.counts import (
    LogCount,
    about_text,
    count_at_most,
    count_json,
    count_plus,
    count_power,
    count_product,
    count_text,
    number_text,
)
from seqform.base.node_counts import dealt_tree_nodes
from seqform.game.builtin.kuhn import kuhn_structured
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.public.explicit import tree_nodes
from seqform.io.loader import load_game


@pytest.mark.parametrize(
    ("number", "text"),
    [
        pytest.param(Fraction(-1, 18), "-1/18", id="short-fraction"),
        pytest.param(Fraction(0), "0", id="zero"),
        pytest.param(Fraction(10**309), "≈ 10^309.0", id="huge"),
        pytest.param(Fraction(-(10**309)), "≈ -10^309.0", id="huge-negative"),
        pytest.param(Fraction(1, 10**400), "≈ 10^-400.0", id="tiny"),
    ],
)
def test_an_exact_number_is_exact_when_short_else_a_power_of_ten(
    number: Fraction, text: str
) -> None:
    assert number_text(number) == text


def test_counts_and_exact_numbers_write_huge_values_the_same_way() -> None:
    # a count and an exact number wrote one huge value two ways ("≈ 10^190.3" and
    # "≈1.00e+309"); there must be one
    huge = 3 * 10**500
    assert count_text(huge) == number_text(Fraction(huge)) == about_text(500.4771212547197)
    assert count_text(4096) == "4,096"


def test_a_count_too_large_to_compute_is_written_by_its_logarithm() -> None:
    # 36^6,516,016 (a player's pure strategies in Rhode Island hold'em) has ten million
    # digits: its logarithm is summed from the factors, never from the digits
    count = count_power(36, 6_516_016)
    assert isinstance(count, LogCount)
    assert count.log10 == pytest.approx(6_516_016 * math.log10(36))
    assert count_text(count) == "≈ 10^10,140,892.0"
    assert count_json(count) == {"exact": None, "log10": count.log10}
    assert count_product(count, count).log10 == pytest.approx(2 * count.log10)  # type: ignore[union-attr]
    assert not count_at_most(count, 10**7)
    # while short enough to be written exactly, the count is exact
    assert count_power(36, 3) == count_product(36, 36, 36) == 46_656
    assert count_text(count_power(10, 9_999)) == "≈ 10^9999.0"


def test_a_sum_of_counts_is_exact_while_both_are() -> None:
    # 2 · 10^1200 has log10 1200 + log10 2; a small exact count added to it does not move
    # its logarithm; exact counts add exactly
    big = LogCount(1200.0)
    assert count_plus(big, big).log10 == pytest.approx(1200 + math.log10(2))  # type: ignore[union-attr]
    assert count_plus(big, 1).log10 == 1200.0  # type: ignore[union-attr]
    assert count_plus(7, 10**40) == 10**40 + 7


def test_dealt_tree_nodes_is_the_deal_plus_the_public_tree_per_deal() -> None:
    # Kuhn (1950): 1 deal node, 6 ordered deals, 9 public nodes each (4 decisions, 5
    # terminals) = 55 nodes, the tree seqform builds
    assert dealt_tree_nodes(deal_nodes=1, deals=6, nodes_per_deal=9) == 55
    assert load_game("kuhn").flat.num_nodes == 55
    with pytest.raises(ValueError, match="must not be negative"):
        dealt_tree_nodes(deal_nodes=1, deals=-1, nodes_per_deal=9)


@pytest.mark.parametrize(
    ("structured", "spec"),
    [
        pytest.param(kuhn_structured(3), "kuhn", id="kuhn"),
        pytest.param(kuhn_structured(5), "kuhn(cards=5)", id="kuhn-5"),
        pytest.param(leduc_structured(), "leduc", id="leduc"),
    ],
)
def test_the_structured_bound_is_at_least_the_built_tree(structured: object, spec: str) -> None:
    assert tree_nodes(structured) >= load_game(spec).flat.num_nodes  # type: ignore[arg-type]
