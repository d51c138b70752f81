"""The text report of a result, as the command line prints it: :func:`render_text` for a
result of the library, :func:`document_report` for its document.

Every kind is rendered from its document (the dict ``seqform.document(result)`` returns and
``--format json`` prints): the text is the JSON's data written for people, so the two cannot
disagree, and a field the text shows is a field of the JSON.
"""

from __future__ import annotations

import importlib
from typing import Any

from seqform.documents.build import document
from seqform.io.documents import (
    ABSTRACTION,
    COMPARE,
    COMPARE_SIZES,
    EXPLOIT,
    GAMES,
    ITERATE,
    OFF_TREE,
    QRE,
    RANGES,
    RESOLVE,
    SOLVE,
    SOLVE_MANY,
    STORED_CERTIFICATE,
    STRUCTURED,
)

__all__ = ["any_document_report", "document_report", "render_text", "takes_strategies"]

_FROM_DOCUMENT = {
    COMPARE: ("compare", "comparison_text", True),
    COMPARE_SIZES: ("compare_sizes", "sizes_text", False),
    EXPLOIT: ("exploit", "exploitation_text", True),
    SOLVE_MANY: ("spots.many", "many_text", False),
    GAMES: ("games", "games_text", False),
    QRE: ("qre", "qre_text", True),
    RANGES: ("ranges", "ranges_text", True),
    ITERATE: ("iterate", "iterate_text", True),
    ABSTRACTION: ("road.abstraction", "abstraction_text", False),
    RESOLVE: ("road.resolve", "resolve_text", False),
    OFF_TREE: ("road.off_tree", "off_tree_text", False),
    STORED_CERTIFICATE: ("stored_certificate", "stored_certificate_text", False),
}
"""The kinds besides the solve family, each with its renderer in :mod:`seqform.documents.text`
(which takes the document) and whether it takes ``strategies``."""


def document_report(built: dict[str, Any], strategies: str = "auto") -> str:
    """The text report of a ``seqform.solve/2`` or ``seqform.structured/2`` document (what
    ``seqform.document(result)`` returns for a solution), as ``solve`` prints it.

    ``strategies`` is ``--strategies``: ``"auto"``, ``"all"`` or ``"summary"``.

    Raises
    ------
    ValueError
        For a document of another kind.
    """
    if "locks" in built:  # the locked game's report, then the locks and what they changed
        from seqform.documents.text.locked import lock_lines

        rest = {key: value for key, value in built.items() if key != "locks"}
        base = document_report(rest, strategies).rstrip("\n")
        scale = built["certificate"].get("payoff_range")
        return base + "\n\n" + "\n".join(lock_lines(built["locks"], scale)) + "\n"
    if "exact" in built:
        from seqform.documents.text.exact import exact_text

        return exact_text(built, strategies)
    if "refinement" in built:
        from seqform.documents.text.refine import refined_text

        return refined_text(built, strategies)
    if built.get("schema") == STRUCTURED:
        from seqform.documents.text.structured import structured_text

        return structured_text(built, strategies)
    if "restrictions" in built:
        from seqform.documents.text.restrict import restricted_text

        return restricted_text(built, strategies)
    if built.get("schema") == SOLVE:
        from seqform.documents.text.solve import solution_text

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
        exploitation, an iterative run, a QRE result, a batch of spots or the list of
        built-in games.
    strategies
        ``"auto"`` (every information set for small games, else a summary), ``"all"`` or
        ``"summary"``, as ``--strategies``.

    Raises
    ------
    TypeError
        For a result that has no text report.
    """
    built = document(result)
    try:
        return any_document_report(built, strategies)
    except ValueError:
        raise TypeError(f"no text report of a {type(result).__name__} here") from None


def takes_strategies(kind: str) -> bool:
    """Whether the report of a document of ``kind`` prints strategies (and so takes
    ``--strategies``): the solve family's, and those :data:`_FROM_DOCUMENT` marks."""
    found = _FROM_DOCUMENT.get(kind)
    return kind in (SOLVE, STRUCTURED) or (found is not None and found[2])


def any_document_report(built: dict[str, Any], strategies: str = "auto") -> str:
    """The text report of a document of any kind, as the command that wrote it prints it
    (``show`` renders a saved result with it).

    Raises
    ------
    ValueError
        For a document of a kind that has no text report.
    """
    kind = built.get("schema")
    if kind in (SOLVE, STRUCTURED):
        return document_report(built, strategies)
    found = _FROM_DOCUMENT.get(kind)  # type: ignore[arg-type]
    if found is None:
        raise ValueError(f"no text report of a {kind!r} document here")
    module, function, takes_strategies = found
    render = getattr(importlib.import_module(f"seqform.documents.text.{module}"), function)
    text: str = render(built, strategies) if takes_strategies else render(built)
    return text
