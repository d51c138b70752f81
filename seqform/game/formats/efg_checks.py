"""What the ``.efg`` pre-pass says about nodes that contradict the file or themselves.

pygambit 16.7 refuses these too, but reports them poorly: chance probabilities without a
line or a node, an undefined or redefined outcome one line late (where its lookahead
stopped), an information set whose members disagree with a wrong player, and (since the
pre-pass hands it blank information-set names) not at all a member that renames its set.
:mod:`seqform.game.formats.efg_scan` walks the file and calls these free functions, each
of which returns the reason for refusing the node, or ``None``; the walk gives the line.
Each follows pygambit's own rule, so that no file pygambit reads is refused: probabilities
are compared exactly (as rationals), outcomes and information sets by their text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Declared", "chance_problem", "infoset_name", "outcome_problem", "redeclared"]


@dataclass(frozen=True)
class Declared:
    """The first declaration of an information set or an outcome.

    Attributes
    ----------
    name : the information set's or the outcome's name
    items : the set's action labels, or the outcome's payoffs, as written
    offset : where the declaration starts in the file's text (its line is found only
        when an error needs it)
    """

    name: str
    items: tuple[str, ...]
    offset: int


def infoset_name(player: int, number: int) -> str:
    """``player 2's information set 1``, or ``chance information set 1`` for player 0."""
    if player == 0:
        return f"chance information set {number}"
    return f"player {player}'s information set {number}"


def _listed(items: Sequence[str]) -> str:
    return ", ".join(repr(item) for item in items) or "none"


def redeclared(
    player: int, number: int, first: Declared, again: Declared, first_line: int
) -> str | None:
    """Why a later member's declaration of an information set contradicts the first.

    pygambit compares the actions' count and labels, and the set's name (which it never
    sees, the pre-pass blanking names); a member may also omit the declaration.
    """
    where = infoset_name(player, number)
    if len(again.items) != len(first.items):
        return (
            f"{where} is given {len(again.items)} actions here ({_listed(again.items)}) but "
            f"{len(first.items)} on line {first_line} ({_listed(first.items)}); every node of "
            "an information set has the same actions"
        )
    if again.items != first.items:
        return (
            f"{where} is given the actions {_listed(again.items)} here but "
            f"{_listed(first.items)} on line {first_line}; every node of an information set "
            "has the same actions, in the same order"
        )
    if again.name != first.name:
        return (
            f"{where} is named {again.name!r} here but {first.name!r} on line {first_line}; "
            "every node of an information set gives it the same name (or none after the first)"
        )
    return None


def outcome_problem(number: int, first: Declared, again: Declared, first_line: int) -> str | None:
    """Why a second definition of an outcome contradicts the first (pygambit compares the
    name and each payoff as written: ``1.0`` is not ``1``)."""
    if again.name != first.name:
        change = f"named {again.name!r} here but {first.name!r} on line {first_line}"
    elif again.items != first.items:
        change = (
            f"given the payoffs {', '.join(again.items)} here but {', '.join(first.items)} "
            f"on line {first_line}"
        )
    else:
        return None
    return (
        f"outcome {number} is {change}; a node that uses an outcome again gives only its "
        f"number ('{number}')"
    )


def chance_problem(
    label: str, number: int, actions: Sequence[str], odds: Sequence[str]
) -> str | None:
    """Why a chance node's probabilities are refused: one is negative, or they do not sum
    to exactly one (as rationals, as pygambit adds them).

    The sum is shown exactly: as a decimal when every probability is written as one,
    otherwise as a fraction.  A spelling that :class:`~fractions.Fraction` does not read is
    left to pygambit (``None``).
    """
    try:
        values = [Fraction(text) for text in odds]
    except ValueError:
        return None
    node = f"chance node {label!r}" if label else "the chance node"
    node += f" (chance information set {number})"
    for action, text, value in zip(actions, odds, values, strict=True):
        if value < 0:
            return (
                f"{node} gives action {action!r} the probability {text}; probabilities must "
                "not be negative"
            )
    total = sum(values, Fraction(0))
    if total == 1:
        return None
    shown = str(total) if any("/" in text for text in odds) else _decimal(total)
    return (
        f"the probabilities of {node} sum to {shown} ({' + '.join(odds)}); they must sum "
        "to exactly 1"
    )


def _decimal(value: Fraction) -> str:
    """``value`` written out exactly as a decimal; its denominator divides a power of ten
    (it is a sum of numbers written as decimals)."""
    places = 0
    while 10**places % value.denominator:
        places += 1
    digits = str(abs(value.numerator) * (10**places // value.denominator)).rjust(places + 1, "0")
    whole, fraction = digits[: len(digits) - places], digits[len(digits) - places :].rstrip("0")
    return ("-" if value < 0 else "") + whole + ("." + fraction if fraction else "")
