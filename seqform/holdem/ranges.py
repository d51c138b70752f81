"""Hand ranges in the notation poker players and solvers use, read to exact weights.

A range is a comma-separated list of items, each optionally followed by ``:WEIGHT``
(a decimal or fraction in ``[0, 1]``; default 1)::

    22+, A2s+, KQo, JdTd:0.5, TT-77, A2s-A5s, K9o+, AK, AhKh, any

* pairs ``TT``, ``TT+`` (tens and better), ``TT-77``;
* suited ``A5s`` / offsuit ``KQo`` / both ``AK``, with ``+`` (the kicker up to one below the
  top card: ``K9o+`` is K9o to KQo) or a dash range with the same top card (``A2s-A5s``);
* an explicit combo ``AhKh``;
* ``any`` (also ``random``): all 1,326 combos.

The notation (without the weights) is expanded by eval7's ``HandRange``, the range parser of
the maintained evaluator seqform uses (:mod:`seqform.holdem.strength`); seqform splits
the items and reads the weights itself so that they stay exact (``0.1`` is ``1/10``, not the
float nearest it) and a mistake names its item.  A later item overrides the weight of the
combos it shares with an earlier one (``AKs, AhKh:0.5`` keeps every AKs at 1 but AhKh at 1/2),
but an item that names exactly the combos of an earlier one (``AA:0.1,AA``, ``AhKh,KhAh``) is
refused: one of the two is a mistake, and which weight was meant cannot be told.  A range
longer than :data:`MAX_RANGE_CHARACTERS` is refused before it is read.  Combos
that clash with the board are removed by :func:`remove_board` (the spot does it).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from seqform.base.limits import LIMITS
from seqform.holdem.cards import CardError, all_combos, combo_text, parse_cards
from seqform.holdem.strength import load_eval7

__all__ = ["MAX_RANGE_CHARACTERS", "HandRange", "RangeError", "parse_range", "remove_board"]

_EVERYTHING = frozenset({"any", "random"})
MAX_RANGE_CHARACTERS = LIMITS.range_characters  # why: seqform.base.limits


class RangeError(CardError):
    """A range that cannot be read; the message names the item."""


@dataclass(frozen=True)
class HandRange:
    """A weighted set of combos.

    combos : the combos with a positive weight, higher card first, sorted
    weights : per combo, its exact weight in ``(0, 1]``
    text : the range as written
    """

    combos: tuple[tuple[int, int], ...]
    weights: tuple[Fraction, ...]
    text: str

    def __len__(self) -> int:
        return len(self.combos)

    def labels(self) -> tuple[str, ...]:
        """``"AhKh"`` per combo."""
        return tuple(combo_text(combo) for combo in self.combos)


def _weight(item: str, text: str) -> Fraction:
    try:
        weight = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise RangeError(
            f"range item {item!r}: the weight {text.strip()!r} is not a number"
        ) from None
    if not 0 <= weight <= 1:
        raise RangeError(f"range item {item!r}: the weight {weight} is not between 0 and 1")
    return weight


def _expand(hands: str, item: str) -> list[tuple[int, int]]:
    """The combos of one item without its weight (eval7 reads the notation)."""
    if hands.lower() in _EVERYTHING:
        return list(all_combos())
    if len(hands) == 4 and hands[1].lower() in "cdhs" and hands[3].lower() in "cdhs":
        try:  # an explicit combo, read here so that 'AsAs' is named as such
            first, second = parse_cards(hands)
        except CardError as exc:
            raise RangeError(f"range item {item!r}: {exc}") from None
        return [(max(first, second), min(first, second))]
    try:
        expanded = _eval7_range(hands)
    except ValueError as exc:
        detail = str(exc)
        reason = "" if detail == "Failed to parse string" else f" ({detail})"
        raise RangeError(
            f"range item {item!r} is not range notation{reason}: write pairs (TT, TT+, "
            "TT-77), suited or offsuit hands (A5s, A5s+, KQo, AK, A2s-A5s) or combos (AhKh)"
        ) from None
    combos = []
    for (first, second), _weight_ignored in expanded:
        cards = (4 * first.rank + first.suit, 4 * second.rank + second.suit)
        combos.append((max(cards), min(cards)))
    return combos


def _eval7_range(hands: str) -> list[tuple[tuple[Any, Any], float]]:
    """eval7's expansion of one item; its parser, built on pyparsing, warns of pyparsing's
    renamed functions on every call (eval7 0.1.11 with pyparsing 3.2): silenced here."""
    eval7 = load_eval7()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            return list(eval7.HandRange(hands).hands)
        except eval7.rangestring.RangeStringError as exc:  # an Exception, not a ValueError
            raise ValueError(str(exc)) from None


def parse_range(text: str) -> HandRange:
    """Read a range (module docstring).

    Raises
    ------
    RangeError
        For an empty range, an unreadable item or weight, an item that repeats an earlier
        one; the message names the item.  For a range longer than
        :data:`MAX_RANGE_CHARACTERS`, before reading it.
    """
    if not isinstance(text, str):
        raise RangeError(f"a range is text such as '22+,AKs', not {type(text).__name__}")
    if len(text) > MAX_RANGE_CHARACTERS:
        raise RangeError(
            f"a range of {len(text):,} characters; a range is at most "
            f"{MAX_RANGE_CHARACTERS:,} characters (all 1,326 combos fit in 20,000)"
        )
    weights: dict[tuple[int, int], Fraction] = {}
    items: dict[frozenset[tuple[int, int]], str] = {}
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            if text.strip():
                raise RangeError(f"range {text!r} has an empty item (two commas in a row?)")
            break
        hands, colon, weight_text = item.partition(":")
        if colon and not weight_text.strip():
            raise RangeError(f"range item {item!r}: a weight follows ':' (e.g. {hands}:0.5)")
        weight = _weight(item, weight_text) if colon else Fraction(1)
        combos = _expand(hands.strip(), item)
        key = frozenset(combos)
        if key in items:
            raise RangeError(
                f"range item {item!r} repeats {items[key]!r} (the same combos); give each once"
            )
        items[key] = item
        for combo in combos:
            weights[combo] = weight
    kept = sorted(combo for combo, weight in weights.items() if weight > 0)
    if not kept:
        raise RangeError(f"range {text!r} holds no combo with a positive weight")
    return HandRange(tuple(kept), tuple(weights[combo] for combo in kept), text)


def remove_board(hand_range: HandRange, board: tuple[int, ...], who: str) -> HandRange:
    """The range without the combos that hold a board card.

    Raises
    ------
    RangeError
        When nothing is left (``who`` names the range, e.g. ``"oop_range"``).
    """
    public = set(board)
    kept = [
        (combo, weight)
        for combo, weight in zip(hand_range.combos, hand_range.weights, strict=True)
        if combo[0] not in public and combo[1] not in public
    ]
    if not kept:
        raise RangeError(f"{who}: every combo of {hand_range.text!r} holds a board card")
    return HandRange(
        tuple(combo for combo, _ in kept), tuple(weight for _, weight in kept), hand_range.text
    )
