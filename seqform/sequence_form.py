"""The sequence form of a two-player zero-sum game (Koller, Megiddo and von Stengel 1996).

A *sequence* of player ``i`` is the list of ``i``'s own (information set, action) choices
on the path to a node; with perfect recall it is named by its last choice, so player
``i`` has ``1 + sum_h |A(h)|`` sequences (the empty one plus one per action). A
*realization plan* ``x`` gives each sequence the probability that the player's own choices
follow it.  It is characterised by linear constraints (KMvS 1996, eq. 8):

    E x = e,  x >= 0,

where row 0 of ``E`` says ``x[empty] = 1`` and row ``1 + h`` says that the sequences
extending information set ``h`` sum to the sequence leading to it:
``sum_a x[h,a] - x[parent(h)] = 0``.  So ``e = (1, 0, ..., 0)``.  Likewise ``F y = f``
for player 1.  The payoff matrix ``A`` (eq. 9) has, for each pair of sequences
``(s, t)``, the sum over terminal nodes ``z`` reached by ``s`` and ``t`` of the chance
probability of ``z`` times player 0's payoff there; then ``x @ A @ y`` is player 0's
expected payoff.

Ordering of sequences
---------------------
Index 0 is the empty sequence.  The tree is walked depth first, children in order; the
first time a walk meets an information set of player ``i``, the information set receives
the next information-set index of ``i`` and its actions receive the next
``len(actions)`` consecutive sequence indices, in action order.  So the sequence leading
to an information set always has a smaller index than the information set's own
sequences, and information set ``h`` owns sequences
``first_sequence[h] : first_sequence[h] + len(actions[h])``.

Sparse throughout: ``E``, ``F`` and ``A`` are ``scipy.sparse.csr_array``.  ``A`` is the
float image of exact entries kept in ``payoff_entries``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.game import Chance, Decision, Game, Node, Terminal

__all__ = ["PlayerSequences", "SequenceForm", "build_sequence_form"]

EMPTY = 0  # index of the empty sequence


@dataclass(frozen=True)
class PlayerSequences:
    """The label table of one player's information sets and sequences.

    infosets : names of the player's information sets, in index order
    actions : per information set, its action labels
    parent_sequence : per information set, the sequence that leads to it
    first_sequence : per information set, the index of its first action's sequence
    sequence_infoset : per sequence, its information set index (-1 for the empty sequence)
    sequence_action : per sequence, its action label ("" for the empty sequence)
    """

    player: int
    infosets: tuple[str, ...]
    actions: tuple[tuple[str, ...], ...]
    parent_sequence: np.ndarray
    first_sequence: np.ndarray
    sequence_infoset: np.ndarray
    sequence_action: tuple[str, ...]

    @property
    def num_sequences(self) -> int:
        return len(self.sequence_action)

    @property
    def num_infosets(self) -> int:
        return len(self.infosets)

    def sequences_of(self, infoset: int) -> range:
        """The sequence indices of the actions at information set ``infoset``."""
        first = int(self.first_sequence[infoset])
        return range(first, first + len(self.actions[infoset]))

    def label(self, sequence: int) -> str:
        """``"Kpb:b"`` for a sequence ending with action ``b`` at ``Kpb``; ``"∅"`` if empty."""
        infoset = int(self.sequence_infoset[sequence])
        if infoset < 0:
            return "∅"
        return f"{self.infosets[infoset]}:{self.sequence_action[sequence]}"

    def labels(self) -> list[str]:
        """The labels of all sequences in index order."""
        return [self.label(sequence) for sequence in range(self.num_sequences)]

    def index_of_infoset(self) -> dict[str, int]:
        """Map each information-set name to its index."""
        return {name: index for index, name in enumerate(self.infosets)}


@dataclass(frozen=True)
class SequenceForm:
    """Sequence form of a two-player zero-sum game (KMvS 1996, eq. 8-9).

    Realization plans satisfy ``E @ x == e`` and ``F @ y == f`` with ``x, y >= 0``;
    player 0 expects ``x @ A @ y``.

    E : csr_array, shape (1 + infosets of player 0, sequences of player 0)
    F : csr_array, shape (1 + infosets of player 1, sequences of player 1)
    e, f : float arrays, ``(1, 0, ..., 0)``
    A : csr_array, shape (sequences of player 0, sequences of player 1), floats
    payoff_entries : the exact entries of ``A``: rows, columns and Fraction values
    players : the label tables of players 0 and 1
    num_terminals : terminal nodes of the tree (histories, chance outcomes included)
    """

    E: sp.csr_array
    e: np.ndarray
    F: sp.csr_array
    f: np.ndarray
    A: sp.csr_array
    payoff_entries: tuple[np.ndarray, np.ndarray, tuple[Fraction, ...]]
    players: tuple[PlayerSequences, PlayerSequences]
    num_terminals: int

    def constraints(self, player: int) -> tuple[sp.csr_array, np.ndarray]:
        """``(E, e)`` for player 0, ``(F, f)`` for player 1."""
        return (self.E, self.e) if player == 0 else (self.F, self.f)


class _PlayerTable:
    """Mutable accumulator of one player's information sets during the walk."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.index: dict[str, int] = {}
        self.infosets: list[str] = []
        self.actions: list[tuple[str, ...]] = []
        self.parent: list[int] = []
        self.first: list[int] = []
        self.sequence_infoset: list[int] = [-1]
        self.sequence_action: list[str] = [""]

    def enter(self, node: Decision, parent_sequence: int) -> int:
        """Return the first sequence index of ``node``'s information set, registering it."""
        infoset = self.index.get(node.infoset)
        if infoset is None:
            infoset = len(self.infosets)
            self.index[node.infoset] = infoset
            self.infosets.append(node.infoset)
            self.actions.append(node.actions)
            self.parent.append(parent_sequence)
            first = len(self.sequence_action)
            self.first.append(first)
            self.sequence_infoset.extend([infoset] * len(node.actions))
            self.sequence_action.extend(node.actions)
            return first
        return self.first[infoset]

    def freeze(self) -> PlayerSequences:
        return PlayerSequences(
            player=self.player,
            infosets=tuple(self.infosets),
            actions=tuple(self.actions),
            parent_sequence=np.asarray(self.parent, dtype=np.int64),
            first_sequence=np.asarray(self.first, dtype=np.int64),
            sequence_infoset=np.asarray(self.sequence_infoset, dtype=np.int64),
            sequence_action=tuple(self.sequence_action),
        )


def _constraint_matrix(table: PlayerSequences) -> tuple[sp.csr_array, np.ndarray]:
    """``E`` and ``e`` of KMvS eq. 8 for one player (see the module docstring)."""
    rows = [0]
    cols = [EMPTY]
    vals = [1.0]
    for infoset in range(table.num_infosets):
        row = infoset + 1
        rows.append(row)
        cols.append(int(table.parent_sequence[infoset]))
        vals.append(-1.0)
        for sequence in table.sequences_of(infoset):
            rows.append(row)
            cols.append(sequence)
            vals.append(1.0)
    shape = (table.num_infosets + 1, table.num_sequences)
    matrix = sp.csr_array((vals, (rows, cols)), shape=shape)
    rhs = np.zeros(shape[0])
    rhs[0] = 1.0
    return matrix, rhs


def build_sequence_form(game: Game) -> SequenceForm:
    """Build ``E, e, F, f, A`` (KMvS 1996, eq. 8-9) in one depth-first walk of the tree.

    Parameters
    ----------
    game
        A validated game (perfect recall is what makes sequences well defined).

    Returns
    -------
    SequenceForm
        Sparse matrices and the label tables; see the module docstring for the ordering.
    """
    tables = (_PlayerTable(0), _PlayerTable(1))
    payoff: dict[tuple[int, int], Fraction] = {}
    num_terminals = 0
    # (node, sequence of player 0, sequence of player 1, chance probability); a stack
    # instead of recursion so that deep games need no recursion limit.
    stack: list[tuple[Node, int, int, Fraction]] = [(game.root, EMPTY, EMPTY, Fraction(1))]
    while stack:
        node, s0, s1, reach = stack.pop()
        if isinstance(node, Terminal):
            num_terminals += 1
            if reach and node.payoffs[0]:
                key = (s0, s1)
                payoff[key] = payoff.get(key, Fraction(0)) + reach * node.payoffs[0]
        elif isinstance(node, Chance):
            for probability, child in zip(
                reversed(node.probabilities), reversed(node.children), strict=True
            ):
                stack.append((child, s0, s1, reach * probability))
        else:
            own = s0 if node.player == 0 else s1
            first = tables[node.player].enter(node, own)
            for offset in range(len(node.children) - 1, -1, -1):
                child = node.children[offset]
                if node.player == 0:
                    stack.append((child, first + offset, s1, reach))
                else:
                    stack.append((child, s0, first + offset, reach))
    players = (tables[0].freeze(), tables[1].freeze())
    E, e = _constraint_matrix(players[0])
    F, f = _constraint_matrix(players[1])
    entries = [(key, value) for key, value in payoff.items() if value != 0]
    rows = np.fromiter((key[0] for key, _ in entries), dtype=np.int64, count=len(entries))
    cols = np.fromiter((key[1] for key, _ in entries), dtype=np.int64, count=len(entries))
    exact = tuple(value for _, value in entries)
    values = np.fromiter((float(value) for value in exact), dtype=float, count=len(entries))
    A = sp.csr_array(
        (values, (rows, cols)), shape=(players[0].num_sequences, players[1].num_sequences)
    )
    return SequenceForm(
        E=E,
        e=e,
        F=F,
        f=f,
        A=A,
        payoff_entries=(rows, cols, exact),
        players=players,
        num_terminals=num_terminals,
    )
