"""The text report of a result, as the command line prints it: :func:`render_text` for a
result of the library, :func:`document_report` for its document.

The solve family (``seqform.solve/2`` and ``seqform.structured/2``, with their ``exact``,
``refinement`` and ``restrictions`` keys) is rendered from the document alone: the text is
the JSON's data written for people, so the two cannot disagree.  The other kinds are
rendered from their result objects for now, by the renderers ``compare``, ``ranges``,
``exploit``, ``iterate``, ``solve-many`` and ``games`` use.
"""

from __future__ import annotations

import importlib
from typing import Any

from seqform.documents.build import document
from seqform.io.documents import (
    COMPARE,
    COMPARE_SIZES,
    EXPLOIT,
    GAMES,
    ITERATE,
    RANGES,
    SOLVE,
    SOLVE_MANY,
    STRUCTURED,
)

__all__ = ["document_report", "render_text"]

_BY_RESULT = {
    COMPARE: ("compare", "comparison_text", True),
    COMPARE_SIZES: ("compare_sizes", "sizes_text", False),
    RANGES: ("ranges", "ranges_text", True),
    EXPLOIT: ("exploit", "exploitation_text", True),
    ITERATE: ("iterate", "iterate_text", True),
    SOLVE_MANY: ("many", "many_text", False),
    GAMES: ("games", "games_text", False),
}
"""The kinds whose text is still rendered from the result, by their document's kind: the
renderer in :mod:`seqform.cli.render` and whether it takes ``strategies``."""


def document_report(built: dict[str, Any], strategies: str = "auto") -> str:
    """The text report of a ``seqform.solve/2`` or ``seqform.structured/2`` document (what
    ``seqform.document(result)`` returns for a solution), as ``solve`` prints it.

    ``strategies`` is ``--strategies``: ``"auto"``, ``"all"`` or ``"summary"``.

    Raises
    ------
    ValueError
        For a document of another kind.
    """
    if "exact" in built:
        from seqform.cli.render.exact import exact_text

        return exact_text(built, strategies)
    if "refinement" in built:
        from seqform.cli.render.refine import refined_text

        return refined_text(built, strategies)
    if built.get("schema") == STRUCTURED:
        from seqform.cli.render.structured import structured_text

        return structured_text(built, strategies)
    if "restrictions" in built:
        from seqform.cli.render.restrict import restricted_text

        return restricted_text(built, strategies)
    if built.get("schema") == SOLVE:
        from seqform.cli.render.report import solution_text

        return solution_text(built, strategies)
    raise ValueError(f"no text report of a {built.get('schema')!r} document here")


def render_text(result: Any, strategies: str = "auto") -> str:
    """The text report of ``result``: what the command line prints for it without
    ``--format json``.

    Parameters
    ----------
    result
        A solution (``seqform.solve(...)``: tree, normal form, restricted, exact, refined,
        structured, a hold'em spot file's), a comparison, equilibrium ranges, an
        exploitation, an iterative run, a batch of spots or the list of built-in games.
    strategies
        ``"auto"`` (every information set for small games, else a summary), ``"all"`` or
        ``"summary"``, as ``--strategies``.

    Raises
    ------
    TypeError
        For a result that has no text report here (the QRE results: ``seqform qre``).
    """
    built = document(result)
    if built["schema"] in (SOLVE, STRUCTURED):
        return document_report(built, strategies)
    if built["schema"] not in _BY_RESULT:
        raise TypeError(f"no text report of a {type(result).__name__} here")
    module, function, takes_strategies = _BY_RESULT[built["schema"]]
    render = getattr(importlib.import_module(f"seqform.cli.render.{module}"), function)
    text: str = render(result, strategies) if takes_strategies else render(result)
    return text
