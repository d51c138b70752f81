"""The certificate: expected values, best responses, NashConv and exploitability, measured on
the game and never on the LP.

:mod:`seqform.certify.responses` computes them (the equations are in its docstring);
:mod:`seqform.certify.verdict` holds what they give (:class:`Certificate`) and the verdict
(:func:`is_certified`, relative to the game's payoff range).  This module is the room's
door: the rest of the package imports the certificate from here
(``tests/test_architecture.py`` checks it).
"""

from seqform.certify.responses import (
    BestResponse,
    LocalBounds,
    best_response,
    bounded_choice,
    certify,
    certify_profile,
    expected_value,
    leaf_payoffs,
    profile_leaf_payoffs,
    respond,
)
from seqform.certify.verdict import (
    EQUILIBRIUM_TOLERANCE,
    Certificate,
    CertificateOverflowError,
    NPlayerCertificate,
    is_certified,
    payoff_range,
    relative_exploitability,
    require_finite,
)

__all__ = [
    "EQUILIBRIUM_TOLERANCE",
    "BestResponse",
    "Certificate",
    "CertificateOverflowError",
    "LocalBounds",
    "NPlayerCertificate",
    "best_response",
    "bounded_choice",
    "certify",
    "certify_profile",
    "expected_value",
    "is_certified",
    "leaf_payoffs",
    "payoff_range",
    "profile_leaf_payoffs",
    "relative_exploitability",
    "require_finite",
    "respond",
]
