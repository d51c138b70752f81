"""Kuhn poker (Kuhn 1950), with the labels of the seeds, written once as a one-card poker game.

Rules: two players ante 1 each and receive one card from J < Q < K; the third card is
unseen.  Player 1 checks (``p``) or bets 1 (``b``).  After a check, player 2 checks
(showdown for 1) or bets; player 1 then folds (``p``) or calls (``b``, showdown for 2).
After a bet, player 2 folds or calls (showdown for 2).  Terminal histories: ``pp``,
``pbp``, ``pbb``, ``bp``, ``bb``.

The rules are the public betting tree of :func:`kuhn_betting`; :func:`kuhn_structured` is
that game as public tree × private cards, and :func:`kuhn_poker` its explicit tree
(:func:`~seqform.game.public.explicit.explicit_game`).  Information
sets are named by the owner's card and the betting history it has seen: player 1 has
``J Q K Jpb Qpb Kpb``, player 2 has ``Jp Jb Qp Qb Kp Kb``.  Deals are labelled ``"JQ"``
(player 1's card first) with three cards and ``"3,12"`` with ``cards=N`` (ranks 1..N).
"""

from __future__ import annotations

from fractions import Fraction

from seqform.base.limits import LIMITS
from seqform.game.builtin.one_card import (
    Bet,
    Fold,
    OneCardPoker,
    Showdown,
    check_deck_size,
    one_card_game,
)
from seqform.game.model import Game
from seqform.game.public.explicit import explicit_game
from seqform.game.public.tree import StructuredGame

__all__ = [
    "CARDS",
    "MAX_TREE_NODES",
    "kuhn_betting",
    "kuhn_poker",
    "kuhn_structured",
    "poker_words",
]

CARDS = ("J", "Q", "K")
MAX_TREE_NODES = LIMITS.kuhn_tree_nodes  # why: seqform.base.limits


def poker_words(infoset: str, action: str) -> str:
    """Say a ``p``/``b`` action in poker words: after a bet, p folds and b calls."""
    facing_bet = infoset.endswith("b")
    if action == "p":
        return "fold" if facing_bet else "check"
    if action == "b":
        return "call" if facing_bet else "bet"
    return action


def kuhn_betting(cards: int = 3) -> OneCardPoker:
    """Kuhn poker with ``cards`` cards described by its betting tree (a one-card poker
    game); :func:`kuhn_structured` is what the solvers take.

    Player 0 checks (``p``) or bets (``b``); after a check player 1 checks (showdown for
    1) or bets, and player 0 folds or calls (showdown for 2); after a bet player 1 folds
    or calls (showdown for 2).

    Raises
    ------
    InvalidGameError
        If ``cards`` is not an integer of at least 2 (the message names
        ``kuhn(cards=...)``).
    """
    one, two = Fraction(1), Fraction(2)
    check_bet = Bet(0, ("p", "b"), (Fold(0, one), Showdown(two)))
    after_check = Bet(1, ("p", "b"), (Showdown(one), check_bet))
    after_bet = Bet(1, ("p", "b"), (Fold(1, one), Showdown(two)))
    named = cards == 3
    return OneCardPoker(
        name="kuhn" if named else f"kuhn(cards={cards})",
        cards=cards,
        betting=Bet(0, ("p", "b"), (after_check, after_bet)),
        description=f"Kuhn poker (Kuhn 1950) with {cards} cards",
        card_names=CARDS if named else None,
        describe_action=poker_words,
        deal_separator="" if named else ",",
    )


def kuhn_poker(cards: int = 3) -> Game:
    """Kuhn poker with ``cards`` cards (default 3: J, Q, K; otherwise ranks 1..cards).

    Every ordered pair of distinct cards is dealt with probability 1 / (cards (cards - 1)).

    Raises
    ------
    ValueError
        If ``cards`` is not an integer of at least 2 (an ``InvalidGameError`` naming
        ``kuhn``, as the tree route always has), or if the tree would have more than
        :data:`MAX_TREE_NODES` nodes.
    """
    check_deck_size(cards, "kuhn")
    return explicit_game(
        kuhn_structured(cards), max_nodes=MAX_TREE_NODES, instead="--method structured"
    )


def kuhn_structured(cards: int = 3) -> StructuredGame:
    """Kuhn poker with ``cards`` cards as a structured game (public betting × one card each),
    :func:`kuhn_betting`'s betting tree; :func:`kuhn_poker` is its explicit tree."""
    check_deck_size(cards, "kuhn")
    return one_card_game(kuhn_betting(cards))
