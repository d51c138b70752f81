"""The gadget games of subgame re-solving, written as game trees.

Player ``P`` re-solves subgame ``S`` against the opponent ``O``'s counterfactual best-response
values ``T_J`` at ``O``'s root information sets ``J`` (:mod:`seqform.resolving.subgames`),
with the blueprint's weights ``w(r) = chance(r) · reach_P(r)`` per root ``r`` (``W_J`` their
sum over ``J``, ``W`` over ``S``).  Each gadget is a two-player zero-sum game tree whose
subtrees are ``S``'s own (the same information-set names, so ``P``'s answer carries over by
name), solved by the sequence-form LP of the tree route and certified by best response like
every answer:

* ``measure``: chance picks a root with probability ``w(r)/W``; ``O`` says "enter" at ``J``
  (one action); then the subgame.  ``O``'s best-response value at ``J`` times ``W`` is
  ``O``'s counterfactual best-response value ``cbv(J)`` against ``P``'s strategy in ``S``.
* ``unsafe``: chance picks a root with probability ∝ ``chance(r) · reach_0(r) · reach_1(r)``
  (both blueprint ranges), then the subgame: the subgame alone (Ganzfried and Sandholm 2015's
  endgame solving).
* ``resolve`` (Burch, Johanson and Bowling, AAAI 2014): as ``measure``, but ``O`` may "take"
  ``T_J`` instead of entering (paid ``T_J / W_J`` at each root of ``J``), so the game's
  value to ``O`` is ``(1/W) Σ_J max(T_J, cbv(J))``; the blueprint attains ``Σ_J T_J``, so
  at the optimum every ``cbv(J) <= T_J``.
* ``maxmargin`` (Moravčík, Schmid, Ha, Hladík and Gaukrodger, AAAI 2016): ``O`` first picks
  ``J``, chance a root of ``J`` with probability ``w(r)/W_J``, and every payoff to ``O`` is
  lowered by ``T_J / W_J``: the value to ``O`` is ``max_J (cbv(J) − T_J) / W_J``, minus the
  smallest margin per unit of weight, which ``P`` maximises (the LP has one more variable,
  the value).
* ``reach`` (Brown and Sandholm, NeurIPS 2017, Reach-Maxmargin): ``maxmargin`` with
  ``T_J + g_J``, where the gift ``g_J`` is what ``O`` gave up earlier on its path to ``J``
  against ``P``'s blueprint (:func:`seqform.resolving.resolve.gifts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal
from seqform.resolving.subgames import ResolveError, Subgame, SubgameRoot

__all__ = [
    "RootInfoset",
    "gadget_game",
    "measure_game",
    "root_infosets",
    "unsafe_game",
]

ENTER = "enter"
TAKE = "take"


@dataclass(frozen=True, eq=False)
class RootInfoset:
    """A root information set ``J`` of the opponent: the roots where its last sequence is
    ``sequence``, their weight ``W_J`` (exact) and the gadget's name for it, ``key``."""

    key: str
    sequence: int
    roots: tuple[SubgameRoot, ...]
    weight: Fraction


def _exact(number: Any) -> Fraction:
    return Fraction(number)


def root_infosets(game: Game, subgame: Subgame, player: int) -> tuple[RootInfoset, ...]:
    """The opponent's root information sets of positive weight when ``player`` re-solves.

    Raises
    ------
    ResolveError
        If the opponent has not acted before the subgame (it then knows nothing of its own
        to tell its root information sets apart by).
    """
    opponent = 1 - player
    table = game.flat.tables[opponent]
    grouped: dict[int, list[SubgameRoot]] = {}
    for root in subgame.roots:
        if root.last[opponent] == 0:
            raise ResolveError(
                f"subgame {subgame.name!r}: player {opponent + 1} has not acted before it, so "
                "its information at the subgame's root is unknown to the gadget"
            )
        if _exact(root.chance) * _exact(root.reach[player]) > 0:
            grouped.setdefault(root.last[opponent], []).append(root)
    return tuple(
        RootInfoset(
            key=f"[{table.label(sequence)} | {subgame.name}]",
            sequence=sequence,
            roots=tuple(roots),
            weight=sum((_exact(r.chance) * _exact(r.reach[player]) for r in roots), Fraction(0)),
        )
        for sequence, roots in grouped.items()
    )


def _payoffs(player: int, value: Fraction) -> tuple[Fraction, Fraction]:
    """Payoffs giving ``value`` to ``player`` (zero sum)."""
    return (value, -value) if player == 0 else (-value, value)


def _chance(label: str, weighted: Sequence[tuple[str, Fraction, Node]]) -> Chance:
    total = sum((weight for _, weight, _ in weighted), Fraction(0))
    return Chance(
        outcomes=tuple(outcome for outcome, _, _ in weighted),
        probabilities=tuple(weight / total for _, weight, _ in weighted),
        children=tuple(node for _, _, node in weighted),
        label=label,
    )


def _outcome(root: SubgameRoot) -> str:
    return " ".join(root.history) or "root"


def _entered(
    game: Game,
    subgame: Subgame,
    player: int,
    infosets: Sequence[RootInfoset],
    takes: Mapping[str, Fraction] | None,
) -> Game:
    """``measure`` (no ``takes``) or ``resolve`` (module docstring)."""
    opponent = 1 - player
    weighted = []
    for j in infosets:
        for root in j.roots:
            weight = _exact(root.chance) * _exact(root.reach[player])
            if takes is not None:
                alternative = Terminal(_payoffs(opponent, takes[j.key] / j.weight))
                node: Node = Decision(opponent, j.key, (ENTER, TAKE), (root.node, alternative))
            else:
                node = Decision(opponent, j.key, (ENTER,), (root.node,))
            weighted.append((_outcome(root), weight, node))
    kind = "measure" if takes is None else "resolve"
    return Game(
        name=f"{game.name}: {kind} gadget of {subgame.name!r}", root=_chance("root", weighted)
    )


def measure_game(
    game: Game, subgame: Subgame, player: int, infosets: Sequence[RootInfoset]
) -> Game:
    """The ``measure`` game of the module docstring."""
    return _entered(game, subgame, player, infosets, None)


def _shifted(node: Node, shift: tuple[Fraction, Fraction], memo: dict[int, Node]) -> Node:
    """``node``'s subtree with ``shift`` added to every terminal's payoffs."""
    done = memo.get(id(node))
    if done is not None:
        return done
    if isinstance(node, Terminal):
        copy: Node = Terminal(
            (Fraction(node.payoffs[0]) + shift[0], Fraction(node.payoffs[1]) + shift[1]),
            node.label,
        )
    else:
        children = tuple(_shifted(child, shift, memo) for child in node.children)
        if isinstance(node, Chance):
            copy = Chance(node.outcomes, node.probabilities, children, node.label)
        else:
            copy = Decision(node.player, node.infoset, node.actions, children, node.label)
    memo[id(node)] = copy
    return copy


def gadget_game(
    game: Game,
    subgame: Subgame,
    player: int,
    gadget: str,
    infosets: Sequence[RootInfoset],
    alternatives: Mapping[str, Fraction],
) -> Game:
    """The ``resolve``, ``maxmargin`` or ``reach`` gadget game (module docstring) for
    ``player`` re-solving ``subgame``; ``alternatives[J.key]`` is ``T_J`` (plus the gift
    ``g_J`` for ``reach``), in the full game's counterfactual units."""
    opponent = 1 - player
    if gadget == "resolve":
        return _entered(game, subgame, player, infosets, alternatives)
    branches = []
    for j in infosets:
        offset = _payoffs(opponent, -alternatives[j.key] / j.weight)
        memo: dict[int, Node] = {}
        weighted = [
            (
                _outcome(root),
                _exact(root.chance) * _exact(root.reach[player]),
                _shifted(root.node, offset, memo),
            )
            for root in j.roots
        ]
        branches.append(_chance(j.key, weighted))
    root = Decision(
        opponent, f"[choose | {subgame.name}]", tuple(j.key for j in infosets), tuple(branches)
    )
    return Game(name=f"{game.name}: {gadget} gadget of {subgame.name!r}", root=root)


def unsafe_game(game: Game, subgame: Subgame) -> Game | None:
    """The subgame alone, its roots weighted by chance and both blueprint reaches; None when
    the blueprint never reaches it."""
    weighted = [
        (
            _outcome(root),
            _exact(root.chance) * _exact(root.reach[0]) * _exact(root.reach[1]),
            root.node,
        )
        for root in subgame.roots
    ]
    weighted = [item for item in weighted if item[1] > 0]
    if not weighted:
        return None
    return Game(name=f"{game.name}: subgame {subgame.name!r}", root=_chance("root", weighted))
