"""Off-tree actions: action translation against nested re-solving, measured in the full game.

A blueprint solved on an abstract game (few bet sizes, :mod:`seqform.resolving.sized`) plays
a full game (more sizes).  ``off_tree(full, abstract, blueprint, method=...)`` makes a
strategy profile of the full game and certifies it there by best response:

* ``translate``: the blueprint with every off-tree bet mapped to the abstract sizes next to
  it (:mod:`seqform.resolving.translation`; Ganzfried and Sandholm, IJCAI 2013).
* ``nested``: nested subgame solving (Brown and Sandholm, NeurIPS 2017, §7).  Each player
  ``P`` keeps the blueprint wherever the game stays in the abstraction; where the opponent
  ``O`` first bets a size the abstraction lacks, the subgame that starts there (over every
  deal, with every size of the full game below it) is re-solved by a safe gadget LP
  (:mod:`seqform.resolving.gadgets`: ``resolve`` or ``maxmargin``) with ``P``'s blueprint
  ranges.  ``O``'s root information sets are ``J = (I, x)``, its information set ``I`` and the
  off-tree bet ``x``.  The blueprint has no value for ``x``, so its alternative ``T_J`` is
  taken from the blueprint's counterfactual best-response values in the abstract game at the
  actions ``O`` could have taken instead: ``neighbours`` (default) the larger of
  ``CBV(I, A)`` and ``CBV(I, B)`` for the abstract sizes ``A < x < B`` next to ``x`` (the
  one nearest when ``x`` is outside them), ``best`` ``CBV(I)``, the best of every abstract
  action at ``I``.  With ``T_J`` so, the re-solved strategy gives ``O`` no more for ``x``
  than the blueprint concedes for the sizes it has.  Everything the re-solve does not reach
  (``P``'s own off-tree bets, which the blueprint never makes) is translated as above.

Reach-Maxmargin's gifts are not offered here: the gift of the off-tree bet itself would need
the blueprint's value for ``x``, which is what is estimated.  Exploitability is NashConv / 2
in chips, and per thousand of the game's unit (:class:`~seqform.resolving.sized.SizedGame`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.certify import Certificate, best_response, certify, leaf_payoffs
from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_from_mapping,
    plan_from_behaviour,
)
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node
from seqform.game.public.tree import PublicDecision, PublicLeaf, PublicNode
from seqform.resolving.gadgets import gadget_game, measure_game, root_infosets
from seqform.resolving.paths import Blueprint, blueprint_profile
from seqform.resolving.resolve import GadgetRun, counterfactual_values
from seqform.resolving.sized import SizedGame, load_sized_game
from seqform.resolving.subgames import ResolveError, Subgame, SubgameRoot, subtree_infosets
from seqform.resolving.translation import MAPPINGS, map_size, same_hands, translate_strategies
from seqform.routes.tree import solve_tree

__all__ = ["ALTERNATIVES", "METHODS", "NESTED_GADGETS", "OffTreeResult", "off_tree"]

METHODS = ("translate", "nested")
NESTED_GADGETS = ("resolve", "maxmargin")
ALTERNATIVES = ("neighbours", "best")

Mapped = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class OffTreeResult:
    """A blueprint of ``abstract`` made a strategy profile of ``game`` and measured there.

    strategies : the full game's profile
    certificate : its certificate in the full game
    blueprint_certificate : the blueprint's in its own abstract game
    runs : the gadget LPs of ``nested`` (empty for ``translate``)
    off_tree : the full game's public decisions the abstract game lacks
    untranslated : per player, public decisions played uniformly by the translation
    unit, unit_chips : the unit of :attr:`milli_exploitability`
    """

    game: Game
    abstract: Game
    method: str
    mapping: str
    gadget: str | None
    alternative: str | None
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    certificate: Certificate
    blueprint_certificate: Certificate
    runs: tuple[GadgetRun, ...]
    off_tree: int
    untranslated: tuple[int, int]
    unit: str
    unit_chips: Fraction
    seconds: float

    @property
    def exploitability(self) -> float:
        """The profile's exploitability (NashConv / 2) in the full game, in chips."""
        return float(self.certificate.exploitability)

    @property
    def milli_exploitability(self) -> float:
        """:attr:`exploitability` in thousandths of :attr:`unit` per game."""
        return 1000 * self.exploitability / float(self.unit_chips)

    @property
    def blueprint_exploitability(self) -> float:
        """The blueprint's exploitability in its own abstract game, in chips."""
        return float(self.blueprint_certificate.exploitability)

    @property
    def min_margin(self) -> float | None:
        """The smallest margin ``T_J − cbv(J)`` of the nested re-solves (None: none ran)."""
        found = [run.min_margin for run in self.runs if run.min_margin is not None]
        return min(found) if found else None


def _sized(game: SizedGame | str | os.PathLike[str]) -> SizedGame:
    return game if isinstance(game, SizedGame) else load_sized_game(game)


def _abstract_actions(game: Game) -> dict[str, tuple[str, ...]]:
    """Every information set of ``game`` and its actions."""
    found: dict[str, tuple[str, ...]] = {}
    stack: list[Node] = [game.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Decision):
            found.setdefault(node.infoset, node.actions)
        if not isinstance(node, Decision | Chance):
            continue
        stack.extend(node.children)
    return found


def _public_nodes(root: PublicNode) -> dict[str, PublicDecision]:
    found: dict[str, PublicDecision] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, PublicDecision):
            found[node.history] = node
        if not isinstance(node, PublicLeaf):
            stack.extend(node.children)
    return found


def _history(infoset: str) -> str:
    """The public history of ``HAND|HISTORY`` (both sized families name them so)."""
    return infoset[infoset.index("|") :]


def _off_tree_roots(
    game: Game,
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    player: int,
    abstract: Mapping[str, tuple[str, ...]],
) -> list[SubgameRoot]:
    """The nodes right after the opponent's first off-tree bet on a path the abstraction
    holds until then, with the chance, reach and last sequences of :class:`SubgameRoot`."""
    tables = game.flat.tables
    index = (tables[0].index_of_infoset(), tables[1].index_of_infoset())
    roots = []
    stack: list[tuple[Node, tuple[str, ...], Fraction, tuple[float, float], tuple[int, int]]]
    stack = [(game.root, (), Fraction(1), (1.0, 1.0), (0, 0))]
    while stack:
        node, history, chance, reach, last = stack.pop()
        if isinstance(node, Chance):
            for outcome, probability, child in zip(
                node.outcomes, node.probabilities, node.children, strict=True
            ):
                stack.append((child, (*history, outcome), chance * probability, reach, last))
            continue
        if not isinstance(node, Decision):
            continue
        mover = node.player
        held = abstract.get(node.infoset, ())
        sequences = tables[mover].sequences_of(index[mover][node.infoset])
        for sequence, action, child in zip(sequences, node.actions, node.children, strict=True):
            moved = list(reach)
            moved[mover] = moved[mover] * float(profile[mover].probabilities[sequence])
            after = list(last)
            after[mover] = sequence
            entry = (child, (*history, action), chance, (moved[0], moved[1]), (after[0], after[1]))
            if action in held:
                stack.append(entry)
            elif mover != player:
                roots.append(SubgameRoot(child, entry[1], chance, entry[3], entry[4]))
    return roots


def _subgames(roots: list[SubgameRoot]) -> list[Subgame]:
    """The roots grouped by the opponent's off-tree bet: one public history each."""
    grouped: dict[str, list[SubgameRoot]] = {}
    for root in roots:
        node = root.node
        key = _history(node.infoset) if isinstance(node, Decision) else " ".join(root.history)
        grouped.setdefault(key, []).append(root)
    subgames = []
    for key, members in grouped.items():
        inside = [subtree_infosets(root.node) for root in members]
        subgames.append(
            Subgame(
                name=key,
                roots=tuple(members),
                infosets=(
                    frozenset().union(*(i[0] for i in inside)),
                    frozenset().union(*(i[1] for i in inside)),
                ),
            )
        )
    return subgames


class _Alternatives:
    """``T_J`` from the blueprint's counterfactual best-response values in the abstract
    game (module docstring)."""

    def __init__(
        self,
        full: SizedGame,
        abstract: SizedGame,
        blueprint: tuple[BehaviouralStrategy, BehaviouralStrategy],
        player: int,
        alternative: str,
    ) -> None:
        opponent = 1 - player
        game = abstract.game
        table = game.flat.tables[opponent]
        response = best_response(game, opponent, blueprint[player])
        self.values = np.asarray(response.infoset_values, dtype=float)
        leaf = leaf_payoffs(game, opponent, plan_from_behaviour(blueprint[player]))
        self.below = np.asarray(leaf, dtype=float).copy()
        np.add.at(self.below, table.parent_sequence, self.values)
        self.index = table.index_of_infoset()
        self.table = table
        self.full_nodes = _public_nodes(full.structured.root)
        self.abstract_nodes = _public_nodes(abstract.structured.root)
        self.full, self.abstract, self.alternative = full, abstract, alternative

    def target(self, infoset: str, action: str) -> Fraction:
        """``T_J`` for the opponent's off-tree ``action`` at its ``infoset``."""
        position = self.index[infoset]
        if self.alternative == "best":
            return Fraction(float(self.values[position]))
        public = _history(infoset)
        full_node, abstract_node = self.full_nodes[public], self.abstract_nodes[public]
        size = self.full.sizes(full_node)[full_node.actions.index(action)]
        theirs = self.abstract.sizes(abstract_node)
        bets = [i for i, s in enumerate(theirs) if s is not None]
        if size is None or not bets:
            return Fraction(float(self.values[position]))
        mapped = map_size([theirs[i] for i in bets], size)  # type: ignore[misc]
        sequences = self.table.sequences_of(position)
        return Fraction(max(float(self.below[sequences[bets[i]]]) for i, _ in mapped))


def _nested(
    full: SizedGame,
    abstract: SizedGame,
    blueprint: tuple[BehaviouralStrategy, BehaviouralStrategy],
    base: tuple[BehaviouralStrategy, BehaviouralStrategy],
    gadget: str,
    alternative: str,
) -> tuple[tuple[Mapped, Mapped], list[GadgetRun]]:
    """Length: each player in turn, each subgame: targets, the gadget LP, margins."""
    game = full.game
    held = _abstract_actions(abstract.game)
    combined: tuple[Mapped, Mapped] = (base[0].as_dict(), base[1].as_dict())
    runs = []
    for player in (0, 1):
        opponent = 1 - player
        estimate = _Alternatives(full, abstract, blueprint, player, alternative)
        table = game.flat.tables[opponent]
        for subgame in _subgames(_off_tree_roots(game, base, player, held)):
            infosets = root_infosets(game, subgame, player)
            if not infosets:
                continue
            targets = {}
            for j in infosets:
                infoset = table.infosets[int(table.sequence_infoset[j.sequence])]
                targets[j.key] = estimate.target(infoset, table.sequence_action[j.sequence])
            built = gadget_game(game, subgame, player, gadget, infosets, targets)
            solution = solve_tree(built)
            answer = solution.strategies[player].as_dict()
            mine = {name: answer[name] for name in subgame.infosets[player] if name in answer}
            combined[player].update(mine)
            measure = measure_game(game, subgame, player, infosets)
            after = counterfactual_values(measure, infosets, player, combined[player])
            runs.append(
                GadgetRun(
                    subgame=subgame.name,
                    player=player,
                    nodes=built.flat.num_nodes,
                    value=solution.value,
                    nash_conv=solution.nash_conv,
                    verified=True,
                    targets=tuple(float(targets[j.key]) for j in infosets),
                    margins=tuple(float(targets[j.key]) - float(after[j.key]) for j in infosets),
                    gifts=tuple(0.0 for _ in infosets),
                )
            )
    return combined, runs


def off_tree(
    full: SizedGame | str | os.PathLike[str],
    abstract: SizedGame | str | os.PathLike[str],
    blueprint: Blueprint,
    *,
    method: str = "translate",
    mapping: str = "pseudo_harmonic",
    gadget: str = "resolve",
    alternative: str = "neighbours",
) -> OffTreeResult:
    """Play ``blueprint`` (both players' strategies of ``abstract``) in ``full`` by
    ``method`` (module docstring), and certify the profile in ``full``.

    Length: the parameters' documentation and checks; the work is in the modules it calls.

    Parameters
    ----------
    full, abstract
        :class:`~seqform.resolving.sized.SizedGame` or what
        :func:`~seqform.resolving.sized.load_sized_game` reads (a spot file,
        ``"leduc(ranks=2, suits=2, bets=((1, 2), (4, 8)))"``); the same game but for bet sizes.
    blueprint
        Both players' strategies of ``abstract``, or ``{infoset: {action: probability}}``,
        or a strategy document's path (:func:`~seqform.resolving.paths.blueprint_profile`).
    method
        ``translate`` or ``nested``.
    mapping
        The translation's mapping, one of :data:`~seqform.resolving.translation.MAPPINGS`
        (for ``nested``, what plays where no re-solve reaches).
    gadget
        ``nested``'s gadget, one of :data:`NESTED_GADGETS`.
    alternative
        ``nested``'s ``T_J``, one of :data:`ALTERNATIVES`.

    Raises
    ------
    ResolveError
        (a ``ValueError``) For an unknown method, mapping, gadget or alternative, games that
        differ in more than bet sizes, or a blueprint that is not a strategy of ``abstract``.
    TypeError, OSError, StrategyFileError
        For a blueprint as :func:`~seqform.resolving.paths.read_blueprint` refuses it.
    """
    start = time.perf_counter()
    for name, value, allowed in (
        ("method", method, METHODS),
        ("mapping", mapping, MAPPINGS),
        ("gadget", gadget, NESTED_GADGETS),
        ("alternative", alternative, ALTERNATIVES),
    ):
        if value not in allowed:
            raise ResolveError(f"{name}: {value!r} is not one of {', '.join(allowed)}")
    full, abstract = _sized(full), _sized(abstract)
    same_hands(full, abstract)
    profile = blueprint_profile(abstract.game, blueprint, use="abstract")
    translated = translate_strategies(
        full, abstract, (profile[0].as_dict(), profile[1].as_dict()), mapping
    )
    strategies = translated.strategies
    runs: list[GadgetRun] = []
    if method == "nested":
        combined, runs = _nested(full, abstract, profile, strategies, gadget, alternative)
        tables = full.game.flat.tables
        strategies = (
            behaviour_from_mapping(tables[0], combined[0]),
            behaviour_from_mapping(tables[1], combined[1]),
        )
    return OffTreeResult(
        game=full.game,
        abstract=abstract.game,
        method=method,
        mapping=mapping,
        gadget=gadget if method == "nested" else None,
        alternative=alternative if method == "nested" else None,
        strategies=strategies,
        certificate=certify(full.game, *strategies),
        blueprint_certificate=certify(abstract.game, *profile),
        runs=tuple(runs),
        off_tree=translated.off_tree,
        untranslated=translated.untranslated,
        unit=full.unit,
        unit_chips=full.unit_chips,
        seconds=time.perf_counter() - start,
    )
