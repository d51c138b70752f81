"""The subgames that start at a round, and what a blueprint says about them.

A *round* starts at a chance node whose parent is a decision: in poker, a public card turned
after a betting round (round 1 is the deal and the betting before any such node).  The
subgame roots of round ``R`` are the chance nodes that start round ``R`` on their path.  Roots
are grouped into *subgames* as Burch, Johanson and Bowling (AAAI 2014) need them: two roots are
in one subgame when their subtrees share an information set (in Leduc: the same round-1
betting line, over all deals), so no information set crosses a subgame's border.  An
information set both inside a subgame and in the trunk above refuses the round.

For a blueprint profile the walk gives each root its chance probability and each player's
blueprint reach.  The opponent ``O`` of the player ``P`` who re-solves knows, at a root, its
own last sequence (its hand and its view of the betting): a *root information set* ``J`` of
``O`` is (subgame, ``O``'s last sequence).  Its counterfactual weight (Zinkevich et al. 2007)
is ``W_J = sum over roots r in J of chance(r) · reach_P(r)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = [
    "ResolveError",
    "Subgame",
    "SubgameRoot",
    "find_subgames",
    "subtree_infosets",
]


class ResolveError(ValueError):
    """A re-solve that cannot be made as asked (the round, the gadget, the blueprint)."""


@dataclass(frozen=True, eq=False)
class SubgameRoot:
    """One root of a subgame: the node it starts at, reached by ``history`` (the chance node
    starting the round; for :mod:`seqform.resolving.off_tree`, the node after an off-tree bet).

    chance : the product of chance probabilities on the path (exact)
    reach : per player, the blueprint's product of that player's action probabilities
    last : per player, the index of the player's last sequence on the path (0: none)
    """

    node: Node
    history: tuple[str, ...]
    chance: Fraction
    reach: tuple[Any, Any]
    last: tuple[int, int]


@dataclass(frozen=True, eq=False)
class Subgame:
    """Roots whose subtrees share information sets, and the information sets inside.

    name : the public path to it: what happened after the first decision (``"r c"``)
    infosets : per player, the names of its information sets inside the subgame
    """

    name: str
    roots: tuple[SubgameRoot, ...]
    infosets: tuple[frozenset[str], frozenset[str]]


def _children(node: Node) -> tuple[Node, ...]:
    return () if isinstance(node, Terminal) else node.children


def subtree_infosets(node: Node) -> tuple[set[str], set[str]]:
    """Each player's information-set names in the subtree below ``node``."""
    found: tuple[set[str], set[str]] = (set(), set())
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Decision):
            found[current.player].add(current.infoset)
        stack.extend(_children(current))
    return found


@dataclass
class _Walk:
    """The trunk walk's state (one per node on the stack)."""

    node: Node
    history: tuple[str, ...]
    chance: Fraction
    reach: tuple[Any, Any]
    last: tuple[int, int]
    rounds: int
    parent_decides: bool


def _roots(
    game: Game, profile: tuple[BehaviouralStrategy, BehaviouralStrategy], round_number: int
) -> Iterator[SubgameRoot | str]:
    """The roots of round ``round_number``, then the trunk's information-set names."""
    tables = game.flat.tables
    index = (tables[0].index_of_infoset(), tables[1].index_of_infoset())
    one = Fraction(1) if profile[0].exact and profile[1].exact else 1.0
    stack = [_Walk(game.root, (), Fraction(1), (one, one), (0, 0), 1, False)]
    while stack:
        at = stack.pop()
        node = at.node
        if isinstance(node, Chance):
            rounds = at.rounds + (1 if at.parent_decides else 0)
            if rounds == round_number:
                yield SubgameRoot(node, at.history, at.chance, at.reach, at.last)
                continue
            for outcome, probability, child in zip(
                node.outcomes, node.probabilities, node.children, strict=True
            ):
                stack.append(
                    _Walk(
                        child,
                        (*at.history, outcome),
                        at.chance * probability,
                        at.reach,
                        at.last,
                        rounds,
                        False,
                    )
                )
        elif isinstance(node, Decision):
            yield node.infoset
            player = node.player
            sequences = tables[player].sequences_of(index[player][node.infoset])
            for sequence, action, child in zip(sequences, node.actions, node.children, strict=True):
                reach = list(at.reach)
                reach[player] = reach[player] * profile[player].probabilities[sequence]
                last = list(at.last)
                last[player] = sequence
                stack.append(
                    _Walk(
                        child,
                        (*at.history, action),
                        at.chance,
                        (reach[0], reach[1]),
                        (last[0], last[1]),
                        at.rounds,
                        True,
                    )
                )


def _public_name(game: Game, history: tuple[str, ...]) -> str:
    """What happened after the first decision on ``history`` (the public part of a poker
    path: the bets and the cards turned since)."""
    node = game.root
    for position, step in enumerate(history):
        if isinstance(node, Decision):
            return " ".join(history[position:])
        assert not isinstance(node, Terminal)
        node = node.children[node.outcomes.index(step)]
    return " ".join(history)


def _groups(
    roots: list[SubgameRoot], trunk: set[str], round_number: int
) -> tuple[list[tuple[set[str], set[str]]], list[list[int]]]:
    """Each root's information sets, and the roots grouped by shared information sets."""
    inside = [subtree_infosets(root.node) for root in roots]
    parent = list(range(len(roots)))

    def find(item: int) -> int:
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    owner: dict[str, int] = {}
    for position, (first, second) in enumerate(inside):
        for name in first | second:
            if name in trunk:
                raise ResolveError(
                    f"round {round_number}: information set {name!r} is both in the trunk and "
                    "after the round starts, so the round does not cut the game into subgames"
                )
            seen = owner.setdefault(name, position)
            parent[find(position)] = find(seen)
    groups: dict[int, list[int]] = {}
    for position in range(len(roots)):
        groups.setdefault(find(position), []).append(position)
    return inside, list(groups.values())


def find_subgames(
    game: Game, profile: tuple[BehaviouralStrategy, BehaviouralStrategy], round_number: int
) -> tuple[Subgame, ...]:
    """The subgames of round ``round_number`` (module docstring), with the blueprint's reach.

    Raises
    ------
    ResolveError
        If the game has no such round, or an information set lies both in a subgame and in
        the trunk (the round does not cut the game into subgames).
    """
    roots: list[SubgameRoot] = []
    trunk: set[str] = set()
    for item in _roots(game, profile, round_number):
        if isinstance(item, str):
            trunk.add(item)
        else:
            roots.append(item)
    if round_number < 2 or not roots:
        raise ResolveError(
            f"round {round_number}: {game.name} has no round {round_number} to re-solve "
            "(rounds start at a chance node after a decision; round 1 is the trunk's)"
        )
    inside, groups = _groups(roots, trunk, round_number)
    subgames: list[Subgame] = []
    names: set[str] = set()
    for members in groups:
        name = _public_name(game, roots[members[0]].history)
        if name in names:
            name = f"{name} #{len(subgames) + 1}"
        names.add(name)
        subgames.append(
            Subgame(
                name=name,
                roots=tuple(roots[m] for m in members),
                infosets=(
                    frozenset().union(*(inside[m][0] for m in members)),
                    frozenset().union(*(inside[m][1] for m in members)),
                ),
            )
        )
    return tuple(subgames)
