"""The abstract game of a card abstraction as a sequence form, and its strategies lifted.

Player ``p``'s abstract information sets are the pairs (bucket ``b``, public decision node
``k``), its abstract sequences (bucket, public sequence); the sequence leading to (``b``,
``k``) is (``b'``, parent public sequence of ``k``), ``b'`` the bucket at the parent
sequence's node that contains ``b``'s hands — unique because buckets refine
(:mod:`seqform.abstraction.buckets`), which is perfect recall.  The map ``P_p`` sends the
full game's sequence (hand ``h``, public sequence ``s``) to (bucket of ``h`` at ``s``'s
node, ``s``); a plan ``x̄`` of the abstract game is the full plan ``x = P_0 x̄`` in which
every hand of a bucket plays alike, so the abstract game's payoff matrix is

    Ā = P_0ᵀ A P_1 = sum_z (Q_0zᵀ M_z Q_1z) ⊗ e_{s0(z)} e_{s1(z)}ᵀ

with ``M_z`` the public leaf's private matrix (:mod:`seqform.game.public.tree`) and
``Q_pz`` the one-hot (hands × buckets) matrix of the buckets at ``s_p(z)``'s node: each
leaf's ``H0 × H1`` matrix is summed into a ``buckets × buckets`` block, so ``A`` is never
formed (KMvS 1996 eq. 8-9 for ``E``, ``F``, ``A``).  ``Ā`` is written in floats, multiplied
by ``scale = 1 / (deal_scale · sum w1)`` as the structured LP is
(:mod:`seqform.structured.lp_model`), so its entries stay near ``1 / buckets``.

A strategy of the abstract game is *lifted* to the full game by letting every hand play its
bucket's behaviour: the full sequence (``h``, ``s``) gets the probability of
``P_p``'s image, the full information set the flag of its abstract one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from seqform.abstraction.buckets import CardAbstraction
from seqform.forms.sequence_form import constraint_matrix
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.public.numbering import PublicNumbering, number_public_tree, structured_tables
from seqform.game.public.tree import StructuredGame, hands_clash_free
from seqform.game.sequences import PlayerSequences
from seqform.structured.lp_parts import rule_values

__all__ = ["AbstractGame", "abstract_game", "lift"]


@dataclass(frozen=True)
class AbstractGame:
    """The abstract game's sequence form and its maps from the full game.

    tables : per player, the abstract information sets (named ``b<bucket>`` + public
        history, e.g. ``"b2|cr|Qh|"``) and sequences
    E, e, F, f : the abstract realization-plan constraints (KMvS 1996, eq. 8)
    A : ``scale · P_0ᵀ A P_1``, shape (abstract sequences of 0, of 1) (module docstring)
    scale : ``A``'s factor: values of ``x̄ A ȳ`` are ``scale`` times the game's
    sequence_map : per player, per full game sequence, its abstract sequence (0 for 0)
    infoset_map : per player, per full information set, its abstract information set
    """

    tables: tuple[PlayerSequences, PlayerSequences]
    E: sp.csr_array
    e: np.ndarray
    F: sp.csr_array
    f: np.ndarray
    A: sp.csr_array
    scale: float
    sequence_map: tuple[np.ndarray, np.ndarray]
    infoset_map: tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class _Player:
    table: PlayerSequences
    index: np.ndarray  # (max buckets, public sequences): abstract sequence, -1 none
    sequence_map: np.ndarray
    infoset_map: np.ndarray


def _player(
    game: StructuredGame, numbering: PublicNumbering, abstraction: CardAbstraction, player: int
) -> _Player:
    """The abstract sequence table of one player (module docstring), nodes in order,
    buckets inside each node, actions inside each bucket."""
    nodes = numbering.num_public_nodes(player)
    widest = max(
        (abstraction.num_buckets(player, p) for p in set(abstraction.rounds.node_paths[player])),
        default=1,
    )
    index = np.full((max(widest, 1), numbering.num_public_sequences(player)), -1, dtype=np.int64)
    index[:, 0] = 0
    infosets: list[str] = []
    actions: list[tuple[str, ...]] = []
    parents: list[int] = []
    firsts: list[int] = []
    sequence_infoset = [-1]
    sequence_action = [""]
    infoset_of = np.full((max(widest, 1), nodes), -1, dtype=np.int64)
    for node in range(nodes):
        buckets = abstraction.node_buckets(player, node)
        parent_sequence = int(numbering.node_parent[player][node])
        parent_node = int(numbering.sequence_node[player][parent_sequence])
        labels = numbering.node_actions[player][node]
        first = int(numbering.node_first[player][node])
        for bucket in range(int(buckets.max(initial=-1)) + 1):
            if parent_sequence == 0:
                parent = 0
            else:
                hand = int(np.flatnonzero(buckets == bucket)[0])
                above = int(abstraction.node_buckets(player, parent_node)[hand])
                parent = int(index[above, parent_sequence])
            infoset_of[bucket, node] = len(infosets)
            infosets.append(f"b{bucket}{numbering.node_histories[player][node]}")
            actions.append(labels)
            parents.append(parent)
            firsts.append(len(sequence_action))
            for offset, label in enumerate(labels):
                index[bucket, first + offset] = len(sequence_action)
                sequence_infoset.append(infoset_of[bucket, node])
                sequence_action.append(label)
    table = PlayerSequences(
        player=player,
        infosets=tuple(infosets),
        actions=tuple(actions),
        parent_sequence=np.asarray(parents, dtype=np.int64),
        first_sequence=np.asarray(firsts, dtype=np.int64),
        sequence_infoset=np.asarray(sequence_infoset, dtype=np.int64),
        sequence_action=tuple(sequence_action),
    )
    sequence_map, infoset_map = _maps(game, numbering, abstraction, player, index, infoset_of)
    return _Player(table, index, sequence_map, infoset_map)


def _maps(
    game: StructuredGame,
    numbering: PublicNumbering,
    abstraction: CardAbstraction,
    player: int,
    index: np.ndarray,
    infoset_of: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Per full sequence its abstract sequence, per full information set its abstract one
    (``index``, ``infoset_of``: (bucket, public sequence or node) -> abstract number)."""
    nodes = numbering.num_public_nodes(player)
    full = structured_tables(game)[player]
    sequence_index = numbering.sequence_index[player]
    sequence_map = np.zeros(full.num_sequences, dtype=np.int64)
    hands, sequences = np.nonzero(sequence_index > 0)
    bucket_of = _bucket_grid(abstraction, numbering, player)  # (H, S)
    sequence_map[sequence_index[hands, sequences]] = index[bucket_of[hands, sequences], sequences]
    infoset_index = numbering.infoset_index[player]
    hands, nodes_at = np.nonzero(infoset_index >= 0)
    node_bucket = (
        np.stack([abstraction.node_buckets(player, node) for node in range(nodes)], axis=1)
        if nodes
        else np.zeros((game.num_hands(player), 0), dtype=np.int64)
    )
    infoset_map = np.zeros(full.num_infosets, dtype=np.int64)
    infoset_map[infoset_index[hands, nodes_at]] = infoset_of[node_bucket[hands, nodes_at], nodes_at]
    return sequence_map, infoset_map


def _bucket_grid(
    abstraction: CardAbstraction, numbering: PublicNumbering, player: int
) -> np.ndarray:
    """Shape (H, S): per hand and public sequence, the hand's bucket at the sequence's
    node (0 for the empty sequence; -1 where the hand is not valid)."""
    sequence_node = numbering.sequence_node[player]
    hands = numbering.sequence_index[player].shape[0]
    grid = np.zeros((hands, len(sequence_node)), dtype=np.int64)
    for sequence in range(1, len(sequence_node)):
        grid[:, sequence] = abstraction.node_buckets(player, int(sequence_node[sequence]))
    return grid


def abstract_game(game: StructuredGame, abstraction: CardAbstraction) -> AbstractGame:
    """The abstract game of ``abstraction`` on ``game`` (module docstring)."""
    numbering = number_public_tree(game)
    players = (
        _player(game, numbering, abstraction, 0),
        _player(game, numbering, abstraction, 1),
    )
    E, e = constraint_matrix(players[0].table)
    F, f = constraint_matrix(players[1].table)
    weights = [np.asarray([float(w) for w in game.hands[p].weights]) for p in (0, 1)]
    scale = 1.0 / (float(game.deal_scale) * float(weights[1].sum()))
    free = hands_clash_free(*game.hands)
    grids = (_bucket_grid(abstraction, numbering, 0), _bucket_grid(abstraction, numbering, 1))
    hands = (game.num_hands(0), game.num_hands(1))
    level0 = np.repeat(np.arange(hands[0]), hands[1])
    level1 = np.tile(np.arange(hands[1]), hands[0])
    zeros = (np.zeros(hands[0], np.int64), np.zeros(hands[1], np.int64))
    rows: list[np.ndarray] = []
    columns: list[np.ndarray] = []
    values: list[np.ndarray] = []
    for leaf in range(numbering.num_leaves):
        s0, s1 = (int(s) for s in numbering.leaf_sequences[leaf])
        key = int(numbering.leaf_cards[leaf])
        levels = numbering.leaf_levels[leaf] or zeros
        payoff = rule_values(
            numbering, np.asarray([leaf]), levels[0][level0], levels[1][level1]
        ).reshape(hands)
        live = [numbering.hand_valid[p][key] & (weights[p] != 0) for p in (0, 1)]
        chance = float(numbering.leaf_chance[leaf]) * scale
        private = chance * payoff * free * np.outer(weights[0] * live[0], weights[1] * live[1])
        buckets = [np.where(live[p], grids[p][:, (s0, s1)[p]], 0) for p in (0, 1)]
        width = int(buckets[1].max()) + 1
        flat = (buckets[0][:, None] * width + buckets[1][None, :]).ravel()
        block = np.bincount(flat, weights=private.ravel()).reshape(-1, width)
        b0, b1 = np.nonzero(block)
        rows.append(players[0].index[b0, s0])
        columns.append(players[1].index[b1, s1])
        values.append(block[b0, b1])
    shape = (players[0].table.num_sequences, players[1].table.num_sequences)
    A = sp.coo_array(
        (np.concatenate(values), (np.concatenate(rows), np.concatenate(columns))), shape=shape
    ).tocsr()
    return AbstractGame(
        tables=(players[0].table, players[1].table),
        E=E,
        e=e,
        F=F,
        f=f,
        A=A,
        scale=scale,
        sequence_map=(players[0].sequence_map, players[1].sequence_map),
        infoset_map=(players[0].infoset_map, players[1].infoset_map),
    )


def lift(
    game: StructuredGame, abstract: AbstractGame, strategy: BehaviouralStrategy
) -> BehaviouralStrategy:
    """The abstract ``strategy`` played in the full game: every hand plays its bucket's
    behaviour (module docstring)."""
    player = strategy.player
    table = structured_tables(game)[player]
    probabilities = strategy.probabilities[abstract.sequence_map[player]].copy()
    probabilities[0] = 1
    unreached = strategy.unreached[abstract.infoset_map[player]]
    return BehaviouralStrategy(table, probabilities, unreached)
