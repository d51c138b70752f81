"""``solve --exact``: the document of an exact solution (``seqform.solve/2``, or
``seqform.structured/2`` on the structured route, with the ``"exact"`` key;
:func:`seqform.documents.exact.exact_document`) as text: exact strategies and value.

The text is read off the document alone, so that it shows what ``--format json`` writes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from seqform.base.counts import count_text
from seqform.base.numbers import value_text
from seqform.documents.layout.blocks import document_constant_sum_lines, header
from seqform.documents.layout.strategies import document_strategy_sections, document_tables
from seqform.documents.layout.tables import label_rows
from seqform.documents.text.restrict import restriction_lines
from seqform.documents.text.solve import player_names
from seqform.documents.text.structured import route_line
from seqform.io.documents import STRUCTURED

__all__ = ["exact_text"]

_FOUND_BY = {
    "rounding": "rounding the float strategies to nearby fractions",
    "basis": "re-solving HiGHS's optimal basis in exact arithmetic",
    "mixed": "one player's strategy from rounding, the other's from the exact basis",
}


def _value_lines(exact: dict[str, Any], name: str) -> list[str]:
    if exact["certified"]:
        return [f"Value to {name}: {value_text(Fraction(exact['value']), exact=True)}, "
                "exact and certified"]  # fmt: skip
    lower, upper = exact["bounds"]["lower"], exact["bounds"]["upper"]
    return [
        f"Value to {name}: NOT certified; the exact certificate bounds it by",
        f"  {lower} <= value <= {upper}",
        f"  in decimals {value_text(Fraction(lower))} <= value <= {value_text(Fraction(upper))}",
        f"  LP float optimum {value_text(exact['float_value'])}",
    ]


def _certificate_kind(document: dict[str, Any]) -> str:
    if document["schema"] == STRUCTURED:
        return "public tree × hands walk in exact arithmetic"
    if "restrictions" in document:
        return "restricted best responses in exact arithmetic"
    return "tree walk in exact arithmetic"


def _certificate_lines(document: dict[str, Any], names: tuple[str, str]) -> list[str]:
    exact = document["exact"]
    certificate = exact["certificate"]
    verdict = (
        "exactly 0: an exact equilibrium"
        if Fraction(certificate["nash_conv"]) == 0
        else f"{certificate['exploitability']}: not an equilibrium"
    )
    responses = [Fraction(v) for v in certificate["best_response_values"]]
    rows = [
        ("expected value", value_text(Fraction(certificate["expected_value"]), exact=True)),
        (f"best response of {names[0]}", value_text(responses[0], True)),
        (f"best response of {names[1]}", value_text(responses[1], True)),
        ("exploitability (NashConv / 2)", verdict),
    ]
    lines = [
        f"Exact certificate ({_certificate_kind(document)}, independent of the LP):",
        *label_rows(rows),
    ]
    if exact["found_by"] in _FOUND_BY:
        lines.append(f"  strategies found by {_FOUND_BY[exact['found_by']]}")
    if exact["basis_verified"] is not None:
        basis = "proven optimal" if exact["basis_verified"] else "NOT exactly optimal"
        lines.append(f"  the exact basic solution of the LP is {basis} (primal and dual checks)")
    lines += [f"  note: {note}" for note in exact["notes"]]
    return lines


def exact_text(document: dict[str, Any], strategies: str = "auto") -> str:
    """Exact value (or exact bounds), certificate and exact strategies; on the structured
    route with the route line of :mod:`seqform.documents.text.structured`."""
    game, exact, stats = document["game"], document["exact"], document["solver"]
    names = player_names(document)
    lines = [header(game["name"], game["description"]), *_value_lines(exact, names[0])]
    if document["schema"] == STRUCTURED:
        lines.append(route_line(document))
    else:
        lines += document_constant_sum_lines(document, names)
        if "restrictions" in document:
            lines += ["", *restriction_lines(document["restrictions"], names)]
    seconds = exact["seconds"]
    stage = seconds["rounding"] + seconds["basis"] + document["timings"]["certificate"]
    lines += [
        "",
        *_certificate_lines(document, names),
        "",
        f"Solver: HiGHS {stats['solver']} (float LP, {count_text(stats['iterations'])} "
        f"iterations, {document['timings']['lp']:.3f} s); exact stage {stage:.3f} s; "
        f"total {seconds['total']:.3f} s",
    ]
    tables = document_tables(exact["strategies"], "exact behavioural strategy")
    lines += document_strategy_sections(document, tables, strategies)
    return "\n".join(lines)
