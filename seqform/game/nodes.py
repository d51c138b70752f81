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

Errors are :class:`~seqform.game.errors.InvalidGameError` (a ``ValueError``) naming the
node by its history — the outcomes and actions on the path from the root, e.g.
``"JQ p b"`` — or the information set.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "Chance",
    "Decision",
    "Node",
    "Terminal",
    "history_text",
    "walk",
]


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
