"""A card abstraction's size before it is built, and its refusal beyond memory.

Player ``p``'s abstract game has one sequence per bucket and action at each of its public
decision nodes (:mod:`seqform.abstraction.abstract_game`), and the empty sequence:

    1 + sum over public decision nodes k of |A(k)| * b(k),
    b(k) = min(K_t, hands of p that hold no public card of k's deal path),

``K_t`` the count asked for ``k``'s round.  That is at most the abstract game's size: a
round gets fewer buckets than asked where hands have fewer distinct features (Leduc's suits
before the public card; Rhode Island hold'em on 16 cards, whose 3,6,12 abstraction has
712,351 abstract sequences a player where the bound says 1,417,951).  On the 52-card Rhode
Island hold'em with suit isomorphism the bound is the size (160,171 a player for 1,1,1,
1,277,661 for 2,4,8: ``docs/abstraction.md``).

Rhode Island hold'em is sized by formula from its parameters (:func:`planned_size`), since
building its full description takes a minute: one private card of ``n``, a player's deal
paths are ``1``, ``n`` and ``n (n - 1)`` in its rounds (``1``, ``r`` and ``r (2r - 1)`` on
canonical boards, :func:`~seqform.game.builtin.rhode_island_sizes.
rhode_island_suit_reduced_sizes`) with ``n``, ``n - 1`` and ``n - 2`` hands each; so the
abstraction's signals in :func:`~seqform.game.builtin.rhode_island_sizes.
rhode_island_signal_sizes` are ``b_1``, ``n b_2`` and ``n (n - 1) b_3``.  Every other
game is counted on its public tree (:func:`counted_size`), which the abstraction numbers
anyway, before its buckets are made.

The memory estimate is :func:`~seqform.routes.sizing.memory.abstraction_estimate`; a game
whose estimate exceeds what the process may have is refused before the buckets, the abstract
game and its LP are made, unless forced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from seqform.abstraction.rounds import game_rounds
from seqform.game.builtin.registry import parse_game_spec
from seqform.game.builtin.rhode_island_sizes import (
    MAX_BETS_PER_ROUND,
    rhode_island_signal_sizes,
    rhode_island_suit_reduced_sizes,
)
from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import StructuredGame
from seqform.routes.sizing.memory import (
    MemoryRefusedError,
    abstraction_estimate,
    check_memory,
)

__all__ = ["AbstractionSize", "counted_size", "planned_size", "refuse_beyond_memory"]

WAY_OUT = "use fewer buckets or a smaller game, or --force (force=True) to try anyway"


@dataclass(frozen=True)
class AbstractionSize:
    """A card abstraction's size, both players' (module docstring).

    sequences : the game abstracted (on canonical boards with suit isomorphism)
    abstract : at most the abstract game's
    """

    sequences: int
    abstract: int


def planned_size(
    spec: object, counts: Sequence[int], suit_isomorphism: bool = False
) -> AbstractionSize | None:
    """Rhode Island hold'em's abstraction size from its parameters (module docstring);
    None for any other game, or for parameters or counts the build and
    :func:`~seqform.abstraction.rounds.parse_card_buckets` will refuse with their own
    messages."""
    if not isinstance(spec, str) or spec.lower().endswith(".toml") or len(counts) != 3:
        return None
    try:
        name, parameters = parse_game_spec(spec)
        if name != "rhode_island":
            return None
        reduced = rhode_island_suit_reduced_sizes(**parameters)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return None
    ranks, suits = int(parameters.get("ranks", 13)), int(parameters.get("suits", 4))  # type: ignore[call-overload]
    max_bets = int(parameters.get("max_bets", MAX_BETS_PER_ROUND))  # type: ignore[call-overload]
    deck = ranks * suits
    canonical = suit_isomorphism and suits > 1
    paths = (1, ranks, ranks * (2 * ranks - 1)) if canonical else (1, deck, deck * (deck - 1))
    first, second, third = (  # per round: deal paths × buckets, at most the hands left
        path * min(count, deck - round_index)
        for round_index, (path, count) in enumerate(zip(paths, counts, strict=True))
    )
    abstract = rhode_island_signal_sizes((first, second, third), max_bets)
    game = reduced.canonical if canonical else reduced.full
    return AbstractionSize(sum(game.sequences), sum(abstract.sequences))


def counted_size(game: StructuredGame, counts: Sequence[int]) -> AbstractionSize:
    """The abstraction size of ``game`` with ``counts`` buckets a round (checked by
    :func:`~seqform.abstraction.rounds.parse_card_buckets`), counted on its public tree
    (module docstring)."""
    numbering = number_public_tree(game)
    rounds = game_rounds(game)
    abstract = 0
    for player in (0, 1):
        cards = game.hands[player].card_matrix
        valid: dict[tuple[int, ...], int] = {}
        abstract += 1
        for node, path in enumerate(rounds.node_paths[player]):
            if path not in valid:
                held = np.isin(cards, np.asarray(path, dtype=np.int64)).any(axis=1)
                valid[path] = int(np.count_nonzero(~held))
            buckets = min(counts[rounds.round_of(path)], valid[path])
            abstract += len(numbering.node_actions[player][node]) * buckets
    sequences = numbering.num_sequences(0) + numbering.num_sequences(1)
    return AbstractionSize(sequences, abstract)


def refuse_beyond_memory(size: AbstractionSize, shown: str) -> None:
    """Refuse an abstraction of ``shown`` whose estimate
    (:func:`~seqform.routes.sizing.memory.abstraction_estimate`) exceeds what the process may
    have.

    Raises
    ------
    MemoryRefusedError
        With the estimate, what is available and the way out.
    """
    try:
        check_memory(abstraction_estimate(size.sequences, size.abstract), WAY_OUT)
    except MemoryRefusedError as exc:
        raise MemoryRefusedError(f"{shown}: {exc}") from None
