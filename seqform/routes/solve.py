"""The one entry point: :func:`solve` a game by the route the policy chooses, float or exact.

``solve(game)`` asks :mod:`seqform.routes.policy` for the route (``method="auto"``: the
structured route for a built-in game whose tree would be large, else the tree), checks the
options together and the memory before anything is built, then runs that route's pipeline —
LP → behavioural strategies → certificate by best response, never an unverified answer:

========================  ===========================================  ==========================
route, options            pipeline                                     result
========================  ===========================================  ==========================
tree                      :func:`~seqform.routes.tree.solve_tree`    :class:`Solution`
tree, ``fix``             :mod:`~seqform.routes.restrict`            ``RestrictedSolution``
tree, ``exact``           :mod:`~seqform.routes.exact`               ``ExactSolution``
tree, ``refine``          :mod:`~seqform.routes.refine`              ``RefinedSolution``
normal                    :mod:`~seqform.routes.normal`              ``NormalFormSolution``
structured                :mod:`~seqform.routes.structured`          ``StructuredSolution``
structured, ``exact``     :mod:`~seqform.routes.structured_exact`    ``StructuredExactSolution``
========================  ===========================================  ==========================

Every result has the :class:`~seqform.routes.result.Result` protocol (``value``,
``strategies``, ``certificate``, ``timings``, ``stats``) and says its ``route``.  One entry
point with an ``exact`` flag, as pygambit's solvers take ``rational``.  The command line's
``seqform solve`` calls the same functions (:func:`choose_route`, then :func:`solve_on_route`),
so a Python caller gets the same route, the same refusals and the same answer.

Size: the one entry point documents every option of every route, node locks included
(:func:`solve_locked`); each route's pipeline is in its own module.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeAlias

from seqform.base.arguments import require_count, require_time_limit
from seqform.base.counts import count_product
from seqform.forms.normal_counts import DEFAULT_MAX_ENTRIES, NormalFormTooLargeError
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.io.loader import as_game, check_max_nodes, load_game
from seqform.routes.normal import pointed_refusal, refuse_large_normal_form
from seqform.routes.policy import OptionsError, Route, check_route_options, choose_route
from seqform.routes.tree import Solution, solve_tree

if TYPE_CHECKING:
    from seqform.forms.locks import ResolvedLocks
    from seqform.routes.exact import ExactSolution
    from seqform.routes.locked import LockedSolution
    from seqform.routes.refine import RefinedSolution
    from seqform.routes.structured import StructuredSolution
    from seqform.routes.structured_exact import StructuredExactSolution

__all__ = [
    "AnySolution",
    "Solution",
    "solve",
    "solve_locked",
    "solve_on_route",
]

AnySolution: TypeAlias = (
    "Solution | StructuredSolution | ExactSolution | StructuredExactSolution | RefinedSolution"
    " | LockedSolution"
)
r"""What :func:`solve` returns: one of the results of the module docstring's table, each
with the :class:`~seqform.routes.result.Result` protocol and a ``route`` (the tree's
normal-form and restricted results are :class:`Solution`\ s).  Their modules are imported
when their route runs, so ``import seqform`` stays light."""

GameLike = Game | StructuredGame | str | os.PathLike[str]


def _bounds(fix: Any) -> Any:
    """``fix`` as :class:`~seqform.routes.restrict.ActionBound`\\ s (strings are read as
    ``--fix`` specs, ``"K:b=1"``), or the :class:`Restrictions` given; None for none.

    Raises
    ------
    TypeError
        For anything but those: a spec, an ``ActionBound``, resolved ``Restrictions``, or a
        sequence of specs and ``ActionBound``\\ s (``fix=3``, ``fix=[None]``).
    """
    from seqform.routes.restrict import ActionBound, Restrictions, parse_fix

    if fix is None or isinstance(fix, Restrictions):
        return fix
    if isinstance(fix, str | ActionBound):
        fix = [fix]
    accepted = (
        "fix takes restrictions on behaviour: a spec such as 'K:b=1', an ActionBound, "
        "resolved Restrictions, or a sequence of specs and ActionBounds"
    )
    if isinstance(fix, bytes | Mapping) or not isinstance(fix, Iterable):
        raise TypeError(f"{accepted}; not {type(fix).__name__} {fix!r:.60}")
    bounds = []
    for item in fix:
        if not isinstance(item, str | ActionBound):
            raise TypeError(f"{accepted}; not {type(item).__name__} {item!r:.60} among them")
        bounds.append(parse_fix(item) if isinstance(item, str) else item)
    return bounds or None


def solve(
    game: GameLike,
    *,
    method: str = "auto",
    exact: bool = False,
    refine: bool = False,
    fix: Sequence[Any] | Any = None,
    locks: Sequence[Any] | Any = None,
    solver: str | None = None,
    backend: str = "highs",
    time_limit: float | None = None,
    max_entries: int = DEFAULT_MAX_ENTRIES,
    reduced: bool = False,
    force: bool = False,
    max_nodes: int | None = None,
    verbose: bool = False,
    progress: Callable[[str], None] | None = None,
    form: Any = None,
    suit_isomorphism: bool = True,
    ordered_isomorphism: bool = True,
) -> AnySolution:
    """Solve ``game`` and certify the answer by best response, on the route the policy
    chooses (module docstring).

    Length: the one entry point documents each of its options here; the body is short.

    Parameters
    ----------
    game
        A name (``"kuhn"``, ``"leduc(ranks=13)"``), a path to a ``.efg`` file, a built
        :class:`~seqform.game.model.Game` or a :class:`~seqform.game.public.tree.StructuredGame`.
    method
        ``"auto"`` (default), ``"tree"``, ``"structured"`` or ``"normal"``
        (:mod:`seqform.routes.policy`).
    exact
        Exact rational strategies and value, certified in exact arithmetic (tree or
        structured route).
    refine
        A quasi-perfect equilibrium (tree route).
    fix
        Restrictions on behaviour (tree route): ``"K:b=1"``-style specs, ``ActionBound``\\ s
        or resolved ``Restrictions``.
    locks
        Node locks (tree and structured routes, :mod:`seqform.routes.locked`): strings in
        the ``--lock`` notation (``"IP@x: b5=0.5,x=0.5; hands=AA,KK"``,
        :mod:`seqform.io.lock_files`) or :class:`~seqform.forms.locks.Lock`\\ s.  The game
        is solved with and without them and a
        :class:`~seqform.routes.locked.LockedSolution` returned: the locked solution, the
        unlocked one, each player's EV change and the strategy changes.
    solver
        ``"simplex"``, ``"ipm"``, ``"pdlp"`` (HiGHS) or ``"clarabel"`` (structured route);
        None: simplex on the tree, the structured route's choice there.
    backend
        ``"highs"`` or ``"cvxpy"`` (tree and normal routes).
    time_limit, verbose
        For the LP solver.
    max_entries, reduced
        The normal form's size limit, and whether to solve the reduced normal form; refused
        on the other routes (:func:`~seqform.routes.options.check_normal_form_options`).
    force
        Build and solve past the memory estimate, and a hold'em spot's LP past its size
        limit (:mod:`seqform.holdem.lp_work`).
    max_nodes
        For ``openspiel:`` games, the most histories to convert; refused with any other
        game (:func:`~seqform.io.loader.check_max_nodes`).
    progress
        Called with a short message as each stage starts.
    form
        The game's sequence form, if already built (tree and normal routes).
    suit_isomorphism
        Structured route, float: solve the smaller LP on canonical boards and hand classes
        when the game is invariant under suit permutations (leduc), then certify the lifted
        answer on the game (:mod:`seqform.structured.reductions.suit_reduction`); False solves the
        full LP, and is refused on the other routes, which have no reduction to turn off
        (:func:`~seqform.routes.options.check_reductions`, as ``ordered_isomorphism=False``).
        The exact structured route always solves the full LP.
    ordered_isomorphism
        With ``suit_isomorphism``: merge the hand classes further by the ordered game
        isomorphism where it applies (games of one-card hands such as leduc and
        rhode_island, :mod:`seqform.structured.reductions.ordered_isomorphism`), also lossless and
        certified on the game; False stays at the suit classes.

    Raises
    ------
    OptionsError
        For options that cannot run together (a ``ValueError``; exit 2 on the command line).
    LockError
        For a lock that does not fit the game (a ``ValueError``, naming the lock; exit 2).
    MemoryRefusedError
        When the route would not fit in memory (unless ``force``).
    LPWorkRefusedError
        When a hold'em spot's LP would not finish in minutes (a turn; unless ``force``): the
        message points to vector CFR.
    NormalFormTooLargeError
        When the normal form exceeds ``max_entries`` (the message points to the sequence form).
    seqform.lp.solvers.SolverError
        If the LP solver does not prove optimality (``SolverLimitError`` at the time limit).
    """
    time_limit = require_time_limit("time_limit", time_limit)
    max_entries = require_count("max_entries", max_entries, minimum=1)
    if max_nodes is not None:
        max_nodes = require_count("max_nodes", max_nodes, minimum=1)
        check_max_nodes(game, max_nodes)
    bounds = _bounds(fix)
    route = choose_route(
        game,
        method,
        solver=solver,
        backend=backend,
        exact=exact,
        refine=refine,
        fix=bounds is not None,
        lock=locks is not None,
        force=force,
        suit_isomorphism=suit_isomorphism and locks is None,
    )
    check_route_options(
        route,
        suit_isomorphism=suit_isomorphism,
        ordered_isomorphism=ordered_isomorphism,
        max_entries_given=max_entries != DEFAULT_MAX_ENTRIES,
        reduced=reduced,
    )
    loaded: Game | StructuredGame | None = None
    if locks is not None:
        from seqform.routes.locked import as_locks, check_locked_route

        locks = as_locks(locks)
        check_locked_route(route, exact=exact, refine=refine, backend=backend)
    if route.method == "normal":  # a built-in game's matrix counted before its tree
        refuse_large_normal_form(game, reduced=reduced, max_entries=max_entries)
    if route.structured is None:
        loaded = _tree(game, max_nodes)
    if locks is not None:
        return solve_locked(
            route.structured or loaded,  # type: ignore[arg-type]
            route,
            locks,
            exact=exact,
            fix=bounds,
            time_limit=time_limit,
            verbose=verbose,
            progress=progress,
            form=form,
        )
    return solve_on_route(
        route.structured or loaded,  # type: ignore[arg-type]
        route,
        exact=exact,
        refine=refine,
        fix=bounds,
        backend=backend,
        time_limit=time_limit,
        max_entries=max_entries,
        reduced=reduced,
        verbose=verbose,
        progress=progress,
        form=form,
        suit_isomorphism=suit_isomorphism,
        ordered_isomorphism=ordered_isomorphism,
    )


def _tree(game: GameLike, max_nodes: int | None) -> Game:
    if isinstance(game, StructuredGame):
        raise OptionsError(f"{game.name}: a structured game is solved on the structured route")
    if isinstance(game, str):
        return load_game(game, max_nodes=max_nodes)
    return as_game(game, "solve")


def solve_locked(
    game: Game | StructuredGame,
    route: Route,
    locks: Sequence[Any],
    *,
    exact: bool = False,
    fix: Any = None,
    time_limit: float | None = None,
    verbose: bool = False,
    progress: Callable[[str], None] | None = None,
    form: Any = None,
) -> LockedSolution:
    """Solve ``game`` on ``route`` without and with ``locks`` (``Lock``\\ s, checked by
    :func:`~seqform.routes.locked.check_locked_route`) and compare the two
    (:mod:`seqform.routes.locked`).

    Raises
    ------
    LockError
        For a lock that does not fit the game, or a ``fix`` bound that excludes a lock's
        probability, before anything is solved.
    """
    from seqform.routes.locked import compare_locked, refuse_conflicting_bounds, resolve_for

    resolved = resolve_for(game, route, locks)
    if fix is not None and isinstance(game, Game):
        refuse_conflicting_bounds(game, fix, resolved)
    options: dict[str, Any] = {
        "exact": exact,
        "fix": fix,
        "time_limit": time_limit,
        "verbose": verbose,
        "progress": progress,
        "form": form,
    }
    _say(progress, "solving without the locks")
    unlocked = solve_on_route(game, route, **options)
    count = f"{resolved.count:,} information set{'' if resolved.count == 1 else 's'}"
    _say(progress, f"solving with the locks ({count} locked)")
    locked = solve_on_route(game, route, locks=resolved, **options)
    pot = route.spot.pot if route.spot is not None else None
    return compare_locked(unlocked, locked, resolved, pot)


def solve_on_route(
    game: Game | StructuredGame,
    route: Route,
    *,
    exact: bool = False,
    refine: bool = False,
    fix: Any = None,
    locks: ResolvedLocks | None = None,
    backend: str = "highs",
    time_limit: float | None = None,
    max_entries: int = DEFAULT_MAX_ENTRIES,
    reduced: bool = False,
    verbose: bool = False,
    progress: Callable[[str], None] | None = None,
    form: Any = None,
    suit_isomorphism: bool = True,
    ordered_isomorphism: bool = True,
) -> AnySolution:
    """Run the pipeline of ``route`` (from :func:`~seqform.routes.policy.choose_route`) on
    ``game``: its structured description on the structured route, else its tree.  The
    options are those :func:`solve` checked when choosing the route; ``locks``, resolved
    against the game, are solved as the locked game alone (:func:`solve_locked` compares)."""
    if isinstance(game, StructuredGame):
        reductions = (suit_isomorphism, ordered_isomorphism)
        return _structured(game, route, exact, time_limit, verbose, progress, reductions, locks)
    if locks is not None:
        from seqform.routes.locked import lock_bounds

        fix = [*(fix.bounds if _resolved(fix) else fix or ()), *lock_bounds(game, locks)]
    solver = route.solver or "simplex"
    if route.method == "normal":
        return _normal(game, solver, backend, time_limit, max_entries, reduced, verbose, form)
    if refine:
        from seqform.routes.refine import refine as refined

        _say(progress, "refining: a quasi-perfect equilibrium by the perturbed LPs")
        return refined(game, form=form, solver=solver, time_limit=time_limit)
    if exact:
        from seqform.routes.exact import solve_exact

        _say(progress, "solving exactly: the float LP, then the rational re-solve of its basis")
        return solve_exact(game, restrictions=fix, form=form, solver=solver, time_limit=time_limit)
    if fix is not None:
        _say(progress, "solving the restricted LP")
        return _restricted(game, fix, solver, time_limit, form)
    return solve_tree(
        game,
        backend=backend,  # type: ignore[arg-type]
        solver=solver,  # type: ignore[arg-type]
        time_limit=time_limit,
        verbose=verbose,
        progress=progress,
        form=form,
    )


def _resolved(fix: Any) -> bool:
    from seqform.routes.restrict import Restrictions

    return isinstance(fix, Restrictions)


def _say(progress: Callable[[str], None] | None, stage: str) -> None:
    """Tell ``progress`` (if any) the stage that begins."""
    if progress is not None:
        progress(stage)


def _structured(
    game: StructuredGame,
    route: Route,
    exact: bool,
    time_limit: float | None,
    verbose: bool,
    progress: Callable[[str], None] | None,
    reductions: tuple[bool, bool] = (True, True),
    locks: ResolvedLocks | None = None,
) -> AnySolution:
    """The structured route; ``reductions`` are :func:`solve`'s ``suit_isomorphism`` and
    ``ordered_isomorphism``."""
    if exact:
        from seqform.routes.structured_exact import solve_structured_exact

        _say(progress, "solving exactly: the structured LP, then the rational re-solve")
        return solve_structured_exact(
            game, solver=route.solver or "simplex", time_limit=time_limit, progress=progress
        )
    from seqform.routes.structured import solve_structured

    solution = solve_structured(
        game,
        solver=route.solver,  # type: ignore[arg-type]
        time_limit=time_limit,
        verbose=verbose,
        progress=progress,
        suit_isomorphism=reductions[0],
        locks=locks,
        ordered_isomorphism=reductions[1],
    )
    if route.spot is None:
        return solution
    from seqform.holdem import spot_report

    value, nash_conv = float(solution.value), float(solution.nash_conv)
    report = spot_report(game, route.spot, value, nash_conv, solution.strategies)
    return replace(solution, spot=report)


def _restricted(
    game: Game, fix: Any, solver: str, time_limit: float | None, form: Any
) -> AnySolution:
    from seqform.forms.provenance import sequence_form_of
    from seqform.routes.restrict import Restrictions, resolve_restrictions, solve_restricted

    built = sequence_form_of(game, form)
    restrictions = fix if isinstance(fix, Restrictions) else resolve_restrictions(built, fix)
    return solve_restricted(game, restrictions, form=built, solver=solver, time_limit=time_limit)


def _normal(
    game: Game,
    solver: str,
    backend: str,
    time_limit: float | None,
    max_entries: int,
    reduced: bool,
    verbose: bool,
    form: Any,
) -> AnySolution:
    """The normal-form route; a matrix too large points to the sequence form."""
    from seqform.forms.normal_counts import strategy_counts
    from seqform.forms.provenance import sequence_form_of
    from seqform.routes.normal import solve_normal_form

    built = sequence_form_of(game, form)
    try:
        return solve_normal_form(
            game,
            reduced=reduced,
            max_entries=max_entries,
            backend=backend,  # type: ignore[arg-type]
            solver=solver,  # type: ignore[arg-type]
            time_limit=time_limit,
            verbose=verbose,
            form=built,
        )
    except NormalFormTooLargeError as exc:
        rows, columns = strategy_counts(built).shape(reduced)
        raise pointed_refusal(game.name, exc, count_product(rows, columns), max_entries) from exc
