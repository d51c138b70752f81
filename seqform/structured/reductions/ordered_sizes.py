"""The sizes of the ordered game isomorphism's classes, counted without building an LP: per
round, a player's signal classes, and the sequences and information sets they give
(:mod:`seqform.structured.reductions.ordered_isomorphism` defines the classes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from seqform.game.public.symmetry import canonical_game, game_symmetries
from seqform.game.public.tree import PublicChance, PublicDecision, PublicNode, StructuredGame
from seqform.structured.reductions.ordered_isomorphism import CardPartitions, card_partitions
from seqform.structured.reductions.suit_classes import CanonicalBoards, GameSize

__all__ = ["OrderedSizes", "ordered_class_size", "ordered_sizes"]


@dataclass(frozen=True)
class OrderedSizes:
    """A game's sizes at each step: unreduced, on canonical boards, in suit hand classes,
    and in the classes of the ordered isomorphism (:class:`GameSize` each: sequences and
    information sets per player, the LP rows ``1 + infosets[0] + sequences[1]``).

    classes_per_round : per number of public cards, per player, the distinct hand classes
        summed over the canonical boards of that many cards (suits, then ordered)
    """

    full: GameSize
    canonical: GameSize
    suits: GameSize
    ordered: GameSize
    classes_per_round: tuple[tuple[int, int], ...]


def _public_counts(game: StructuredGame) -> dict[tuple[int, int, tuple[int, ...]], list[int]]:
    """Per (player, key): [decision nodes, actions] of the public tree of ``game``."""
    out: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}
    stack: list[tuple[PublicNode, tuple[int, ...]]] = [(game.root, ())]
    while stack:
        node, public = stack.pop()
        if isinstance(node, PublicDecision):
            entry = out.setdefault((node.player, 0, public), [0, 0])
            entry[0] += 1
            entry[1] += len(node.actions)
            stack.extend((child, public) for child in node.children)
        elif isinstance(node, PublicChance):
            stack.extend(
                (child, (*public, card))
                for card, child in zip(node.cards, node.children, strict=True)
                if card not in public
            )
    return out


def _count(parts: CardPartitions, key: tuple[int, ...], labels: np.ndarray, player: int) -> int:
    valid = parts.hand_of_card[player] >= 0
    valid[list(key)] = False
    return len(np.unique(labels[valid]))


def _walked_size(
    parts: CardPartitions,
    counts: dict[tuple[int, int, tuple[int, ...]], list[int]],
    labels: Callable[[tuple[int, ...]], np.ndarray],
) -> GameSize:
    """Sequences and information sets when the hands under public cards ``key`` fall in the
    classes ``labels(key)``, from the public tree's nodes and actions per key."""
    sequences, infosets = [1, 1], [0, 0]
    for (player, _, key), (nodes, actions) in counts.items():
        classes = _count(parts, key, labels(key), player)
        sequences[player] += actions * classes
        infosets[player] += nodes * classes
    return GameSize((sequences[0], sequences[1]), (infosets[0], infosets[1]))


def ordered_sizes(game: StructuredGame) -> OrderedSizes | None:
    """The sizes of :class:`OrderedSizes`, counted on the public trees of the game and of
    its canonical boards with the classes per key: no hand tables and no LP, so the full
    Rhode Island deck is counted in minutes (numbering it would take gigabytes).  None when
    the game has no suit symmetry or :func:`card_partitions` does not apply."""
    symmetries = game_symmetries(game)
    if symmetries.group.trivial:
        return None
    parts = card_partitions(game, symmetries)
    if parts is None:
        return None
    canonical = canonical_game(game, symmetries)
    counts = _public_counts(canonical)
    identity = np.arange(parts.cards)
    rounds: dict[int, list[int]] = {}
    for key in {key for (_, _, key) in counts}:
        entry = rounds.setdefault(len(key), [0, 0])
        entry[0] += _count(parts, key, parts.suit_classes(key), 0)
        entry[1] += _count(parts, key, parts.of(key), 0)
    return OrderedSizes(
        full=_walked_size(parts, _public_counts(game), lambda key: identity),
        canonical=_walked_size(parts, counts, lambda key: identity),
        suits=_walked_size(parts, counts, parts.suit_classes),
        ordered=_walked_size(parts, counts, parts.of),
        classes_per_round=tuple((a, b) for _, (a, b) in sorted(rounds.items())),
    )


def ordered_class_size(boards: CanonicalBoards) -> GameSize | None:
    """The sizes in the ordered classes on ``boards``' canonical game, counted as
    :func:`ordered_sizes` counts them (no hand tables, no LP); None when
    :func:`card_partitions` does not apply."""
    parts = card_partitions(boards.game, boards.symmetries)
    if parts is None:
        return None
    return _walked_size(parts, _public_counts(boards.canonical), parts.of)
