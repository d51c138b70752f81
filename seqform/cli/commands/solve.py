"""``seqform solve GAME``: parse, ask the library, render.

The route (``--method auto|tree|structured|normal``), the checks of the options together
and the memory refusal are the library's (:func:`seqform.routes.policy.choose_route`); the
pipeline of the route is :func:`seqform.routes.solve.solve_on_route`, as for
``seqform.solve(...)`` from Python.  This module adds only what a command line needs:
progress on stderr, the text or JSON report, and the exit code of the certificate.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from seqform.base.limits import LIMITS
from seqform.base.numbers import decimal_text, scaled_text, value_text
from seqform.cli.errors import EXIT_USAGE, CommandError, certified_exit, refuse_unused
from seqform.cli.hands import hand_text, hands_in_spot_file
from seqform.cli.output import built_for, emit
from seqform.cli.progress import (
    LARGE_GAME_NODES,
    Progress,
    load_reporting,
    logger,
    solver_log_to_stderr,
)
from seqform.documents.layout.blocks import uncertified_reason
from seqform.routes.normal import refuse_large_normal_form
from seqform.routes.policy import AUTO_TREE_NODES, Route, check_route_options, choose_route
from seqform.routes.solve import solve_on_route

if TYPE_CHECKING:
    from seqform.documents.exact import AnyExactSolution


__all__ = ["AUTO_TREE_NODES", "run"]


def _bounds(args: argparse.Namespace) -> list[Any] | None:
    """The ``--fix`` and ``--fix-file`` bounds, in order; None for none."""
    from seqform.routes.restrict import load_fix_file, parse_fix

    try:
        bounds = [parse_fix(spec) for spec in args.fix]
    except ValueError as exc:  # the option's own text is unreadable: a usage error
        raise CommandError(str(exc), EXIT_USAGE) from None
    if args.fix_file:
        bounds += load_fix_file(args.fix_file)
    return bounds or None


def read_locks(args: argparse.Namespace) -> list[Any] | None:
    """The ``--lock`` and ``--lock-file`` locks, in order; None for none (a lock that
    cannot be read is a usage error: :class:`~seqform.forms.locks.LockError`)."""
    from seqform.io.lock_files import parse_lock, read_lock_file

    locks = [parse_lock(spec) for spec in args.lock]
    if args.lock_file:
        locks += read_lock_file(args.lock_file)
    return locks or None


def run(args: argparse.Namespace) -> int:
    """Solve ``args.game`` on the route the library chooses and report it."""
    if args.card_buckets is not None or args.features is not None:
        return _abstracted(args)
    bounds = _bounds(args) if not args.refine else None
    locks = read_locks(args)
    hands = _chosen_hands(args)
    route = _route(args, locks)
    progress = Progress(args)
    if hands and route.structured is None:
        raise CommandError("--hand needs the structured route (a spot's default)", EXIT_USAGE)
    if route.structured is not None:
        game: Any = route.structured
        nodes = route.tree_bound or 0
        _announce_structured(progress, route)
    else:
        if route.method == "normal":  # a built-in game's matrix counted before its tree
            refuse_large_normal_form(args.game, max_entries=args.max_entries)
        game = load_reporting(args.game, progress, max_nodes=args.max_nodes, force=True)
        nodes = game.flat.num_nodes
        if route.method == "normal":
            logger.info(
                "solving the normal-form LP with HiGHS %s via %s", route.solver, args.backend
            )
    _say_started(args, route, nodes)
    try:
        with solver_log_to_stderr(args.verbose):
            if locks is not None:
                locked = _solve_locked(game, route, locks, bounds, progress, args)
                return _report(locked, route, progress, args, hands)
            solution = solve_on_route(
                game,
                route,
                exact=args.exact,
                refine=args.refine,
                fix=bounds,
                backend=args.backend,
                time_limit=args.time_limit,
                max_entries=args.max_entries,
                verbose=args.verbose,
                progress=progress,
                suit_isomorphism=args.suit_isomorphism,
                ordered_isomorphism=args.ordered_isomorphism,
            )
    except ArithmeticError as exc:  # ExactSolveError included
        raise CommandError(f"exact computation failed: {exc}") from exc
    return _report(solution, route, progress, args, hands)


def _route(args: argparse.Namespace, locks: list[Any] | None) -> Route:
    """The library's route for ``args``, with the options that belong to another route and
    the locks the route cannot take refused (usage errors)."""
    route = choose_route(
        args.game,
        args.method,
        solver=args.solver,
        backend=args.backend,
        exact=args.exact,
        refine=args.refine,
        fix=bool(args.fix or args.fix_file),
        lock=locks is not None,
        force=args.force,
        suit_isomorphism=args.suit_isomorphism and locks is None,
    )
    check_route_options(
        route,
        suit_isomorphism=args.suit_isomorphism,
        ordered_isomorphism=args.ordered_isomorphism,
        max_entries_given=args.max_entries != LIMITS.normal_form_entries,
    )
    if locks is not None:
        from seqform.routes.locked import check_locked_route

        check_locked_route(route, exact=args.exact, refine=args.refine, backend=args.backend)
    return route


def _solve_locked(
    game: Any, route: Route, locks: list[Any], bounds: Any, progress: Progress, args: Any
) -> Any:
    """``--lock``: the game solved without and with the locks
    (:func:`seqform.routes.solve.solve_locked`)."""
    from seqform.routes.solve import solve_locked

    return solve_locked(
        game,
        route,
        locks,
        exact=args.exact,
        fix=bounds,
        time_limit=args.time_limit,
        verbose=args.verbose,
        progress=progress,
    )


def _abstracted(args: argparse.Namespace) -> int:
    """``--card-buckets``: the library's card abstraction
    (:func:`seqform.abstraction.solve.abstract`), reported (``--features`` alone is a usage
    error: it belongs to ``--card-buckets``).  It takes ``--features``,
    ``--solver`` (its own: clarabel, simplex, ipm; the library refuses others),
    ``--time-limit``, ``--force`` (past the memory estimate), ``--verbose`` and ``--quiet``,
    and the output options; every other option of ``solve`` is refused
    (:func:`_not_for_card_buckets`), not ignored."""
    from seqform.abstraction.solve import abstract
    from seqform.documents.build import document
    from seqform.documents.text.road.abstraction import abstraction_text

    if args.card_buckets is None:
        raise CommandError("--features belongs to --card-buckets", EXIT_USAGE)
    refuse_unused(
        "--card-buckets",
        _not_for_card_buckets(args),
        "card abstraction solves its own LP on a structured game; it takes --features, "
        "--solver clarabel|simplex|ipm, --time-limit, --force and the output options",
    )
    features = {} if args.features is None else {"features": args.features}
    with solver_log_to_stderr(args.verbose):
        result = abstract(
            args.game,
            args.card_buckets,
            **features,
            solver=args.solver or "clarabel",
            time_limit=args.time_limit,
            progress=Progress(args),
            verbose=args.verbose,
            force=args.force,
        )
    built = built_for(args, lambda: document(result))
    emit(built, lambda: abstraction_text(built), args)
    return 0


def _not_for_card_buckets(args: argparse.Namespace) -> list[str]:
    """The options given (not at their defaults) that ``--card-buckets`` has no use for:
    :func:`~seqform.abstraction.solve.abstract` takes no route, no other LP path, no exact
    or restricted solve, no locks and no suit reduction, and its text report has no
    strategies (its JSON has every one)."""
    given = {
        "--exact": args.exact,
        "--refine": args.refine,
        "--fix": bool(args.fix),
        "--fix-file": args.fix_file is not None,
        "--hand": bool(args.hand),
        "--lock": bool(args.lock),
        "--lock-file": args.lock_file is not None,
        f"--method {args.method}": args.method not in ("auto", "structured"),
        f"--backend {args.backend}": args.backend != "highs",
        "--max-entries": args.max_entries != LIMITS.normal_form_entries,
        "--no-suit-isomorphism": not args.suit_isomorphism,
        "--no-ordered-isomorphism": not args.ordered_isomorphism,
        f"--strategies {args.strategies}": args.strategies != "auto",
    }
    return [option for option, present in given.items() if present]


def _chosen_hands(args: argparse.Namespace) -> tuple[tuple[int, int], ...]:
    """The ``(player, combo)`` pairs of ``--hand``, checked before the solve."""
    return hands_in_spot_file(args.game, args.hand)


def _announce_structured(progress: Progress, route: Route) -> None:
    nodes = route.tree_bound or 0
    progress.large = nodes >= LARGE_GAME_NODES
    assert route.structured is not None
    progress(
        f"{route.structured.name}: the structured route (public tree × private hands); the "
        f"tree would have at most {nodes:,} nodes and is not built"
    )


STARTED_NOTE_NODES = 1_000
"""Piped, ``--refine`` and the structured ``--exact`` say that they have started on games
of at least this many tree nodes (Kuhn's 55 finish at once; Leduc's 9,457 take seconds
to minutes)."""


def _say_started(args: argparse.Namespace, route: Route, nodes: int) -> None:
    """Piped (stderr not a terminal), a long stage says once that it has started, so that
    ``--refine`` and the structured ``--exact`` do not run for minutes in silence; large
    games show their stages anyway (:class:`~seqform.cli.progress.Progress`)."""
    long_stage = args.refine or (args.exact and route.method == "structured")
    if not long_stage or nodes < STARTED_NOTE_NODES or nodes >= LARGE_GAME_NODES:
        return
    if args.quiet or args.verbose or sys.stderr.isatty():
        return
    what = "the refinement (--refine)" if args.refine else "the structured exact solve"
    print(f"seqform: started {what}; this may take minutes", file=sys.stderr, flush=True)


def _report(
    solution: Any,
    route: Route,
    progress: Progress,
    args: argparse.Namespace,
    hands: tuple[tuple[int, int], ...] = (),
) -> int:
    """Write the result in its report (with the ``--hand`` blocks) and exit by its certificate.

    The document is built once (:func:`seqform.documents.build.document`: its builder
    follows the result's type) and the text is rendered from it
    (:func:`seqform.documents.text.render.document_report`), so the two say the same.
    For text, strategies the report only summarises are built as their summaries
    (:func:`seqform.documents.objects.strategies_for_text`); the text only when asked for.
    """
    from seqform.documents.build import document
    from seqform.documents.text.render import document_report

    built = built_for(args, lambda: document(solution), args.strategies)
    text = "" if args.format == "json" else document_report(built, args.strategies)
    if hands and text:  # the structured route's, float or exact (checked before the solve)
        text = text.rstrip("\n") + "\n" + hand_text(solution.game, solution.strategies, hands)
    plain = not (args.exact or args.refine or args.fix or args.fix_file or args.lock)
    plain = plain and not args.lock_file
    if plain and route.method != "normal":
        progress(
            f"done: value {decimal_text(solution.value)}, "
            "exploitability "
            f"{scaled_text(solution.exploitability, solution.certificate.payoff_range, digits=3)}"
        )
    emit(built, text, args)
    if args.exact:
        return certified_exit(_exact_uncertified_reason(getattr(solution, "locked", solution)))
    return certified_exit(uncertified_reason(solution.certificate))


def _exact_uncertified_reason(solution: AnyExactSolution) -> str | None:
    """Why ``--exact`` proved no value (it proved the bounds the report shows instead)."""
    if solution.certified:
        return None
    lower, upper = solution.bounds.lower, solution.bounds.upper
    return (
        "no exact equilibrium was found; the exact certificate proves only "
        f"{value_text(lower)} <= value <= {value_text(upper)}"
    )
