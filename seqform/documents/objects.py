"""The objects several documents share, built once: the ``"game"``, ``"solver"``,
``"timings"``, ``"certificate"`` and ``"constant_sum"`` objects and a strategy, as
``common.schema.json`` (:mod:`seqform.io.documents`) defines them.

A document built for a text report (inside :func:`strategies_for_text`) carries, for a
strategy the text will only summarise, its summary object instead of every information set
(:func:`strategy_summary_json`): a CFR average on a spot's turn has 2.4 million information
sets, whose objects took 8 to 10 CPU seconds to build for a text that shows ten of them.
Such a document is never written as JSON: ``--format json`` builds the complete one.

A document built only to be written as JSON (inside :func:`strategies_for_json`: the
command line's ``--format json``) carries each strategy's information sets as an
:class:`~seqform.documents.layout.infosets_json.InfosetObjects`, which the JSON writer writes from
the strategy's arrays: the same text, without an object per information set and per action
(on that turn, a minute and gigabytes).  Such a document is for
:func:`seqform.io.documents.document_text`, not for ``json.dumps``.

Players are numbered 1 and 2 in every document (index 0 and 1 in the library).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.base.counts import JSON_EXACT_DIGITS, is_short
from seqform.base.numbers import json_float
from seqform.certify import EQUILIBRIUM_TOLERANCE, Certificate, is_certified
from seqform.documents.layout.infosets_json import (
    InfosetObjects,
    json_probabilities,
    json_probability,
    label_itself,
)
from seqform.documents.layout.summary import mixed_of, most_mixed, summarises
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.requirements import constant_sum, second_player_value
from seqform.lp.solvers import SolverStats
from seqform.routes.result import Timings

__all__ = [
    "Words",
    "action_words",
    "certificate_json",
    "constant_sum_json",
    "exact_certificate_json",
    "float_strategies",
    "game_json",
    "solver_json",
    "strategies_for_json",
    "strategies_for_text",
    "strategy_json",
    "strategy_summary_json",
    "timings_json",
]

Words = Callable[[str, str], str]
"""``(infoset, action)`` -> the action in words (``Game.describe_action``)."""

_TEXT_CHOICE: ContextVar[str | None] = ContextVar("seqform_text_strategies", default=None)
"""``--strategies`` of the text report the documents being built are for (None: JSON)."""


_JSON_ONLY: ContextVar[bool] = ContextVar("seqform_json_strategies", default=False)
"""Whether the documents being built are only written as JSON (module docstring)."""


@contextmanager
def strategies_for_json() -> Iterator[None]:
    """Build the documents inside only to write them as JSON
    (:func:`seqform.io.documents.document_text`): each strategy's information sets are an
    :class:`~seqform.documents.layout.infosets_json.InfosetObjects` (module docstring)."""
    token = _JSON_ONLY.set(True)
    try:
        yield
    finally:
        _JSON_ONLY.reset(token)


@contextmanager
def strategies_for_text(choice: str) -> Iterator[None]:
    """Build the documents inside for a text report with ``--strategies choice``: a
    strategy that report summarises becomes its summary object (module docstring)."""
    token = _TEXT_CHOICE.set(choice)
    try:
        yield
    finally:
        _TEXT_CHOICE.reset(token)


def action_words(game: Any) -> Words:
    """The game's action words; a structured game may have none, and then the labels stand."""
    words: Words | None = game.describe_action
    return words or label_itself


def game_json(name: str, description: str, **more: Any) -> dict[str, Any]:
    """The ``"game"`` object: name, description, then ``more``."""
    return {"name": name, "description": description, **more}


def strategy_json(
    strategy: BehaviouralStrategy, name: str, words: Words, long_fractions: bool = True
) -> dict[str, Any]:
    """One entry of ``"strategies"``: a player's behaviour, information set by set.

    Probabilities are floats, or strings (``"1/3"``) for an exact strategy; without
    ``long_fractions`` (a strategy read from a file's decimals, outside an exact run) only
    readable fractions (:func:`~seqform.base.numbers.is_readable`) stay strings and the
    rest are floats.  Inside :func:`strategies_for_text`, a strategy the text report
    summarises is :func:`strategy_summary_json` instead; inside :func:`strategies_for_json`,
    the information sets are an :class:`~seqform.documents.layout.infosets_json.InfosetObjects`.
    """
    choice = _TEXT_CHOICE.get()
    if choice is not None and summarises(choice, strategy.table.num_infosets):
        return strategy_summary_json(strategy, name, words, long_fractions)
    table = strategy.table
    if _JSON_ONLY.get():
        objects = InfosetObjects(strategy, words, long_fractions)
        return {"player": table.player + 1, "name": name, "infosets": objects}
    numbers = json_probabilities(strategy, long_fractions)
    # The tables read once as Python lists, not item by item: a big game's strategy has
    # hundreds of thousands of actions, and numpy's per-item indexing would dominate.
    infosets = []
    for infoset, labels, first, unreached in zip(
        table.infosets,
        table.actions,
        table.first_sequence.tolist(),
        strategy.unreached.tolist(),
        strict=True,
    ):
        actions = [
            {"action": action, "words": words(infoset, action), "probability": numbers[first + k]}
            for k, action in enumerate(labels)
        ]
        infosets.append({"name": infoset, "unreached": bool(unreached), "actions": actions})
    return {"player": table.player + 1, "name": name, "infosets": infosets}


def strategy_summary_json(
    strategy: BehaviouralStrategy, name: str, words: Words, long_fractions: bool = True
) -> dict[str, Any]:
    """A player's strategy as a text summary shows it, from the strategy's arrays: the
    counts of its information sets, of those its own play reaches and of those it mixes,
    and the objects (as :func:`strategy_json` writes them) of the most mixed reached ones
    (:func:`seqform.documents.layout.summary.most_mixed`), with the longest reached label
    for the legend when none mixes.  ``{"player", "name", "summary": {"infosets",
    "reached", "mixed", "most_mixed", "longest_reached"}}``: a text report's object, not
    ``common.schema.json``'s.
    """
    table = strategy.table
    reached = np.flatnonzero(~np.asarray(strategy.unreached, dtype=bool))
    sizes = table.action_counts()[reached]
    # every action of the reached sets, set after set: each set's first sequence, counted on
    sequences = np.repeat(table.first_sequence[reached] - np.cumsum(sizes) + sizes, sizes)
    sequences += np.arange(len(sequences))
    mixed = mixed_of(sizes, strategy.to_float().probabilities[sequences].astype(np.float64))
    shown = reached[most_mixed(mixed)].tolist()
    rows = []
    for index in shown:
        infoset, first = table.infosets[index], int(table.first_sequence[index])
        actions = [
            {
                "action": action,
                "words": words(infoset, action),
                "probability": json_probability(strategy, first + k, long_fractions),
            }
            for k, action in enumerate(table.actions[index])
        ]
        rows.append({"name": infoset, "unreached": False, "actions": actions})
    longest = None
    if not rows and len(reached):  # the legend explains the longest reached label
        longest = max((table.infosets[i] for i in reached.tolist()), key=len)
    summary = {
        "infosets": table.num_infosets,
        "reached": len(reached),
        "mixed": len(mixed.positions),
        "most_mixed": rows,
        "longest_reached": longest,
    }
    return {"player": table.player + 1, "name": name, "summary": summary}


def float_strategies(strategies: Sequence[BehaviouralStrategy]) -> tuple[BehaviouralStrategy, ...]:
    """Exact strategies as floats (float ones as they are), for the float JSON objects."""
    return tuple(s.to_float() for s in strategies)


def solver_json(stats: SolverStats) -> dict[str, Any]:
    """The ``"solver"`` object: the LP solver's report."""
    return {
        "backend": stats.backend,
        "solver": stats.solver,
        "status": stats.status,
        "iterations": stats.iterations,
        "seconds": stats.seconds,
        "solver_seconds": stats.solver_seconds,
        "variables": stats.variables,
        "constraints": stats.constraints,
        "nonzeros": stats.nonzeros,
    }


def timings_json(timings: Timings) -> dict[str, float]:
    """The ``"timings"`` object: seconds per stage
    (:data:`seqform.routes.result.STAGES`) and their total."""
    return {**timings.stages(), "total": timings.total}


def certificate_json(certificate: Certificate) -> dict[str, Any]:
    """The ``"certificate"`` object (floats, with the verdict of
    :func:`seqform.certify.is_certified`: the exploitability relative to the payoff range)."""
    return {
        "expected_value": json_float(certificate.value),
        "best_response_values": [json_float(v) for v in certificate.best_response_values],
        "gains": [json_float(v) for v in certificate.gains],
        "nash_conv": json_float(certificate.nash_conv),
        "exploitability": json_float(certificate.exploitability),
        "payoff_range": json_float(certificate.payoff_range),
        "relative_exploitability": json_float(certificate.relative_exploitability),
        "tolerance": EQUILIBRIUM_TOLERANCE,
        "equilibrium": is_certified(certificate),
    }


def exact_certificate_json(certificate: Certificate) -> dict[str, Any]:
    """An exact certificate with every number as a string fraction."""
    return {
        "expected_value": str(certificate.value),
        "best_response_values": [str(v) for v in certificate.best_response_values],
        "gains": [str(v) for v in certificate.gains],
        "nash_conv": str(certificate.nash_conv),
        "exploitability": str(certificate.exploitability),
        "payoff_range": _fraction_or_none(certificate.payoff_range),
    }


def _fraction_or_none(value: Any) -> str | None:
    """A Fraction as its string, or None when a part has more than
    :data:`~seqform.base.counts.JSON_EXACT_DIGITS` digits (Python refuses to write an
    integer of over 4 300; a payoff range of 10^5000 is the game's, not the answer's)."""
    number = Fraction(value)
    if is_short(number.numerator, JSON_EXACT_DIGITS) and is_short(
        number.denominator, JSON_EXACT_DIGITS
    ):
        return str(number)
    return None


def constant_sum_json(game: Game, value: Any) -> dict[str, Any] | None:
    """``{"total": "16", "value_to_player_2": float, "value_to_player_2_exact": str |
    null, "treated_as": str}`` for a constant-sum game (payoffs summing to ``c != 0`` at
    every terminal, :mod:`seqform.game.requirements`), else None."""
    total = constant_sum(game)
    if not total:
        return None
    other = second_player_value(total, value)
    return {
        "total": str(total),
        "value_to_player_2": json_float(other),
        "value_to_player_2_exact": str(other) if isinstance(other, Fraction) else None,
        "treated_as": "zero-sum with player 2's payoffs less the total",
    }
