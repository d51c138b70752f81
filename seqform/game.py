"""Two-player zero-sum extensive-form games as explicit trees.

A game is a rooted tree of three kinds of node:

* :class:`Chance` — nature picks an outcome with an exact rational probability;
* :class:`Decision` — a player (0 or 1) picks an action at an information set;
* :class:`Terminal` — the game ends with exact payoffs ``(u0, u1)``, ``u0 + u1 = 0``.

Information sets are named by strings unique across the whole game (Kuhn's ``"K"``,
``"Qb"``, ``"Jpb"``); all nodes sharing a name form one information set.  The class
:class:`Game` validates the tree when it is built, so every ``Game`` that exists is a
two-player zero-sum game with perfect recall whose chance probabilities sum to one
(the hypotheses of the sequence form, Koller, Megiddo and von Stengel 1996, §2).

Errors are :class:`InvalidGameError` (a ``ValueError``) naming the node by its history —
the outcomes and actions on the path from the root, e.g. ``"JQ p b"`` — or the
information set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Rational

__all__ = [
    "Chance",
    "Decision",
    "Game",
    "InvalidGameError",
    "Node",
    "Terminal",
    "history_text",
    "walk",
]


class InvalidGameError(ValueError):
    """The game is not a two-player zero-sum game with perfect recall."""


@dataclass(frozen=True, slots=True)
class Terminal:
    """A leaf: the game ends and each player receives an exact payoff."""

    payoffs: tuple[Fraction, ...]  # one per player; valid games have two summing to 0
    label: str = ""


@dataclass(frozen=True, slots=True)
class Chance:
    """Nature draws ``outcomes[i]`` with probability ``probabilities[i]`` (exact)."""

    outcomes: tuple[str, ...]
    probabilities: tuple[Fraction, ...]
    children: tuple[Node, ...]
    label: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    """Player ``player`` (0 or 1) chooses one of ``actions`` at information set ``infoset``."""

    player: int
    infoset: str
    actions: tuple[str, ...]
    children: tuple[Node, ...]
    label: str = ""


Node = Terminal | Chance | Decision


def _no_words(infoset: str, action: str) -> str:
    return action


@dataclass(frozen=True)
class Game:
    """A validated two-player zero-sum extensive-form game with perfect recall.

    Parameters
    ----------
    name
        Display name, e.g. ``"kuhn"``.
    root
        The root node of the tree.
    player_names
        Display names of players 0 and 1.
    describe_action
        ``describe_action(infoset, action)`` gives the action in words for displays (Kuhn:
        ``("Jpb", "b") -> "call"``); the default returns the action label unchanged.
    description
        One line on where the game comes from.

    Raises
    ------
    InvalidGameError
        If the tree is not a two-player zero-sum game with perfect recall, if chance
        probabilities do not sum to exactly one, or if an information set mixes players or
        action lists.  The message names the node (by its history) or the information set.
    """

    name: str
    root: Node
    player_names: tuple[str, str] = ("Player 1", "Player 2")
    describe_action: Callable[[str, str], str] = field(default=_no_words, compare=False)
    description: str = ""

    def __post_init__(self) -> None:
        validate(self.root)


def history_text(history: tuple[str, ...]) -> str:
    """Name a node by its history: ``("JQ", "p", "b") -> "JQ p b"``; the root is ``"root"``."""
    return " ".join(history) if history else "root"


def walk(root: Node) -> Iterator[tuple[Node, tuple[str, ...]]]:
    """Yield every node with its history, depth first, children in order (no recursion)."""
    stack: list[tuple[Node, tuple[str, ...]]] = [(root, ())]
    while stack:
        node, history = stack.pop()
        yield node, history
        if isinstance(node, Terminal):
            continue
        labels = node.outcomes if isinstance(node, Chance) else node.actions
        for label, child in zip(reversed(labels), reversed(node.children), strict=True):
            stack.append((child, (*history, label)))


@dataclass(frozen=True, slots=True)
class _InfosetSeen:
    player: int
    actions: tuple[str, ...]
    own_sequence: tuple[tuple[str, str], ...]
    history: tuple[str, ...]


def validate(root: Node) -> None:
    """Check the hypotheses of the sequence form on a tree; raise :class:`InvalidGameError`.

    Perfect recall is checked as in Kuhn (1953): every node of an information set is
    reached by the same sequence of the owner's own (information set, action) pairs.
    """
    seen: dict[str, _InfosetSeen] = {}
    # Each stack entry carries the own sequence of both players, as tuples of pairs.
    stack: list[tuple[Node, tuple[str, ...], tuple[tuple[tuple[str, str], ...], ...]]] = [
        (root, (), ((), ()))
    ]
    while stack:
        node, history, own = stack.pop()
        where = history_text(history)
        if isinstance(node, Terminal):
            _check_terminal(node, where)
            continue
        if isinstance(node, Chance):
            _check_chance(node, where)
            for outcome, child in zip(
                reversed(node.outcomes), reversed(node.children), strict=True
            ):
                stack.append((child, (*history, outcome), own))
            continue
        if not isinstance(node, Decision):
            raise InvalidGameError(f"node {where!r} is a {type(node).__name__}, not a game node")
        _check_decision(node, where)
        sequence = own[node.player]
        previous = seen.get(node.infoset)
        if previous is None:
            seen[node.infoset] = _InfosetSeen(node.player, node.actions, sequence, history)
        else:
            _check_same_infoset(node, previous, sequence, where)
        # Children pushed last-first so that nodes are met in depth-first order.
        for action, child in zip(reversed(node.actions), reversed(node.children), strict=True):
            extended = (*sequence, (node.infoset, action))
            child_own = (extended, own[1]) if node.player == 0 else (own[0], extended)
            stack.append((child, (*history, action), child_own))


def _check_terminal(node: Terminal, where: str) -> None:
    if len(node.payoffs) != 2:
        raise InvalidGameError(
            f"terminal node {where!r} has payoffs for {len(node.payoffs)} players; "
            "seqform solves two-player games only"
        )
    for payoff in node.payoffs:
        if not isinstance(payoff, Rational):
            raise InvalidGameError(
                f"terminal node {where!r} has payoff {payoff!r}; payoffs must be exact "
                "(int or fractions.Fraction)"
            )
    if node.payoffs[0] + node.payoffs[1] != 0:
        raise InvalidGameError(
            f"not zero-sum: terminal node {where!r} has payoffs "
            f"({node.payoffs[0]}, {node.payoffs[1]}), which sum to "
            f"{node.payoffs[0] + node.payoffs[1]}"
        )


def _check_chance(node: Chance, where: str) -> None:
    if not node.children:
        raise InvalidGameError(f"chance node {where!r} has no outcomes")
    if not len(node.outcomes) == len(node.probabilities) == len(node.children):
        raise InvalidGameError(
            f"chance node {where!r} has {len(node.outcomes)} outcomes, "
            f"{len(node.probabilities)} probabilities and {len(node.children)} children"
        )
    if len(set(node.outcomes)) != len(node.outcomes):
        raise InvalidGameError(f"chance node {where!r} repeats an outcome: {node.outcomes}")
    for outcome, probability in zip(node.outcomes, node.probabilities, strict=True):
        if not isinstance(probability, Rational):
            raise InvalidGameError(
                f"chance node {where!r}: probability {probability!r} of outcome {outcome!r} "
                "is not exact (use fractions.Fraction)"
            )
        if probability < 0:
            raise InvalidGameError(
                f"chance node {where!r}: outcome {outcome!r} has negative probability "
                f"{probability}"
            )
    total = sum(node.probabilities, Fraction(0))
    if total != 1:
        raise InvalidGameError(
            f"chance node {where!r}: probabilities sum to {total}, not 1"
        )


def _check_decision(node: Decision, where: str) -> None:
    if node.player not in (0, 1):
        raise InvalidGameError(
            f"decision node {where!r} belongs to player {node.player + 1}; "
            "seqform solves two-player games only (players 0 and 1)"
        )
    if not node.actions:
        raise InvalidGameError(f"decision node {where!r} (infoset {node.infoset!r}) has no actions")
    if len(node.actions) != len(node.children):
        raise InvalidGameError(
            f"decision node {where!r} (infoset {node.infoset!r}) has {len(node.actions)} "
            f"actions but {len(node.children)} children"
        )
    if len(set(node.actions)) != len(node.actions):
        raise InvalidGameError(
            f"information set {node.infoset!r} repeats an action: {node.actions}"
        )


def _check_same_infoset(
    node: Decision,
    previous: _InfosetSeen,
    sequence: tuple[tuple[str, str], ...],
    where: str,
) -> None:
    name = node.infoset
    first = history_text(previous.history)
    if previous.player != node.player:
        raise InvalidGameError(
            f"information set {name!r} has nodes of player {previous.player + 1} "
            f"(at {first!r}) and of player {node.player + 1} (at {where!r})"
        )
    if previous.actions != node.actions:
        raise InvalidGameError(
            f"information set {name!r} offers actions {previous.actions} at {first!r} "
            f"but {node.actions} at {where!r}"
        )
    if previous.own_sequence != sequence:
        raise InvalidGameError(
            f"imperfect recall: player {node.player + 1} reaches information set {name!r} "
            f"after different own sequences ({_sequence_text(previous.own_sequence)} at "
            f"{first!r} and {_sequence_text(sequence)} at {where!r})"
        )


def _sequence_text(sequence: tuple[tuple[str, str], ...]) -> str:
    if not sequence:
        return "the empty sequence"
    return " ".join(f"{infoset}:{action}" for infoset, action in sequence)
