"""The checks of one node that the walk of :mod:`seqform.game.compiled` makes.

Each takes the node, ``where`` (which names node ``index`` by its history, only called to
write a message) and the node's index, and raises
:class:`~seqform.game.errors.InvalidGameError` naming the node.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from numbers import Rational
from typing import NoReturn

from seqform.base.numbers import float_of
from seqform.game.errors import GameTypeError, InvalidGameError
from seqform.game.nodes import Chance, Decision, Terminal

__all__ = [
    "check_chance",
    "check_terminal",
    "count_word",
    "float_of",
    "hashable",
    "refuse_decision",
]


def check_terminal(
    node: Terminal, where: Callable[[int], str], index: int
) -> tuple[tuple[float, ...], Fraction]:
    """Check a terminal's payoffs (exact, for at least two players); return them as floats
    (:func:`float_of`) and their exact sum (the walk records the first that is not zero and
    the first that differs from the first terminal's)."""
    payoffs = node.payoffs
    if len(payoffs) < 2:
        raise InvalidGameError(
            f"terminal node {where(index)!r} has payoffs for {len(payoffs)} player(s); "
            "a game has at least two players"
        )
    if not all(isinstance(payoff, Rational) for payoff in payoffs):
        raise InvalidGameError(
            f"terminal node {where(index)!r} has payoffs {payoffs!r}; payoffs must be "
            "exact (int or fractions.Fraction)"
        )
    return tuple(float_of(payoff) for payoff in payoffs), sum(payoffs, Fraction(0))


def count_word(count: int) -> str:
    """``2 -> "two"``, ..., up to ten; larger counts as digits."""
    words = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return words[count - 2] if 2 <= count <= 10 else str(count)


def check_chance(node: Chance, where: Callable[[int], str], index: int) -> None:
    """Check a chance node's outcomes and that its exact probabilities sum to one."""
    count = len(node.children)
    if count == 0:
        raise InvalidGameError(f"chance node {where(index)!r} has no outcomes")
    if not len(node.outcomes) == len(node.probabilities) == count:
        raise InvalidGameError(
            f"chance node {where(index)!r} has {len(node.outcomes)} outcomes, "
            f"{len(node.probabilities)} probabilities and {count} children"
        )
    if len(set(node.outcomes)) != count:
        raise InvalidGameError(f"chance node {where(index)!r} repeats an outcome: {node.outcomes}")
    total = Fraction(0)
    for outcome, probability in zip(node.outcomes, node.probabilities, strict=True):
        if not isinstance(probability, Rational):
            raise InvalidGameError(
                f"chance node {where(index)!r}: probability {probability!r} of outcome "
                f"{outcome!r} is not exact (use fractions.Fraction)"
            )
        if probability < 0:
            raise InvalidGameError(
                f"chance node {where(index)!r}: outcome {outcome!r} has negative probability "
                f"{probability}"
            )
        total += probability
    if total != 1:
        raise InvalidGameError(f"chance node {where(index)!r}: probabilities sum to {total}, not 1")


def hashable(value: object) -> bool:
    """Whether ``value`` can key a dictionary (an information-set name must)."""
    try:
        hash(value)
    except TypeError:
        return False
    return True


def refuse_decision(node: Decision, where: str) -> NoReturn:
    """Refuse a decision whose player is not an int from 0, or whose information-set name
    cannot key a dictionary; the player as given (``-1`` stays ``-1``)."""
    player = node.player
    if type(player) is not int:
        raise GameTypeError(
            f"decision node {where!r} belongs to player {player!r} of type "
            f"{type(player).__name__}; players are the integers 0, 1, 2, ..."
        )
    if player < 0:
        raise InvalidGameError(
            f"decision node {where!r} belongs to player {player}; players are numbered 0, 1, 2, ..."
        )
    raise GameTypeError(
        f"decision node {where!r} has information set {node.infoset!r} of type "
        f"{type(node.infoset).__name__}, which cannot name a set (use a str)"
    )
