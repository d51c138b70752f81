"""Node locks as text: the compact notation of ``--lock`` and lock files (TOML or JSON).

Compact notation (``--lock``, repeatable; ``seqform.solve(..., locks=[...])``)::

    PLAYER@NODE: ACTION=P,ACTION=P[; hands=HANDS]

    OOP@: x=1                          OOP checks its whole range at the first decision
    IP@x: b5=0.5,x=0.5; hands=AA,KK    IP bets 5 half the time with AA and KK after a check
    OOP@x b5: c=1                      OOP calls every hand facing the bet of 5
    P1@J: b=1                          on a game tree (Kuhn): the information set J

``PLAYER`` is ``OOP`` or ``IP`` (``P1``/``P2``, ``1``/``2``); ``NODE`` the public actions
before the decision, as seqform labels them (``x`` check, ``b5`` bet 5 chips, ``c`` call,
``f`` fold, ``r20`` raise to 20), separated by spaces or ``-``, empty for the first
decision; on a game tree without private hands, an information set's name.  ``P`` is a
fraction or decimal (``1/3``, ``0.25``); actions left out get 0 and the probabilities must
add up to 1.  ``hands`` takes the range notation of the spot files without weights
(``AA,KQs,AhKh``) or, on other games, hand labels; without it the lock covers every hand.
Each key is given once: a second ``hands=``, or an action named twice, is refused.

Lock file: a TOML file with one ``[[lock]]`` table per lock, or a JSON file (``.json``) with
the same objects in a list (or under ``"lock"``)::

    [[lock]]
    player = "IP"
    node = "x"
    hands = "AA,KK"          # optional
    mix = { b5 = 0.5, x = 0.5 }

Every mistake raises :class:`~seqform.forms.locks.LockError` naming the lock (the option's
text, or the file and the lock's number).
"""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

from seqform.forms.locks import Lock, LockError, player_index, player_names
from seqform.io.json_input import StrategyFileError, parse_json, parse_probability, read_text

__all__ = ["LOCK_KEYS", "lock_from_mapping", "parse_lock", "read_lock_file"]

LOCK_KEYS = ("player", "node", "hands", "mix")


def _probability(value: object, where: str) -> Fraction:
    try:
        return parse_probability(value, where)
    except StrategyFileError as exc:
        raise LockError(str(exc)) from None


def _hands(text: str, where: str) -> tuple[str, ...]:
    """The hands of ``hands=AA,KK``; an empty one is refused (no hands is not all hands)."""
    hands = tuple(item.strip() for item in text.split(","))
    if not any(hands):
        raise LockError(f"{where}: hands= names no hand; leave it out to lock every hand")
    if not all(hands):
        raise LockError(f"{where}: hands={text.strip()} has an empty item (two commas?)")
    return hands


def parse_lock(spec: str) -> Lock:
    """Read the compact notation of the module docstring.

    Raises
    ------
    LockError
        For text not of that form, naming it.
    """
    where = f"--lock {spec!r}"
    player_text, at, rest = spec.partition("@")
    node, colon, body = rest.partition(":")
    if not at or not colon:
        raise LockError(f"{where}: write PLAYER@NODE: ACTION=P,... (e.g. IP@x: b5=0.5,x=0.5)")
    player = player_index(player_text, where)
    mix: list[tuple[str, Fraction]] = []
    hands: tuple[str, ...] | None = None
    for part in (part.strip() for part in body.split(";")):
        key, equals, value = part.partition("=")
        if key.strip().lower() == "hands" and equals:
            if hands is not None:  # a second hands= would silently replace the first
                raise LockError(
                    f"{where}: hands= is given twice; name every hand in one (hands=AA,QQ), "
                    "or write a lock for each"
                )
            hands = _hands(value, where)
            continue
        for item in filter(None, (item.strip() for item in part.split(","))):
            action, equals, value = item.partition("=")
            if not equals or not action.strip():
                raise LockError(f"{where}: {item!r} is not ACTION=P (e.g. x=1)")
            mix.append((action.strip(), _probability(value.strip(), where)))
    return Lock(player, node.strip(), tuple(mix), hands or (), where, player_names(player_text))


def lock_from_mapping(data: object, where: str) -> Lock:
    """A lock from a file's table (module docstring).

    Raises
    ------
    LockError
        For a missing or unknown key or a value of the wrong shape, naming ``where``.
    """
    if not isinstance(data, dict):
        raise LockError(f"{where}: expected a table with {', '.join(LOCK_KEYS)}")
    unknown = [key for key in data if key not in LOCK_KEYS]
    if unknown:
        raise LockError(f"{where}: unknown key {unknown[0]!r}; a lock has {', '.join(LOCK_KEYS)}")
    missing = [key for key in ("player", "mix") if key not in data]
    if missing:
        raise LockError(f"{where}: missing {', '.join(missing)}")
    node = data.get("node", "")
    if not isinstance(node, str):
        raise LockError(f'{where}: node must be text in quotes, such as "x-b5" ("" the root)')
    hands: Any = data.get("hands", ())
    if isinstance(hands, str):
        hands = _hands(hands, where)
    elif not isinstance(hands, list | tuple) or not all(isinstance(h, str) for h in hands):
        raise LockError(f'{where}: hands must be text such as "AA,KQs" or a list of it')
    elif "hands" in data and not (hands and all(h.strip() for h in hands)):
        raise LockError(f"{where}: hands names no hand, or an empty one; leave it out for all")
    mix = data["mix"]
    if not isinstance(mix, dict):
        raise LockError(f"{where}: mix must be a table of action = probability")
    pairs = tuple(
        (str(action), _probability(value, f"{where}, mix {action}"))
        for action, value in mix.items()
    )
    player = player_index(data["player"], where)
    return Lock(player, node, pairs, tuple(hands), where, player_names(data["player"]))


def read_lock_file(path: str | Path) -> list[Lock]:
    """The locks of a TOML or JSON (``.json``) lock file (module docstring).

    Raises
    ------
    LockError
        For a file that is not such a file, naming it and the lock.
    OSError
        If it cannot be read.
    """
    name = str(path)
    try:
        text = read_text(path, name)
        if name.lower().endswith(".json"):
            data: Any = parse_json(text, name)
        else:
            data = tomllib.loads(text)
    except StrategyFileError as exc:
        raise LockError(str(exc)) from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise LockError(f"{name}: not a lock file: {exc}") from None
    except RecursionError:
        raise LockError(f"{name}: tables nested too deeply") from None
    if isinstance(data, dict):
        extra = [key for key in data if key != "lock"]
        if extra or "lock" not in data:
            raise LockError(f"{name}: expected [[lock]] tables (found {extra[:1] or 'none'})")
        data = data["lock"]
    if not isinstance(data, list) or not data:
        raise LockError(f"{name}: expected a list of locks ([[lock]] tables)")
    return [lock_from_mapping(entry, f"{name}, lock {i}") for i, entry in enumerate(data, 1)]
