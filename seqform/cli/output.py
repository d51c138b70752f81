"""Where a command's result goes: stdout or ``--output FILE``, as text or JSON.

A file is written atomically (:func:`seqform.io.atomic.write_atomically`): a reader never
sees half a result and an interrupted or failed write leaves any earlier ``FILE`` as it was.

JSON is always complete.  When more than :data:`LARGE_JSON_BYTES` of it goes to a terminal
(``openspiel:tic_tac_toe`` writes 29 MB), a note on stderr after it gives its size and says
to write it to a file with ``--output FILE``; nothing is said when stdout is a file or a pipe.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from seqform.cli.errors import CommandError
from seqform.cli.streams import terminal_text
from seqform.io.atomic import write_atomically
from seqform.io.documents import document_text

__all__ = ["LARGE_JSON_BYTES", "emit", "large_json_note", "write"]

LARGE_JSON_BYTES = 1_000_000  # JSON to a terminal above this gets a note on stderr


def write(text: str, output: str | None) -> None:
    """Write ``text`` (ending in one newline) to stdout, with its control characters escaped
    (:func:`~seqform.cli.streams.terminal_text`), or as it is to the file ``output``.  Every
    result reaches stdout here, so no renderer has to remember the escaping."""
    if not text.endswith("\n"):
        text += "\n"
    if output is None:
        sys.stdout.write(terminal_text(text))
        return
    try:
        write_atomically(output, text)
    except OSError as exc:
        raise CommandError(f"cannot write {output!r}: {exc.strerror or exc}") from exc


def emit(document: dict[str, Any], text: str, args: argparse.Namespace) -> None:
    """Write the result as ``args.format`` asks: the JSON ``document`` or the ``text``."""
    if args.format == "json":
        text = document_text(document)
        write(text, args.output)
        if args.output is None and sys.stdout.isatty():
            note = large_json_note(len(text.encode("utf-8")))
            if note is not None:
                print(note, file=sys.stderr)
    else:
        write(text, args.output)


def large_json_note(size: int) -> str | None:
    """The stderr note after ``size`` bytes of JSON written to a terminal, if it is large."""
    if size <= LARGE_JSON_BYTES:
        return None
    return (
        f"seqform: note: that JSON is {size / 1e6:,.1f} MB; "
        "write it to a file with --output FILE (a temporary file renamed into place)"
    )
