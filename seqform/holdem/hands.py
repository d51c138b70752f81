"""One combo's strategy in a solved hold'em spot: what ``solve SPOT.toml --hand AhKh`` prints.

A spot's information sets are named ``COMBO|HISTORY`` (:mod:`seqform.holdem.game`),
so a combo's strategy is its row of every decision: the action probabilities at each public
history where it acts, and its own probability of getting there (the realization plan of
the information set's parent sequence, KMvS 1996 §3; 0 where its own earlier actions never
lead).  ``--hand`` takes combos (``AhKh``) and hand classes in the range notation (``AKs``,
``QQ``, ``AK``: the class's combos that are in a range); a combo in both ranges is shown for
both players.  A combo that holds a board card, or is in neither range, is an error naming
it (:class:`HandSelectionError`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.public.tree import StructuredGame
from seqform.holdem.cards import CardError, card_text, combo_text, parse_cards
from seqform.holdem.equity import showdown_equities
from seqform.holdem.ranges import parse_range
from seqform.holdem.spot import Spot

__all__ = [
    "ComboDecision",
    "ComboStrategy",
    "HandSelectionError",
    "combo_strategies",
    "lock_hand_labels",
    "select_combos",
]


REACH_TOLERANCE = 1e-9
"""A decision the combo's own strategy reaches with at most this probability is not shown
(a float LP's zero is a few 1e-12)."""


class HandSelectionError(ValueError):
    """A ``--hand`` that names no combo of the spot's ranges; the message names it."""


@dataclass(frozen=True)
class ComboDecision:
    """One decision of a combo.

    history : the public actions before it (``""`` at the start, ``"x-b5"``; a turn spot's
        river card between bars, ``"x-x|8h|"``)
    actions : the action labels (``"x"``, ``"b5"``, ``"f"``, ``"c"``, ``"r20"``)
    probabilities : per action, the combo's probability of taking it
    reach : the combo's own probability of getting here (its earlier actions)
    """

    history: str
    actions: tuple[str, ...]
    probabilities: tuple[float, ...]
    reach: float


@dataclass(frozen=True)
class ComboStrategy:
    """A combo's strategy in a solved spot.

    player : 0 for OOP, 1 for IP
    combo : its label (``"AhKh"``)
    weight : its weight in the player's range
    equity : its showdown equity against the other range
        (:func:`~seqform.holdem.equity.showdown_equities`)
    decisions : every decision it reaches with a probability above :data:`REACH_TOLERANCE`,
        in the public tree's order
    """

    player: int
    combo: str
    weight: Fraction
    equity: float
    decisions: tuple[ComboDecision, ...]


def _item_combos(item: str, spot: Spot) -> list[tuple[int, int]]:
    """The combos ``item`` names: one combo, or a class's combos off the board."""
    if ":" in item:
        raise HandSelectionError(f"--hand {item!r}: give combos or classes, without a weight")
    if len(item) == 4 and item[1].lower() in "cdhs" and item[3].lower() in "cdhs":
        try:
            first, second = parse_cards(item)
        except CardError as exc:
            raise HandSelectionError(f"--hand {item!r}: {exc}") from None
        on_board = [card_text(card) for card in (first, second) if card in spot.board]
        if on_board:
            board = "".join(card_text(card) for card in spot.board)
            raise HandSelectionError(f"--hand {item!r}: {on_board[0]} is on the board {board}")
        return [(max(first, second), min(first, second))]
    try:
        combos = parse_range(item).combos
    except CardError as exc:
        raise HandSelectionError(f"--hand {item!r}: {exc}") from None
    return [combo for combo in combos if not set(combo) & set(spot.board)]


def lock_hand_labels(item: str, spot: Spot, player: int) -> list[str]:
    """The labels of ``player``'s combos that one written hand names (``"AhKh"``,
    ``"AKs"``, ``"QQ"``); a node lock's ``hands`` (:mod:`seqform.forms.locks`) are read so.

    Raises
    ------
    HandSelectionError
        For an item that is not a combo or class, or a combo on the board.
    """
    combos = spot.ranges[player].combos
    return [combo_text(combo) for combo in _item_combos(item.strip(), spot) if combo in combos]


def select_combos(spot: Spot, items: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """The ``(player, combo index)`` pairs that ``items`` name (module docstring), each
    item a combo or a class, or several separated by commas; in the order given, each once.

    Raises
    ------
    HandSelectionError
        For an item that is not a combo or class, a combo on the board, or an item with no
        combo in either range (the message names the item and the ranges).
    """
    chosen: list[tuple[int, int]] = []
    for text in items:
        if not all(part.strip() for part in text.split(",")):
            raise HandSelectionError(f"--hand {text!r} has an empty item (give combos or classes)")
    for item in (part.strip() for text in items for part in text.split(",")):
        found = []
        for combo in _item_combos(item, spot):
            for player, hand_range in enumerate(spot.ranges):
                if combo in hand_range.combos:
                    found.append((player, hand_range.combos.index(combo)))
        if not found:
            raise HandSelectionError(
                f"--hand {item!r} is in neither range (oop_range {spot.ranges[0].text!r}, "
                f"ip_range {spot.ranges[1].text!r}, less the board's cards)"
            )
        chosen += [pair for pair in sorted(found) if pair not in chosen]
    return tuple(chosen)


def combo_strategies(
    game: StructuredGame,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
    chosen: Sequence[tuple[int, int]],
) -> tuple[ComboStrategy, ...]:
    """The :class:`ComboStrategy` of each ``(player, combo index)`` of ``chosen`` in a spot
    solved with ``strategies``."""
    floats = tuple(strategy.to_float() for strategy in strategies)
    plans = tuple(plan_from_behaviour(strategy) for strategy in floats)
    equities = {player: showdown_equities(game, player) for player, _ in chosen}
    found = []
    for player, hand in chosen:
        strategy, plan = floats[player], plans[player]
        table = strategy.table
        label = game.hands[player].labels[hand]
        decisions = []
        for index, name in enumerate(table.infosets):
            combo, _, history = name.partition("|")
            reach = float(plan[int(table.parent_sequence[index])])
            if combo != label or reach <= REACH_TOLERANCE:
                continue
            sequences = table.sequences_of(index)
            probabilities = strategy.probabilities[sequences.start : sequences.stop]
            decisions.append(
                ComboDecision(
                    history, table.actions[index], tuple(float(p) for p in probabilities), reach
                )
            )
        found.append(
            ComboStrategy(
                player=player,
                combo=label,
                weight=game.hands[player].weights[hand],
                equity=float(equities[player][hand]),
                decisions=tuple(decisions),
            )
        )
    return tuple(found)
