"""Solve a card abstraction of a structured game and measure its answer in the full game.

``abstract(game, card_buckets=(3, 9))``: buckets per round
(:mod:`seqform.abstraction.buckets`) → the abstract game's sequence-form LP
(:mod:`seqform.abstraction.abstract_game`; both players abstracted alike, the standard
experiment) → its equilibrium, certified *in the abstract game* by best response (an
equilibrium there: exploitability 0 up to the LP's tolerance) → the strategies lifted to the
full game → certified *in the full game* by the structured best response
(:func:`seqform.structured.responses.certify`).  The full game's exploitability of the lifted
strategies is the measure of an abstraction of Johanson, Burch, Valenzano and Bowling
(AAMAS 2013); it need not fall as buckets grow (Waugh et al., AAMAS 2009: abstraction
pathologies).

Clarabel's "AlmostSolved".  The abstract LP's point is taken also when Clarabel stops
"AlmostSolved" (its reduced tolerances met, not the full ones), as the structured route takes
it (:func:`seqform.routes.structured._lp_stages`), and the certificate in the abstract game
judges it: within the equilibrium tolerance of the payoff range
(:func:`seqform.certify.is_certified`) the answer stands; beyond it the point is polished on
its active set (:func:`seqform.lp.polish.polished_points`, the repair of a near miss the
structured route makes), and the first polished point certified stands; without one the
solve is refused.
Refusing every such point stopped the Rhode Island ladder's larger rungs, whose tolerance is
out of float's reach while the point is an equilibrium.

Suit isomorphism.  ``abstract(game, card_buckets, suit_isomorphism=True)`` builds the
abstraction on the game on canonical boards ``G'`` (one deal path per suit-orbit,
:mod:`seqform.structured.reductions.suit_classes`) with buckets that are unions of hand
classes (:mod:`seqform.abstraction.buckets`, "Suit isomorphism"): the abstract game is the
game's abstract game restricted to suit-symmetric plans, with the same value, at a fraction
of its size (the 52-card Rhode Island hold'em: 160,171 public sequences a player instead of
1,303,131, an eighth: a two-card deal path's suit-orbit has 4 or 12 members, not 24).  Its
strategies are lifted to ``G'`` (the same on each hand class) and certified there on hand classes
(:func:`~seqform.structured.reductions.suit_classes.certify_on_classes`), which gives the
certificate of their lift to the game at ``G'``'s size: what lets the 52-card Rhode Island
hold'em be measured at all.  A game with no suit symmetry is abstracted as it is.

Memory.  Before anything is built, the abstraction's size is counted
(:mod:`seqform.abstraction.sizes`: Rhode Island hold'em by formula from its parameters,
before its description is built; any other game on its public tree, before the buckets)
and refused, with its estimate (:func:`~seqform.routes.sizing.memory.abstraction_estimate`),
beyond what the process may have, unless ``force``: the 52-card Rhode Island hold'em with
3,6,12 buckets peaked at 9.5 GB with no word before.

Units.  Exploitability is in the game's chips (Leduc: antes of 1 chip); reports and
documents give it per thousand in the unit of :func:`seqform.holdem.report_unit` (mbb/g).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from seqform.abstraction.abstract_game import AbstractGame, abstract_game, lift
from seqform.abstraction.buckets import CardAbstraction, card_abstraction
from seqform.abstraction.features import FEATURES
from seqform.abstraction.rounds import CardBucketsError, parse_card_buckets, read_card_buckets
from seqform.abstraction.sizes import (
    AbstractionSize,
    counted_size,
    planned_size,
    refuse_beyond_memory,
)
from seqform.certify import EQUILIBRIUM_TOLERANCE, Certificate, is_certified, respond
from seqform.forms.strategies import (
    REACH_TOLERANCE,
    BehaviouralStrategy,
    behaviour_from_plan,
    plan_from_behaviour,
)
from seqform.game.builtin.registry import STRUCTURED_GAMES, parse_game_spec
from seqform.game.errors import UnknownGameError
from seqform.game.public.tree import StructuredGame
from seqform.lp.minmax import minmax_problem
from seqform.lp.polish import polished_points
from seqform.lp.run import run_lp
from seqform.lp.solvers import SolverError, SolverStats
from seqform.routes.policy import choose_route
from seqform.routes.result import PhaseClock, Timings
from seqform.routes.structured import INTERIOR_REACH_TOLERANCE
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    canonical_boards,
    certify_on_classes,
    lift_behaviour,
)
from seqform.structured.responses import certify, payoff_range

__all__ = ["ABSTRACT_SOLVERS", "CLARABEL_TOLERANCE", "AbstractionResult", "abstract"]

ABSTRACT_SOLVERS = ("clarabel", "simplex", "ipm")
"""The abstract LP's solvers.  Clarabel (default) is the fastest by far: on Leduc 13 × 4 with
3, 9 buckets (16,402 sequences a player) it took 4 s where HiGHS's simplex took 136 s and
its interior point 83 s (one run on the development machine)."""

CLARABEL_TOLERANCE = 1e-12
"""Clarabel's gap and feasibility tolerance on the abstract LP, as the structured route's
below 10^5 columns (:func:`seqform.structured.lp_solve.clarabel_tolerance`)."""


@dataclass(frozen=True)
class AbstractionResult:
    """A card abstraction solved, its strategies lifted and measured in the full game (a
    :class:`~seqform.routes.result.Result`: ``value``, ``strategies``, ``certificate``,
    ``timings``, ``stats``).

    game : the full structured game
    abstraction : the buckets of each hand at each deal path
    abstract : the abstract game's sequence form and maps
    value : the abstract game's value to player 0 (the LP optimum), in the game's chips
    abstract_strategies : the abstract game's equilibrium (information set = bucket and
        public node, named ``b<bucket>`` + public history)
    abstract_certificate : that equilibrium's certificate in the abstract game (NashConv 0
        up to the LP's tolerance)
    strategies : the abstract strategies lifted to the full game (every hand plays its
        bucket's behaviour); with ``boards``, to ``G'`` (the same on each hand class;
        :meth:`game_strategies` lifts them on to the game)
    certificate : the lifted strategies' certificate in the full game: its exploitability is
        the abstraction's (Johanson et al. 2013); with ``boards``, taken on hand classes of
        ``G'`` (module docstring, "Suit isomorphism")
    stats : what the LP solver did; timings : seconds per phase
    boards : the game on canonical boards the abstraction was built on, or None (built on
        the game itself)
    """

    game: StructuredGame
    abstraction: CardAbstraction
    abstract: AbstractGame
    value: float
    abstract_strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    abstract_certificate: Certificate
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    certificate: Certificate
    stats: SolverStats
    timings: Timings
    boards: CanonicalBoards | None = None

    @property
    def route(self) -> str:
        """``"abstraction"``: the card abstraction's pipeline."""
        return "abstraction"

    @property
    def exploitability(self) -> float:
        """NashConv / 2 of the lifted strategies in the full game, in chips per game."""
        return float(self.certificate.exploitability)

    @property
    def nash_conv(self) -> float:
        """NashConv of the lifted strategies in the full game."""
        return float(self.certificate.nash_conv)

    def game_strategies(self) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
        """The lifted strategies on the game's own tables (:attr:`strategies` lifted from
        ``G'`` when the abstraction was built there; a table of the whole game, so for the
        52-card Rhode Island hold'em gigabytes)."""
        if self.boards is None:
            return self.strategies
        boards = self.boards
        return lift_behaviour(boards, self.strategies[0]), lift_behaviour(
            boards, self.strategies[1]
        )

    @property
    def abstract_exploitability(self) -> float:
        """NashConv / 2 of the abstract equilibrium in the abstract game (about 0)."""
        return float(self.abstract_certificate.exploitability)


def abstract(
    game: StructuredGame | str | os.PathLike[str],
    card_buckets: str | Sequence[int],
    *,
    features: str = "ehs",
    solver: str = "clarabel",
    time_limit: float | None = None,
    progress: Callable[[str], None] | None = None,
    suit_isomorphism: bool = False,
    verbose: bool = False,
    force: bool = False,
) -> AbstractionResult:
    """Solve the card abstraction of ``game`` with ``card_buckets`` buckets per round and
    measure its strategies in the full game (module docstring).

    Length: the entry point documents each of its options, and times each stage.

    Parameters
    ----------
    game
        A structured game, or its name or spot file as :func:`seqform.solve` takes them
        (``"leduc(ranks=13, suits=4)"``, ``"kuhn(cards=13)"``, ``"river.toml"``).
    card_buckets
        One bucket count per betting round, ``"3,9"`` or ``(3, 9)``; counts never decrease
        (each round's buckets split the previous round's) and never pass the hands.
    features
        What hands are clustered by: ``"ehs"`` (expected hand strength, default), ``"ehs2"``
        (its square's expectation) or ``"histogram"`` (hand-strength histograms)
        (:mod:`seqform.abstraction.features`).
    solver
        ``"clarabel"`` (default), or HiGHS's ``"simplex"`` or ``"ipm"`` (with crossover),
        for the abstract LP (:data:`ABSTRACT_SOLVERS`).
    time_limit
        Seconds for the LP solver.
    progress
        Called with a short message as each stage starts.
    suit_isomorphism
        Build the abstraction on canonical boards, its buckets unions of hand classes, and
        certify it on hand classes (module docstring, "Suit isomorphism"); a game invariant
        under no suit permutation is abstracted as it is (the result's ``boards`` is None).
    verbose
        Let the LP solver write its log (the command line's ``--verbose``).
    force
        Go on past the memory estimate (the command line's ``--force``; module docstring,
        "Memory").

    Raises
    ------
    CardBucketsError
        For a bad ``card_buckets`` (an ``OptionsError``: exit 2 on the command line), unknown
        ``features`` or ``solver``, or a game that is not structured (a ``.efg`` file, a
        built tree, a game without a public tree × private hands description).
    seqform.routes.sizing.memory.MemoryRefusedError
        Unless ``force``, when the estimate exceeds what the process may have, before
        anything is built (Rhode Island hold'em) or before the buckets are made.
    seqform.lp.solvers.SolverError
        If the LP solver does not prove optimality.
    """
    planned = None if force else _planned_size(game, card_buckets, suit_isomorphism)
    if planned is not None:  # from the parameters: before the game's description is built
        refuse_beyond_memory(planned, str(game))
    game = _structured_game(game)
    if features not in FEATURES:
        raise CardBucketsError(f"unknown features {features!r}; choose from {', '.join(FEATURES)}")
    if solver not in ABSTRACT_SOLVERS:
        raise CardBucketsError(
            f"the abstract LP is solved with {', '.join(ABSTRACT_SOLVERS)}, not {solver!r}"
        )
    clock = PhaseClock(progress)
    boards = None
    if suit_isomorphism:
        with clock.phase("canonical", "the game on canonical boards", stage="sequence_form"):
            boards = canonical_boards(game)
    played = game if boards is None else boards.canonical  # the game the abstraction is of
    counts = parse_card_buckets(card_buckets, played)
    if not force and planned is None:
        refuse_beyond_memory(counted_size(played, counts), game.name)
    with clock.phase(
        "buckets", f"card buckets {counts} by {features} (k-means)", stage="sequence_form"
    ):
        abstraction = card_abstraction(game, counts, features, boards)
    with clock.phase("abstract_game", "the abstract game's sequence form", stage="sequence_form"):
        built = abstract_game(played, abstraction)
    sizes = " + ".join(f"{t.num_sequences:,}" for t in built.tables)
    problem = minmax_problem(built.E, built.e, built.F, built.f, built.A)
    with clock.phase("lp", f"solving the abstract LP with {solver}: {sizes} sequences"):
        solution = run_lp(
            problem,
            solver=solver,
            time_limit=time_limit,
            verbose=verbose,
            tolerance=CLARABEL_TOLERANCE if solver == "clarabel" else None,
            almost=True,
        )
    tol = INTERIOR_REACH_TOLERANCE if solver == "clarabel" else REACH_TOLERANCE

    def strategies(x: np.ndarray, y: np.ndarray) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
        return (
            behaviour_from_plan(built.tables[0], x, tol=tol),
            behaviour_from_plan(built.tables[1], y, tol=tol),
        )

    with clock.phase("behaviour", "abstract strategies"):
        found = strategies(solution.x, solution.y)
    with clock.phase("certificate", "best responses in the abstract game"):
        inside = _abstract_certificate(game, built, found)
    if solver == "clarabel" and not is_certified(inside):  # a near miss, as the route polishes
        message = "polishing the abstract LP's answer on its active set"
        with clock.phase("repair", message, stage="lp"):
            for polished in polished_points(problem, solution):
                again = strategies(polished.x, polished.y)
                measured = _abstract_certificate(game, built, again)
                if is_certified(measured):
                    solution, found, inside = polished, again, measured
                    break
    _refuse_uncertified_almost(solution.stats, inside)
    with clock.phase("lift", "the strategies lifted to the full game", stage="behaviour"):
        lifted = (lift(played, built, found[0]), lift(played, built, found[1]))
    with clock.phase("full_certificate", "best responses in the full game", stage="certificate"):
        outside = (  # on hand classes: the lift's certificate on the game, at G''s size
            certify(game, *lifted) if boards is None else certify_on_classes(boards, *lifted)
        )
    return AbstractionResult(
        game=game,
        abstraction=abstraction,
        abstract=built,
        value=float(solution.value) / built.scale,
        abstract_strategies=found,
        abstract_certificate=inside,
        strategies=lifted,
        certificate=outside,
        stats=solution.stats,
        timings=clock.timings(),
        boards=boards,
    )


def _planned_size(
    game: StructuredGame | str | os.PathLike[str],
    card_buckets: str | Sequence[int],
    suit_isomorphism: bool,
) -> AbstractionSize | None:
    """:func:`~seqform.abstraction.sizes.planned_size` of a game named by its spec, its
    counts read but not checked (a bad spec is refused by :func:`parse_card_buckets`)."""
    try:
        counts = read_card_buckets(card_buckets)
    except CardBucketsError:
        return None
    return planned_size(game, counts, suit_isomorphism)


def _structured_game(game: StructuredGame | str | os.PathLike[str]) -> StructuredGame:
    """``game`` as a structured game: a built-in game with a public tree × private hands
    description named by its spec, or a hold'em spot file; anything else (a ``.efg`` file, a
    built tree, ``kuhn3``) is refused, saying what card abstraction takes."""
    if isinstance(game, StructuredGame):
        return game
    if isinstance(game, str | os.PathLike):
        text = os.fspath(game)
        name = None
        if not text.lower().endswith(".toml"):
            try:
                name = parse_game_spec(text)[0]
            except UnknownGameError:  # not a name: a path
                name = None
        if text.lower().endswith(".toml") or name in STRUCTURED_GAMES:
            structured = choose_route(game, "structured", force=True).structured
            assert structured is not None  # the structured route's game, or raised
            return structured
        shown = f"the file {text!r}" if name is None or os.path.exists(text) else repr(text)
    else:
        shown = f"a built {type(game).__name__}"
    raise CardBucketsError(
        "card abstraction needs a structured game (public tree × private hands): one of the "
        f"built-in {', '.join(sorted(STRUCTURED_GAMES))} by name (e.g. leduc(ranks=13, "
        f"suits=4), kuhn(cards=13)) or a hold'em spot file (.toml), not {shown}"
    )


def _refuse_uncertified_almost(stats: SolverStats, inside: Certificate) -> None:
    """Raise when Clarabel stopped "AlmostSolved" at a point its certificate in the abstract
    game does not certify (module docstring); a solved LP's point is never refused here."""
    if stats.status != "almost solved" or is_certified(inside):
        return
    raise SolverError(
        "Clarabel stopped AlmostSolved on the abstract LP at a point that is not an "
        f"equilibrium of the abstract game: exploitability {float(inside.exploitability):.3g}, "
        f"{float(inside.relative_exploitability):.3g} of the payoff range > "
        f"{EQUILIBRIUM_TOLERANCE:g}; solve it with the simplex (--solver simplex)"
    )


def _abstract_certificate(
    game: StructuredGame,
    built: AbstractGame,
    profile: tuple[BehaviouralStrategy, BehaviouralStrategy],
) -> Certificate:
    """The profile's certificate in the abstract game: best responses by the one backward
    induction (:func:`seqform.certify.respond`) on ``Ā ȳ`` and ``−Āᵀ x̄``, unscaled."""
    x, y = plan_from_behaviour(profile[0]), plan_from_behaviour(profile[1])
    to_first = np.asarray(built.A @ y) / built.scale
    to_second = -np.asarray(built.A.T @ x) / built.scale
    best_first = respond(built.tables[0], to_first).value
    best_second = respond(built.tables[1], to_second).value
    return Certificate.from_best_responses(
        float(x @ to_first), float(best_first), float(best_second), float(payoff_range(game))
    )
