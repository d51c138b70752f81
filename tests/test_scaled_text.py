"""Values in text read alike in any payoff unit (base/numbers.scaled_text, value_text with a
scale): the same game with its payoffs scaled by 1e-15 or 1e15, a spot with its pot and
stacks scaled by 1e-12 or 1e12, is written with the same digits, and round-off beside the
payoff range (or the pot) is written as round-off, never as 0.0000, 20 digits or a fraction.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from seqform.base.numbers import is_round_off, scaled_text, value_text

# --- the formatter -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "scale", "text"),
    [
        # Kuhn (1950): the value -1/18 over the payoff range 4, as the lock table writes it
        pytest.param(-1 / 18, 4, "-0.0556", id="ordinary"),
        pytest.param(-1 / 18 * 1e15, 4e15, "-5.56e+13", id="1e15"),
        pytest.param(-1 / 18 * 1e-15, 4e-15, "-5.56e-17", id="1e-15"),
        pytest.param(-1e-17, 4, "0.0000", id="round-off-ordinary"),  # not "-0.0000"
        pytest.param(-1e-30, 4e-15, "≈ 0", id="round-off-scaled"),
        pytest.param(0.0, 4e15, "0", id="zero-scaled"),
        pytest.param(Fraction(-1, 10**30), 4e-15, "-1e-30", id="an-exact-value-is-no-round-off"),
        pytest.param(7.5817995910, None, "7.5818", id="no-scale"),
    ],
)
def test_a_value_is_written_beside_its_scale(value, scale, text):
    assert scaled_text(value, scale) == text


def test_round_off_is_judged_beside_the_scale():
    # a gain of 1/32 is round-off in a game of payoffs 1e15, not in Kuhn poker itself
    assert is_round_off(0.03125, 4e15) and not is_round_off(0.03125, 4)
    assert not is_round_off(0.03125, None)  # no scale: nothing to judge by
    assert value_text(0.03125, scale=4) == value_text(0.03125) == "+0.0312500000 (= 1/32)"
    assert value_text(0.03125, scale=4e15) == "≈ 0"
    assert value_text(Fraction(1, 32), scale=4e15) == "+0.0312500000 (= 1/32)"  # exact
    assert value_text(0.0, scale=4e15) == "+0.0000000000"
    # Kuhn (1950): -1/18 stays the house format at its own scale
    assert value_text(-1 / 18, scale=4) == "-0.0555555556 (= -1/18)"
    # at payoffs of 1e6 a float's round-off spans fractions of denominator up to 1000
    assert value_text(1e6 + 0.5, scale=4e6) == "+1000000.50000000"
