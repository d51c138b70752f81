"""One subgame of a round re-solved: its ranges and targets prepared, its gadget LP solved,
and where its answer goes in the game's strategies.

The stages of :func:`seqform.resolving.structured_resolve.resolve_structured` that read one
subgame and nothing of the others (the module docstring there says what they compute), as
functions of the subgame's index: :class:`SafeWork` (one player's safe gadget LP) and
:class:`UnsafeWork` (the subgame alone with the blueprint's ranges).  Each subgame's answer
is an :class:`Outcome`, small beside what it read, so that the subgames can be re-solved in
worker processes forked from the one that holds the game and the blueprint
(:func:`seqform.base.pool.forked_map`): the indices go out and the outcomes come back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.public.numbering import number_public_tree, structured_tables
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.solvers import StructuredSolver
from seqform.resolving.exact_gadgets import (
    exact_gadget_value,
    solve_exact_gadget,
    solve_exact_unsafe,
)
from seqform.resolving.public_gadgets import (
    UnsafeAnswer,
    counterfactual_values,
    gadget_lp,
    root_weights,
    solve_gadget,
    solve_unsafe,
)
from seqform.resolving.public_subgames import PublicSubgame, root_reach, subgame_game
from seqform.resolving.resolve import GadgetRun
from seqform.resolving.subgame_classes import SubgameClasses, subgame_classes
from seqform.resolving.subgames import ResolveError
from seqform.structured.reductions.suit_classes import CanonicalBoards

__all__ = [
    "Outcome",
    "Prepared",
    "SafeWork",
    "SequenceMap",
    "UnsafeWork",
    "prepare",
    "sequence_map",
]


@dataclass(frozen=True)
class SequenceMap:
    """Where a subgame's sequences of one player are in the full game: ``sub[i]`` is
    ``full[i]`` (information sets of hands that hold a public card are not in the game)."""

    sub: np.ndarray
    full: np.ndarray


def sequence_map(full: PlayerSequences, sub: PlayerSequences) -> SequenceMap:
    index = full.index_of_infoset()
    pairs = [(i, index.get(name, -1)) for i, name in enumerate(sub.infosets)]
    mine = np.asarray([i for i, j in pairs if j >= 0], dtype=np.int64)
    theirs = np.asarray([j for _, j in pairs if j >= 0], dtype=np.int64)
    counts = np.fromiter((len(sub.actions[i]) for i in mine), dtype=np.int64, count=len(mine))
    offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return SequenceMap(
        np.repeat(sub.first_sequence[mine], counts) + offsets,
        np.repeat(full.first_sequence[theirs], counts) + offsets,
    )


def _restricted(
    table: PlayerSequences, where: SequenceMap, probabilities: np.ndarray
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
class Prepared:
    """One subgame ready for one player's gadget LP.

    factor : the re-solving player's range in ``sub`` is its blueprint's divided by this
        (:func:`_normalised`); ``weights`` and ``targets`` are ``sub``'s, so divided too
    classes : on canonical boards, ``sub``'s hand classes; ``hands`` are then root classes
        and ``members`` the hands of the game each stands for (its hands times the orbit
        of the path's boards), by which its sums are divided in the report
    """

    subgame: PublicSubgame
    sub: StructuredGame
    where: SequenceMap
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


def prepare(
    game: StructuredGame,
    subgame: PublicSubgame,
    player: int,
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    plan: np.ndarray,
    boards: CanonicalBoards | None = None,
) -> Prepared | None:
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
    where = sequence_map(tables[player], structured_tables(sub)[0])
    blueprint = _restricted(structured_tables(sub)[0], where, profile[player].probabilities)
    targets = counterfactual_values(sub, blueprint, classes)[hands]
    labels = game.hands[opponent].labels if classes is None else classes.root_labels()
    keys = [f"[{labels[h]} | {subgame.name}]" for h in hands.tolist()]
    members = None if classes is None else classes.root_sizes[hands] * classes.orbit
    return Prepared(
        subgame, sub, where, hands, all_weights[hands], targets, keys, factor, classes, members
    )


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
    item: Prepared, gadget: str, given: np.ndarray, solver: StructuredSolver | None
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


@dataclass(frozen=True)
class Outcome:
    """One subgame re-solved: its gadget run, and where its answer goes in the game's
    behaviour arrays: per player re-solved, ``(player, the game's sequences, their
    probabilities)``."""

    run: GadgetRun
    placed: tuple[tuple[int, np.ndarray, np.ndarray], ...]


@dataclass(frozen=True)
class SafeWork:
    """Player ``player``'s safe gadget LPs (``gadget``), subgame by subgame, against the
    blueprint ``profile`` (``plan`` the player's realization plan of it), with
    Reach-Maxmargin's ``gifts`` per root hand's key (empty for the other gadgets).

    ``kept`` holds the subgames prepared for :meth:`gift_inputs` in this process, until
    :meth:`__call__` takes them (a worker forked later prepares its own again).
    """

    game: StructuredGame
    subgames: Sequence[PublicSubgame]
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy]
    player: int
    plan: np.ndarray
    gadget: str
    solver: StructuredSolver | None
    boards: CanonicalBoards | None
    gifts: Mapping[str, float] = field(default_factory=dict)
    kept: dict[int, Prepared | None] = field(default_factory=dict)

    def _prepared(self, index: int) -> Prepared | None:
        return prepare(
            self.game, self.subgames[index], self.player, self.profile, self.plan, self.boards
        )

    def gift_inputs(self, index: int) -> tuple[dict[str, int], dict[str, float]]:
        """What Reach-Maxmargin's gifts read of subgame ``index``: per root hand's key the
        opponent's sequence that enters it, and (on canonical boards) the hands of the game
        its class stands for (:func:`seqform.resolving.gifts.class_gifts`)."""
        item = self.kept[index] = self._prepared(index)
        if item is None:
            return {}, {}
        opponent = 1 - self.player
        hands = item.hands if item.classes is None else item.classes.root_hands()[item.hands]
        numbering = number_public_tree(self.game)
        last = numbering.sequence_index[opponent][hands, item.subgame.last[opponent]]
        sequences = dict(zip(item.keys, last.tolist(), strict=True))
        if item.members is None:
            return sequences, {}
        return sequences, dict(zip(item.keys, item.members.tolist(), strict=True))

    def __call__(self, index: int) -> Outcome | None:
        """Subgame ``index`` re-solved by the gadget LP, or None when the player's blueprint
        never reaches it."""
        item = self.kept.pop(index) if index in self.kept else self._prepared(index)
        if item is None:
            return None
        given = np.asarray([self.gifts.get(key, 0.0) for key in item.keys])
        try:
            answer = _answer(item, self.gadget, given, self.solver)
        except ExactSolveError as exc:
            raise ResolveError(
                f"player {self.player + 1}'s {self.gadget} gadget on subgame "
                f"{item.subgame.name}: no exact answer ({exc}); the float re-solve (without "
                "--exact) runs"
            ) from exc
        after = counterfactual_values(item.sub, answer.strategy, item.classes)[item.hands]
        value = answer.value if self.player == 0 else -answer.value
        margins = item.per_hand(item.targets - after)
        sign = 1 if self.player == 0 else -1
        run = GadgetRun(
            subgame=item.subgame.name,
            player=self.player,
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
        placed = (self.player, item.where.full, answer.strategy.probabilities[item.where.sub])
        return Outcome(run, (placed,))


@dataclass(frozen=True)
class UnsafeWork:
    """The subgames alone with the blueprint's ranges (``plans``, both players' realization
    plans of it), one at a time: both players' strategies from the subgame's LP, exactly
    with ``exact``."""

    game: StructuredGame
    subgames: Sequence[PublicSubgame]
    plans: tuple[np.ndarray, np.ndarray]
    solver: StructuredSolver | None
    boards: CanonicalBoards | None
    exact: bool

    def __call__(self, index: int) -> Outcome | None:
        """Subgame ``index`` re-solved, or None when the blueprint never reaches it."""
        subgame, plans = self.subgames[index], self.plans
        reach = [_normalised(root_reach(self.game, subgame, p, plans[p]))[0] for p in (0, 1)]
        sub = subgame_game(self.game, subgame, (reach[0], reach[1]))
        if not root_weights(sub).any():
            return None
        boards = self.boards
        classes = None if boards is None else subgame_classes(boards, subgame, sub, 0)
        value = None
        if self.exact:
            strategies, value, gap, nodes = solve_exact_unsafe(sub, classes)
            total = sum(root_weights(sub, exact=True), Fraction(0))
            value, gap = value / total, gap / total
            answer = UnsafeAnswer(strategies, float(value), float(gap), nodes)
        else:
            answer = solve_unsafe(sub, self.solver, classes)
        tables, tables_sub = structured_tables(self.game), structured_tables(sub)
        placed = []
        for player in (0, 1):
            where = sequence_map(tables[player], tables_sub[player])
            probabilities = answer.strategies[player].probabilities[where.sub]
            placed.append((player, where.full, probabilities))
        run = GadgetRun(
            *(subgame.name, None, answer.columns, answer.value, answer.nash_conv, True),
            *((), (), ()),
            exact_value=value,
        )
        return Outcome(run, tuple(placed))
