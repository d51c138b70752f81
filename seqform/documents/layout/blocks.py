"""The pieces every text report shares: the header, the value line, the certificate block,
the strategy tables and the constant-sum lines.  The JSON documents' shared objects are
:mod:`seqform.documents.objects`'s.

Players are numbered 1 and 2 in every output (index 0 and 1 in the library).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from seqform.base.numbers import exact_probability_text, float_of, probability_text, value_text
from seqform.certify import EQUILIBRIUM_TOLERANCE, Certificate, is_certified
from seqform.documents.layout.tables import label_rows
from seqform.documents.objects import Words
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.requirements import constant_sum, second_player_value

__all__ = [
    "certificate_lines",
    "constant_sum_lines",
    "document_certificate_lines",
    "document_constant_sum_lines",
    "document_exploitability_row",
    "document_value_lines",
    "equilibrium_verdict",
    "exploitability_row",
    "header",
    "strategy_lines",
    "uncertified_reason",
    "value_lines",
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
        f"exploitability (NashConv / 2) {float(certificate.exploitability):.3g} is "
        f"{float(certificate.relative_exploitability):.3g} of the payoff range "
        f"{_range(certificate):g}, above {EQUILIBRIUM_TOLERANCE:g}; the value line "
        "gives the bounds the certificate proves"
    )


def value_lines(
    what: str, value: Any, certificate: Certificate, shown: str | None = None
) -> list[str]:
    """The headline ``"{what}: {shown}"`` when the certificate holds, else the bounds it proves.

    ``what`` is ``"Value to Player 1"`` (or ``"Value of the restricted game to Player 1"``);
    ``shown`` is the value as the report writes it (by default :func:`value_text`).
    Player 1's best response to ``y`` is an upper bound on the value and player 2's best
    response to ``x`` a lower one (weak LP duality), so an uncertified answer still brackets
    the value::

        Value to Player 1: NOT certified; the certificate bounds it by
          -0.0555556493 <= value <= -0.0555554554  (LP float optimum -0.0555555611)
    """
    if is_certified(certificate):
        return [f"{what}: {shown or value_text(value)}"]
    lower = -float(certificate.best_response_values[1])
    upper = float(certificate.best_response_values[0])
    return [
        f"{what}: NOT certified; the certificate bounds it by",
        f"  {value_text(lower)} <= value <= {value_text(upper)}  "
        f"(LP float optimum {value_text(value)})",
    ]


def equilibrium_verdict(
    certificate: Certificate, what: str = "equilibrium", failure: str | None = None
) -> str:
    """``"equilibrium (≤ 1e-09)"`` when :func:`~seqform.certify.is_certified` (the
    exploitability within :data:`~seqform.certify.EQUILIBRIUM_TOLERANCE` of the payoff
    range), else ``failure``."""
    if is_certified(certificate):
        return f"{what} (≤ {EQUILIBRIUM_TOLERANCE:g})"
    return failure or f"NOT an equilibrium within {EQUILIBRIUM_TOLERANCE:g}"


def exploitability_row(
    certificate: Certificate, what: str = "equilibrium", failure: str | None = None
) -> tuple[str, str]:
    """The certificate's last row: the exploitability, the payoff range, the exploitability
    relative to it and the verdict::

        exploitability (NashConv / 2)  2.78e-17; relative to the payoff range 4: 6.94e-18: ...
    """
    return (
        "exploitability (NashConv / 2)",
        f"{float(certificate.exploitability):.3g}; relative to the payoff range "
        f"{_range(certificate):g}: {float(certificate.relative_exploitability):.3g}"
        f": {equilibrium_verdict(certificate, what, failure)}",
    )


def certificate_lines(
    certificate: Certificate, names: Sequence[str], how: str, failure: str | None = None
) -> list[str]:
    """The float certificate: expected value, both best responses, the exploitability with
    the payoff range and the verdict, one row each (values by :func:`value_text`, as the
    exact and refined certificates).

    ``how`` says how the best responses were found (``"best responses on the game tree"``).
    """
    rows = [
        ("expected value", value_text(certificate.value)),
        (f"best response of {names[0]}", value_text(certificate.best_response_values[0])),
        (f"best response of {names[1]}", value_text(certificate.best_response_values[1])),
        exploitability_row(certificate, failure=failure),
    ]
    return [f"Certificate ({how}, independent of the LP):", *label_rows(rows)]


def strategy_lines(
    strategy: BehaviouralStrategy,
    title: str,
    words: Words,
    flag: str = "unreached by own play",
    long_fractions: bool = True,
    only: Sequence[int] | None = None,
) -> list[str]:
    """One row per information set (or per index in ``only``): its actions in words with
    their probabilities.

    Exact strategies show fractions (long ones as decimals unless ``long_fractions``: a
    strategy read exactly from a file's decimals is not an exact answer); float ones four
    places and a small fraction if one matches.  Information sets the player's own plan
    never reaches carry ``flag``.
    """
    table = strategy.table
    exact = strategy.exact
    rows = range(table.num_infosets) if only is None else only
    width = max([len("infoset"), *(len(table.infosets[index]) for index in rows)])
    lines = [title, f"  {'infoset':<{width}}  action probabilities"]
    for index in rows:
        infoset = table.infosets[index]
        parts = []
        for action, sequence in zip(table.actions[index], table.sequences_of(index), strict=True):
            probability = strategy.probabilities[sequence]
            shown = (
                exact_probability_text(probability, long_fractions)
                if exact
                else probability_text(float(probability))
            )
            parts.append(f"{words(infoset, action)} {shown}")
        mark = f"   ({flag})" if strategy.unreached[index] else ""
        lines.append(f"  {infoset:<{width}}  {'  '.join(parts)}{mark}")
    return lines


def constant_sum_lines(game: Game, value: Any = None) -> list[str]:
    """For a constant-sum game (payoffs summing to ``c != 0`` at every terminal), the
    lines that say it was solved as such and give player 2's value ``c - v``; else none.

    The equilibria are those of the zero-sum game where player 2 gets ``c`` less
    (:mod:`seqform.game.requirements`); values and best responses elsewhere in the report
    are those of player 1's payoffs and of that zero-sum game."""
    total = constant_sum(game)
    if not total:
        return []
    first, second = game.player_names[0], game.player_names[1]
    lines = [
        f"Constant-sum game: every terminal's payoffs sum to {total}; solved as the "
        f"zero-sum game in which {second} gets {total} less (the same equilibria)",
    ]
    if value is not None:
        other = second_player_value(total, value)
        shown = str(other) if isinstance(other, Fraction) else f"{other:+.10f}"
        lines.append(f"Value to {second}: {total} - (value to {first}) = {shown}")
    return lines


# --- the same blocks read from a document (the dict of seqform.document(result)) ------------


def _json_number(value: float | None) -> float:
    """A document's number as a float: ``null`` stands for a number beyond the floats."""
    return math.inf if value is None else float(value)


def document_value_lines(
    what: str, value: float | None, certificate: dict[str, Any], shown: str | None = None
) -> list[str]:
    """:func:`value_lines` from a document's ``"certificate"`` object (its ``"equilibrium"``
    verdict and best-response values)."""
    if certificate["equilibrium"]:
        return [f"{what}: {shown or value_text(_json_number(value))}"]
    lower = -_json_number(certificate["best_response_values"][1])
    upper = _json_number(certificate["best_response_values"][0])
    return [
        f"{what}: NOT certified; the certificate bounds it by",
        f"  {value_text(lower)} <= value <= {value_text(upper)}  "
        f"(LP float optimum {value_text(_json_number(value))})",
    ]


def document_exploitability_row(
    certificate: dict[str, Any], what: str = "equilibrium", failure: str | None = None
) -> tuple[str, str]:
    """:func:`exploitability_row` from a document's ``"certificate"`` object."""
    tolerance = certificate["tolerance"]
    if certificate["equilibrium"]:
        verdict = f"{what} (≤ {tolerance:g})"
    else:
        verdict = failure or f"NOT an equilibrium within {tolerance:g}"
    return (
        "exploitability (NashConv / 2)",
        f"{_json_number(certificate['exploitability']):.3g}; relative to the payoff range "
        f"{_json_number(certificate['payoff_range']):g}: "
        f"{_json_number(certificate['relative_exploitability']):.3g}: {verdict}",
    )


def document_certificate_lines(
    certificate: dict[str, Any], names: Sequence[str], how: str, failure: str | None = None
) -> list[str]:
    """:func:`certificate_lines` from a document's ``"certificate"`` object."""
    responses = certificate["best_response_values"]
    rows = [
        ("expected value", value_text(_json_number(certificate["expected_value"]))),
        (f"best response of {names[0]}", value_text(_json_number(responses[0]))),
        (f"best response of {names[1]}", value_text(_json_number(responses[1]))),
        document_exploitability_row(certificate, failure=failure),
    ]
    return [f"Certificate ({how}, independent of the LP):", *label_rows(rows)]


def document_constant_sum_lines(document: dict[str, Any], names: Sequence[str]) -> list[str]:
    """:func:`constant_sum_lines` from a document's ``"constant_sum"`` object (none when the
    document has none: a zero-sum game)."""
    shifted = document.get("constant_sum")
    if shifted is None:
        return []
    total, exact = shifted["total"], shifted["value_to_player_2_exact"]
    other = exact if exact is not None else f"{_json_number(shifted['value_to_player_2']):+.10f}"
    return [
        f"Constant-sum game: every terminal's payoffs sum to {total}; solved as the "
        f"zero-sum game in which {names[1]} gets {total} less (the same equilibria)",
        f"Value to {names[1]}: {total} - (value to {names[0]}) = {other}",
    ]
