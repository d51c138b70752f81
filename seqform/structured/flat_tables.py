"""A structured game's public leaves and both players' sequence tables as flat arrays, for
the compiled kernels of :mod:`seqform.structured.cfr_kernels`.

Per player: the internal sequence of each (public sequence, hand), each hand's weight times
validity per public-card key, the hands' cards and twins; per public leaf: its rule's
numbers, its public sequences, card key and level set; per level set: each player's levels
and the hands in level order.  The sequences are numbered by vector CFR's
:class:`~seqform.iterative.layout.TreeLayout` with each depth's information sets ordered by
public node, so the hands of one node sit side by side.  The leaves come in batches that
share a walk over the hands (:data:`BATCH`).

The tables are built from the public numbering alone, not from the numpy products' leaf
index, which gathers the sequence index per leaf (on a flop, gigabytes); they are built once
per game (:func:`flat_game`).
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass

import numpy as np

from seqform.game.public.numbering import number_public_tree, structured_tables
from seqform.game.public.tree import StructuredGame
from seqform.iterative.layout import CHUNK, PlayerLayout, TreeLayout, sequence_layout
from seqform.structured.leaf_groups import THRESHOLD, rule_table, twin_hands

__all__ = ["BATCH", "FlatGame", "FlatPlayer", "built_flat_game", "flat_game"]

BATCH = 32
"""The most leaves one walk over the hands serves (their sums sit side by side: a batch's
scratch is ``BATCH`` floats per opponent hand and per card)."""


@dataclass(frozen=True, eq=False)
class FlatPlayer:
    """One player's side of a :class:`FlatGame`, in the layout's internal numbering.

    index : shape (S_public, H), int32: the internal sequence of (public sequence, hand), -1
        where the pair does not exist (a leaf reads one row)
    factor : shape (card keys, H): the hand's weight times its validity under the key
    levels, order : shape (level sets, H): each hand's level, and the hands in level order
    cards : shape (H, k), the cards each hand holds (-1: none)
    twin : per hand, the opponent's hand of the same two cards (two-card hands), else -1
    """

    index: np.ndarray
    factor: np.ndarray
    levels: np.ndarray
    order: np.ndarray
    cards: np.ndarray
    twin: np.ndarray


@dataclass(frozen=True, eq=False)
class FlatGame:
    """A structured game's public leaves and both players' tables as flat arrays (module
    docstring), numbered by ``layout``: information sets by depth, then by public node, so
    that the hands of one node sit side by side and a leaf reads and writes a few cache
    lines instead of one per hand.

    The leaves come in *batches* of at most :data:`BATCH` that share the rule kind, the
    public cards, the level set and a threshold's quantity: one walk over the hands in
    level order serves a whole batch (:func:`~seqform.structured.cfr_kernels.leaf_product`).

    batch_start : shape (B + 1,), where each batch starts among the leaves in batch order
    batch_kind, batch_key, batch_levels, batch_quantity : per batch, the rule kind (0
        constant, 1 sign, 2 threshold), the public cards' key, the level set and a
        threshold's quantity
    sequences : shape (Z, 2), per leaf in batch order its public sequences
    first : per leaf, ``chance_z`` times a constant's payoff, a sign's stake or a
        threshold's ``if_reached``
    step : per leaf, ``chance_z (if_reached − otherwise)`` for a threshold, else 0
    players : both players' tables (:class:`FlatPlayer`)
    num_cards : one more than the largest card a hand holds (at least 1)
    width : the largest batch
    layout : the numbering of the sequences
    """

    batch_start: np.ndarray
    batch_kind: np.ndarray
    batch_key: np.ndarray
    batch_levels: np.ndarray
    batch_quantity: np.ndarray
    sequences: np.ndarray
    first: np.ndarray
    step: np.ndarray
    players: tuple[FlatPlayer, FlatPlayer]
    num_cards: int
    width: int
    layout: TreeLayout


def _positions(layout: PlayerLayout) -> np.ndarray:
    """Per table sequence, its internal position (the inverse of ``layout.order``), in the
    order's integer type and filled a slice at a time (no table-long ``arange``)."""
    position = np.empty(layout.num_sequences, dtype=layout.order.dtype)
    for low in range(0, layout.num_sequences, CHUNK):
        high = min(low + CHUNK, layout.num_sequences)
        position[layout.order[low:high]] = np.arange(low, high, dtype=position.dtype)
    return position


def _internal_index(table: np.ndarray, position: np.ndarray) -> np.ndarray:
    """Shape (S_public, H), int32: the internal sequence of each (public sequence, hand) of
    the numbering's hand-major ``table``, -1 where the pair does not exist; one hand at a
    time, so no temporary is longer than a public sequence's row."""
    index = np.empty(table.shape[::-1], dtype=np.int32)
    for hand, row in enumerate(table):
        index[:, hand] = np.where(row >= 0, position[np.maximum(row, 0)], -1)
    return index


def _node_major(game: StructuredGame) -> TreeLayout:
    """Vector CFR's layout with each depth's information sets ordered by public node."""
    numbering = number_public_tree(game)
    players = []
    for player, table in enumerate(structured_tables(game)):
        # each information set's public node, in the table's (hand-major) order
        nodes = np.concatenate(
            [np.flatnonzero(row >= 0).astype(np.int32) for row in numbering.infoset_index[player]]
        )
        players.append(sequence_layout(table, within_depth=nodes))
    return TreeLayout(players=tuple(players))


def _level_sets(
    game: StructuredGame, leaf_levels: tuple[tuple[np.ndarray, np.ndarray] | None, ...]
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """Per leaf the number of its level set (0 for a constant), and the distinct sets (the
    leaves of one public-card set share the same array objects)."""
    sets: dict[tuple[int, int], int] = {}
    pairs: list[tuple[np.ndarray, np.ndarray]] = []
    level_set = np.zeros(len(leaf_levels), dtype=np.int64)
    for leaf, pair in enumerate(leaf_levels):
        if pair is None:
            continue
        found = sets.setdefault((id(pair[0]), id(pair[1])), len(pairs))
        if found == len(pairs):
            pairs.append(pair)
        level_set[leaf] = found
    if not pairs:  # constants only: one level set of zeros keeps the arrays two-dimensional
        pairs.append((np.zeros(game.num_hands(0), np.int64), np.zeros(game.num_hands(1), np.int64)))
    return level_set, pairs


def _hub_leaves(leaf_sequences: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Per leaf, 1 where a player's public sequence at it also ends leaves under other
    public cards (an all-in's runouts, say), else 0.

    Such leaves are batched apart from the other leaves of their cards: a batch holding
    both would tie every card's subtree to the shared sequence, and the threads of
    :mod:`seqform.structured.leaf_threads` need subtrees that write apart."""
    hub = np.zeros(len(keys), dtype=np.int64)
    for player in (0, 1):
        sequences = leaf_sequences[:, player].astype(np.int64)
        pairs = np.unique(np.stack([sequences, keys], axis=1), axis=0)
        spread = np.bincount(pairs[:, 0], minlength=int(sequences.max(initial=-1)) + 1)
        hub |= spread[sequences] > 1
    return hub


def _flat_game(game: StructuredGame) -> FlatGame:
    numbering = number_public_tree(game)
    layout = _node_major(game)
    rules = rule_table(numbering.leaf_rules)
    kinds, first, second, quantity = rules.kind, rules.first, rules.second, rules.quantity
    level_set, pairs = _level_sets(game, numbering.leaf_levels)
    cards = [game.hands[p].card_matrix.astype(np.int64) for p in (0, 1)]
    num_cards = max(1, int(max(c.max(initial=-1) for c in cards)) + 1)
    players = []
    for p in (0, 1):
        internal = _internal_index(numbering.sequence_index[p], _positions(layout.players[p]))
        weights = np.asarray([float(w) for w in game.hands[p].weights], dtype=float)
        two_cards = game.hands[p].card_matrix.shape[1] == 2
        levels = np.stack([both[p].astype(np.int64) for both in pairs])
        players.append(
            FlatPlayer(
                index=internal,
                factor=np.ascontiguousarray(numbering.hand_valid[p] * weights[None, :]),
                levels=levels,
                order=np.argsort(levels, axis=1, kind="stable"),
                cards=np.ascontiguousarray(cards[p]),
                twin=twin_hands(game, p) if two_cards else np.full(len(weights), -1),
            )
        )
    keys = numbering.leaf_cards.astype(np.int64)
    hub = _hub_leaves(numbering.leaf_sequences, keys)
    leaves = np.lexsort((quantity, keys, level_set, hub, kinds))  # batch order
    same = np.stack([kinds, hub, level_set, keys, quantity], axis=1)[leaves]
    starts = np.flatnonzero(np.any(same[1:] != same[:-1], axis=1)) + 1
    bounds = [0, *starts.tolist(), len(leaves)]
    cuts = sorted(
        {*bounds, *(c for a, b in itertools.pairwise(bounds) for c in range(a, b, BATCH))}
    )
    first_leaf = leaves[cuts[:-1]]
    chance = numbering.leaf_chance_float.astype(float)[leaves]
    return FlatGame(
        batch_start=np.asarray(cuts, dtype=np.int64),
        batch_kind=kinds[first_leaf],
        batch_key=keys[first_leaf],
        batch_levels=level_set[first_leaf],
        batch_quantity=quantity[first_leaf],
        sequences=np.ascontiguousarray(numbering.leaf_sequences[leaves], dtype=np.int64),
        first=chance * first[leaves],
        step=np.where(kinds[leaves] == THRESHOLD, chance * (first - second)[leaves], 0.0),
        players=(players[0], players[1]),
        num_cards=num_cards,
        width=int(np.diff(cuts).max(initial=1)),
        layout=layout,
    )


_FLAT: weakref.WeakKeyDictionary[StructuredGame, FlatGame] = weakref.WeakKeyDictionary()


def flat_game(game: StructuredGame) -> FlatGame:
    """The game's :class:`FlatGame`, built once per game."""
    flat = _FLAT.get(game)
    if flat is None:
        flat = _FLAT[game] = _flat_game(game)
    return flat


def built_flat_game(game: StructuredGame) -> FlatGame | None:
    """The game's :class:`FlatGame` if a run has built it, else None (nothing is built)."""
    return _FLAT.get(game)
