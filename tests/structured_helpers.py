"""Shared pieces of the structured-game tests: the small instances, index maps between the
structured numbering and the compiled tree's (by sequence label), random strategies."""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.kuhn import kuhn_structured
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.liars_dice import liars_dice_structured
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.structured.responses import sequence_tables


def _river(oop: str, ip: str) -> StructuredGame:
    """A river spot of a pot of 10, stacks 30 and a half-pot bet, on Ks7h2d9c4s."""
    from seqform.holdem.game import spot_game
    from seqform.holdem.spot import read_spot

    text = (
        f'board = "Ks7h2d9c4s"\npot = 10\neffective_stack = 30\noop_range = "{oop}"\n'
        f'ip_range = "{ip}"\nbet_sizes = [0.5]\n'
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "river.toml"
        path.write_text(text)
        return spot_game(read_spot(path))


SMALL = {
    "kuhn3": lambda: kuhn_structured(3),
    "kuhn5": lambda: kuhn_structured(5),
    "leduc": lambda: leduc_structured(3, 2),
    "leduc-1-suit": lambda: leduc_structured(3, 1),
    "leduc-3-suits": lambda: leduc_structured(2, 3),
    "liars-dice-3": lambda: liars_dice_structured(3),
    "liars-dice-4": lambda: liars_dice_structured(4),
    "liars-dice-2x2": lambda: liars_dice_structured(2, 2),
    # a range inside the other, first in its order: the clash's mates are not the identity
    "river-QQ-vs-QQ,AA": lambda: _river("QQ", "QQ,AA"),
    "river-QQ,AA-vs-QQ": lambda: _river("QQ,AA", "QQ"),
}


def tree_to_structured(game: StructuredGame, tree: Game) -> tuple[np.ndarray, np.ndarray]:
    """Per player, the structured index of each of the tree's sequences (by label)."""
    maps = []
    for player, table in enumerate(sequence_tables(game)):
        ours = {label: index for index, label in enumerate(table.labels())}
        maps.append(np.asarray([ours[label] for label in tree.flat.tables[player].labels()]))
    return maps[0], maps[1]


def random_behaviour(
    table: PlayerSequences, rng: np.random.Generator, exact: bool = False
) -> BehaviouralStrategy:
    """Every information set mixes its actions with random weights 1..9 (some actions 0)."""
    weights = rng.integers(0, 10, size=table.num_sequences)
    probabilities = np.empty(table.num_sequences, dtype=object if exact else float)
    probabilities[0] = Fraction(1) if exact else 1.0
    for infoset in range(table.num_infosets):
        span = table.sequences_of(infoset)
        local = weights[span.start : span.stop].tolist()
        if sum(local) == 0:
            local[0] = 1
        total = sum(local)
        for sequence, weight in zip(span, local, strict=True):
            probabilities[sequence] = Fraction(weight, total) if exact else weight / total
    return BehaviouralStrategy(table, probabilities, np.zeros(table.num_infosets, bool))
