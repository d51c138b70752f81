"""One-card showdown poker: one private card each, then public betting.

Each player is dealt one card from a deck of ``N`` ranked cards ``0 < 1 < ... < N-1``;
every ordered pair of distinct cards ``(i, j)`` (player 0 holds ``i``) has probability
``1 / (N (N-1))``.  Then both players bet along a *public* betting tree, so player ``p``'s
information set is (own card, betting history) and its sequences are (own card, betting
sequence).  A betting path ends in a fold, where the folding player pays a fixed amount,
or a showdown, where the higher card wins a fixed stake.  Kuhn poker (Kuhn 1950) is the
three-card member of this family and N-card Kuhn the rest
(:func:`seqform.game.builtin.kuhn.kuhn_showdown`).

This module holds the *description* of such a game — the betting tree (:class:`Bet`,
:class:`Fold`, :class:`Showdown`), its numbering (:class:`BettingTable`) and the game
(:class:`ShowdownPoker`) — and :func:`showdown_game`, which writes out the explicit tree.
:mod:`seqform.structured.showdown` computes on the description without the tree.

Numbering
---------
Player ``p``'s betting sequences are numbered ``0 .. S_p - 1`` (0 the empty one) and its
betting decision nodes ``0 .. K_p - 1``, both in preorder.  In the game, the sequence
(card ``c``, betting sequence ``s >= 1``) has index ``1 + c (S_p - 1) + (s - 1)``; index 0
is the empty sequence.  So each player has ``1 + N (S_p - 1)`` sequences and ``N K_p``
information sets, named ``"<card><betting history>"`` (Kuhn's ``"Kpb"``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations

import numpy as np

from seqform.game.errors import InvalidGameError
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = [
    "DEFAULT_MAX_TREE_NODES",
    "Bet",
    "BettingNode",
    "BettingTable",
    "Fold",
    "Showdown",
    "ShowdownPoker",
    "check_deck_size",
    "showdown_game",
]

DEFAULT_MAX_TREE_NODES = 5_000_000  # showdown_game refuses larger trees unless told otherwise


@dataclass(frozen=True, slots=True)
class Fold:
    """The betting ends: ``loser`` folds and pays ``amount`` to the other player."""

    loser: int
    amount: Fraction


@dataclass(frozen=True, slots=True)
class Showdown:
    """The betting ends in a showdown: the higher card wins ``stake`` from the lower."""

    stake: Fraction


@dataclass(frozen=True, slots=True)
class Bet:
    """A betting decision of ``player``; the history that leads here is public."""

    player: int
    actions: tuple[str, ...]
    children: tuple[BettingNode, ...]


BettingNode = Bet | Fold | Showdown


@dataclass(frozen=True)
class BettingTable:
    """The betting tree numbered for one player each (see the module's *Numbering*).

    sequences[p] : label (the public history ending with ``p``'s action) of each betting
        sequence of player ``p``; index 0 is the empty sequence, label ``""``
    nodes[p] : history of each betting decision node of player ``p``, in preorder
    node_parent[p] : per node, the player's betting sequence that leads to it
    node_sequences[p] : per node, the betting sequences of its actions, in action order
    node_actions[p] : per node, its action labels
    leaf_sequences : shape (leaves, 2), each leaf's betting sequence of both players
    leaf_showdown : per leaf, True for a showdown, False for a fold
    leaf_payoff : per leaf, exact payoff to player 0: ``-amount`` / ``+amount`` when player
        0 / 1 folds, ``stake`` at a showdown (to be multiplied by ``sign(i - j)``)
    leaf_histories : per leaf, its public history
    """

    sequences: tuple[tuple[str, ...], tuple[str, ...]]
    nodes: tuple[tuple[str, ...], tuple[str, ...]]
    node_parent: tuple[np.ndarray, np.ndarray]
    node_sequences: tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]
    node_actions: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
    leaf_sequences: np.ndarray
    leaf_showdown: np.ndarray
    leaf_payoff: tuple[Fraction, ...]
    leaf_histories: tuple[str, ...]

    def num_sequences(self, player: int) -> int:
        """``S_p``: the player's betting sequences, the empty one included."""
        return len(self.sequences[player])

    def num_nodes(self, player: int) -> int:
        """``K_p``: the player's betting decision nodes."""
        return len(self.nodes[player])


@dataclass(frozen=True, slots=True)
class _Pending:
    """A betting node waiting on the numbering stack, with the public history before it
    and the last betting sequence of players 0 and 1 on the way."""

    node: BettingNode
    history: str
    last: tuple[int, int]


class _Numbering:
    """The lists :func:`_number_betting` fills, one entry per sequence, node or leaf."""

    def __init__(self) -> None:
        self.sequences: list[list[str]] = [[""], [""]]
        self.nodes: list[list[str]] = [[], []]
        self.parents: list[list[int]] = [[], []]
        self.node_sequences: list[list[np.ndarray]] = [[], []]
        self.node_actions: list[list[tuple[str, ...]]] = [[], []]
        self.leaves: list[tuple[int, int]] = []
        self.showdown: list[bool] = []
        self.payoff: list[Fraction] = []
        self.histories: list[str] = []

    def leaf(self, pending: _Pending, showdown: bool, payoff: Fraction) -> None:
        self.leaves.append(pending.last)
        self.showdown.append(showdown)
        self.payoff.append(payoff)
        self.histories.append(pending.history)

    def bet(self, pending: _Pending, node: Bet) -> list[_Pending]:
        """Number a betting decision; return its children, last child first."""
        player = node.player
        first = len(self.sequences[player])
        self.sequences[player].extend(pending.history + action for action in node.actions)
        self.nodes[player].append(pending.history)
        self.parents[player].append(pending.last[player])
        self.node_sequences[player].append(np.arange(first, first + len(node.actions)))
        self.node_actions[player].append(tuple(node.actions))
        children = []
        for offset in reversed(range(len(node.actions))):
            sequence = first + offset
            last = (sequence, pending.last[1]) if player == 0 else (pending.last[0], sequence)
            history = pending.history + node.actions[offset]
            children.append(_Pending(node.children[offset], history, last))
        return children

    def freeze(self) -> BettingTable:
        return BettingTable(
            sequences=(tuple(self.sequences[0]), tuple(self.sequences[1])),
            nodes=(tuple(self.nodes[0]), tuple(self.nodes[1])),
            node_parent=(
                np.asarray(self.parents[0], dtype=np.int64),
                np.asarray(self.parents[1], dtype=np.int64),
            ),
            node_sequences=(tuple(self.node_sequences[0]), tuple(self.node_sequences[1])),
            node_actions=(tuple(self.node_actions[0]), tuple(self.node_actions[1])),
            leaf_sequences=np.asarray(self.leaves, dtype=np.int64).reshape(-1, 2),
            leaf_showdown=np.asarray(self.showdown, dtype=bool),
            leaf_payoff=tuple(self.payoff),
            leaf_histories=tuple(self.histories),
        )


def _number_betting(root: Bet, name: str) -> BettingTable:
    """Number the betting tree (iteratively, in preorder), validating it on the way."""
    numbering = _Numbering()
    stack = [_Pending(root, "", (0, 0))]
    while stack:
        pending = stack.pop()
        node = pending.node
        where = f"{name}: betting history {pending.history or '(root)'!r}"
        if isinstance(node, Fold):
            if node.loser not in (0, 1):
                raise InvalidGameError(f"{where}: the folding player must be 0 or 1")
            amount = Fraction(node.amount)
            if amount <= 0:
                raise InvalidGameError(f"{where}: a fold must pay a positive amount")
            numbering.leaf(pending, False, -amount if node.loser == 0 else amount)
        elif isinstance(node, Showdown):
            stake = Fraction(node.stake)
            if stake <= 0:
                raise InvalidGameError(f"{where}: a showdown must have a positive stake")
            numbering.leaf(pending, True, stake)
        elif isinstance(node, Bet):
            if node.player not in (0, 1):
                raise InvalidGameError(
                    f"{where}: player {node.player!r} bets, but the game has players 0 and 1"
                )
            if not node.actions or len(node.actions) != len(node.children):
                raise InvalidGameError(f"{where}: needs one child per action, and an action")
            if len(set(node.actions)) != len(node.actions):
                raise InvalidGameError(f"{where}: repeated action labels {node.actions}")
            stack.extend(numbering.bet(pending, node))
        else:
            raise InvalidGameError(f"{where}: {type(node).__name__} is not a betting node")
    return numbering.freeze()


def check_deck_size(cards: object, name: str) -> None:
    """Refuse a deck that is not an integer of at least 2 cards, naming the game.

    Raises
    ------
    InvalidGameError
        ``"<name>: cards must be an integer >= 2, got <cards>"``.
    """
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 2:
        raise InvalidGameError(f"{name}: cards must be an integer >= 2, got {cards!r}")


@dataclass(frozen=True, eq=False)
class ShowdownPoker:
    """A one-card showdown poker game (see the module docstring).

    name : how the CLI names it, e.g. ``"kuhn(cards=250000)"``
    cards : ``N >= 2``, the size of the deck
    betting : the root of the public betting tree
    card_names : a name per card, lowest first; ``None`` names them ``"1" .. "N"``
    describe_action : ``(infoset name, action) -> words``, for displays
    deal_separator : written between the two cards' names in a deal's label
        (``"3,12"``; Kuhn's three named cards use ``""``: ``"KJ"``)
    betting_table : the numbered betting tree, computed on construction
    """

    name: str
    cards: int
    betting: Bet
    description: str = ""
    card_names: tuple[str, ...] | None = None
    describe_action: Callable[[str, str], str] | None = None
    deal_separator: str = ","
    betting_table: BettingTable = field(init=False, repr=False)

    def __post_init__(self) -> None:
        check_deck_size(self.cards, self.name)
        if self.card_names is not None and len(self.card_names) != self.cards:
            raise InvalidGameError(
                f"{self.name}: {len(self.card_names)} card names for {self.cards} cards"
            )
        if not isinstance(self.betting, Bet):
            raise InvalidGameError(f"{self.name}: the betting tree must start with a Bet")
        object.__setattr__(self, "betting_table", _number_betting(self.betting, self.name))

    def card_name(self, card: int) -> str:
        """The name of card ``card`` (0-based rank)."""
        return self.card_names[card] if self.card_names is not None else str(card + 1)

    def num_sequences(self, player: int) -> int:
        """Sequences of ``player`` in the game: ``1 + N (S_p - 1)``."""
        return 1 + self.cards * (self.betting_table.num_sequences(player) - 1)

    def num_infosets(self, player: int) -> int:
        """Information sets of ``player``: ``N K_p``."""
        return self.cards * self.betting_table.num_nodes(player)

    @property
    def num_leaves(self) -> int:
        """Terminal histories of the game tree (never built): ``N (N-1) |Z|``."""
        return self.cards * (self.cards - 1) * len(self.betting_table.leaf_payoff)

    @property
    def tree_nodes(self) -> int:
        """Nodes of the game tree (never built): the root, the deals and their betting."""
        betting_nodes = (
            self.betting_table.num_nodes(0)
            + self.betting_table.num_nodes(1)
            + len(self.betting_table.leaf_payoff)
        )
        return 1 + self.cards * (self.cards - 1) * betting_nodes

    def sequence_label(self, player: int, index: int) -> str:
        """``"<card><betting sequence>"`` for a game sequence index; ``""`` for 0."""
        if index == 0:
            return ""
        width = self.betting_table.num_sequences(player) - 1
        card, offset = divmod(index - 1, width)
        return self.card_name(card) + self.betting_table.sequences[player][offset + 1]

    def infoset_name(self, player: int, card: int, node: int) -> str:
        """``"<card><history>"``, the name :func:`showdown_game` gives the information set."""
        return self.card_name(card) + self.betting_table.nodes[player][node]

    def deal_label(self, first: int, second: int) -> str:
        """The chance outcome that deals card ``first`` to player 0 and ``second`` to 1.

        The two cards' names joined by ``deal_separator`` (``"KJ"``, ``"3,12"``); a reader
        of the tree splits it back the same way.
        """
        return self.card_name(first) + self.deal_separator + self.card_name(second)


def showdown_game(poker: ShowdownPoker, max_nodes: int = DEFAULT_MAX_TREE_NODES) -> Game:
    """The explicit game tree: chance deals, then the betting, one subtree per deal.

    Deals come in the order of :func:`itertools.permutations` (player 0's card most
    significant), labelled by :meth:`ShowdownPoker.deal_label`; information sets are named
    by :meth:`ShowdownPoker.infoset_name`, so strategies carry over by name.  Equal payoffs
    share one :class:`~seqform.game.nodes.Terminal` object.

    Raises
    ------
    ValueError
        When the tree would have more than ``max_nodes`` nodes.
    """
    if poker.tree_nodes > max_nodes:
        raise ValueError(
            f"{poker.name}: the game tree would have {poker.tree_nodes:,} nodes, more than "
            f"the {max_nodes:,} seqform builds; solve it with --method sparsified, which "
            "never builds the tree"
        )
    make = _subtree_maker(poker.betting, "", {})
    names = [poker.card_name(card) for card in range(poker.cards)]
    deals = list(permutations(range(poker.cards), 2))
    root = Chance(
        outcomes=tuple(poker.deal_label(first, second) for first, second in deals),
        probabilities=(Fraction(1, len(deals)),) * len(deals),
        children=tuple(
            make((names[first], names[second]), first > second) for first, second in deals
        ),
        label="deal",
    )
    if poker.describe_action is None:
        return Game(name=poker.name, root=root, description=poker.description)
    return Game(
        name=poker.name,
        root=root,
        description=poker.description,
        describe_action=poker.describe_action,
    )


_SubtreeMaker = Callable[[tuple[str, str], bool], Node]
"""Builds the betting below one betting node for a deal: ``(card names, player 0 wins a
showdown) -> node``."""


def _subtree_maker(
    node: BettingNode, history: str, leaves: dict[Fraction, Terminal]
) -> _SubtreeMaker:
    """Turn the betting tree below ``node`` into a function that writes it out for a deal.

    The betting tree is read once here (payoffs, histories); the function returned only
    makes the :class:`Decision` nodes of each deal, so the tree of ``N (N-1)`` deals costs
    little more than its nodes.  ``leaves`` shares one terminal per payoff.
    """

    def leaf(won: Fraction) -> Terminal:
        if won not in leaves:
            leaves[won] = Terminal((won, -won))
        return leaves[won]

    if isinstance(node, Fold):
        amount = Fraction(node.amount)
        folded = leaf(-amount if node.loser == 0 else amount)
        return lambda names, first_wins: folded
    if isinstance(node, Showdown):
        stake = Fraction(node.stake)
        won, lost = leaf(stake), leaf(-stake)
        return lambda names, first_wins: won if first_wins else lost
    player, actions = node.player, node.actions
    makers = [
        _subtree_maker(child, history + action, leaves)
        for action, child in zip(actions, node.children, strict=True)
    ]

    def decision(names: tuple[str, str], first_wins: bool) -> Node:
        children = tuple([make(names, first_wins) for make in makers])
        return Decision(player, names[player] + history, actions, children)

    return decision
