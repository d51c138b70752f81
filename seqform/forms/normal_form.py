"""Pure strategies and the normal form, beside the sequence form.

Pure strategies
---------------
A *pure strategy* of player ``i`` picks one action at every information set of ``i``, so
player ``i`` has ``prod_h |A(h)|`` of them.  Its realization plan (KMvS 1996, §3) is 0/1 on
the player's sequences: ``x[h, a] = 1`` when the strategy picks ``a`` at ``h`` and its own
earlier choices lead to ``h`` (``x[parent(h)] = 1``).  Pure strategies that differ only at
information sets their own earlier actions exclude have the same plan, hence the same
payoff against everything; merging them gives the *reduced* normal form, whose strategies
are exactly the distinct 0/1 plans.  Their number is a recursion over the player's
information-set tree:

    R(s) = prod over information sets h entered from sequence s of  sum_a R(h, a),

with ``R(s) = 1`` for a sequence after which the player never moves again; the reduced
count is ``R(empty)``.  Both counts are exact Python integers, computed without enumerating,
so that Leduc's (about ``10^168`` per player) are printed exactly or as ``10^k``.

Normal form
-----------
With ``P0`` (sequences of player 0 × pure strategies of player 0) the 0/1 matrix whose
columns are the pure strategies' plans, and ``P1`` likewise, the expected payoff to player 0
of every pair of pure strategies is

    M = P0.T @ A @ P1                       (rows: pure strategies of 0; columns: of 1)

because a plan pair's payoff is ``x @ A @ y`` (KMvS 1996, eq. 9).  The chance expectation is
exact: ``A``'s Fraction entries are scaled by their common denominator ``D`` to integers, the
product is taken in ``int64`` and ``M = numerators / D`` (in floats from the start if the
integers could overflow).  The matrix game is the min-max LP
of :mod:`seqform.lp.minmax` with ``E = (1 ... 1)``, ``e = (1)``, ``F = (1 ... 1)``, ``f = (1)``.

Kuhn's theorem
--------------
A mixed strategy ``sigma`` over pure strategies has realization plan ``x = P @ sigma``
(sum of the pure plans, weighted); ``E x = e`` because every column of ``P`` satisfies it and
``sigma`` sums to one.  Under perfect recall the behavioural strategy
``b(a | h) = x[h, a] / x[parent(h)]`` is *realization equivalent* to ``sigma``: it has the same
payoff against every strategy of the opponent (Kuhn 1953, Theorem 4; KMvS 1996, Prop. 3.2).
:func:`kuhn_conversion` performs the map and measures both facts numerically.

Size limit
----------
Nothing is enumerated before the counts are checked against ``max_entries`` (default
``10**7`` payoff entries): Leduc-sized normal forms are refused at once by
:class:`NormalFormTooLargeError`, a ``ValueError`` that states the size.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.analyses.solve import Solution, Timings
from seqform.certify import certify
from seqform.forms.sequence_form import PlayerSequences, SequenceForm, build_sequence_form
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan, plan_from_behaviour
from seqform.game.model import Game
from seqform.lp.minmax import LPSolution, solve_minmax
from seqform.lp.solvers import Algorithm, Backend

__all__ = [
    "DEFAULT_MAX_ENTRIES",
    "KuhnConversion",
    "NormalForm",
    "NormalFormSolution",
    "NormalFormSummary",
    "NormalFormTooLargeError",
    "PureStrategies",
    "StrategyCounts",
    "build_normal_form",
    "check_normal_form_size",
    "count_json",
    "count_log10",
    "count_pure_strategies",
    "count_reduced_strategies",
    "count_text",
    "kuhn_conversion",
    "pure_strategies",
    "solve_matrix_game",
    "solve_normal_form",
    "strategy_counts",
]

DEFAULT_MAX_ENTRIES = 10**7
EXACT_DIGITS = 30  # counts with more digits are printed as 10^k
_INT64_SAFE = 2**62  # bound on |numerators| for the exact int64 product


class NormalFormTooLargeError(ValueError):
    """The normal form would exceed the size limit; the message gives its size."""


# --- counting --------------------------------------------------------------------------------


def count_pure_strategies(table: PlayerSequences) -> int:
    """The number of pure strategies, ``prod_h |A(h)|``, exactly.

    Parameters
    ----------
    table
        One player's sequence table (:class:`~seqform.forms.sequence_form.PlayerSequences`).
    """
    return math.prod(len(actions) for actions in table.actions)


def count_reduced_strategies(table: PlayerSequences) -> int:
    """The number of reduced pure strategies (distinct 0/1 realization plans), exactly.

    The recursion ``R(s) = prod_{h after s} sum_a R(h, a)`` of the module docstring, run
    bottom up: an information set is indexed after the one its parent sequence belongs to
    (see :mod:`seqform.forms.sequence_form`), so the reverse index order meets children first.
    """
    ways = [1] * table.num_sequences
    for infoset in reversed(range(table.num_infosets)):
        total = sum(ways[sequence] for sequence in table.sequences_of(infoset))
        ways[int(table.parent_sequence[infoset])] *= total
    return ways[0]


def count_log10(count: int) -> float:
    """``log10(count)`` for an arbitrarily large positive integer (0 gives ``-inf``)."""
    return math.log10(count) if count > 0 else float("-inf")


def count_text(count: int, max_digits: int = EXACT_DIGITS) -> str:
    """An exact count with grouped thousands (``"4 096"``), or ``"≈ 10^190.3"`` if too long.

    Parameters
    ----------
    count
        A non-negative integer.
    max_digits
        Counts with more digits than this are written as a power of ten.
    """
    digits = str(count)
    if len(digits) > max_digits:
        return f"≈ 10^{count_log10(count):.1f}"
    return f"{count:,}".replace(",", " ")


def count_json(count: int) -> dict[str, str | float]:
    """A count for JSON: the exact integer as a string and its ``log10``."""
    return {"exact": str(count), "log10": count_log10(count)}


@dataclass(frozen=True)
class StrategyCounts:
    """Exact pure-strategy counts of both players.

    pure : per player, the number of pure strategies
    reduced : per player, the number of reduced pure strategies
    """

    pure: tuple[int, int]
    reduced: tuple[int, int]

    @property
    def profiles(self) -> int:
        """Pure strategy profiles, the entries of the full normal-form matrix."""
        return self.pure[0] * self.pure[1]

    @property
    def reduced_profiles(self) -> int:
        """Entries of the reduced normal-form matrix."""
        return self.reduced[0] * self.reduced[1]

    def shape(self, reduced: bool) -> tuple[int, int]:
        """The normal-form matrix shape, full or reduced."""
        return self.reduced if reduced else self.pure

    def entries(self, reduced: bool) -> int:
        """The normal-form matrix entries, full or reduced."""
        return self.reduced_profiles if reduced else self.profiles


def strategy_counts(form: SequenceForm) -> StrategyCounts:
    """Count both players' pure and reduced pure strategies without enumerating them."""
    return StrategyCounts(
        pure=(count_pure_strategies(form.players[0]), count_pure_strategies(form.players[1])),
        reduced=(
            count_reduced_strategies(form.players[0]),
            count_reduced_strategies(form.players[1]),
        ),
    )


def check_normal_form_size(
    counts: StrategyCounts, *, reduced: bool = False, max_entries: int = DEFAULT_MAX_ENTRIES
) -> int:
    """Return the number of matrix entries, or refuse if it exceeds ``max_entries``.

    Raises
    ------
    NormalFormTooLargeError
        If ``rows × columns > max_entries``; the message states the size.
    """
    rows, columns = counts.shape(reduced)
    entries = rows * columns
    if entries > max_entries:
        kind = "reduced normal form" if reduced else "normal form"
        sizes = [count_text(count).removeprefix("≈ ") for count in (rows, columns, entries)]
        about = "about " if len(str(entries)) > EXACT_DIGITS else ""
        raise NormalFormTooLargeError(
            f"the {kind} is too large: {sizes[0]} × {sizes[1]} pure strategies = {about}"
            f"{sizes[2]} payoff entries, more than the limit of {count_text(max_entries)}"
        )
    return entries


# --- enumeration ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PureStrategies:
    """The pure strategies of one player, full or reduced, with their realization plans.

    table : the player's sequence table
    reduced : True for the reduced normal form (one strategy per distinct plan)
    choices : int array, shape (strategies, information sets): the action index chosen at
        each information set; -1 where the strategy's own earlier choices exclude it
        (reduced strategies only)
    plans : csc_array, shape (sequences, strategies): column ``k`` is the 0/1 realization
        plan of strategy ``k`` (the matrix ``P`` of the module docstring)

    Order: lexicographic in the choices, the first information set most significant.
    """

    table: PlayerSequences
    reduced: bool
    choices: np.ndarray
    plans: sp.csc_array

    def __len__(self) -> int:
        return int(self.choices.shape[0])

    def label(self, index: int) -> str:
        """``"J:b Jpb:p Q:p Qpb:b K:b Kpb:b"``; excluded information sets are left out."""
        table = self.table
        parts = [
            f"{table.infosets[infoset]}:{table.actions[infoset][choice]}"
            for infoset, choice in enumerate(self.choices[index].tolist())
            if choice >= 0
        ]
        return " ".join(parts) if parts else "∅"

    def labels(self) -> list[str]:
        """The labels of all strategies, in order."""
        return [self.label(index) for index in range(len(self))]

    def behaviour(self, index: int) -> BehaviouralStrategy:
        """Strategy ``index`` as a 0/1 behavioural strategy.

        Excluded information sets (reduced strategies) get their first action and are
        flagged ``unreached``; no payoff depends on them.
        """
        table = self.table
        probabilities = np.zeros(table.num_sequences)
        probabilities[0] = 1.0
        choices = self.choices[index]
        for infoset, choice in enumerate(choices.tolist()):
            probabilities[int(table.first_sequence[infoset]) + max(choice, 0)] = 1.0
        return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=choices < 0)


def _full_choices(table: PlayerSequences) -> np.ndarray:
    sizes = [len(actions) for actions in table.actions]
    if not sizes:
        return np.zeros((1, 0), dtype=np.int64)
    digits = np.unravel_index(np.arange(math.prod(sizes)), sizes)
    return np.stack(digits, axis=1).astype(np.int64)


def _plans_of_choices(table: PlayerSequences, choices: np.ndarray) -> np.ndarray:
    """0/1 plans, shape (strategies, sequences), of fully specified choices."""
    plans = np.zeros((choices.shape[0], table.num_sequences), dtype=bool)
    plans[:, 0] = True
    # Parents precede their information sets, so one pass in index order suffices.
    for infoset in range(table.num_infosets):
        reached = np.flatnonzero(plans[:, int(table.parent_sequence[infoset])])
        plans[reached, int(table.first_sequence[infoset]) + choices[reached, infoset]] = True
    return plans


def _reduced_plans(table: PlayerSequences) -> np.ndarray:
    """The distinct 0/1 plans, shape (strategies, sequences), by the recursion ``R(s)``."""
    width = table.num_sequences
    entered: list[list[int]] = [[] for _ in range(width)]
    for infoset in range(table.num_infosets):
        entered[int(table.parent_sequence[infoset])].append(infoset)
    per_infoset: dict[int, np.ndarray] = {}

    def after(sequence: int) -> np.ndarray:
        # Every combination of the options of the information sets entered from here, the
        # first information set most significant.
        combined = np.zeros((1, width), dtype=bool)
        for infoset in entered[sequence]:
            options = per_infoset.pop(infoset)
            combined = (combined[:, None, :] | options[None, :, :]).reshape(-1, width)
        return combined

    for infoset in reversed(range(table.num_infosets)):
        blocks = []
        for sequence in table.sequences_of(infoset):
            block = after(sequence)
            block[:, sequence] = True
            blocks.append(block)
        per_infoset[infoset] = np.concatenate(blocks)
    root = after(0)
    root[:, 0] = True
    return root


def _choices_of_plans(table: PlayerSequences, plans: np.ndarray) -> np.ndarray:
    choices = np.full((plans.shape[0], table.num_infosets), -1, dtype=np.int64)
    for infoset in range(table.num_infosets):
        block = plans[:, table.sequences_of(infoset).start : table.sequences_of(infoset).stop]
        chosen = block.any(axis=1)
        choices[chosen, infoset] = block[chosen].argmax(axis=1)
    return choices


def pure_strategies(
    table: PlayerSequences, *, reduced: bool = False, max_strategies: int = DEFAULT_MAX_ENTRIES
) -> PureStrategies:
    """Enumerate one player's pure strategies (or reduced pure strategies) with their plans.

    Parameters
    ----------
    table
        The player's sequence table.
    reduced
        Merge strategies with the same realization plan (the reduced normal form).
    max_strategies
        Refuse, before enumerating anything, if there are more strategies than this.

    Raises
    ------
    NormalFormTooLargeError
        If the exact count exceeds ``max_strategies``.
    """
    count = count_reduced_strategies(table) if reduced else count_pure_strategies(table)
    if count > max_strategies:
        kind = "reduced pure strategies" if reduced else "pure strategies"
        raise NormalFormTooLargeError(
            f"player {table.player + 1} has {count_text(count)} {kind}, more than the limit "
            f"of {count_text(max_strategies)}"
        )
    if reduced:
        plans = _reduced_plans(table)
        choices = _choices_of_plans(table, plans)
    else:
        choices = _full_choices(table)
        plans = _plans_of_choices(table, choices)
    return PureStrategies(
        table=table,
        reduced=reduced,
        choices=choices,
        plans=sp.csc_array(plans.T, dtype=float),
    )


# --- the normal-form matrix -----------------------------------------------------------------


@dataclass(frozen=True)
class NormalForm:
    """The normal form of a two-player zero-sum game: ``M = P0.T @ A @ P1``.

    strategies : the pure strategies of players 0 and 1 (rows and columns of ``M``)
    matrix : float array, shape (strategies of 0, strategies of 1): player 0's expected
        payoff of each pure pair, the float image of ``numerators / denominator``
    numerators : int64 array of the same shape with ``M = numerators / denominator``
        exactly, or ``None`` if the exact product would overflow ``int64``
    denominator : the common denominator of the sequence-form payoffs ``A``
    form : the sequence form it was built from
    """

    strategies: tuple[PureStrategies, PureStrategies]
    matrix: np.ndarray
    numerators: np.ndarray | None
    denominator: int
    form: SequenceForm

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.matrix.shape[0]), int(self.matrix.shape[1]))

    @property
    def entries(self) -> int:
        return self.shape[0] * self.shape[1]

    @property
    def nonzeros(self) -> int:
        return int(np.count_nonzero(self.matrix))

    def exact(self, row: int, column: int) -> Fraction:
        """Player 0's exact expected payoff when pure strategies ``row`` and ``column`` meet."""
        if self.numerators is not None:
            return Fraction(int(self.numerators[row, column]), self.denominator)
        first = self.strategies[0].plans[:, [row]].toarray().ravel() > 0
        second = self.strategies[1].plans[:, [column]].toarray().ravel() > 0
        rows, columns, values = self.form.payoff_entries
        return sum(
            (
                value
                for r, c, value in zip(rows.tolist(), columns.tolist(), values, strict=True)
                if first[r] and second[c]
            ),
            Fraction(0),
        )


def _payoff_numerators(form: SequenceForm) -> tuple[sp.csr_array | None, int]:
    """``A`` times the common denominator of its entries as int64, if that is safe."""
    rows, columns, values = form.payoff_entries
    denominator = math.lcm(*(value.denominator for value in values)) if values else 1
    scaled = [value.numerator * (denominator // value.denominator) for value in values]
    if sum(abs(number) for number in scaled) >= _INT64_SAFE:
        return None, denominator
    numerators = sp.csr_array(
        (np.asarray(scaled, dtype=np.int64), (rows, columns)), shape=form.A.shape
    )
    return numerators, denominator


def build_normal_form(
    form: SequenceForm, *, reduced: bool = False, max_entries: int = DEFAULT_MAX_ENTRIES
) -> NormalForm:
    """Enumerate pure strategies and build the normal-form matrix ``M = P0.T @ A @ P1``.

    Parameters
    ----------
    form
        The game's sequence form (its label tables and exact payoffs).
    reduced
        Use reduced pure strategies (one per distinct realization plan).
    max_entries
        Refuse, from the exact counts and before building anything, if the matrix would
        have more entries than this.

    Raises
    ------
    NormalFormTooLargeError
        If the matrix would exceed ``max_entries``.
    """
    counts = strategy_counts(form)
    check_normal_form_size(counts, reduced=reduced, max_entries=max_entries)
    strategies = (
        pure_strategies(form.players[0], reduced=reduced, max_strategies=max_entries),
        pure_strategies(form.players[1], reduced=reduced, max_strategies=max_entries),
    )
    first, second = (s.plans for s in strategies)
    numerators_A, denominator = _payoff_numerators(form)
    if numerators_A is None:
        numerators = None
        matrix = (first.T @ form.A @ second).toarray()
    else:
        as_int = [plans.astype(np.int64) for plans in (first, second)]
        numerators = np.asarray((as_int[0].T @ numerators_A @ as_int[1]).toarray(), np.int64)
        matrix = numerators / denominator
    return NormalForm(
        strategies=strategies,
        matrix=np.asarray(matrix, dtype=float),
        numerators=numerators,
        denominator=denominator,
        form=form,
    )


def solve_matrix_game(
    matrix: np.ndarray,
    *,
    backend: Backend = "highs",
    algorithm: Algorithm = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
) -> LPSolution:
    """Solve ``max_sigma min_tau sigma @ M @ tau`` over mixed strategies.

    The min-max LP of :mod:`seqform.lp.minmax` with ``E = (1 ... 1)``, ``e = (1)`` and
    ``F = (1 ... 1)``, ``f = (1)``: ``x`` and ``y`` of the result are the players' mixed
    strategies and ``value`` the value of the matrix game.
    """
    rows, columns = matrix.shape
    return solve_minmax(
        sp.csr_array(np.ones((1, rows))),
        np.ones(1),
        sp.csr_array(np.ones((1, columns))),
        np.ones(1),
        sp.csr_array(matrix),
        backend=backend,
        algorithm=algorithm,
        time_limit=time_limit,
        verbose=verbose,
    )


# --- Kuhn's theorem -------------------------------------------------------------------------


@dataclass(frozen=True)
class KuhnConversion:
    """A mixed strategy over pure strategies and its realization-equivalent behaviour.

    mixed : probabilities over the player's pure strategies (as enumerated)
    plan : its realization plan ``x = P @ mixed``
    behaviour : the behavioural strategy of ``plan`` (:func:`behaviour_from_plan`)
    constraint_residual : ``max |E x - e|`` (``F``, ``f`` for player 1)
    payoff_gap : over every sequence of the opponent, the largest difference between the
        mixed strategy's payoff (pure payoffs weighted by ``mixed``) and the behavioural
        strategy's (through its own plan); Kuhn (1953) says 0
    """

    player: int
    mixed: np.ndarray
    plan: np.ndarray
    behaviour: BehaviouralStrategy
    constraint_residual: float
    payoff_gap: float


def kuhn_conversion(
    form: SequenceForm, strategies: PureStrategies, mixed: np.ndarray
) -> KuhnConversion:
    """Map a mixed strategy to its realization plan and behavioural strategy (Kuhn 1953).

    Parameters
    ----------
    form
        The sequence form whose label tables ``strategies`` enumerate.
    strategies
        The player's pure strategies (full or reduced).
    mixed
        Probabilities over ``strategies`` (non-negative, summing to one).

    Returns
    -------
    KuhnConversion
        The plan, the behaviour and two measured checks: ``E x = e`` and equal payoffs
        against every opponent sequence.
    """
    player = strategies.table.player
    mixed = np.asarray(mixed, dtype=float)
    if mixed.shape != (len(strategies),):
        raise ValueError(
            f"the mixed strategy has {mixed.size} probabilities but player {player + 1} has "
            f"{len(strategies)} pure strategies here"
        )
    plan = strategies.plans @ mixed
    constraints, rhs = form.constraints(player)
    residual = float(np.max(np.abs(constraints @ plan - rhs)))
    behaviour = behaviour_from_plan(strategies.table, plan)
    behaviour_plan = plan_from_behaviour(behaviour)
    # Payoff of each own pure strategy against each opponent sequence: rows of P.T A (or
    # P.T A.T for player 1, seen from player 0), then weighted by the mixture.
    payoffs = form.A if player == 0 else form.A.T
    per_pure = (strategies.plans.T @ payoffs).toarray()
    mixed_payoffs = mixed @ per_pure
    behaviour_payoffs = payoffs.T @ behaviour_plan
    gap = float(np.max(np.abs(mixed_payoffs - behaviour_payoffs), initial=0.0))
    return KuhnConversion(
        player=player,
        mixed=mixed,
        plan=plan,
        behaviour=behaviour,
        constraint_residual=residual,
        payoff_gap=gap,
    )


# --- solving through the normal form --------------------------------------------------------


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
class NormalFormSolution:
    """An equilibrium found through the normal form, in the sequence form's terms.

    solution : a :class:`~seqform.analyses.solve.Solution` whose plans are the Kuhn conversions of
        the mixed strategies, certified by best response on the tree like any other;
        ``solution.stats`` describes the matrix-game LP and ``solution.timings.sequence_form``
        includes building the normal form
    normal_form : the matrix and the enumerated pure strategies
    conversions : per player, the mixed strategy, plan and behaviour (Kuhn 1953)
    summary : sizes and checks for reports
    """

    solution: Solution
    normal_form: NormalForm
    conversions: tuple[KuhnConversion, KuhnConversion]
    summary: NormalFormSummary

    @property
    def mixed(self) -> tuple[np.ndarray, np.ndarray]:
        """The LP's mixed strategies over the enumerated pure strategies."""
        return (self.conversions[0].mixed, self.conversions[1].mixed)


def solve_normal_form(
    game: Game,
    *,
    reduced: bool = False,
    max_entries: int = DEFAULT_MAX_ENTRIES,
    backend: Backend = "highs",
    algorithm: Algorithm = "simplex",
    time_limit: float | None = None,
    verbose: bool = False,
    form: SequenceForm | None = None,
) -> NormalFormSolution:
    """Solve ``game`` through its normal form and certify the answer by best response.

    The matrix game's mixed strategies are mapped to realization plans and behavioural
    strategies by Kuhn's theorem (:func:`kuhn_conversion`), so the result reads like the
    sequence-form solution of :func:`seqform.analyses.solve.solve`.

    Parameters
    ----------
    game
        The game.
    reduced
        Solve the reduced normal form instead of the full one.
    max_entries
        Size limit on the matrix (see :func:`build_normal_form`).
    backend, algorithm, time_limit, verbose
        As for :func:`seqform.lp.minmax.solve_minmax`.
    form
        The game's sequence form, if already built.

    Raises
    ------
    NormalFormTooLargeError
        If the matrix would exceed ``max_entries``.
    seqform.lp.minmax.SolverError
        If the LP solver does not prove optimality.
    """
    start = time.perf_counter()
    form = build_sequence_form(game) if form is None else form
    form_built = time.perf_counter()
    normal_form = build_normal_form(form, reduced=reduced, max_entries=max_entries)
    built = time.perf_counter()
    lp_solution = solve_matrix_game(
        normal_form.matrix,
        backend=backend,
        algorithm=algorithm,
        time_limit=time_limit,
        verbose=verbose,
    )
    solved = time.perf_counter()
    conversions = (
        kuhn_conversion(form, normal_form.strategies[0], lp_solution.x),
        kuhn_conversion(form, normal_form.strategies[1], lp_solution.y),
    )
    converted = time.perf_counter()
    behaviour = (conversions[0].behaviour, conversions[1].behaviour)
    certificate = certify(game, behaviour[0], behaviour[1])
    certified = time.perf_counter()
    solution = Solution(
        game=game,
        form=form,
        value=lp_solution.value,
        plans=(conversions[0].plan, conversions[1].plan),
        behaviour=behaviour,
        certificate=certificate,
        stats=lp_solution.stats,
        timings=Timings(
            sequence_form=built - start,
            lp=solved - built,
            behaviour=converted - solved,
            certificate=certified - converted,
        ),
    )
    summary = NormalFormSummary(
        reduced=reduced,
        counts=strategy_counts(form),
        shape=normal_form.shape,
        nonzeros=normal_form.nonzeros,
        build_seconds=built - form_built,
        constraint_residuals=(
            conversions[0].constraint_residual,
            conversions[1].constraint_residual,
        ),
        payoff_gaps=(conversions[0].payoff_gap, conversions[1].payoff_gap),
    )
    return NormalFormSolution(
        solution=solution,
        normal_form=normal_form,
        conversions=conversions,
        summary=summary,
    )
