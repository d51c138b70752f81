"""``exploit --strategy FILE.npz``: a strategy-arrays document's certificate as text, read
from the ``seqform.stored-certificate/1`` document
(:func:`seqform.documents.stored_certificate.stored_certificate_document`)."""

from __future__ import annotations

from typing import Any

__all__ = ["stored_certificate_text"]


def stored_certificate_text(document: dict[str, Any]) -> str:
    """The file's provenance, each player's best-response gain, NashConv, the
    exploitability, the value's bounds, and whether the file's own certificate agrees."""
    stated = document["stated"]
    gains = document["gains"]
    lines = [
        f"{document['source']}: a profile of {document['game']} by {stated['algorithm']}, "
        f"{stated['iterations']:,} iterations, stored in {stated['storage']} "
        f"(seqform {stated['seqform_version']})",
        f"certified on {document['certified_on']} by best responses to the stored arrays:",
        f"  player 1's best-response gain  {gains[0]:.6g}",
        f"  player 2's best-response gain  {gains[1]:.6g}",
        f"  NashConv                       {document['nash_conv']:.6g}",
        f"  exploitability (NashConv / 2)  {document['exploitability']:.6g}",
        f"  profile's value to player 1    {document['value']:+.6f}",
        f"  game value in [{document['value_lower']:+.6f}, {document['value_upper']:+.6f}] "
        "(player 1; the best responses prove it)",
        (
            f"the file states NashConv {stated['nash_conv']:.6g}: "
            + ("agrees" if document["agrees"] else "DOES NOT AGREE")
        ),
    ]
    return "\n".join(lines) + "\n"
