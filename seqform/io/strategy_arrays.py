"""Strategy arrays: a profile of a big structured game as one binary document (``.npz``).

A JSON strategy file (:mod:`seqform.io.strategy_files`) names every information set and
every action: right for Leduc, impossible for the full Rhode Island hold'em (8,009,431
sequences per player on canonical boards).  This document stores both players' behaviour as
arrays on the game's own sequence tables, which the reader rebuilds from the game's spec, so
the file holds numbers and no names.

Format ``seqform.strategy-arrays``, version 1: a NumPy ``.npz`` archive (read with
``allow_pickle=False``) with the keys

``meta``
    a 0-d unicode array holding a JSON object: ``"format"`` (``"seqform.strategy-arrays"``),
    ``"version"`` (1), ``"game"`` (the spec, as ``seqform games`` and
    :func:`~seqform.game.builtin.registry.load_structured_game` read it), ``"indexed_by"``
    (below), ``"sequences"`` and ``"infosets"`` (per player, the table's sizes, for a reader
    without seqform) and ``"provenance"`` (:class:`Provenance`: the algorithm, its
    iterations, the certificate of the stored arrays and the seqform version that wrote
    them);
``p0``, ``p1``
    per sequence of the player's table, ``b(a | h)`` of the sequence ``(h, a)``; index 0 is
    the empty sequence (1).  ``float32`` or ``float64``;
``u0``, ``u1``
    per information set of the player's table, True where the player's own plan does not
    reach it (its behaviour there changes no payoff; :mod:`seqform.forms.strategies`).

``indexed_by`` names the tables:

* ``"hand_classes"``: for a game invariant under suit permutations, the hand classes of its
  game on canonical boards ``G'``
  (:func:`~seqform.structured.reductions.suit_classes.class_tables`, in
  the order :func:`~seqform.structured.reductions.suit_classes.canonical_boards` numbers them).  A
  profile that is the same on every member of a hand class (vector CFR's average on ``G'``,
  the reduced LP's answer) is stored once per class; the reader gives it back on ``G'``,
  which lifts to the game ``G``
  (:func:`~seqform.structured.reductions.suit_classes.lift_behaviour`);
* ``"sequences"``: the game's own sequence tables
  (:func:`~seqform.game.public.numbering.structured_tables`).

What is published is what is certified: the reader turns each stored array to ``float64``
and rescales each information set to sum to exactly 1 (:func:`stored_behaviour`), and the
writer's certificate (:attr:`Provenance.nash_conv`) is taken on those very numbers, so a
reader who certifies the file (:func:`seqform.questions.stored_certificate.certify_stored`)
gets the same NashConv.

Reading checks everything before it is used (:func:`read_strategy_arrays`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.registry import load_structured_game
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.io.atomic import write_atomically
from seqform.io.json_input import StrategyFileError
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    canonical_boards,
    class_strategy_on_boards,
    class_tables,
)
from seqform.structured.responses import sequence_tables

__all__ = [
    "FORMAT",
    "HAND_CLASSES",
    "SEQUENCES",
    "SUM_TOLERANCE",
    "VERSION",
    "Provenance",
    "StoredProfile",
    "StrategyArrays",
    "is_strategy_arrays",
    "read_strategy_arrays",
    "stored_behaviour",
    "stored_tables",
    "write_strategy_arrays",
]

FORMAT = "seqform.strategy-arrays"
VERSION = 1
SUM_TOLERANCE = 1e-5
"""How far an information set's stored probabilities may sum from 1: ``float32`` keeps
about 7 digits, so a set of a few actions rounds to within about 1e-7 of 1."""
_COMPRESSION = {"lzma": zipfile.ZIP_LZMA, "deflate": zipfile.ZIP_DEFLATED}
HAND_CLASSES = "hand_classes"
SEQUENCES = "sequences"
_KINDS: dict[str, tuple[type, ...]] = {"str": (str,), "int": (int,), "float": (int, float)}


@dataclass(frozen=True)
class Provenance:
    """Where a stored profile comes from, and its certificate on the stored arrays.

    algorithm : what computed it (``"dcfr"``, ``"lp"``, ...)
    iterations : the algorithm's iterations (0 for a direct solve)
    nash_conv : the sum of both players' best-response gains against the stored profile
    value_lower, value_upper : the game value's bounds the best responses prove, to player
        1: ``u1(x, BR2)`` and ``u1(BR1, y)``
    seqform_version : the seqform that wrote the file
    storage : the arrays' dtype (``"float32"`` or ``"float64"``)
    """

    algorithm: str
    iterations: int
    nash_conv: float
    value_lower: float
    value_upper: float
    seqform_version: str
    storage: str = "float32"

    @property
    def exploitability(self) -> float:
        """NashConv / 2."""
        return self.nash_conv / 2


@dataclass(frozen=True)
class StrategyArrays:
    """The arrays of one document, as written.

    game : the game's spec
    indexed_by : ``"hand_classes"`` or ``"sequences"`` (module docstring)
    probabilities, unreached : per player, on the tables ``indexed_by`` names
    provenance : the algorithm and the certificate of these arrays
    """

    game: str
    indexed_by: str
    probabilities: tuple[np.ndarray, np.ndarray]
    unreached: tuple[np.ndarray, np.ndarray]
    provenance: Provenance


@dataclass(frozen=True, eq=False)
class StoredProfile:
    """A document read and checked.

    source : the file, as given
    spec : the game's spec, as the file gives it
    game : that game
    boards : its canonical boards when the file is indexed by hand classes, else None
    strategies : both players' behaviour, on ``G'`` (``boards.canonical``) when ``boards``
        is given, else on ``game``; float64, each information set summing to 1
    provenance : as the file states it
    """

    source: str
    spec: str
    game: StructuredGame
    boards: CanonicalBoards | None
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    provenance: Provenance


def stored_tables(
    game: StructuredGame, boards: CanonicalBoards | None
) -> tuple[PlayerSequences, PlayerSequences]:
    """The tables a document's arrays are indexed by: ``boards``'s hand classes, else the
    game's sequence tables."""
    return class_tables(boards) if boards is not None else sequence_tables(game)


def stored_behaviour(
    table: PlayerSequences, probabilities: np.ndarray, unreached: np.ndarray, where: str
) -> BehaviouralStrategy:
    """The stored arrays of one player as the strategy a reader gets: ``float64``, each
    information set rescaled to sum to exactly 1 (module docstring).

    Raises
    ------
    StrategyFileError
        For sizes that are not ``table``'s, a probability that is NaN or outside
        ``[0, 1]``, or an information set whose probabilities sum to more than
        :data:`SUM_TOLERANCE` away from 1; the message names ``where`` and the first bad
        information set.
    """
    player = table.player + 1
    if probabilities.ndim != 1 or len(probabilities) != table.num_sequences:
        raise StrategyFileError(
            f"{where}: player {player}'s probabilities have shape {probabilities.shape}; the "
            f"game's table has {table.num_sequences:,} sequences"
        )
    if unreached.ndim != 1 or len(unreached) != table.num_infosets:
        raise StrategyFileError(
            f"{where}: player {player}'s unreached flags have shape {unreached.shape}; the "
            f"game's table has {table.num_infosets:,} information sets"
        )
    if probabilities.dtype.kind != "f" or unreached.dtype != np.bool_:
        raise StrategyFileError(
            f"{where}: player {player}'s arrays are {probabilities.dtype} and "
            f"{unreached.dtype}; expected floats and booleans"
        )
    values = probabilities.astype(np.float64)
    values[0] = 1.0
    infoset_of = np.asarray(table.sequence_infoset[1:], dtype=np.int64)
    bad = ~((values[1:] >= 0.0) & (values[1:] <= 1.0))  # NaN fails both
    if bad.any():
        sequence = 1 + int(np.argmax(bad))
        raise StrategyFileError(
            f"{where}: player {player}, information set "
            f"{_infoset_name(table, int(infoset_of[sequence - 1]))}: probability "
            f"{float(values[sequence])!r} is not in [0, 1]"
        )
    sums = np.bincount(infoset_of, weights=values[1:], minlength=table.num_infosets)
    off = np.abs(sums - 1.0) > SUM_TOLERANCE
    if off.any():
        infoset = int(np.argmax(off))
        raise StrategyFileError(
            f"{where}: player {player}, information set {_infoset_name(table, infoset)}: the "
            f"probabilities sum to {float(sums[infoset]):.9g}, not 1 (tolerance "
            f"{SUM_TOLERANCE:g})"
        )
    values[1:] /= sums[infoset_of]
    return BehaviouralStrategy(table, values, unreached.astype(bool))


def _infoset_name(table: PlayerSequences, infoset: int) -> str:
    """``#index`` and the information set's label, for messages."""
    return f"#{infoset} ({table.infosets[infoset]!r})"


def write_strategy_arrays(
    path: str | os.PathLike[str], arrays: StrategyArrays, compression: str = "lzma"
) -> None:
    """Write ``arrays`` as a document at ``path``, atomically (:mod:`seqform.io.atomic`).

    ``compression`` is the zip members': ``"lzma"`` (the default: the full Rhode Island
    hold'em's ``float32`` profile takes 22 MB, against 31 MB deflated; Python's ``zipfile``
    and so ``numpy.load`` read it) or ``"deflate"`` (``numpy.savez_compressed``'s, for
    readers whose zip library has no LZMA).

    Raises
    ------
    ValueError
        For an ``indexed_by`` that is not ``"hand_classes"`` or ``"sequences"``, or another
        ``compression``.
    OSError
        If the file cannot be written (``path`` is then unchanged).
    """
    if arrays.indexed_by not in (HAND_CLASSES, SEQUENCES):
        raise ValueError(f"indexed_by must be {HAND_CLASSES!r} or {SEQUENCES!r}")
    method = _COMPRESSION.get(compression)
    if method is None:
        raise ValueError(f"compression must be one of {', '.join(_COMPRESSION)}")
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "game": arrays.game,
        "indexed_by": arrays.indexed_by,
        "sequences": [len(p) for p in arrays.probabilities],
        "infosets": [len(u) for u in arrays.unreached],
        "provenance": asdict(arrays.provenance),
    }
    contents = {
        "meta": np.array(json.dumps(meta)),
        "p0": arrays.probabilities[0],
        "p1": arrays.probabilities[1],
        "u0": np.asarray(arrays.unreached[0], dtype=bool),
        "u1": np.asarray(arrays.unreached[1], dtype=bool),
    }

    def write(handle: IO[bytes]) -> None:  # numpy.savez's layout: one NAME.npy per array
        with zipfile.ZipFile(handle, "w", compression=method, allowZip64=True) as archive:
            for key, value in contents.items():
                with archive.open(f"{key}.npy", "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, value, allow_pickle=False)

    write_atomically(path, write)


def is_strategy_arrays(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` names an ``.npz`` file (by its suffix or a zip archive's
    signature): the reader to use is :func:`read_strategy_arrays`."""
    if os.fspath(path).lower().endswith(".npz"):
        return True
    try:
        return zipfile.is_zipfile(path)
    except OSError:
        return False


def _meta(archive: Any, where: str) -> dict[str, Any]:
    """The checked ``meta`` object of an open archive."""
    if "meta" not in archive.files:
        raise StrategyFileError(f"{where}: no 'meta' entry: not a {FORMAT} document")
    try:
        meta = json.loads(str(archive["meta"][()]))
    except (ValueError, TypeError) as exc:
        raise StrategyFileError(f"{where}: 'meta' is not a JSON object ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else None
        raise StrategyFileError(f"{where}: format {found!r}, expected {FORMAT!r}")
    if meta.get("version") != VERSION:
        raise StrategyFileError(
            f"{where}: {FORMAT} version {meta.get('version')!r}; this seqform reads version "
            f"{VERSION}"
        )
    missing = [key for key in ("game", "indexed_by", "provenance") if key not in meta]
    missing += [key for key in ("p0", "p1", "u0", "u1") if key not in archive.files]
    if missing:
        raise StrategyFileError(f"{where}: missing {', '.join(missing)}")
    return meta


def _provenance(meta: dict[str, Any], where: str) -> Provenance:
    """The checked provenance: every field there, of its kind, numbers finite."""
    fields = meta["provenance"]
    kinds = {f.name: _KINDS[str(f.type)] for f in dataclasses.fields(Provenance)}
    if not isinstance(fields, dict) or set(fields) != set(kinds):
        raise StrategyFileError(f"{where}: provenance must hold exactly {', '.join(kinds)}")
    for key, kind in kinds.items():
        value = fields[key]
        if isinstance(value, bool) or not isinstance(value, kind):
            raise StrategyFileError(f"{where}: provenance {key} is {value!r}")
        if isinstance(value, float) and not np.isfinite(value):
            raise StrategyFileError(f"{where}: provenance {key} is {value!r}")
    numbers = {key: float(fields[key]) for key in ("nash_conv", "value_lower", "value_upper")}
    return Provenance(**{**fields, **numbers})


def _game(meta: dict[str, Any], where: str) -> tuple[StructuredGame, CanonicalBoards | None]:
    spec = meta["game"]
    if not isinstance(spec, str):
        raise StrategyFileError(f"{where}: game {spec!r} is not a spec")
    try:
        game = load_structured_game(spec)
    except ValueError as exc:  # UnknownGameError, GameParameterError
        raise StrategyFileError(f"{where}: game {spec!r} is not a known game: {exc}") from None
    indexed_by = meta["indexed_by"]
    if indexed_by == SEQUENCES:
        return game, None
    if indexed_by != HAND_CLASSES:
        raise StrategyFileError(
            f"{where}: indexed_by {indexed_by!r}, expected {HAND_CLASSES!r} or {SEQUENCES!r}"
        )
    boards = canonical_boards(game)
    if boards is None:
        raise StrategyFileError(
            f"{where}: indexed by hand classes, but {spec} has no suit symmetry to class by"
        )
    return game, boards


def read_strategy_arrays(path: str | os.PathLike[str]) -> StoredProfile:
    """Read and check a document (module docstring).

    Raises
    ------
    OSError
        If the file cannot be opened.
    StrategyFileError
        (a ``ValueError``) Naming the file and, where there is one, the first bad
        information set: not an ``.npz`` of this format, another version, provenance
        missing or of the wrong kinds, a spec that is not a known structured game, arrays
        whose sizes are not the game's tables', a probability that is NaN or outside
        ``[0, 1]``, an information set whose probabilities do not sum to 1 within
        :data:`SUM_TOLERANCE`.
    """
    where = os.fspath(path)
    if not zipfile.is_zipfile(path):  # numpy would read it as a pickle and say so
        raise StrategyFileError(f"{where}: not a {FORMAT} (.npz) document: not a zip archive")
    try:
        archive = np.load(Path(path), allow_pickle=False)
    except (ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise StrategyFileError(f"{where}: not a {FORMAT} (.npz) document: {exc}") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise StrategyFileError(f"{where}: a single array, not a {FORMAT} (.npz) document")
    with archive:
        meta = _meta(archive, where)
        provenance = _provenance(meta, where)
        game, boards = _game(meta, where)
        tables = stored_tables(game, boards)
        try:
            stored = [
                stored_behaviour(table, archive[f"p{i}"], archive[f"u{i}"], where)
                for i, table in enumerate(tables)
            ]
        except (ValueError, zipfile.BadZipFile) as exc:
            if isinstance(exc, StrategyFileError):
                raise
            raise StrategyFileError(f"{where}: an array cannot be read: {exc}") from None
    if boards is not None:
        stored = [class_strategy_on_boards(boards, i, s) for i, s in enumerate(stored)]
    return StoredProfile(where, meta["game"], game, boards, (stored[0], stored[1]), provenance)
