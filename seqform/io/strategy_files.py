"""Strategy and restriction files: the one reader behind ``play --auto FILE``,
``exploit --strategy FILE``, ``resolve --blueprint FILE`` (and ``seqform.resolve`` given a
path) and ``solve --fix-file FILE``; :func:`load_strategy` returns the strategy read.

Both kinds of file are JSON objects keyed by information set, then by action, read by one core
(load the JSON, check the object shape, parse each probability exactly) with two front-ends.

Strategy files (:func:`read_strategy_file`)
-------------------------------------------
A behavioural strategy of one player, ``b(a | h)`` for each of the player's information sets
``h`` and actions ``a`` (KMvS 1996, §2), in one of three shapes:

* ``{infoset: {action: probability}}``, e.g. ``{"J": {"p": "2/3", "b": "1/3"}, ...}``;
* a whole ``seqform solve --format json`` or ``seqform iterate --format json`` document
  (schema ``seqform.solve/2``, ``seqform.structured/2``, ``seqform.iterate/2``,
  ``seqform.resolve/1``, ``seqform.off-tree/1`` or ``seqform.abstraction/1``, whose strategy
  entries have the same shape; an abstraction's are its strategies lifted to the full game,
  an off-tree document's its profile of the full game, whose ``"game"`` it is): its entry of
  ``"strategies"`` for the player is read (player 1 when the caller names none);
* one such entry, ``{"player": 1, "infosets": [{"name": "J", "actions": [{"action": "p",
  "probability": 0.5}, ...]}, ...]}``;
* a Gambit behaviour profile, the line ``NE,p1,...,pn`` of Gambit's solvers (or the numbers
  alone) for the ``.efg`` of ``seqform export --to efg``, as
  ``seqform export --to gambit-profile`` writes it (:mod:`seqform.io.gambit_profile`): it
  holds both players' strategies, and player 1's is read when the caller names none.

Actions are named by label (``p``, ``b``) or in the game's words (``check``, ``bet``, ``fold``,
``call``: ``Game.describe_action``); an action left out has probability 0.  Every information
set of the player must be given.  When the caller names the player, the other player's
information sets are ignored (one file may hold both halves of a profile); when it does not,
the player is the one whose information sets the file gives, or the entry's ``"player"``.

The game may be a tree or a structured game (public tree × private hands,
:class:`~seqform.game.public.tree.StructuredGame`): a structured game's information sets are
named as its explicit tree's (hand label + public history, :func:`strategy_tables`), so one file
reads into both.  A Gambit profile needs the tree (its numbers follow the ``.efg``'s order).

Restriction files (:func:`read_restriction_file`)
-------------------------------------------------
``{infoset: {action: probability or [lo, hi]}}``, bounding ``lo <= b(a | h) <= hi`` (a single
probability fixes it); :mod:`seqform.routes.restrict` checks the names against the game.

Numbers
-------
A probability is parsed exactly by :func:`seqform.io.json_input.parse_probability` (a JSON
number read as the decimal it prints as, or a string such as ``"1/3"``; in [0, 1]).  The
probabilities at one information set of a strategy must sum to 1 within :data:`SUM_TOLERANCE`
(``1e-6``, so that six-digit decimals such as 0.333333 and 0.666667 are accepted); they are
then rescaled to sum to exactly 1, so a strategy read from a file is an exact strategy.

Errors
------
Whatever a file holds, reading it returns a checked strategy or raises
:class:`StrategyFileError` (a ``ValueError``) whose message names the file and, where there is
one, the information set: the JSON is read strictly (UTF-8, bounded depth, no key twice, bounded
numbers: :mod:`seqform.io.json_input`) and every shape is checked here, at one place, before
it is used.  A file that cannot be read raises ``OSError``.

Size: one reader for every command that takes a strategy or restriction file, so that each
shape and each message is checked in one place; split, the two front-ends would drift.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_mapping
from seqform.game.model import Game
from seqform.game.public.numbering import structured_tables
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.io.document_game import (
    GAME_USES,
    GameUse,
    check_document_game,
    check_strategy_file_game,
)
from seqform.io.documents import (
    ABSTRACTION,
    ITERATE,
    OFF_TREE,
    PREVIOUS,
    RESOLVE,
    SOLVE,
    STRUCTURED,
)
from seqform.io.gambit_profile import is_gambit_profile, profile_mapping
from seqform.io.json_input import (
    StrategyFileError,
    load_json,
    parse_json,
    parse_probability,
    read_text,
    shown,
)

__all__ = [
    "GAME_USES",
    "SOLUTION_SCHEMA",
    "STRATEGY_SCHEMAS",
    "SUM_TOLERANCE",
    "GameUse",
    "ProbabilityRange",
    "StrategyFile",
    "StrategyFileError",
    "check_document_game",
    "check_strategy_file_game",
    "load_strategy",
    "parse_probability",
    "read_restriction_file",
    "read_strategy_file",
    "strategy_tables",
]

SOLUTION_SCHEMA = SOLVE
STRATEGY_SCHEMAS = (SOLVE, ITERATE, STRUCTURED, RESOLVE, OFF_TREE, ABSTRACTION)
"""The documents whose ``"strategies"`` are read (an abstraction's: its lifted profile; an
off-tree document's: its profile of the full game, the one named on the command line)."""
_READ_SCHEMAS = (
    *STRATEGY_SCHEMAS,
    *(old for old, new in PREVIOUS.items() if new in STRATEGY_SCHEMAS),
)
"""The same documents' earlier versions too: their strategies did not change."""
SUM_TOLERANCE = Fraction(1, 10**6)
"""How far the probabilities at one information set may be from summing to 1."""


@dataclass(frozen=True)
class StrategyFile:
    """A strategy read from a file, as plain data.

    source : the file, as given
    player : whose strategy it is (0 or 1)
    probabilities : per information set of the player (in the player's index order), per
        action label (in the information set's order), ``b(a | h)``; each set sums to
        exactly 1
    """

    source: str
    player: int
    probabilities: Mapping[str, Mapping[str, Fraction]]


@dataclass(frozen=True)
class ProbabilityRange:
    """``lower <= b(a | h) <= upper`` as a restriction file gives it (equal when fixed)."""

    lower: Fraction
    upper: Fraction


@dataclass(frozen=True)
class _Given:
    """A strategy file's ``{infoset: {action: value}}`` before checking, and its player if
    the document says (None: not said)."""

    mapping: Mapping[str, Any]
    player: int | None


# --- shapes: each checked once, here ---------------------------------------------------------


def _entry(entry: object, at: str, shape: str) -> dict[str, Any]:
    """One information set's ``{action: ...}`` object."""
    if not isinstance(entry, dict):
        raise StrategyFileError(f"{at}: expected {shape}, got {shown(entry)}")
    return entry


def _listed(document: dict[str, Any], key: str, where: str) -> list[Any]:
    """``document[key]``, which must be a list."""
    value = document[key]
    if not isinstance(value, list):
        raise StrategyFileError(f"{where}: '{key}' must be a list, got {shown(value)}")
    return value


def _player_number(entry: dict[str, Any], where: str) -> int | None:
    """An entry's ``"player"`` (1 or 2; None when absent) as an index, 0 or 1."""
    if "player" not in entry:
        return None
    listed = entry["player"]
    if type(listed) is not int or listed not in (1, 2):
        raise StrategyFileError(f"{where}: 'player' must be 1 or 2, got {shown(listed)}")
    return listed - 1


def _named(item: object, key: str, needs: str, where: str) -> dict[str, Any]:
    """``item``, an object with a string ``item[key]`` (a name) and an ``item[needs]``."""
    if not isinstance(item, dict) or not isinstance(item.get(key), str) or needs not in item:
        raise StrategyFileError(
            f"{where}: each information set needs 'name' and 'actions' with 'action' and "
            f"'probability', got {shown(item)}"
        )
    return item


# --- strategy files ---------------------------------------------------------------------------


def strategy_tables(game: Game | StructuredGame) -> Sequence[PlayerSequences]:
    """Both players' sequence tables, whose information-set names a strategy file uses: the
    tree's, or a structured game's in its hand-major numbering (the same names)."""
    if isinstance(game, StructuredGame):
        return structured_tables(game)
    return game.flat.tables


def _describe(game: Game | StructuredGame, infoset: str, action: str) -> str:
    """The game's word for ``action`` at ``infoset``; the label where it has none."""
    words = game.describe_action
    return action if words is None else words(infoset, action)


def read_strategy_file(
    path: str | Path,
    game: Game | StructuredGame,
    player: int | None = None,
    *,
    same_game: GameUse | None = None,
) -> StrategyFile:
    """Read a strategy of ``player`` of ``game`` (module docstring; None: the file says).

    ``same_game``: what the caller does with ``game`` (``"played"``, ``"exploited"``, ...):
    a seqform document must be of ``game`` (:func:`check_document_game`, whose refusal says
    what the game is for), as a strategy played at a table must; None reads a document of
    another game whose information sets match (a Kuhn solve applied to Kuhn read from its
    ``.efg``, say).

    Raises
    ------
    StrategyFileError
        If the file is not JSON of an accepted shape, holds another player's strategy, names an
        information set or action the game does not have, misses one of the player's
        information sets, or gives probabilities that are not numbers in [0, 1] summing to 1
        within :data:`SUM_TOLERANCE`; with ``same_game``, a document of another game.
    OSError
        If the file cannot be read.
    """
    where = f"strategy file {str(path)!r}"
    text = read_text(path, where)
    if is_gambit_profile(text):
        if isinstance(game, StructuredGame):
            raise StrategyFileError(
                f"{where} is a Gambit profile, which is read on a game's tree; "
                f"{game.name} is given as public tree × hands: give a JSON strategy"
            )
        chosen = 0 if player is None else player
        given = _Given(profile_mapping(text, game, chosen, where), chosen)
    else:
        document = parse_json(text, where)
        if same_game is not None:
            check_document_game(document, game, where, same_game)
        given = _given(document, player, where)
    chosen = _owner(game, given, where)
    probabilities = _checked(game, chosen, given.mapping, where)
    return StrategyFile(source=str(path), player=chosen, probabilities=probabilities)


def load_strategy(
    game: Game | StructuredGame,
    path: str | Path,
    player: int | None = None,
    *,
    use: GameUse = "exploited",
) -> BehaviouralStrategy:
    """Read a strategy file (module docstring) for ``player`` (None: the file says) as an
    exact strategy, of the tree or of a structured game (its sequence tables, whose
    information sets the tree's names name).

    A seqform document must be of ``game`` (``read_strategy_file(..., same_game=use)``), so
    a strategy of another game (or of Leduc with another deck or bets) is refused by naming
    both games, not by the first information set or action that happens not to match;
    ``use`` says in that refusal what ``game`` is for (``"re-solved"`` for a blueprint).  A
    bare ``{infoset: {action: probability}}`` mapping and a Gambit profile name no game and
    are read as given.

    Raises
    ------
    OSError
        If the file cannot be read.
    StrategyFileError
        (a ``ValueError``) If it is not a complete, valid strategy of one player of ``game``,
        or is a document of another game (naming both).
    """
    read = read_strategy_file(path, game, player, same_game=use)
    return behaviour_from_mapping(strategy_tables(game)[read.player], read.probabilities)


def _given(document: Any, player: int | None, where: str) -> _Given:
    """The ``{infoset: {action: value}}`` of a document in any accepted shape."""
    if not isinstance(document, dict):
        raise StrategyFileError(
            f"{where} must hold an object; expected a solve JSON document, one of its "
            "'strategies' entries or {infoset: {action: probability}}"
        )
    schema = document.get("schema", SOLUTION_SCHEMA)
    if not isinstance(schema, str):
        raise StrategyFileError(f"{where}: 'schema' must be a string, got {shown(schema)}")
    if schema not in _READ_SCHEMAS:
        raise StrategyFileError(
            f"{where} is a {shown(schema, 80).strip(chr(39))} document; a strategy file may be "
            f"a {' or '.join(STRATEGY_SCHEMAS)} one"
        )
    if "strategies" in document:
        wanted = 0 if player is None else player
        entries = _listed(document, "strategies", where)
        for number, entry in enumerate(entries, start=1):
            at = f"{where}, strategies entry {number}"
            if _player_number(_entry(entry, at, "an object"), at) == wanted:
                return _from_entry(entry, wanted, where)
        raise StrategyFileError(
            f"{where}: the {schema} document has no strategy for player {wanted + 1}"
        )
    if "infosets" in document:
        return _from_entry(document, player, where)
    return _Given(document, player)


def _from_entry(entry: dict[str, Any], player: int | None, where: str) -> _Given:
    """One entry of ``"strategies"``: ``{"player": 1, "infosets": [...]}``."""
    listed = _player_number(entry, where)
    if listed is not None and player is not None and listed != player:
        raise StrategyFileError(
            f"{where} holds a strategy of player {listed + 1}, not of player {player + 1}"
        )
    mapping: dict[str, dict[str, Any]] = {}
    for infoset in _listed(entry, "infosets", where):
        name = _named(infoset, "name", "actions", where)["name"]
        at = f"{where}, information set {shown(name)}"
        if name in mapping:
            raise StrategyFileError(f"{at} is given twice")
        mapping[name] = {}
        for action in _listed(infoset, "actions", at):
            label = _named(action, "action", "probability", at)["action"]
            if label in mapping[name]:
                raise StrategyFileError(f"{at}: action {shown(label)} is given twice")
            mapping[name][label] = action["probability"]
    return _Given(mapping, player if listed is None else listed)


def _owner(game: Game | StructuredGame, given: _Given, where: str) -> int:
    """The player whose strategy the file holds: as given, else from its information sets."""
    if given.player is not None:
        return given.player
    tables = strategy_tables(game)
    owners = {p for p in (0, 1) for name in given.mapping if name in tables[p].index_of_infoset()}
    if len(owners) == 2:
        raise StrategyFileError(
            f"{where} holds information sets of both players; name the player to read"
        )
    return owners.pop() if owners else 0


def _checked(
    game: Game | StructuredGame, player: int, mapping: Mapping[str, Any], where: str
) -> dict[str, dict[str, Fraction]]:
    """Every information set of ``player``, in index order, checked and rescaled."""
    tables = strategy_tables(game)
    table, other = tables[player], tables[1 - player].index_of_infoset()
    index = table.index_of_infoset()
    read: dict[str, dict[str, Fraction]] = {}
    for name, entry in mapping.items():
        if name in other:
            continue
        if name not in index:
            raise StrategyFileError(f"{where}: the game has no information set {shown(name)}")
        at = f"{where}, information set {shown(name)}"
        given = _entry(entry, at, "{action: probability}")
        read[name] = _behaviour_at(game, name, table.actions[index[name]], given, at)
    missing = [name for name in table.infosets if name not in read]
    if missing:
        names = ", ".join(missing[:8]) + (", …" if len(missing) > 8 else "")
        raise StrategyFileError(
            f"{where}: no probabilities for {len(missing)} information set(s) of player "
            f"{player + 1}; there is no entry for information set(s) {names}"
        )
    return {name: read[name] for name in table.infosets}


def _behaviour_at(
    game: Game | StructuredGame,
    infoset: str,
    actions: tuple[str, ...],
    entry: Mapping[str, Any],
    at: str,
) -> dict[str, Fraction]:
    """``{action label: probability}`` at one information set, summing to exactly 1."""
    names = {_describe(game, infoset, action): action for action in actions}
    names.update({action: action for action in actions})  # a label wins over a word
    given: dict[str, Fraction] = {}
    for key, value in entry.items():
        action = names.get(key)
        if action is None:
            choices = ", ".join(f"{a} ({_describe(game, infoset, a)})" for a in actions)
            raise StrategyFileError(
                f"{at}: unknown action {shown(key)} (the information set has no action "
                f"{shown(key)}; its actions are {choices})"
            )
        if action in given:
            raise StrategyFileError(f"{at}: action {action!r} is given twice")
        given[action] = parse_probability(value, f"{at}, action {shown(key)}")
    total = sum(given.values(), Fraction(0))
    if abs(total - 1) > SUM_TOLERANCE:
        raise StrategyFileError(
            f"{at}: probabilities sum to {float(total):.12g}, "
            f"not 1 (within {float(SUM_TOLERANCE):g})"
        )
    return {action: given.get(action, Fraction(0)) / total for action in actions}


# --- restriction files ------------------------------------------------------------------------


def read_restriction_file(path: str | Path) -> dict[str, dict[str, ProbabilityRange]]:
    """Read ``{infoset: {action: probability or [lo, hi]}}`` (module docstring).

    Returns the ranges by information set and action, in the file's order; the names are not
    checked against a game here.

    Raises
    ------
    StrategyFileError
        If the file is not JSON of that shape, a number is not a probability or a range is
        not ``[lo, hi]`` with ``lo <= hi``.
    OSError
        If the file cannot be read.
    """
    where = f"fix file {str(path)!r}"
    document = load_json(path, where)
    if not isinstance(document, dict):
        raise StrategyFileError(
            f"{where}: expected an object {{infoset: {{action: probability or [lo, hi]}}}}"
        )
    ranges: dict[str, dict[str, ProbabilityRange]] = {}
    for infoset, entry in document.items():
        at = f"{where}, information set {shown(infoset)}"
        actions = _entry(entry, at, "{action: probability or [lo, hi]}")
        ranges[infoset] = {
            action: _range(value, f"{at}, action {shown(action)}")
            for action, value in actions.items()
        }
    return ranges


def _range(value: object, at: str) -> ProbabilityRange:
    if not isinstance(value, list):
        probability = parse_probability(value, at)
        return ProbabilityRange(probability, probability)
    if len(value) != 2:
        raise StrategyFileError(f"{at}: a range is [lo, hi], got {shown(value)}")
    lower, upper = parse_probability(value[0], at), parse_probability(value[1], at)
    if lower > upper:
        low, high = (shown(end).strip("'") for end in value)
        raise StrategyFileError(f"{at}: the range [{low}, {high}] is empty")
    return ProbabilityRange(lower, upper)
