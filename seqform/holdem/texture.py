"""A board's texture, as aggregate reports group boards: pairing, suits, connectedness and
high card.

Solvers' aggregate reports (PioSOLVER's, GTO Wizard's "board texture grouping", Desktop
Postflop's) sort flops by a few labels that players read strategy off; seqform defines them
on the whole board as dealt (3, 4 or 5 cards), from its ranks and suits alone:

``pairing``
    from the board's rank counts: ``"unpaired"`` (every rank once), ``"paired"`` (one rank
    twice), ``"two-pair"`` (two ranks twice), ``"trips"`` (a rank three times and no other
    pair), ``"full-house"`` (three and two), ``"quads"``.
``suits``
    from the most cards of one suit, ``m`` of ``n``: ``"rainbow"`` (``m = 1``: no two of a
    suit), ``"two-tone"`` (``m = 2``: a flush draw on the flop, no flush yet),
    ``"monotone"`` (``m = n``: every card one suit), ``"three-flush"`` or ``"four-flush"``
    (``3 <= m < n``, a turn or river board on which a flush is made with two or one suited
    hole cards).
``connectedness``
    from the board's distinct ranks, the ace counting high and low (A-2-3-4-5):
    ``"connected"`` when some five consecutive ranks hold three of them (a straight is
    possible: two hole cards complete it; ``JT8``, ``A32``), ``"semi-connected"`` when
    some five consecutive ranks hold two (straight draws on the flop: ``K9x``, ``752``),
    ``"disconnected"`` otherwise (``K72``: no two ranks within four of each other).
``high_card`` and ``height``
    the highest rank (``"A"`` to ``"2"``), and its class as Acevedo groups flops (*Modern
    Poker Theory*, 2019): ``"A"`` (ace), ``"H"`` (K to T: high), ``"M"`` (9 to 6:
    middle), ``"L"`` (5 to 2: low).

A board's *group*, the one label its bar goes under in ``solve-many --plot``, is
``"paired"`` when its pairing is not ``"unpaired"``, else its suits label: the two features
aggregate reports first split flops by (a pair changes who has the strong hands, a flush
draw or a made flush changes which hands can bet).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from seqform.holdem.cards import RANKS, card_text

__all__ = ["BoardTexture", "board_texture"]

STRAIGHT_SPAN = 5  # ranks in a straight
HEIGHTS = {"A": "A", "K": "H", "Q": "H", "J": "H", "T": "H", "9": "M", "8": "M", "7": "M"}
HEIGHTS |= {"6": "M", "5": "L", "4": "L", "3": "L", "2": "L"}


@dataclass(frozen=True)
class BoardTexture:
    """A board's texture labels (module docstring).

    board : the cards as written (``"AsKsQs"``)
    pairing : ``"unpaired"``, ``"paired"``, ``"two-pair"``, ``"trips"``, ``"full-house"``,
        ``"quads"``
    suits : ``"rainbow"``, ``"two-tone"``, ``"monotone"``, ``"three-flush"``,
        ``"four-flush"``
    connectedness : ``"connected"``, ``"semi-connected"``, ``"disconnected"``
    high_card : the highest rank, ``"A"`` to ``"2"``
    height : ``"A"``, ``"H"`` (K-T), ``"M"`` (9-6) or ``"L"`` (5-2)
    """

    board: str
    pairing: str
    suits: str
    connectedness: str
    high_card: str
    height: str

    @property
    def paired(self) -> bool:
        """Whether a rank is on the board more than once."""
        return self.pairing != "unpaired"

    @property
    def group(self) -> str:
        """``"paired"``, or the suits label of an unpaired board (module docstring)."""
        return "paired" if self.paired else self.suits


def _pairing(counts: list[int]) -> str:
    top = counts[0]
    second = counts[1] if len(counts) > 1 else 0
    if top == 4:
        return "quads"
    if top == 3:
        return "full-house" if second >= 2 else "trips"
    if top == 2:
        return "two-pair" if second == 2 else "paired"
    return "unpaired"


def _suits(most: int, cards: int) -> str:
    if most == 1:
        return "rainbow"
    if most == 2:
        return "two-tone"
    if most == cards:
        return "monotone"
    return "three-flush" if most == 3 else "four-flush"


def _connectedness(ranks: set[int]) -> str:
    """Ranks 0 (deuce) to 12 (ace); the ace also counts below the deuce."""
    values = {rank + 2 for rank in ranks} | ({1} if 12 in ranks else set())
    most = max(
        sum(low <= value < low + STRAIGHT_SPAN for value in values)
        for low in range(1, 15 - STRAIGHT_SPAN + 1)
    )
    if most >= 3:
        return "connected"
    return "semi-connected" if most == 2 else "disconnected"


def board_texture(board: tuple[int, ...]) -> BoardTexture:
    """The texture labels of ``board``'s cards (:mod:`seqform.holdem.cards` numbers).

    Raises
    ------
    ValueError
        For a board of other than 3, 4 or 5 distinct cards.
    """
    if len(set(board)) != len(board) or not 3 <= len(board) <= 5:
        raise ValueError(f"a board is 3, 4 or 5 distinct cards, not {board!r}")
    ranks = [card // 4 for card in board]
    counts = sorted(Counter(ranks).values(), reverse=True)
    most_of_a_suit = max(Counter(card % 4 for card in board).values())
    high = RANKS[max(ranks)]
    return BoardTexture(
        board="".join(card_text(card) for card in board),
        pairing=_pairing(counts),
        suits=_suits(most_of_a_suit, len(board)),
        connectedness=_connectedness(set(ranks)),
        high_card=high,
        height=HEIGHTS[high],
    )
