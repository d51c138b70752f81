"""Which function builds the document of which result type: the registry that every
document module fills with :func:`builds` and :func:`seqform.documents.build.document`
reads.

A builder is registered under the result types it takes (``@builds(ExactSolution,
StructuredExactSolution)``); :func:`builder_of` finds it along the result type's method
resolution order, so a subclass without a builder of its own (a
:class:`~seqform.routes.normal.NormalFormSolution` is a
:class:`~seqform.routes.tree.Solution`) gets its base's, and a subclass with one (an
:class:`~seqform.routes.exact.ExactSolution`) its own.

What a builder takes beside the result ("context": ``seconds=``, ...) is read
off its signature, its keyword-only parameters, so the registry and the builder cannot
disagree about it.
"""

from __future__ import annotations

import functools
import gc
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Builder", "builder_of", "builds", "collector_paused", "registered_types"]

Build = Callable[..., dict[str, Any]]
F = TypeVar("F", bound=Build)


@dataclass(frozen=True)
class Builder:
    """One registered builder.

    build : the function, ``build(result, **context) -> dict``
    context : the keyword arguments it takes beside the result (its keyword-only parameters)
    """

    build: Build
    context: frozenset[str]


_BUILDERS: dict[type, Builder] = {}


def builds(*kinds: type) -> Callable[[F], F]:
    """Register the decorated function as the builder of the documents of ``kinds``.

    Raises
    ------
    ValueError
        When one of ``kinds`` already has a builder (two builders for one type would make
        the document depend on the order the modules were imported in).
    """

    def register(build: F) -> F:
        parameters = inspect.signature(build).parameters.values()
        context = frozenset(p.name for p in parameters if p.kind is p.KEYWORD_ONLY)

        @functools.wraps(build)
        def paused(*args: Any, **kwargs: Any) -> dict[str, Any]:
            with collector_paused():
                return build(*args, **kwargs)

        for kind in kinds:
            found = _BUILDERS.get(kind)
            if found is not None and found.build is not paused:
                raise ValueError(f"{kind.__qualname__} already has a document builder")
            _BUILDERS[kind] = Builder(paused, context)
        return paused  # type: ignore[return-value]

    return register


def builder_of(kind: type) -> Builder | None:
    """The builder of ``kind``'s documents, the most specific along its MRO; None if none is
    registered (yet: a document module registers its builders when it is imported)."""
    for base in kind.__mro__:
        found = _BUILDERS.get(base)
        if found is not None:
            return found
    return None


def registered_types() -> tuple[type, ...]:
    """Every result type registered so far."""
    return tuple(_BUILDERS)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a document is built, as it was after.

    A big game's document is a tree of hundreds of thousands of new dicts and lists (one
    per information set and per action), none of them in a cycle; each allocation burst
    would start a collection that walks every tracked object again, which on Liar's Dice
    with 7 sides doubled the document's time.  Reference counting frees what is dropped
    as usual; only the search for cycles waits until the document is built.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
