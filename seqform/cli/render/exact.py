"""``solve --exact``: exact rational strategies and value as text.

Its JSON document is :func:`seqform.documents.exact.exact_document` (``seqform.solve/2``, or
``seqform.structured/2`` on the structured route, with the ``"exact"`` key).
"""

from __future__ import annotations

from seqform.cli.render.blocks import constant_sum_lines, header
from seqform.cli.render.numbers import count_text, value_text
from seqform.cli.render.restrict import restriction_lines
from seqform.cli.render.strategies import behaviour_tables, strategy_sections
from seqform.cli.render.structured import route_line
from seqform.cli.render.tables import label_rows
from seqform.documents.exact import AnyExactSolution
from seqform.routes.structured_exact import StructuredExactSolution

__all__ = ["exact_text"]

_FOUND_BY = {
    "rounding": "rounding the float strategies to nearby fractions",
    "basis": "re-solving HiGHS's optimal basis in exact arithmetic",
    "mixed": "one player's strategy from rounding, the other's from the exact basis",
}


def _names(solution: AnyExactSolution) -> tuple[str, str]:
    """The players' names of the solution's game."""
    names = solution.game.player_names
    return names[0], names[1]


def _value_lines(solution: AnyExactSolution, name: str) -> list[str]:
    if solution.certified:
        value = solution.bounds.lower  # == upper == value, a Fraction
        return [f"Value to {name}: {value_text(value, exact=True)}, exact and certified"]
    lower, upper = solution.bounds.lower, solution.bounds.upper
    return [
        f"Value to {name}: NOT certified; the exact certificate bounds it by",
        f"  {lower} <= value <= {upper}",
        f"  in decimals {value_text(lower)} <= value <= {value_text(upper)}",
        f"  LP float optimum {value_text(solution.float_value)}",
    ]


def _certificate_kind(solution: AnyExactSolution) -> str:
    if isinstance(solution, StructuredExactSolution):
        return "public tree × hands walk in exact arithmetic"
    if solution.restrictions is not None:
        return "restricted best responses in exact arithmetic"
    return "tree walk in exact arithmetic"


def _certificate_lines(solution: AnyExactSolution, names: tuple[str, str]) -> list[str]:
    certificate = solution.certificate
    kind = _certificate_kind(solution)
    verdict = (
        "exactly 0: an exact equilibrium"
        if certificate.nash_conv == 0
        else f"{certificate.exploitability}: not an equilibrium"
    )
    rows = [
        ("expected value", value_text(certificate.value, exact=True)),
        (f"best response of {names[0]}", value_text(certificate.best_response_values[0], True)),
        (f"best response of {names[1]}", value_text(certificate.best_response_values[1], True)),
        ("exploitability (NashConv / 2)", verdict),
    ]
    lines = [f"Exact certificate ({kind}, independent of the LP):", *label_rows(rows)]
    if solution.found_by in _FOUND_BY:
        lines.append(f"  strategies found by {_FOUND_BY[solution.found_by]}")
    if solution.basis_verified is not None:
        basis = "proven optimal" if solution.basis_verified else "NOT exactly optimal"
        lines.append(f"  the exact basic solution of the LP is {basis} (primal and dual checks)")
    lines += [f"  note: {note}" for note in solution.notes]
    return lines


def exact_text(solution: AnyExactSolution, strategies: str = "auto") -> str:
    """Exact value (or exact bounds), certificate and exact strategies; on the structured
    route with the route line of :mod:`seqform.cli.render.structured`."""
    game = solution.game
    names = _names(solution)
    lines = [header(game.name, game.description), *_value_lines(solution, names[0])]
    if isinstance(solution, StructuredExactSolution):
        lines.append(route_line(solution))
    else:
        lines += constant_sum_lines(solution.game, solution.value)
        if solution.restrictions is not None:
            lines += ["", *restriction_lines(solution.restrictions, solution.game)]
    stats, t = solution.stats, solution.timings
    lines += [
        "",
        *_certificate_lines(solution, names),
        "",
        f"Solver: HiGHS {stats.solver} (float LP, {count_text(stats.iterations)} iterations, "
        f"{t.lp:.3f} s); exact stage {t.rounding + t.basis + t.certificate:.3f} s; "
        f"total {t.total:.3f} s",
    ]
    tables = behaviour_tables(solution.strategies, names, "exact behavioural strategy")
    lines += strategy_sections(game, tables, strategies)
    return "\n".join(lines)
