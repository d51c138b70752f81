"""One entry point for every document: :func:`document` takes a result of the library and
returns the JSON document that ``--format json`` prints for it; :func:`write_document` writes
it to a file atomically.

================================================  ===========================  =============
result                                            document                     context
================================================  ===========================  =============
``Solution`` (tree, normal form, restricted),     ``seqform.solve/2``
``ExactSolution``, ``RefinedSolution``
``StructuredSolution``,                           ``seqform.structured/2``
``StructuredExactSolution``
``LockedSolution``                                the locked solution's, with
                                                  ``"locks"``
``Comparison``                                    ``seqform.compare/2``        (1)
``StructuredSizes``                               ``seqform.compare-sizes/2``
``EquilibriumRanges``                             ``seqform.ranges/2``
``Exploitation``                                  ``seqform.exploit/1``
``IterativeRun``                                  ``seqform.iterate/1``
``StoredCertificate``                             ``seqform.stored-certificate/1``
``ManySpots``                                     ``seqform.solve-many/1``
``LogitBranch``, ``LogitPoints``, ``LogitFit``    ``seqform.qre/1``            (2)
a sequence of ``BuiltinGame``                     ``seqform.games/1``
================================================  ===========================  =============

(1) ``structured_payoff_nonzeros``; (2) ``branch``, ``comparison``, ``seconds``.

A result carries what its document needs (a solved hold'em spot file its players'
summary, :attr:`~seqform.routes.structured.StructuredSolution.spot`); the keyword
arguments ("context") that some builders still take beside the result are their
keyword-only parameters, read off their signatures (:mod:`seqform.documents.registry`).

Each document module registers its builders by result type
(:func:`seqform.documents.registry.builds`), and the builder is found along the result
type's MRO.  The modules are imported on demand, in the order of :data:`MODULES`, until
the result's own type is registered: asking for a ``solve`` document imports
``documents.solve`` alone, not the QRE, ranges or comparison machinery that the other
modules import (measured with ``python -X importtime``: about 115 modules beyond a solve
for the solve family, 330 for every document module).  A type no module registers (a
subclass of a result, say) imports them all, then takes its nearest base's builder.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from typing import Any

from seqform.documents.registry import Builder, builder_of, collector_paused, registered_types
from seqform.io.atomic import write_atomically
from seqform.io.documents import document_text

__all__ = ["MODULES", "document", "write_document"]

MODULES = (
    "solve",
    "structured",
    "exact",
    "refine",
    "locked",
    "iterate",
    "exploit",
    "compare",
    "ranges",
    "spots.many",
    "qre",
    "road.abstraction",
    "road.resolve",
    "road.off_tree",
    "stored_certificate",
)
"""The document modules of :mod:`seqform.documents` that register builders, cheapest and
most asked for first (module docstring)."""


def _builder(result: Any) -> Builder:
    """The builder of ``result``'s document, importing document modules until its type is
    registered (module docstring)."""
    kind = type(result)
    for module in MODULES:
        if kind in registered_types():
            break
        importlib.import_module(f"seqform.documents.{module}")
    found = builder_of(kind)
    if found is None:
        kinds = ", ".join(sorted(k.__name__ for k in registered_types()))
        raise TypeError(
            f"no seqform document for a {kind.__name__}; documents are built from "
            f"{kinds} and a sequence of BuiltinGame"
        )
    return found


def _games(result: Any) -> bool:
    """Whether ``result`` is a sequence of :class:`~seqform.game.builtin.catalogue.BuiltinGame`
    (the catalogue is a list, not a result type of its own)."""
    if not isinstance(result, Sequence) or isinstance(result, str | bytes):
        return False
    from seqform.game.builtin.catalogue import BuiltinGame

    return all(isinstance(item, BuiltinGame) for item in result)


def document(result: Any, **context: Any) -> dict[str, Any]:
    """The JSON document of ``result``: the dict that ``--format json`` prints for it.

    Parameters
    ----------
    result
        A result of the library (table in the module docstring): ``seqform.solve(...)``,
        ``seqform.compare(...)``, ``seqform.iterate(...)``, ...; for ``seqform.games/1``
        the list of :func:`seqform.game.builtin.catalogue.builtin_games`.
    **context
        What the document needs beyond the result, by keyword, for the kinds whose
        results do not carry it yet (module docstring): ``structured_payoff_nonzeros``
        (an ``int``) beside a comparison; ``branch``, ``comparison`` and ``seconds`` for
        the QRE results.

    Returns
    -------
    dict
        A document whose ``"schema"`` key names its kind (``"seqform.solve/2"``, ...); it
        passes :func:`seqform.io.documents.validate_document`.

    Raises
    ------
    TypeError
        For a result that has no document, or a keyword its document does not take.
    """
    if _games(result):
        from seqform.documents.games import games_document

        found = Builder(games_document, frozenset())
    else:
        found = _builder(result)
    unknown = sorted(set(context) - found.context)
    if unknown:
        takes = ", ".join(sorted(found.context)) or "none"
        raise TypeError(
            f"the document of a {type(result).__name__} takes no keyword "
            f"{', '.join(map(repr, unknown))} (it takes: {takes})"
        )
    with collector_paused():
        built: dict[str, Any] = found.build(result, **context)
    return built


def write_document(result: Any, path: str | os.PathLike[str], **context: Any) -> dict[str, Any]:
    """Write :func:`document` of ``result`` to ``path`` as ``--format json --output PATH``
    does, and return it.

    The file is written atomically (:func:`seqform.io.atomic.write_atomically`): a reader
    sees the old file or the whole new one, never a part.  ``context`` is as for
    :func:`document`.

    Raises
    ------
    OSError
        When the file cannot be written (any earlier file at ``path`` is left as it was).
    """
    built = document(result, **context)
    write_atomically(path, document_text(built))
    return built
