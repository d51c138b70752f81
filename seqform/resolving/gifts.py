"""Reach-Maxmargin's gifts (Brown and Sandholm, NeurIPS 2017, §5).  At an opponent information
set ``I`` of the trunk where the opponent's path to ``J`` takes action ``a``, the opponent
gave up ``g(I, a) = CBV(I) − CBV(I, a) >= 0`` against ``P``'s blueprint.  A raise of the
values below ``(I, a)`` by ``g(I, a)`` in total leaves ``CBV(I)`` unchanged, so the gift is
shared: every root information set ``J`` below ``(I, a)`` (in any subgame re-solved) gets
``g(I, a) / n(I, a)``, ``n`` the number of them, and ``g_J`` is the sum over the path.  This
division among subgames is the paper's condition for Reach-Maxmargin to be safe when several
subgames are re-solved independently; with it the combined profile is again no more
exploitable than the blueprint.

Both re-solving paths (the tree's :mod:`seqform.resolving.resolve` and the public tree's
:mod:`seqform.resolving.structured_resolve`) take the gifts from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from seqform.certify import best_response, leaf_payoffs
from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.model import Game
from seqform.game.sequences import PlayerSequences
from seqform.resolving.gadgets import RootInfoset

__all__ = ["gifts", "shared_gifts"]


def gifts(
    game: Game, player: int, strategy: BehaviouralStrategy, infosets: Sequence[RootInfoset]
) -> dict[str, float]:
    """Reach-Maxmargin's gift ``g_J`` per root information set (module docstring), for
    ``player`` re-solving with blueprint ``strategy``; ``infosets`` are all of the opponent's
    root information sets, over every subgame."""
    opponent = 1 - player
    response = best_response(game, opponent, strategy)
    leaf = leaf_payoffs(game, opponent, plan_from_behaviour(strategy))
    found = {j.key: j.sequence for j in infosets}
    return shared_gifts(game.flat.tables[opponent], response.infoset_values, leaf, found)


def shared_gifts(
    table: PlayerSequences, values: Any, leaf: Any, sequences: Mapping[str, int]
) -> dict[str, float]:
    """The gifts (module docstring) from the opponent's best-response ``values`` per
    information set and ``leaf`` payoffs per sequence against the blueprint; ``sequences``:
    its last sequence before each root information set.  Both paths use it."""
    values = np.asarray(values, dtype=float)
    below = np.asarray(leaf, dtype=float).copy()
    np.add.at(below, table.parent_sequence, values)  # CBV(I, a) = leaf + V of what follows
    given_up = np.zeros(table.num_sequences)
    given_up[1:] = np.maximum(0.0, values[table.sequence_infoset[1:]] - below[1:])

    def path(sequence: int) -> list[int]:
        found = []
        while sequence > 0:
            found.append(sequence)
            sequence = int(table.parent_sequence[table.sequence_infoset[sequence]])
        return found

    paths = {key: path(sequence) for key, sequence in sequences.items()}
    sharers = np.zeros(table.num_sequences)
    for found in paths.values():
        sharers[found] += 1
    return {
        key: float(sum(given_up[s] / sharers[s] for s in found)) for key, found in paths.items()
    }
