"""One-card showdown poker as a structured game: the betting tree as a public tree.

A :class:`~seqform.game.builtin.showdown_poker.ShowdownPoker` is public tree × one private
card each (:mod:`seqform.game.public_tree`): :func:`structured_showdown` writes it so, and
N-card Kuhn is defined through it (:func:`seqform.game.builtin.kuhn.kuhn_structured`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from seqform.game.builtin.showdown_poker import BettingNode, Fold, Showdown, ShowdownPoker
from seqform.game.public_explicit import ordered_deal
from seqform.game.public_tree import (
    Constant,
    Hands,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    Sign,
    StructuredGame,
)

__all__ = ["structured_showdown"]


def _public_node(
    node: BettingNode, history: str, ranks: tuple[np.ndarray, np.ndarray]
) -> PublicNode:
    """The betting tree below ``node`` as a public tree (a showdown compares ranks)."""
    if isinstance(node, Fold):
        amount = Fraction(node.amount)
        return PublicLeaf(Constant(-amount if node.loser == 0 else amount))
    if isinstance(node, Showdown):
        return PublicLeaf(Sign(Fraction(node.stake)), ranks)
    children = tuple(
        _public_node(child, history + action, ranks)
        for action, child in zip(node.actions, node.children, strict=True)
    )
    return PublicDecision(node.player, tuple(node.actions), children, history)


def structured_showdown(poker: ShowdownPoker) -> StructuredGame:
    """The showdown game as a structured game (:mod:`seqform.game.public_tree`).

    Hands are the ``N`` cards (weight 1, card ``c`` holds card ``c``, level its rank), the
    deal scale ``1/(N(N-1))``, the public tree the betting tree (a fold pays a
    :class:`~seqform.game.public_tree.Constant`, a showdown is a
    :class:`~seqform.game.public_tree.Sign` of the ranks), and the deal one chance node of
    ordered pairs labelled by :meth:`ShowdownPoker.deal_label`.  Its numbering is the
    betting table's (card-major), and its explicit tree is :func:`showdown_game`'s.
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
        root=_public_node(poker.betting, "", (ranks, ranks)),
        write_deal=ordered_deal("deal", poker.deal_separator),
        description=poker.description,
        describe_action=poker.describe_action,
    )
