"""Which options go together: the routes' and solvers' names, and the one check of the
method × solver × backend × ``exact`` / ``refine`` / ``fix`` combinations.

Kept apart from the route policy (:mod:`seqform.routes.policy`) because the command line
needs these names and this check to build its parser, and reading them must not load numpy,
scipy or a solver: ``seqform --help`` starts without them.

:func:`check_options` raises :class:`OptionsError` (a ``ValueError``), which the command line
reports as a usage error (exit 2); so do :func:`check_route_options`'s checks of the options
that belong to one route once the route is chosen (the suit and ordered isomorphisms to the
structured route, the normal form's size limit to the normal form).
"""

from __future__ import annotations

from typing import Protocol

from seqform.lp.solvers import BACKENDS, BASIS_SOLVERS, HIGHS_SOLVERS, STRUCTURED_SOLVERS

__all__ = [
    "ITERATE_ALGORITHMS",
    "ITERATE_METHODS",
    "METHODS",
    "SOLVERS",
    "ChosenRoute",
    "OptionsError",
    "check_normal_form_options",
    "check_options",
    "check_reductions",
    "check_route_options",
    "refuse_exact_locks_off_tree",
    "resolve_method",
]


class ChosenRoute(Protocol):
    """What the route checks read of a :class:`seqform.routes.policy.Route` (this module
    must not import the policy, which imports it)."""

    @property
    def method(self) -> str: ...

    @property
    def structured(self) -> object | None: ...


METHODS = ("auto", "tree", "structured", "normal")
"""The routes a caller may ask for (``auto`` chooses between ``tree`` and ``structured``)."""

ITERATE_METHODS = ("auto", "tree", "structured")
"""The layouts ``iterate`` runs the CFR family on: the game tree, or the public tree × hands
(vector CFR, :mod:`seqform.structured.vector_cfr`); ``auto`` takes the structured one where
``solve``'s policy does and the algorithm runs there."""

SOLVERS: tuple[str, ...] = (*HIGHS_SOLVERS, "clarabel")
"""Every solver name: HiGHS's solvers and Clarabel (the structured route's default)."""

ITERATE_ALGORITHMS = (
    "cfr",
    "cfr+",
    "dcfr",
    "lcfr",
    "pcfr+",
    "dcfr+",
    "pdcfr+",
    "hs-dcfr30",
    "hs-dcfr15",
    "hs-pcfr+30",
    "hs-pcfr+15",
    "xfp",
    "rcfr",
    "mccfr",
)
"""``iterate``'s algorithms by name, in the order ``--help`` lists them
(:data:`seqform.questions.algorithms.ALGORITHMS` maps each to its function)."""


class OptionsError(ValueError):
    """Options that cannot run together (or a route that does not take this game): a usage
    error, exit 2 on the command line."""


def resolve_method(method: str, allowed: tuple[str, ...] = METHODS) -> str:
    """``method``, checked: one of ``allowed``.

    Raises
    ------
    OptionsError
        For a method not in ``allowed``.
    """
    if method not in allowed:
        raise OptionsError(f"unknown method {method!r}; choose from {', '.join(allowed)}")
    return method


def check_options(
    method: str = "auto",
    *,
    solver: str | None = None,
    backend: str = "highs",
    exact: bool = False,
    refine: bool = False,
    fix: bool = False,
    lock: bool = False,
) -> None:
    """Refuse option combinations that cannot run (the one place they are checked).

    ``method`` is resolved first (:func:`resolve_method`); ``fix`` says whether restrictions
    are given, ``lock`` whether node locks are (on the tree they are solved as restrictions:
    :func:`seqform.routes.locked.check_locked_route`).  ``auto`` is checked for what holds on
    both of its routes; :func:`choose_route` checks the route it takes once more.

    Raises
    ------
    OptionsError
        With a message naming the options given (only those) and what to write instead.
    """
    method = resolve_method(method)
    if solver is not None and solver not in SOLVERS:
        raise OptionsError(f"unknown solver {solver!r}; choose from {', '.join(SOLVERS)}")
    if backend not in BACKENDS:
        raise OptionsError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if exact and refine:
        raise OptionsError("--exact and --refine cannot be combined")
    if refine and fix:
        raise OptionsError("--refine cannot be combined with --fix or --fix-file")
    tree_only = _given(refine=refine, fix=fix)
    if tree_only and method not in ("tree", "auto"):
        raise OptionsError(f"{_they(tree_only, 'work')} on the game tree only (--method tree)")
    if exact and method == "normal":
        raise OptionsError(
            "--exact works on the tree or the structured route (--method tree or structured)"
        )
    if method == "structured" and exact and lock:
        refuse_exact_locks_off_tree(solver, backend)
    if method == "structured":
        _check_structured(solver, backend, exact)
    beyond = _given(exact=exact, refine=refine, fix=fix, lock=lock)
    if beyond and backend != "highs":
        raise OptionsError(f"{_they(beyond, 'use')} HiGHS directly: drop --backend")
    if beyond and solver is not None and solver not in BASIS_SOLVERS:
        raise OptionsError(
            f"{_they(beyond, 'need')} a simplex basis: use --solver simplex or ipm, not {solver}"
        )
    if solver == "clarabel" and method not in ("structured", "auto"):
        raise OptionsError(
            "--solver clarabel solves the structured LP only (with --method structured or auto)"
        )


def _given(**options: bool) -> list[str]:
    """The options given, spelt as on the command line (``fix=True``: ``--fix``)."""
    return [f"--{name}" for name, given in options.items() if given]


def _they(options: list[str], verb: str) -> str:
    """``options`` as the subject of ``verb``: ``--lock needs``, ``--exact and --lock need``."""
    named = options[0] if len(options) == 1 else f"{', '.join(options[:-1])} and {options[-1]}"
    return f"{named} {verb}{'s' if len(options) == 1 else ''}"


def refuse_exact_locks_off_tree(solver: str | None, backend: str) -> None:
    """Refuse locks with ``exact`` on the structured route, naming with them the solver and
    backend the tree's exact LP would refuse too, so that one refusal names every option
    that conflicts.

    Raises
    ------
    OptionsError
        Always: the structured route's exact re-solve does not take locks.
    """
    ways = []
    if solver is not None and solver not in BASIS_SOLVERS:
        ways.append(f"use --solver simplex or ipm, not {solver}")
    if backend != "highs":
        ways.append("drop --backend")
    there = f"; there --exact and --lock need HiGHS's simplex basis: {' and '.join(ways)}"
    raise OptionsError(
        "--lock with --exact runs on the game tree (--method tree); the structured route's "
        f"exact re-solve does not take locks{there if ways else ''}"
    )


def _check_structured(solver: str | None, backend: str, exact: bool) -> None:
    if backend != "highs":
        raise OptionsError("the structured route builds its own LP (no --backend): drop --backend")
    if exact and solver not in (None, *BASIS_SOLVERS):
        raise OptionsError(
            f"--exact needs a simplex basis: use --solver simplex or ipm, not {solver}"
        )
    if solver is not None and solver not in STRUCTURED_SOLVERS:
        raise OptionsError(
            f"the structured route solves with {', '.join(STRUCTURED_SOLVERS[:-1])} or "
            f"{STRUCTURED_SOLVERS[-1]}, not {solver}"
        )


def check_route_options(
    route: ChosenRoute,
    *,
    suit_isomorphism: bool = True,
    ordered_isomorphism: bool = True,
    max_entries_given: bool = False,
    reduced: bool = False,
) -> None:
    """``solve``'s options that belong to one route, refused on another
    (:func:`check_reductions`, :func:`check_normal_form_options`)."""
    check_reductions(route, suit_isomorphism, ordered_isomorphism)
    check_normal_form_options(route, max_entries_given, reduced)


def check_normal_form_options(route: ChosenRoute, max_entries_given: bool, reduced: bool) -> None:
    """Refuse the normal form's options on another route: ``max_entries`` (``--max-entries``,
    the normal form's size limit) and ``reduced`` (its reduced strategies) would do nothing
    on the tree or the structured route, and are named instead of ignored.

    Raises
    ------
    OptionsError
        When either is given and ``route`` is not the normal form's.
    """
    if route.method == "normal":
        return
    given = [
        option
        for option, present in (
            ("--max-entries (max_entries)", max_entries_given),
            ("reduced=True", reduced),
        )
        if present
    ]
    if given:
        raise OptionsError(
            f"{' and '.join(given)} belongs to the normal form (--method normal); here the "
            f"game is on the {route.method} route"
        )


def check_reductions(
    route: ChosenRoute, suit_isomorphism: bool = True, ordered_isomorphism: bool = True
) -> None:
    """Refuse turning off a structured route's lossless reduction on another route.

    The suit and ordered game isomorphisms reduce the structured LP (and vector CFR); the
    tree and the normal form have neither, so ``suit_isomorphism=False`` or
    ``ordered_isomorphism=False`` there (``--no-suit-isomorphism``,
    ``--no-ordered-isomorphism``) would do nothing, and is named instead of ignored.

    Raises
    ------
    OptionsError
        When either is False and ``route`` is not the structured one.
    """
    if route.structured is not None:
        return
    given = [
        option
        for option, off in (
            ("--no-suit-isomorphism (suit_isomorphism=False)", not suit_isomorphism),
            ("--no-ordered-isomorphism (ordered_isomorphism=False)", not ordered_isomorphism),
        )
        if off
    ]
    if given:
        raise OptionsError(
            f"{' and '.join(given)} turns off a reduction of the structured route; here the "
            f"game is on the {route.method} route, which has none (--method structured "
            "solves a structured game's full LP)"
        )
