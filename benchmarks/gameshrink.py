"""GameShrink beside seqform's exact merges: sizes per round, and the LP on small decks.

Run from the checkout::

    python -m benchmarks.gameshrink            # sizes (small decks, Leduc 13x4, the full
                                               # Rhode Island deck) and the small-deck LPs
    python -m benchmarks.gameshrink --no-lp    # the sizes alone

Three merges of a player's signals (private card, then the public cards so far) are
counted for each game, per round and as the sequence-form LP's rows (one player's sequences,
the other's information sets, and 1):

* *suits*: the hand classes of the lossless suit isomorphism
  (:mod:`seqform.structured.reductions.suit_reduction`);
* *ordered*: those merged further by the swaps of
  :mod:`seqform.structured.reductions.ordered_isomorphism` (exact: the LP keeps its value and its
  answer lifts to an equilibrium, proven there and certified in its tests);
* *GameShrink*: Gilpin and Sandholm's bottom-up merge on the signal tree as reconstructed
  here (:func:`signal_tree`): a player's last-round signal is labelled by how many of the
  opponent's possible cards it beats, loses to and ties; two sibling signals (same history
  of signals before) merge when the multisets of their children's labels agree.  For the
  full Rhode Island deck this gives 13, 205 and 1,774 signals per round and exactly the
  1,237,238 LP rows Gilpin and Sandholm report (JACM 54(5) 2007; EC 2006), so it is taken
  to be their abstraction.

Then, on small decks, each merge's LP is solved (HiGHS's simplex), lifted to the game and
certified by best response on the unreduced game (:func:`merged_check`): the suit and
ordered merges keep the value and certify; the GameShrink merge changes the value and its
lifted strategies are exploitable.  The reason (docs/games.md, "Ordered game
isomorphism"): two signals with equal counts of wins and losses face *different* opponent
cards, and the opponent's probability of holding each card depends on his own earlier play
with it, so the subgames after them are not isomorphic with their entry ranges.

The page goes to ``benchmarks/results/gameshrink.md``.  Counting the full deck's GameShrink
signals takes about 20 s (132,600 leaves of the signal tree); building the full game to count
the suit and ordered merges would take minutes, so those two use the formulas of
:mod:`seqform.structured.reductions.ordered_isomorphism`'s docstring, checked here against the walk
on
every small deck.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).parent / "results"

Showdown = Callable[[tuple[int, ...]], np.ndarray]
"""Per sorted board, each card's level as a hand on that board."""


@dataclass(frozen=True)
class SignalTree:
    """The GameShrink merge of one player's signal tree (module docstring).

    ids : per depth, signature -> its number
    labels : (hand, public cards dealt so far) -> the numbers of its signatures along the
        path, which names its merged class (siblings with equal signatures share it)
    per_round : per depth (public cards seen), the merged signals summed over the classes
        of the depth before
    """

    labels: dict[tuple[int, tuple[int, ...]], tuple[int, ...]]
    per_round: tuple[int, ...]

    def label(self, player: int, hand: int, cards: tuple[int, ...]) -> Hashable:
        """The merged class of ``hand`` after ``cards`` (both players' trees are alike)."""
        return self.labels[(hand, cards)]


def signal_tree(cards: int, depth: int, showdown: Showdown) -> SignalTree:
    """The GameShrink merge (module docstring) of a game of one-card hands and ``depth``
    public cards, from its showdown levels."""
    ids: list[dict[Hashable, int]] = [{} for _ in range(depth + 1)]
    signatures: dict[tuple[int, tuple[int, ...]], int] = {}

    def signature(hand: int, dealt: tuple[int, ...]) -> int:
        if len(dealt) == depth:
            levels = showdown(tuple(sorted(dealt)))
            free = np.ones(cards, dtype=bool)
            free[[hand, *dealt]] = False
            other, own = levels[free], levels[hand]
            key: Hashable = (int((own > other).sum()), int((own < other).sum()))
        else:
            key = tuple(
                sorted(
                    signature(hand, (*dealt, card))
                    for card in range(cards)
                    if card != hand and card not in dealt
                )
            )
        found = ids[len(dealt)].setdefault(key, len(ids[len(dealt)]))
        signatures[(hand, dealt)] = found
        return found

    for hand in range(cards):
        signature(hand, ())
    labels = {
        (hand, dealt): tuple(signatures[(hand, dealt[:j])] for j in range(len(dealt) + 1))
        for hand, dealt in signatures
    }
    per_round = tuple(
        len({label for label in labels.values() if len(label) == j + 1}) for j in range(depth + 1)
    )
    return SignalTree(labels, per_round)


def rhode_island_showdown(ranks: int, suits: int) -> Showdown:
    """Rhode Island's levels (:mod:`seqform.game.builtin.three_card_hands`) per board."""
    from seqform.game.builtin.three_card_hands import FACES, hand_levels

    numbers = np.arange(ranks * suits)
    faces, suit = numbers // suits + (FACES - ranks), numbers % suits
    found: dict[tuple[int, ...], np.ndarray] = {}

    def levels(board: tuple[int, ...]) -> np.ndarray:
        if board not in found:
            public = [(int(faces[card]), int(suit[card])) for card in board]
            found[board] = hand_levels(faces, suit, (public[0], public[1]))
        return found[board]

    return levels


def leduc_showdown(ranks: int, suits: int) -> Showdown:
    """Leduc's levels: a pair beats any high card, else the higher rank wins."""
    rank = np.arange(ranks * suits) // suits
    return lambda board: rank + ranks * (rank == rank[board[0]])


def rhode_island_formula_signals(ranks: int, suits: int) -> dict[str, tuple[int, int, int]]:
    """Signals per round of the suit and the ordered merges, by the formulas of
    :mod:`seqform.structured.reductions.ordered_isomorphism` (three ranks or more, two suits or
    more)."""
    r, s = ranks, suits
    one_suit_board = (r - 1) * (2 * r - 2)
    two_suits = r * (2 + (s > 2)) - 2
    return {
        "suits": (r, r * (2 * r - 1), r * (one_suit_board + r * two_suits)),
        "ordered": (r, r * (2 * r - 1), r * (one_suit_board + r * (2 * r - 1 - (s == 2)))),
    }


@dataclass(frozen=True)
class SizeRow:
    """One game's signals per round and LP rows for each merge (None: not counted)."""

    game: str
    rows: dict[str, int]
    signals: dict[str, tuple[int, ...]]
    published: int | None = None


def _walked(game: object) -> dict[str, tuple[tuple[int, ...], int]]:
    """Signals per round and LP rows of the game, canonical boards, suit and ordered
    classes, counted on the built game."""
    from seqform.structured.reductions.ordered_sizes import ordered_sizes

    sizes = ordered_sizes(game)  # type: ignore[arg-type]
    assert sizes is not None
    per_round = sizes.classes_per_round
    return {
        "unabstracted": ((), sizes.full.rows),
        "canonical boards": ((), sizes.canonical.rows),
        "suits": (tuple(a for a, _ in per_round), sizes.suits.rows),
        "ordered": (tuple(b for _, b in per_round), sizes.ordered.rows),
    }


def rhode_island_row(ranks: int, suits: int = 4, max_bets: int = 3) -> SizeRow:
    """Sizes of ``rhode_island(ranks, suits, max_bets)``: walked on the built game for small
    decks (and the formulas checked), by formula for the full deck."""
    from seqform.game.builtin.rhode_island import rhode_island_name, rhode_island_structured
    from seqform.game.builtin.rhode_island_sizes import (
        ANTE,
        BET_SIZES,
        published_lp_rows,
        rhode_island_signal_sizes,
        rhode_island_sizes,
    )

    name = rhode_island_name(ranks, suits, ANTE, BET_SIZES, max_bets)
    tree = signal_tree(ranks * suits, 2, rhode_island_showdown(ranks, suits))
    gameshrink = tree.per_round
    shrunk = rhode_island_signal_sizes((gameshrink[0], gameshrink[1], gameshrink[2]), max_bets)
    formula = rhode_island_formula_signals(ranks, suits) if ranks >= 3 and suits >= 2 else None
    published = dict(published_lp_rows(ranks, suits, max_bets)).get("GameShrink")
    if ranks * suits <= 20:
        walked = _walked(rhode_island_structured(ranks, suits, max_bets=max_bets))
        if formula is not None:
            for step in ("suits", "ordered"):
                if walked[step][0] != formula[step]:
                    raise AssertionError(f"{name}: {step} {walked[step][0]} != {formula[step]}")
    elif formula is not None:
        full = rhode_island_sizes(ranks, suits, max_bets=max_bets)
        walked = {
            "unabstracted": ((), full.lp_rows(0)),
            "canonical boards": ((), -1),
            **{
                step: (signals, rhode_island_signal_sizes(signals, max_bets).lp_rows(0))
                for step, signals in formula.items()
            },
        }
    else:
        raise ValueError(f"{name}: no formula for fewer than 3 ranks; use a small deck")
    return SizeRow(
        game=name,
        rows={step: rows for step, (_, rows) in walked.items()} | {"GameShrink": shrunk.lp_rows(0)},
        signals={step: signals for step, (signals, _) in walked.items() if signals}
        | {"GameShrink": gameshrink},
        published=published,
    )


def leduc_row(ranks: int, suits: int) -> SizeRow:
    """Sizes of ``leduc(ranks, suits)``, walked on the built game; GameShrink's rows from
    its merged LP."""
    from seqform.game.builtin.leduc import leduc_structured
    from seqform.structured.reductions.signal_merge import merge_by_signals

    game = leduc_structured(ranks, suits)
    walked = _walked(game)
    tree = signal_tree(ranks * suits, 1, leduc_showdown(ranks, suits))
    merged = merge_by_signals(game, tree.label)
    return SizeRow(
        game=game.name,
        rows={step: rows for step, (_, rows) in walked.items()} | {"GameShrink": merged.size.rows},
        signals={step: signals for step, (signals, _) in walked.items() if signals}
        | {"GameShrink": tree.per_round},
    )


@dataclass(frozen=True)
class MergedCheck:
    """One merge's LP on a small game: its value, and its answer lifted to the game and
    certified there (NashConv relative to the payoff range)."""

    game: str
    merge: str
    rows: int
    lp_value: float
    nash_conv: float


def merged_check(game: object, merge: str) -> MergedCheck:
    """Solve ``game``'s LP under ``merge`` ("suits", "ordered" or "GameShrink"), lift its
    answer to the game and certify it there."""
    from seqform.forms.strategies import behaviour_from_plan
    from seqform.game.public.tree import StructuredGame
    from seqform.structured.lp_solve import solve_structured_lp
    from seqform.structured.reductions.ordered_isomorphism import reduce_by_ordered_isomorphism
    from seqform.structured.reductions.signal_merge import merge_by_signals
    from seqform.structured.reductions.suit_reduction import lift_plans, reduce_by_suits
    from seqform.structured.responses import certify, payoff_range, sequence_tables

    assert isinstance(game, StructuredGame)
    if merge == "GameShrink":
        cards = game.num_hands(0)
        depth = max(len(board) for board in _boards(game))
        showdown = _game_showdown(game)
        merged = merge_by_signals(game, signal_tree(cards, depth, showdown).label)
        solution = solve_structured_lp(merged.lp, solver="simplex")
        x, y = merged.lift(solution.x, solution.y)
        rows = merged.size.rows
    else:
        ordered = reduce_by_ordered_isomorphism(game) if merge == "ordered" else None
        reduction = ordered.reduction if ordered is not None else reduce_by_suits(game)
        assert reduction is not None
        solution = solve_structured_lp(reduction.lp, solver="simplex")
        x, y = lift_plans(reduction, solution.x, solution.y)
        rows = reduction.reduced.rows
    first, second = sequence_tables(game)
    certificate = certify(game, behaviour_from_plan(first, x), behaviour_from_plan(second, y))
    return MergedCheck(
        game=game.name,
        merge=merge,
        rows=rows,
        lp_value=solution.value,
        nash_conv=float(certificate.nash_conv) / float(payoff_range(game)),
    )


def _boards(game: object) -> list[tuple[int, ...]]:
    from seqform.game.public.symmetry import game_symmetries
    from seqform.structured.reductions.ordered_isomorphism import card_partitions

    parts = card_partitions(game, game_symmetries(game))  # type: ignore[arg-type]
    assert parts is not None
    return list(parts.levels)


def _game_showdown(game: object) -> Showdown:
    from seqform.game.public.symmetry import game_symmetries
    from seqform.structured.reductions.ordered_isomorphism import card_partitions

    parts = card_partitions(game, game_symmetries(game))  # type: ignore[arg-type]
    assert parts is not None
    return lambda board: parts.levels[board][0]


SIZE_GAMES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("leduc", (3, 2)),
    ("leduc", (13, 4)),
    ("rhode_island", (3, 4, 3)),
    ("rhode_island", (4, 4, 3)),
    ("rhode_island", (5, 4, 3)),
    ("rhode_island", (13, 4, 3)),
)
LP_GAMES = (
    "leduc",
    "leduc(ranks=13, suits=4)",
    "rhode_island(ranks=3, suits=2, max_bets=1)",
    "rhode_island(ranks=3, suits=3, max_bets=1)",
    "rhode_island(ranks=4, suits=2, max_bets=1)",
    "rhode_island(ranks=4, suits=3, max_bets=1)",
)
STEPS = ("unabstracted", "canonical boards", "suits", "ordered", "GameShrink")


def size_table(rows: Sequence[SizeRow]) -> list[str]:
    """The sizes as a markdown table."""
    lines = [
        "| game | " + " | ".join(STEPS) + " | published |",
        "|---|" + "---:|" * (len(STEPS) + 1),
    ]
    for row in rows:
        cells = []
        for step in STEPS:
            rows_ = row.rows.get(step, -1)
            signals = row.signals.get(step)
            text = "" if rows_ < 0 else f"{rows_:,}"
            if signals:
                text += " (" + ", ".join(f"{n:,}" for n in signals) + ")"
            cells.append(text)
        published = "" if row.published is None else f"{row.published:,}"
        lines.append(f"| `{row.game}` | " + " | ".join(cells) + f" | {published} |")
    return lines


def lp_table(checks: Sequence[MergedCheck]) -> list[str]:
    """The LP checks as a markdown table."""
    lines = [
        "| game | merge | LP rows | merged LP's value | NashConv / payoff range, lifted |",
        "|---|---|---:|---:|---:|",
    ]
    for check in checks:
        lines.append(
            f"| `{check.game}` | {check.merge} | {check.rows:,} | {check.lp_value:.12f} | "
            f"{check.nash_conv:.2e} |"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gameshrink")
    parser.add_argument("--no-lp", action="store_true", help="the sizes alone")
    args = parser.parse_args(argv)
    from seqform.game.builtin.registry import load_structured_game as load_structured

    rows = [
        leduc_row(*parameters) if family == "leduc" else rhode_island_row(*parameters)
        for family, parameters in SIZE_GAMES
    ]
    lines = ["# GameShrink beside seqform's exact merges", "", "LP rows (signals per round)", ""]
    lines += size_table(rows)
    if not args.no_lp:
        checks = [
            merged_check(load_structured(name), merge)
            for name in LP_GAMES
            for merge in ("suits", "ordered", "GameShrink")
        ]
        lines += ["", "The merged LPs, lifted and certified on the unreduced game", ""]
        lines += lp_table(checks)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "gameshrink.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
