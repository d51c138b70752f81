"""The ``seqform.stored-certificate/1`` document: a strategy-arrays document certified on
its game (:class:`~seqform.questions.stored_certificate.StoredCertificate`).

Schema ``seqform.stored-certificate/1``
(``seqform/io/schemas/stored_certificate.schema.json``)::

    {"schema": "seqform.stored-certificate/1", "source": str, "game": str,
     "certified_on": str, "value": float, "best_response_values": [float, float],
     "gains": [float, float], "nash_conv": float, "exploitability": float,
     "payoff_range": float, "value_lower": float, "value_upper": float,
     "stated": {"algorithm", "iterations", "nash_conv", "value_lower", "value_upper",
                "seqform_version", "storage"},
     "agrees": bool}

Values are to player 1 (``best_response_values[1]`` and ``gains[1]`` to player 2);
``value_lower`` and ``value_upper`` bound the game's value; ``stated`` is what the file
says of itself, ``agrees`` whether the recomputed NashConv is its ``nash_conv``.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from seqform.documents.registry import builds
from seqform.io.documents import STORED_CERTIFICATE
from seqform.questions.stored_certificate import StoredCertificate

__all__ = ["stored_certificate_document"]


@builds(StoredCertificate)
def stored_certificate_document(result: StoredCertificate) -> dict[str, Any]:
    """The ``seqform.stored-certificate/1`` document of ``result``."""
    certificate = result.certificate
    return {
        "schema": STORED_CERTIFICATE,
        "source": result.source,
        "game": result.game,
        "certified_on": result.certified_on,
        "value": float(certificate.value),
        "best_response_values": [float(v) for v in certificate.best_response_values],
        "gains": [float(g) for g in certificate.gains],
        "nash_conv": float(certificate.nash_conv),
        "exploitability": float(certificate.exploitability),
        "payoff_range": float(certificate.payoff_range),
        "value_lower": result.value_lower,
        "value_upper": result.value_upper,
        "stated": asdict(result.provenance),
        "agrees": result.agrees,
    }
