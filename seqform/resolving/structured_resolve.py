"""Re-solve a round's subgames of a structured game by the gadgets' structured LPs.

The structured path of :func:`seqform.resolving.resolve.resolve`, for games whose tree is
too large to write (Leduc 13×4, Rhode Island hold'em): the same gadgets with the same
targets ``T_J`` (counterfactual best-response values against the re-solving player's
blueprint), gifts (:func:`seqform.resolving.gifts.structured_gifts`) and margins, but each
subgame is a public subtree × hands (:mod:`seqform.resolving.public_subgames`) and each
gadget a structured LP (:mod:`seqform.resolving.public_gadgets`).  The blueprint is kept
for the trunk, each player's re-solved subgames replace its blueprint there, and both
profiles are certified in the full game by the structured best responses
(:func:`seqform.structured.responses.certify`), without the tree.  With ``exact=True`` the
same stages run on Fractions (:mod:`seqform.resolving.exact_gadgets`).

Canonical boards.  With ``boards`` the same pipeline runs on the game on canonical boards
``G'`` (:mod:`seqform.structured.reductions.suit_classes`), whose tables fit where the
game's do not (the 52-card Rhode Island hold'em), from a blueprint on ``G'`` that is the
same on each hand class.  The argument: such a blueprint is its lift's, and the lift is
invariant under every suit permutation ``σ`` of the game, so the game's subgames at boards
``b`` and ``σb`` are one subgame up to renaming, with the same targets ``T_J`` and the same
gadget optimum; ``G'`` keeps one per orbit, the canonical board ``b'``, with its chance
weight times the orbit's size.  Inside, the subgame of ``G'`` is the game's subgame at
``b'`` on canonical boards again (the later cards canonical under the stabilizer of
``b'``), which is the game only for plans that are the same on each hand class: a hand
meets only the canonical cards it does not block, so its best response alone is not the
game's, only its class's sum is.  Each gadget LP is therefore the subgame's structured LP
on hand classes (:func:`~seqform.structured.reductions.suit_reduction.reduce_lp`: the LP of
the game's subgame restricted to plans invariant under the stabilizer of ``b'``), with one
gadget row per *root class* (the opponent's hands at ``b'`` up to that stabilizer; its
weight, target and counterfactual value the sums over its hands, each best response taken
on classes: :mod:`seqform.resolving.subgame_classes`).  The gadget LP of the game's
subgame is invariant under the stabilizer, so the average of an optimum over it is an
optimum, and that average is a plan of classes: the LP on classes has the game's optimum
value, and every answer is class-symmetric by construction, not averaged afterwards.  A
root class's margin is the sum of its hands' (all equal), so every margin ``>= 0`` on
classes is every margin ``>= 0`` in the game, and Theorem 1 of Burch et al. holds for
the lifted profile; the runs report targets and margins per hand of the game (sums divided
by the class's hands and the orbit's boards).  The combined profile keeps the blueprint's
trunk and is class-symmetric, and
:func:`~seqform.structured.reductions.suit_classes.certify_on_classes` gives its lift's
exploitability in the game.  ``reach``'s gifts are taken on classes too
(:func:`seqform.resolving.gifts.class_gifts`: a root class's are its members' in the game,
summed).  With ``exact`` each LP on classes is solved exactly
(:mod:`seqform.resolving.exact_gadgets`) from the blueprint made exactly the same on each
class, and the certificate on classes is exact: it is its lift's in the game, in Fractions.

Size: one pipeline (prepare, gifts, gadget LP, combine, certify) for floats and Fractions,
on the game or on its canonical boards.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, behaviour_with_reach, plan_from_behaviour
from seqform.game.public.numbering import number_public_tree, structured_tables
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.solvers import StructuredSolver
from seqform.resolving.blueprints import blueprint_on
from seqform.resolving.exact_gadgets import (
    exact_class_blueprint,
    exact_gadget_value,
    solve_exact_gadget,
    solve_exact_unsafe,
)
from seqform.resolving.gifts import class_gifts, structured_gifts
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
from seqform.resolving.resolve import GADGETS, GadgetRun, ResolveResult
from seqform.resolving.subgame_classes import (
    SubgameClasses,
    canonical_game_for,
    require_class_symmetric,
    subgame_classes,
)
from seqform.resolving.subgames import ResolveError
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    certify_on_classes,
)
from seqform.structured.responses import certify

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
    classes : on canonical boards, ``sub``'s hand classes; ``hands`` are then root classes
        and ``members`` the hands of the game each stands for (its hands times the orbit
        of the path's boards), by which its sums are divided in the report
    """

    subgame: PublicSubgame
    sub: StructuredGame
    where: _Map
    hands: np.ndarray
    weights: np.ndarray
    targets: np.ndarray
    keys: list[str]
    factor: Any
    classes: SubgameClasses | None = None
    members: np.ndarray | None = None

    def per_hand(self, values: np.ndarray) -> np.ndarray:
        """Values of the LP's units per hand of the game (class sums divided)."""
        scaled = self.factor * values
        return scaled if self.members is None else scaled / self.members


def _prepare(
    game: StructuredGame,
    subgame: PublicSubgame,
    player: int,
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    plan: np.ndarray,
    boards: CanonicalBoards | None = None,
) -> _Prepared | None:
    """The subgame with ``player``'s blueprint ranges (``player`` is the LP's player 0),
    ``O``'s root hands (root classes with ``boards``) and targets; None when ``player``'s
    blueprint never reaches it."""
    opponent = 1 - player
    weights: list[np.ndarray] = [np.zeros(0), np.zeros(0)]
    weights[player], factor = _normalised(root_reach(game, subgame, player, plan))
    everything = np.ones(number_public_tree(game).num_sequences(opponent))
    weights[opponent] = root_reach(game, subgame, opponent, everything)  # 1 where valid
    sub = subgame_game(game, subgame, (weights[0], weights[1]), mirror=player == 1, kind="gadget")
    all_weights = root_weights(sub, exact=plan.dtype == object)
    classes = None if boards is None else subgame_classes(boards, subgame, sub, player)
    if classes is not None:
        all_weights = classes.root_sums(all_weights)
    hands = np.flatnonzero(all_weights > 0)
    if not len(hands):
        return None
    tables = structured_tables(game)
    where = _sequence_map(tables[player], structured_tables(sub)[0])
    blueprint = _restricted(structured_tables(sub)[0], where, profile[player].probabilities)
    targets = counterfactual_values(sub, blueprint, classes)[hands]
    labels = game.hands[opponent].labels if classes is None else classes.root_labels()
    keys = [f"[{labels[h]} | {subgame.name}]" for h in hands.tolist()]
    members = None if classes is None else classes.root_sizes[hands] * classes.orbit
    return _Prepared(
        subgame, sub, where, hands, all_weights[hands], targets, keys, factor, classes, members
    )


def _gifts(
    game: StructuredGame,
    player: int,
    strategy: BehaviouralStrategy,
    prepared: Sequence[_Prepared],
    boards: CanonicalBoards | None,
) -> dict[str, float]:
    """Reach-Maxmargin's gifts (:mod:`seqform.resolving.gifts`) of every root hand of ``O``
    (root class, with ``boards``) over the subgames ``player`` re-solves."""
    numbering = number_public_tree(game)
    sequences: dict[str, int] = {}
    members: dict[str, float] = {}
    for item in prepared:
        hands = item.hands if item.classes is None else item.classes.root_hands()[item.hands]
        last = numbering.sequence_index[1 - player][hands, item.subgame.last[1 - player]]
        sequences.update(zip(item.keys, last.tolist(), strict=True))
        if item.members is not None:
            members.update(zip(item.keys, item.members.tolist(), strict=True))
    if boards is None:
        return structured_gifts(game, player, strategy, sequences)
    return class_gifts(boards, player, strategy, sequences, members)


def _safe(
    game: StructuredGame,
    subgames: Sequence[PublicSubgame],
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    gadget: str,
    solver: StructuredSolver | None,
    combined: list[np.ndarray],
    progress: Callable[[str], None] | None = None,
    boards: CanonicalBoards | None = None,
) -> tuple[list[GadgetRun], list[str]]:
    """Each player in turn: every subgame's targets, the gifts, the gadget LPs, margins.

    Length: one loop over players and subgames, the gadget LP's answer recorded as it comes.
    """
    runs, skipped = [], []
    for player in (0, 1):
        plan = plan_from_behaviour(profile[player])
        prepared = []
        for subgame in subgames:
            item = _prepare(game, subgame, player, profile, plan, boards)
            if item is None:
                skipped.append(f"{subgame.name} (player {player + 1})")
            else:
                prepared.append(item)
        gift = _gifts(game, player, profile[player], prepared, boards) if gadget == "reach" else {}
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
            after = counterfactual_values(item.sub, answer.strategy, item.classes)[item.hands]
            value = answer.value if player == 0 else -answer.value
            margins = item.per_hand(item.targets - after)
            sign = 1 if player == 0 else -1
            runs.append(
                GadgetRun(
                    subgame=item.subgame.name,
                    player=player,
                    nodes=answer.columns,
                    value=value,
                    nash_conv=answer.nash_conv,
                    verified=True,
                    targets=_floats(item.per_hand(item.targets)),
                    margins=_floats(margins),
                    gifts=_floats(given if item.members is None else given / item.members),
                    exact_value=None if answer.exact is None else sign * answer.exact,
                    exact_margin=None if answer.exact is None else min(margins),
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
    exact: Fraction | None = None  # ``value`` as a Fraction, for an exact answer


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
        item.classes,
    )
    if not exact:
        answer = solve_gadget(built, solver)
        return _Answer(answer.strategy, answer.value, answer.nash_conv, answer.columns)
    solved = solve_exact_gadget(built, item.weights, alternatives)
    cbv = counterfactual_values(item.sub, solved.strategy, item.classes)[item.hands]
    achieved, bound = exact_gadget_value(solved, gadget, cbv, item.weights, alternatives)
    gap = float(bound - achieved)
    return _Answer(solved.strategy, float(achieved), gap, built.lp.shape[1], achieved)


def _unsafe(
    game: StructuredGame,
    subgames: Sequence[PublicSubgame],
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    solver: StructuredSolver | None,
    combined: list[np.ndarray],
    boards: CanonicalBoards | None = None,
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
        classes = None if boards is None else subgame_classes(boards, subgame, sub, 0)
        value = None
        if exact:
            strategies, value, gap, nodes = solve_exact_unsafe(sub, classes)
            total = sum(root_weights(sub, exact=True), Fraction(0))
            value, gap = value / total, gap / total
            answer = UnsafeAnswer(strategies, float(value), float(gap), nodes)
        else:
            answer = solve_unsafe(sub, solver, classes)
        for player in (0, 1):
            where = _sequence_map(tables[player], structured_tables(sub)[player])
            combined[player][where.full] = answer.strategies[player].probabilities[where.sub]
        runs.append(
            GadgetRun(
                *(subgame.name, None, answer.columns, answer.value, answer.nash_conv, True),
                *((), (), ()),
                exact_value=value,
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
    boards: CanonicalBoards | None = None,
) -> ResolveResult:
    """Re-solve every public subgame of round ``round_number`` of ``game`` from
    ``blueprint`` with ``gadget`` on the structured LPs (module docstring), and certify
    blueprint and result in the full game without its tree; with ``boards``, on the game's
    canonical boards (module docstring, "Canonical boards").

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
    boards
        ``game``'s canonical boards
        (:func:`~seqform.structured.reductions.suit_classes.canonical_boards`): the
        blueprint is then a class-symmetric profile of ``G' = boards.canonical`` (such as
        ``abstract(..., suit_isomorphism=True)``'s strategies), every subgame of
        ``G'``'s round is re-solved on hand classes, and the combined profile, on ``G'``
        and class-symmetric, is certified on hand classes: its exploitability in ``game``
        (``result.boards``; :meth:`ResolveResult.game_strategies` lifts it to ``game``);
        exactly with ``exact``.

    Raises
    ------
    ResolveError
        For an unknown gadget, a round the game does not have, a subgame that can end
        before the opponent acts in it, or a blueprint that is not a strategy of the game;
        with ``boards``, for boards of another game, or a blueprint that is not the same on
        each hand class.
    seqform.lp.exact.linear_solver.ExactSolveError
        With ``exact``, for a gadget LP whose basis gives no exactly optimal answer.
    """
    start = time.perf_counter()
    if gadget not in GADGETS:
        raise ResolveError(f"gadget: {gadget!r} is not one of {', '.join(GADGETS)}")
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise ResolveError(f"round: {round_number!r} is not a whole number")
    played = game if boards is None else canonical_game_for(game, boards)
    first, second = blueprint_on(played, blueprint)
    profile = (first.to_float(), second.to_float())
    if boards is not None:
        require_class_symmetric(boards, profile)
    if exact:  # on canonical boards, the same on each class exactly
        profile = (
            exact_class_blueprint(boards, 0, profile[0]),
            exact_class_blueprint(boards, 1, profile[1]),
        )
    subgames = find_public_subgames(played, round_number)
    combined = [profile[0].probabilities.copy(), profile[1].probabilities.copy()]
    if gadget == "unsafe":
        runs, skipped = _unsafe(played, subgames, profile, solver, combined, boards)
    else:
        runs, skipped = _safe(played, subgames, profile, gadget, solver, combined, progress, boards)
    tables = structured_tables(played)
    strategies = (
        behaviour_with_reach(tables[0], combined[0]),
        behaviour_with_reach(tables[1], combined[1]),
    )
    measure = partial(certify, game) if boards is None else partial(certify_on_classes, boards)
    return ResolveResult(
        game=game,
        gadget=gadget,
        round_number=round_number,
        refined=False,
        blueprint=profile,
        strategies=strategies,
        certificate=measure(*strategies),
        blueprint_certificate=measure(*profile),
        runs=tuple(runs),
        subgames=tuple(subgame.name for subgame in subgames),
        skipped=tuple(skipped),
        seconds=time.perf_counter() - start,
        path="structured",
        exact=exact,
        boards=boards,
    )
