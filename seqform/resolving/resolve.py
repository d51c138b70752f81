"""Re-solve every subgame of a round from a blueprint, and measure the whole in the full game.

``resolve(game, blueprint, round_number=2, gadget="resolve")`` keeps the blueprint profile
for the trunk (everything before round ``R``) and re-solves each subgame that starts at
round ``R`` (:mod:`seqform.resolving.subgames`) by the LP of a gadget game
(:mod:`seqform.resolving.gadgets`, solved on the tree route and certified by best response
in the gadget game):

* ``unsafe``: one LP per subgame, the subgame alone with both blueprint ranges; both players'
  answers are kept.
* ``resolve``, ``maxmargin``, ``reach``: each player ``P`` in turn re-solves each subgame
  against the opponent's counterfactual best-response values ``T_J`` of the blueprint (the
  trunk of ``P`` is the blueprint's, so the ranges are); the two players' answers are then
  combined into one profile.  With ``P``'s trunk kept, the opponent's best response in the
  full game gains no more than against the blueprint when every root information set's
  ``cbv(J) <= T_J`` (Burch, Johanson and Bowling 2014, Theorem 1), which ``resolve``
  and ``maxmargin`` guarantee at their optimum (margin ``T_J − cbv(J) >= 0``), so the
  combined profile's exploitability is at most the blueprint's, up to the LPs' tolerance.

Reach-Maxmargin's gifts are :mod:`seqform.resolving.gifts`'s.

``refine=True`` replaces each gadget LP's answer by the gadget game's quasi-perfect
equilibrium (:func:`seqform.routes.refine.refine`, Miltersen and Sørensen 2010): the gadget
games have many equilibria, and which one is kept changes the full game's exploitability
(Kubíček, Lisý and Sandholm, arXiv 2601.17131, 2026).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from seqform.certify import Certificate, best_response, certify
from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_from_mapping,
    round_strategy,
)
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.resolving.blueprints import blueprint_on
from seqform.resolving.gadgets import (
    RootInfoset,
    gadget_game,
    measure_game,
    root_infosets,
    unsafe_game,
)
from seqform.resolving.gifts import gifts
from seqform.resolving.subgames import ResolveError, Subgame, find_subgames
from seqform.routes.refine import refine as refine_game
from seqform.routes.tree import solve_tree
from seqform.structured.reductions.suit_classes import CanonicalBoards, lift_behaviour

__all__ = ["GADGETS", "GadgetRun", "ResolveResult", "resolve"]

GADGETS = ("unsafe", "resolve", "maxmargin", "reach")
"""The re-solving gadgets, the unsafe one first (module docstring)."""

Mapped = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class GadgetRun:
    """One gadget LP: a subgame re-solved (by ``player``, or by both for ``unsafe``).

    nodes : the gadget game's nodes (its LP's columns on the structured path)
    value : its value to player 0 (the LP optimum, or the refined equilibrium's)
    nash_conv : NashConv of its answer in the gadget game (the certificate)
    verified : for ``refine``, whether the quasi-perfect limit was proven; else True
    targets : per opponent root information set ``J``, ``T_J`` (counterfactual, the full
        game's units); empty for ``unsafe``
    margins : per ``J``, ``T_J − cbv(J)`` of the answer (``>= 0``: no better for the
        opponent to enter than against the blueprint)
    gifts : per ``J``, the gift ``g_J`` (zeros unless ``reach``)
    exact_value, exact_margin : for an exact re-solve (structured path), ``value`` and
        (safe gadgets) the smallest margin per hand as Fractions; None otherwise
    """

    subgame: str
    player: int | None
    nodes: int
    value: float
    nash_conv: float
    verified: bool
    targets: tuple[float, ...]
    margins: tuple[float, ...]
    gifts: tuple[float, ...]
    exact_value: Fraction | None = None
    exact_margin: Fraction | None = None

    @property
    def min_margin(self) -> float | None:
        """The smallest margin, or None for ``unsafe``."""
        return min(self.margins) if self.margins else None


@dataclass(frozen=True)
class ResolveResult:
    """A blueprint, its subgames of one round re-solved, and both measured in the full game.

    strategies : the combined profile (the blueprint's trunk, the re-solved subgames)
    certificate : the combined profile's, in the full game
    blueprint_certificate : the blueprint's, in the full game
    runs : every gadget LP, with its certificate and margins
    skipped : subgames the blueprint never reaches with the re-solving player (kept)
    seconds : wall-clock time of the whole re-solve
    path : ``"tree"`` (gadget games as trees) or ``"structured"`` (gadget LPs on the public
        tree × hands, :mod:`seqform.resolving.structured_resolve`; ``game`` is then the
        structured game)
    exact : every gadget LP solved exactly and both certificates in Fractions (structured
        path, :mod:`seqform.resolving.exact_gadgets`)
    boards : the canonical boards the structured path re-solved on, or None (on the game
        itself): ``blueprint`` and ``strategies`` are then ``G'``'s, the same on each hand
        class, and both certificates taken on hand classes are their lifts' in ``game``
        (:meth:`game_strategies`)
    notes : what the re-solve says of its route: why the game itself was re-solved where
        its canonical boards were asked for (:func:`seqform.resolving.paths.canonical_route`)
    """

    game: Game | StructuredGame
    gadget: str
    round_number: int
    refined: bool
    blueprint: tuple[BehaviouralStrategy, BehaviouralStrategy]
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    certificate: Certificate
    blueprint_certificate: Certificate
    runs: tuple[GadgetRun, ...]
    subgames: tuple[str, ...]
    skipped: tuple[str, ...]
    seconds: float
    path: str = "tree"
    exact: bool = False
    boards: CanonicalBoards | None = None
    notes: tuple[str, ...] = ()

    def game_strategies(self) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
        """The combined profile on ``game``'s own tables (lifted from ``G'`` when re-solved
        on canonical boards: a table of the whole game)."""
        if self.boards is None:
            return self.strategies
        first, second = self.strategies
        return lift_behaviour(self.boards, first), lift_behaviour(self.boards, second)

    @property
    def value(self) -> Any:
        """The combined profile's value to player 0."""
        return self.certificate.value

    @property
    def exploitability(self) -> float:
        """The combined profile's exploitability (NashConv / 2) in the full game."""
        return float(self.certificate.exploitability)

    @property
    def blueprint_exploitability(self) -> float:
        """The blueprint's exploitability in the full game."""
        return float(self.blueprint_certificate.exploitability)

    @property
    def max_gadget_nash_conv(self) -> float:
        """The largest NashConv of a gadget LP's answer (0 when none ran)."""
        return max((run.nash_conv for run in self.runs), default=0.0)

    @property
    def min_margin(self) -> float | None:
        """The smallest margin over every safe gadget LP (None for ``unsafe``)."""
        found = [run.min_margin for run in self.runs if run.min_margin is not None]
        return min(found) if found else None


def _exact_profile(
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """The profile in exact rationals (float strategies rounded by
    :func:`~seqform.forms.strategies.round_strategy`), so that the refinement's exact
    arithmetic meets small denominators."""
    exact = []
    for strategy in profile:
        rounded = strategy if strategy.exact else round_strategy(strategy)
        if rounded is None:
            raise ResolveError(
                f"blueprint of player {strategy.player + 1}: cannot be rounded to an exact "
                "strategy for the refinement"
            )
        exact.append(rounded)
    return exact[0], exact[1]


def _restricted(game: Game, player: int, mapping: Mapping[str, Any]) -> BehaviouralStrategy:
    return behaviour_from_mapping(game.flat.tables[player], mapping)


def counterfactual_values(
    measure: Game, infosets: Sequence[RootInfoset], player: int, mapping: Mapping[str, Any]
) -> dict[str, Any]:
    """``cbv(J)`` per root information set against ``player``'s strategy ``mapping`` in the
    subgame: the ``measure`` game's best-response value at ``J`` times its total weight."""
    response = best_response(measure, 1 - player, _restricted(measure, player, mapping))
    index = measure.flat.tables[1 - player].index_of_infoset()
    total = sum((j.weight for j in infosets), Fraction(0))
    values = response.infoset_values
    if values.dtype == object:  # an exact strategy: exact values
        return {j.key: Fraction(values[index[j.key]]) * total for j in infosets}
    return {j.key: float(values[index[j.key]]) * float(total) for j in infosets}


def _solve(gadget: Game, refine: bool) -> tuple[tuple[Mapped, Mapped], float, float, bool]:
    """The gadget game's answer: both strategies, value to player 0, NashConv, verified."""
    if refine:
        refined = refine_game(gadget)
        first, second = refined.behaviour
        return (
            (first.as_dict(), second.as_dict()),
            float(refined.value),
            refined.nash_conv,
            refined.verified,
        )
    solution = solve_tree(gadget)
    first, second = solution.strategies
    return (first.as_dict(), second.as_dict()), solution.value, solution.nash_conv, True


def _unsafe(
    game: Game, subgames: Sequence[Subgame], refine: bool, combined: tuple[Mapped, Mapped]
) -> tuple[list[GadgetRun], list[str]]:
    runs, skipped = [], []
    for subgame in subgames:
        gadget = unsafe_game(game, subgame)
        if gadget is None:
            skipped.append(subgame.name)
            continue
        answer, value, nash_conv, verified = _solve(gadget, refine)
        for player in (0, 1):
            combined[player].update(answer[player])
        nodes = gadget.flat.num_nodes
        runs.append(GadgetRun(subgame.name, None, nodes, value, nash_conv, verified, (), (), ()))
    return runs, skipped


def _safe(
    game: Game,
    subgames: Sequence[Subgame],
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    gadget: str,
    refine: bool,
    combined: tuple[Mapped, Mapped],
) -> tuple[list[GadgetRun], list[str]]:
    """Length: each player in turn, each subgame: targets, gifts, the gadget LP, margins."""
    runs, skipped = [], []
    blueprint = (profile[0].as_dict(), profile[1].as_dict())
    for player in (0, 1):
        found = [(subgame, root_infosets(game, subgame, player)) for subgame in subgames]
        everywhere = [j for _, infosets in found for j in infosets]
        gift = gifts(game, player, profile[player], everywhere) if gadget == "reach" else {}
        for subgame, infosets in found:
            if not infosets:
                skipped.append(f"{subgame.name} (player {player + 1})")
                continue
            measure = measure_game(game, subgame, player, infosets)
            targets = counterfactual_values(measure, infosets, player, blueprint[player])
            alternatives = {
                j.key: Fraction(targets[j.key]) + Fraction(gift.get(j.key, 0.0)) for j in infosets
            }
            built = gadget_game(game, subgame, player, gadget, infosets, alternatives)
            answer, value, nash_conv, verified = _solve(built, refine)
            mine = {
                name: answer[player][name]
                for name in subgame.infosets[player]
                if name in answer[player]
            }
            combined[player].update(mine)
            after = counterfactual_values(measure, infosets, player, {**blueprint[player], **mine})
            runs.append(
                GadgetRun(
                    subgame=subgame.name,
                    player=player,
                    nodes=built.flat.num_nodes,
                    value=value,
                    nash_conv=nash_conv,
                    verified=verified,
                    targets=tuple(float(targets[j.key]) for j in infosets),
                    margins=tuple(float(targets[j.key] - after[j.key]) for j in infosets),
                    gifts=tuple(gift.get(j.key, 0.0) for j in infosets),
                )
            )
    return runs, skipped


def resolve(
    game: Game,
    blueprint: Sequence[BehaviouralStrategy | Mapping[str, Any]],
    *,
    round_number: int = 2,
    gadget: str = "resolve",
    refine: bool = False,
) -> ResolveResult:
    """Re-solve every subgame of round ``round_number`` of ``game`` from ``blueprint``
    with ``gadget`` (module docstring), and certify blueprint and result in the full game.

    Length: the parameters' documentation; the work is in ``_unsafe`` and ``_safe``.

    Parameters
    ----------
    game
        The game tree (a structured game's: :func:`~seqform.game.public.explicit.explicit_game`).
    blueprint
        Both players' strategies (of this game, or of one whose information sets have the
        same names, such as the structured game's or a lifted abstraction's), or mappings
        ``{infoset: {action: probability}}``.
    round_number
        The round whose subgames are re-solved (2 or more).
    gadget
        One of :data:`GADGETS`.
    refine
        Keep each gadget game's quasi-perfect equilibrium instead of the LP's vertex; a
        float blueprint is first rounded to an exact one
        (:func:`~seqform.forms.strategies.round_strategy`), and it is the rounded blueprint
        that is measured and reported.

    Raises
    ------
    ResolveError
        (a ``ValueError``) For an unknown gadget, a round the game does not have or that
        does not cut it into subgames, or a blueprint that is not a strategy of the game.
    """
    start = time.perf_counter()
    if gadget not in GADGETS:
        raise ResolveError(f"gadget: {gadget!r} is not one of {', '.join(GADGETS)}")
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise ResolveError(f"round: {round_number!r} is not a whole number")
    profile = blueprint_on(game, blueprint)
    # the refinement computes in Fractions, from small denominators; the LPs in floats, so
    # the blueprint is measured in floats too (a strategy file's decimals, read exactly,
    # would otherwise carry a denominator per information set through every best response)
    profile = _exact_profile(profile) if refine else (profile[0].to_float(), profile[1].to_float())
    subgames = find_subgames(game, profile, round_number)
    combined: tuple[Mapped, Mapped] = (profile[0].as_dict(), profile[1].as_dict())
    if gadget == "unsafe":
        runs, skipped = _unsafe(game, subgames, refine, combined)
    else:
        runs, skipped = _safe(game, subgames, profile, gadget, refine, combined)
    strategies = (_restricted(game, 0, combined[0]), _restricted(game, 1, combined[1]))
    return ResolveResult(
        game=game,
        gadget=gadget,
        round_number=round_number,
        refined=refine,
        blueprint=profile,
        strategies=strategies,
        certificate=certify(game, *strategies),
        blueprint_certificate=certify(game, *profile),
        runs=tuple(runs),
        subgames=tuple(subgame.name for subgame in subgames),
        skipped=tuple(skipped),
        seconds=time.perf_counter() - start,
    )
