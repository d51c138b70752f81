"""Structured games: a small public tree × a private hand per player.

Many games — N-card Kuhn, Leduc hold'em, Liar's Dice — have the same shape: each player is
dealt a private *hand* (a card, a roll of dice), and everything after the deal is public
(bets, bids, public cards).  Player ``p``'s information set is (own hand, public history),
so the game is described by

* the hands of each player (:class:`Hands`): a label per hand (as it starts the information
  set's name: ``"Ks"``, ``"13"``, ``"Q"``), an exact marginal weight, and the card it holds
  (or -1 when hands hold no removable card); the deal ``(h0, h1)`` has probability

      deal_scale · w0[h0] · w1[h1] · [cards differ, or are -1]            (card removal)

  (Kuhn-N: ``1/(N(N-1))``; Leduc: ``1/(n(n-1))``; Liar's Dice: 1 with ``w`` the probability
  of a sorted roll);
* the *public tree* (:class:`PublicDecision`, :class:`PublicChance`, :class:`PublicLeaf`):
  a decision's information-set name is the hand's label followed by its ``history``
  (Leduc's ``"Ks" + "|cr|Qh|cr"``); a public chance node turns a public card, outcome ``i``
  having probability ``probability`` unless its card is held by a hand or already public
  (then 0: the outcome is not in the tree);
* a payoff rule per public leaf, as a function of the two hands' *levels* (exact, to
  player 0): :class:`Constant` (folds), :class:`Sign` (showdowns by strength, ties 0) and
  :class:`Threshold` (Liar's Dice's count rule).

So each public leaf ``z`` has the private payoff matrix

    M_z[h0, h1] = chance_z · w0[h0] w1[h1] · valid_z(h0) valid_z(h1) · [no card clash]
                  · rule_z(l0[h0], l1[h1])

(``chance_z`` = ``deal_scale`` × the public chance probabilities on the path; a hand is
*valid* at a public node when its card is not public there), and the sequence-form payoff
matrix (KMvS 1996) is ``A = sum_z M_z ⊗ e_{s0(z)} e_{s1(z)}ᵀ``.  Johanson et al. (IJCAI
2011) evaluate best responses on this shape in time linear in public tree × hands.

This module holds the description and its checks; :mod:`seqform.game.public.numbering`
numbers it, :mod:`seqform.game.public.explicit` writes its explicit tree, and
:mod:`seqform.structured` computes on it without the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from seqform.game.errors import InvalidGameError
from seqform.game.nodes import Node

__all__ = [
    "Constant",
    "DealWriter",
    "Hands",
    "PayoffRule",
    "PublicChance",
    "PublicDecision",
    "PublicLeaf",
    "PublicNode",
    "Sign",
    "StructuredGame",
    "Threshold",
    "compatible_pairs",
    "hands_clash_free",
]


def _object_grid(levels0: np.ndarray, levels1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    first = np.asarray(levels0, dtype=np.int64)[:, None]
    second = np.asarray(levels1, dtype=np.int64)[None, :]
    return first, second


def _exact(values: np.ndarray) -> np.ndarray:
    out = np.empty(values.shape, dtype=object)
    out[...] = values
    return out


@dataclass(frozen=True, slots=True)
class Constant:
    """The payoff to player 0 does not depend on the hands (a fold)."""

    payoff: Fraction

    def dense(self, levels0: np.ndarray, levels1: np.ndarray) -> np.ndarray:
        """The exact ``(H0, H1)`` matrix of payoffs (object array of Fractions)."""
        out = np.empty((len(levels0), len(levels1)), dtype=object)
        out[...] = Fraction(self.payoff)
        return out


@dataclass(frozen=True, slots=True)
class Sign:
    """A showdown: ``stake · sign(l0 - l1)`` to player 0 (equal levels split, payoff 0)."""

    stake: Fraction

    def dense(self, levels0: np.ndarray, levels1: np.ndarray) -> np.ndarray:
        """The exact ``(H0, H1)`` matrix of payoffs (object array of Fractions)."""
        first, second = _object_grid(levels0, levels1)
        return _exact(np.sign(first - second)) * Fraction(self.stake)


@dataclass(frozen=True, slots=True)
class Threshold:
    """``if_reached`` to player 0 when ``l0 + l1 >= quantity``, else ``otherwise``.

    Liar's Dice: a level is a hand's count of the bid face (wild dice included), the bid
    ``quantity`` is reached when both hands together have that many.
    """

    quantity: int
    if_reached: Fraction
    otherwise: Fraction

    def dense(self, levels0: np.ndarray, levels1: np.ndarray) -> np.ndarray:
        """The exact ``(H0, H1)`` matrix of payoffs (object array of Fractions)."""
        first, second = _object_grid(levels0, levels1)
        out = np.empty(np.broadcast_shapes(first.shape, second.shape), dtype=object)
        out[...] = Fraction(self.otherwise)
        out[np.broadcast_to(first + second >= self.quantity, out.shape)] = Fraction(self.if_reached)
        return out


PayoffRule = Constant | Sign | Threshold


@dataclass(frozen=True, eq=False, slots=True)
class PublicLeaf:
    """The game ends; player 0 gets ``rule(levels[0][h0], levels[1][h1])``.

    levels : per player, an int array over its hands; leaves with the same public cards (or
        bid face) share the same array objects.  ``None`` for a :class:`Constant` rule.
    """

    rule: PayoffRule
    levels: tuple[np.ndarray, np.ndarray] | None = None


@dataclass(frozen=True, slots=True)
class PublicDecision:
    """``player`` acts; the information set is named hand label + ``history``."""

    player: int
    actions: tuple[str, ...]
    children: tuple[PublicNode, ...]
    history: str


@dataclass(frozen=True, slots=True)
class PublicChance:
    """Chance turns a public card: outcome ``i`` (labelled ``outcomes[i]``) is card
    ``cards[i]``, with probability ``probability`` when that card is neither in a hand
    nor already public, else 0 (then the explicit tree has no such outcome).

    multiplicity : per outcome, how many cards it stands for (``probability`` is multiplied
        by it); None for one each.  A canonical public tree under suit permutations
        (:mod:`seqform.game.public.symmetry`) keeps one card per orbit, standing for the
        orbit.
    """

    label: str
    outcomes: tuple[str, ...]
    cards: tuple[int, ...]
    probability: Fraction
    children: tuple[PublicNode, ...]
    multiplicity: tuple[int, ...] | None = None

    def outcome_probability(self, outcome: int) -> Fraction:
        """Outcome ``outcome``'s probability when its card is free: ``probability`` times
        its multiplicity."""
        weight = 1 if self.multiplicity is None else self.multiplicity[outcome]
        return Fraction(self.probability) * weight


PublicNode = PublicDecision | PublicChance | PublicLeaf


@dataclass(frozen=True, eq=False)
class Hands:
    """One player's private hands.

    labels : per hand, how it starts the information-set names (``"Ks"``, ``"13"``)
    weights : per hand, its exact marginal weight (1 for a card; a roll's probability)
    cards : per hand, the card it holds (int64, shape ``(H,)``), or -1 when it holds no
        removable card; or the cards it holds, shape ``(H, 2)`` (a hold'em combo), where
        several hands may share a card
    """

    labels: tuple[str, ...]
    weights: tuple[Fraction, ...]
    cards: np.ndarray

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def card_matrix(self) -> np.ndarray:
        """The cards as shape ``(H, k)``: one column for one-card hands (-1: none)."""
        return self.cards.reshape(len(self.labels), -1)


def hands_clash_free(first: Hands, second: Hands) -> np.ndarray:
    """Shape ``(H0, H1)``: True where the two hands hold no common card (dense: for the
    explicit tree and explicit ``A`` of small games)."""
    free = np.ones((len(first), len(second)), dtype=bool)
    for a in first.card_matrix.T:
        for b in second.card_matrix.T:
            free &= (a[:, None] < 0) | (a[:, None] != b[None, :])
    return free


def compatible_pairs(first: Hands, second: Hands) -> int:
    """The pairs ``(h0, h1)`` whose hands hold no common card, counted without the dense
    matrix: all pairs, less those sharing each card, plus the pairs that share two cards
    (counted twice above; hands hold at most two cards)."""
    matrices = first.card_matrix, second.card_matrix
    counts = [np.bincount(m[m >= 0], minlength=1) for m in matrices]
    size = max(len(counts[0]), len(counts[1]))
    shared = [np.pad(c, (0, size - len(c))) for c in counts]
    pairs = len(first) * len(second) - int(shared[0] @ shared[1])
    if matrices[0].shape[1] == 2 and matrices[1].shape[1] == 2:
        keys = [set(map(tuple, np.sort(m, axis=1).tolist())) for m in matrices]
        pairs += len(keys[0] & keys[1])
    return pairs


DealWriter = Callable[["StructuredGame", Callable[[int, int], Node]], Node]
"""How the private deal is written as chance nodes: ``(game, subtree) -> root``, where
``subtree(h0, h1)`` is the public part for the deal ``(h0, h1)``."""


@dataclass(frozen=True, eq=False)
class StructuredGame:
    """A two-player zero-sum game as public tree × private hands (module docstring).

    name : how the CLI names it (``"leduc(ranks=13, suits=4)"``)
    hands : the hands of players 0 and 1
    deal_scale : the exact factor of every deal's probability
    root : the root of the public tree
    write_deal : how :func:`~seqform.game.public.explicit.explicit_game` writes the deal
    description, describe_action : as :class:`~seqform.game.model.Game` has them
    suits : cards are numbered ``rank · suits + suit`` (:mod:`seqform.game.public.suits`):
        the structured route looks for the suit permutations the game is invariant under
        and solves the smaller game of canonical boards; None when the cards have no suits
    fixed_cards : public cards known before the public tree starts (a hold'em spot's board):
        only the suit permutations mapping this set onto itself can map the game onto itself
    origin : what the game was built from, as :class:`~seqform.game.model.Game` has it (a
        hold'em spot's :class:`~seqform.holdem.spot.Spot`), or None
    """

    name: str
    hands: tuple[Hands, Hands]
    deal_scale: Fraction
    root: PublicNode
    write_deal: DealWriter
    description: str = ""
    describe_action: Callable[[str, str], str] | None = field(default=None, repr=False)
    suits: int | None = None
    fixed_cards: tuple[int, ...] = ()
    origin: object | None = field(default=None, repr=False)

    @property
    def player_names(self) -> tuple[str, str]:
        """The two players' names, as the tree written from it has them."""
        return ("Player 1", "Player 2")

    @property
    def num_players(self) -> int:
        return 2

    def __post_init__(self) -> None:
        for player, hands in enumerate(self.hands):
            where = f"{self.name}: player {player + 1}'s hands"
            size = len(hands.labels)
            shape = hands.cards.shape
            if size == 0 or len(hands.weights) != size or shape not in ((size,), (size, 2)):
                raise InvalidGameError(f"{where}: need a label, weight and card (or two) per hand")
            if len(shape) == 1:
                held = hands.cards[hands.cards >= 0]
                if len(np.unique(held)) != len(held):
                    raise InvalidGameError(f"{where}: a card is held by two hands")
            else:
                pairs = np.sort(hands.cards, axis=1)
                if (pairs[:, 0] < 0).any() or (pairs[:, 0] == pairs[:, 1]).any():
                    raise InvalidGameError(f"{where}: a two-card hand needs two different cards")
                if len(np.unique(pairs, axis=0)) != size:
                    raise InvalidGameError(f"{where}: two hands hold the same two cards")
            if len(set(hands.labels)) != size:
                raise InvalidGameError(f"{where}: two hands share a label")
        if not isinstance(self.root, PublicDecision | PublicChance | PublicLeaf):
            raise InvalidGameError(f"{self.name}: the public tree must start with a public node")

    def num_hands(self, player: int) -> int:
        """``H_p``: the player's hands."""
        return len(self.hands[player].labels)
