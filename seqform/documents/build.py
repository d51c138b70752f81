"""One entry point for every document: :func:`document` takes a result of the library and
returns the JSON document that ``--format json`` prints for it; :func:`write_document` writes
it to a file atomically.

================================================  ===========================  =============
result                                            document                     context
================================================  ===========================  =============
``Solution`` (tree, normal form, restricted),     ``seqform.solve/2``
``ExactSolution``, ``RefinedSolution``
``StructuredSolution``,                           ``seqform.structured/2``     ``spot``
``StructuredExactSolution``
``Comparison``                                    ``seqform.compare/2``        (1)
``StructuredSizes``                               ``seqform.compare-sizes/2``
``EquilibriumRanges``                             ``seqform.ranges/1``
``Exploitation``                                  ``seqform.exploit/1``
``IterativeRun``                                  ``seqform.iterate/1``
``ManySpots``                                     ``seqform.solve-many/1``
``LogitBranch``, ``LogitPoints``, ``LogitFit``    ``seqform.qre/1``            (2)
a sequence of ``BuiltinGame``                     ``seqform.games/1``
================================================  ===========================  =============

(1) ``structured_payoff_nonzeros``; (2) ``branch``, ``comparison``, ``seconds``.

What a document needs beyond its result is a keyword argument ("context"; each builder's
docstring says what it means): the players' summary of a hold'em spot file (its pot is in
the file, not in the solution), the non-zeros of a built-in game's structured LP beside
the comparison, the branch traced beside QRE points or a fit, and the comparison of a
traced branch's limit with all equilibria.

The result's type is looked up by name along its class hierarchy, so that the builder's
module (and the analyses it reads) is imported only for the result at hand: asking for a
``solve`` document does not load the QRE or ranges machinery.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from typing import Any

from seqform.io.atomic import write_atomically
from seqform.io.documents import document_text

__all__ = ["document", "write_document"]

_BUILDERS: dict[str, tuple[str, str, frozenset[str]]] = {
    "seqform.routes.exact.ExactSolution": ("exact", "exact_document", frozenset()),
    "seqform.routes.structured_exact.StructuredExactSolution": (
        "exact",
        "exact_document",
        frozenset(),
    ),
    "seqform.routes.refine.RefinedSolution": ("refine", "refined_document", frozenset()),
    "seqform.routes.structured.StructuredSolution": (
        "structured",
        "structured_document",
        frozenset({"spot"}),
    ),
    "seqform.routes.tree.Solution": ("solve", "solution_document", frozenset()),
    "seqform.questions.compare.Comparison": (
        "compare",
        "comparison_document",
        frozenset({"structured_payoff_nonzeros"}),
    ),
    "seqform.questions.compare.StructuredSizes": ("compare", "sizes_document", frozenset()),
    "seqform.questions.ranges.EquilibriumRanges": ("ranges", "ranges_document", frozenset()),
    "seqform.questions.exploit.Exploitation": ("exploit", "exploitation_document", frozenset()),
    "seqform.questions.iterate.IterativeRun": ("iterate", "iterate_document", frozenset()),
    "seqform.routes.many.ManySpots": ("many", "many_document", frozenset()),
    "seqform.qre.equilibria.LogitBranch": (
        "qre",
        "qre_result_document",
        frozenset({"comparison", "seconds"}),
    ),
    "seqform.qre.equilibria.LogitPoints": (
        "qre",
        "qre_result_document",
        frozenset({"branch", "seconds"}),
    ),
    "seqform.qre.fit.LogitFit": (
        "qre",
        "qre_result_document",
        frozenset({"branch", "seconds"}),
    ),
}
"""Each result type, by module and name, and its builder in :mod:`seqform.documents`: the
module, the function and the keyword arguments (context) it takes."""

_GAME_CATALOGUE = "seqform.game.builtin.catalogue.BuiltinGame"


def _builder(result: Any) -> tuple[str, str, frozenset[str]]:
    """The builder of ``result``'s document (module docstring), most specific type first."""
    for kind in type(result).__mro__:
        found = _BUILDERS.get(f"{kind.__module__}.{kind.__qualname__}")
        if found is not None:
            return found
    if isinstance(result, Sequence) and not isinstance(result, str | bytes):
        names = {f"{type(item).__module__}.{type(item).__qualname__}" for item in result}
        if names <= {_GAME_CATALOGUE}:
            return ("games", "games_document", frozenset())
    kinds = ", ".join(sorted(name.rsplit(".", 1)[1] for name in _BUILDERS))
    raise TypeError(
        f"no seqform document for a {type(result).__name__}; documents are built from "
        f"{kinds} and a sequence of BuiltinGame"
    )


def document(result: Any, **context: Any) -> dict[str, Any]:
    """The JSON document of ``result``: the dict that ``--format json`` prints for it.

    Parameters
    ----------
    result
        A result of the library (table in the module docstring): ``seqform.solve(...)``,
        ``seqform.compare(...)``, ``seqform.iterate(...)``, ...; for ``seqform.games/1``
        the list of :func:`seqform.game.builtin.catalogue.builtin_games`.
    **context
        What the document needs beyond the result, by keyword (module docstring):
        ``spot`` (a :class:`~seqform.holdem.report.SpotSummary`) for a solved
        hold'em spot file; ``structured_payoff_nonzeros`` (an ``int``) beside a
        comparison; ``branch``, ``comparison`` and ``seconds`` for the QRE results.

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
    module, function, keywords = _builder(result)
    unknown = sorted(set(context) - keywords)
    if unknown:
        takes = ", ".join(sorted(keywords)) or "none"
        raise TypeError(
            f"the document of a {type(result).__name__} takes no keyword "
            f"{', '.join(map(repr, unknown))} (it takes: {takes})"
        )
    build = getattr(importlib.import_module(f"seqform.documents.{module}"), function)
    built: dict[str, Any] = build(result, **context)
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
