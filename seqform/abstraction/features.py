"""What a hand is worth at a deal path: the features card abstraction clusters.

Hand strength against a uniform opponent hand (Billings et al. 2003): at a final board
``B`` (the public cards of a showdown), hand ``h`` of player ``p`` has

    HS(h | B) = sum_o w[o] ([l_h > l_o] + [l_h = l_o] / 2) / sum_o w[o]

over the opponent's hands ``o`` that hold no card of ``B`` nor of ``h`` (``l`` the
showdown levels of :class:`~seqform.game.public.tree.Sign` leaves at ``B``, ``w`` the hands'
weights).  At a deal path with public cards ``C``, the boards still to come are the final
boards ``B ⊇ C`` without ``h``'s cards, equally likely (every public card is dealt
uniformly from the cards left, as in Leduc and Rhode Island Hold'em), and

* ``ehs``: the expected hand strength ``E[HS]`` over them (Gilpin and Sandholm 2006 bucket
  by it);
* ``ehs2``: ``E[HS²]``, which ranks drawing hands above made hands of the same mean
  (Zinkevich et al. 2007);
* ``histogram``: the distribution of ``HS`` over them in :data:`HISTOGRAM_BINS` equal bins
  of ``[0, 1]``, written as its cumulative histogram: the Euclidean distance k-means uses
  between cumulative histograms is the Cramér distance, close to the earth mover's distance
  Johanson et al. (AAMAS 2013) cluster by (in one dimension that is the L1 distance of the
  cumulative histograms).

Everything is computed by exact enumeration of the boards, from the game's own showdown
levels, so any structured game with :class:`Sign` showdowns has features (a game without
showdowns has all features 0 and one bucket per parent is all k-means can make).
"""

from __future__ import annotations

import numpy as np

from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import Sign, StructuredGame, hands_clash_free

__all__ = ["FEATURES", "HISTOGRAM_BINS", "Boards", "final_boards", "hand_features"]

FEATURES = ("ehs", "ehs2", "histogram")
"""The feature names, the command line's ``--features`` choices."""

HISTOGRAM_BINS = 10
"""Bins of the hand-strength histogram (``histogram`` features)."""


class Boards:
    """The final boards of a game and every hand's strength at each (module docstring).

    cards : per board, its public cards as a set
    strength : per player, shape (boards, H_p), ``HS(h | B)``; ``valid`` the same shape,
        whether the hand holds no card of the board
    """

    def __init__(self, game: StructuredGame) -> None:
        numbering = number_public_tree(game)
        levels_at: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for leaf, rule in enumerate(numbering.leaf_rules):
            levels = numbering.leaf_levels[leaf]
            if isinstance(rule, Sign) and levels is not None:
                levels_at.setdefault(int(numbering.leaf_cards[leaf]), levels)
        keys = sorted(levels_at)
        self.cards = [frozenset(numbering.public_cards[key]) for key in keys]
        weights = [np.asarray([float(w) for w in game.hands[p].weights]) for p in (0, 1)]
        free = hands_clash_free(*game.hands)
        self.strength: list[np.ndarray] = []
        self.valid: list[np.ndarray] = []
        for player in (0, 1):
            other = 1 - player
            pairs = free if player == 0 else free.T  # (H_p, H_other)
            strength = np.zeros((len(keys), game.num_hands(player)))
            for row, key in enumerate(keys):
                own = np.asarray(levels_at[key][player], dtype=np.int64)
                theirs = np.asarray(levels_at[key][other], dtype=np.int64)
                live = numbering.hand_valid[other][key] * weights[other]
                mass = pairs * live[None, :]
                wins = (own[:, None] > theirs[None, :]) + 0.5 * (own[:, None] == theirs[None, :])
                total = mass.sum(axis=1)
                strength[row] = np.divide(
                    (mass * wins).sum(axis=1), total, out=np.zeros(len(own)), where=total > 0
                )
            self.strength.append(strength)
            self.valid.append(
                numbering.hand_valid[player][np.asarray(keys, dtype=np.int64)]
                if keys
                else np.zeros((0, game.num_hands(player)), dtype=bool)
            )


def final_boards(game: StructuredGame) -> Boards:
    """The game's final boards and hand strengths (:class:`Boards`)."""
    return Boards(game)


def hand_features(boards: Boards, player: int, public: tuple[int, ...], feature: str) -> np.ndarray:
    """Per hand of ``player``, its features at a deal path with the cards ``public``:
    shape (H_p, 1) for ``ehs`` and ``ehs2``, (H_p, :data:`HISTOGRAM_BINS`) for
    ``histogram`` (module docstring).  A hand with no board left (it holds a public card)
    gets zeros; it is never bucketed."""
    if feature not in FEATURES:
        raise ValueError(f"unknown features {feature!r}; choose from {', '.join(FEATURES)}")
    seen = frozenset(public)
    rows = np.asarray([seen <= cards for cards in boards.cards], dtype=bool)
    strength = boards.strength[player][rows]  # (boards, H)
    reach = boards.valid[player][rows].astype(float)
    count = reach.sum(axis=0)
    hands = strength.shape[1]
    if feature == "histogram":
        bins = np.minimum((strength * HISTOGRAM_BINS).astype(np.int64), HISTOGRAM_BINS - 1)
        histogram = np.zeros((hands, HISTOGRAM_BINS))
        for column in range(HISTOGRAM_BINS):
            histogram[:, column] = ((bins == column) * reach).sum(axis=0)
        histogram = np.divide(histogram, count[:, None], out=histogram, where=count[:, None] > 0)
        return np.cumsum(histogram, axis=1)
    values = strength**2 if feature == "ehs2" else strength
    mean = np.divide((values * reach).sum(axis=0), count, out=np.zeros(hands), where=count > 0)
    return mean[:, None]
