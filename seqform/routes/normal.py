"""Solving a game through its normal form, certified like any other solution.

The matrix game ``M = P0.T @ A @ P1`` (:mod:`seqform.forms.normal_form`) is the min-max LP
of :mod:`seqform.lp.minmax` with ``E = (1 ... 1)``, ``e = (1)``, ``F = (1 ... 1)``,
``f = (1)``; its mixed strategies are mapped back to realization plans and behavioural
strategies by Kuhn's theorem (:func:`seqform.forms.normal_form.kuhn_conversion`) and
certified by best response on the tree (:mod:`seqform.certify`), so the result reads like
the sequence-form solution of :func:`seqform.routes.solve.solve`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import scipy.sparse as sp

from seqform.base.counts import Count, count_at_most, count_product
from seqform.certify import certify
from seqform.forms.normal_counts import (
    DEFAULT_MAX_ENTRIES,
    NormalFormTooLargeError,
    StrategyCounts,
    check_normal_form_size,
    count_pure_strategies,
    count_reduced_strategies,
    strategy_counts,
)
from seqform.forms.normal_form import KuhnConversion, NormalForm, build_normal_form, kuhn_conversion
from seqform.forms.provenance import sequence_form_of
from seqform.forms.sequence_form import SequenceForm
from seqform.game.model import Game
from seqform.game.requirements import require_float_payoffs
from seqform.io.loader import as_game
from seqform.lp.minmax import solve_minmax
from seqform.lp.problem import FloatSolution
from seqform.lp.solvers import Backend, HighsSolver
from seqform.routes.result import Certified, PhaseClock, lp_stages
from seqform.routes.tree import Solution

__all__ = [
    "NormalFormDetails",
    "NormalFormSolution",
    "NormalFormSummary",
    "refuse_large_normal_form",
    "solve_matrix_game",
    "solve_normal_form",
]


SEQUENCE_FORM_POINTER = (
    "the sequence form solves this game without the matrix: --method tree or auto "
    "(method='tree' or 'auto')"
)
RAISE_LIMIT_FACTOR = 100
"""A normal form within this factor of ``max_entries`` is also offered a higher limit."""


def pointed_refusal(
    name: str, refused: NormalFormTooLargeError, entries: Count, max_entries: int
) -> NormalFormTooLargeError:
    """``refused`` said of the game ``name``, pointing to the sequence form (and to a higher
    limit when ``entries`` is within :data:`RAISE_LIMIT_FACTOR` of ``max_entries``)."""
    near = count_at_most(entries, RAISE_LIMIT_FACTOR * max_entries)
    more = "; or raise the limit with --max-entries (max_entries=...)" if near else ""
    return NormalFormTooLargeError(f"{name}: {refused}; {SEQUENCE_FORM_POINTER}{more}")


def refuse_large_normal_form(
    spec: object, *, reduced: bool = False, max_entries: int = DEFAULT_MAX_ENTRIES
) -> None:
    """Refuse a built-in game's normal form that exceeds ``max_entries`` before its tree is
    built, counting its pure strategies on its public tree × hands description (the counts
    of :func:`~seqform.forms.normal_counts.strategy_counts`, from the same sequence tables):
    ``leduc(ranks=13)`` built its 1,179,777 nodes (15 s) to refuse ``10^7070`` entries.
    Anything else (a file, a game without that description) is counted once built.

    Raises
    ------
    NormalFormTooLargeError
        As :func:`~seqform.forms.normal_form.build_normal_form` would.
    """
    from seqform.game.builtin.registry import (
        STRUCTURED_GAMES,
        load_structured_game,
        parse_game_spec,
    )
    from seqform.game.errors import UnknownGameError

    if not isinstance(spec, str):
        return
    try:
        if parse_game_spec(spec)[0] not in STRUCTURED_GAMES:
            return
        structured = load_structured_game(spec)
    except (UnknownGameError, ValueError):  # a path, or parameters the tree's loader names
        return
    from seqform.structured.responses import sequence_tables

    tables = sequence_tables(structured)
    counts = StrategyCounts(
        pure=(count_pure_strategies(tables[0]), count_pure_strategies(tables[1])),
        reduced=(count_reduced_strategies(tables[0]), count_reduced_strategies(tables[1])),
    )
    try:
        check_normal_form_size(counts, reduced=reduced, max_entries=max_entries)
    except NormalFormTooLargeError as exc:
        rows, columns = counts.shape(reduced)
        raise pointed_refusal(
            structured.name, exc, count_product(rows, columns), max_entries
        ) from exc


def solve_matrix_game(
    matrix: np.ndarray,
    *,
    backend: Backend = "highs",
    solver: HighsSolver = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
) -> FloatSolution:
    """Solve ``max_sigma min_tau sigma @ M @ tau`` over mixed strategies.

    The min-max LP of :mod:`seqform.lp.minmax` with ``E = (1 ... 1)``, ``e = (1)`` and
    ``F = (1 ... 1)``, ``f = (1)``: ``x`` and ``y`` of the result are the players' mixed
    strategies and ``value`` the value of the matrix game.

    Where the entries' midpoint ``c`` is larger than their range, the LP is given ``M − c``
    and ``c`` is added back to the value: a constant changes no mixed strategy's payoff
    difference, and without it the solver's absolute tolerances met the constant instead of
    the payoffs' range (Kuhn with 10,000 moved from player 2 to player 1: entries near 10^4
    against a range of 4, and a reduced normal form 2.6e-9 of the range from an
    equilibrium).  A smaller midpoint is left, so that the LP keeps ``M``'s zeros.
    """
    rows, columns = matrix.shape
    high, low = (float(matrix.max()), float(matrix.min())) if matrix.size else (0.0, 0.0)
    middle = (high + low) / 2 if abs(high + low) / 2 > high - low else 0.0
    solution = solve_minmax(
        sp.csr_array(np.ones((1, rows))),
        np.ones(1),
        sp.csr_array(np.ones((1, columns))),
        np.ones(1),
        sp.csr_array(matrix - middle),
        backend=backend,
        solver=solver,
        time_limit=time_limit,
        verbose=verbose,
    )
    scale = 1.0 if solution.plans is None else solution.plans.scale
    return replace(solution, objective=solution.objective + middle * scale)


@dataclass(frozen=True)
class NormalFormSummary:
    """The normal-form sizes and Kuhn-theorem checks that reports show beside a solution.

    reduced : whether the reduced normal form was solved
    counts : exact pure and reduced pure strategy counts of both players
    shape : the shape of the matrix that was solved
    nonzeros : its non-zero entries
    build_seconds : time to enumerate the strategies and build the matrix
    constraint_residuals : per player, ``max |E x - e|`` of the converted plan
    payoff_gaps : per player, :attr:`KuhnConversion.payoff_gap`
    """

    reduced: bool
    counts: StrategyCounts
    shape: tuple[int, int]
    nonzeros: int
    build_seconds: float
    constraint_residuals: tuple[float, float]
    payoff_gaps: tuple[float, float]

    @property
    def entries(self) -> int:
        return self.shape[0] * self.shape[1]


@dataclass(frozen=True)
class NormalFormDetails:
    """What a solve through the normal form adds to its solution (the field ``normal`` of
    :class:`NormalFormSolution`).

    normal_form : the matrix and the enumerated pure strategies
    conversions : per player, the mixed strategy, plan and behaviour (Kuhn 1953)
    summary : sizes and checks for reports
    """

    normal_form: NormalForm
    conversions: tuple[KuhnConversion, KuhnConversion]
    summary: NormalFormSummary

    @property
    def mixed(self) -> tuple[np.ndarray, np.ndarray]:
        """The LP's mixed strategies over the enumerated pure strategies."""
        return (self.conversions[0].mixed, self.conversions[1].mixed)


@dataclass(frozen=True)
class NormalFormSolution(Solution):
    """A solution found through the normal form: a tree :class:`~seqform.routes.tree.Solution`
    (plans, behaviour and certificate on the tree, by Kuhn's theorem) and its ``normal``
    details; ``stats`` describes the matrix-game LP and ``timings.sequence_form`` includes
    building the normal form.

    normal : the matrix, the Kuhn conversions and the checks (:class:`NormalFormDetails`)
    """

    normal: NormalFormDetails

    @property
    def route(self) -> str:
        """The route (:mod:`seqform.routes.policy`): ``"normal"``."""
        return "normal"


def solve_normal_form(
    game: Game | str | os.PathLike[str],
    *,
    reduced: bool = False,
    max_entries: int = DEFAULT_MAX_ENTRIES,
    backend: Backend = "highs",
    solver: HighsSolver = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
    form: SequenceForm | None = None,
) -> NormalFormSolution:
    """Solve ``game`` through its normal form and certify the answer by best response.

    Mixed strategies become plans and behaviour by Kuhn's theorem (:func:`kuhn_conversion`):
    a :class:`NormalFormSolution`, read as the tree route's solution, details in ``normal``.

    Parameters
    ----------
    game
        The game, or its name or path (:func:`seqform.io.loader.load_game`).
    reduced
        Solve the reduced normal form instead of the full one.
    max_entries
        Size limit on the matrix (see :func:`build_normal_form`).
    backend, solver, time_limit, verbose
        As for :func:`seqform.lp.minmax.solve_minmax`.
    form
        The game's sequence form, if already built.

    Raises
    ------
    NormalFormTooLargeError
        If the matrix would exceed ``max_entries``.
    seqform.lp.solvers.SolverError
        If the LP solver does not prove optimality.
    """
    game = as_game(game, "solve_normal_form")
    require_float_payoffs(game, "the normal-form LP")
    clock = PhaseClock()
    with clock.phase("sequence_form"):
        sequence_form = sequence_form_of(game, form)
    with clock.phase("normal_form", stage="sequence_form"):
        normal_form = build_normal_form(sequence_form, reduced=reduced, max_entries=max_entries)
    result = lp_stages(
        clock,
        partial(
            solve_matrix_game,
            normal_form.matrix,
            backend=backend,
            solver=solver,
            time_limit=time_limit,
            verbose=verbose,
        ),
        lambda x, y: (
            kuhn_conversion(sequence_form, normal_form.strategies[0], x),
            kuhn_conversion(sequence_form, normal_form.strategies[1], y),
        ),
        lambda conversions: certify(game, conversions[0].behaviour, conversions[1].behaviour),
    )
    return _solution(game, sequence_form, normal_form, result, reduced)


def _solution(
    game: Game,
    form: SequenceForm,
    normal_form: NormalForm,
    result: Certified[KuhnConversion],
    reduced: bool,
) -> NormalFormSolution:
    """The :class:`NormalFormSolution` of the Kuhn conversions, with its details."""
    conversions = result.strategies
    return NormalFormSolution(
        game=game,
        form=form,
        value=result.value,
        plans=(conversions[0].plan, conversions[1].plan),
        strategies=(conversions[0].behaviour, conversions[1].behaviour),
        certificate=result.certificate,
        stats=result.stats,
        timings=result.timings,
        normal=NormalFormDetails(
            normal_form=normal_form,
            conversions=conversions,
            summary=_summary(form, normal_form, conversions, reduced, result.timings.normal_form),
        ),
    )


def _summary(
    form: SequenceForm,
    normal_form: NormalForm,
    conversions: tuple[KuhnConversion, KuhnConversion],
    reduced: bool,
    build_seconds: float,
) -> NormalFormSummary:
    """Sizes and Kuhn-theorem checks of a solved normal form."""
    return NormalFormSummary(
        reduced=reduced,
        counts=strategy_counts(form),
        shape=normal_form.shape,
        nonzeros=normal_form.nonzeros,
        build_seconds=build_seconds,
        constraint_residuals=(
            conversions[0].constraint_residual,
            conversions[1].constraint_residual,
        ),
        payoff_gaps=(conversions[0].payoff_gap, conversions[1].payoff_gap),
    )
