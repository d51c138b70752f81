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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

import numpy as np

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


class _Table:
    """Mutable accumulator of one player's information sets during the walk."""

    def __init__(self, player: int) -> None:
        self.player = player
        # name -> (index, first sequence, parent sequence, actions, first node)
        self.index: dict[str, tuple[int, int, int, tuple[str, ...], int]] = {}
        self.infosets: list[str] = []
        self.actions: list[tuple[str, ...]] = []
        self.parent: list[int] = []
        self.first: list[int] = []
        self.sequence_infoset: list[int] = [-1]
        self.sequence_action: list[str] = [""]

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
    parents: list[int] = []
    edges: list[int] = []
    kinds: list[int] = []
    nodes: list[Node] = []
    terminals: list[int] = []
    seq0: list[int] = []
    seq1: list[int] = []
    reach_float: list[float] = []
    reach_exact: list[Fraction] = []
    payoff_exact: list[Fraction] = []
    payoff_float: list[float] = []
    # Terminal objects already checked (games often share them), with their float payoff;
    # the nodes list keeps every object alive, so ids stay unique.
    checked_terminals: dict[int, float] = {}
    tables = (_Table(0), _Table(1))
    infoset_owner: dict[str, int] = {}

    def where(index: int) -> str:
        flat_parent = np.asarray(parents, dtype=np.int64)
        flat_edge = np.asarray(edges, dtype=np.int64)
        partial = FlatTree(
            flat_parent, flat_edge, np.zeros(0), np.zeros(0), (np.zeros(0), np.zeros(0)),
            np.zeros(0), np.zeros(0), (), (), (tables[0].freeze(), tables[1].freeze()),
            tuple(nodes),
        )  # fmt: skip
        return history_text(partial.history(index))

    one = Fraction(1)
    # (node, parent index, edge, own sequence of players 0 and 1, exact and float reach)
    stack: list[tuple[Node, int, int, int, int, Fraction, float]] = [
        (root, -1, 0, EMPTY, EMPTY, one, 1.0)
    ]
    pop, push = stack.pop, stack.append
    while stack:
        node, parent, edge, s0, s1, exact, reach = pop()
        index = len(nodes)
        nodes.append(node)
        parents.append(parent)
        edges.append(edge)
        cls = type(node)
        if cls is Terminal:
            kinds.append(0)
            payoff = checked_terminals.get(id(node))
            if payoff is None:
                payoff = _check_terminal(node, where, index)
                checked_terminals[id(node)] = payoff
            terminals.append(index)
            seq0.append(s0)
            seq1.append(s1)
            reach_float.append(reach)
            reach_exact.append(exact)
            payoff_exact.append(node.payoffs[0])
            payoff_float.append(payoff)
        elif cls is Chance:
            kinds.append(1)
            _check_chance(node, where, index)
            for k in range(len(node.children) - 1, -1, -1):
                product = exact * node.probabilities[k]
                push((node.children[k], index, k, s0, s1, product, float(product)))
        elif cls is Decision:
            kinds.append(2)
            player = node.player
            if player not in (0, 1):
                raise InvalidGameError(
                    f"decision node {where(index)!r} belongs to player {player + 1}; "
                    "seqform solves two-player games only (players 0 and 1)"
                )
            actions = node.actions
            count = len(actions)
            if count == 0 or count != len(node.children):
                raise InvalidGameError(
                    f"decision node {where(index)!r} (infoset {node.infoset!r}) has "
                    f"{count} actions but {len(node.children)} children"
                )
            table = tables[player]
            own = s0 if player == 0 else s1
            known = table.index.get(node.infoset)
            if known is None:
                owner = infoset_owner.setdefault(node.infoset, player)
                if owner != player:
                    first_node = tables[owner].index[node.infoset][4]
                    raise InvalidGameError(
                        f"information set {node.infoset!r} has nodes of player {owner + 1} "
                        f"(at {where(first_node)!r}) and of player {player + 1} "
                        f"(at {where(index)!r})"
                    )
                if len(set(actions)) != count:
                    raise InvalidGameError(
                        f"information set {node.infoset!r} repeats an action: {actions}"
                    )
                first_sequence = len(table.sequence_action)
                table.index[node.infoset] = (
                    len(table.infosets),
                    first_sequence,
                    own,
                    actions,
                    index,
                )
                table.infosets.append(node.infoset)
                table.actions.append(actions)
                table.parent.append(own)
                table.first.append(first_sequence)
                table.sequence_infoset.extend([len(table.infosets) - 1] * count)
                table.sequence_action.extend(actions)
            else:
                _, first_sequence, parent_sequence, known_actions, first_node = known
                if known_actions != actions:
                    raise InvalidGameError(
                        f"information set {node.infoset!r} offers actions {known_actions} at "
                        f"{where(first_node)!r} but {actions} at {where(index)!r}"
                    )
                if parent_sequence != own:
                    raise InvalidGameError(
                        f"imperfect recall: player {player + 1} reaches information set "
                        f"{node.infoset!r} after different own sequences "
                        f"({_sequence_text(table, parent_sequence)} at {where(first_node)!r} "
                        f"and {_sequence_text(table, own)} at {where(index)!r})"
                    )
            children = node.children
            if player == 0:
                for k in range(count - 1, -1, -1):
                    push((children[k], index, k, first_sequence + k, s1, exact, reach))
            else:
                for k in range(count - 1, -1, -1):
                    push((children[k], index, k, s0, first_sequence + k, exact, reach))
        else:
            raise InvalidGameError(
                f"node {where(index)!r} is a {type(node).__name__}, not a game node"
            )
    return FlatTree(
        parent=np.asarray(parents, dtype=np.int64),
        edge=np.asarray(edges, dtype=np.int64),
        kind=np.asarray(kinds, dtype=np.int8),
        terminals=np.asarray(terminals, dtype=np.int64),
        terminal_sequences=(np.asarray(seq0, dtype=np.int64), np.asarray(seq1, dtype=np.int64)),
        terminal_reach=np.asarray(reach_float, dtype=float),
        terminal_payoff=np.asarray(payoff_float, dtype=float),
        terminal_reach_exact=tuple(reach_exact),
        terminal_payoff_exact=tuple(payoff_exact),
        tables=(tables[0].freeze(), tables[1].freeze()),
        nodes=tuple(nodes),
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


def _check_terminal(node: Terminal, where: Callable[[int], str], index: int) -> float:
    """Check a terminal's payoffs; return player 0's payoff as a float."""
    payoffs = node.payoffs
    if len(payoffs) != 2:
        raise InvalidGameError(
            f"terminal node {where(index)!r} has payoffs for {len(payoffs)} players; "
            "seqform solves two-player games only"
        )
    first, second = payoffs
    if not (isinstance(first, Rational) and isinstance(second, Rational)):
        raise InvalidGameError(
            f"terminal node {where(index)!r} has payoffs {payoffs!r}; payoffs must be "
            "exact (int or fractions.Fraction)"
        )
    if first + second != 0:
        raise InvalidGameError(
            f"not zero-sum: terminal node {where(index)!r} has payoffs "
            f"({first}, {second}), which sum to {first + second}"
        )
    return float(first)


def _check_chance(node: Chance, where: Callable[[int], str], index: int) -> None:
    count = len(node.children)
    if count == 0:
        raise InvalidGameError(f"chance node {where(index)!r} has no outcomes")
    if not len(node.outcomes) == len(node.probabilities) == count:
        raise InvalidGameError(
            f"chance node {where(index)!r} has {len(node.outcomes)} outcomes, "
            f"{len(node.probabilities)} probabilities and {count} children"
        )
    if len(set(node.outcomes)) != count:
        raise InvalidGameError(f"chance node {where(index)!r} repeats an outcome: {node.outcomes}")
    total = Fraction(0)
    for outcome, probability in zip(node.outcomes, node.probabilities, strict=True):
        if not isinstance(probability, Rational):
            raise InvalidGameError(
                f"chance node {where(index)!r}: probability {probability!r} of outcome "
                f"{outcome!r} is not exact (use fractions.Fraction)"
            )
        if probability < 0:
            raise InvalidGameError(
                f"chance node {where(index)!r}: outcome {outcome!r} has negative probability "
                f"{probability}"
            )
        total += probability
    if total != 1:
        raise InvalidGameError(f"chance node {where(index)!r}: probabilities sum to {total}, not 1")
