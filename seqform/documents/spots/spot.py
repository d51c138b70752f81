"""A hold'em spot in documents: the ``"spot"`` object of ``seqform.structured/2`` (``solve
SPOT.toml``) and the main action frequencies, which ``seqform.solve-many/2`` writes for each
spot too (:mod:`seqform.documents.spots.many`)::

    "spot": {"pot": float, "combos": [int, int],
             "ev": {"oop": float, "ip": float}, "ev_share": {"oop": float, "ip": float},
             "exploitability": float, "exploitability_pot": float,
             "frequencies": [{"player": "OOP" | "IP", "history": str,
                              "actions": {str: float}}],
             "opening_grid": {"player": "OOP", "history": "", "actions": [str],
                              "frequency": [[float | null] × 13] × 13},
             "definition": {"board": str, "pot": number, "effective_stack": number,
                            "oop_range": str, "ip_range": str,
                            "oop_bet_sizes": [number], "ip_bet_sizes": [number],
                            "oop_raise_sizes": [number], "ip_raise_sizes": [number],
                            "max_raises": int, "all_in": bool,
                            "donk_sizes": [number], "all_in_threshold": number,
                            "flop" | "turn" | "river": {"oop_bet_sizes": [number],
                                "ip_bet_sizes": [number], "oop_raise_sizes": [number],
                                "ip_raise_sizes": [number], "oop_all_in": bool,
                                "ip_all_in": bool, "donk_sizes": [number]}}}

``"opening_grid"`` is OOP's first decision as the grid of hand classes (rows and columns
A to 2; pairs on the diagonal, suited above, offsuit below): each class's share taking
``"actions"`` (every bet), ``null`` for a class not in the range; ``solve-many`` does not
write it.  ``"definition"`` is the spot solved, in the keys of a spot file
(:mod:`seqform.holdem.spot`; sizes per player): with the document's per-combo strategies
it is all ``show`` needs to reopen the result without the file and without solving
(:mod:`seqform.io.spot_results`).  ``solve-many`` does not write it either.

A decision's view (:func:`node_json`; ``show --node``, the HTML report) is not saved in
the document, which has every combo's strategy already; it is computed from it::

    {"player": "OOP" | "IP", "history": str,
     "reached": bool, "reach": float,               # the share of the player's range its
                                                    # own strategy brings here
     "actions": {str: float | null},                # the range's frequencies (null:
                                                    # the player never gets here)
     "classes": [[[float, ...] | null] × 13] × 13,  # per hand class, each action's share
     "weights": [[float] × 13] × 13}                # per class, its share of the range here

Conventions (EV in chips, exploitability as NashConv / 2, shares of the pot as fractions)
are :mod:`seqform.holdem.report`'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.holdem import (
    WHO,
    ActionFrequencies,
    ClassGrid,
    ClassMix,
    Spot,
    SpotSummary,
    StreetSizes,
    card_text,
)

__all__ = ["definition_json", "frequencies_json", "grid_json", "node_json", "spot_json"]


def frequencies_json(frequencies: Sequence[ActionFrequencies]) -> list[dict[str, Any]]:
    """The ``"frequencies"`` list: per decision, the player, where, each action's share."""
    return [
        {
            "player": WHO[found.player],
            "history": found.history,
            "actions": dict(zip(found.actions, found.frequencies, strict=True)),
        }
        for found in frequencies
    ]


def grid_json(grid: ClassGrid) -> dict[str, Any]:
    """The ``"opening_grid"`` object: the decision, the actions and the 13 × 13 shares."""
    return {
        "player": WHO[grid.player],
        "history": grid.history,
        "actions": list(grid.actions),
        "frequency": [
            [None if math.isnan(value) else float(value) for value in row] for row in grid.frequency
        ],
    }


def spot_json(summary: SpotSummary) -> dict[str, Any]:
    """The ``"spot"`` object: EVs, shares, exploitability, main action frequencies and,
    when the summary has it, OOP's opening grid."""
    found = {
        "pot": summary.pot,
        "combos": list(summary.combos),
        "ev": {"oop": summary.oop_ev, "ip": summary.ip_ev},
        "ev_share": {"oop": summary.share(0), "ip": summary.share(1)},
        "exploitability": summary.exploitability,
        "exploitability_pot": summary.exploitability_pot,
        "frequencies": frequencies_json(summary.frequencies),
    }
    if summary.opening is not None:
        found["opening_grid"] = grid_json(summary.opening)
    if summary.definition is not None:
        found["definition"] = definition_json(summary.definition)
    return found


def _number(amount: Fraction) -> int | float:
    """An exact amount of a spot file as the JSON number it was read from (a spot file's
    numbers are decimals, :mod:`seqform.holdem.spot`)."""
    return amount.numerator if amount.denominator == 1 else float(amount)


def definition_json(spot: Spot) -> dict[str, Any]:
    """The ``"definition"`` object: ``spot`` in the keys of a spot file, which
    :func:`seqform.holdem.spot.spot_from_mapping` reads back to the same spot: the
    optional keys (``donk_sizes``, ``all_in_threshold``) when the spot has them, and a
    table per street that has one (``"turn": {...}``), its sizes written out in full."""
    found: dict[str, Any] = {
        "board": "".join(card_text(card) for card in spot.board),
        "pot": _number(spot.pot),
        "effective_stack": _number(spot.effective_stack),
        "oop_range": spot.ranges[0].text,
        "ip_range": spot.ranges[1].text,
        "oop_bet_sizes": [_number(size) for size in spot.bet_sizes[0]],
        "ip_bet_sizes": [_number(size) for size in spot.bet_sizes[1]],
        "oop_raise_sizes": [_number(size) for size in spot.raise_sizes[0]],
        "ip_raise_sizes": [_number(size) for size in spot.raise_sizes[1]],
        "max_raises": spot.max_raises,
        "all_in": spot.all_in,
    }
    if spot.donk_sizes is not None:
        found["donk_sizes"] = [_number(size) for size in spot.donk_sizes]
    if spot.all_in_threshold is not None:
        found["all_in_threshold"] = _number(spot.all_in_threshold)
    for street, sizes in spot.tables:
        found[street] = _street_json(sizes)
    return found


def _street_json(sizes: StreetSizes) -> dict[str, Any]:
    """A street's table (``"turn": {...}``) with every key of its sizes written out, so that
    reading it over the top-level keys gives these sizes whatever the top level says."""
    table: dict[str, Any] = {
        "oop_bet_sizes": [_number(size) for size in sizes.bet_sizes[0]],
        "ip_bet_sizes": [_number(size) for size in sizes.bet_sizes[1]],
        "oop_raise_sizes": [_number(size) for size in sizes.raise_sizes[0]],
        "ip_raise_sizes": [_number(size) for size in sizes.raise_sizes[1]],
        "oop_all_in": sizes.all_in[0],
        "ip_all_in": sizes.all_in[1],
    }
    if sizes.donk_sizes is not None:
        table["donk_sizes"] = [_number(size) for size in sizes.donk_sizes]
    return table


def _share(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


def node_json(mix: ClassMix) -> dict[str, Any]:
    """A decision's view (module docstring) from its :class:`~seqform.holdem.ClassMix`:
    the range's frequencies are the classes' mixes averaged with their weights."""
    reached = mix.reached
    filled = np.nan_to_num(mix.mix)
    totals = (mix.weight[..., None] * filled).sum(axis=(0, 1))
    return {
        "player": WHO[mix.player],
        "history": mix.history,
        "reached": reached,
        "reach": mix.reach,
        "actions": {
            action: float(total) if reached else None
            for action, total in zip(mix.actions, totals, strict=True)
        },
        "classes": [
            [None if math.isnan(cell[0]) else [_share(v) for v in cell] for cell in row]
            for row in mix.mix
        ],
        "weights": [[float(w) for w in row] for row in mix.weight],
    }
