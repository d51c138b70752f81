"""Observed action counts, per information set, read for fitting a logit QRE.

Two formats, both naming players from 1 as every output does, information sets and actions
by their labels (``seqform games`` gives the built-in games' grammar):

JSON (``seqform.counts/1``; the ``"schema"`` key is optional)::

    {"schema": "seqform.counts/1",
     "counts": {"1": {"J": {"p": 41, "b": 9}, "Q": {"p": 50}},
                "2": {"Kb": {"c": 12}}}}

CSV, with this header and one row per action observed::

    player,infoset,action,count
    1,J,p,41
    1,J,b,9

Counts are whole numbers ``>= 0``; actions and information sets not listed count 0.  The
result is one count per action of the game, players in order, each player's actions in the
order of its sequence table (:func:`seqform.qre.equilibria.action_labels`).
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable

import numpy as np

from seqform.game.model import Game

__all__ = ["COUNTS_SCHEMA", "ActionCountsError", "read_action_counts"]

COUNTS_SCHEMA = "seqform.counts/1"


class ActionCountsError(ValueError):
    """An action-counts file that cannot be read or does not fit the game."""


def _index(game: Game) -> dict[tuple[int, str, str], int]:
    index: dict[tuple[int, str, str], int] = {}
    offset = 0
    for player, table in enumerate(game.flat.tables):
        for sequence in range(1, table.num_sequences):
            infoset = table.infosets[int(table.sequence_infoset[sequence])]
            index[(player + 1, infoset, table.sequence_action[sequence])] = offset + sequence - 1
        offset += table.num_sequences - 1
    return index


def _records_from_json(path: str) -> Iterable[tuple[object, object, object, object]]:
    with open(path, encoding="utf-8") as handle:
        try:
            document = json.load(handle)
        except json.JSONDecodeError as exc:
            raise ActionCountsError(f"{path}: not JSON ({exc})") from exc
    counts = document.get("counts") if isinstance(document, dict) else None
    if not isinstance(counts, dict):
        raise ActionCountsError(f'{path}: expected {{"counts": {{player: {{infoset: ...}}}}}}')
    for player, infosets in counts.items():
        if not isinstance(infosets, dict):
            raise ActionCountsError(f"{path}: player {player}: expected {{infoset: {{...}}}}")
        for infoset, actions in infosets.items():
            if not isinstance(actions, dict):
                raise ActionCountsError(
                    f"{path}: player {player}, {infoset!r}: expected {{action: count}}"
                )
            for action, count in actions.items():
                yield player, infoset, action, count


def _records_from_csv(path: str) -> Iterable[tuple[object, object, object, object]]:
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or [f.strip() for f in reader.fieldnames] != [
            "player",
            "infoset",
            "action",
            "count",
        ]:
            raise ActionCountsError(f"{path}: the header must be player,infoset,action,count")
        for row in reader:
            yield row["player"], row["infoset"], row["action"], row["count"]


def read_action_counts(game: Game, path: str | os.PathLike[str]) -> np.ndarray:
    """Counts per action of ``game`` from a ``.json`` or ``.csv`` file (module docstring).

    Raises
    ------
    ActionCountsError
        Naming the file and the entry that is malformed or unknown to the game.
    OSError
        If the file cannot be read.
    """
    name = os.fspath(path)
    records = _records_from_csv(name) if name.lower().endswith(".csv") else _records_from_json(name)
    index = _index(game)
    counts = np.zeros(len(index))
    for player, infoset, action, count in records:
        try:
            number = int(str(player).strip())
            value = float(str(count).strip())
        except ValueError as exc:
            raise ActionCountsError(
                f"{name}: player {player!r}, count {count!r}: expected whole numbers"
            ) from exc
        key = (number, str(infoset).strip(), str(action).strip())
        if key not in index:
            raise ActionCountsError(
                f"{name}: player {key[0]} has no action {key[2]!r} at information set "
                f"{key[1]!r} in {game.name}"
            )
        if not (np.isfinite(value) and value >= 0 and value == int(value)):
            raise ActionCountsError(f"{name}: count {count!r} is not a whole number >= 0")
        counts[index[key]] += value
    if counts.sum() <= 0:
        raise ActionCountsError(f"{name}: no observations (every count is 0)")
    return counts
