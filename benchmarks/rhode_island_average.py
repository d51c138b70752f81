"""The Rhode Island CFR benchmark's average as a strategy-arrays document: saved, read back
(or read from the earlier float64 file), converted and certified on ``G'``.

Used by :mod:`benchmarks.rhode_island_cfr` (``--save-average``, ``--certify-from``); the
format is :mod:`seqform.io.strategy_arrays`'s, the certificate
:mod:`seqform.questions.stored_certificate`'s.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class LoadedAverage:
    """A kept average on ``G'``: the boards, both strategies and, for a strategy-arrays
    document, what was read (None for a file of the earlier format)."""

    boards: Any
    strategies: list[Any]
    stored: Any | None


def save_average(
    args: argparse.Namespace, boards: Any, strategies: Sequence[Any], iterations: int
) -> str:
    """The average as a strategy-arrays document (per hand class of ``G'``, ``--storage``'s
    dtype, with the certificate of the stored arrays), written atomically to
    ``--save-average``; the certificate's line."""
    from seqform.questions.stored_certificate import save_strategy_arrays

    began = time.perf_counter()
    args.save_average.parent.mkdir(parents=True, exist_ok=True)
    saved = save_strategy_arrays(
        args.save_average, args.game, boards.game, boards, (strategies[0], strategies[1]),
        algorithm=args.algorithm, iterations=iterations, storage=args.storage,
    )  # fmt: skip
    line = (
        f"{args.save_average.name} ({args.save_average.stat().st_size / 1e6:.1f} MB): "
        f"{args.storage} per hand class, its arrays certified on G': NashConv "
        f"{saved.provenance.nash_conv:.6g}, value in [{saved.value_lower:+.6f}, "
        f"{saved.value_upper:+.6f}] ({time.perf_counter() - began:.0f} s)"
    )
    print(f"saved {line}", flush=True)
    return line


def legacy_average(boards: Any, path: Path) -> list[Any]:
    """An average kept before the strategy-arrays document (keys ``p0``, ``p1`` per sequence
    of ``G'``, float64, ``u0``, ``u1`` optional), as ``G'``'s strategies; an information set
    its own plan does not reach is flagged as :func:`~seqform.iterative.passes.
    average_strategy` flags it where the file has no flags."""
    import numpy as np

    from seqform.forms.strategies import REACH_TOLERANCE, BehaviouralStrategy, plan_from_behaviour
    from seqform.structured.responses import sequence_tables

    saved = np.load(path)
    strategies = []
    for player, table in enumerate(sequence_tables(boards.canonical)):
        probabilities = np.asarray(saved[f"p{player}"], dtype=float)
        if f"u{player}" in saved:
            unreached = np.asarray(saved[f"u{player}"], dtype=bool)
        else:
            blank = np.zeros(table.num_infosets, dtype=bool)
            plan = plan_from_behaviour(BehaviouralStrategy(table, probabilities, blank))
            unreached = plan[table.parent_sequence] <= REACH_TOLERANCE
        strategies.append(BehaviouralStrategy(table, probabilities, unreached))
    return strategies


def run_record(args: argparse.Namespace) -> dict[str, Any] | None:
    """The results file in ``--out`` when it is this game's run, else None."""
    results = args.out / "rhode_island_cfr.json"
    if not results.exists():
        return None
    data: dict[str, Any] = json.loads(results.read_text())
    return data if data.get("game") == args.game else None


def load_saved(args: argparse.Namespace, path: Path) -> LoadedAverage | None:
    """The average kept in ``path``, a document or an earlier file; None (said why) when it
    is another game's or the game has no suit symmetry."""
    import numpy as np

    from seqform.game.builtin.registry import load_structured_game
    from seqform.io.strategy_arrays import FORMAT, read_strategy_arrays
    from seqform.structured.reductions.suit_classes import canonical_boards

    with np.load(path) as archive:
        legacy = "meta" not in archive.files
    if legacy:
        boards = canonical_boards(load_structured_game(args.game))
        if boards is None:
            print(f"{args.game}: no suit symmetry; this benchmark runs on canonical boards")
            return None
        return LoadedAverage(boards, legacy_average(boards, path), None)
    stored = read_strategy_arrays(path)
    if stored.spec != args.game or stored.boards is None:
        print(f"{path}: a {FORMAT} of {stored.spec}, not of {args.game}")
        return None
    return LoadedAverage(stored.boards, list(stored.strategies), stored)


def resave(args: argparse.Namespace, loaded: LoadedAverage, record: dict[str, Any] | None) -> str:
    """``loaded`` written to ``--save-average`` with its algorithm and iterations (the
    document's, else the run's in ``record``); the certificate's line."""
    if loaded.stored is not None:
        args.algorithm = loaded.stored.provenance.algorithm
        iterations = loaded.stored.provenance.iterations
    else:
        assert record is not None
        args.algorithm, iterations = record["algorithm"], record["curve"][-1]["iterations"]
    return save_average(args, loaded.boards, loaded.strategies, iterations)


def certify_loaded(loaded: LoadedAverage) -> Any:
    """The certificate on ``G'`` of ``loaded``; a document's is compared with the one it
    states, and the comparison printed."""
    from seqform.questions.stored_certificate import certify_stored
    from seqform.structured.reductions.suit_classes import certify_on_classes

    if loaded.stored is None:
        return certify_on_classes(loaded.boards, *loaded.strategies)
    checked = certify_stored(loaded.stored)
    print(
        f"{loaded.stored.source}: its certificate "
        f"{'agrees' if checked.agrees else 'DISAGREES'} with the one it states "
        f"({checked.provenance.nash_conv:.6g})",
        flush=True,
    )
    return checked.certificate
