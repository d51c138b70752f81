"""Showdown equity of each combo of a hold'em spot against the other player's range, read off
the spot's own game: the public tree checked down to its showdown.

A combo's *equity* is the share of the pot it wins at showdown against the other range, ties
counting one half (Chen and Ankenman, *The Mathematics of Poker*, 2006, ch. 3):

    eq(h) = Σ_k w(k) [h, k share no card] E_r[ (1 + sign(l_r(h) − l_r(k))) / 2 ]
            / Σ_k w(k) [h, k share no card]

over the other player's combos ``k`` with their range weights ``w``, ``E_r`` over the river
cards still unseen (a turn spot's public chance node; none on the river) and ``l_r`` the
levels of the showdown leaf (:class:`~seqform.game.public.tree.Sign`).  It is computed from
the :class:`~seqform.game.public.tree.StructuredGame` that the solvers read, so comparing it
with an evaluator's own equity function (eval7's ``py_hand_vs_range_exact``, in the tests)
checks the spot's showdowns, card removal and river cards, not a second copy of them.
"""

from __future__ import annotations

import numpy as np

from seqform.game.public.tree import (
    PublicChance,
    PublicDecision,
    PublicNode,
    Sign,
    StructuredGame,
    hands_clash_free,
)

__all__ = ["CHECK", "showdown_equities"]

CHECK = "x"
"""The spot's check (:mod:`seqform.holdem.betting`): the line followed to the showdown."""


def _won(node: PublicNode, cards: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Shape ``(H0, H1)``: player 0's expected share of the pot at the showdown below
    ``node`` when both check, over the public cards the pair does not hold."""
    if isinstance(node, PublicDecision):
        if CHECK not in node.actions:
            raise ValueError(f"no check at the public decision {node.history!r}: not a spot")
        return _won(node.children[node.actions.index(CHECK)], cards)
    if isinstance(node, PublicChance):
        total = np.zeros((len(cards[0]), len(cards[1])))
        for card, child in zip(node.cards, node.children, strict=True):
            unseen = [(held != card).all(axis=1) for held in cards]
            share = _won(child, cards)
            total += float(node.probability) * share * np.outer(*unseen)
        return total
    if not isinstance(node.rule, Sign) or node.levels is None:
        raise ValueError("checking down ends without a showdown: not a spot")
    first, second = node.levels
    return (1 + np.sign(first[:, None] - second[None, :])) / 2


def showdown_equities(game: StructuredGame, player: int) -> np.ndarray:
    """Each of ``player``'s combos' showdown equity against the other range (module
    docstring), in ``[0, 1]``, in the order of ``game.hands[player]``.

    Raises
    ------
    ValueError
        For a game whose check-down line does not end in a showdown (not a spot).
    """
    cards = (game.hands[0].card_matrix, game.hands[1].card_matrix)
    won = _won(game.root, cards)
    free = hands_clash_free(*game.hands).astype(float)
    if player == 1:
        won, free = 1 - won.T, free.T
    weights = np.array([float(w) for w in game.hands[1 - player].weights])
    mass = free @ weights
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(mass > 0, (free * won) @ weights / np.where(mass > 0, mass, 1.0), np.nan)
