"""The ``seqform.iterate/2`` document: an iterative run
(:class:`~seqform.questions.iterate.IterativeRun`).

Schema ``seqform.iterate/2`` (``seqform/io/schemas/iterate.schema.json``; new keys may be
added, none removed or renamed)::

    {
      "schema": "seqform.iterate/2",
      "game": {"name": str, "description": str, "players": int, "labels": str | null},
      "method": "tree" | "structured",     # the game tree, or the public tree × hands
      "algorithm": "cfr" | "cfr+" | "dcfr" | "lcfr" | "pcfr+" | "dcfr+" | "pdcfr+"
                   | "hs-dcfr30" | "hs-dcfr15" | "hs-pcfr+30" | "hs-pcfr+15" | "xfp"
                   | "rcfr" | "mccfr",
      "seed": int | null,                  # mccfr's seed, else null
      "stopping": {"iterations": int | null, "target_exploitability": float | null,
                   "time_limit": float | null, "every": int},
      "stopped": "iterations" | "target" | "time limit" | "interrupted"
                 | "measurement failed",
      "interrupted_by": "SIGINT" | "SIGTERM" | "SIGHUP" | null,  # the signal, if interrupted
      "iterations": int,                   # iterations run
      "seconds": float,                    # solver time, NashConv measurements excluded
      "nash_conv": float | null,           # of the average strategies (null: not measured)
      "last_iterate_nash_conv": float | null,  # current strategies (pcfr+, pdcfr+, hs-pcfr+*)
      "measures_last_iterate": bool,       # whether the algorithm measures its last iterate
      "players": [{"player": int, "name": str, "value": float,
                   "best_response_value": float, "gain": float}, ...],  # one per player;
                                           # [] when certificate_failed
      "certificate": CERTIFICATE | null,   # two-player zero-sum games only
      "certificate_failed": str | null,    # why players / certificate could not be measured
      "measurement_failed": str | null,    # why a NashConv sample is null (its sums overflow)
      "reference": {                       # the sequence-form LP beside the run
        "status": "computed" | "skipped" | "failed" | "interrupted",
        "skipped": str | null,             # why there is none (then the rest is null / [])
        "value": float | null, "value_fraction": str | null,   # exact value to player 1
        "value_distance": float | null,    # |value estimate of player 1 - value|
        "uniqueness_skipped": str | null,  # why uniqueness was not decided
        "seconds": float,
        "players": [{"player": 1 | 2, "dimension": int | null, "unique": bool | null,
                     "distance": float | null, "infosets": int}, ×2]
      },
      "history": [{"iteration": int, "seconds": float, "nash_conv": float,
                   "last_nash_conv": float | null}, ...],
      "strategies": [STRATEGY, ...],       # the average strategies, one per player
      "spot": {...},                       # a hold'em spot file on the structured route
      "locks": {"locks": [str, ...],       # a run with node locks (--lock): the locks kept,
                "locked_players": [int, ...], "locked_infosets": int,
                "certificate": str},       # and what the certificate then measures
      "suit_isomorphism": {...} | null     # vector CFR run on canonical boards and hand
                                           # classes: seqform.structured/2's object, "lp" null
    }

With ``"locks"``, ``"players"``, ``"certificate"`` and ``"history"`` measure the locked game
(the best responses keep the locked behaviour) and ``"reference"`` is the locked LP.

The ``"spot"`` object is ``seqform.structured/2``'s
(:func:`seqform.documents.spots.spot.spot_json`), from the average strategies: EVs in chips
and shares of the pot, the exploitability (NashConv / 2) in chips and share of the pot, the
frequencies, the opening grid and the spot's definition.

``CERTIFICATE`` and ``STRATEGY`` are the ``"certificate"`` object and the entries of
``"strategies"`` of ``seqform.solve/2`` (:mod:`seqform.documents.objects`).  ``distance``
is the largest difference of behavioural probabilities at the information sets the
equilibrium plan reaches, given when the player's equilibrium strategy is unique
(``dimension`` 0); see :mod:`seqform.questions.iterate`.

The text report (:mod:`seqform.documents.text.iterate`) is rendered from this document.

Players are numbered from 1 in every output (index 0 in the library).
"""

from __future__ import annotations

import math
from typing import Any

from seqform.base.numbers import fraction_text
from seqform.documents.locked import CERTIFICATE_NOTE
from seqform.documents.objects import action_words, certificate_json, game_json, strategy_json
from seqform.documents.registry import builds
from seqform.documents.spots.spot import spot_json
from seqform.documents.structured import suit_isomorphism_json
from seqform.forms.locks import ResolvedLocks
from seqform.game.builtin.labels import grammar_name
from seqform.game.public.tree import StructuredGame
from seqform.io.documents import ITERATE
from seqform.questions.iterate import IterativeRun, LpReference

__all__ = ["iterate_document"]


def _reference_json(reference: LpReference) -> dict[str, Any]:
    value = reference.value
    return {
        "status": reference.status,
        "skipped": reference.skipped,
        "value": value,
        "value_fraction": None if value is None else fraction_text(value),
        "value_distance": reference.value_distance,
        "uniqueness_skipped": reference.uniqueness_skipped,
        "seconds": reference.seconds,
        "players": [
            {
                "player": player.player + 1,
                "dimension": player.dimension,
                "unique": player.unique,
                "distance": player.distance,
                "infosets": player.infosets,
            }
            for player in reference.players
        ],
    }


def _measured(number: float | None) -> float | None:
    """A NashConv for JSON: ``null`` where it could not be measured (``nan``)."""
    return None if number is None or math.isnan(number) else number


@builds(IterativeRun)
def iterate_document(run: IterativeRun) -> dict[str, Any]:
    """The ``seqform.iterate/2`` document of ``run``."""
    game, result, stopping, profile = run.game, run.result, run.stopping, run.profile
    names = game.player_names
    document = {
        "schema": ITERATE,
        "game": game_json(
            game.name, game.description, players=game.num_players, labels=grammar_name(game)
        ),
        "method": "structured" if isinstance(game, StructuredGame) else "tree",
        "algorithm": result.algorithm,
        "seed": result.seed,
        "stopping": {
            "iterations": stopping.iterations,
            "target_exploitability": stopping.target,
            "time_limit": stopping.time_limit,
            "every": stopping.every,
        },
        "stopped": result.stopped,
        "interrupted_by": result.interrupted_by,
        "iterations": result.iterations,
        "seconds": result.seconds,
        "nash_conv": _measured(result.nash_conv),
        "last_iterate_nash_conv": _measured(result.last_nash_conv),
        "measures_last_iterate": result.last_nash_conv is not None,
        "players": [
            {
                "player": index + 1,
                "name": names[index],
                "value": profile.values[index],
                "best_response_value": profile.best_response_values[index],
                "gain": profile.gains[index],
            }
            for index in range(game.num_players)
            if profile is not None
        ],
        "certificate": None if run.certificate is None else certificate_json(run.certificate),
        "certificate_failed": run.certificate_failed,
        "measurement_failed": result.failure,
        "reference": _reference_json(run.reference),
        "history": [
            {
                "iteration": s.iteration,
                "seconds": s.seconds,
                "nash_conv": _measured(s.nash_conv),
                "last_nash_conv": _measured(s.last_nash_conv),
            }
            for s in result.history
        ],
        "strategies": [
            strategy_json(strategy, names[strategy.player], action_words(game))
            for strategy in result.strategies
        ],
    }
    if run.spot is not None:
        document["spot"] = spot_json(run.spot)
    if run.locks is not None:
        document["locks"] = _locks_json(run.locks)
    document["suit_isomorphism"] = suit_isomorphism_json(run.suit_reduction)
    return document


def _locks_json(locks: ResolvedLocks) -> dict[str, Any]:
    return {
        "locks": [lock.text() for lock in locks.locks],
        "locked_players": [player + 1 for player in locks.players()],
        "locked_infosets": locks.count,
        "certificate": CERTIFICATE_NOTE,
    }
