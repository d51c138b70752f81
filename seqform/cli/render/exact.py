"""``solve --exact``: exact rational strategies and value as text and JSON.

The document is ``seqform.solve/1`` (:mod:`seqform.cli.render.report`, with the strategies as
floats) plus one key; exact numbers are strings (``"-1/18"``)::

    "exact": {"certified": bool, "value": str | null,
              "bounds": {"lower": str, "upper": str},
              "method": "rounding" | "basis" | "mixed" | "none",
              "basis_verified": bool | null,
              "certificate": {"expected_value": str, "best_response_values": [str, str],
                              "gains": [str, str], "exploitability": str},
              "strategies": [EXACT_STRATEGY, ×2], "notes": [str],
              "seconds": {"sequence_form", "lp", "rounding", "basis", "certificate", "total"}}

with ``EXACT_STRATEGY = {"player": 1 | 2, "name": str, "infosets": [{"name": str,
"unreached": bool, "actions": [{"action": str, "words": str, "probability": str}]}]}``.
With ``--fix`` the ``"restrictions"`` key of :mod:`seqform.cli.render.restrict` is added.
On the structured route (``--method structured --exact``,
:class:`~seqform.analyses.structured_exact.StructuredExactSolution`) the same ``"exact"`` key
is added to the ``seqform.structured/1`` document of :mod:`seqform.cli.render.structured`.
"""

from __future__ import annotations

from typing import Any

from seqform.analyses.exact import ExactSolution
from seqform.analyses.structured_exact import StructuredExactSolution
from seqform.cli.render.blocks import (
    Words,
    constant_sum_lines,
    exact_certificate_json,
    header,
    strategy_json,
)
from seqform.cli.render.numbers import count_text, value_text
from seqform.cli.render.report import solve_document
from seqform.cli.render.restrict import restriction_lines, restrictions_json
from seqform.cli.render.strategies import behaviour_tables, strategy_sections
from seqform.cli.render.structured import NAMES, route_line, structured_json
from seqform.cli.render.tables import label_rows

__all__ = ["AnyExactSolution", "exact_json", "exact_text"]

AnyExactSolution = ExactSolution | StructuredExactSolution
"""An exact solution on the tree or on the structured route."""

_METHODS = {
    "rounding": "rounding the float strategies to nearby fractions",
    "basis": "re-solving HiGHS's optimal basis in exact arithmetic",
    "mixed": "one player's strategy from rounding, the other's from the exact basis",
}


def _names_and_words(solution: AnyExactSolution) -> tuple[tuple[str, str], Words]:
    """The players' names and the action words of the solution's game."""
    if isinstance(solution, StructuredExactSolution):
        words = solution.game.describe_action or (lambda _infoset, action: action)
        return NAMES, words
    game = solution.game
    return (game.player_names[0], game.player_names[1]), game.describe_action


def exact_json(solution: AnyExactSolution) -> dict[str, Any]:
    """``seqform.solve/1`` (``seqform.structured/1`` on the structured route) with the
    ``"exact"`` key (module docstring)."""
    t = solution.timings
    names, words = _names_and_words(solution)
    if isinstance(solution, StructuredExactSolution):
        document = structured_json(solution)
    else:
        document = solve_document(solution)
        if solution.restrictions is not None:
            document["restrictions"] = restrictions_json(solution.restrictions)
    document["exact"] = {
        "certified": solution.certified,
        "value": str(solution.value) if solution.certified else None,
        "bounds": {"lower": str(solution.bounds.lower), "upper": str(solution.bounds.upper)},
        "method": solution.method,
        "basis_verified": solution.basis_verified,
        "certificate": exact_certificate_json(solution.certificate),
        "strategies": [strategy_json(s, names[s.player], words) for s in solution.strategies],
        "notes": list(solution.notes),
        "seconds": {**t.as_dict(), "total": t.total},
    }
    return document


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
        if certificate.exploitability == 0
        else f"{certificate.exploitability}: not an equilibrium"
    )
    rows = [
        ("expected value", value_text(certificate.value, exact=True)),
        (f"best response of {names[0]}", value_text(certificate.best_response_values[0], True)),
        (f"best response of {names[1]}", value_text(certificate.best_response_values[1], True)),
        ("exploitability (NashConv)", verdict),
    ]
    lines = [f"Exact certificate ({kind}, independent of the LP):", *label_rows(rows)]
    if solution.method in _METHODS:
        lines.append(f"  strategies found by {_METHODS[solution.method]}")
    if solution.basis_verified is not None:
        basis = "proven optimal" if solution.basis_verified else "NOT exactly optimal"
        lines.append(f"  the exact basic solution of the LP is {basis} (primal and dual checks)")
    lines += [f"  note: {note}" for note in solution.notes]
    return lines


def exact_text(solution: AnyExactSolution, strategies: str = "auto") -> str:
    """Exact value (or exact bounds), certificate and exact strategies; on the structured
    route with the route line of :mod:`seqform.cli.render.structured`."""
    game = solution.game
    names, _ = _names_and_words(solution)
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
        f"Solver: HiGHS {stats.algorithm} (float LP, {count_text(stats.iterations)} iterations, "
        f"{t.lp:.3f} s); exact stage {t.rounding + t.basis + t.certificate:.3f} s; "
        f"total {t.total:.3f} s",
    ]
    tables = behaviour_tables(solution.strategies, names, "exact behavioural strategy")
    lines += strategy_sections(game, tables, strategies)
    return "\n".join(lines)
