"""``solve --refine`` in documents: ``seqform.solve/2`` (:mod:`seqform.documents.solve`,
strategies as floats) with the ``"refinement"`` key of a quasi-perfect equilibrium;
``EXACT_STRATEGY`` is as in :mod:`seqform.documents.exact`, ``EXACT_CERTIFICATE`` its
``"certificate"``::

    "refinement": {"concept": "quasi-perfect", "source": str, "verified": bool,
                   "fallback": str | null,      # what is shown when not verified
                   "value_exact": str | null, "epsilon": str, "degree": int,
                   "pivots": int, "refined_infosets": [[str], [str]],
                   "certificate": EXACT_CERTIFICATE | null,  # the certificate, exact
                   "strategies": [EXACT_STRATEGY, ×2] | null}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from seqform.certify import Certificate
from seqform.documents.objects import exact_certificate_json, strategy_json
from seqform.documents.registry import builds
from seqform.documents.solve import solve_document
from seqform.routes.refine import RefinedSolution

__all__ = ["REFINEMENT_SOURCE", "refined_document"]

REFINEMENT_SOURCE = (
    "Miltersen and Sørensen (2010): limit of the equilibria of the sequence form "
    "perturbed by x_σ, y_σ >= ε^|σ| as ε → 0"
)


@builds(RefinedSolution)
def refined_document(solution: RefinedSolution) -> dict[str, Any]:
    """``seqform.solve/2`` with the ``"refinement"`` key (module docstring)."""
    game = solution.game
    document = solve_document(solution)
    certificate = solution.certificate
    exact_value = solution.value if isinstance(solution.value, Fraction) else None
    document["refinement"] = {
        "concept": "quasi-perfect",
        "source": REFINEMENT_SOURCE,
        "verified": solution.verified,
        "fallback": None
        if solution.verified
        else "exact equilibrium; best responses to the perturbed opponent where unreached",
        "value_exact": None if exact_value is None else str(exact_value),
        "epsilon": str(solution.epsilon),
        "degree": solution.degree,
        "pivots": solution.pivots,
        "refined_infosets": [list(names) for names in solution.refined],
        "certificate": exact_certificate_json(certificate) if _exact(certificate) else None,
        "strategies": [
            strategy_json(s, game.player_names[s.player], game.describe_action)
            for s in solution.strategies
        ],
    }
    return document


def _exact(certificate: Certificate) -> bool:
    """Whether the certificate was computed in exact arithmetic (its numbers Fractions)."""
    numbers = (certificate.value, certificate.exploitability, *certificate.best_response_values)
    return all(isinstance(number, Fraction) for number in numbers)
