"""The betting rounds of a structured game and the ``card_buckets`` spec: one bucket count
per round.

A *round* is a stretch of the public tree between public cards: every public decision
node lies in the round given by how many public cards were turned on its path (Leduc: 0
then 1; Rhode Island Hold'em: 0, 1, 2).  Each decision node has a *deal path*, the public
cards on its path in the order they were turned; the deal path of a later round starts
with the deal path of the earlier round on the same path, which is what lets a round's
buckets refine the previous round's (:mod:`seqform.abstraction.buckets`).  Buckets are
per deal path, not per set of public cards: two orders of the same cards are different
public histories, and each must refine its own parent.

The paths are found by one walk of the public tree in the preorder of
:func:`seqform.game.public.numbering.number_public_tree`, so the ``k``-th decision node of
player ``p`` met here is that numbering's node ``k``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import PublicChance, PublicDecision, PublicNode, StructuredGame
from seqform.routes.options import OptionsError

__all__ = [
    "CardBucketsError",
    "Rounds",
    "game_rounds",
    "parse_card_buckets",
    "read_card_buckets",
]

DealPath = tuple[int, ...]


class CardBucketsError(OptionsError):
    """A ``card_buckets`` spec this game cannot take (not integers, the wrong number of
    rounds, more buckets than hands, fewer buckets than the round before): a usage error
    (exit 2 on the command line)."""


@dataclass(frozen=True)
class Rounds:
    """The rounds of a structured game, and each public decision node's deal path.

    lengths : per round, how many public cards its decision nodes have seen (increasing)
    node_paths : per player, per public decision node (the numbering's order), its deal path
    """

    lengths: tuple[int, ...]
    node_paths: tuple[tuple[DealPath, ...], tuple[DealPath, ...]]

    def round_of(self, path: DealPath) -> int:
        """The round of a deal path."""
        return self.lengths.index(len(path))

    def parent(self, path: DealPath) -> DealPath | None:
        """The deal path of the round before, on the same path (None in the first round)."""
        position = self.round_of(path)
        return None if position == 0 else path[: self.lengths[position - 1]]

    def paths(self, player: int, round_index: int) -> list[DealPath]:
        """The player's distinct deal paths in one round, in the order first met."""
        length = self.lengths[round_index]
        found = dict.fromkeys(p for p in self.node_paths[player] if len(p) == length)
        return list(found)


def game_rounds(game: StructuredGame) -> Rounds:
    """The rounds and deal paths of ``game`` (module docstring)."""
    numbering = number_public_tree(game)
    paths: tuple[list[DealPath], list[DealPath]] = ([], [])
    stack: list[tuple[PublicNode, DealPath]] = [(game.root, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, PublicDecision):
            paths[node.player].append(path)
            stack.extend((child, path) for child in reversed(node.children))
        elif isinstance(node, PublicChance):
            stack.extend(
                (child, (*path, card))
                for card, child in reversed(list(zip(node.cards, node.children, strict=True)))
                if card not in path
            )
    for player in (0, 1):  # the same walk as the numbering's: its nodes, in its order
        assert len(paths[player]) == numbering.num_public_nodes(player)
    lengths = tuple(sorted({len(path) for player in (0, 1) for path in paths[player]}))
    return Rounds(lengths, (tuple(paths[0]), tuple(paths[1])))


def parse_card_buckets(spec: str | Sequence[int], game: StructuredGame) -> tuple[int, ...]:
    """The bucket count of each round, checked against ``game``.

    ``spec`` is ``"3,9"`` (the command line's ``--card-buckets``) or a sequence of ints.
    Each round needs a count of at least 1 and at most the player's hands, and no round
    fewer than the round before (a round's buckets split the previous round's: the count is
    the total over all parents; equal counts keep the previous round's buckets).

    Raises
    ------
    CardBucketsError
        Naming the count at fault and what the game has.
    """
    what = _shown(spec)
    counts = _integers(spec, what)
    rounds = game_rounds(game)
    hands = min(game.num_hands(0), game.num_hands(1))
    if len(counts) != len(rounds.lengths):
        # an example the game takes: 3, 9, 27, ... capped at the hands
        example = ",".join(str(min(3 ** (i + 1), hands)) for i in range(len(rounds.lengths)))
        raise CardBucketsError(
            f"{what}: {game.name} has {len(rounds.lengths)} betting round(s); give one bucket "
            f"count per round, e.g. {example}"
        )
    for position, count in enumerate(counts):
        if count < 1:
            raise CardBucketsError(f"{what}: round {position + 1} needs at least 1 bucket")
        if count > hands:
            raise CardBucketsError(
                f"{what}: round {position + 1} asks for {count} buckets, but a player has only "
                f"{hands} hands"
            )
        if position and count < counts[position - 1]:
            raise CardBucketsError(
                f"{what}: round {position + 1} has fewer buckets ({count}) than round "
                f"{position} ({counts[position - 1]}); each round's buckets split the previous "
                "round's, so the counts cannot decrease"
            )
    return counts


def read_card_buckets(spec: str | Sequence[int]) -> tuple[int, ...]:
    """The counts of ``spec`` as whole numbers, not yet checked against a game
    (:func:`parse_card_buckets` checks them).

    Raises
    ------
    CardBucketsError
        For counts that are not whole numbers.
    """
    return _integers(spec, _shown(spec))


def _shown(spec: str | Sequence[int]) -> str:
    return f"card_buckets {spec!r}" if not isinstance(spec, str) else f"--card-buckets {spec!r}"


def _integers(spec: str | Sequence[int], what: str) -> tuple[int, ...]:
    if isinstance(spec, str):
        parts = [part.strip() for part in spec.split(",")]
        if not all(part.isdigit() for part in parts):
            raise CardBucketsError(
                f"{what}: write whole bucket counts separated by commas, one per round, e.g. 3,9"
            )
        return tuple(int(part) for part in parts)
    values = tuple(spec)
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise CardBucketsError(f"{what}: give one whole bucket count per round, e.g. (3, 9)")
    return values
