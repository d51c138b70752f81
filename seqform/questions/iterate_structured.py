""":func:`~seqform.questions.iterate.iterate` on the structured route: vector CFR on the
public tree × hands, measured and compared with the structured LP without the tree.

A game invariant under suit permutations runs on its canonical boards, the members of each
hand class sharing one regret (:func:`~seqform.structured.vector_cfr.canonical_vector_cfr`:
the iterates of CFR on the game, at the reduced size), unless ``suit_isomorphism=False``;
the average is lifted to the game and certified there, unreduced, as ``solve``'s reduced LP
is.  A run with locks stays on the game itself (a lock breaks the suit symmetry the
reduction relies on).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from seqform.certify import Certificate, LocalBounds
from seqform.forms.locks import Lock, ResolvedLocks
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.holdem import is_spot_file
from seqform.iterative.run import (
    IterativeResult,
    OnSample,
    Stopping,
    require_reachable_target,
)
from seqform.questions.iterative_run import (
    CUT_SHORT,
    NOT_MEASURED,
    IterativeRun,
    kept_measured,
    kept_reference,
    two_player_profile,
)
from seqform.questions.lp_reference import LpReference, structured_reference
from seqform.routes.locked import resolve_for
from seqform.routes.policy import OptionsError, Route, choose_route
from seqform.structured.reductions.suit_classes import (
    ReductionSizes,
    canonical_boards,
    canonical_sizes,
    lift_behaviour,
)
from seqform.structured.responses import certify as structured_certify
from seqform.structured.responses import certify_run, payoff_range
from seqform.structured.vector_cfr import (
    VECTOR_ALGORITHMS,
    CanonicalRun,
    canonical_vector_cfr,
    vector_cfr,
)

if TYPE_CHECKING:
    from seqform.structured.compiled_cfr import CompiledRegrets

__all__ = ["iterate_structured", "structured_route"]


def structured_route(
    game: Game | str | os.PathLike[str],
    method: str,
    algorithm: str,
    force: bool,
    suit_isomorphism: bool = True,
) -> Route | None:
    """The structured route vector CFR runs on, or None for the tree: ``method="structured"``,
    or ``"auto"`` where ``solve``'s policy takes the structured route and the algorithm is
    one vector CFR runs (:data:`~seqform.structured.vector_cfr.VECTOR_ALGORITHMS`); sized on
    canonical boards when the run will be suit-reduced (``suit_isomorphism``)."""
    if isinstance(game, Game):
        if method == "structured":
            raise OptionsError(f"{game.name}: a built tree runs on --method tree")
        return None
    if method == "tree":
        return None
    if method == "auto":
        if algorithm not in VECTOR_ALGORITHMS:
            return None
        # a spot's auto route is the structured one: not built twice to find it out
        if not is_spot_file(game) and choose_route(game, "auto", force=True).structured is None:
            return None
    elif algorithm not in VECTOR_ALGORITHMS:
        raise OptionsError(
            f"{algorithm} runs on the game tree only; --method structured runs "
            f"{', '.join(VECTOR_ALGORITHMS)}"
        )
    return choose_route(  # refuses what won't fit
        game, "structured", force=force, lp=False, suit_isomorphism=suit_isomorphism
    )


def iterate_structured(
    route: Route,
    algorithm: str,
    stopping: Stopping,
    on_sample: OnSample | None,
    wanted: bool,
    progress: Callable[[str], None] | None,
    force: bool,
    locks: list[Lock] | None = None,
    suit_isomorphism: bool = True,
) -> IterativeRun:
    """Vector CFR on the public tree × hands (:mod:`seqform.structured.vector_cfr`), on
    canonical boards where the game allows it (module docstring), measured and compared
    with the structured LP, all without the tree; a spot's report from the average
    strategies.  Locks are resolved against the public tree (a spot's hands by the route)
    and kept by the numpy engine."""
    game = route.structured
    assert game is not None  # a structured route
    require_reachable_target(stopping, float(payoff_range(game)), game.name)
    resolved = None if locks is None else resolve_for(game, route, locks)
    fixed = None if resolved is None else resolved.fixed
    boards = canonical_boards(game) if suit_isomorphism and locks is None else None
    sizes = None
    measured = _Measured(game)
    if boards is None:
        kept = measured if fixed is None else None  # with locks the run keeps its bounds
        by_run = None if kept is None else kept.of_run
        result = vector_cfr(
            game, algorithm, stopping, on_sample, fixed, measure=kept, measure_run=by_run
        )
    else:
        result = _lifted(canonical_vector_cfr(boards, algorithm, stopping, on_sample))
        sizes = canonical_sizes(boards)
    bounds = None if resolved is None else resolved.bounds()
    run = _Finished(game, route, result, stopping, resolved, sizes)
    cut = IterativeRun(
        game,  # type: ignore[arg-type]
        result,
        stopping,
        None,
        None,
        LpReference(NOT_MEASURED, status="interrupted"),
        CUT_SHORT,
        locks=resolved,
        suit_reduction=sizes,
    )
    return kept_measured(
        lambda: run.measured(measured.certify(result, bounds), wanted, progress, force),
        cut,
    )


@dataclass(frozen=True)
class _Finished:
    """A finished vector CFR run, before its measurements."""

    game: StructuredGame
    route: Route
    result: IterativeResult
    stopping: Stopping
    resolved: ResolvedLocks | None
    sizes: ReductionSizes | None

    def measured(
        self,
        certificate: Certificate,
        wanted: bool,
        progress: Callable[[str], None] | None,
        force: bool,
    ) -> IterativeRun:
        """The run with its ``certificate``, the LP beside it (if ``wanted``) and a spot's
        report."""
        game, result, resolved = self.game, self.result, self.resolved
        value = float(certificate.value)
        if not wanted:
            lp = LpReference("not asked (--no-reference)")
        elif result.stopped == "interrupted":
            lp = LpReference("interrupted before the LP reference")
        else:
            strategies = result.strategies
            lp = kept_reference(
                lambda: structured_reference(game, strategies, value, progress, force, resolved)
            )
        spot = None
        if self.route.spot is not None:
            from seqform.holdem import spot_report

            nash_conv = float(certificate.nash_conv)
            first, second = result.strategies
            spot = spot_report(game, self.route.spot, value, nash_conv, (first, second))
        return IterativeRun(
            game,  # type: ignore[arg-type]
            result,
            self.stopping,
            two_player_profile(certificate),
            certificate,
            lp,
            spot=spot,
            locks=resolved,
            suit_reduction=self.sizes,
        )


class _Measured:
    """The run's NashConv by the structured certificate (unlocked), keeping the last
    certificate and what it measured: the run measures its average after the last
    iteration, and the report's certificate of that same average is then that one, not a
    second pass over the game (on a full-range turn, 1.5 CPU s each).  A compiled run
    measures its average from its own arrays (:meth:`of_run`), kept with the iteration it
    measured; a profile measured as strategies (a last iterate, the numpy engine) is kept
    with its strategies."""

    def __init__(self, game: StructuredGame) -> None:
        self.game = game
        self.last: tuple[tuple[BehaviouralStrategy, ...], Certificate] | None = None
        self.last_run: tuple[int, Certificate] | None = None

    def __call__(self, strategies: tuple[BehaviouralStrategy, ...]) -> float:
        certificate = structured_certify(self.game, strategies[0], strategies[1])
        self.last = (strategies, certificate)
        return float(certificate.nash_conv)

    def of_run(self, run: CompiledRegrets) -> float:
        """NashConv of a compiled run's average as it stands, from the run's arrays
        (:func:`~seqform.structured.responses.certify_run`), kept with its iteration."""
        certificate = certify_run(run, float(payoff_range(self.game)))
        self.last_run = (run.iteration, certificate)
        return float(certificate.nash_conv)

    def certify(
        self,
        result: IterativeResult,
        bounds: tuple[Mapping[int, LocalBounds], Mapping[int, LocalBounds]] | None,
    ) -> Certificate:
        """The certificate of ``result``'s average strategies (best responses within
        ``bounds``): the kept one where it is theirs and nothing is locked, else certified
        now."""
        strategies = result.strategies
        kept = None
        if bounds is None:
            kept = self.of(strategies)
            if kept is None and self.last_run is not None and _measured_last(result):
                iteration, certificate = self.last_run
                kept = certificate if iteration == result.iterations else None
        if kept is not None:
            return kept
        return structured_certify(self.game, strategies[0], strategies[1], bounds)

    def of(self, strategies: tuple[BehaviouralStrategy, ...]) -> Certificate | None:
        """The kept certificate where ``strategies`` equal its profile bit for bit, else None."""
        if self.last is None:
            return None
        kept, certificate = self.last
        same = all(
            a.table is b.table
            and a.exact == b.exact
            and np.array_equal(a.probabilities, b.probabilities)
            and np.array_equal(a.unreached, b.unreached)
            for a, b in zip(kept, strategies, strict=True)
        )
        return certificate if same else None


def _measured_last(result: IterativeResult) -> bool:
    """Whether the run's last sample measured its average after its last iteration (the
    strategies it returns: the run's arrays have not changed since)."""
    return bool(result.history) and result.history[-1].iteration == result.iterations


def _lifted(run: CanonicalRun | None) -> IterativeResult:
    """The run on canonical boards with its strategies (and last iterate) lifted to the
    game; its NashConv samples are the lift's already."""
    assert run is not None  # canonical boards were found
    result = run.result
    last = result.last_strategies
    if last is not None:
        last = tuple(lift_behaviour(run.boards, strategy) for strategy in last)
    return replace(result, strategies=run.lifted(), last_strategies=last)
