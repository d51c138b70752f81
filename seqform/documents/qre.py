"""The ``seqform.qre/2`` document: logit quantal response equilibria
(:mod:`seqform.qre.equilibria`, :mod:`seqform.qre.fit`): the principal branch traced
to its limit (:class:`~seqform.qre.equilibria.LogitBranch`), the points at chosen ``λ``
(:class:`~seqform.qre.equilibria.LogitPoints`) or the fit to observed play
(:class:`~seqform.qre.fit.LogitFit`).

Schema ``seqform.qre/2`` (``seqform/io/schemas/qre.schema.json``)::

    {"schema": "seqform.qre/2",
     "game": {"name", "description", "players": int, "labels": str | null},
     "mode": "trace" | "points" | "fit",
     "points": [{"lambda": float, "nash_conv": float, "values": [float],
                 "strategies": [STRATEGY]}],          # the QREs asked for, or the limit/fit
     "trace": null | {"reason": str, "converged": bool, "tolerance": float,
                      "payoff_range": float, "steps": int, "final_lambda": float,
                      "agent_regret": float, "nash_conv": float,
                      "interrupted_by": "SIGINT" | "SIGTERM" | "SIGHUP" | null},
     "comparison": null | {"players": [{"player": int, "parameter": str | null,
                           "t": float | null, "low": float | null, "high": float | null,
                           "segment_distance": float | null,
                           "refined_difference": float,
                           "dimension": int | null}],
                    "ranges_skipped": str | null},
     "fit": null | {"lambda": float, "log_likelihood": float, "observations": int,
                    "at_end": bool},
     "interrupted": null | {"during": "trace" | "comparison" | "points" | "fit",
                            "signal": "SIGINT" | "SIGTERM" | "SIGHUP" | null},
     "seconds": float}

``interrupted`` (optional: documents written before it have none) says what a Ctrl-C, or
a signal handled as it, cut short (:class:`~seqform.qre.equilibria.Interruption`); the
document holds what was finished before it.

where STRATEGY is a player's behaviour as in ``seqform.solve/2`` (``player``, ``name``,
``infosets`` with their ``actions`` and ``probability``).
"""

from __future__ import annotations

from typing import Any

from seqform.documents.objects import game_json, strategy_json
from seqform.documents.registry import builds
from seqform.game.builtin.labels import grammar_name
from seqform.game.model import Game
from seqform.io.documents import QRE
from seqform.qre.equilibria import Interruption, LogitBranch, LogitPoints, QREPoint
from seqform.qre.fit import LogitFit
from seqform.qre.limit import LimitComparison

__all__ = ["qre_document", "qre_result_document"]


def _point_json(game: Game, point: QREPoint) -> dict[str, Any]:
    words = game.describe_action
    return {
        "lambda": point.lam,
        "nash_conv": point.nash_conv,
        "values": list(point.certificate.values),
        "strategies": [
            strategy_json(strategy, game.player_names[strategy.player], words)
            for strategy in point.strategies
        ],
    }


def _comparison_json(comparison: LimitComparison | None) -> dict[str, Any] | None:
    if comparison is None:
        return None
    players = []
    for player, (parameter, distance, difference, dimension) in enumerate(
        zip(
            comparison.parameters,
            comparison.segment_distance,
            comparison.refined_difference,
            comparison.dimensions,
            strict=True,
        )
    ):
        name, t, low, high = parameter if parameter is not None else (None, None, None, None)
        players.append(
            {
                "player": player + 1,
                "parameter": name,
                "t": t,
                "low": low,
                "high": high,
                "segment_distance": distance,
                "refined_difference": difference,
                "dimension": dimension,
            }
        )
    return {"players": players, "ranges_skipped": comparison.ranges_skipped}


def qre_document(
    game: Game,
    points: tuple[QREPoint, ...],
    seconds: float,
    *,
    branch: LogitBranch | None = None,
    comparison: LimitComparison | None = None,
    fit: LogitFit | None = None,
    interrupted: Interruption | None = None,
) -> dict[str, Any]:
    """The ``seqform.qre/2`` document (module docstring) of ``points`` and what the run found
    beside them: the traced ``branch``, the ``comparison`` of its limit with all
    equilibria, the ``fit``, what an interrupt cut short; ``seconds`` is the run's time.
    The mode is ``"fit"`` with a fit, else ``"trace"`` with a branch, else ``"points"``."""
    mode = "fit" if fit is not None else "trace" if branch is not None else "points"
    return {
        "schema": QRE,
        "game": game_json(
            game.name,
            game.description,
            players=game.flat.num_players,
            labels=grammar_name(game),
        ),
        "mode": mode,
        "points": [_point_json(game, point) for point in points],
        "trace": None
        if branch is None
        else {
            "reason": branch.reason,
            "converged": branch.converged,
            "tolerance": branch.tolerance,
            "payoff_range": branch.payoff_range,
            "steps": len(branch.lambdas) - 1,
            "final_lambda": float(branch.lambdas[-1]),
            "agent_regret": branch.agent_regret,
            "nash_conv": branch.limit.nash_conv,
            "interrupted_by": branch.interrupted_by,
        },
        "comparison": _comparison_json(comparison),
        "fit": None
        if fit is None
        else {
            "lambda": fit.lam,
            "log_likelihood": fit.log_likelihood,
            "observations": fit.observations,
            "at_end": fit.at_end,
        },
        "interrupted": None
        if interrupted is None
        else {"during": interrupted.during, "signal": interrupted.signal},
        "seconds": seconds,
    }


@builds(LogitBranch, LogitPoints, LogitFit)
def qre_result_document(result: LogitBranch | LogitPoints | LogitFit) -> dict[str, Any]:
    """The ``seqform.qre/2`` document of one result of the QRE analyses, as ``qre`` writes it.

    A :class:`~seqform.qre.equilibria.LogitBranch` gives the ``"trace"`` document of its limit
    (with its :attr:`~seqform.qre.equilibria.LogitBranch.comparison`, if it has one); a
    :class:`~seqform.qre.equilibria.LogitPoints` the ``"points"`` document and a
    :class:`~seqform.qre.fit.LogitFit` the ``"fit"`` document, each with the branch traced
    beside it, if it has one (as ``qre --plot`` traces one).  ``seconds`` is the result's
    own time.
    """
    fit = None
    branch: LogitBranch | None
    points: tuple[QREPoint, ...]
    if isinstance(result, LogitBranch):
        branch, points = result, (result.limit,)
    elif isinstance(result, LogitFit):
        fit, branch, points = result, result.branch, (result.point,)
    else:
        branch, points = result.branch, result.points
    return qre_document(
        result.game,
        points,
        result.seconds,
        branch=branch,
        comparison=branch.comparison if branch is result else None,
        fit=fit,
        interrupted=result.interrupted,
    )
