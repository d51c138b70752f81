"""Card buckets with perfect recall: each round's buckets split the previous round's.

At every deal path (:mod:`seqform.abstraction.rounds`) each valid hand of a player gets a
bucket; the abstract player sees its bucket, not its hand.  For the abstract game to keep
perfect recall, a bucket at a later deal path must determine the bucket at the earlier one
on the same path (a hand cannot forget which bucket it was in); so each round's buckets
are made *inside* each bucket of the previous round (the parent): the round's count ``k_r``
is shared among the parents in proportion to their valid hands (largest remainder, at
least one each, at most as many as the parent has distinct feature points), and each
parent's hands are clustered by k-means on their features, each distinct point weighted by
its hands (:mod:`seqform.abstraction.features`).
This is the perfect-recall abstraction of Waugh et al. (AAMAS 2009) and Johanson et al.
(AAMAS 2013); their imperfect-recall variant would not keep the game a sequence-form LP.

k-means is scikit-learn's :class:`~sklearn.cluster.KMeans` with a fixed ``random_state`` and
``n_init``, so the same game and counts give the same buckets.  Hands with the same features
(Leduc's suits) share a bucket, unless a round asks for as many buckets as hands (then every
hand is its own bucket: the lossless limit, the full game); a parent with no more distinct
points than its share gets one bucket per point without k-means.  Buckets are numbered per
deal path, parent by parent, weakest first (by their mean ``E[HS]`` or ``E[HS²]``, or for
histograms the mass above the low bins).

Suit isomorphism.  Every feature is invariant under the game's suit permutations ``σ``
(``HS(σh | σB) = HS(h | B)``, and ``σ`` permutes the boards still to come), so the buckets
are equivariant: hand ``σh`` at deal path ``σC`` is in the bucket of ``h`` at ``C``.  Given
the game on canonical boards ``G'`` (:mod:`seqform.structured.reductions.suit_classes`),
:func:`card_abstraction` buckets only ``G'``'s deal paths (one per suit-orbit of deal
paths), with the features of the game itself (not of ``G'``, whose boards stand for their
orbits), and makes each bucket a union of hand classes: a hand takes the features and the
bucket of its class's representative (the smallest hand of its orbit under the stabilizer of
the path's cards; the members' features are its own up to the order of their sums).  Its
buckets at a canonical path are then the game's own buckets there
(``tests/test_abstraction_suits.py`` checks them equal on small decks), except in the
lossless limit, where the members of a class share a bucket instead of having one each
(lossless too: the suit reduction loses nothing).  The abstract game built on ``G'`` from
them is the one on the game restricted to suit-symmetric plans, which has its value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from seqform.abstraction.features import Boards, final_boards, hand_features
from seqform.abstraction.rounds import DealPath, Rounds, game_rounds
from seqform.game.public.numbering import release_numbering
from seqform.game.public.symmetry import Symmetries
from seqform.game.public.tree import StructuredGame
from seqform.structured.reductions.suit_classes import CanonicalBoards

__all__ = ["KMEANS_INIT", "KMEANS_SEED", "CardAbstraction", "card_abstraction"]

KMEANS_SEED = 0
"""k-means's ``random_state``: the buckets are the same from run to run."""

KMEANS_INIT = 10
"""k-means's ``n_init``: runs from different k-means++ seeds, the best kept."""


@dataclass(frozen=True)
class CardAbstraction:
    """Each player's bucket of each hand at each deal path.

    counts : the bucket count asked for each round
    features : the features clustered (``"ehs"``, ``"ehs2"`` or ``"histogram"``)
    rounds : the game's rounds and its public nodes' deal paths
    buckets : per player, deal path -> per hand its bucket (int64, -1 for a hand that holds a
        public card of the path)
    """

    counts: tuple[int, ...]
    features: str
    rounds: Rounds
    buckets: tuple[dict[DealPath, np.ndarray], dict[DealPath, np.ndarray]]

    def num_buckets(self, player: int, path: DealPath) -> int:
        """The player's buckets at a deal path."""
        return int(self.buckets[player][path].max(initial=-1)) + 1

    def node_buckets(self, player: int, node: int) -> np.ndarray:
        """Per hand, its bucket at the player's public decision node ``node``."""
        return self.buckets[player][self.rounds.node_paths[player][node]]

    def largest(self, player: int, round_index: int) -> int:
        """The most buckets the player has at a deal path of the round (fewer than asked
        when the hands have fewer distinct features)."""
        paths = self.rounds.paths(player, round_index)
        return max((self.num_buckets(player, path) for path in paths), default=0)


def card_abstraction(
    game: StructuredGame,
    counts: tuple[int, ...],
    features: str = "ehs",
    canonical: CanonicalBoards | None = None,
) -> CardAbstraction:
    """Bucket both players' hands, round by round, each round inside the previous
    (module docstring).  ``counts`` are checked by
    :func:`~seqform.abstraction.rounds.parse_card_buckets`.

    With ``canonical`` (``game``'s canonical boards), the deal paths are those of ``G'``
    (``canonical.canonical``) and every bucket a union of hand classes (module docstring,
    "Suit isomorphism"); the abstraction is then one of ``G'``."""
    from threadpoolctl import threadpool_limits  # a dependency of scikit-learn

    if canonical is not None and canonical.game is not game:
        raise ValueError("the canonical boards are not this game's")
    rounds = game_rounds(game if canonical is None else canonical.canonical)
    boards = _game_boards(game, canonical)
    symmetries = None if canonical is None else canonical.symmetries
    found: tuple[dict[DealPath, np.ndarray], dict[DealPath, np.ndarray]] = ({}, {})
    # one thread: k-means on a few dozen points spends ten times its work starting OpenMP
    with threadpool_limits(limits=1):
        for player in (0, 1):
            _bucket_player(
                game, counts, features, rounds, boards, player, found[player], symmetries
            )
    return CardAbstraction(tuple(counts), features, rounds, found)


def _game_boards(game: StructuredGame, canonical: CanonicalBoards | None) -> Boards:
    """The game's final boards.  With ``canonical`` the game's own numbering, made for them
    alone, is let go (nothing after the buckets numbers the game: the abstract game is
    ``G'``'s), keeping only the boards' strengths: the full Rhode Island hold'em's
    numbering is a gigabyte, its boards a megabyte."""
    boards = final_boards(game)
    if canonical is not None:
        release_numbering(game)
    return boards


def _bucket_player(
    game: StructuredGame,
    counts: tuple[int, ...],
    features: str,
    rounds: Rounds,
    boards: Boards,
    player: int,
    found: dict[DealPath, np.ndarray],
    symmetries: Symmetries | None = None,
) -> None:
    """Fill ``found`` with the player's buckets, deal path by deal path, round by round;
    with ``symmetries``, each hand as its class's representative (module docstring)."""
    cards = game.hands[player].card_matrix
    for round_index, count in enumerate(counts):
        for path in rounds.paths(player, round_index):
            valid = ~np.isin(cards, np.asarray(path, dtype=np.int64)).any(axis=1)
            parent = rounds.parent(path)
            parents = np.zeros(len(cards), dtype=np.int64) if parent is None else found[parent]
            points = hand_features(boards, player, path, features)
            if symmetries is None:
                found[path] = _refine(points, np.where(valid, parents, -1), count)
                continue
            representative = _representatives(symmetries, player, path)
            labels = _refine(points[representative], np.where(valid, parents, -1), count)
            found[path] = _renumbered(labels[representative])


def _representatives(symmetries: Symmetries, player: int, path: DealPath) -> np.ndarray:
    """Per hand, the smallest hand of its orbit under the suit permutations that fix each
    card of ``path``: its hand class's representative in ``G'``."""
    fixing = set(symmetries.group.stabilizer(path).elements)
    maps = [
        pair[player]
        for element, pair in zip(symmetries.group.elements, symmetries.hand_maps, strict=True)
        if element in fixing
    ]
    return np.stack(maps).min(axis=0)


def _renumbered(labels: np.ndarray) -> np.ndarray:
    """``labels`` with the buckets no hand is in removed, the order kept (-1 stays)."""
    out = labels.copy()
    used = labels >= 0
    out[used] = np.unique(labels[used], return_inverse=True)[1].reshape(-1)
    return out


def _refine(points: np.ndarray, parents: np.ndarray, count: int) -> np.ndarray:
    """Per hand its bucket: ``count`` buckets shared among the parents (-1: not valid)."""
    out = np.full(len(parents), -1, dtype=np.int64)
    members = [np.flatnonzero(parents == parent) for parent in range(parents.max(initial=-1) + 1)]
    members = [hands for hands in members if len(hands)]
    distinct = [len(np.unique(points[hands], axis=0)) for hands in members]
    shares = _shares([len(hands) for hands in members], distinct, count)
    next_bucket = 0
    for hands, share in zip(members, shares, strict=True):
        labels = _cluster(points[hands], share)
        out[hands] = next_bucket + labels
        next_bucket += int(labels.max()) + 1
    return out


def _shares(sizes: list[int], distinct: list[int], count: int) -> list[int]:
    """``count`` split in proportion to ``sizes`` (largest remainder), each share at least
    1 and at most its ``distinct`` points, or its hands when the count is all the hands."""
    total = sum(sizes)
    caps = sizes if count >= total else distinct
    exact = [count * size / total for size in sizes]
    shares = [max(1, min(int(e), cap)) for e, cap in zip(exact, caps, strict=True)]
    order = sorted(range(len(sizes)), key=lambda i: (-(exact[i] - int(exact[i])), i))
    while sum(shares) < count:
        grown = False
        for i in order:
            if sum(shares) < count and shares[i] < caps[i]:
                shares[i] += 1
                grown = True
        if not grown:
            break
    return shares


def _cluster(points: np.ndarray, share: int) -> np.ndarray:
    """k-means labels of ``points`` into ``share`` clusters, numbered by their mean first
    feature (weakest 0); one bucket per hand when the share is all the hands."""
    if share >= len(points):  # the lossless limit: hands with equal features kept apart
        strength = points[:, 0] if points.shape[1] == 1 else -points.sum(axis=1)
        rank = np.empty(len(points), dtype=np.int64)
        rank[np.argsort(strength, kind="stable")] = np.arange(len(points))
        return rank
    unique, inverse, weights = np.unique(points, axis=0, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    if share >= len(unique):
        labels = np.arange(len(unique))
    else:
        from sklearn.cluster import KMeans

        model = KMeans(n_clusters=share, n_init=KMEANS_INIT, random_state=KMEANS_SEED)
        labels = model.fit(unique, sample_weight=weights).labels_
    # strength: the first feature, or for a cumulative histogram less mass in low bins
    strength = unique[:, 0] if unique.shape[1] == 1 else -unique.sum(axis=1)
    means = np.asarray([strength[labels == label].mean() for label in range(labels.max() + 1)])
    rank = np.empty(len(means), dtype=np.int64)
    rank[np.argsort(means, kind="stable")] = np.arange(len(means))
    return rank[labels][inverse]
