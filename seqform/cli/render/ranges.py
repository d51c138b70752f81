"""``ranges``: the set of all equilibria as text and JSON.

Schema ``seqform.ranges/1``::

    {"schema": "seqform.ranges/1", "game": {"name", "description"}, "exact": bool,
     "value": float, "value_exact": str | null,
     "players": [{"player": 1 | 2, "name": str, "value": float, "value_exact": str | null,
                  "unique": bool, "dimension": int, "verified": bool,
                  "linear_programs": int, "vertex_count": int,
                  "vertices": [[NUMBER]] | null,    # the plans found; null if > 50
                  "parametrisation": null | {"parameter": str, "low": NUMBER,
                                             "high": NUMBER, "entries": [{"sequence": str,
                                             "constant": NUMBER, "slope": NUMBER}]},
                  "infosets": [{"name": str, "actions": [{"action": str, "words": str,
                                "probability": null | {"low": NUMBER, "high": NUMBER},
                                "plan": {"low": NUMBER, "high": NUMBER}}]}]}, ×2],
     "seconds": float}

where a NUMBER is a float, or in exact mode a string fraction.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from seqform.analyses.ranges import EquilibriumRanges, Parametrisation, PlayerRanges, Range
from seqform.cli.render.blocks import game_json, header
from seqform.cli.render.numbers import json_number, short_number, value_text

__all__ = ["RANGES_SCHEMA", "ranges_json", "ranges_text"]

RANGES_SCHEMA = "seqform.ranges/1"
MAX_JSON_VERTICES = 50  # larger vertex lists are left out of the ranges JSON


def _range_json(value: Range) -> dict[str, Any]:
    return {"low": json_number(value.low), "high": json_number(value.high)}


def _parametrisation_json(parametrisation: Parametrisation | None) -> dict[str, Any] | None:
    if parametrisation is None:
        return None
    return {
        "parameter": parametrisation.parameter,
        "low": json_number(parametrisation.low),
        "high": json_number(parametrisation.high),
        "entries": [
            {
                "sequence": e.label,
                "constant": json_number(e.constant),
                "slope": json_number(e.slope),
            }
            for e in parametrisation.entries
        ],
    }


def _player_json(player: PlayerRanges, exact: bool) -> dict[str, Any]:
    infosets: dict[str, list[dict[str, Any]]] = {}
    for action in player.actions:
        infosets.setdefault(action.infoset, []).append(
            {
                "action": action.action,
                "words": action.words,
                "probability": None
                if action.probability is None
                else _range_json(action.probability),
                "plan": _range_json(action.plan),
            }
        )
    return {
        "player": player.player + 1,
        "name": player.name,
        "value": float(player.value),
        "value_exact": str(player.value) if exact else None,
        "unique": player.unique,
        "dimension": player.dimension,
        "verified": player.verified,
        "linear_programs": player.linear_programs,
        "vertex_count": len(player.vertices),
        "vertices": [[json_number(v) for v in vertex] for vertex in player.vertices]
        if len(player.vertices) <= MAX_JSON_VERTICES
        else None,
        "parametrisation": _parametrisation_json(player.parametrisation),
        "infosets": [{"name": name, "actions": acts} for name, acts in infosets.items()],
    }


def ranges_json(ranges: EquilibriumRanges) -> dict[str, Any]:
    """The equilibrium set in schema ``seqform.ranges/1``."""
    game = ranges.game
    return {
        "schema": RANGES_SCHEMA,
        "game": game_json(game.name, game.description),
        "exact": ranges.exact,
        "value": float(ranges.value),
        "value_exact": str(ranges.value) if ranges.exact else None,
        "players": [_player_json(p, ranges.exact) for p in ranges.players],
        "seconds": ranges.seconds,
    }


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


def _parametrisation_lines(parametrisation: Parametrisation) -> list[str]:
    lines = [
        f"  One-parameter family: t = x[{parametrisation.parameter}] ranges over "
        f"[{short_number(parametrisation.low)}, {short_number(parametrisation.high)}];",
        "  every plan entry that varies is affine in t:",
    ]
    entries = [f"x[{e.label}] = {_affine(e.constant, e.slope)}" for e in parametrisation.entries]
    for start in range(0, len(entries), 3):
        lines.append("    " + ";  ".join(entries[start : start + 3]))
    return lines


def _action_table(player: PlayerRanges) -> list[str]:
    width = max([len("infoset"), *(len(a.infoset) for a in player.actions)])
    action_width = max([len("action"), *(len(a.words) for a in player.actions)])
    behaviour_width = max(
        [
            len("behaviour"),
            *(len(_interval(a.probability)) for a in player.actions if a.probability is not None),
        ]
    )
    lines = [
        f"  {'infoset':<{width}}  {'action':<{action_width}}  "
        f"{'behaviour':<{behaviour_width}}  plan"
    ]
    for action in player.actions:
        lines.append(
            f"  {action.infoset:<{width}}  {action.words:<{action_width}}  "
            f"{_interval(action.probability):<{behaviour_width}}  {_interval(action.plan)}"
        )
    return lines


def _player_lines(player: PlayerRanges) -> list[str]:
    if player.unique:
        lines = [f"{player.name}: the optimal strategy is unique (as a realization plan)."]
    else:
        lines = [
            f"{player.name}: the optimal strategies form a {player.dimension}-dimensional "
            f"set ({len(player.vertices)} vertices found)."
        ]
    if player.parametrisation is not None:
        lines += _parametrisation_lines(player.parametrisation)
    if not player.verified:
        lines.append("  (some endpoints could not be proven exactly; floats kept there)")
    return lines + _action_table(player)


def ranges_text(ranges: EquilibriumRanges) -> str:
    """Per player: unique or the dimension of the set, its parameter, every action's range."""
    game = ranges.game
    mode = "exact fractions" if ranges.exact else "floats"
    lines = [
        header(game.name, game.description),
        f"The set of equilibria ({mode}); value to {game.player_names[0]}: "
        f"{value_text(ranges.value, exact=ranges.exact)}",
        "An equilibrium is any optimal strategy of player 1 with any of player 2; below, each",
        "player's optimal strategies.  Behaviour ranges are over the optimal strategies that",
        "reach the information set; plan ranges are for the realization-plan entry x[h:a].",
    ]
    for player in ranges.players:
        lines += ["", *_player_lines(player)]
    lines += ["", f"{sum(p.linear_programs for p in ranges.players)} LPs, {ranges.seconds:.2f} s"]
    return "\n".join(lines)
