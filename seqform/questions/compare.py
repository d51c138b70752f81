"""The normal form beside the sequence form: sizes of both, and both LPs solved side by side.

Sizes (exact integers; see :mod:`seqform.forms.normal_form` for the counts):

* per player: information sets, sequences, pure strategies ``prod_h |A(h)|``, reduced pure
  strategies ``R(empty)``;
* normal form: the matrix ``M = P0.T @ A @ P1``, full and reduced, its shape and entries;
* sequence form (KMvS 1996, eq. 8-9): ``E``, ``F``, ``A``, their shapes and non-zeros;
* both min-max LPs (:mod:`seqform.lp.minmax`): the merged LP has ``cols(E) + rows(F)`` variables,
  ``cols(F) + rows(E)`` constraints and ``nnz(A) + nnz(E) + nnz(F)`` non-zeros; for a matrix
  game ``E = F = (1 ... 1)``, so ``m + 1`` variables and ``n + 1`` constraints for an
  ``m × n`` matrix.

Each formulation whose matrix fits the size limit is then solved, and the values,
exploitabilities and behavioural strategies are reported side by side (those of the normal
form mapped to the sequence form by Kuhn's theorem, Kuhn 1953).

The text and JSON (schema ``seqform.compare/2``) are written by
:mod:`seqform.documents.text.compare`.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from seqform.base.arguments import require_count, require_time_limit
from seqform.base.counts import Count, count_at_most, count_plus, count_product
from seqform.certify import EQUILIBRIUM_TOLERANCE, is_certified, payoff_range
from seqform.forms.normal_counts import (
    DEFAULT_MAX_ENTRIES,
    StrategyCounts,
    count_pure_strategies,
    count_reduced_strategies,
    strategy_counts,
)
from seqform.forms.sequence_form import SequenceForm, build_sequence_form
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.io.loader import as_game
from seqform.lp.solvers import Backend, HighsSolver
from seqform.routes.normal import NormalFormDetails, NormalFormSolution, solve_normal_form
from seqform.routes.options import OptionsError
from seqform.routes.tree import Solution, solve_tree

__all__ = [
    "FORMULATION_TITLES",
    "VALUE_TOLERANCE",
    "Comparison",
    "Formulation",
    "StructuredSizes",
    "compare",
    "compare_sizes",
    "lp_options_given",
]

VALUE_TOLERANCE = 1e-9
"""The formulations' values agree when they are this close, relative to the payoff range
(the certificate's units: a game's payoffs in millionths agree as the game does)."""


FORMULATION_TITLES = {
    "sequence": "sequence form",
    "normal": "normal form",
    "reduced_normal": "reduced normal form",
}
"""Each formulation's name and its title in words."""


@dataclass(frozen=True)
class Formulation:
    """One LP formulation of the game: its size and, if it was solved, its solution.

    name : ``"sequence"``, ``"normal"`` or ``"reduced_normal"``
    variables, constraints : of the merged min-max LP of :mod:`seqform.lp.minmax`
    nonzeros : of the LP's constraint matrix, ``None`` when the matrix was not built
    fits : whether the payoff matrix is within the size limit (always True for the
        sequence form)
    build_seconds : time to build the payoff matrix (the sequence form, for it)
    solution : the certified solution, or ``None`` if not solved; for a normal form its
        ``normal`` holds the mixed strategies and Kuhn checks
    """

    name: str
    variables: Count
    constraints: Count
    nonzeros: Count | None
    fits: bool
    build_seconds: float | None = None
    solution: Solution | None = None

    @property
    def normal(self) -> NormalFormDetails | None:
        """The normal-form details (mixed strategies, Kuhn checks) of a solved normal form."""
        solution = self.solution
        return solution.normal if isinstance(solution, NormalFormSolution) else None

    @property
    def title(self) -> str:
        return FORMULATION_TITLES[self.name]


@dataclass(frozen=True)
class Comparison:
    """Sizes of the sequence form and the normal form of one game, and their solutions.

    form : the sequence form
    counts : exact pure and reduced pure strategy counts
    max_entries : the normal-form size limit used
    formulations : sequence form, full normal form, reduced normal form, in that order
    structured_payoff_nonzeros : for a game given with its structured description (public
        tree × private hands), the non-zeros of the structured LP's payoff part, which stand
        for ``A``'s (:attr:`seqform.structured.lp_model.StructuredLP.payoff_nonzeros`);
        else None
    """

    game: Game
    form: SequenceForm
    counts: StrategyCounts
    max_entries: int
    formulations: tuple[Formulation, Formulation, Formulation]
    structured_payoff_nonzeros: int | None = None

    @property
    def values_agree(self) -> bool | None:
        """Whether every solved formulation has the same value (to :data:`VALUE_TOLERANCE`
        of the payoff range); None if < 2."""
        values = [f.solution.value for f in self.formulations if f.solution is not None]
        if len(values) < 2:
            return None
        return max(values) - min(values) <= VALUE_TOLERANCE * float(payoff_range(self.game))

    @property
    def shortfall(self) -> str | None:
        """None when the comparison holds: every solved formulation's certificate holds
        (:func:`~seqform.certify.is_certified`) and their values agree
        (:attr:`values_agree`); else why not, in words (``compare`` exits 3 with it, as
        ``solve`` does for an answer its certificate does not hold)."""
        scale = float(payoff_range(self.game))
        solved = [(f.title, f.solution) for f in self.formulations if f.solution is not None]
        reasons = []
        if self.values_agree is False:
            values = [solution.value for _, solution in solved]
            reasons.append(
                f"the values differ by {max(values) - min(values):.2g} (more than "
                f"{VALUE_TOLERANCE:g} of the payoff range {scale:g})"
            )
        uncertified = [
            f"{title} {float(solution.certificate.exploitability):.3g}"
            for title, solution in solved
            if not is_certified(solution.certificate)
        ]
        if uncertified:
            reasons.append(
                f"exploitability (NashConv / 2) above {EQUILIBRIUM_TOLERANCE:g} of the payoff "
                f"range: {', '.join(uncertified)}"
            )
        return "; ".join(reasons) or None


def lp_options_given(
    backend: str = "highs", solver: str | None = "simplex", time_limit: float | None = None
) -> dict[str, object]:
    """The LP options given at other than :func:`compare`'s defaults, by parameter name: those
    a comparison of sizes only (``solve_lps=False``, ``compare --no-solve``) refuses."""
    defaults = {"backend": "highs", "solver": "simplex", "time_limit": None}
    given = {"backend": backend, "solver": solver, "time_limit": time_limit}
    return {name: value for name, value in given.items() if value not in (None, defaults[name])}


def _normal_lp_size(rows: Count, columns: Count) -> tuple[Count, Count]:
    """Variables and constraints of the matrix-game LP (``E = F = ones``)."""
    return count_plus(rows, 1), count_plus(columns, 1)


@dataclass(frozen=True)
class _Options:
    """The LP options every formulation is solved with (None: sizes only)."""

    backend: Backend
    solver: HighsSolver
    time_limit: float | None


def compare(
    game: Game | str | os.PathLike[str],
    *,
    max_entries: int = DEFAULT_MAX_ENTRIES,
    solve_lps: bool = True,
    backend: Backend = "highs",
    solver: HighsSolver = "simplex",
    time_limit: float | None = None,
    structured: StructuredGame | None = None,
) -> Comparison:
    """Size up both formulations of ``game`` and solve those within the limit.

    The sequence form is built once and shared by every formulation.

    Length: the docstring documents each option and refusal; the body is short.

    Parameters
    ----------
    game
        The game: a :class:`~seqform.game.model.Game`, a name (``"kuhn"``) or a path to a
        ``.efg`` file (:func:`~seqform.io.loader.load_game`).
    max_entries
        Normal-form matrices with more entries are sized (exactly) but not built.
    solve_lps
        Solve the LPs; if False only the sizes are computed (no enumeration at all), and
        ``backend``, ``solver`` and ``time_limit`` given at other than their defaults are
        refused rather than ignored.
    backend, solver, time_limit
        As for :func:`seqform.lp.minmax.solve_minmax`, used for every LP.
    structured
        The same game's structured description
        (:func:`seqform.game.builtin.registry.load_structured_game` of a built-in game's
        name): the comparison then counts its structured LP's payoff non-zeros beside
        ``A``'s (:attr:`Comparison.structured_payoff_nonzeros`).

    Raises
    ------
    TypeError
        For a ``game`` that is none of those.
    seqform.routes.options.OptionsError
        For an LP option given with ``solve_lps=False`` (``compare --no-solve`` refuses
        the same, exit 2).
    seqform.lp.solvers.SolverError
        If an LP solver does not prove optimality.
    """
    game = as_game(game, "compare")
    max_entries = require_count("max_entries", max_entries, minimum=1)
    time_limit = require_time_limit("time_limit", time_limit)
    if not solve_lps and (given := lp_options_given(backend, solver, time_limit)):
        listed = " or ".join(f"{name}={value!r}" for name, value in given.items())
        raise OptionsError(f"solve_lps=False takes no {listed} (it gives the sizes only: no LP)")
    start = time.perf_counter()
    form = build_sequence_form(game)
    form_seconds = time.perf_counter() - start
    counts = strategy_counts(form)
    options = _Options(backend, solver, time_limit) if solve_lps else None
    structured_nonzeros = None
    if structured is not None:
        from seqform.structured.lp_model import build_structured_lp

        structured_nonzeros = build_structured_lp(structured).payoff_nonzeros
    return Comparison(
        game=game,
        form=form,
        counts=counts,
        max_entries=max_entries,
        formulations=(
            _sequence(game, form, form_seconds, options),
            _normal(game, form, counts, False, max_entries, options),
            _normal(game, form, counts, True, max_entries, options),
        ),
        structured_payoff_nonzeros=structured_nonzeros,
    )


def _sequence(
    game: Game, form: SequenceForm, form_seconds: float, options: _Options | None
) -> Formulation:
    """The sequence-form formulation, solved on the given ``form``."""
    solution = None
    if options is not None:
        solution = solve_tree(
            game,
            backend=options.backend,
            solver=options.solver,
            time_limit=options.time_limit,
            form=form,
        )
    return Formulation(
        name="sequence",
        variables=form.E.shape[1] + form.F.shape[0],
        constraints=form.F.shape[1] + form.E.shape[0],
        nonzeros=int(form.A.nnz + form.E.nnz + form.F.nnz),
        fits=True,
        build_seconds=form_seconds,
        solution=solution,
    )


def _normal(
    game: Game,
    form: SequenceForm,
    counts: StrategyCounts,
    reduced: bool,
    max_entries: int,
    options: _Options | None,
) -> Formulation:
    """The full or reduced normal-form formulation, solved when it fits."""
    rows, columns = counts.shape(reduced)
    variables, constraints = _normal_lp_size(rows, columns)
    fits = count_at_most(count_product(rows, columns), max_entries)
    solution = None
    if fits and options is not None:
        solution = solve_normal_form(
            game,
            reduced=reduced,
            max_entries=max_entries,
            backend=options.backend,
            solver=options.solver,
            time_limit=options.time_limit,
            form=form,
        )
    summary = None if solution is None else solution.normal.summary
    return Formulation(
        name="reduced_normal" if reduced else "normal",
        variables=variables,
        constraints=constraints,
        nonzeros=None
        if summary is None
        else count_plus(summary.nonzeros, count_plus(rows, columns)),
        fits=fits,
        build_seconds=None if summary is None else summary.build_seconds,
        solution=solution,
    )


@dataclass(frozen=True)
class StructuredSizes:
    """Both formulations' sizes of a game, counted from its public tree
    × private hands (:mod:`seqform.game.public.numbering`) without building the tree.

    tables : both players' sequence tables (as the tree would number them)
    counts : exact pure and reduced pure strategy counts, from the tables
    payoff_nonzeros : ``nnz(A)``, counted from level histograms
        (:func:`~seqform.structured.payoff_matrix.payoff_nnz`), ``A`` not formed
    structured_payoff_nonzeros : the structured LP's payoff part's non-zeros, None unbuilt
    tree_nodes : at most the nodes of the tree that is not built
    max_entries : the normal-form size limit used
    """

    game: StructuredGame
    tables: tuple[PlayerSequences, PlayerSequences]
    counts: StrategyCounts
    payoff_nonzeros: int
    structured_payoff_nonzeros: int | None
    tree_nodes: int
    max_entries: int

    @property
    def infosets(self) -> tuple[int, int]:
        """Information sets per player."""
        return self.tables[0].num_infosets, self.tables[1].num_infosets

    @property
    def sequences(self) -> tuple[int, int]:
        """Sequences per player, the empty one included."""
        return self.tables[0].num_sequences, self.tables[1].num_sequences

    def fits(self, reduced: bool) -> bool:
        """Whether the normal form, full or reduced, is within :attr:`max_entries`."""
        return count_at_most(self.counts.entries(reduced), self.max_entries)

    def constraint_nonzeros(self, player: int) -> int:
        """``nnz(E)`` (player 0) or ``nnz(F)``: the root row's 1, and per information set its
        parent's −1 and one 1 per action (KMvS 1996, eq. 8)."""
        table = self.tables[player]
        return 1 + table.num_infosets + (table.num_sequences - 1)

    @property
    def sequence_lp(self) -> tuple[int, int, int]:
        """Variables, constraints and non-zeros of the merged min-max LP (as
        :func:`compare` counts them for the tree)."""
        first, second = self.tables
        variables = first.num_sequences + second.num_infosets + 1
        constraints = second.num_sequences + first.num_infosets + 1
        nonzeros = self.payoff_nonzeros + self.constraint_nonzeros(0) + self.constraint_nonzeros(1)
        return variables, constraints, nonzeros


def compare_sizes(
    game: StructuredGame, *, max_entries: int = DEFAULT_MAX_ENTRIES, structured_lp: bool = True
) -> StructuredSizes:
    """:class:`StructuredSizes` of ``game`` without its tree (``compare --no-solve``), its
    structured LP built for the payoff part's non-zeros only if ``structured_lp``."""
    from seqform.game.public.explicit import tree_nodes
    from seqform.structured.lp_model import build_structured_lp
    from seqform.structured.payoff_matrix import payoff_nnz
    from seqform.structured.responses import sequence_tables

    tables = sequence_tables(game)
    payoffs = build_structured_lp(game).payoff_nonzeros if structured_lp else None
    counts = StrategyCounts(
        pure=(count_pure_strategies(tables[0]), count_pure_strategies(tables[1])),
        reduced=(count_reduced_strategies(tables[0]), count_reduced_strategies(tables[1])),
    )
    return StructuredSizes(
        game=game,
        tables=(tables[0], tables[1]),
        counts=counts,
        payoff_nonzeros=payoff_nnz(game),
        structured_payoff_nonzeros=payoffs,
        tree_nodes=tree_nodes(game),
        max_entries=max_entries,
    )
