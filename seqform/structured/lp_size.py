"""The structured LP's size, counted from the public numbering without building the LP.

:func:`~seqform.structured.lp_model.build_structured_lp` lays out, per family of leaves
(rule kind, levels, public cards; with two-card hands again per card both players can hold)
and per public sequence ``s0`` of the family, one chain of ``L`` running sums over the
family's distinct levels of player 0's live hands, and writes per leaf and live hand of
player 1 at most five entries on the chain and one for the clashing hand.  Counting those
without writing them gives the LP's columns exactly and its non-zeros from above (the
builder drops zero weights and sums duplicates; 1.2 to 1.5 times the built LP's on spots,
Kuhn, Leduc and Liar's Dice); the route policy (:mod:`seqform.routes.policy`) reads them
to refuse an LP that will not finish, before anything is built.

A game solved suit-reduced (:mod:`seqform.structured.reductions.suit_reduction`) solves a smaller
LP:
the LP of its canonical boards ``G'`` with player 0's sequences and player 1's information
sets merged into their hand classes, the level-sum chains kept as ``G'`` has them.
:func:`estimate_reduced_lp_size` counts that one from the reduction's own sizes
(:func:`~seqform.structured.reductions.suit_classes.canonical_sizes`), still without an LP.  The
ordered game isomorphism's further merge (:mod:`seqform.structured.reductions.ordered_isomorphism`)
applies to one-card hands only, never to the hold'em spots this estimate sizes; where it
applies its LP keeps the same chains with fewer classes, so this count bounds it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from seqform.game.public.numbering import number_public_tree, structured_tables
from seqform.game.public.tree import Constant, PayoffRule, Sign, StructuredGame
from seqform.structured.lp_parts import UNBLOCKED_LEVELS, level_chain
from seqform.structured.reductions.suit_classes import canonical_boards, canonical_sizes

__all__ = ["LPSize", "estimate_lp_size", "estimate_reduced_lp_size"]


@dataclass(frozen=True)
class LPSize:
    """The structured LP's ``variables`` (its columns, exact) and ``nonzeros`` (at most)."""

    variables: int
    nonzeros: int


def _entries_per_pair(rule: PayoffRule, levels: int) -> int:
    """Entries a leaf writes per live hand of player 1 (:func:`~seqform.structured.
    lp_parts.aggregate_rule`): the total and, per prefix sum read, one variable in an
    unblocked chain and two in a blocked one — a constant one, a sign up to five, a
    threshold up to three."""
    reads = 0 if isinstance(rule, Constant) else 2 if isinstance(rule, Sign) else 1
    return 1 + reads * (1 if levels <= UNBLOCKED_LEVELS else 2)


def estimate_lp_size(game: StructuredGame) -> LPSize:
    """The structured LP's size (module docstring), in time linear in families × hands."""
    numbering = number_public_tree(game)
    first, second = structured_tables(game)
    live = [np.asarray([w != 0 for w in game.hands[p].weights], dtype=bool) for p in (0, 1)]
    two_cards = game.hands[0].card_matrix.shape[1] == 2
    shared = (
        np.intersect1d(game.hands[0].card_matrix, game.hands[1].card_matrix).tolist()
        if two_cards
        else []
    )
    families: dict[tuple[str, int, int, int], list[int]] = {}
    for leaf, (rule, levels) in enumerate(
        zip(numbering.leaf_rules, numbering.leaf_levels, strict=True)
    ):
        ids = (0, 0) if levels is None else (id(levels[0]), id(levels[1]))
        key = (type(rule).__name__, *ids, int(numbering.leaf_cards[leaf]))
        families.setdefault(key, []).append(leaf)
    chains: dict[int, tuple[int, int]] = {}
    columns, entries = 0, 0
    for leaves in families.values():
        leaf = leaves[0]
        levels = numbering.leaf_levels[leaf]
        cards = numbering.leaf_cards[leaf]
        valid0 = numbering.hand_valid[0][cards] & live[0]
        valid1 = numbering.hand_valid[1][cards] & live[1]
        groups = len(np.unique(numbering.leaf_sequences[leaves, 0]))
        for card in [None, *shared]:
            hands0, hands1 = valid0, valid1
            if card is not None:
                hands0 = hands0 & (game.hands[0].card_matrix == card).any(axis=1)
                hands1 = hands1 & (game.hands[1].card_matrix == card).any(axis=1)
            if not hands0.any():
                continue
            distinct = 1 if levels is None else len(np.unique(levels[0][hands0]))
            if distinct not in chains:
                chain = level_chain(distinct)
                chains[distinct] = (chain.count, len(chain.rows))
            count, chain_entries = chains[distinct]
            columns += count * groups
            entries += groups * (chain_entries + int(hands0.sum()))
            per_pair = _entries_per_pair(numbering.leaf_rules[leaf], distinct)
            clash = 1 if card is None else 0
            entries += len(leaves) * int(hands1.sum()) * (per_pair + clash)
    constraints = 2 * (first.num_sequences + second.num_sequences)
    variables = first.num_sequences + len(second.infosets) + 1 + columns
    return LPSize(variables=variables, nonzeros=entries + constraints)


def estimate_reduced_lp_size(game: StructuredGame) -> LPSize | None:
    """The size of the LP the suit-reduced solve builds (module docstring): columns exact,
    non-zeros at most those of the canonical boards' LP; None when ``game`` is invariant
    under no suit permutation but the identity (it is solved unreduced)."""
    boards = canonical_boards(game)
    if boards is None:
        return None
    sizes = canonical_sizes(boards)
    canonical = estimate_lp_size(boards.canonical)
    merged = (sizes.canonical.sequences[0] - sizes.reduced.sequences[0]) + (
        sizes.canonical.infosets[1] - sizes.reduced.infosets[1]
    )
    return LPSize(variables=canonical.variables - merged, nonzeros=canonical.nonzeros)
