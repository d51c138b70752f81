"""Action translation: a blueprint of few bet sizes played in a game of many.

A blueprint solved on an abstract game (:mod:`seqform.resolving.sized`: the same game with
fewer bet sizes) meets a bet ``x`` it does not have.  *Action translation* maps ``x`` to the
abstract sizes ``A < x < B`` next to it: to ``A`` with probability ``f(x)``, to ``B``
otherwise, and plays on as the blueprint does after the size it mapped to.  Sizes are
fractions of the pot (Ganzfried and Sandholm, IJCAI 2013, whose mappings these are):

* ``pseudo_harmonic``: ``f(x) = (B − x)(1 + A) / ((B − A)(1 + x))``, their randomized
  pseudo-harmonic mapping (derived from the equilibrium of a toy game in which a bet ``x``
  must be answered as the mix of ``A`` and ``B`` that leaves the bettor indifferent);
* ``deterministic``: ``A`` when the pseudo-harmonic ``f(x) >= 1/2``, else ``B`` (their
  deterministic variant);
* ``arithmetic``: ``f(x) = (B − x) / (B − A)``, the linear baseline they compare with.

A bet below the smallest abstract size maps to it, a bet above the largest to the largest
(the all-in of a spot is always one of the sizes); an action without a size (fold, check,
call) maps to the action of that name.  A raise where the mapped abstract decision has none
(a raise of a bet the abstraction maps to its all-in) cannot be translated: below it the
translating player plays uniformly, and :class:`Translated` counts those decisions.  The
translating player's own actions are the blueprint's: an abstract bet is played as the full
game's bet of the nearest size.

The translated strategy is a strategy of the full game.  The mapping's coin is the
translating player's own and private, so by Kuhn's theorem its mixed play is the behavioural
strategy whose realization plan is the mix, over the coins, of the blueprint's plans along
the mapped paths: at an information set of player ``p``, each mapped abstract information
set ``I'`` weighs ``coin(I') · x_p(I')`` (the coins' probability times ``p``'s own
blueprint reach on the mapped path), and ``p`` plays the weighted mix of the blueprint at
the ``I'``.  Where ``p``'s own play never gets there (all weights zero) the coins alone weigh.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_mapping
from seqform.game.public.tree import PublicChance, PublicDecision, PublicLeaf, PublicNode
from seqform.resolving.sized import SizedGame
from seqform.resolving.subgames import ResolveError

__all__ = [
    "MAPPINGS",
    "Translated",
    "map_size",
    "pseudo_harmonic",
    "same_hands",
    "translate_strategies",
]

MAPPINGS = ("pseudo_harmonic", "deterministic", "arithmetic")
"""The action-translation mappings (module docstring)."""

Mapped = dict[str, dict[str, float]]


def pseudo_harmonic(low: Fraction, high: Fraction, size: Fraction) -> Fraction:
    """The probability ``f(x)`` that the pseudo-harmonic mapping (Ganzfried and Sandholm,
    IJCAI 2013) maps a bet of ``size`` to ``low`` rather than ``high`` (pot fractions,
    ``low <= size <= high``): ``(B − x)(1 + A) / ((B − A)(1 + x))``.

    Raises
    ------
    ResolveError
        Unless ``0 <= low <= size <= high`` and ``low < high``.
    """
    low, high, size = Fraction(low), Fraction(high), Fraction(size)
    if not 0 <= low <= size <= high or low == high:
        raise ResolveError(
            f"pseudo_harmonic: need 0 <= A <= x <= B and A < B, got {low, size, high}"
        )
    return (high - size) * (1 + low) / ((high - low) * (1 + size))


def map_size(
    sizes: Sequence[Fraction], size: Fraction, mapping: str = "pseudo_harmonic"
) -> tuple[tuple[int, Fraction], ...]:
    """Where ``mapping`` sends a bet of ``size`` among the abstract ``sizes`` (pot
    fractions): ``(index into sizes, probability)`` pairs, the smaller size first.

    Raises
    ------
    ResolveError
        For an unknown mapping or no sizes.
    """
    if mapping not in MAPPINGS:
        raise ResolveError(f"mapping: {mapping!r} is not one of {', '.join(MAPPINGS)}")
    if not sizes:
        raise ResolveError("map_size: the abstract decision has no bet to map to")
    order = sorted(range(len(sizes)), key=lambda i: sizes[i])
    for i in order:
        if sizes[i] == size:
            return ((i, Fraction(1)),)
    if size < sizes[order[0]]:
        return ((order[0], Fraction(1)),)
    if size > sizes[order[-1]]:
        return ((order[-1], Fraction(1)),)
    above = next(position for position, i in enumerate(order) if sizes[i] > size)
    low, high = order[above - 1], order[above]
    a, b = sizes[low], sizes[high]
    if mapping == "arithmetic":
        to_low = (b - size) / (b - a)
    else:
        to_low = pseudo_harmonic(a, b, size)
        if mapping == "deterministic":
            to_low = Fraction(1) if to_low >= Fraction(1, 2) else Fraction(0)
    pairs = ((low, to_low), (high, 1 - to_low))
    return tuple(pair for pair in pairs if pair[1] > 0)


@dataclass
class _Entry:
    """One abstract node a full node is mapped to: ``coin``, the coins' probability of that
    mapping, and ``weight``, per hand of the translating player, the coins' probability
    times the player's own blueprint reach along the mapped path."""

    node: PublicNode
    coin: float
    weight: np.ndarray


def _translations(
    full: SizedGame,
    abstract: SizedGame,
    node: PublicDecision,
    target: PublicDecision,
    mapping: str,
) -> list[list[tuple[int, float]]]:
    """For each action of ``node``: the actions of ``target`` it maps to, with probability."""
    sizes = full.sizes(node)
    theirs = abstract.sizes(target)
    bets = [i for i, size in enumerate(theirs) if size is not None]
    found = []
    for action, size in zip(node.actions, sizes, strict=True):
        if size is None:
            if action not in target.actions:
                raise ResolveError(
                    f"{full.name}: action {action!r} after {node.history!r} has no counterpart "
                    f"after {target.history!r} in {abstract.name}"
                )
            found.append([(target.actions.index(action), 1.0)])
        elif not bets:  # a raise where the abstract game has none (over its all-in)
            found.append([])
        else:
            mapped = map_size([theirs[i] for i in bets], size, mapping)  # type: ignore[misc]
            found.append([(bets[i], float(p)) for i, p in mapped])
    return found


def _played(
    full: SizedGame, abstract: SizedGame, node: PublicDecision, target: PublicDecision
) -> list[int]:
    """For each action of ``target`` (the blueprint's), the action of ``node`` played for
    it: the one of that name, or for a bet the one of the nearest size."""
    sizes = full.sizes(node)
    theirs = abstract.sizes(target)
    played = []
    for action, size in zip(target.actions, theirs, strict=True):
        if size is None:
            if action not in node.actions:
                raise ResolveError(
                    f"{abstract.name}: action {action!r} after {target.history!r} has no "
                    f"counterpart after {node.history!r} in {full.name}"
                )
            played.append(node.actions.index(action))
        else:
            bets = [i for i, s in enumerate(sizes) if s is not None]
            played.append(min(bets, key=lambda i: abs(sizes[i] - size)))  # type: ignore[operator]
    return played


class _Walk:
    """The full public tree walked with the abstract nodes each of its nodes maps to."""

    def __init__(
        self,
        full: SizedGame,
        abstract: SizedGame,
        blueprint: Mapping[str, Mapping[str, float]],
        player: int,
        mapping: str,
    ) -> None:
        self.full, self.abstract, self.blueprint = full, abstract, blueprint
        self.player, self.mapping = player, mapping
        self.labels = full.structured.hands[player].labels
        self.strategy: Mapped = {}
        self.untranslated = 0

    def _blueprint(self, target: PublicDecision) -> np.ndarray:
        """The blueprint at ``target`` for each hand of the player: (hands, actions)."""
        table = np.zeros((len(self.labels), len(target.actions)))
        for hand, label in enumerate(self.labels):
            given = self.blueprint.get(label + target.history)
            if given is None:  # a hand the game never deals there: any strategy
                table[hand] = 1.0 / len(target.actions)
            else:
                table[hand] = [float(given.get(action, 0.0)) for action in target.actions]
        return table

    def walk(self, node: PublicNode, entries: list[_Entry]) -> None:
        if isinstance(node, PublicLeaf):
            return
        if not entries:
            self._unmapped(node)
            return
        if isinstance(node, PublicChance):
            for position, child in enumerate(node.children):
                outcome = node.outcomes[position]
                below = []
                for entry in entries:
                    mapped = entry.node
                    assert isinstance(mapped, PublicChance)
                    below.append(
                        _Entry(
                            mapped.children[mapped.outcomes.index(outcome)],
                            entry.coin,
                            entry.weight,
                        )
                    )
                self.walk(child, below)
            return
        assert isinstance(node, PublicDecision)
        for entry in entries:
            if not isinstance(entry.node, PublicDecision) or entry.node.player != node.player:
                raise ResolveError(
                    f"{self.full.name}: {node.history!r} maps to a node of {self.abstract.name} "
                    "where another player acts"
                )
        if node.player == self.player:
            self._own(node, entries)
        else:
            self._theirs(node, entries)

    def _unmapped(self, root: PublicNode) -> None:
        """Uniform play below a bet no abstract decision can map (module docstring)."""
        stack = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, PublicDecision) and node.player == self.player:
                self.untranslated += 1
                uniform = 1 / len(node.actions)
                for label in self.labels:
                    self.strategy[label + node.history] = dict.fromkeys(node.actions, uniform)
            if not isinstance(node, PublicLeaf):
                stack.extend(node.children)

    def _theirs(self, node: PublicDecision, entries: list[_Entry]) -> None:
        children: list[list[_Entry]] = [[] for _ in node.actions]
        for entry in entries:
            target = entry.node
            assert isinstance(target, PublicDecision)
            for action, mapped in enumerate(
                _translations(self.full, self.abstract, node, target, self.mapping)
            ):
                for index, probability in mapped:
                    children[action].append(
                        _Entry(
                            target.children[index],
                            entry.coin * probability,
                            entry.weight * probability,
                        )
                    )
        for child, below in zip(node.children, children, strict=True):
            self.walk(child, _merged(below))

    def _own(self, node: PublicDecision, entries: list[_Entry]) -> None:
        """Length: the mix of the mapped blueprints, and the children's entries."""
        hands = len(self.labels)
        numerator = np.zeros((hands, len(node.actions)))
        prior = np.zeros((hands, len(node.actions)))
        children: list[list[_Entry]] = [[] for _ in node.actions]
        for entry in entries:
            target = entry.node
            assert isinstance(target, PublicDecision)
            table = self._blueprint(target)
            played = _played(self.full, self.abstract, node, target)
            for index, action in enumerate(played):
                numerator[:, action] += entry.weight * table[:, index]
                prior[:, action] += entry.coin * table[:, index]
                children[action].append(
                    _Entry(target.children[index], entry.coin, entry.weight * table[:, index])
                )
        total = numerator.sum(axis=1)
        for hand, label in enumerate(self.labels):
            row = numerator[hand] if total[hand] > 0 else prior[hand]
            norm = row.sum()
            row = row / norm if norm > 0 else np.full(len(node.actions), 1 / len(node.actions))
            self.strategy[label + node.history] = {
                action: float(p) for action, p in zip(node.actions, row, strict=True)
            }
        for action, (child, below) in enumerate(zip(node.children, children, strict=True)):
            if not below:  # the player's own off-tree action: mapped as the opponent would
                for entry in entries:
                    target = entry.node
                    assert isinstance(target, PublicDecision)
                    mapped = _translations(self.full, self.abstract, node, target, self.mapping)
                    for index, probability in mapped[action]:
                        below.append(
                            _Entry(
                                target.children[index],
                                entry.coin * probability,
                                entry.weight * probability,
                            )
                        )
            self.walk(child, _merged(below))


def _merged(entries: list[_Entry]) -> list[_Entry]:
    """Entries of one abstract node added up: their coins, and their weights per hand."""
    by_node: dict[int, _Entry] = {}
    for entry in entries:
        seen = by_node.get(id(entry.node))
        if seen is None:
            by_node[id(entry.node)] = _Entry(entry.node, entry.coin, entry.weight.copy())
        else:
            seen.coin += entry.coin
            seen.weight += entry.weight
    return list(by_node.values())


@dataclass(frozen=True)
class Translated:
    """A blueprint translated into the full game.

    strategies : both players' strategies of the full game (its explicit tree's tables)
    mapping : the mapping used (:data:`MAPPINGS`)
    off_tree : the full game's public decisions whose history the abstract game lacks
    untranslated : per player, its public decisions played uniformly (module docstring)
    """

    mapping: str
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    off_tree: int
    untranslated: tuple[int, int]


def same_hands(full: SizedGame, abstract: SizedGame) -> None:
    """Raise :class:`ResolveError` unless both games deal the same hands."""
    for player in (0, 1):
        if full.structured.hands[player].labels != abstract.structured.hands[player].labels:
            raise ResolveError(
                f"{full.name} and {abstract.name}: player {player + 1}'s hands differ; the "
                "abstract game must differ from the full game in its bet sizes only"
            )


def translate_strategies(
    full: SizedGame,
    abstract: SizedGame,
    blueprint: Sequence[Mapping[str, Mapping[str, Any]]],
    mapping: str = "pseudo_harmonic",
) -> Translated:
    """The blueprint (both players' ``{infoset: {action: probability}}`` of ``abstract``)
    translated into ``full`` by ``mapping`` (module docstring).

    Raises
    ------
    ResolveError
        For an unknown mapping, games whose hands differ, or a full-game action the abstract
        game has no counterpart for.
    """
    if mapping not in MAPPINGS:
        raise ResolveError(f"mapping: {mapping!r} is not one of {', '.join(MAPPINGS)}")
    same_hands(full, abstract)
    mapped: list[Mapped] = []
    untranslated = []
    for player in (0, 1):
        walk = _Walk(full, abstract, blueprint[player], player, mapping)
        hands = len(full.structured.hands[player].labels)
        walk.walk(full.structured.root, [_Entry(abstract.structured.root, 1.0, np.ones(hands))])
        mapped.append(walk.strategy)
        untranslated.append(walk.untranslated)
    tables = full.game.flat.tables
    strategies = (
        behaviour_from_mapping(tables[0], mapped[0]),
        behaviour_from_mapping(tables[1], mapped[1]),
    )
    histories = _histories(abstract.structured.root)
    off_tree = sum(1 for history in _histories(full.structured.root) if history not in histories)
    return Translated(mapping, strategies, off_tree, (untranslated[0], untranslated[1]))


def _histories(root: PublicNode) -> set[str]:
    found: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, PublicDecision):
            found.add(node.history)
        if not isinstance(node, PublicLeaf):
            stack.extend(node.children)
    return found
