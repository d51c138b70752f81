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

Players are written exactly as the outputs number them (``"1"``, ``"2"``: not ``"01"`` or
``" 1"``), and in JSON the information sets and actions exactly as labelled; a key given
twice (in JSON, or a CSV row repeating an action) is refused, as is a CSV row of more or
fewer than four fields, naming its line.  The CSV's fields may have spaces around them.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator

import numpy as np

from seqform.game.model import Game
from seqform.io.json_input import StrategyFileError, parse_json, read_text

__all__ = ["COUNTS_SCHEMA", "ActionCountsError", "read_action_counts"]

COUNTS_SCHEMA = "seqform.counts/1"

_HEADER = ["player", "infoset", "action", "count"]

Record = tuple[str, str, str, str, object]
"""Where an entry is (the file, and its line or keys), its player as written, information
set, action and count."""


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


def _records_from_json(name: str, text: str) -> Iterator[Record]:
    """The entries of a JSON counts file (parsed strictly: a key given twice is refused)."""
    try:
        document = parse_json(text, name)
    except StrategyFileError as exc:
        raise ActionCountsError(str(exc)) from None
    counts = document.get("counts") if isinstance(document, dict) else None
    if not isinstance(counts, dict):
        raise ActionCountsError(f'{name}: expected {{"counts": {{player: {{infoset: ...}}}}}}')
    for player, infosets in counts.items():
        if not isinstance(infosets, dict):
            raise ActionCountsError(f"{name}: player {player!r}: expected {{infoset: {{...}}}}")
        for infoset, actions in infosets.items():
            if not isinstance(actions, dict):
                raise ActionCountsError(
                    f"{name}: player {player!r}, {infoset!r}: expected {{action: count}}"
                )
            for action, count in actions.items():
                if isinstance(count, bool) or not isinstance(count, int | float):
                    raise ActionCountsError(
                        f"{name}: count {count!r} is not a number (player {player!r}, "
                        f"{infoset!r}, {action!r})"
                    )
                yield name, player, infoset, action, count


def _records_from_csv(name: str, text: str) -> Iterator[Record]:
    """The rows of a CSV counts file, each of exactly four fields, stripped of spaces."""
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None or [field.strip() for field in header] != _HEADER:
        raise ActionCountsError(f"{name}: the header must be {','.join(_HEADER)}")
    for row in reader:
        if not row:
            continue  # a blank line
        where = f"{name}, line {reader.line_num}"
        if len(row) != len(_HEADER):
            raise ActionCountsError(f"{where}: {len(row)} fields, expected 4 ({','.join(_HEADER)})")
        player, infoset, action, count = (field.strip() for field in row)
        yield where, player, infoset, action, count


def _count(where: str, count: object, key: tuple[int, str, str]) -> float:
    """``count`` (of ``key``'s action) as a whole number ``>= 0``."""
    try:
        value = float(str(count))
    except ValueError:
        value = -1.0
    if not (np.isfinite(value) and value >= 0 and value == int(value)):
        raise ActionCountsError(
            f"{where}: count {count!r} is not a whole number >= 0 (player {key[0]}, "
            f"{key[1]!r}, {key[2]!r})"
        )
    return value


def read_action_counts(game: Game, path: str | os.PathLike[str]) -> np.ndarray:
    """Counts per action of ``game`` from a ``.json`` or ``.csv`` file (module docstring).

    Raises
    ------
    ActionCountsError
        Naming the file and the entry (a CSV's line) that is malformed, given twice or
        unknown to the game.
    OSError
        If the file cannot be read.
    """
    name = os.fspath(path)
    try:
        text = read_text(name, name)
    except StrategyFileError as exc:
        raise ActionCountsError(str(exc)) from None
    read = _records_from_csv if name.lower().endswith(".csv") else _records_from_json
    index = _index(game)
    players = {str(player): player for player in range(1, game.num_players + 1)}
    counts = np.zeros(len(index))
    seen: dict[tuple[int, str, str], str] = {}
    for where, player, infoset, action, count in read(name, text):
        if player not in players:
            raise ActionCountsError(
                f"{where}: player {player!r} is not a player of {game.name}; write "
                + " or ".join(repr(key) for key in players)
            )
        key = (players[player], infoset, action)
        if key not in index:
            raise ActionCountsError(
                f"{where}: player {key[0]} has no action {key[2]!r} at information set "
                f"{key[1]!r} in {game.name}"
            )
        if key in seen:
            raise ActionCountsError(
                f"{where}: player {key[0]}'s action {key[2]!r} at {key[1]!r} is given again "
                f"(first at {seen[key].removeprefix(name + ', ')})"
            )
        seen[key] = where
        counts[index[key]] = _count(where, count, key)
    with np.errstate(over="ignore"):
        total = counts.sum()
    if total <= 0:
        raise ActionCountsError(f"{name}: no observations (every count is 0)")
    if not np.isfinite(total):
        raise ActionCountsError(
            f"{name}: the counts add up past the float range (±1.8e308); the fit's likelihood "
            "needs their sum"
        )
    return counts
