"""Re-solve a round's subgames of a structured game by the gadgets' structured LPs.

The structured path of :func:`seqform.resolving.resolve.resolve`, for games whose tree is
too large to write (Leduc 13×4, Rhode Island hold'em): the same gadgets with the same
targets ``T_J`` (counterfactual best-response values against the re-solving player's
blueprint), gifts (:func:`seqform.resolving.gifts.shared_gifts`) and margins, but each
subgame is a public subtree × hands (:mod:`seqform.resolving.public_subgames`) and each
gadget a structured LP (:mod:`seqform.resolving.public_gadgets`).  The blueprint is kept
for the trunk, each player's re-solved subgames replace its blueprint there, and both
profiles are certified in the full game by the structured best responses
(:func:`seqform.structured.responses.certify`), without the tree.  With ``exact=True`` the
same stages run on Fractions (:mod:`seqform.resolving.exact_gadgets`).

Size: one pipeline (prepare, gifts, gadget LP, combine, certify) for floats and Fractions.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, behaviour_with_reach, plan_from_behaviour
from seqform.game.public.numbering import number_public_tree, structured_tables
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.solvers import StructuredSolver
from seqform.resolving.exact_gadgets import (
    exact_blueprint,
    solve_exact_gadget,
    solve_exact_unsafe,
)
from seqform.resolving.gifts import shared_gifts
from seqform.resolving.public_gadgets import (
    UnsafeAnswer,
    counterfactual_values,
    gadget_lp,
    root_weights,
    solve_gadget,
    solve_unsafe,
)
from seqform.resolving.public_subgames import (
    PublicSubgame,
    find_public_subgames,
    root_reach,
    subgame_game,
)
from seqform.resolving.resolve import GADGETS, GadgetRun, ResolveResult, blueprint_on
from seqform.resolving.subgames import ResolveError
from seqform.structured.responses import best_response, certify, leaf_payoffs

__all__ = ["resolve_structured"]


@dataclass(frozen=True)
class _Map:
    """Where a subgame's sequences of one player are in the full game: ``sub[i]`` is
    ``full[i]`` (information sets of hands that hold a public card are not in the game)."""

    sub: np.ndarray
    full: np.ndarray


def _sequence_map(full: PlayerSequences, sub: PlayerSequences) -> _Map:
    index = full.index_of_infoset()
    pairs = [(i, index.get(name, -1)) for i, name in enumerate(sub.infosets)]
    mine = np.asarray([i for i, j in pairs if j >= 0], dtype=np.int64)
    theirs = np.asarray([j for _, j in pairs if j >= 0], dtype=np.int64)
    counts = np.fromiter((len(sub.actions[i]) for i in mine), dtype=np.int64, count=len(mine))
    offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return _Map(
        np.repeat(sub.first_sequence[mine], counts) + offsets,
        np.repeat(full.first_sequence[theirs], counts) + offsets,
    )


def _restricted(
    table: PlayerSequences, where: _Map, probabilities: np.ndarray
) -> BehaviouralStrategy:
    """The full game's behaviour ``probabilities`` on the subgame's ``table`` (uniform at
    information sets not in the full game)."""
    counts = table.action_counts()
    if probabilities.dtype == object:
        mine = np.asarray([Fraction(1)] * table.num_sequences, dtype=object)
        mine[1:] = [Fraction(1, int(n)) for n in counts[table.sequence_infoset[1:]]]
    else:
        mine = np.ones(table.num_sequences)
        mine[1:] = 1.0 / counts[table.sequence_infoset[1:]]
    mine[where.sub] = probabilities[where.full]
    return BehaviouralStrategy(table, mine, np.zeros(table.num_infosets, dtype=bool))


def _normalised(reach: np.ndarray) -> tuple[np.ndarray, Any]:
    """A player's root reaches divided by a power of two near the largest, and that power
    (1 for none); a power of two divides floats and Fractions exactly.

    A subgame is the same game for any positive multiple of one player's range (the tree's
    gadget games normalise it by their chance node), but its structured LP is not the same
    to HiGHS: a blueprint reaching a subgame with probability 1e-12 (an interior point's
    zero) puts payoffs of that size beside absolute tolerances of 1e-7, and the LP comes
    back "Unbounded" or with an answer far from the subgame's equilibrium.
    """
    largest = float(reach.max()) if len(reach) else 0.0
    if largest <= 0.0:
        return reach, 1
    power = math.frexp(largest)[1]  # largest = m 2^power, 1/2 <= m < 1
    factor = Fraction(2) ** power if reach.dtype == object else math.ldexp(1.0, power)
    return reach / factor, factor


@dataclass
class _Prepared:
    """One subgame ready for one player's gadget LP.

    factor : the re-solving player's range in ``sub`` is its blueprint's divided by this
        (:func:`_normalised`); ``weights`` and ``targets`` are ``sub``'s, so divided too
    """

    subgame: PublicSubgame
    sub: StructuredGame
    where: _Map
    hands: np.ndarray
    weights: np.ndarray
    targets: np.ndarray
    keys: list[str]
    factor: Any


def _prepare(
    game: StructuredGame,
    subgame: PublicSubgame,
    player: int,
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    plan: np.ndarray,
) -> _Prepared | None:
    """The subgame with ``player``'s blueprint ranges (``player`` is the LP's player 0),
    ``O``'s root hands and targets; None when ``player``'s blueprint never reaches it."""
    opponent = 1 - player
    weights: list[np.ndarray] = [np.zeros(0), np.zeros(0)]
    weights[player], factor = _normalised(root_reach(game, subgame, player, plan))
    everything = np.ones(number_public_tree(game).num_sequences(opponent))
    weights[opponent] = root_reach(game, subgame, opponent, everything)  # 1 where valid
    sub = subgame_game(game, subgame, (weights[0], weights[1]), mirror=player == 1, kind="gadget")
    all_weights = root_weights(sub, exact=plan.dtype == object)
    hands = np.flatnonzero(all_weights > 0)
    if not len(hands):
        return None
    tables = structured_tables(game)
    where = _sequence_map(tables[player], structured_tables(sub)[0])
    blueprint = _restricted(structured_tables(sub)[0], where, profile[player].probabilities)
    targets = counterfactual_values(sub, blueprint)[hands]
    labels = game.hands[opponent].labels
    keys = [f"[{labels[h]} | {subgame.name}]" for h in hands.tolist()]
    return _Prepared(subgame, sub, where, hands, all_weights[hands], targets, keys, factor)


def _gifts(
    game: StructuredGame,
    player: int,
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    prepared: Sequence[_Prepared],
) -> dict[str, float]:
    """Reach-Maxmargin's gifts (:func:`~seqform.resolving.gifts.shared_gifts`) of every
    root hand of ``O`` over the subgames ``player`` re-solves."""
    opponent = 1 - player
    numbering = number_public_tree(game)
    response = best_response(game, opponent, profile[player])
    leaf = leaf_payoffs(game, opponent, plan_from_behaviour(profile[player]))
    sequences: dict[str, int] = {}
    for item in prepared:
        last = numbering.sequence_index[opponent][item.hands, item.subgame.last[opponent]]
        sequences.update(zip(item.keys, last.tolist(), strict=True))
    table = structured_tables(game)[opponent]
    return shared_gifts(table, response.infoset_values, leaf, sequences)


def _safe(
    game: StructuredGame,
    subgames: Sequence[PublicSubgame],
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    gadget: str,
    solver: StructuredSolver | None,
    combined: list[np.ndarray],
    progress: Callable[[str], None] | None = None,
) -> tuple[list[GadgetRun], list[str]]:
    """Each player in turn: every subgame's targets, the gifts, the gadget LPs, margins."""
    runs, skipped = [], []
    for player in (0, 1):
        plan = plan_from_behaviour(profile[player])
        prepared = []
        for subgame in subgames:
            item = _prepare(game, subgame, player, profile, plan)
            if item is None:
                skipped.append(f"{subgame.name} (player {player + 1})")
            else:
                prepared.append(item)
        gift = _gifts(game, player, profile, prepared) if gadget == "reach" else {}
        for number, item in enumerate(prepared, start=1):
            if progress is not None:
                progress(
                    f"player {player + 1} re-solves subgame {number} of {len(prepared)} "
                    f"({item.subgame.name}, {gadget})"
                )
            given = np.asarray([gift.get(key, 0.0) for key in item.keys])
            try:
                answer = _answer(item, gadget, given, solver)
            except ExactSolveError as exc:
                raise ResolveError(
                    f"player {player + 1}'s {gadget} gadget on subgame {item.subgame.name}: "
                    f"no exact answer ({exc}); the float re-solve (without --exact) runs"
                ) from exc
            combined[player][item.where.full] = answer.strategy.probabilities[item.where.sub]
            after = counterfactual_values(item.sub, answer.strategy)[item.hands]
            value = answer.value if player == 0 else -answer.value
            runs.append(
                GadgetRun(
                    subgame=item.subgame.name,
                    player=player,
                    nodes=answer.columns,
                    value=value,
                    nash_conv=answer.nash_conv,
                    verified=True,
                    targets=_floats(item.factor * item.targets),
                    margins=_floats(item.factor * (item.targets - after)),
                    gifts=tuple(given.tolist()),
                )
            )
    return runs, skipped


def _floats(values: np.ndarray) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


@dataclass(frozen=True)
class _Answer:
    strategy: BehaviouralStrategy
    value: float
    nash_conv: float
    columns: int


def _answer(
    item: _Prepared, gadget: str, given: np.ndarray, solver: StructuredSolver | None
) -> _Answer:
    """One gadget LP solved: in floats, or, for an exact blueprint, exactly
    (:mod:`seqform.resolving.exact_gadgets`: the basis re-solved in rationals; the value is
    the exact strategy's own in the gadget, and ``nash_conv`` its proven gap to the
    optimum, 0 when the basis is exactly optimal)."""
    exact = item.weights.dtype == object
    gifts = np.asarray([Fraction(g) for g in given], dtype=object) if exact else given
    alternatives = item.targets + gifts / item.factor
    built = gadget_lp(
        item.sub,
        gadget,
        item.hands,
        np.asarray(item.weights, dtype=float),
        np.asarray(alternatives, dtype=float),
    )
    if not exact:
        answer = solve_gadget(built, solver)
        return _Answer(answer.strategy, answer.value, answer.nash_conv, answer.columns)
    solved = solve_exact_gadget(built, item.weights, alternatives)
    cbv = counterfactual_values(item.sub, solved.strategy)[item.hands]
    if gadget == "resolve":
        total = sum(item.weights, Fraction(0))
        bound = solved.objective / solved.scale / total
        achieved = -sum(map(max, cbv, alternatives), Fraction(0)) / total
    else:
        bound = solved.objective
        achieved = min((a - c) / w for a, c, w in zip(alternatives, cbv, item.weights, strict=True))
    return _Answer(solved.strategy, float(achieved), float(bound - achieved), built.lp.shape[1])


def _unsafe(
    game: StructuredGame,
    subgames: Sequence[PublicSubgame],
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    solver: StructuredSolver | None,
    combined: list[np.ndarray],
) -> tuple[list[GadgetRun], list[str]]:
    runs, skipped = [], []
    plans = [plan_from_behaviour(strategy) for strategy in profile]
    tables = structured_tables(game)
    exact = profile[0].exact
    for subgame in subgames:
        reach = [_normalised(root_reach(game, subgame, p, plans[p]))[0] for p in (0, 1)]
        sub = subgame_game(game, subgame, (reach[0], reach[1]))
        if not root_weights(sub).any():
            skipped.append(subgame.name)
            continue
        if exact:
            strategies, value, gap, nodes = solve_exact_unsafe(sub)
            total = sum(root_weights(sub, exact=True), Fraction(0))
            answer = UnsafeAnswer(strategies, float(value / total), float(gap / total), nodes)
        else:
            answer = solve_unsafe(sub, solver)
        for player in (0, 1):
            where = _sequence_map(tables[player], structured_tables(sub)[player])
            combined[player][where.full] = answer.strategies[player].probabilities[where.sub]
        runs.append(
            GadgetRun(
                subgame.name, None, answer.columns, answer.value, answer.nash_conv, True, (), (), ()
            )
        )
    return runs, skipped


def resolve_structured(
    game: StructuredGame,
    blueprint: Sequence[BehaviouralStrategy | Mapping[str, Any]],
    *,
    round_number: int = 2,
    gadget: str = "resolve",
    solver: StructuredSolver | None = None,
    exact: bool = False,
    progress: Callable[[str], None] | None = None,
) -> ResolveResult:
    """Re-solve every public subgame of round ``round_number`` of ``game`` from
    ``blueprint`` with ``gadget`` on the structured LPs (module docstring), and certify
    blueprint and result in the full game without its tree.

    Length: the entry point documents each option; the body checks them and runs the stages.

    Parameters
    ----------
    game
        A structured game.
    blueprint
        Both players' strategies of ``game`` (or of a game whose information sets have the
        same names, such as its explicit tree's), or mappings ``{infoset: {action: p}}``.
    round_number, gadget
        As :func:`seqform.resolving.resolve.resolve`.
    solver
        For the gadget LPs: HiGHS's ``"simplex"``, ``"ipm"`` or ``"clarabel"``; None
        (default) chooses per LP by its size, HiGHS's simplex or interior point with
        crossover, both ending at a vertex as the tree path's
        (:func:`~seqform.resolving.public_gadgets.gadget_solver`).
    exact
        Solve every gadget LP exactly (:mod:`seqform.resolving.exact_gadgets`): the
        blueprint is taken as Fractions (:func:`~seqform.resolving.exact_gadgets.exact_blueprint`),
        the targets and ranges are computed from it exactly, each gadget LP's optimal basis
        is re-solved in rationals and proven optimal, and both profiles are certified in the
        full game in Fractions (``result.certificate`` holds them).  Reach-Maxmargin's gifts
        are the float ones taken as exact numbers.  ``solver`` is then the size's choice.
    progress
        Hears which gadget LP is being solved (each takes seconds to minutes at Leduc 13×4).

    Raises
    ------
    ResolveError
        For an unknown gadget, a round the game does not have, a subgame that can end
        before the opponent acts in it, or a blueprint that is not a strategy of the game.
    seqform.lp.exact.linear_solver.ExactSolveError
        With ``exact``, for a gadget LP whose basis gives no exactly optimal answer.
    """
    start = time.perf_counter()
    if gadget not in GADGETS:
        raise ResolveError(f"gadget: {gadget!r} is not one of {', '.join(GADGETS)}")
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise ResolveError(f"round: {round_number!r} is not a whole number")
    first, second = blueprint_on(game, blueprint)
    profile = (first.to_float(), second.to_float())
    if exact:
        profile = (exact_blueprint(profile[0]), exact_blueprint(profile[1]))
    subgames = find_public_subgames(game, round_number)
    combined = [profile[0].probabilities.copy(), profile[1].probabilities.copy()]
    if gadget == "unsafe":
        runs, skipped = _unsafe(game, subgames, profile, solver, combined)
    else:
        runs, skipped = _safe(game, subgames, profile, gadget, solver, combined, progress)
    tables = structured_tables(game)
    strategies = (
        behaviour_with_reach(tables[0], combined[0]),
        behaviour_with_reach(tables[1], combined[1]),
    )
    return ResolveResult(
        game=game,
        gadget=gadget,
        round_number=round_number,
        refined=False,
        blueprint=profile,
        strategies=strategies,
        certificate=certify(game, *strategies),
        blueprint_certificate=certify(game, *profile),
        runs=tuple(runs),
        subgames=tuple(subgame.name for subgame in subgames),
        skipped=tuple(skipped),
        seconds=time.perf_counter() - start,
        path="structured",
        exact=exact,
    )
