"""The game tree compiled to flat arrays: one walk validates it and numbers everything.

Every algorithm after the walk (the sequence form, expected values, best responses)
works on these arrays with numpy instead of visiting Python node objects again, so a
tree is walked node by node exactly once, when its :class:`~seqform.game.Game` is made.

Numbering
---------
Nodes are numbered in depth-first preorder, children in order.  The first time the walk
meets an information set of player ``i`` it becomes ``i``'s next information set and its
actions become ``i``'s next ``len(actions)`` consecutive sequences (index 0 is the empty
sequence).  So the sequence leading to an information set always has a smaller index
than the information set's own sequences (see :mod:`seqform.forms.sequence_form`).

Validation
----------
The walk checks the hypotheses of the sequence form (Koller, Megiddo and von Stengel
1996, §2) and raises :class:`~seqform.game.errors.InvalidGameError` naming the node by its
history (``"JQ p b"``) or the information set: two players; payoffs exact and summing to
zero; chance probabilities exact, non-negative and summing to exactly one; every node of
an information set with the same player and actions; perfect recall — every node of an
information set is reached by the same own sequence of its player (Kuhn 1953; checking
the last own choice suffices, by induction from the root).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from seqform.game.checks import check_chance, check_terminal
from seqform.game.errors import InvalidGameError
from seqform.game.nodes import Chance, Decision, Node, Terminal, history_text

__all__ = ["EMPTY", "FlatTree", "PlayerSequences", "compile_tree", "gc_paused"]

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

    def action_counts(self) -> np.ndarray:
        """Number of actions per information set."""
        return np.fromiter((len(a) for a in self.actions), dtype=np.int64, count=len(self.actions))


@dataclass(frozen=True, eq=False)
class FlatTree:
    """A validated tree as arrays (see the module docstring for the numbering).

    parent, edge : per node, its parent's index (-1 at the root) and which child it is
    kind : per node, 0 terminal, 1 chance, 2 decision
    terminals : node indices of the terminal nodes, in preorder
    terminal_sequences : per player, the player's own sequence at each terminal
    terminal_reach : chance probability of each terminal (float of the exact product)
    terminal_payoff : player 0's payoff at each terminal (float)
    terminal_reach_exact, terminal_payoff_exact : the same, exact
    tables : the label tables of players 0 and 1
    nodes : the node objects, by index (to name nodes in messages)
    """

    parent: np.ndarray
    edge: np.ndarray
    kind: np.ndarray
    terminals: np.ndarray
    terminal_sequences: tuple[np.ndarray, np.ndarray]
    terminal_reach: np.ndarray
    terminal_payoff: np.ndarray
    terminal_reach_exact: tuple[Fraction, ...]
    terminal_payoff_exact: tuple[Fraction, ...]
    tables: tuple[PlayerSequences, PlayerSequences]
    nodes: tuple[Node, ...]

    @property
    def num_nodes(self) -> int:
        return len(self.nodes)

    def history(self, index: int) -> tuple[str, ...]:
        """The outcomes and actions on the path from the root to node ``index``."""
        labels: list[str] = []
        while self.parent[index] >= 0:
            above = self.nodes[int(self.parent[index])]
            assert isinstance(above, Chance | Decision)
            names = above.outcomes if isinstance(above, Chance) else above.actions
            labels.append(names[int(self.edge[index])])
            index = int(self.parent[index])
        return tuple(reversed(labels))


class _InfosetEntry(NamedTuple):
    """What the walk remembers of an information set the first time it meets it."""

    number: int  # the information set's index among its player's
    first_sequence: int  # the sequence of its first action
    parent_sequence: int  # the player's own sequence that leads to it
    actions: tuple[str, ...]
    first_node: int  # the node where the walk met it first (to name it in messages)


class _Visit(NamedTuple):
    """A node waiting on the walk's stack, with what the path from the root gives it."""

    node: Node
    parent: int  # the parent's node index, -1 at the root
    edge: int  # which child of the parent it is
    sequence0: int  # player 0's own sequence on the path
    sequence1: int  # player 1's own sequence on the path
    reach_exact: Fraction  # product of the chance probabilities on the path
    reach: float  # the same, as a float


class _Table:
    """Mutable accumulator of one player's information sets during the walk."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.index: dict[str, _InfosetEntry] = {}
        self.infosets: list[str] = []
        self.actions: list[tuple[str, ...]] = []
        self.parent: list[int] = []
        self.first: list[int] = []
        self.sequence_infoset: list[int] = [-1]
        self.sequence_action: list[str] = [""]

    def add(self, name: str, actions: tuple[str, ...], own: int, node: int) -> int:
        """Number a new information set and its actions' sequences; return the first."""
        first_sequence = len(self.sequence_action)
        self.index[name] = _InfosetEntry(len(self.infosets), first_sequence, own, actions, node)
        self.infosets.append(name)
        self.actions.append(actions)
        self.parent.append(own)
        self.first.append(first_sequence)
        self.sequence_infoset.extend([len(self.infosets) - 1] * len(actions))
        self.sequence_action.extend(actions)
        return first_sequence

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


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while building many small objects.

    Trees are acyclic, so the collector finds nothing to free while a game is built, yet
    it runs again and again as the node count grows; pausing it makes building 20-30 %
    faster.  The previous state is restored afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compile_tree(root: Node) -> FlatTree:
    """Validate the tree under ``root`` and number its nodes, information sets, sequences.

    Raises
    ------
    InvalidGameError
        If the tree breaks a hypothesis of the sequence form (see the module docstring).
    """
    with gc_paused():
        return _compile(root)


def _compile(root: Node) -> FlatTree:
    """The walk: pop a node, number it, check it, push its children (last child first).

    The loop stays in one function, with the lists' ``append`` bound to locals, because it
    runs once per node of trees with tens of millions of nodes; the checks and the
    numbering of information sets are the :class:`_Walk`'s methods.
    """
    walk = _Walk()
    nodes, parents, edges, kinds = walk.nodes, walk.parents, walk.edges, walk.kinds
    terminals, checked, (seq0, seq1) = walk.terminals, walk.checked_terminals, walk.sequences
    reach_float, reach_exact = walk.reach_float, walk.reach_exact
    payoff_exact, payoff_float = walk.payoff_exact, walk.payoff_float
    stack = [_Visit(root, -1, 0, EMPTY, EMPTY, Fraction(1), 1.0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, parent, edge, s0, s1, exact, reach = pop()
        index = len(nodes)
        nodes.append(node)
        parents.append(parent)
        edges.append(edge)
        if type(node) is Terminal:
            kinds.append(0)
            payoff = checked.get(id(node))
            if payoff is None:
                payoff = checked[id(node)] = check_terminal(node, walk.where, index)
            terminals.append(index)
            seq0.append(s0)
            seq1.append(s1)
            reach_float.append(reach)
            reach_exact.append(exact)
            payoff_exact.append(node.payoffs[0])
            payoff_float.append(payoff)
        elif type(node) is Chance:
            kinds.append(1)
            check_chance(node, walk.where, index)
            for k in range(len(node.children) - 1, -1, -1):
                product = exact * node.probabilities[k]
                push(_Visit(node.children[k], index, k, s0, s1, product, float(product)))
        elif type(node) is Decision:
            kinds.append(2)
            first = walk.decision(node, s0 if node.player == 0 else s1, index)
            children = node.children
            if node.player == 0:
                for k in range(len(children) - 1, -1, -1):
                    push(_Visit(children[k], index, k, first + k, s1, exact, reach))
            else:
                for k in range(len(children) - 1, -1, -1):
                    push(_Visit(children[k], index, k, s0, first + k, exact, reach))
        else:
            raise InvalidGameError(
                f"node {walk.where(index)!r} is a {type(node).__name__}, not a game node"
            )
    return walk.freeze()


class _Walk:
    """The state of the one walk over the tree: per-node and per-terminal lists filled in
    preorder, and the two players' information-set tables."""

    def __init__(self) -> None:
        self.parents: list[int] = []
        self.edges: list[int] = []
        self.kinds: list[int] = []
        self.nodes: list[Node] = []
        self.terminals: list[int] = []
        self.sequences: tuple[list[int], list[int]] = ([], [])  # per terminal, per player
        self.reach_float: list[float] = []
        self.reach_exact: list[Fraction] = []
        self.payoff_exact: list[Fraction] = []
        self.payoff_float: list[float] = []
        # Terminal objects already checked (games often share them), with their float
        # payoff; the nodes list keeps every object alive, so ids stay unique.
        self.checked_terminals: dict[int, float] = {}
        self.tables = (_Table(0), _Table(1))
        self.infoset_owner: dict[str, int] = {}

    def where(self, index: int) -> str:
        """Name node ``index`` by its history (only for messages: it rebuilds the arrays)."""
        tables = (self.tables[0].freeze(), self.tables[1].freeze())
        nothing = np.zeros(0)
        partial = FlatTree(
            np.asarray(self.parents, dtype=np.int64), np.asarray(self.edges, dtype=np.int64),
            nothing, nothing, (nothing, nothing), nothing, nothing, (), (), tables,
            tuple(self.nodes),
        )  # fmt: skip
        return history_text(partial.history(index))

    def decision(self, node: Decision, own: int, index: int) -> int:
        """Check a decision node; return the first sequence of its information set, which
        is numbered on first sight and checked against the first sight after."""
        player = node.player
        if player not in (0, 1):
            raise InvalidGameError(
                f"decision node {self.where(index)!r} belongs to player {player + 1}; "
                "seqform solves two-player games only (players 0 and 1)"
            )
        count = len(node.actions)
        if count == 0 or count != len(node.children):
            raise InvalidGameError(
                f"decision node {self.where(index)!r} (infoset {node.infoset!r}) has "
                f"{count} actions but {len(node.children)} children"
            )
        known = self.tables[player].index.get(node.infoset)
        if known is None:
            return self.new_infoset(node, own, index)
        self.check_infoset(known, node, own, index)
        return known.first_sequence

    def new_infoset(self, node: Decision, own: int, index: int) -> int:
        """Number the information set met first at node ``index``; its first sequence."""
        player, name, actions = node.player, node.infoset, node.actions
        owner = self.infoset_owner.setdefault(name, player)
        if owner != player:
            first_node = self.tables[owner].index[name].first_node
            raise InvalidGameError(
                f"information set {name!r} has nodes of player {owner + 1} "
                f"(at {self.where(first_node)!r}) and of player {player + 1} "
                f"(at {self.where(index)!r})"
            )
        if len(set(actions)) != len(actions):
            raise InvalidGameError(f"information set {name!r} repeats an action: {actions}")
        return self.tables[player].add(name, actions, own, index)

    def check_infoset(self, known: _InfosetEntry, node: Decision, own: int, index: int) -> None:
        """Check a later node of a known information set: same actions, perfect recall."""
        name, actions = node.infoset, node.actions
        if known.actions != actions:
            raise InvalidGameError(
                f"information set {name!r} offers actions {known.actions} at "
                f"{self.where(known.first_node)!r} but {actions} at {self.where(index)!r}"
            )
        if known.parent_sequence != own:
            table = self.tables[node.player]
            raise InvalidGameError(
                f"imperfect recall: player {node.player + 1} reaches information set "
                f"{name!r} after different own sequences "
                f"({_sequence_text(table, known.parent_sequence)} at "
                f"{self.where(known.first_node)!r} and {_sequence_text(table, own)} at "
                f"{self.where(index)!r})"
            )

    def freeze(self) -> FlatTree:
        return FlatTree(
            parent=np.asarray(self.parents, dtype=np.int64),
            edge=np.asarray(self.edges, dtype=np.int64),
            kind=np.asarray(self.kinds, dtype=np.int8),
            terminals=np.asarray(self.terminals, dtype=np.int64),
            terminal_sequences=(
                np.asarray(self.sequences[0], dtype=np.int64),
                np.asarray(self.sequences[1], dtype=np.int64),
            ),
            terminal_reach=np.asarray(self.reach_float, dtype=float),
            terminal_payoff=np.asarray(self.payoff_float, dtype=float),
            terminal_reach_exact=tuple(self.reach_exact),
            terminal_payoff_exact=tuple(self.payoff_exact),
            tables=(self.tables[0].freeze(), self.tables[1].freeze()),
            nodes=tuple(self.nodes),
        )


def _sequence_text(table: _Table, sequence: int) -> str:
    """Name a sequence by its whole path of own choices, e.g. ``"X:a Y:b"``."""
    if sequence == EMPTY:
        return "the empty sequence"
    parts: list[str] = []
    while sequence != EMPTY:
        infoset = table.sequence_infoset[sequence]
        parts.append(f"{table.infosets[infoset]}:{table.sequence_action[sequence]}")
        sequence = table.parent[infoset]
    return " ".join(reversed(parts))
