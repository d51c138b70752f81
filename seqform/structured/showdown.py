"""One-card showdown poker: one private card each, then public betting.

Each player is dealt one card from a deck of ``N`` ranked cards ``0 < 1 < ... < N-1``;
every ordered pair of distinct cards ``(i, j)`` (player 0 holds ``i``) has probability
``1 / (N (N-1))``.  Then both players bet along a *public* betting tree, so player ``p``'s
information set is (own card, betting history) and its sequences are (own card, betting
sequence).  A betting path ends in a fold, where the folding player pays a fixed amount,
or a showdown, where the higher card wins a fixed stake.  Kuhn poker (Kuhn 1950) is the
three-card member of this family and N-card Kuhn the rest (:func:`kuhn_showdown`).

Why a family of its own
-----------------------
The game tree has ``N (N-1) |Z|`` leaves (``Z`` the betting tree's leaves), so the payoff
matrix ``A`` of the sequence form (KMvS 1996) has that many non-zeros, while each player
has only ``1 + N (S_p - 1)`` sequences (``S_p`` the player's betting sequences).  At
``N = 250 000`` Kuhn that is 10^6 sequences per player against 3 10^11 leaves.  But the
payoff of a leaf depends on the cards only through ``sign(i - j)`` (showdown) or not at
all (fold), so with ``T = sum_i v_i`` and the prefix sum ``P_j = sum_{i<j} v_i``

    sum_{i != j} v_i                 = T - v_j                          (fold)
    sum_{i != j} sign(i - j) v_i     = T - 2 P_j - v_j                  (showdown)

and the products ``A y`` and ``A.T x`` cost ``O(N)`` per betting leaf instead of
``O(N^2)``: the sorted-hand evaluation of Johanson, Waugh, Bowling and Zinkevich,
"Accelerating best response calculation in large extensive games" (IJCAI 2011, §4.2).
:mod:`seqform.structured.sparsified` uses the same identities to write the LP with ``O(N)``
non-zeros (Zhang and Sandholm, "Sparsified linear programming for zero-sum equilibrium finding",
ICML 2020).  This module holds the game, its numbering, the two products, behavioural
strategies and the best-response certificate; it never builds the tree
(:func:`showdown_game` does, for small ``N`` and for cross-checks).

Numbering
---------
Player ``p``'s betting sequences are numbered ``0 .. S_p - 1`` (0 the empty one) and its
betting decision nodes ``0 .. K_p - 1``, both in preorder.  In the game, the sequence
(card ``c``, betting sequence ``s >= 1``) has index ``1 + c (S_p - 1) + (s - 1)``; index 0
is the empty sequence.  A plan is one vector of that length; :func:`card_matrix` views it
as an ``(N, S_p)`` array whose column 0 repeats ``plan[0]``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations

import numpy as np

from seqform.certify import Certificate
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, InvalidGameError, Node, Terminal

__all__ = [
    "Bet",
    "BettingTable",
    "Fold",
    "Showdown",
    "ShowdownBehaviour",
    "ShowdownPoker",
    "behaviour_from_plan",
    "best_response_value",
    "card_matrix",
    "certify",
    "kuhn_showdown",
    "payoff_to_first",
    "payoff_to_second",
    "plan_from_behaviour",
    "showdown_game",
]


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


def _number_betting(root: Bet, name: str) -> BettingTable:
    """Number the betting tree (iteratively, in preorder), validating it on the way."""
    sequences: list[list[str]] = [[""], [""]]
    nodes: list[list[str]] = [[], []]
    parents: list[list[int]] = [[], []]
    node_sequences: list[list[np.ndarray]] = [[], []]
    node_actions: list[list[tuple[str, ...]]] = [[], []]
    leaves: list[tuple[int, int]] = []
    showdown: list[bool] = []
    payoff: list[Fraction] = []
    histories: list[str] = []
    # (node, history, last betting sequence of each player)
    stack: list[tuple[BettingNode, str, tuple[int, int]]] = [(root, "", (0, 0))]
    while stack:
        node, history, last = stack.pop()
        where = f"{name}: betting history {history or '(root)'!r}"
        if isinstance(node, Fold):
            if node.loser not in (0, 1):
                raise InvalidGameError(f"{where}: the folding player must be 0 or 1")
            amount = Fraction(node.amount)
            if amount <= 0:
                raise InvalidGameError(f"{where}: a fold must pay a positive amount")
            leaves.append(last)
            showdown.append(False)
            payoff.append(-amount if node.loser == 0 else amount)
            histories.append(history)
        elif isinstance(node, Showdown):
            stake = Fraction(node.stake)
            if stake <= 0:
                raise InvalidGameError(f"{where}: a showdown must have a positive stake")
            leaves.append(last)
            showdown.append(True)
            payoff.append(stake)
            histories.append(history)
        elif isinstance(node, Bet):
            player = node.player
            if player not in (0, 1):
                raise InvalidGameError(
                    f"{where}: player {player!r} bets, but the game has players 0 and 1"
                )
            if not node.actions or len(node.actions) != len(node.children):
                raise InvalidGameError(f"{where}: needs one child per action, and an action")
            if len(set(node.actions)) != len(node.actions):
                raise InvalidGameError(f"{where}: repeated action labels {node.actions}")
            first = len(sequences[player])
            sequences[player].extend(history + action for action in node.actions)
            nodes[player].append(history)
            parents[player].append(last[player])
            node_sequences[player].append(np.arange(first, first + len(node.actions)))
            node_actions[player].append(tuple(node.actions))
            for offset in reversed(range(len(node.actions))):
                child_last = (first + offset, last[1]) if player == 0 else (last[0], first + offset)
                stack.append((node.children[offset], history + node.actions[offset], child_last))
        else:
            raise InvalidGameError(f"{where}: {type(node).__name__} is not a betting node")
    return BettingTable(
        sequences=(tuple(sequences[0]), tuple(sequences[1])),
        nodes=(tuple(nodes[0]), tuple(nodes[1])),
        node_parent=(np.asarray(parents[0], dtype=np.int64), np.asarray(parents[1], np.int64)),
        node_sequences=(tuple(node_sequences[0]), tuple(node_sequences[1])),
        node_actions=(tuple(node_actions[0]), tuple(node_actions[1])),
        leaf_sequences=np.asarray(leaves, dtype=np.int64).reshape(-1, 2),
        leaf_showdown=np.asarray(showdown, dtype=bool),
        leaf_payoff=tuple(payoff),
        leaf_histories=tuple(histories),
    )


@dataclass(frozen=True, eq=False)
class ShowdownPoker:
    """A one-card showdown poker game (see the module docstring).

    name : how the CLI names it, e.g. ``"kuhn(cards=250000)"``
    cards : ``N >= 2``, the size of the deck
    betting : the root of the public betting tree
    card_names : a name per card, lowest first; ``None`` names them ``"1" .. "N"``
    describe_action : ``(infoset name, action) -> words``, for displays
    betting_table : the numbered betting tree, computed on construction
    """

    name: str
    cards: int
    betting: Bet
    description: str = ""
    card_names: tuple[str, ...] | None = None
    describe_action: Callable[[str, str], str] | None = None
    betting_table: BettingTable = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.cards, bool) or not isinstance(self.cards, int) or self.cards < 2:
            raise InvalidGameError(
                f"{self.name}: cards must be an integer >= 2, got {self.cards!r}"
            )
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


def card_matrix(poker: ShowdownPoker, player: int, vector: np.ndarray) -> np.ndarray:
    """View a vector on the player's game sequences as an ``(N, S_p)`` array.

    Column 0 repeats ``vector[0]`` (the empty sequence belongs to every card); column
    ``s >= 1`` holds the entries of the betting sequence ``s`` for each card.
    """
    width = poker.betting_table.num_sequences(player)
    matrix = np.empty((poker.cards, width), dtype=float)
    matrix[:, 0] = vector[0]
    matrix[:, 1:] = np.asarray(vector[1:], dtype=float).reshape(poker.cards, width - 1)
    return matrix


def _fold_sums(values: np.ndarray) -> np.ndarray:
    """``sum_{i != j} values_i`` for every ``j``."""
    return values.sum() - values


def _showdown_sums(values: np.ndarray) -> np.ndarray:
    """``sum_{i != j} sign(i - j) values_i = T - 2 P_j - values_j`` for every ``j``."""
    prefix = np.cumsum(values) - values  # P_j = sum_{i<j}
    return values.sum() - 2.0 * prefix - values


def _product(poker: ShowdownPoker, player: int, plan: np.ndarray) -> np.ndarray:
    """``A.T x`` (player = 1, plan = x) or ``A y`` (player = 0, plan = y), to player 0."""
    table = poker.betting_table
    n = poker.cards
    other = 1 - player
    given = card_matrix(poker, other, plan)
    result = np.zeros((n, table.num_sequences(player)))
    for leaf, (sequences, showdown) in enumerate(
        zip(table.leaf_sequences, table.leaf_showdown, strict=True)
    ):
        values = given[:, sequences[other]]
        payoff = float(table.leaf_payoff[leaf])
        if showdown:
            # A y sums over the opponent's card j: sign(i - j) is minus the sign seen from j.
            sums = _showdown_sums(values) if player == 1 else -_showdown_sums(values)
        else:
            sums = _fold_sums(values)
        result[:, sequences[player]] += payoff * sums
    result /= n * (n - 1)
    vector = np.empty(poker.num_sequences(player))
    vector[0] = result[:, 0].sum()
    vector[1:] = result[:, 1:].ravel()
    return vector


def payoff_to_second(poker: ShowdownPoker, x: np.ndarray) -> np.ndarray:
    """``A.T @ x``: player 0's expected payoff per sequence of player 1, in ``O(N |Z|)``.

    ``(A.T x)[(j, t)] = 1/(N(N-1)) sum_{leaves z with t} sum_{i != j} u_z(i, j) x[(i, s_z)]``
    evaluated by the fold and showdown identities of the module docstring.
    """
    return _product(poker, 1, np.asarray(x, dtype=float))


def payoff_to_first(poker: ShowdownPoker, y: np.ndarray) -> np.ndarray:
    """``A @ y``: player 0's expected payoff per sequence of player 0, in ``O(N |Z|)``."""
    return _product(poker, 0, np.asarray(y, dtype=float))


def best_response_value(poker: ShowdownPoker, player: int, payoff: np.ndarray) -> float:
    """The most ``player`` can get when its sequences pay ``payoff`` (to that player).

    Backward induction over the player's betting nodes, all cards at once: the value of a
    node is the best over its actions of the action's payoff plus the values of the
    player's next nodes below it (KMvS 1996, the inner LP solved on the treeplex).
    """
    table = poker.betting_table
    values = card_matrix(poker, player, payoff)
    total = float(payoff[0])
    values[:, 0] = 0.0
    for node in reversed(range(table.num_nodes(player))):
        best = values[:, table.node_sequences[player][node]].max(axis=1)
        parent = table.node_parent[player][node]
        if parent == 0:
            total += float(best.sum())
        else:
            values[:, parent] += best
    return total


@dataclass(frozen=True)
class ShowdownBehaviour:
    """Action probabilities of one player at every (card, betting node).

    probabilities : shape (N, S_p); ``[c, s]`` is the probability of the action of
        betting sequence ``s`` at its node, holding card ``c``; column 0 is 1
    unreached : shape (N, K_p); True where the player's own plan does not reach the node
        (there the behaviour is uniform, the rule of :mod:`seqform.forms.strategies`)
    """

    player: int
    probabilities: np.ndarray
    unreached: np.ndarray


def behaviour_from_plan(
    poker: ShowdownPoker, player: int, plan: np.ndarray, tol: float = 1e-12
) -> ShowdownBehaviour:
    """``b(a | c, h) = x[c, h a] / x[c, parent(h)]``, uniform where the plan does not reach.

    Negative entries (a float solver's round-off) count as 0.
    """
    table = poker.betting_table
    matrix = np.clip(card_matrix(poker, player, plan), 0.0, None)
    probabilities = np.ones_like(matrix)
    unreached = np.zeros((poker.cards, table.num_nodes(player)), dtype=bool)
    for node in range(table.num_nodes(player)):
        children = table.node_sequences[player][node]
        mass = matrix[:, children].sum(axis=1)
        reach = matrix[:, table.node_parent[player][node]]
        unreached[:, node] = reach <= tol
        uniform = mass <= tol
        with np.errstate(divide="ignore", invalid="ignore"):
            shares = matrix[:, children] / mass[:, None]
        shares[uniform] = 1.0 / len(children)
        probabilities[:, children] = shares
    return ShowdownBehaviour(player=player, probabilities=probabilities, unreached=unreached)


def plan_from_behaviour(poker: ShowdownPoker, behaviour: ShowdownBehaviour) -> np.ndarray:
    """The realization plan of a behavioural strategy: products along each sequence."""
    table = poker.betting_table
    player = behaviour.player
    matrix = np.ones_like(behaviour.probabilities)
    for node in range(table.num_nodes(player)):  # preorder: parents first
        children = table.node_sequences[player][node]
        parent = table.node_parent[player][node]
        matrix[:, children] = matrix[:, parent][:, None] * behaviour.probabilities[:, children]
    plan = np.empty(poker.num_sequences(player))
    plan[0] = 1.0
    plan[1:] = matrix[:, 1:].ravel()
    return plan


def certify(
    poker: ShowdownPoker, first: ShowdownBehaviour, second: ShowdownBehaviour
) -> Certificate:
    """Expected value, both best responses and NashConv of a profile, without the tree.

    The plans are rebuilt from the behaviour (so they are exactly consistent), player 0's
    payoff per sequence is ``A y`` and player 1's is ``-A.T x``; each best response is the
    backward induction of :func:`best_response_value`.  Nothing here reads the LP.
    """
    x = plan_from_behaviour(poker, first)
    y = plan_from_behaviour(poker, second)
    to_first = payoff_to_first(poker, y)
    value = float(x @ to_first)
    best_first = best_response_value(poker, 0, to_first)
    best_second = best_response_value(poker, 1, -payoff_to_second(poker, x))
    return Certificate.from_best_responses(value, best_first, best_second)


def kuhn_showdown(cards: int = 3) -> ShowdownPoker:
    """Kuhn poker with ``cards`` cards as a showdown game (the rules of
    :func:`seqform.game.builtin.kuhn.kuhn_poker`, with the same information-set names).

    Player 0 checks (``p``) or bets (``b``); after a check player 1 checks (showdown for
    1) or bets, and player 0 folds or calls (showdown for 2); after a bet player 1 folds
    or calls (showdown for 2).
    """
    from seqform.game.builtin.kuhn import CARDS, poker_words

    one, two = Fraction(1), Fraction(2)
    check_bet = Bet(0, ("p", "b"), (Fold(0, one), Showdown(two)))
    after_check = Bet(1, ("p", "b"), (Showdown(one), check_bet))
    after_bet = Bet(1, ("p", "b"), (Fold(1, one), Showdown(two)))
    name = "kuhn" if cards == 3 else f"kuhn(cards={cards})"
    return ShowdownPoker(
        name=name,
        cards=cards,
        betting=Bet(0, ("p", "b"), (after_check, after_bet)),
        description=f"Kuhn poker (Kuhn 1950) with {cards} cards",
        card_names=CARDS if cards == 3 else None,
        describe_action=poker_words,
    )


def showdown_game(poker: ShowdownPoker, max_nodes: int = 5_000_000) -> Game:
    """The explicit game tree, for small decks: chance deals, then the betting.

    Information sets are named by :meth:`ShowdownPoker.infoset_name`, so strategies carry
    over by name.  Raises ``ValueError`` when the tree would exceed ``max_nodes``.
    """
    if poker.tree_nodes > max_nodes:
        raise ValueError(
            f"{poker.name}: the game tree would have {poker.tree_nodes:,} nodes "
            f"(limit {max_nodes:,})"
        )
    n = poker.cards
    names = [poker.card_name(c) for c in range(n)]

    def subtree(node: BettingNode, history: str, cards: Sequence[int]) -> Node:
        if isinstance(node, Fold):
            won = -Fraction(node.amount) if node.loser == 0 else Fraction(node.amount)
            return Terminal((won, -won))
        if isinstance(node, Showdown):
            won = Fraction(node.stake) if cards[0] > cards[1] else -Fraction(node.stake)
            return Terminal((won, -won))
        return Decision(
            node.player,
            names[cards[node.player]] + history,
            node.actions,
            tuple(
                subtree(child, history + action, cards)
                for action, child in zip(node.actions, node.children, strict=True)
            ),
        )

    deals = list(permutations(range(n), 2))
    root = Chance(
        outcomes=tuple(f"{names[a]},{names[b]}" for a, b in deals),
        probabilities=(Fraction(1, len(deals)),) * len(deals),
        children=tuple(subtree(poker.betting, "", deal) for deal in deals),
        label="deal",
    )
    return Game(
        name=poker.name,
        root=root,
        describe_action=poker.describe_action,
        description=poker.description,
    )
