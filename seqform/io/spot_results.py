"""A saved spot result read back: the JSON that ``solve SPOT.toml --format json`` or
``iterate SPOT.toml --format json`` wrote, reopened without the spot file and without
solving (``seqform show RESULT.json``).

Such a document (``seqform.structured/2`` or ``seqform.iterate/2``) holds every combo's
strategy at every decision (``"strategies"``: information sets ``COMBO|HISTORY``) and the
spot itself (``"spot"``/``"definition"``, the keys of the spot file,
:func:`seqform.documents.spots.spot.definition_json`).  The spot's structured game is rebuilt from
the definition (cards and bets only: no LP, no CFR), and the strategies are read onto its
sequence tables, so every view of the solved spot (frequencies and grids at any decision,
one combo's strategy) is computed by the same functions as after a solve
(:mod:`seqform.holdem.report`, :mod:`seqform.holdem.hands`).

Whatever the file holds, reading it returns a :class:`SavedSpot` or raises
:class:`SpotResultError` naming the file and the field: not JSON (read strictly,
:mod:`seqform.io.json_input`), a document of another kind, a document breaking its schema
(checked when the optional ``jsonschema`` package is there, on a sample of each strategy's
information sets: the reader checks all of them), a solved game that is not a
spot, a spot saved before documents kept its definition, a definition that is not a spot
(:class:`~seqform.holdem.SpotFileError`'s message), strategies that do not fit the spot's
game (an information set or an action it does not have, or one given twice), probabilities
that are not numbers in [0, 1], or an information set whose probabilities do not sum to 1
within :data:`~seqform.io.strategy_files.SUM_TOLERANCE` (the tolerance of the strategy files
``exploit`` and ``play`` read).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from seqform.base.numbers import FRACTION_TOLERANCE, float_of
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_mapping
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.holdem import Spot, SpotFileError, spot_from_mapping, spot_game
from seqform.io.documents import (
    DOCUMENTS,
    ITERATE,
    PREVIOUS,
    STRUCTURED,
    DocumentError,
    validate_document,
)
from seqform.io.json_input import load_json, shown
from seqform.io.strategy_files import SUM_TOLERANCE
from seqform.structured.responses import sequence_tables

__all__ = [
    "SPOT_RESULT_SCHEMAS",
    "SavedSpot",
    "SpotResultError",
    "is_spot_result",
    "read_result_document",
    "read_spot_result",
    "saved_spot",
]

SPOT_RESULT_SCHEMAS = (STRUCTURED, ITERATE)
"""The documents a spot's result is saved in: the LP's (``solve``) and CFR's (``iterate``)."""

PROBABILITY_SLACK = 1e-9
"""How far outside [0, 1] a saved float probability may be (a solver's rounding); it is
clipped into [0, 1]."""


class SpotResultError(ValueError):
    """A file that is not a saved spot result; the message names the file and the field."""


@dataclass(frozen=True)
class SavedSpot:
    """A saved spot result, reopened.

    source : the file, as given
    document : the document as saved (its text report is rendered from it)
    spot : the spot, read from the document's definition
    game : the spot's structured game, rebuilt from it
    strategies : OOP's and IP's behavioural strategies as saved (the LP's, or CFR's
        average), on the game's sequence tables
    """

    source: str
    document: dict[str, Any]
    spot: Spot
    game: StructuredGame
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]


def read_spot_result(path: str | Path) -> SavedSpot:
    """Read a saved spot result (module docstring).

    Raises
    ------
    SpotResultError
        For a file that is not one, naming the file and the field.
    OSError
        For a file that cannot be read.
    """
    where = f"{str(path)!r}"
    document = _read(path, where)
    _check_kind(document, where)
    _check_schema(document, where)
    _check_value(document, where)
    return saved_spot(path, document)


def read_result_document(path: str | Path) -> dict[str, Any]:
    """Read any saved seqform result document (``solve``, ``iterate``, ``ranges``,
    ``compare``, ``qre``, ``exploit``, ``resolve``, ``solve-many``, ... ``--format json``),
    checked against its schema as a spot's result is; :func:`is_spot_result` tells whether
    :func:`saved_spot` reopens it as a spot.

    Raises
    ------
    SpotResultError
        For a file that is not a seqform document of a kind this version writes, or that
        breaks its schema, naming the file and the field.
    OSError
        For a file that cannot be read.
    """
    where = f"{str(path)!r}"
    if str(path).lower().endswith(".npz"):
        raise SpotResultError(
            f"{where} is a strategy-arrays document (.npz), not a result: "
            f"`seqform exploit GAME --strategy {path}` reads it"
        )
    document = _read(path, where)
    if not isinstance(document, dict):
        raise SpotResultError(f"{where} holds {shown(document)}, not a seqform document")
    kind = document.get("schema")
    if kind in PREVIOUS:
        raise SpotResultError(
            f"{where}: a {kind} document, written by an earlier seqform; this one reads "
            f"{PREVIOUS[kind]}: run the command again with --format json"
        )
    if kind not in DOCUMENTS:
        raise SpotResultError(f"{where}: {_not_a_result(kind)}")
    _check_schema(document, where)
    _check_value(document, where)
    return document


def _not_a_result(kind: Any) -> str:
    """Why a document of ``kind`` is not a result this version reads: a newer version of a
    kind it knows, a file without ``schema`` (a strategy file), or another kind."""
    if kind is None:
        return (
            "it has no 'schema' field: a strategy file or another program's JSON, not a "
            "seqform result (a command's --format json --output FILE)"
        )
    name, _, version = str(kind).rpartition("/")
    known = [each for each in DOCUMENTS if each.rpartition("/")[0] == name]
    if known and version.isdigit() and int(version) > int(known[0].rpartition("/")[2]):
        return (
            f"a {kind} document, written by a newer seqform; this one reads {known[0]}: "
            "upgrade seqform to read it"
        )
    return (
        f"'schema' is {shown(kind)}; show reopens a seqform result document (a command's "
        "--format json --output FILE)"
    )


def is_spot_result(document: dict[str, Any]) -> bool:
    """Whether a result document is a hold'em spot's (``solve`` or ``iterate SPOT.toml``)."""
    return document.get("schema") in SPOT_RESULT_SCHEMAS and isinstance(document.get("spot"), dict)


def _read(path: str | Path, where: str) -> Any:
    try:
        return load_json(path, where)
    except ValueError as exc:  # StrategyFileError: the strict reader's message names the file
        raise SpotResultError(str(exc)) from None


def saved_spot(path: str | Path, document: dict[str, Any]) -> SavedSpot:
    """A spot's result document, already read and checked, with its game rebuilt from the
    saved definition and its strategies read onto that game (module docstring).

    Raises
    ------
    SpotResultError
        For a definition or strategies that do not make a spot's result.
    """
    where = f"{str(path)!r}"
    spot_object = document.get("spot")
    if not isinstance(spot_object, dict):
        raise SpotResultError(
            f"{where}: the {document['schema']} document is not a hold'em spot's (no 'spot'); "
            "show reopens the result of a spot file (*.toml)"
        )
    definition = spot_object.get("definition")
    if not isinstance(definition, dict):
        raise SpotResultError(
            f"{where}: 'spot' has no 'definition' (the document was written before results "
            "kept their spot); solve the spot again with --output to save one show can reopen"
        )
    game_object = document.get("game")
    name = game_object.get("name") if isinstance(game_object, dict) else None
    try:
        spot = spot_from_mapping(definition, name=str(name or "spot"))
        game = spot_game(spot)
    except SpotFileError as exc:
        raise SpotResultError(f"{where}: spot/definition: {exc}") from None
    strategies = _strategies(document, game, where)
    return SavedSpot(str(path), document, spot, game, strategies)


def _check_kind(document: Any, where: str) -> None:
    if not isinstance(document, dict):
        raise SpotResultError(f"{where} holds {shown(document)}, not a seqform document")
    kind = document.get("schema")
    if kind not in SPOT_RESULT_SCHEMAS:
        raise SpotResultError(
            f"{where}: 'schema' is {shown(kind)}; show reopens a spot's result, a "
            f"{' or '.join(SPOT_RESULT_SCHEMAS)} document (solve or iterate SPOT.toml "
            "--format json --output FILE)"
        )


SCHEMA_SAMPLE = 8
"""How many of each strategy's information sets the schema check reads: the reader checks
every one itself (:func:`_mapping`), and jsonschema took 87 % of reopening a flop's result
(a 115 MB document, 78 CPU s) going over all of them."""


def _check_schema(document: dict[str, Any], where: str) -> None:
    """The document against its schema, when ``jsonschema`` is installed (the ``dev``
    extra), with each strategy's first :data:`SCHEMA_SAMPLE` information sets; without
    it, the fields show reads are checked as they are read."""
    strategies = document.get("strategies")
    if isinstance(strategies, list):
        sampled = [
            {**entry, "infosets": entry["infosets"][:SCHEMA_SAMPLE]}
            if isinstance(entry, dict) and isinstance(entry.get("infosets"), list)
            else entry
            for entry in strategies
        ]
        document = {**document, "strategies": sampled}
    try:
        validate_document(document)
    except ImportError:
        return
    except DocumentError as exc:
        raise SpotResultError(f"{where}: {exc}") from None


def _check_value(document: dict[str, Any], where: str) -> None:
    """A document's ``value`` beside its ``value_fraction``, where it has both: ``null``
    stands for a number beyond the floats, which the fraction then holds
    (``urn:seqform:schema:common/2#/$defs/number``), and a float is the fraction's to
    :data:`~seqform.base.numbers.FRACTION_TOLERANCE` (a float solve's matching fraction) or
    to ``1e-12`` of its size (an exact one's).  The schema cannot say either: a hand-edited
    ``"value": null`` was shown as ``+inf``.
    """
    if "value_fraction" not in document or "value" not in document:
        return
    value, text = document["value"], document["value_fraction"]
    if text is None:
        if value is None:
            raise SpotResultError(f"{where}: 'value' and 'value_fraction' are both null")
        return
    try:  # the schema's pattern admits "1/0"; without jsonschema nothing was checked
        exact = float_of(Fraction(text))
    except (TypeError, ValueError, ZeroDivisionError):
        raise SpotResultError(
            f"{where}: 'value_fraction' {shown(text)} is not a fraction such as '-1/18'"
        ) from None
    if value is not None and (not isinstance(value, int | float) or isinstance(value, bool)):
        raise SpotResultError(f"{where}: 'value' {shown(value)} is not a number")
    if value is None:
        if math.isfinite(exact):
            raise SpotResultError(
                f"{where}: 'value' is null (a number beyond the floats), but 'value_fraction' "
                f"{shown(text)} is {exact!r}"
            )
        return
    if not math.isfinite(exact) or abs(value - exact) > max(FRACTION_TOLERANCE, 1e-12 * abs(exact)):
        raise SpotResultError(
            f"{where}: 'value' {value!r} is not 'value_fraction' {shown(text)} ({exact!r})"
        )


def _strategies(
    document: dict[str, Any], game: StructuredGame, where: str
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """Both players' saved strategies on the rebuilt game's sequence tables."""
    entries = document.get("strategies")
    if not isinstance(entries, list):
        raise SpotResultError(f"{where}: 'strategies' must be a list of the players' strategies")
    tables = sequence_tables(game)
    found: dict[int, BehaviouralStrategy] = {}
    for number, entry in enumerate(entries, start=1):
        at = f"{where}: strategies/{number - 1}"
        if not isinstance(entry, dict) or entry.get("player") not in (1, 2):
            raise SpotResultError(f"{at}: needs 'player' 1 or 2 and 'infosets'")
        player = int(entry["player"]) - 1
        if player in found:
            raise SpotResultError(f"{at}: a second strategy of player {player + 1}")
        mapping = _mapping(entry.get("infosets"), tables[player], at)
        try:
            found[player] = behaviour_from_mapping(tables[player], mapping)
        except KeyError as exc:
            raise SpotResultError(
                f"{at}: {exc.args[0]} (the strategies are not the spot's in 'definition')"
            ) from None
    missing = [p + 1 for p in (0, 1) if p not in found]
    if missing:
        raise SpotResultError(f"{where}: 'strategies' has no strategy for player {missing[0]}")
    return found[0], found[1]


def _mapping(infosets: Any, table: PlayerSequences, at: str) -> dict[str, dict[str, float]]:
    """``{infoset: {action: probability}}`` of one saved strategy entry, checked: every
    information set and action the spot's, none twice, each set's probabilities summing to 1
    (module docstring)."""
    if not isinstance(infosets, list):
        raise SpotResultError(f"{at}: 'infosets' must be a list")
    known = table.index_of_infoset()
    tolerance = float(SUM_TOLERANCE)
    mapping: dict[str, dict[str, float]] = {}
    for index, infoset in enumerate(infosets):
        place = f"{at}/infosets/{index}"
        if not isinstance(infoset, dict) or not isinstance(infoset.get("actions"), list):
            raise SpotResultError(f"{place}: needs 'name' and 'actions'")
        name = infoset.get("name")
        if not isinstance(name, str) or name not in known:
            raise SpotResultError(
                f"{place}: the spot in 'definition' has no information set {shown(name)} "
                "(the strategies are not that spot's)"
            )
        if name in mapping:
            raise SpotResultError(f"{place}: information set {name!r} is given twice")
        actions = table.actions[known[name]]
        given: dict[str, float] = {}
        for action in infoset["actions"]:
            label = action.get("action") if isinstance(action, dict) else None
            if not isinstance(label, str):
                raise SpotResultError(f"{place} ({name}): each action needs 'action'")
            if label not in actions:
                raise SpotResultError(
                    f"{place} ({name}): unknown action {shown(label)}; its actions are "
                    f"{', '.join(actions)}"
                )
            if label in given:
                raise SpotResultError(f"{place} ({name}): action {label!r} is given twice")
            given[label] = _probability(action.get("probability"), place)
        total = math.fsum(given.values())
        if abs(total - 1.0) > tolerance:
            raise SpotResultError(
                f"{place} ({name}): probabilities sum to {total:.12g}, not 1 (within {tolerance:g})"
            )
        mapping[name] = given
    return mapping


def _probability(value: Any, place: str) -> float:
    """A saved probability: a finite number in [0, 1] (within :data:`PROBABILITY_SLACK`)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    low, high = -PROBABILITY_SLACK, 1 + PROBABILITY_SLACK
    if not number or not math.isfinite(value) or not low <= value <= high:
        message = f"a probability must be a number in [0, 1], not {shown(value)}"
        raise SpotResultError(f"{place}: {message}")
    return min(max(float(value), 0.0), 1.0)
