"""``ranges``: the set of all equilibria as text, read from the ``seqform.ranges/2``
document (:func:`seqform.documents.ranges.ranges_document`), so that the text shows what the
JSON holds.

A document's NUMBER is a float, or in exact mode a string fraction (:func:`_number`); an
interval is ``{"low", "high"}``, ``null`` for a behaviour no optimal strategy reaches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from seqform.base.counts import count_text
from seqform.base.numbers import short_number, value_text
from seqform.documents.layout.blocks import document_constant_sum_lines
from seqform.documents.layout.parts import Document, header_of
from seqform.documents.layout.strategies import (
    MIXED_TOLERANCE,
    MOST_MIXED,
    Rendered,
    document_sections,
)

__all__ = ["RangesTable", "ranges_text"]

SUMMARY_ENTRIES = 9  # affine plan entries shown in a summary (three lines)


def _number(value: Any) -> Any:
    """A document's NUMBER as the library held it: a string fraction as a ``Fraction``."""
    return Fraction(value) if isinstance(value, str) else value


def _interval(value: Document | None) -> str:
    if value is None:
        return "— (no optimal strategy reaches it)"
    low, high = short_number(_number(value["low"])), short_number(_number(value["high"]))
    return low if low == high else f"[{low}, {high}]"


def _affine(constant: Any, slope: Any) -> str:
    constant, slope = _number(constant), _number(slope)
    parts = []
    if short_number(constant) != "0":
        parts.append(short_number(constant))
    magnitude = abs(slope) if isinstance(slope, Fraction) else abs(float(slope))
    coefficient = "" if short_number(magnitude) == "1" else short_number(magnitude)
    sign = "−" if float(slope) < 0 else "+"
    if parts:
        parts.append(f"{sign} {coefficient}t")
    else:
        parts.append(f"{'−' if sign == '−' else ''}{coefficient}t")
    return " ".join(parts)


def _parametrisation_lines(parametrisation: Document, full: bool) -> list[str]:
    """The parameter and every entry affine in it, three to a line; in a summary the first
    :data:`SUMMARY_ENTRIES` entries."""
    low, high = (short_number(_number(parametrisation[end])) for end in ("low", "high"))
    lines = [
        f"  One-parameter family: t = x[{parametrisation['parameter']}] ranges over "
        f"[{low}, {high}];",
        "  every plan entry that varies is affine in t:",
    ]
    entries = [
        f"x[{e['sequence']}] = {_affine(e['constant'], e['slope'])}"
        for e in parametrisation["entries"]
    ]
    shown = entries if full else entries[:SUMMARY_ENTRIES]
    for start in range(0, len(shown), 3):
        lines.append("    " + ";  ".join(shown[start : start + 3]))
    if len(shown) < len(entries):
        lines.append(f"    … and {count_text(len(entries) - len(shown))} more entries")
    return lines


def _by_infoset(player: Document) -> dict[str, list[Document]]:
    """The player's action ranges (``{"infoset", "words", "probability", "plan"}``) grouped
    by information set, in table order."""
    return {
        infoset["name"]: [{"infoset": infoset["name"], **action} for action in infoset["actions"]]
        for infoset in player["infosets"]
    }


def _spread(actions: Sequence[Document]) -> tuple[float, float]:
    """How much an information set's behaviour varies over the optimal strategies (the
    widest probability range), then how mixed it is (entropy of the range midpoints, bits);
    each 0 within :data:`~seqform.documents.layout.strategies.MIXED_TOLERANCE`."""
    ranges = [
        (float(_number(a["probability"]["low"])), float(_number(a["probability"]["high"])))
        for a in actions
        if a["probability"] is not None
    ]
    width = max((high - low for low, high in ranges), default=0.0)
    middles = [(low + high) / 2 for low, high in ranges]
    mixed = bool(middles) and max(middles) < 1 - MIXED_TOLERANCE
    entropy = -sum(p * math.log2(p) for p in middles if p > 0) if mixed else 0.0
    return (width if width > MIXED_TOLERANCE else 0.0), entropy


def _action_table(actions: Sequence[Document]) -> list[str]:
    width = max([len("infoset"), *(len(a["infoset"]) for a in actions)])
    action_width = max([len("action"), *(len(a["words"]) for a in actions)])
    behaviour_width = max(
        [
            len("behaviour"),
            *(len(_interval(a["probability"])) for a in actions if a["probability"] is not None),
        ]
    )
    lines = [
        f"  {'infoset':<{width}}  {'action':<{action_width}}  "
        f"{'behaviour':<{behaviour_width}}  plan"
    ]
    for action in actions:
        lines.append(
            f"  {action['infoset']:<{width}}  {action['words']:<{action_width}}  "
            f"{_interval(action['probability']):<{behaviour_width}}  {_interval(action['plan'])}"
        )
    return lines


@dataclass(frozen=True)
class RangesTable:
    """One player's optimal strategies as a report shows them (a
    :class:`seqform.documents.layout.parts.DocumentSection`), read from one entry of the
    document's ``"players"``: unique or the dimension of the set, its parameter, and every
    action's range; summarised, the counts and the
    :data:`seqform.documents.layout.strategies.MOST_MIXED` information sets whose behaviour varies
    most over the optimal strategies (then the most mixed)."""

    player: Document

    @property
    def infoset_count(self) -> int:
        return len(self.player["infosets"])

    def render(self, full: bool) -> Rendered:
        """The player's lines, every action (``full``) or the summary's."""
        player = self.player
        if player["unique"]:
            lines = [f"{player['name']}: the optimal strategy is unique (as a realization plan)."]
        else:
            lines = [
                f"{player['name']}: the optimal strategies form a "
                f"{player['dimension']}-dimensional set ({player['vertex_count']} vertices found)."
            ]
        if player["parametrisation"] is not None:
            lines += _parametrisation_lines(player["parametrisation"], full)
        if not player["verified"]:
            lines.append("  (some endpoints could not be proven exactly; floats kept there)")
        groups = _by_infoset(player)
        if full:
            rows = [action for actions in groups.values() for action in actions]
            return Rendered((*lines, *_action_table(rows)), tuple(groups))
        return Rendered((*lines, *self._summary(groups)), tuple(self._ranked(groups)))

    @staticmethod
    def _ranked(groups: dict[str, list[Document]]) -> list[str]:
        """The information sets that vary or mix most, at most MOST_MIXED, in table order."""
        spread = {name: _spread(actions) for name, actions in groups.items()}
        varying = [name for name in groups if spread[name] > (0.0, 0.0)]
        top = set(sorted(varying, key=lambda name: spread[name], reverse=True)[:MOST_MIXED])
        return [name for name in groups if name in top]

    def _summary(self, groups: dict[str, list[Document]]) -> list[str]:
        varies = sum(1 for actions in groups.values() if _spread(actions)[0] > 0)  # wider than tol
        unreachable = sum(
            1 for actions in groups.values() if all(a["probability"] is None for a in actions)
        )
        counts = (
            f"  {count_text(len(groups))} information sets: behaviour varies at "
            f"{count_text(varies)}, no optimal strategy reaches {count_text(unreachable)};"
        )
        shown = self._ranked(groups)
        if not shown:
            return [counts, "  pure and the same in every optimal strategy wherever reached"]
        rows = [a for name in shown for a in groups[name]]
        if varies == 0:
            which = f"the {len(shown)} most mixed:"
        elif len(shown) <= varies:
            which = f"the {len(shown)} that vary most:"
        else:
            which = f"the {varies} that vary, then the most mixed:"
        return [counts, f"  {which}", *_action_table(rows)]


def ranges_text(document: dict[str, Any], strategies: str = "auto") -> str:
    """Per player: unique or the dimension of the set, its parameter, every action's range,
    from a ``seqform.ranges/2`` document.

    ``strategies`` is ``--strategies``: every action, or (above
    :data:`seqform.documents.layout.strategies.SUMMARY_ABOVE` information sets) a summary, by
    :func:`seqform.documents.layout.parts.document_sections`.
    """
    exact = document["exact"]
    value = document["value"] if document["value_exact"] is None else document["value_exact"]
    players = document["players"]
    names = [player["name"] for player in players]
    mode = "exact fractions" if exact else "floats"
    lines = [
        header_of(document["game"]),
        f"The set of equilibria ({mode}); value to {names[0]}: "
        f"{value_text(_number(value), exact=exact)}",
        *document_constant_sum_lines(document, names),
        "An equilibrium is any optimal strategy of player 1 with any of player 2; below, each",
        "player's optimal strategies.  Behaviour ranges are over the optimal strategies that",
        "reach the information set; plan ranges are for the realization-plan entry x[h:a].",
    ]
    tables = [RangesTable(player) for player in players]
    lines += document_sections(document["game"].get("labels"), tables, strategies, what="Ranges")
    linear_programs = count_text(sum(player["linear_programs"] for player in players))
    lines += ["", f"{linear_programs} LPs, {document['seconds']:.2f} s"]
    return "\n".join(lines)
