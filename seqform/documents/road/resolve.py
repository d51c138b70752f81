"""The ``seqform.resolve/1`` document: a blueprint's subgames re-solved by a gadget
(:class:`~seqform.resolving.resolve.ResolveResult`).

Schema ``seqform.resolve/1`` (``seqform/io/schemas/resolve.schema.json``)::

    {
      "schema": "seqform.resolve/1",
      "game": {"name": str, "description": str},
      "unit": "mbb/g" | "mpot/g" | "mchip/g", "unit_chips": float,
      "gadget": "unsafe" | "resolve" | "maxmargin" | "reach", "round": int, "refined": bool,
      "path": "tree" | "structured", "exact": bool,
      "suit_isomorphism": null | {"permutations": int, "subgames": int},
      "notes": [str, ...],
      "blueprint": {"exploitability": float, "milli_exploitability": float,
                    "certificate": {...}},
      "resolved": {"exploitability": float, "milli_exploitability": float,
                   "certificate": {...}},
      "min_margin": float | null, "max_gadget_nash_conv": float,
      "subgames": [str, ...], "skipped": [str, ...],
      "gadgets": [{"subgame": str, "player": int | null, "nodes": int, "value": float,
                   "nash_conv": float, "verified": bool, "min_margin": float | null,
                   "margins": [float, ...], "targets": [float, ...], "gifts": [float, ...]}],
      "strategies": [{...}, {...}],       # the combined profile, as solve's
      "seconds": float
    }

``strategies`` has the shape of ``seqform.solve/2``'s, so ``exploit --strategy`` and
``play --auto`` read the file; they are the game's, lifted from its canonical boards when the
re-solve ran there (``"suit_isomorphism"``: the suit permutations and the subgames of ``G'``,
one per orbit of boards, which ``"subgames"`` and ``"gadgets"`` list; null on the game
itself).  ``"notes"`` say why the game itself was re-solved where its canonical boards were
asked for.  Exploitability is in chips per game, ``milli_exploitability``
in thousandths of ``unit`` per game (:func:`seqform.holdem.units.report_unit`: mbb/g with
Leduc's ante, 1 chip, or Rhode Island's first bet, 10 chips, as the big blind; mpot/g, a
spot's starting pot).  With ``"exact"`` the
gadget LPs were solved exactly and both certificates are in fractions (their numbers are
written as the certificate writes exact numbers; ``exploitability`` is the float of the
exact one); a gadget's ``nash_conv`` is then its answer's proven gap to the gadget LP's
optimum.
"""

from __future__ import annotations

from typing import Any

from seqform.base.numbers import json_float
from seqform.certify import Certificate
from seqform.documents.objects import action_words, certificate_json, game_json, strategy_json
from seqform.documents.registry import builds
from seqform.holdem import ReportUnit, report_unit
from seqform.io.documents import RESOLVE
from seqform.resolving.resolve import GadgetRun, ResolveResult

__all__ = ["gadget_json", "resolve_document"]


def _measured(certificate: Certificate, unit: ReportUnit) -> dict[str, Any]:
    exploitability = float(certificate.exploitability)
    return {
        "exploitability": json_float(exploitability),
        "milli_exploitability": json_float(unit.milli(exploitability)),
        "certificate": certificate_json(certificate),
    }


def gadget_json(run: GadgetRun) -> dict[str, Any]:
    """One entry of ``"gadgets"``: a gadget LP, its certificate and margins (shared with the
    ``seqform.off-tree/1`` document)."""
    low = run.min_margin
    return {
        "subgame": run.subgame,
        "player": None if run.player is None else run.player + 1,
        "nodes": run.nodes,
        "value": json_float(run.value),
        "nash_conv": json_float(run.nash_conv),
        "verified": run.verified,
        "min_margin": None if low is None else json_float(low),
        "margins": [json_float(m) for m in run.margins],
        "targets": [json_float(t) for t in run.targets],
        "gifts": [json_float(g) for g in run.gifts],
    }


@builds(ResolveResult)
def resolve_document(result: ResolveResult) -> dict[str, Any]:
    """The ``seqform.resolve/1`` document of ``result`` (module docstring)."""
    words = action_words(result.game)
    low = result.min_margin
    unit = report_unit(result.game)
    return {
        "schema": RESOLVE,
        "game": game_json(result.game.name, result.game.description),
        "unit": unit.name,
        "unit_chips": json_float(float(unit.chips)),
        "gadget": result.gadget,
        "round": result.round_number,
        "refined": result.refined,
        "path": result.path,
        "exact": result.exact,
        "suit_isomorphism": None
        if result.boards is None
        else {"permutations": result.boards.group_order, "subgames": len(result.subgames)},
        "notes": list(result.notes),
        "blueprint": _measured(result.blueprint_certificate, unit),
        "resolved": _measured(result.certificate, unit),
        "min_margin": None if low is None else json_float(low),
        "max_gadget_nash_conv": json_float(result.max_gadget_nash_conv),
        "subgames": list(result.subgames),
        "skipped": list(result.skipped),
        "gadgets": [gadget_json(run) for run in result.runs],
        "strategies": [
            strategy_json(strategy, result.game.player_names[strategy.player], words)
            for strategy in result.game_strategies()
        ],
        "seconds": json_float(result.seconds),
    }
