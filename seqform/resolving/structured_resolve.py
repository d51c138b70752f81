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

One pipeline (prepare, gifts, gadget LP, combine, certify) for floats and Fractions, on
the game or on its canonical boards.  What reads one subgame alone (prepare, its gadget
LP, its margins) is :mod:`seqform.resolving.subgame_runs`; here the round: the gifts,
which read every subgame, the answers combined in the subgames' order, and the
certificates.  With ``workers`` the subgames run on forked processes
(:func:`seqform.base.pool.forked_map`) and the answers are the same, bit for bit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar

import numpy as np

from seqform.base.pool import forked_map
from seqform.forms.strategies import BehaviouralStrategy, behaviour_with_reach, plan_from_behaviour
from seqform.game.public.numbering import structured_tables
from seqform.game.public.tree import StructuredGame
from seqform.lp.solvers import StructuredSolver
from seqform.resolving.blueprints import blueprint_on
from seqform.resolving.exact_gadgets import exact_class_blueprint
from seqform.resolving.gifts import class_gifts, structured_gifts
from seqform.resolving.public_subgames import PublicSubgame, find_public_subgames
from seqform.resolving.resolve import GADGETS, GadgetRun, ResolveResult
from seqform.resolving.subgame_classes import canonical_game_for, require_class_symmetric
from seqform.resolving.subgame_runs import Outcome, SafeWork, UnsafeWork
from seqform.resolving.subgames import ResolveError
from seqform.routes.many import check_workers
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    certify_on_classes,
)
from seqform.structured.responses import certify

__all__ = ["resolve_structured"]

T = TypeVar("T")


def _gifts(
    game: StructuredGame,
    player: int,
    strategy: BehaviouralStrategy,
    inputs: Sequence[tuple[dict[str, int], dict[str, float]]],
    boards: CanonicalBoards | None,
) -> dict[str, float]:
    """Reach-Maxmargin's gifts (:mod:`seqform.resolving.gifts`) of every root hand of ``O``
    (root class, with ``boards``) over the subgames ``player`` re-solves, from each
    subgame's :meth:`~seqform.resolving.subgame_runs.SafeWork.gift_inputs`."""
    sequences: dict[str, int] = {}
    members: dict[str, float] = {}
    for entered, stands_for in inputs:
        sequences.update(entered)
        members.update(stands_for)
    if boards is None:
        return structured_gifts(game, player, strategy, sequences)
    return class_gifts(boards, player, strategy, sequences, members)


@dataclass(frozen=True)
class _Combined:
    """The round's answers gathered in the subgames' order: the combined profile's behaviour
    arrays (the blueprint's, re-solved subgames written over it), the runs, the subgames
    skipped, and who hears of each."""

    subgames: Sequence[PublicSubgame]
    combined: list[np.ndarray]
    progress: Callable[[str], None] | None
    runs: list[GadgetRun] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def take(self, outcomes: Iterator[Outcome | None], gadget: str, player: int | None) -> None:
        """Each subgame's outcome in order, re-solved by ``player`` (None: both, ``unsafe``);
        a None was skipped."""
        who = "both players" if player is None else f"player {player + 1}"
        count = len(self.subgames)
        for number, (subgame, outcome) in enumerate(
            zip(self.subgames, outcomes, strict=True), start=1
        ):
            if outcome is None:
                self.skipped.append(subgame.name if player is None else f"{subgame.name} ({who})")
                continue
            for owner, sequences, probabilities in outcome.placed:
                self.combined[owner][sequences] = probabilities
            self.runs.append(outcome.run)
            if self.progress is not None:
                self.progress(
                    f"{who} re-solved subgame {number} of {count} ({subgame.name}, {gadget})"
                )


def _safe(
    game: StructuredGame,
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
    gadget: str,
    solver: StructuredSolver | None,
    boards: CanonicalBoards | None,
    workers: int,
    into: _Combined,
) -> None:
    """Each player in turn: every subgame's targets, the gifts, the gadget LPs, margins,
    the subgames on ``workers`` processes."""
    count = len(into.subgames)
    for player in (0, 1):
        plan = plan_from_behaviour(profile[player])
        work = SafeWork(game, into.subgames, profile, player, plan, gadget, solver, boards)
        if gadget == "reach":
            inputs = list(_pooled(work.gift_inputs, count, workers))
            work = replace(work, gifts=_gifts(game, player, profile[player], inputs, boards))
        into.take(_pooled(work, count, workers), gadget, player)


def _pooled(work: Callable[[int], T], count: int, workers: int) -> Iterator[T]:
    """``work`` over the subgames on ``workers`` processes; a worker that died is a
    :class:`ResolveError`."""
    try:
        yield from forked_map(work, count, workers)
    except BrokenProcessPool as exc:
        raise ResolveError(
            f"a re-solve worker process ended without an answer ({exc}): killed, or out of "
            "memory; re-solve with fewer workers"
        ) from None


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
    workers: int = 1,
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
        Hears of each gadget LP as it is solved, in the subgames' order (each takes seconds
        to minutes at Leduc 13×4).
    boards
        ``game``'s canonical boards
        (:func:`~seqform.structured.reductions.suit_classes.canonical_boards`): the
        blueprint is then a class-symmetric profile of ``G' = boards.canonical`` (such as
        ``abstract(..., suit_isomorphism=True)``'s strategies), every subgame of
        ``G'``'s round is re-solved on hand classes, and the combined profile, on ``G'``
        and class-symmetric, is certified on hand classes: its exploitability in ``game``
        (``result.boards``; :meth:`ResolveResult.game_strategies` lifts it to ``game``);
        exactly with ``exact``.
    workers
        Re-solve the subgames on this many processes forked from this one
        (:func:`seqform.base.pool.forked_map`: they read the game and the blueprint from
        its memory, and die with it); the answers are the same, bit for bit, as one
        process's, taken in the same order.  At most
        :func:`~seqform.routes.many.worker_limit`'s.

    Raises
    ------
    ResolveError
        For an unknown gadget, a round the game does not have, a subgame that can end
        before the opponent acts in it, or a blueprint that is not a strategy of the game;
        with ``boards``, for boards of another game, or a blueprint that is not the same on
        each hand class; a worker process that died (killed, out of memory).
    seqform.routes.many.TooManyWorkersError
        For more ``workers`` than this machine allows.
    """
    start = time.perf_counter()
    if gadget not in GADGETS:
        raise ResolveError(f"gadget: {gadget!r} is not one of {', '.join(GADGETS)}")
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise ResolveError(f"round: {round_number!r} is not a whole number")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ResolveError(f"workers: {workers!r} is not a whole number of at least 1")
    check_workers(workers)
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
    into = _Combined(subgames, [strategy.probabilities.copy() for strategy in profile], progress)
    if gadget == "unsafe":
        plans = (plan_from_behaviour(profile[0]), plan_from_behaviour(profile[1]))
        work = UnsafeWork(played, subgames, plans, solver, boards, exact)
        into.take(_pooled(work, len(subgames), workers), gadget, None)
    else:
        _safe(played, profile, gadget, solver, boards, workers, into)
    combined = into.combined
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
        runs=tuple(into.runs),
        subgames=tuple(subgame.name for subgame in subgames),
        skipped=tuple(into.skipped),
        seconds=time.perf_counter() - start,
        path="structured",
        exact=exact,
        boards=boards,
    )
