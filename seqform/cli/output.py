"""Where a command's result goes: stdout or ``--output FILE``, as text or JSON.

A file is written atomically: the text goes to a temporary file in the same folder, which
then replaces ``FILE`` (``os.replace``), so a reader never sees half a result and an
interrupted or failed write leaves any earlier ``FILE`` as it was.  Paths that are not
regular files (``/dev/stdout``, a pipe) are written directly.

JSON is always complete.  When more than :data:`LARGE_JSON_BYTES` of it goes to a terminal
(``openspiel:tic_tac_toe`` writes 29 MB), a note on stderr after it gives its size and says
to write it to a file with ``--output FILE``; nothing is said when stdout is a file or a pipe.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from seqform.cli.errors import CommandError

__all__ = ["LARGE_JSON_BYTES", "emit", "large_json_note", "write"]

LARGE_JSON_BYTES = 1_000_000  # JSON to a terminal above this gets a note on stderr


def write(text: str, output: str | None) -> None:
    """Write ``text`` (ending in one newline) to stdout, or to the file ``output``."""
    if not text.endswith("\n"):
        text += "\n"
    if output is None:
        sys.stdout.write(text)
        return
    try:
        _replace_atomically(Path(output), text)
    except OSError as exc:
        raise CommandError(f"cannot write {output!r}: {exc.strerror or exc}") from exc


def _replace_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a new temporary file beside ``path`` (created with the usual
    permissions), then ``os.replace`` it onto ``path``; remove it if anything fails."""
    if path.exists() and not path.is_file():
        path.write_text(text, encoding="utf-8")
        return
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def emit(document: dict[str, Any], text: str, args: argparse.Namespace) -> None:
    """Write the result as ``args.format`` asks: the JSON ``document`` or the ``text``."""
    if args.format == "json":
        text = json.dumps(document, indent=2)
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
