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
The walk checks what every game needs and raises
:class:`~seqform.game.errors.InvalidGameError` naming the node by its history
(``"JQ p b"``) or the information set: every terminal pays the same number ``n >= 2`` of
players, in exact numbers, and every decision belongs to one of them; chance
probabilities exact, non-negative and summing to exactly one; every node of an
information set with the same player and actions; perfect recall — every node of an
information set is reached by the same own sequence of its player (Kuhn 1953; checking
the last own choice suffices, by induction from the root).

Games of more than two players and general-sum games are valid trees: CFR and the
n-player certificate work on them.  The sequence form, the LP, the normal form and the
exact routes need two players and zero sum; they call
:func:`seqform.game.requirements.require_two_player_zero_sum` at their entry, which uses
:attr:`FlatTree.num_players` and :attr:`FlatTree.not_zero_sum` recorded here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from seqform.base.collector import gc_paused
from seqform.game.checks import check_chance, check_terminal, count_word, hashable, refuse_decision
from seqform.game.errors import InvalidGameError
from seqform.game.nodes import Chance, Decision, Node, Terminal, history_text
from seqform.game.sequences import (
    EMPTY,
    InfosetEntry,
    PlayerSequences,
    SequenceTableBuilder,
    sequence_text,
)

__all__ = ["EMPTY", "FlatTree", "PlayerSequences", "compile_tree"]


@dataclass(frozen=True, eq=False)
class FlatTree:
    """A validated tree as arrays (see the module docstring for the numbering).

    num_players : the number ``n`` of players (the length of every terminal's payoffs)
    parent, edge : per node, its parent's index (-1 at the root) and which child it is
    kind : per node, 0 terminal, 1 chance, 2 decision
    terminals : node indices of the terminal nodes, in preorder
    terminal_sequences : per player, the player's own sequence at each terminal
    terminal_reach : chance probability of each terminal (float of the exact product)
    terminal_payoffs : shape ``(n, terminals)``, every player's payoff (float)
    terminal_payoff : player 0's payoff at each terminal (float; ``terminal_payoffs[0]``)
    terminal_reach_exact, terminal_payoff_exact : the same as the two above, exact
    terminal_payoffs_exact : per terminal, the node's exact payoff tuple (all players)
    not_zero_sum : position in ``terminals`` of the first terminal whose payoffs do not
        sum to zero, or -1 if all do
    constant_sum : the sum ``c`` of every terminal's payoffs if the same at all (0: zero-sum),
        else ``None``; ``not_constant_sum``: position of the first terminal whose sum differs
    tables : the label tables of players ``0 .. n - 1``
    nodes : the node objects, by index (to name nodes in messages)
    """

    parent: np.ndarray
    edge: np.ndarray
    kind: np.ndarray
    terminals: np.ndarray
    terminal_sequences: tuple[np.ndarray, ...]
    terminal_reach: np.ndarray
    terminal_payoff: np.ndarray
    terminal_reach_exact: tuple[Fraction, ...]
    terminal_payoff_exact: tuple[Fraction, ...]
    tables: tuple[PlayerSequences, ...]
    nodes: tuple[Node, ...]
    terminal_payoffs: np.ndarray
    terminal_payoffs_exact: tuple[tuple[Fraction, ...], ...]
    not_zero_sum: int = -1
    constant_sum: Fraction | None = Fraction(0)
    not_constant_sum: int = -1

    @property
    def num_players(self) -> int:
        return len(self.tables)

    @property
    def num_nodes(self) -> int:
        return len(self.nodes)

    def history(self, index: int) -> tuple[str, ...]:
        """The outcomes and actions on the path from the root to node ``index``."""
        return _history(self.parent, self.edge, self.nodes, index)


def _history(
    parent: Sequence[int] | np.ndarray,
    edge: Sequence[int] | np.ndarray,
    nodes: Sequence[Node],
    index: int,
) -> tuple[str, ...]:
    """The path labels to node ``index``, from arrays or the walk's lists alike."""
    labels: list[str] = []
    while parent[index] >= 0:
        above = nodes[int(parent[index])]
        assert isinstance(above, Chance | Decision)
        names = above.outcomes if isinstance(above, Chance) else above.actions
        labels.append(names[int(edge[index])])
        index = int(parent[index])
    return tuple(reversed(labels))


class _Visit(NamedTuple):
    """A node waiting on the walk's stack, with what the path from the root gives it."""

    node: Node
    parent: int  # the parent's node index, -1 at the root
    edge: int  # which child of the parent it is
    sequences: tuple[int, ...]  # each player's own sequence on the path (missing: EMPTY)
    reach_exact: Fraction  # product of the chance probabilities on the path
    reach: float  # the same, as a float


def compile_tree(root: Node) -> FlatTree:
    """Validate the tree under ``root`` and number its nodes, information sets, sequences.

    Raises
    ------
    InvalidGameError
        If the tree is not a valid game (see the module docstring).
    """
    with gc_paused():
        return _compile(root)


def _compile(root: Node) -> FlatTree:
    """The walk: pop a node, number it, check it, push its children (last child first).

    The loop stays in one function, with the lists' ``append`` bound to locals, because it
    runs once per node of trees with tens of millions of nodes; the checks and the
    numbering of information sets are the :class:`_Walk`'s methods.  Each visit carries
    the tuple of every player's own sequence; a decision of player ``p`` replaces entry
    ``p`` in its children's tuples.

    Length: one loop over every node, kept whole for speed, with the two-player decisions
    written out (they make the tuples without slicing).
    """
    walk = _Walk()
    nodes, parents, edges, kinds = walk.nodes, walk.parents, walk.edges, walk.kinds
    terminals, checked, sequences = walk.terminals, walk.checked_terminals, walk.sequences
    reach_float, reach_exact = walk.reach_float, walk.reach_exact
    payoff_exact, payoff_tuples, payoff_float = (
        walk.payoff_exact,
        walk.payoff_tuples,
        walk.payoff_float,
    )
    stack = [_Visit(root, -1, 0, (EMPTY, EMPTY), Fraction(1), 1.0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, parent, edge, own, exact, reach = pop()
        index = len(nodes)
        nodes.append(node)
        parents.append(parent)
        edges.append(edge)
        if type(node) is Terminal:
            kinds.append(0)
            payoff = checked.get(id(node))
            if payoff is None:
                payoff = checked[id(node)] = walk.terminal(node, index)
            terminals.append(index)
            sequences.append(own)
            reach_float.append(reach)
            reach_exact.append(exact)
            payoff_exact.append(node.payoffs[0])
            payoff_tuples.append(node.payoffs)
            payoff_float.append(payoff)
        elif type(node) is Chance:
            kinds.append(1)
            check_chance(node, walk.where, index)
            for k in range(len(node.children) - 1, -1, -1):
                product = exact * node.probabilities[k]
                push(_Visit(node.children[k], index, k, own, product, float(product)))
        elif type(node) is Decision:
            kinds.append(2)
            player = node.player
            first = walk.decision(node, own, index)
            children = node.children
            if player == 0 and len(own) == 2:  # the two-player cases, written out for speed
                s1 = own[1]
                for k in range(len(children) - 1, -1, -1):
                    push(_Visit(children[k], index, k, (first + k, s1), exact, reach))
                continue
            if player == 1 and len(own) == 2:
                s0 = own[0]
                for k in range(len(children) - 1, -1, -1):
                    push(_Visit(children[k], index, k, (s0, first + k), exact, reach))
                continue
            if player >= len(own):
                own = own + (EMPTY,) * (player + 1 - len(own))
            head, tail = own[:player], own[player + 1 :]
            for k in range(len(children) - 1, -1, -1):
                push(_Visit(children[k], index, k, (*head, first + k, *tail), exact, reach))
        else:
            raise InvalidGameError(
                f"node {walk.where(index)!r} is a {type(node).__name__}, not a game node"
            )
    return walk.freeze()


class _Walk:
    """The state of the one walk over the tree: per-node and per-terminal lists filled in
    preorder, and each player's information-set table (made when the player first acts)."""

    def __init__(self) -> None:
        self.parents: list[int] = []
        self.edges: list[int] = []
        self.kinds: list[int] = []
        self.nodes: list[Node] = []
        self.terminals: list[int] = []
        self.sequences: list[tuple[int, ...]] = []  # per terminal, each player's sequence
        self.reach_float: list[float] = []
        self.reach_exact: list[Fraction] = []
        self.payoff_exact: list[Fraction] = []  # player 0's
        self.payoff_tuples: list[tuple[Fraction, ...]] = []
        self.payoff_float: list[tuple[float, ...]] = []
        # Terminal objects already checked (games often share them), with their float
        # payoffs; the nodes list keeps every object alive, so ids stay unique.
        self.checked_terminals: dict[int, tuple[float, ...]] = {}
        self.first_terminal = -1  # node index of the first terminal (sets the player count)
        self.not_zero_sum = -1  # node index of the first terminal not summing to zero
        self.first_total: Fraction | None = None  # the first terminal's payoff sum
        self.not_constant_sum = -1  # node index of the first terminal whose sum differs
        self.tables: list[SequenceTableBuilder] = [SequenceTableBuilder(0), SequenceTableBuilder(1)]
        self.infoset_owner: dict[str, int] = {}

    def where(self, index: int) -> str:
        """Name node ``index`` by its history (only for messages)."""
        return history_text(_history(self.parents, self.edges, self.nodes, index))

    def terminal(self, node: Terminal, index: int) -> tuple[float, ...]:
        """Check a terminal not seen before; its payoffs as floats."""
        floats, total = check_terminal(node, self.where, index)
        if self.first_terminal < 0:
            self.first_terminal = index
        first = self.nodes[self.first_terminal]
        assert isinstance(first, Terminal)
        if len(floats) != len(first.payoffs):
            raise InvalidGameError(
                f"terminal node {self.where(index)!r} has payoffs for {len(floats)} players, "
                f"but terminal node {self.where(self.first_terminal)!r} for "
                f"{len(first.payoffs)}"
            )
        if total != 0 and self.not_zero_sum < 0:
            self.not_zero_sum = index
        if self.first_total is None:
            self.first_total = total
        elif total != self.first_total and self.not_constant_sum < 0:
            self.not_constant_sum = index
        return floats

    def decision(self, node: Decision, own: tuple[int, ...], index: int) -> int:
        """Check a decision node; return the first sequence of its information set, which
        is numbered on first sight and checked against the first sight after."""
        player = node.player
        if type(player) is not int or player < 0 or not hashable(node.infoset):
            refuse_decision(node, self.where(index))
        count = len(node.actions)
        if count == 0 or count != len(node.children):
            raise InvalidGameError(
                f"decision node {self.where(index)!r} (infoset {node.infoset!r}) has "
                f"{count} actions but {len(node.children)} children"
            )
        tables = self.tables
        while len(tables) <= player:
            tables.append(SequenceTableBuilder(len(tables)))
        known = tables[player].index.get(node.infoset)
        sequence = own[player] if player < len(own) else EMPTY
        if known is None:
            return self.new_infoset(node, sequence, index)
        self.check_infoset(known, node, sequence, index)
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

    def check_infoset(self, known: InfosetEntry, node: Decision, own: int, index: int) -> None:
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
                f"({sequence_text(table, known.parent_sequence)} at "
                f"{self.where(known.first_node)!r} and {sequence_text(table, own)} at "
                f"{self.where(index)!r})"
            )

    def players(self) -> int:
        """The number of players: the terminals' payoff count, which every decision's
        player must be below."""
        first = self.nodes[self.first_terminal]
        assert isinstance(first, Terminal)
        count = len(first.payoffs)
        for table in self.tables[count:]:
            if table.infosets:
                raise InvalidGameError(
                    f"decision node {self.where(table.index[table.infosets[0]].first_node)!r} "
                    f"belongs to player {table.player + 1}; the terminals pay "
                    f"{count_word(count)} players (a {count_word(count)}-player game)"
                )
        return count

    def terminal_sequences(self, count: int) -> np.ndarray:
        """Shape ``(count, terminals)``: each player's own sequence at each terminal."""
        rows = self.sequences
        if count > 2:  # a player who has not acted yet is missing from the tuple
            rows = [row + (EMPTY,) * (count - len(row)) for row in rows]
        return np.asarray(rows, dtype=np.int64).reshape(len(rows), count).T

    def freeze(self) -> FlatTree:
        count = self.players()
        sequences = self.terminal_sequences(count)
        payoffs = np.asarray(self.payoff_float, dtype=float).reshape(len(self.terminals), count)
        payoffs = np.ascontiguousarray(payoffs.T)
        not_zero_sum = not_constant_sum = -1
        if self.not_zero_sum >= 0:
            not_zero_sum = self.terminals.index(self.not_zero_sum)
        if self.not_constant_sum >= 0:
            not_constant_sum = self.terminals.index(self.not_constant_sum)
        return FlatTree(
            parent=np.asarray(self.parents, dtype=np.int64),
            edge=np.asarray(self.edges, dtype=np.int64),
            kind=np.asarray(self.kinds, dtype=np.int8),
            terminals=np.asarray(self.terminals, dtype=np.int64),
            terminal_sequences=tuple(np.ascontiguousarray(row) for row in sequences),
            terminal_reach=np.asarray(self.reach_float, dtype=float),
            terminal_payoff=payoffs[0].copy(),
            terminal_reach_exact=tuple(self.reach_exact),
            terminal_payoff_exact=tuple(self.payoff_exact),
            tables=tuple(table.freeze() for table in self.tables[:count])
            + tuple(SequenceTableBuilder(p).freeze() for p in range(len(self.tables), count)),
            nodes=tuple(self.nodes),
            terminal_payoffs=payoffs,
            terminal_payoffs_exact=tuple(self.payoff_tuples),
            not_zero_sum=not_zero_sum,
            constant_sum=self.first_total if not_constant_sum < 0 else None,
            not_constant_sum=not_constant_sum,
        )
