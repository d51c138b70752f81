"""Cards under suit permutations: canonical cards, stabilizers and orbit sizes.

A deck of ``ranks × suits`` cards numbered ``card = rank · suits + suit`` (Leduc, Rhode
Island hold'em and hold'em's ``4 · rank + suit`` alike).  A suit permutation ``σ`` (a tuple,
``σ[suit]`` the new suit) maps card ``r · suits + t`` to ``r · suits + σ[t]``.  When a game's
payoffs and deal depend on the suits only through which cards are equal, every ``σ`` of a
group ``S`` maps the game onto itself, and an equilibrium that is the same on each orbit of
``S`` exists (average any equilibrium over ``S``: the min-max LP is convex and invariant).

Public cards turned one after another: at a public chance node whose path has turned the
cards ``b = (c_1 .. c_k)``, the permutations that keep the game's past as it was are the
*stabilizer* of ``b`` (those fixing each ``c_i``, so the suits of ``b``).  Among the next
card's outcomes one *canonical* card per orbit of that stabilizer is kept (the smallest), and
it stands for the orbit's size: the canonical boards of :func:`canonical_board`.  Orbit and
stabilizer are computed on the group's elements (at most ``4! = 24``), so any subgroup works:
the setwise stabilizer of a hold'em flop (:func:`setwise_stabilizer`) as well as the whole
symmetric group of Leduc's suits.

This module holds only the card arithmetic; :mod:`seqform.game.public.symmetry` finds the
group a structured game is invariant under and writes its canonical public tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import permutations

import numpy as np

__all__ = [
    "CanonicalBoard",
    "SuitGroup",
    "canonical_board",
    "card_map",
    "permute_card",
    "setwise_stabilizer",
    "symmetric_group",
]

MAX_SUITS = 4
"""The largest number of suits a group is written out for (``4! = 24`` elements)."""

Permutation = tuple[int, ...]


def permute_card(card: int, permutation: Permutation) -> int:
    """The card ``permutation`` maps ``card`` to (``-1``, no card, stays ``-1``)."""
    if card < 0:
        return card
    suits = len(permutation)
    return card - card % suits + permutation[card % suits]


def _compose(after: Permutation, before: Permutation) -> Permutation:
    return tuple(after[suit] for suit in before)


@dataclass(frozen=True)
class SuitGroup:
    """A group of suit permutations, written out element by element.

    suits : the deck's suits
    elements : the permutations, the identity first
    """

    suits: int
    elements: tuple[Permutation, ...]

    @property
    def order(self) -> int:
        """The group's elements."""
        return len(self.elements)

    @property
    def trivial(self) -> bool:
        """Whether the group is the identity alone (nothing to reduce)."""
        return self.order == 1

    def stabilizer(self, cards: Iterable[int]) -> SuitGroup:
        """The elements fixing each of ``cards`` (pointwise: a suit on the board stays)."""
        fixed = [card for card in cards if card >= 0]
        kept = tuple(
            element
            for element in self.elements
            if all(permute_card(card, element) == card for card in fixed)
        )
        return SuitGroup(self.suits, kept)

    def orbit(self, card: int) -> tuple[int, ...]:
        """The cards the group maps ``card`` to, sorted."""
        return tuple(sorted({permute_card(card, element) for element in self.elements}))

    def canonical(self, card: int) -> int:
        """The smallest card of ``card``'s orbit."""
        return self.orbit(card)[0]

    def to_canonical(self, card: int) -> Permutation:
        """An element mapping ``card`` to :meth:`canonical` (the first such)."""
        target = self.canonical(card)
        return next(e for e in self.elements if permute_card(card, e) == target)


def symmetric_group(suits: int) -> SuitGroup:
    """Every permutation of ``suits`` suits (1 to :data:`MAX_SUITS`), the identity first."""
    if not 1 <= suits <= MAX_SUITS:
        raise ValueError(f"suits must be 1 to {MAX_SUITS}, not {suits!r}")
    return SuitGroup(suits, tuple(permutations(range(suits))))


def setwise_stabilizer(group: SuitGroup, cards: Iterable[int]) -> SuitGroup:
    """The elements mapping the set ``cards`` onto itself (a hold'em spot's fixed board,
    whose cards are not turned one by one)."""
    board = frozenset(cards)
    kept = tuple(e for e in group.elements if {permute_card(c, e) for c in board} == board)
    return SuitGroup(group.suits, kept)


@dataclass(frozen=True)
class CanonicalBoard:
    """An ordered board mapped to its canonical form.

    cards : the canonical board (each card the smallest of its orbit under the stabilizer
        of the cards before it)
    permutation : a group element mapping the board to ``cards``
    """

    cards: tuple[int, ...]
    permutation: Permutation


def canonical_board(group: SuitGroup, board: Iterable[int]) -> CanonicalBoard:
    """The canonical form of the public cards ``board``, in the order they were turned.

    Card by card: the card, mapped by the permutation so far, goes to the smallest card of
    its orbit under the stabilizer of the canonical cards before it; that element is
    composed into the permutation.  Two boards in one orbit of ``group`` get the same
    canonical form, and the permutation maps each onto it.
    """
    permutation: Permutation = tuple(range(group.suits))
    stabilizer = group
    cards: list[int] = []
    for card in board:
        mapped = permute_card(card, permutation)
        step = stabilizer.to_canonical(mapped)
        permutation = _compose(step, permutation)
        cards.append(permute_card(mapped, step))
        stabilizer = stabilizer.stabilizer([cards[-1]])
    return CanonicalBoard(tuple(cards), permutation)


def card_map(permutation: Permutation, cards: np.ndarray) -> np.ndarray:
    """``permutation`` applied to an int array of cards (``-1`` stays)."""
    suits = len(permutation)
    table = np.asarray(permutation, dtype=np.int64)
    mapped = cards - cards % suits + table[cards % suits]
    return np.where(cards < 0, cards, mapped)
