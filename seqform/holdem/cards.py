"""Cards of a 52-card deck, boards and two-card hands (*combos*) as integers.

A card is ``4 · rank + suit`` with ranks ``23456789TJQKA`` (0 to 12) and suits ``cdhs``
(0 to 3), so ``2c`` is 0 and ``As`` is 51; it is written rank then suit (``"Ah"``, ``"Td"``),
as every poker tool writes it.  A combo is a pair of distinct cards, stored higher card first
(``AhKh`` is ``(50, 46)``); there are ``C(52, 2) = 1,326`` of them.  A board is four (turn)
or five (river) distinct cards.
"""

from __future__ import annotations

import re
from itertools import combinations

__all__ = [
    "RANKS",
    "SUITS",
    "CardError",
    "all_combos",
    "card_id",
    "card_text",
    "combo_text",
    "parse_board",
    "parse_cards",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"

_CARD = re.compile(r"([2-9TJQKA])([cdhs])", re.IGNORECASE)


class CardError(ValueError):
    """Text that does not name cards, or cards that cannot be dealt together."""


def card_id(text: str) -> int:
    """The integer of a card written ``"Ah"`` (rank in any case, suit ``c d h s``)."""
    match = _CARD.fullmatch(text.strip())
    if match is None:
        raise CardError(f"{text!r} is not a card (write rank then suit, e.g. 'Ah', 'Td', '7c')")
    return 4 * RANKS.index(match.group(1).upper()) + SUITS.index(match.group(2).lower())


def card_text(card: int) -> str:
    """``"Ah"`` for the card's integer."""
    if not 0 <= card < 52:
        raise CardError(f"{card} is not a card number (0 to 51)")
    return RANKS[card // 4] + SUITS[card % 4]


def combo_text(combo: tuple[int, int]) -> str:
    """``"AhKh"``: the two cards, higher first."""
    high, low = max(combo), min(combo)
    return card_text(high) + card_text(low)


def parse_cards(text: str) -> tuple[int, ...]:
    """The cards of a string of cards written one after another (``"Ks7h2d"``; spaces and
    commas between cards are allowed).

    Raises
    ------
    CardError
        Naming the first part that is not a card, or a card written twice.
    """
    compact = re.sub(r"[\s,]+", "", text)
    if len(compact) % 2:
        raise CardError(f"{text!r}: cards are two characters each (rank then suit)")
    cards = tuple(card_id(compact[i : i + 2]) for i in range(0, len(compact), 2))
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"{text!r}: the card {card_text(card)} appears twice")
        seen.add(card)
    return cards


def parse_board(text: str) -> tuple[int, ...]:
    """A flop (3 cards), turn (4 cards) or river (5 cards) board.

    Raises
    ------
    CardError
        For anything else, naming what was given.
    """
    cards = parse_cards(text)
    if len(cards) not in (3, 4, 5):
        raise CardError(
            f"board {text!r} has {len(cards)} cards; a spot's board has 3 (flop), 4 (turn) "
            "or 5 (river)"
        )
    return cards


def all_combos() -> tuple[tuple[int, int], ...]:
    """The 1,326 combos, higher card first, in increasing order of (high, low)."""
    return tuple((high, low) for low, high in combinations(range(52), 2))
