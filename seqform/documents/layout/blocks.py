"""The pieces every text report shares, read from a document: the header, the value line,
the certificate block and the constant-sum lines (``uncertified_reason`` reads a certificate
for the exit code).  The JSON documents' shared objects are
:mod:`seqform.documents.objects`'s.

Players are numbered 1 and 2 in every output (index 0 and 1 in the library).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from seqform.base.numbers import decimal_text, float_of, scaled_text, value_text
from seqform.certify import EQUILIBRIUM_TOLERANCE, Certificate, is_certified
from seqform.documents.layout.tables import label_rows

__all__ = [
    "constant_sum_line",
    "document_certificate_lines",
    "document_constant_sum_lines",
    "document_exploitability_row",
    "document_value_lines",
    "document_value_text",
    "header",
    "uncertified_reason",
]


def header(name: str, description: str) -> str:
    """``"Game: kuhn — Kuhn poker (Kuhn 1950) with 3 cards"``: the first line of every report."""
    return f"Game: {name}" + (f" — {description}" if description else "")


def _range(certificate: Certificate) -> float:
    """The payoff range as a float (``inf`` for an exact one beyond the floats)."""
    scale = certificate.payoff_range
    return float_of(scale) if isinstance(scale, Fraction) else float(scale)


def uncertified_reason(certificate: Certificate) -> str | None:
    """Why the certificate fails, for the exit message; ``None`` when it holds."""
    if is_certified(certificate):
        return None
    return (
        f"exploitability (NashConv / 2) "
        f"{scaled_text(float(certificate.exploitability), _range(certificate), digits=3)} is "
        f"{float(certificate.relative_exploitability):.3g} of the payoff range "
        f"{_range(certificate):g}, above {EQUILIBRIUM_TOLERANCE:g}; the value line "
        "gives the bounds the certificate proves"
    )


def _json_number(value: float | None) -> float:
    """A document's number as a float: ``null`` stands for a number beyond the floats."""
    return math.inf if value is None else float(value)


def document_value_text(value: float | None, certificate: dict[str, Any]) -> str:
    """A document's value as :func:`value_text` writes it beside the certificate's payoff
    range: round-off as ``≈ 0``, no fraction the range's round-off could fake."""
    return value_text(_json_number(value), scale=_json_number(certificate.get("payoff_range")))


def document_value_lines(
    what: str, value: float | None, certificate: dict[str, Any], shown: str | None = None
) -> list[str]:
    """The headline ``"{what}: {shown}"`` when the document's ``"certificate"`` holds, else
    the bounds it proves (``shown`` is the value as the report writes it, by default
    :func:`value_text`).  Player 1's best response to ``y`` is an upper bound on the value and
    player 2's best response to ``x`` a lower one (weak LP duality), so an uncertified answer
    still brackets the value::

        Value to Player 1: NOT certified; the certificate bounds it by
          -0.0555556493 <= value <= -0.0555554554  (LP float optimum -0.0555555611)
    """
    if certificate["equilibrium"]:
        return [f"{what}: {shown or document_value_text(value, certificate)}"]
    lower = -_json_number(certificate["best_response_values"][1])
    upper = _json_number(certificate["best_response_values"][0])
    return [
        f"{what}: NOT certified; the certificate bounds it by",
        f"  {document_value_text(lower, certificate)} <= value <= "
        f"{document_value_text(upper, certificate)}  "
        f"(LP float optimum {document_value_text(value, certificate)})",
    ]


def document_exploitability_row(
    certificate: dict[str, Any], what: str = "equilibrium", failure: str | None = None
) -> tuple[str, str]:
    """The certificate's last row, from a document's ``"certificate"`` object: the
    exploitability, the payoff range, the exploitability relative to it and the verdict,
    round-off beside the range (relative: beside 1) as ``≈ 0`` (:func:`scaled_text`)::

        exploitability (NashConv / 2)  ≈ 0; relative to the payoff range 4: ≈ 0: ...
        exploitability (NashConv / 2)  8.74e-05; relative to the payoff range 4: 2.18e-05: ...
    """
    scale = _json_number(certificate["payoff_range"])
    tolerance = certificate["tolerance"]
    if certificate["equilibrium"]:
        verdict = f"{what} (≤ {tolerance:g})"
    else:
        verdict = failure or f"NOT an equilibrium within {tolerance:g}"
    return (
        "exploitability (NashConv / 2)",
        f"{scaled_text(_json_number(certificate['exploitability']), scale, digits=3)}; "
        f"relative to the payoff range {scale:g}: "
        f"{scaled_text(_json_number(certificate['relative_exploitability']), 1, digits=3)}: "
        f"{verdict}",
    )


def document_certificate_lines(
    certificate: dict[str, Any], names: Sequence[str], how: str, failure: str | None = None
) -> list[str]:
    """The float certificate from a document's ``"certificate"`` object: expected value,
    both best responses, the exploitability with the payoff range and the verdict, one row
    each; ``how`` says how the best responses were found (``"best responses on the game
    tree"``)."""
    responses = certificate["best_response_values"]
    rows = [
        ("expected value", document_value_text(certificate["expected_value"], certificate)),
        (f"best response of {names[0]}", document_value_text(responses[0], certificate)),
        (f"best response of {names[1]}", document_value_text(responses[1], certificate)),
        document_exploitability_row(certificate, failure=failure),
    ]
    return [f"Certificate ({how}, independent of the LP):", *label_rows(rows)]


def document_constant_sum_lines(document: dict[str, Any], names: Sequence[str]) -> list[str]:
    """For a constant-sum game (a document's ``"constant_sum"`` object), the line that says
    it was solved as zero-sum and player 2's value ``c - v``; none for a zero-sum game."""
    shifted = document.get("constant_sum")
    if shifted is None:
        return []
    total, exact = shifted["total"], shifted["value_to_player_2_exact"]
    other = exact if exact is not None else decimal_text(_json_number(shifted["value_to_player_2"]))
    return [
        *constant_sum_line(shifted, names),
        f"Value to {names[1]}: {total} - (value to {names[0]}) = {other}",
    ]


def constant_sum_line(constant_sum: dict[str, Any] | None, names: Sequence[str]) -> list[str]:
    """The line saying a constant-sum game (a ``"constant_sum"`` object with its
    ``"total"``) was solved as the zero-sum game with the same equilibria, or none."""
    if constant_sum is None:
        return []
    total = constant_sum["total"]
    return [
        f"Constant-sum game: every terminal's payoffs sum to {total}; solved as the "
        f"zero-sum game in which {names[1]} gets {total} less (the same equilibria)"
    ]
