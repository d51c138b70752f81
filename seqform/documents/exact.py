"""``solve --exact`` in documents: the ``"exact"`` key, added to ``seqform.solve/2``
(:mod:`seqform.documents.solve`, strategies as floats) on the tree and to
``seqform.structured/2`` (:mod:`seqform.documents.structured`) on the structured route.

Exact numbers are strings (``"-1/18"``)::

    "exact": {"certified": bool, "value": str | null,
              "float_value": float,         # the float LP's optimum
              "bounds": {"lower": str, "upper": str},
              "found_by": "rounding" | "basis" | "mixed" | "none",
              "basis_verified": bool | null,
              "certificate": {"expected_value": str, "best_response_values": [str, str],
                              "gains": [str, str], "exploitability": str},
              "strategies": [EXACT_STRATEGY, ×2], "notes": [str],
              "seconds": {"sequence_form", "lp", "rounding", "basis", "certificate", "total"}}

with ``EXACT_STRATEGY = {"player": 1 | 2, "name": str, "infosets": [{"name": str,
"unreached": bool, "actions": [{"action": str, "words": str, "probability": str}]}]}``.
With ``--fix`` the ``"restrictions"`` key of :mod:`seqform.documents.solve` is added.
"""

from __future__ import annotations

from typing import Any

from seqform.base.numbers import json_float
from seqform.documents.objects import action_words, exact_certificate_json, strategy_json
from seqform.documents.registry import builds
from seqform.documents.solve import restrictions_json, solve_document
from seqform.documents.structured import structured_document
from seqform.routes.exact import ExactSolution
from seqform.routes.structured_exact import StructuredExactSolution

__all__ = ["AnyExactSolution", "exact_document"]

AnyExactSolution = ExactSolution | StructuredExactSolution
"""An exact solution on the tree or on the structured route."""


@builds(ExactSolution, StructuredExactSolution)
def exact_document(solution: AnyExactSolution) -> dict[str, Any]:
    """``seqform.solve/2`` (``seqform.structured/2`` on the structured route) with the
    ``"exact"`` key (module docstring)."""
    t = solution.timings
    names, words = solution.game.player_names, action_words(solution.game)
    if isinstance(solution, StructuredExactSolution):
        document = structured_document(solution)
    else:
        document = solve_document(solution)
        if solution.restrictions is not None:
            document["restrictions"] = restrictions_json(solution.restrictions)
    document["exact"] = {
        "certified": solution.certified,
        "value": str(solution.value) if solution.certified else None,
        "float_value": json_float(solution.float_value),
        "bounds": {"lower": str(solution.bounds.lower), "upper": str(solution.bounds.upper)},
        "found_by": solution.found_by,
        "basis_verified": solution.basis_verified,
        "certificate": exact_certificate_json(solution.certificate),
        "strategies": [strategy_json(s, names[s.player], words) for s in solution.strategies],
        "notes": list(solution.notes),
        "seconds": {**t.as_dict(), "total": t.total},
    }
    return document
