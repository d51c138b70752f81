"""Restricted players: behaviour fixed or bounded at some information sets.

A restriction bounds the probability of an action at an information set,
``lo <= b(a | h) <= hi`` (``lo = hi`` fixes it).  On realization plans (KMvS 1996, §3,
``x[h, a] = x[parent(h)] · b(a | h)``) this is the pair of *linear* constraints

    x[h, a] − lo · x[parent(h)] >= 0,        x[h, a] − hi · x[parent(h)] <= 0,

(one equation when ``lo = hi``).  So the restricted game is again an LP: the constraints
join player 1's side of the merged LP as rows, and player 2's side through the dual
multipliers derived in :mod:`seqform.lp.exact.minmax`.  Its value and strategies are those
of the game in which the restricted player may only use strategies obeying the bounds.

Certificate.  The set of plans obeying the bounds is, information set by information
set, a product of small polytopes ``{b : sum_a b_a = 1, lo_a <= b_a <= hi_a}``, so a best
response *within the restrictions* is still found by backward induction over the
player's own information sets, with the local choice a fractional knapsack: start every
action at ``lo_a`` and give the remaining probability to the actions of highest value
first, each up to ``hi_a``.  That is the one best response of :mod:`seqform.certify`
given the bounds; the restricted game's certificate compares each player's value with
it, computed from the tree's terminal data, not from the LP.

Command-line syntax (``--fix``): ``INFOSET:ACTION=P``, ``INFOSET:ACTION<=P`` or
``INFOSET:ACTION>=P`` with ``P`` a fraction or decimal (``1/3``, ``0.25``).  A JSON file
(``--fix-file``) maps information sets to actions to a probability or a ``[lo, hi]`` pair:
``{"K": {"b": 1}, "Qpb": {"b": ["1/3", "1/2"]}}``; numbers may be JSON numbers (read as the
decimal they print as) or strings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seqform.certify import Certificate, LocalBounds, bounded_choice, certify
from seqform.forms.provenance import sequence_form_of
from seqform.forms.sequence_form import SequenceForm
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan
from seqform.game.model import Game
from seqform.game.requirements import require_float_payoffs
from seqform.io.strategy_files import parse_probability, read_restriction_file
from seqform.lp.exact.minmax import PlanConstraint, minmax_program, solve_minmax_program
from seqform.lp.problem import FloatSolution
from seqform.routes.result import PhaseClock, lp_stages
from seqform.routes.tree import Solution

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "ActionBound",
    "RestrictedSolution",
    "Restrictions",
    "default_choice",
    "load_fix_file",
    "obey_bounds_where_unreached",
    "parse_fix",
    "plan_constraints",
    "resolve_restrictions",
    "restricted_certificate",
    "solve_restricted",
    "violations",
]

_FIX = re.compile(r"^(?P<target>.+?)\s*(?P<op><=|>=|=)\s*(?P<value>[^=<>]+)$")


@dataclass(frozen=True)
class ActionBound:
    """``lower <= b(action | infoset) <= upper``, as the user wrote it."""

    infoset: str
    action: str
    lower: Fraction
    upper: Fraction

    def text(self) -> str:
        if self.lower == self.upper:
            return f"{self.infoset}:{self.action} = {self.lower}"
        return f"{self.lower} <= {self.infoset}:{self.action} <= {self.upper}"


@dataclass(frozen=True)
class Restrictions:
    """Validated bounds, resolved against a game's sequence form.

    bounds : the bounds as given (after merging repeats of one action)
    by_player : per player, information-set index -> per action ``(lo, hi)``
    """

    bounds: tuple[ActionBound, ...]
    by_player: tuple[Mapping[int, LocalBounds], Mapping[int, LocalBounds]]

    def players(self) -> list[int]:
        """The restricted players (0 and/or 1)."""
        return [player for player in (0, 1) if self.by_player[player]]


@dataclass(frozen=True)
class RestrictedSolution(Solution):
    """An equilibrium of the restricted game: a tree :class:`~seqform.routes.tree.Solution`
    whose strategies obey ``restrictions`` (also at unreached information sets) and whose
    certificate uses restricted best responses (:func:`restricted_certificate`).

    restrictions : the bounds, resolved against the game
    """

    restrictions: Restrictions


def _split_target(target: str, where: str) -> tuple[str, str]:
    infoset, colon, action = target.strip().rpartition(":")
    if not colon or not infoset or not action:
        raise ValueError(f"{where}: write INFOSET:ACTION, e.g. K:b")
    return infoset, action


def parse_fix(spec: str) -> ActionBound:
    """Read ``"K:b=1"``, ``"Qpb:b<=1/2"`` or ``"J:b>=0.1"``.

    Raises
    ------
    ValueError
        If the text is not of that form or the probability is not in [0, 1].
    """
    where = f"--fix {spec!r}"
    match = _FIX.match(spec.strip())
    if match is None:
        raise ValueError(f"{where}: write INFOSET:ACTION=P, INFOSET:ACTION<=P or >=P")
    infoset, action = _split_target(match["target"], where)
    value = parse_probability(match["value"], where)
    op = match["op"]
    lower = value if op in ("=", ">=") else Fraction(0)
    upper = value if op in ("=", "<=") else Fraction(1)
    return ActionBound(infoset, action, lower, upper)


def load_fix_file(path: str | Path) -> list[ActionBound]:
    """Read the JSON restrictions file described in the module docstring, with
    :func:`seqform.io.strategy_files.read_restriction_file`.

    Raises
    ------
    OSError
        If the file cannot be read.
    StrategyFileError
        (a ``ValueError``) If it is not JSON of the documented shape.
    """
    return [
        ActionBound(infoset, action, bounds.lower, bounds.upper)
        for infoset, actions in read_restriction_file(path).items()
        for action, bounds in actions.items()
    ]


def resolve_restrictions(form: SequenceForm, bounds: Sequence[ActionBound]) -> Restrictions:
    """Check ``bounds`` against the game and index them by player and information set.

    Repeated bounds on one action are intersected.

    Raises
    ------
    ValueError
        For an unknown information set or action, an empty range, or bounds at one
        information set that no probability distribution satisfies.
    """
    lookup = [table.index_of_infoset() for table in form.players]
    merged: dict[tuple[int, int], dict[int, tuple[Fraction, Fraction]]] = {}
    kept: dict[tuple[str, str], ActionBound] = {}
    for bound in bounds:
        owner = next((p for p in (0, 1) if bound.infoset in lookup[p]), None)
        if owner is None:
            known = [name for table in form.players for name in table.infosets]
            shown = ", ".join(known[:12]) + (", …" if len(known) > 12 else "")
            raise ValueError(f"no information set {bound.infoset!r} in this game (it has {shown})")
        index = lookup[owner][bound.infoset]
        actions = form.players[owner].actions[index]
        if bound.action not in actions:
            raise ValueError(
                f"information set {bound.infoset!r} has no action {bound.action!r} "
                f"(its actions: {', '.join(actions)})"
            )
        slot = merged.setdefault((owner, index), {})
        position = actions.index(bound.action)
        lower, upper = slot.get(position, (Fraction(0), Fraction(1)))
        lower, upper = max(lower, bound.lower), min(upper, bound.upper)
        if lower > upper:
            raise ValueError(
                f"the bounds on {bound.infoset}:{bound.action} leave no probability "
                f"(need {lower} <= p <= {upper})"
            )
        slot[position] = (lower, upper)
        kept[(bound.infoset, bound.action)] = ActionBound(bound.infoset, bound.action, lower, upper)
    by_player: tuple[dict[int, LocalBounds], dict[int, LocalBounds]] = ({}, {})
    for (owner, index), slot in merged.items():
        count = len(form.players[owner].actions[index])
        local = tuple(slot.get(a, (Fraction(0), Fraction(1))) for a in range(count))
        low = sum((lo for lo, _ in local), Fraction(0))
        high = sum((hi for _, hi in local), Fraction(0))
        if low > 1 or high < 1:
            name = form.players[owner].infosets[index]
            raise ValueError(
                f"the bounds at information set {name!r} cannot be met: the lower bounds sum "
                f"to {low} and the upper bounds to {high}, but the probabilities sum to 1"
            )
        by_player[owner][index] = local
    return Restrictions(bounds=tuple(kept.values()), by_player=by_player)


def plan_constraints(
    form: SequenceForm, restrictions: Restrictions
) -> tuple[list[PlanConstraint], list[PlanConstraint]]:
    """The linear constraints on ``x`` and on ``y`` (module docstring)."""
    out: tuple[list[PlanConstraint], list[PlanConstraint]] = ([], [])
    for player in (0, 1):
        table = form.players[player]
        for index, local in sorted(restrictions.by_player[player].items()):
            parent = int(table.parent_sequence[index])
            for sequence, (lower, upper) in zip(table.sequences_of(index), local, strict=True):
                if lower == upper:
                    out[player].append(
                        PlanConstraint(((sequence, Fraction(1)), (parent, -lower)), "==")
                    )
                    continue
                if lower > 0:
                    out[player].append(
                        PlanConstraint(((sequence, Fraction(1)), (parent, -lower)), ">=")
                    )
                if upper < 1:
                    out[player].append(
                        PlanConstraint(((sequence, Fraction(1)), (parent, -upper)), "<=")
                    )
    return out


def violations(
    game: Game,
    player: int,
    probabilities: Sequence[Any] | np.ndarray,
    restrictions: Restrictions,
    tol: float = 0.0,
) -> list[str]:
    """Where a behaviour (per sequence) breaks the bounds by more than ``tol``."""
    table = game.flat.tables[player]
    found = []
    for index, local in sorted(restrictions.by_player[player].items()):
        for sequence, action, (lower, upper) in zip(
            table.sequences_of(index), table.actions[index], local, strict=True
        ):
            probability = probabilities[sequence]
            low, high = (lower - tol, upper + tol) if tol else (lower, upper)  # exact if tol 0
            if probability < low or probability > high:
                found.append(
                    f"{table.infosets[index]}:{action} has probability {probability}, "
                    f"outside [{lower}, {upper}]"
                )
    return found


def restricted_certificate(
    game: Game,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
    restrictions: Restrictions,
) -> Certificate:
    """Value, restricted best-response values and NashConv of a profile (module docstring).

    The best responses of :func:`seqform.certify.certify` within each player's bounds;
    exact when both strategies are.
    """
    return certify(game, strategies[0], strategies[1], restrictions.by_player)


def default_choice(local: LocalBounds) -> list[Fraction]:
    """A distribution within ``local``: lower bounds, the rest to the first actions."""
    return bounded_choice([Fraction(-a) for a in range(len(local))], local)


def solve_restricted(
    game: Game,
    restrictions: Restrictions,
    *,
    form: SequenceForm | None = None,
    solver: str = "simplex",
    time_limit: float | None = None,
) -> RestrictedSolution:
    """Solve the restricted game in floats; the certificate uses restricted best responses.

    Returns a :class:`RestrictedSolution`: its value, both
    players' strategies (obeying the bounds, also at unreached information sets), the
    certificate of :func:`restricted_certificate` and the restrictions themselves.

    Raises
    ------
    seqform.lp.solvers.InfeasibleError
        Never for validated restrictions (each restricted set has a feasible local choice).
    seqform.lp.solvers.SolverError
        If HiGHS does not prove optimality.
    """
    clock = PhaseClock()
    with clock.phase("sequence_form"):
        require_float_payoffs(game, "the float LP of a restricted game")
        built = sequence_form_of(game, form)
    x_rows, y_rows = plan_constraints(built, restrictions)
    result = lp_stages(
        clock,
        lambda: _solved_in_game_units(built, x_rows, y_rows, solver, time_limit),
        lambda x, y: (
            obey_bounds_where_unreached(
                behaviour_from_plan(built.players[0], x), restrictions.by_player[0]
            ),
            obey_bounds_where_unreached(
                behaviour_from_plan(built.players[1], y), restrictions.by_player[1]
            ),
        ),
        lambda profile: restricted_certificate(game, profile, restrictions),
    )
    return RestrictedSolution(game=game, form=built, restrictions=restrictions, **result.parts())


def _solved_in_game_units(
    form: SequenceForm,
    x_rows: list[PlanConstraint],
    y_rows: list[PlanConstraint],
    solver: str,
    time_limit: float | None,
) -> FloatSolution:
    """HiGHS's optimum of the restricted LP of ``form.scaled_for_floats()`` (``A / s``, ``s`` a
    power of two, when the payoffs are too small or too large for HiGHS's absolute
    tolerances: the tree route's rule), its value read in the game's payoffs.

    The plans are those of ``A`` (the constraints do not involve ``A``); only the optimum
    is divided by ``s``.  Without it Kuhn poker in billionths of a chip with ``J:b=1``
    fixed was solved to the value 0 (-5/18 · 1e-9) and a point its certificate refused."""
    scaled = form.scaled_for_floats()
    solution = solve_minmax_program(
        minmax_program(scaled, x_constraints=x_rows, y_constraints=y_rows),
        solver=solver,
        time_limit=time_limit,
    )
    if scaled.payoff_scale == 1 or solution.plans is None:
        return solution
    layout = replace(solution.plans, scale=float(1 / scaled.payoff_scale))
    return replace(solution, plans=layout)


def obey_bounds_where_unreached(
    strategy: BehaviouralStrategy, local_bounds: Mapping[int, LocalBounds]
) -> BehaviouralStrategy:
    """Replace the behaviour at unreached restricted information sets by a feasible one."""
    probabilities = strategy.probabilities.copy()
    for index, local in local_bounds.items():
        if strategy.unreached[index]:
            sequences = strategy.table.sequences_of(index)
            chosen = default_choice(local)
            probabilities[sequences.start : sequences.stop] = (
                chosen if strategy.exact else [float(p) for p in chosen]
            )
    return BehaviouralStrategy(
        table=strategy.table, probabilities=probabilities, unreached=strategy.unreached
    )
