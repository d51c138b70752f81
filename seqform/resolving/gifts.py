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

On canonical boards (:func:`class_gifts`).  The re-solve on ``G'``
(:mod:`seqform.resolving.subgame_classes`) has one gadget row per *root class* ``R``, standing
for ``m_R`` root information sets of the game (its hands times the boards of its subgame's
orbit), whose weights, targets and values are the sums over them.  The lifted blueprint is
invariant under every suit permutation ``σ``, and so are the set of root information sets
re-solved and the opponent's best-response values: ``g(σs) = g(s)`` and ``n(σs) = n(s)`` for
each trunk sequence ``s`` of the opponent, and ``g_J`` is the same for every ``J`` of ``R``.
Neither is known hand by hand on ``G'`` (a hand's best response there is not the game's:
:mod:`seqform.structured.reductions.suit_classes`), but both are known summed over a class
``c`` of the opponent's sequences, which stands for the ``k_c`` sequences of one orbit: the
best response on hand classes gives ``Σ g = k_c g(s)`` (the class's values are its members'
sums, and ``max(0, ·)`` commutes with a sum of equal terms), and counting each root class
``m_R`` times among the sharers of the classes on its path gives ``Σ n = k_c n(s)`` (each
``J`` of ``R`` passes through exactly one member of ``c``).  So ``g(s) / n(s)`` is the ratio
of the two class sums, ``g_J`` is its sum over ``R``'s path of classes, and ``R``'s row takes
``g_R = m_R g_J``, the sum of its members' gifts: the gadget LP on classes is the game's
restricted to class-symmetric plans (the argument of
:mod:`seqform.resolving.structured_resolve`), with the game's gifts, and its optimum is the
game's.  The division among subgames, and with it the paper's safety, is the game's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from seqform.certify import best_response, leaf_payoffs, respond
from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.model import Game
from seqform.game.public.numbering import structured_tables
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.resolving.gadgets import RootInfoset
from seqform.structured import responses
from seqform.structured.reductions.suit_classes import CanonicalBoards, class_sums, class_tables

__all__ = ["class_gifts", "gifts", "shared_gifts", "structured_gifts"]


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


def structured_gifts(
    game: StructuredGame, player: int, strategy: BehaviouralStrategy, sequences: Mapping[str, int]
) -> dict[str, float]:
    """:func:`gifts` on a structured game: ``sequences`` holds the opponent's last sequence
    before each root information set, over every subgame."""
    opponent = 1 - player
    response = responses.best_response(game, opponent, strategy)
    leaf = responses.leaf_payoffs(game, opponent, plan_from_behaviour(strategy))
    return shared_gifts(structured_tables(game)[opponent], response.infoset_values, leaf, sequences)


def class_gifts(
    boards: CanonicalBoards,
    player: int,
    strategy: BehaviouralStrategy,
    sequences: Mapping[str, int],
    members: Mapping[str, float],
) -> dict[str, float]:
    """The gifts of the root classes of ``G' = boards.canonical`` (module docstring, "On
    canonical boards"), for ``player`` re-solving with the class-symmetric blueprint
    ``strategy`` of ``G'``: per key, ``g_R = m_R g_J``.  ``sequences`` holds, per key, the
    opponent's last sequence of ``G'`` before the root class (any of its hands'), and
    ``members`` its ``m_R``."""
    opponent = 1 - player
    classes = boards.classes[opponent]
    table = class_tables(boards)[opponent]
    payoffs = responses.leaf_payoffs(boards.canonical, opponent, plan_from_behaviour(strategy))
    leaf = class_sums(classes.sequences, payoffs, classes.num_sequences)
    values = respond(table, leaf).infoset_values
    on_classes = {key: int(classes.sequences[s]) for key, s in sequences.items()}
    shared = shared_gifts(table, values, leaf, on_classes, members)
    return {key: gift * members[key] for key, gift in shared.items()}


def shared_gifts(
    table: PlayerSequences,
    values: Any,
    leaf: Any,
    sequences: Mapping[str, int],
    sharers: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """The gifts (module docstring) from the opponent's best-response ``values`` per
    information set and ``leaf`` payoffs per sequence against the blueprint; ``sequences``:
    its last sequence before each root information set.  Every path uses it; ``sharers``,
    on canonical boards, counts each key as that many sharers (one each without it)."""
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
    counted = np.zeros(table.num_sequences)
    for key, found in paths.items():
        counted[found] += 1.0 if sharers is None else sharers[key]
    return {
        key: float(sum(given_up[s] / counted[s] for s in found)) for key, found in paths.items()
    }
