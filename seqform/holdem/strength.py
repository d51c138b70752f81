"""Showdown strength of combos on a river board, from a maintained evaluator.

seqform does not rank poker hands itself: eval7 (a C evaluator with Python bindings, on the
package index) gives each seven-card hand a number, higher for a better hand, equal for a
tie.  It is the fastest of the evaluators tried on a river board's combos (phevaluator a
few times slower, pokerkit by three orders of magnitude; the timings are in
``benchmarks/results/measurements.md``); eval7 and phevaluator order every hand the
same way (Spearman correlation −1 with phevaluator's lower-is-better rank), which the tests
check.

A showdown is then the structured route's :class:`~seqform.game.public.tree.Sign` rule over
*levels*: the combos' eval7 values replaced by their dense rank (0 for the weakest), so equal
hands share a level and split the pot.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["hand_name", "hand_values", "load_eval7", "showdown_levels"]


def hand_values(board: Sequence[int], combos: Sequence[tuple[int, int]]) -> np.ndarray:
    """eval7's value of each combo with the five-card ``board`` (higher is better).

    Raises
    ------
    ValueError
        If the board does not have five cards or a combo holds a board card.
    """
    if len(board) != 5:
        raise ValueError(f"a showdown needs a five-card board, not {len(board)} cards")
    eval7 = load_eval7()
    deck = [eval7.Card(text) for text in _texts()]
    public = [deck[card] for card in board]
    values = np.empty(len(combos), dtype=np.int64)
    on_board = set(board)
    for index, (first, second) in enumerate(combos):
        if first in on_board or second in on_board:
            raise ValueError("a combo holds a board card")
        values[index] = eval7.evaluate([*public, deck[first], deck[second]])
    return values


def showdown_levels(
    board: Sequence[int], *players: Sequence[tuple[int, int]]
) -> tuple[np.ndarray, ...]:
    """Each player's combos' levels on the river ``board``: the dense rank (0 the weakest)
    of their eval7 values among the values of every player's combos, so that levels compare
    across players exactly as the hands do and equal hands share a level."""
    values = [hand_values(board, combos) for combos in players]
    distinct = np.unique(np.concatenate(values))
    return tuple(np.searchsorted(distinct, each).astype(np.int64) for each in values)


def load_eval7() -> Any:
    """The eval7 module, imported where a spot needs it (never at CLI start-up).  eval7
    0.1.11's range parser is built on pyparsing names that pyparsing 3.2 deprecates, so
    importing and using it warns; the warnings are about eval7's code, not the caller's,
    and are silenced while it loads."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import eval7

    return eval7


def _texts() -> list[str]:
    from seqform.holdem.cards import card_text

    return [card_text(card) for card in range(52)]


def hand_name(board: Sequence[int], combo: tuple[int, int]) -> str:
    """eval7's name of the hand a combo makes with a five-card board, in lower case
    (``"high card"``, ``"pair"``, ``"two pair"``, ``"trips"``, ``"straight"``, ...)."""
    eval7 = load_eval7()
    texts = _texts()
    cards = [eval7.Card(texts[card]) for card in (*board, *combo)]
    return str(eval7.handtype(eval7.evaluate(cards))).lower()
