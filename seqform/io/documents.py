"""The JSON documents seqform writes, and their JSON Schemas (draft 2020-12).

Every ``--format json`` output is one *document*: an object whose ``"schema"`` key names its
kind and version.  Each kind has a JSON Schema shipped with the package as
``seqform/io/schemas/<kind>.schema.json`` (package data, found through
:mod:`importlib.resources`, so an installed wheel has them too); the objects several
documents share (game, solver, timings, certificate, strategy, ...) are defined once in
``common.schema.json`` and referred to by ``$id``.  A schema's ``$id`` is
``urn:seqform:schema:<kind>`` (``urn:seqform:schema:common/2`` for the shared part).

=====================  =================================================  ===================
document               written by                                         schema file
=====================  =================================================  ===================
``seqform.solve/2``    ``solve`` on the tree and normal routes             ``solve``
                       (``--exact``, ``--refine``, ``--fix`` add keys)
``seqform.structured/2``  ``solve`` on the structured route                ``structured``
``seqform.compare/2``  ``compare``                                        ``compare``
``seqform.ranges/2``   ``ranges``                                         ``ranges``
``seqform.exploit/2``  ``exploit``                                        ``exploit``
``seqform.iterate/2``  ``iterate``                                        ``iterate``
``seqform.games/1``    ``games``                                          ``games``
``seqform.solve-many/2``  ``solve-many``                                  ``many``
``seqform.compare-sizes/2``  ``compare --no-solve``, a structured game       ``compare_sizes``
``seqform.qre/2``      ``qre`` (trace, ``--lambda``, ``--fit``)            ``qre``
``seqform.resolve/1``  ``resolve``                                        ``resolve``
``seqform.off-tree/1``  ``resolve --off-tree``                             ``off_tree``
``seqform.stored-certificate/1``  ``exploit --strategy FILE.npz``          ``stored_certificate``
=====================  =================================================  ===================

The documents are built by the library (:mod:`seqform.documents`; one entry point,
``seqform.document(result)``), in a room above this one: here is their contract, the kinds,
the schemas and :func:`validate_document`, beside the reader.  The strategies of
``seqform.solve/2`` and ``seqform.iterate/2`` documents are read back by
:mod:`seqform.io.strategy_files`.

Version 2 of ``solve``, ``structured``, ``compare``, ``iterate`` and ``solve-many`` (and of
``common``) gave one meaning to each word: ``nash_conv`` is the sum of the best-response
gains and ``exploitability`` NashConv / 2 (it was NashConv in ``solve``, ``structured``
and ``compare``); the certificate judges the exploitability relative to the game's payoff
range (``payoff_range``, ``relative_exploitability``) and never reports a negative gain;
shares of the pot are fractions (``exploitability_pot`` replaces the percentage
``exploitability_pot_percent``); ``iterate``'s ``target_exploitability`` is a target for
NashConv / 2.  :data:`PREVIOUS` names the version-1 kinds, whose strategies
:mod:`seqform.io.strategy_files` still reads.  Validation needs the optional ``jsonschema`` package
(in the ``dev`` extra); it is imported only by :func:`validate_document`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

from seqform.io.json_text import indented_parts

__all__ = [
    "ABSTRACTION",
    "COMMON_ID",
    "COMPARE",
    "COMPARE_SIZES",
    "DOCUMENTS",
    "EXPLOIT",
    "GAMES",
    "ITERATE",
    "OFF_TREE",
    "PREVIOUS",
    "QRE",
    "RANGES",
    "RESOLVE",
    "SOLVE",
    "SOLVE_MANY",
    "STORED_CERTIFICATE",
    "STRUCTURED",
    "DocumentError",
    "document_chunks",
    "document_text",
    "load_schema",
    "schema_id",
    "validate_document",
]

SOLVE = "seqform.solve/2"
STRUCTURED = "seqform.structured/2"
COMPARE = "seqform.compare/2"
RANGES = "seqform.ranges/2"
EXPLOIT = "seqform.exploit/2"
ITERATE = "seqform.iterate/2"
GAMES = "seqform.games/1"
SOLVE_MANY = "seqform.solve-many/2"
COMPARE_SIZES = "seqform.compare-sizes/2"
QRE = "seqform.qre/2"
ABSTRACTION = "seqform.abstraction/1"
RESOLVE = "seqform.resolve/1"
OFF_TREE = "seqform.off-tree/1"
STORED_CERTIFICATE = "seqform.stored-certificate/1"

DOCUMENTS: dict[str, str] = {
    SOLVE: "solve",
    STRUCTURED: "structured",
    COMPARE: "compare",
    RANGES: "ranges",
    EXPLOIT: "exploit",
    ITERATE: "iterate",
    GAMES: "games",
    SOLVE_MANY: "many",
    COMPARE_SIZES: "compare_sizes",
    QRE: "qre",
    ABSTRACTION: "abstraction",
    RESOLVE: "resolve",
    OFF_TREE: "off_tree",
    STORED_CERTIFICATE: "stored_certificate",
}
"""Each document kind and the name of its schema file (``<name>.schema.json``)."""

PREVIOUS: dict[str, str] = {
    "seqform.solve/1": SOLVE,
    "seqform.structured/1": STRUCTURED,
    "seqform.compare/1": COMPARE,
    "seqform.iterate/1": ITERATE,
    "seqform.solve-many/1": SOLVE_MANY,
}
"""Each kind of version 1 that version 2 replaced, and its successor (module docstring)."""

COMMON_ID = "urn:seqform:schema:common/2"
CHUNK_PIECES = 1 << 16  # pieces of text joined per chunk of document_chunks
_SCHEMA_FILES = (*DOCUMENTS.values(), "common")


class DocumentError(ValueError):
    """A document that is not one of seqform's, or that breaks its schema."""


def schema_id(kind: str) -> str:
    """The ``$id`` of the schema of document ``kind`` (``"seqform.solve/2"``)."""
    return f"urn:seqform:schema:{kind}"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` (``"solve"``, ..., or ``"common"``) read from the package data.

    Raises
    ------
    KeyError
        for a name that is no schema file of seqform.
    """
    if name not in _SCHEMA_FILES:
        raise KeyError(f"no schema named {name!r}; schemas: {', '.join(_SCHEMA_FILES)}")
    text = (
        resources.files("seqform.io")
        .joinpath("schemas", f"{name}.schema.json")
        .read_text(encoding="utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


def validate_document(document: Any) -> None:
    """Check ``document`` against the schema its ``"schema"`` key names.

    Raises
    ------
    DocumentError
        naming the first place where the document breaks its schema, or the unknown kind.
    ImportError
        without the optional ``jsonschema`` package.
    """
    from jsonschema import Draft202012Validator

    kind = document.get("schema") if isinstance(document, dict) else None
    if kind not in DOCUMENTS:
        raise DocumentError(f"not a seqform document: 'schema' is {kind!r}")
    validator = Draft202012Validator(load_schema(DOCUMENTS[kind]), registry=_registry())
    error = next(iter(validator.iter_errors(document)), None)
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "(top)"
        raise DocumentError(f"{kind} document breaks its schema at {where}: {_said(error)}")


MESSAGE_LIMIT = 200
"""The longest schema message quoted as it is: jsonschema's repeats the value it rejects,
which for a strategy is megabytes of JSON."""


def _said(error: Any) -> str:
    """A jsonschema error's message, or for a long one the rule broken and the value's kind."""
    if len(error.message) <= MESSAGE_LIMIT:
        return str(error.message)
    from seqform.io.json_input import shown

    rule = f"{error.validator} {json.dumps(error.validator_value)}"[:MESSAGE_LIMIT]
    return f"{shown(error.instance)} breaks the rule {rule}"


@cache
def _registry() -> Any:
    """Every schema by its ``$id``, so that references to ``common/2`` resolve offline."""
    from referencing import Registry, Resource

    return Registry().with_resources(
        (load_schema(name)["$id"], Resource.from_contents(load_schema(name)))
        for name in _SCHEMA_FILES
    )


def document_text(document: dict[str, Any]) -> str:
    """``document`` as seqform writes it: JSON indented by two spaces, ending in a newline
    (``--format json`` and :func:`seqform.documents.build.write_document` alike)."""
    return "".join(_document_parts(document))


def document_chunks(document: dict[str, Any], pieces: int = CHUNK_PIECES) -> Iterator[str]:
    """:func:`document_text` in consecutive chunks of at most ``pieces`` pieces of text
    each, to be written one after the other: a big document (a turn spot's CFR run, a
    gigabyte) is then never one string, nor one string of bytes."""
    parts = _document_parts(document)
    for start in range(0, len(parts), pieces):
        yield "".join(parts[start : start + pieces])


def _document_parts(document: dict[str, Any]) -> list[str]:
    parts = indented_parts(document)  # json.dumps(document, indent=2), faster
    parts.append("\n")
    return parts
