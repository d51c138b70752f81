"""A stored profile's certificate: a strategy-arrays document checked against its game.

A profile published as a strategy-arrays document (:mod:`seqform.io.strategy_arrays`) says
what it is worth (its provenance's NashConv and value bounds); a reader should not have to
take that on trust.  :func:`certify_stored` reads the document, rebuilds the game from its
spec and certifies the stored profile by best responses: each player's gain, NashConv, the
exploitability (NashConv / 2) and the value's bounds ``[u1(x, BR2), u1(BR1, y)]``.

A document indexed by hand classes is certified on the game on canonical boards ``G'`` by
best responses over hand-class plans
(:func:`~seqform.structured.reductions.suit_classes.certify_on_classes`), which give the lifted
profile's values on the game ``G`` at ``G'``'s size; ``on_game=True`` lifts it and
certifies it on ``G`` too (14.6 GB for the full Rhode Island hold'em).

:func:`save_strategy_arrays` is the writer's side: it certifies the arrays exactly as a
reader will get them, then writes the document with that certificate.
"""

from __future__ import annotations

import inspect
import os
from dataclasses import dataclass

import numpy as np

from seqform.certify import Certificate
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.registry import (
    STRUCTURED_GAMES,
    load_structured_game,
    parse_game_spec,
)
from seqform.game.public.tree import StructuredGame
from seqform.io.json_input import StrategyFileError
from seqform.io.strategy_arrays import (
    HAND_CLASSES,
    SEQUENCES,
    Provenance,
    StoredProfile,
    StrategyArrays,
    read_strategy_arrays,
    stored_behaviour,
    stored_tables,
    write_strategy_arrays,
)
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    certify_on_classes,
    class_strategy_on_boards,
    lift_behaviour,
)
from seqform.structured.responses import certify, sequence_tables
from seqform.version import __version__

__all__ = [
    "StoredCertificate",
    "certify_profile",
    "certify_stored",
    "profile_arrays",
    "save_strategy_arrays",
]

CLASS_TOLERANCE = 1e-9
"""How far a profile may differ between members of one hand class to be stored per class."""
AGREEMENT = 1e-9
"""How close a recomputed NashConv must be to the stated one to agree (both are float64
sums over the same arrays in the same order; the margin covers another machine's BLAS)."""


@dataclass(frozen=True)
class StoredCertificate:
    """The certificate of a stored profile, beside what its document states.

    source : the document
    game : the game's spec
    certified_on : ``"G' (hand classes)"``, ``"G' (hand classes) and G"`` or ``"G"``
    certificate : the best responses' values, the gains and NashConv (of the lift on ``G``
        when ``certified_on`` names ``G``)
    provenance : what the document states (its algorithm, iterations and certificate)
    """

    source: str
    game: str
    certified_on: str
    certificate: Certificate
    provenance: Provenance

    @property
    def value_lower(self) -> float:
        """``u1(x, BR2)``: player 1's stored strategy against player 2's best response."""
        return -float(self.certificate.best_response_values[1])

    @property
    def value_upper(self) -> float:
        """``u1(BR1, y)``: player 1's best response against player 2's stored strategy."""
        return float(self.certificate.best_response_values[0])

    @property
    def agrees(self) -> bool:
        """True when the recomputed NashConv is the stated one (within :data:`AGREEMENT`
        relative to the payoff range)."""
        scale = max(1.0, float(self.certificate.payoff_range))
        return abs(float(self.certificate.nash_conv) - self.provenance.nash_conv) <= (
            AGREEMENT * scale
        )


def certify_profile(
    game: StructuredGame,
    boards: CanonicalBoards | None,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
    on_game: bool = False,
) -> tuple[Certificate, str]:
    """The certificate of a profile on ``G'`` (``boards`` given; lifted and certified on
    ``game`` too when ``on_game``) or on ``game``, and where it was taken."""
    if boards is None:
        return certify(game, strategies[0], strategies[1]), "G"
    on_classes = certify_on_classes(boards, strategies[0], strategies[1])
    if not on_game:
        return on_classes, "G' (hand classes)"
    lifted = [lift_behaviour(boards, strategy) for strategy in strategies]
    return certify(game, lifted[0], lifted[1]), "G' (hand classes) and G"


def _parameters(spec: str) -> tuple[str, dict[str, object]]:
    """A structured game's name and all its parameters, the defaults filled in."""
    name, given = parse_game_spec(spec)
    constructor = STRUCTURED_GAMES[name]
    values: dict[str, object] = {
        parameter.name: parameter.default
        for parameter in inspect.signature(constructor).parameters.values()
        if parameter.default is not inspect.Parameter.empty
    }
    values.update(given)
    return name, values


def certify_stored(
    source: str | os.PathLike[str] | StoredProfile,
    on_game: bool = False,
    game: str | None = None,
) -> StoredCertificate:
    """Read a strategy-arrays document (or take one read) and certify its profile on its
    game (module docstring); ``game``, when given, must be the game the file is of
    (``rhode_island`` and ``rhode_island(ranks=13)`` are one game).

    Raises
    ------
    OSError
        If the file cannot be read.
    UnknownGameError, GameParameterError
        If ``game`` is not a structured game's spec.
    StrategyFileError
        (a ``ValueError``) If it is not a valid document (:mod:`seqform.io.strategy_arrays`),
        or is another game's than ``game``.
    """
    if game is not None:
        load_structured_game(game)  # an unknown game or parameter is refused as such
    stored = source if isinstance(source, StoredProfile) else read_strategy_arrays(source)
    if game is not None and _parameters(game) != _parameters(stored.spec):
        raise StrategyFileError(
            f"{stored.source}: a profile of {stored.spec}, not of {game}; give the game the "
            "file names"
        )
    certificate, where = certify_profile(stored.game, stored.boards, stored.strategies, on_game)
    return StoredCertificate(stored.source, stored.spec, where, certificate, stored.provenance)


def _first_members(classes: np.ndarray, count: int) -> np.ndarray:
    """Per class ``0 .. count - 1``, the index of its first member."""
    _, first = np.unique(classes, return_index=True)
    if len(first) != count:
        raise ValueError(f"{count} classes expected, {len(first)} found")
    return first


def profile_arrays(
    game: StructuredGame,
    boards: CanonicalBoards | None,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
    dtype: type = np.float32,
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Per player, the probabilities (in ``dtype``) and unreached flags to store of a
    profile on ``G'`` (``boards`` given: one entry per hand class) or on ``game``.

    Raises
    ------
    ValueError
        If a strategy is not on the expected table, or (per class) differs between two
        members of a hand class by more than :data:`CLASS_TOLERANCE`.
    """
    probabilities: list[np.ndarray] = []
    unreached: list[np.ndarray] = []
    for player, strategy in enumerate(strategies):
        behaviour = strategy.to_float()
        if boards is None:
            expected = sequence_tables(game)[player]
            if behaviour.table.num_sequences != expected.num_sequences:
                raise ValueError(f"player {player + 1}'s strategy is not on the game's table")
            probabilities.append(np.asarray(behaviour.probabilities, dtype=dtype))
            unreached.append(np.asarray(behaviour.unreached, dtype=bool))
            continue
        classes = boards.classes[player]
        if len(behaviour.probabilities) != len(classes.sequences):
            raise ValueError(f"player {player + 1}'s strategy is not on the canonical boards")
        members = _first_members(classes.sequences, classes.num_sequences)
        per_class = np.asarray(behaviour.probabilities, dtype=float)[members]
        spread = np.abs(behaviour.probabilities - per_class[classes.sequences])
        if len(spread) and float(spread.max()) > CLASS_TOLERANCE:
            raise ValueError(
                f"player {player + 1}'s strategy differs between members of a hand class by "
                f"{float(spread.max()):.3g}; store it indexed by sequences of G'"
            )
        infoset_members = _first_members(classes.infosets, classes.num_infosets)
        probabilities.append(per_class.astype(dtype))
        unreached.append(np.asarray(behaviour.unreached, dtype=bool)[infoset_members])
    return (probabilities[0], probabilities[1]), (unreached[0], unreached[1])


def save_strategy_arrays(
    path: str | os.PathLike[str],
    spec: str,
    game: StructuredGame,
    boards: CanonicalBoards | None,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
    *,
    algorithm: str,
    iterations: int,
    storage: str = "float32",
    compression: str = "lzma",
) -> StoredCertificate:
    """Write ``strategies`` (on ``G'`` when ``boards`` is given, per hand class; else on
    ``game``) as a strategy-arrays document at ``path``, with the certificate of the
    arrays as stored (rounded to ``storage`` and read back as a reader will);
    ``compression`` as :func:`~seqform.io.strategy_arrays.write_strategy_arrays` takes it.

    Raises
    ------
    ValueError
        If the profile is not on the tables named, is not the same on every member of a
        hand class, or ``storage`` is neither ``"float32"`` nor ``"float64"``.
    OSError
        If the file cannot be written.
    """
    if storage not in ("float32", "float64"):
        raise ValueError(f"storage must be 'float32' or 'float64', not {storage!r}")
    probabilities, unreached = profile_arrays(game, boards, strategies, np.dtype(storage).type)
    tables = stored_tables(game, boards)
    read_back = [
        stored_behaviour(table, p, u, "the arrays to store")
        for table, p, u in zip(tables, probabilities, unreached, strict=True)
    ]
    if boards is not None:
        read_back = [class_strategy_on_boards(boards, i, s) for i, s in enumerate(read_back)]
    certificate, where = certify_profile(game, boards, (read_back[0], read_back[1]))
    provenance = Provenance(
        algorithm=algorithm,
        iterations=int(iterations),
        nash_conv=float(certificate.nash_conv),
        value_lower=-float(certificate.best_response_values[1]),
        value_upper=float(certificate.best_response_values[0]),
        seqform_version=__version__,
        storage=storage,
    )
    indexed_by = HAND_CLASSES if boards is not None else SEQUENCES
    write_strategy_arrays(
        path,
        StrategyArrays(spec, indexed_by, probabilities, unreached, provenance),
        compression,
    )
    return StoredCertificate(os.fspath(path), spec, where, certificate, provenance)
