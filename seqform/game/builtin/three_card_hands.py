"""Three-card poker hands ranked: Rhode Island hold'em's showdown (private card + two public).

Categories, best first (Shi and Littman 2001; Gilpin and Sandholm 2007): straight flush,
three of a kind, straight, flush, pair, high card.  With three cards a straight is rarer
than a flush (720 against 1,096 of the 22,100 hands of a 52-card deck), so the order is not
Texas hold'em's: the maintained evaluators installed here (``eval7``, ``phevaluator``) rank
5 to 7 cards with a flush above a straight, and cannot rank three cards in this order; the
ranking is therefore written here, and checked against the standard three-card frequencies
(``tests/test_rhode_island.py``).

Ranks are *faces* ``0 … 12`` for ``2 … A``.  Within a category hands are ordered by:

* straight flush, straight: the straight's top card; A-2-3 is the lowest straight (its top
  card is the 3) and Q-K-A the highest; there is no wrap-around (K-A-2 is not a straight);
* three of a kind: its face;
* pair: the pair's face, then the odd card's;
* flush, high card: the faces from the highest down.

A hand's *level* is ``category · 13³ + order within the category`` (category 0 = high card
… 5 = straight flush), an integer that is higher for the better hand and equal for hands
that split the pot.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "CATEGORIES",
    "FACES",
    "hand_category",
    "hand_level",
    "hand_levels",
]

FACES = 13  # 2 … A
CATEGORIES = ("high card", "pair", "flush", "straight", "three of a kind", "straight flush")
_BASE = FACES**3
_WHEEL = (0, 1, 12)  # A-2-3, sorted by face


def hand_category(level: int) -> str:
    """The category of a hand of this ``level`` in words (``"pair"``)."""
    return CATEGORIES[level // _BASE]


def hand_level(faces: tuple[int, int, int], suits: tuple[int, int, int]) -> int:
    """The level of one hand of three cards, given by their faces (0 = 2 … 12 = A) and suits.

    Raises
    ------
    ValueError
        If a face is out of ``0 … 12`` or the hand does not have three cards.
    """
    if len(faces) != 3 or len(suits) != 3:
        raise ValueError(f"a hand has three cards, got faces {faces!r} and suits {suits!r}")
    if any(not 0 <= face < FACES for face in faces):
        raise ValueError(f"faces are 0 (a 2) to 12 (an ace), got {faces!r}")
    low, middle, high = sorted(faces)
    flush = suits[0] == suits[1] == suits[2]
    if (low, middle, high) == _WHEEL:
        straight_top: int | None = 1  # A-2-3: the 3 is its top card
    elif middle == low + 1 and high == low + 2:
        straight_top = high
    else:
        straight_top = None
    if straight_top is not None:
        return (5 if flush else 3) * _BASE + straight_top
    if low == high:
        return 4 * _BASE + low
    if low == middle or middle == high:
        pair, odd = (middle, high if low == middle else low)
        return 1 * _BASE + pair * FACES + odd
    kickers = (high * FACES + middle) * FACES + low
    return (2 if flush else 0) * _BASE + kickers


def hand_levels(
    faces: np.ndarray, suits: np.ndarray, public: tuple[tuple[int, int], tuple[int, int]]
) -> np.ndarray:
    """Each private card's level with the two public cards ``((face, suit), (face, suit))``.

    ``faces`` and ``suits`` give the private cards (int arrays of one shape); a private card
    equal to a public card gets the level of that (impossible) hand, never read.
    """
    (face_a, suit_a), (face_b, suit_b) = public
    return np.asarray(
        [
            hand_level((int(face), face_a, face_b), (int(suit), suit_a, suit_b))
            for face, suit in zip(faces.tolist(), suits.tolist(), strict=True)
        ],
        dtype=np.int64,
    )
