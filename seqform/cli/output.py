"""Where a command's result goes: stdout or ``--output FILE``, as text or JSON.

A file is written atomically (:func:`seqform.io.atomic.write_atomically`): a reader never
sees half a result and an interrupted or failed write leaves any earlier ``FILE`` as it was.

JSON is always complete.  When more than :data:`LARGE_JSON_BYTES` of it goes to a terminal
(``openspiel:tic_tac_toe`` writes 29 MB), a note on stderr after it gives its size and says
to write it to a file with ``--output FILE``; nothing is said when stdout is a file or a pipe.

The format is ``--format``'s, else the one ``--output``'s suffix names
(:func:`output_format`): ``--output a.json`` writes JSON, as a user expects.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar

from seqform.cli.errors import EXIT_USAGE, CommandError
from seqform.cli.streams import terminal_text
from seqform.io.atomic import write_atomically
from seqform.io.documents import document_chunks

__all__ = [
    "LARGE_JSON_BYTES",
    "SUFFIX_FORMATS",
    "built_for",
    "emit",
    "large_json_note",
    "output_format",
    "stdout_failure",
    "write",
]

LARGE_JSON_BYTES = 1_000_000  # JSON to a terminal above this gets a note on stderr

SUFFIX_FORMATS: Mapping[str, str] = {".json": "json", ".csv": "csv", ".txt": "text", ".md": "text"}
"""The format a suffix of ``--output FILE`` names (case ignored); any other suffix, or none,
names no format, and the result is text unless ``--format`` says otherwise."""


def output_format(
    given: str | None, output: str | None, formats: Sequence[str], command: str = "this command"
) -> str:
    """The format a command writes: ``given`` (``--format``) or the one ``output``'s suffix
    names (:data:`SUFFIX_FORMATS`), else ``"text"``.

    Parameters
    ----------
    given : the ``--format`` given, or None
    output : the ``--output`` file, or None (stdout)
    formats : the formats the command writes, ``"text"`` first
    command : the command's name, for the error

    Raises
    ------
    CommandError
        (usage) when ``given`` contradicts the suffix (``--format text --output a.json``),
        or the suffix names a format the command does not write (``solve --output a.csv``).
    """
    named = None if output is None else SUFFIX_FORMATS.get(Path(output).suffix.lower())
    if named is None:
        return given or formats[0]
    if given is not None and given != named:
        raise CommandError(
            f"--format {given} contradicts --output {output}, whose suffix says {named}; "
            "drop one or make them agree",
            EXIT_USAGE,
        )
    if named not in formats:
        suffixes = [next(s for s, f in SUFFIX_FORMATS.items() if f == each) for each in formats]
        raise CommandError(
            f"--output {output}: {command} writes {' or '.join(formats)}, not {named}; "
            f"name a {' or '.join(suffixes)} file",
            EXIT_USAGE,
        )
    return named


def write(text: str, output: str | None) -> None:
    """Write ``text`` (ending in one newline) to stdout, with its control characters escaped
    (:func:`~seqform.cli.streams.terminal_text`), or as it is to the file ``output``.  Every
    result reaches stdout here, so no renderer has to remember the escaping."""
    if not text.endswith("\n"):
        text += "\n"
    _write_chunks([text], output)


def _write_chunks(chunks: Iterable[str], output: str | None) -> int:
    """Write the text ``chunks``, one after the other, as :func:`write` writes a text, and
    return the number of bytes written: a gigabyte of JSON is never one string."""
    if output is None:
        size = 0
        try:
            for chunk in chunks:
                size += len(chunk.encode("utf-8"))
                sys.stdout.write(terminal_text(chunk))
        except BrokenPipeError:
            raise  # the reader stopped reading: no error (seqform.cli.streams)
        except OSError as exc:
            raise stdout_failure(exc) from exc
        return size

    def written(handle: IO[bytes]) -> int:
        return sum(handle.write(chunk.encode("utf-8")) for chunk in chunks)

    sizes: list[int] = []
    try:
        write_atomically(output, lambda handle: sizes.append(written(handle)))
    except OSError as exc:
        raise CommandError(f"cannot write {output!r}: {exc.strerror or exc}") from exc
    return sizes[0]


def stdout_failure(exc: OSError) -> CommandError:
    """The error of a write to stdout that failed (``> /dev/full``: the disk is full),
    naming stdout, since the ``OSError`` names no file."""
    return CommandError(f"cannot write to standard output: {exc.strerror or exc}")


T = TypeVar("T")


def built_for(args: argparse.Namespace, build: Callable[[], T], choice: str = "summary") -> T:
    """``build()``, the document of a result, as ``args.format`` needs it: for JSON,
    complete, each strategy's information sets written from its arrays rather than made
    as objects (:func:`seqform.documents.objects.strategies_for_json`: a document for
    :func:`emit` only); for text, each strategy the report summarises or does not print as
    its summary (:func:`seqform.documents.objects.strategies_for_text`; ``choice`` is the
    report's ``--strategies``, ``"summary"`` for a report that prints none)."""
    from seqform.documents.objects import strategies_for_json, strategies_for_text

    if args.format == "json":
        with strategies_for_json():
            return build()
    with strategies_for_text(choice):
        return build()


def emit(document: dict[str, Any], text: str | Callable[[], str], args: argparse.Namespace) -> None:
    """Write the result as ``args.format`` asks (settled from ``--output`` by
    :func:`seqform.cli.resolve.resolve_output_format`): the JSON ``document`` or the
    ``text``, given as a function where rendering it costs work that JSON does not need
    (a report reads every information set of the document's strategies)."""
    if args.format == "json":
        size = _write_chunks(document_chunks(document), args.output)
        if args.output is None and sys.stdout.isatty():
            note = large_json_note(size)
            if note is not None:
                print(note, file=sys.stderr)
    else:
        write(text if isinstance(text, str) else text(), args.output)


def large_json_note(size: int) -> str | None:
    """The stderr note after ``size`` bytes of JSON written to a terminal, if it is large."""
    if size <= LARGE_JSON_BYTES:
        return None
    return (
        f"seqform: note: that JSON is {size / 1e6:,.1f} MB; "
        "write it to a file with --output FILE (a temporary file renamed into place)"
    )
