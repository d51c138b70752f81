"""``ranges``: the set of all equilibria as text.

Its JSON document, ``seqform.ranges/1``, is :func:`seqform.documents.ranges.ranges_document`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from seqform.base.numbers import count_text, short_number, value_text
from seqform.documents.layout.blocks import constant_sum_lines, header
from seqform.documents.layout.strategies import (
    MIXED_TOLERANCE,
    MOST_MIXED,
    Rendered,
    strategy_sections,
)
from seqform.documents.objects import Words
from seqform.questions.ranges import (
    ActionRange,
    EquilibriumRanges,
    Parametrisation,
    PlayerRanges,
    Range,
)

__all__ = ["RangesTable", "ranges_text"]

SUMMARY_ENTRIES = 9  # affine plan entries shown in a summary (three lines)


def _interval(value: Range | None) -> str:
    if value is None:
        return "— (no optimal strategy reaches it)"
    low, high = short_number(value.low), short_number(value.high)
    return low if low == high else f"[{low}, {high}]"


def _affine(constant: Any, slope: Any) -> str:
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


def _parametrisation_lines(parametrisation: Parametrisation, full: bool) -> list[str]:
    """The parameter and every entry affine in it, three to a line; in a summary the first
    :data:`SUMMARY_ENTRIES` entries."""
    lines = [
        f"  One-parameter family: t = x[{parametrisation.parameter}] ranges over "
        f"[{short_number(parametrisation.low)}, {short_number(parametrisation.high)}];",
        "  every plan entry that varies is affine in t:",
    ]
    entries = [f"x[{e.label}] = {_affine(e.constant, e.slope)}" for e in parametrisation.entries]
    shown = entries if full else entries[:SUMMARY_ENTRIES]
    for start in range(0, len(shown), 3):
        lines.append("    " + ";  ".join(shown[start : start + 3]))
    if len(shown) < len(entries):
        lines.append(f"    … and {count_text(len(entries) - len(shown))} more entries")
    return lines


def _by_infoset(player: PlayerRanges) -> dict[str, list[ActionRange]]:
    """The player's action ranges grouped by information set, in table order."""
    groups: dict[str, list[ActionRange]] = {}
    for action in player.actions:
        groups.setdefault(action.infoset, []).append(action)
    return groups


def _spread(actions: Sequence[ActionRange]) -> tuple[float, float]:
    """How much an information set's behaviour varies over the optimal strategies (the
    widest probability range), then how mixed it is (entropy of the range midpoints, bits);
    each 0 within :data:`~seqform.documents.layout.strategies.MIXED_TOLERANCE`."""
    ranges = [a.probability for a in actions if a.probability is not None]
    width = max((float(r.high) - float(r.low) for r in ranges), default=0.0)
    middles = [(float(r.low) + float(r.high)) / 2 for r in ranges]
    mixed = bool(middles) and max(middles) < 1 - MIXED_TOLERANCE
    entropy = -sum(p * math.log2(p) for p in middles if p > 0) if mixed else 0.0
    return (width if width > MIXED_TOLERANCE else 0.0), entropy


def _action_table(actions: Sequence[ActionRange]) -> list[str]:
    width = max([len("infoset"), *(len(a.infoset) for a in actions)])
    action_width = max([len("action"), *(len(a.words) for a in actions)])
    behaviour_width = max(
        [
            len("behaviour"),
            *(len(_interval(a.probability)) for a in actions if a.probability is not None),
        ]
    )
    lines = [
        f"  {'infoset':<{width}}  {'action':<{action_width}}  "
        f"{'behaviour':<{behaviour_width}}  plan"
    ]
    for action in actions:
        lines.append(
            f"  {action.infoset:<{width}}  {action.words:<{action_width}}  "
            f"{_interval(action.probability):<{behaviour_width}}  {_interval(action.plan)}"
        )
    return lines


@dataclass(frozen=True)
class RangesTable:
    """One player's optimal strategies as a report shows them (a
    :class:`seqform.documents.layout.strategies.Section`): unique or the dimension of the set, its
    parameter, and every action's range; summarised, the counts and the
    :data:`seqform.documents.layout.strategies.MOST_MIXED` information sets whose behaviour varies
    most over the optimal strategies (then the most mixed)."""

    player: PlayerRanges

    @property
    def infoset_count(self) -> int:
        return len(_by_infoset(self.player))

    def render(self, words: Words, full: bool) -> Rendered:
        """The player's lines, every action (``full``) or the summary's."""
        player = self.player
        if player.unique:
            lines = [f"{player.name}: the optimal strategy is unique (as a realization plan)."]
        else:
            lines = [
                f"{player.name}: the optimal strategies form a {player.dimension}-dimensional "
                f"set ({len(player.vertices)} vertices found)."
            ]
        if player.parametrisation is not None:
            lines += _parametrisation_lines(player.parametrisation, full)
        if not player.verified:
            lines.append("  (some endpoints could not be proven exactly; floats kept there)")
        groups = _by_infoset(player)
        if full:
            return Rendered((*lines, *_action_table(player.actions)), tuple(groups))
        return Rendered((*lines, *self._summary(groups)), tuple(self._ranked(groups)))

    @staticmethod
    def _ranked(groups: dict[str, list[ActionRange]]) -> list[str]:
        """The information sets that vary or mix most, at most MOST_MIXED, in table order."""
        spread = {name: _spread(actions) for name, actions in groups.items()}
        varying = [name for name in groups if spread[name] > (0.0, 0.0)]
        top = set(sorted(varying, key=lambda name: spread[name], reverse=True)[:MOST_MIXED])
        return [name for name in groups if name in top]

    def _summary(self, groups: dict[str, list[ActionRange]]) -> list[str]:
        varies = sum(1 for actions in groups.values() if _spread(actions)[0] > 0)  # wider than tol
        unreachable = sum(
            1 for actions in groups.values() if all(a.probability is None for a in actions)
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


def ranges_text(ranges: EquilibriumRanges, strategies: str = "auto") -> str:
    """Per player: unique or the dimension of the set, its parameter, every action's range.

    ``strategies`` is ``--strategies``: every action, or (above
    :data:`seqform.documents.layout.strategies.SUMMARY_ABOVE` information sets) a summary, by
    :func:`seqform.documents.layout.strategies.strategy_sections`.
    """
    game = ranges.game
    mode = "exact fractions" if ranges.exact else "floats"
    lines = [
        header(game.name, game.description),
        f"The set of equilibria ({mode}); value to {game.player_names[0]}: "
        f"{value_text(ranges.value, exact=ranges.exact)}",
        *constant_sum_lines(game, ranges.value),
        "An equilibrium is any optimal strategy of player 1 with any of player 2; below, each",
        "player's optimal strategies.  Behaviour ranges are over the optimal strategies that",
        "reach the information set; plan ranges are for the realization-plan entry x[h:a].",
    ]
    tables = [RangesTable(player) for player in ranges.players]
    lines += strategy_sections(game, tables, strategies, what="Ranges")
    linear_programs = count_text(sum(p.linear_programs for p in ranges.players))
    lines += ["", f"{linear_programs} LPs, {ranges.seconds:.2f} s"]
    return "\n".join(lines)
