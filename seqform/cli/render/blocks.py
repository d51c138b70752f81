"""The pieces every report shares: the header, the value line, the certificate block, the
strategy tables, and the ``"solver"``, ``"timings"``, ``"certificate"`` and ``"strategies"``
objects of the JSON schemas.

Players are numbered 1 and 2 in every output (index 0 and 1 in the library).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from numbers import Rational
from typing import Any

from seqform.analyses.result import Timings
from seqform.certify import Certificate
from seqform.cli.render.numbers import (
    exact_probability_text,
    is_readable,
    probability_text,
    value_text,
)
from seqform.cli.render.tables import label_rows
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.checks import float_of
from seqform.game.model import Game
from seqform.game.requirements import constant_sum
from seqform.lp.solvers import SolverStats

__all__ = [
    "EQUILIBRIUM_TOLERANCE",
    "certificate_json",
    "certificate_lines",
    "equilibrium_verdict",
    "exact_certificate_json",
    "float_strategies",
    "game_json",
    "header",
    "is_certified",
    "solver_json",
    "strategy_json",
    "strategy_lines",
    "timings_json",
    "uncertified_reason",
    "value_lines",
]

EQUILIBRIUM_TOLERANCE = 1e-9

Words = Callable[[str, str], str]  # (infoset, action) -> the action in words


def header(name: str, description: str) -> str:
    """``"Game: kuhn — Kuhn poker (Kuhn 1950) with 3 cards"``: the first line of every report."""
    return f"Game: {name}" + (f" — {description}" if description else "")


def game_json(name: str, description: str, **more: Any) -> dict[str, Any]:
    """The ``"game"`` object of every JSON schema: name, description, then ``more``."""
    return {"name": name, "description": description, **more}


def is_certified(certificate: Certificate) -> bool:
    """Whether the certificate proves an equilibrium: NashConv within
    :data:`EQUILIBRIUM_TOLERANCE` (the verdict of :func:`equilibrium_verdict`)."""
    return float(certificate.exploitability) <= EQUILIBRIUM_TOLERANCE


def uncertified_reason(certificate: Certificate) -> str | None:
    """Why the certificate fails, for the exit message; ``None`` when it holds."""
    if is_certified(certificate):
        return None
    return (
        f"exploitability (NashConv) {float(certificate.exploitability):.3g} is above "
        f"{EQUILIBRIUM_TOLERANCE:g}; the value line gives the bounds the certificate proves"
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
    exploitability: float, what: str = "equilibrium", failure: str | None = None
) -> str:
    """``"equilibrium (≤ 1e-09)"`` within :data:`EQUILIBRIUM_TOLERANCE`, else ``failure``."""
    if exploitability <= EQUILIBRIUM_TOLERANCE:
        return f"{what} (≤ {EQUILIBRIUM_TOLERANCE:g})"
    return failure or f"NOT an equilibrium within {EQUILIBRIUM_TOLERANCE:g}"


def certificate_lines(
    certificate: Certificate, names: Sequence[str], how: str, failure: str | None = None
) -> list[str]:
    """The float certificate: expected value, both best responses, NashConv and verdict, one
    row each (values by :func:`value_text`, as the exact and refined certificates).

    ``how`` says how the best responses were found (``"best responses on the game tree"``).
    """
    exploitability = float(certificate.exploitability)
    rows = [
        ("expected value", value_text(certificate.value)),
        (f"best response of {names[0]}", value_text(certificate.best_response_values[0])),
        (f"best response of {names[1]}", value_text(certificate.best_response_values[1])),
        (
            "exploitability (NashConv)",
            f"{exploitability:.3g}: {equilibrium_verdict(exploitability, failure=failure)}",
        ),
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


def strategy_json(
    strategy: BehaviouralStrategy, name: str, words: Words, long_fractions: bool = True
) -> dict[str, Any]:
    """One entry of ``"strategies"``: a player's behaviour, information set by set.

    Probabilities are floats, or strings (``"1/3"``) for an exact strategy; without
    ``long_fractions`` (a strategy read from a file's decimals, outside an exact run) only
    readable fractions (:func:`~seqform.cli.render.numbers.is_readable`) stay strings and the
    rest are floats.
    """
    table = strategy.table

    def number(probability: Any) -> Any:
        if not strategy.exact:
            return float(probability)
        return (
            str(probability) if long_fractions or is_readable(probability) else float(probability)
        )

    infosets = []
    for index, infoset in enumerate(table.infosets):
        actions = [
            {
                "action": action,
                "words": words(infoset, action),
                "probability": number(strategy.probabilities[sequence]),
            }
            for action, sequence in zip(
                table.actions[index], table.sequences_of(index), strict=True
            )
        ]
        infosets.append(
            {"name": infoset, "unreached": bool(strategy.unreached[index]), "actions": actions}
        )
    return {"player": table.player + 1, "name": name, "infosets": infosets}


def solver_json(stats: SolverStats) -> dict[str, Any]:
    """The ``"solver"`` object of the JSON schemas."""
    return {
        "backend": stats.backend,
        "algorithm": stats.algorithm,
        "status": stats.status,
        "iterations": stats.iterations,
        "seconds": stats.seconds,
        "solver_seconds": stats.solver_seconds,
        "variables": stats.variables,
        "constraints": stats.constraints,
        "nonzeros": stats.nonzeros,
    }


def timings_json(timings: Timings) -> dict[str, float]:
    """The ``"timings"`` object of the JSON schemas: seconds per stage
    (:data:`seqform.analyses.result.STAGES`) and their total."""
    return {**timings.stages(), "total": timings.total}


def json_float(value: Any) -> float | None:
    """A number for JSON: the nearest float, or ``null`` beyond the floats (an exact
    payoff of ``1e400``; the exact keys beside it hold the number)."""
    number = float_of(value) if isinstance(value, Rational) else float(value)
    return number if math.isfinite(number) or math.isnan(number) else None


def _second_value(total: Fraction, value: Any) -> Any:
    """``c - v``: exact for an exact value, else a float."""
    return total - value if isinstance(value, Fraction) else float_of(total) - float(value)


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
        other = _second_value(total, value)
        shown = str(other) if isinstance(other, Fraction) else f"{other:+.10f}"
        lines.append(f"Value to {second}: {total} - (value to {first}) = {shown}")
    return lines


def constant_sum_json(game: Game, value: Any) -> dict[str, Any] | None:
    """``{"total": "16", "value_to_player_2": float, "value_to_player_2_exact": str |
    null}`` for a constant-sum game (``c != 0``), else None."""
    total = constant_sum(game)
    if not total:
        return None
    other = _second_value(total, value)
    return {
        "total": str(total),
        "value_to_player_2": json_float(other),
        "value_to_player_2_exact": str(other) if isinstance(other, Fraction) else None,
        "treated_as": "zero-sum with player 2's payoffs less the total",
    }


def certificate_json(certificate: Certificate) -> dict[str, Any]:
    """The ``"certificate"`` object of the JSON schemas (floats, with the verdict)."""
    exploitability = json_float(certificate.exploitability)
    return {
        "expected_value": json_float(certificate.value),
        "best_response_values": [json_float(v) for v in certificate.best_response_values],
        "gains": [json_float(v) for v in certificate.gains],
        "exploitability": exploitability,
        "tolerance": EQUILIBRIUM_TOLERANCE,
        "equilibrium": is_certified(certificate),
    }


def exact_certificate_json(certificate: Certificate) -> dict[str, Any]:
    """An exact certificate with every number as a string fraction."""
    return {
        "expected_value": str(certificate.value),
        "best_response_values": [str(v) for v in certificate.best_response_values],
        "gains": [str(v) for v in certificate.gains],
        "exploitability": str(certificate.exploitability),
    }


def float_strategies(strategies: Sequence[BehaviouralStrategy]) -> tuple[BehaviouralStrategy, ...]:
    """Exact strategies as floats (float ones as they are), for the float JSON objects."""
    return tuple(s.to_float() for s in strategies)
