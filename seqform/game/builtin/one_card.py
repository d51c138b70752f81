"""One-card poker, described by its betting tree and written as a structured game.

Each player is dealt one card from a deck of ``N`` ranked cards ``0 < 1 < ... < N-1``;
every ordered pair of distinct cards has probability ``1 / (N (N-1))``.  Then both players
bet along a *public* betting tree (:class:`Bet`, :class:`Fold`, :class:`Showdown`): a path
ends in a fold, where the folding player pays a fixed amount, or a showdown, where the
higher card wins a fixed stake.  Kuhn poker (Kuhn 1950) is the three-card member of this
family and N-card Kuhn the rest (:func:`seqform.game.builtin.kuhn.kuhn_structured`).

:class:`OneCardPoker` is only the *description*; :func:`one_card_game` writes it as
public tree × one private card each (:mod:`seqform.game.public.tree`), and everything else —
the sequence tables, the structured LP, best responses, the explicit tree for small ``N`` —
is the structured route's (:mod:`seqform.structured`,
:func:`~seqform.game.public.explicit.explicit_game`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.game.errors import InvalidGameError
from seqform.game.public.explicit import ordered_deal
from seqform.game.public.tree import (
    Constant,
    Hands,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    Sign,
    StructuredGame,
)

__all__ = [
    "Bet",
    "BettingNode",
    "Fold",
    "OneCardPoker",
    "Showdown",
    "check_deck_size",
    "one_card_game",
]


@dataclass(frozen=True, slots=True)
class Fold:
    """The betting ends: ``loser`` folds and pays ``amount`` to the other player."""

    loser: int
    amount: Fraction


@dataclass(frozen=True, slots=True)
class Showdown:
    """The betting ends in a showdown: the higher card wins ``stake`` from the lower."""

    stake: Fraction


@dataclass(frozen=True, slots=True)
class Bet:
    """A betting decision of ``player``; the history that leads here is public."""

    player: int
    actions: tuple[str, ...]
    children: tuple[BettingNode, ...]


BettingNode = Bet | Fold | Showdown


def check_deck_size(cards: object, name: str) -> None:
    """Refuse a deck that is not an integer of at least 2 cards, naming the game.

    Raises
    ------
    InvalidGameError
        ``"<name>: cards must be an integer >= 2, got <cards>"``.
    """
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 2:
        raise InvalidGameError(f"{name}: cards must be an integer >= 2, got {cards!r}")


def _leaf(node: Fold | Showdown, where: str) -> PublicLeaf:
    """A fold pays a :class:`Constant`, a showdown a :class:`Sign` of the ranks (levels
    are filled in by :func:`_public_node`)."""
    if isinstance(node, Fold):
        if node.loser not in (0, 1):
            raise InvalidGameError(f"{where}: the folding player must be 0 or 1")
        amount = Fraction(node.amount)
        if amount <= 0:
            raise InvalidGameError(f"{where}: a fold must pay a positive amount")
        return PublicLeaf(Constant(-amount if node.loser == 0 else amount))
    stake = Fraction(node.stake)
    if stake <= 0:
        raise InvalidGameError(f"{where}: a showdown must have a positive stake")
    return PublicLeaf(Sign(stake))


def _public_node(
    node: BettingNode, history: str, ranks: tuple[np.ndarray, np.ndarray], name: str
) -> PublicNode:
    """The betting tree below ``node`` as a public tree, validated on the way."""
    where = f"{name}: betting history {history or '(root)'!r}"
    if isinstance(node, Fold | Showdown):
        leaf = _leaf(node, where)
        return leaf if isinstance(node, Fold) else PublicLeaf(leaf.rule, ranks)
    if not isinstance(node, Bet):
        raise InvalidGameError(f"{where}: {type(node).__name__} is not a betting node")
    if node.player not in (0, 1):
        raise InvalidGameError(
            f"{where}: player {node.player!r} bets, but the game has players 0 and 1"
        )
    if not node.actions or len(node.actions) != len(node.children):
        raise InvalidGameError(f"{where}: needs one child per action, and an action")
    if len(set(node.actions)) != len(node.actions):
        raise InvalidGameError(f"{where}: repeated action labels {node.actions}")
    children = tuple(
        _public_node(child, history + action, ranks, name)
        for action, child in zip(node.actions, node.children, strict=True)
    )
    return PublicDecision(node.player, tuple(node.actions), children, history)


@dataclass(frozen=True, eq=False)
class OneCardPoker:
    """A one-card poker game (see the module docstring); solve it as
    :func:`one_card_game` writes it.

    name : how the CLI names it, e.g. ``"kuhn(cards=250000)"``
    cards : ``N >= 2``, the size of the deck
    betting : the root of the public betting tree (checked on construction)
    card_names : a name per card, lowest first; ``None`` names them ``"1" .. "N"``
    describe_action : ``(infoset name, action) -> words``, for displays
    deal_separator : written between the two cards' names in a deal's label
        (``"3,12"``; Kuhn's three named cards use ``""``: ``"KJ"``)
    """

    name: str
    cards: int
    betting: Bet
    description: str = ""
    card_names: tuple[str, ...] | None = None
    describe_action: Callable[[str, str], str] | None = None
    deal_separator: str = ","

    def __post_init__(self) -> None:
        check_deck_size(self.cards, self.name)
        if self.card_names is not None and len(self.card_names) != self.cards:
            raise InvalidGameError(
                f"{self.name}: {len(self.card_names)} card names for {self.cards} cards"
            )
        if not isinstance(self.betting, Bet):
            raise InvalidGameError(f"{self.name}: the betting tree must start with a Bet")
        ranks = np.zeros(0, dtype=np.int64)
        _public_node(self.betting, "", (ranks, ranks), self.name)  # validates

    def card_name(self, card: int) -> str:
        """The name of card ``card`` (0-based rank)."""
        return self.card_names[card] if self.card_names is not None else str(card + 1)


def one_card_game(poker: OneCardPoker) -> StructuredGame:
    """The one-card poker game as a structured game (:mod:`seqform.game.public.tree`).

    Hands are the ``N`` cards (weight 1, card ``c`` holds card ``c``, level its rank), the
    deal scale ``1/(N(N-1))``, the public tree the betting tree (a fold pays a
    :class:`~seqform.game.public.tree.Constant`, a showdown is a
    :class:`~seqform.game.public.tree.Sign` of the ranks), and the deal one chance node of
    ordered pairs, the two cards' names joined by ``poker.deal_separator`` (``"KJ"``,
    ``"3,12"``).  Information sets are named card + betting history (Kuhn's ``"Qpb"``).
    """
    ranks = np.arange(poker.cards, dtype=np.int64)
    hands = Hands(
        labels=tuple(poker.card_name(card) for card in range(poker.cards)),
        weights=(Fraction(1),) * poker.cards,
        cards=ranks,
    )
    return StructuredGame(
        name=poker.name,
        hands=(hands, hands),
        deal_scale=Fraction(1, poker.cards * (poker.cards - 1)),
        root=_public_node(poker.betting, "", (ranks, ranks), poker.name),
        write_deal=ordered_deal("deal", poker.deal_separator),
        description=poker.description,
        describe_action=poker.describe_action,
    )
