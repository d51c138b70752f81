"""Where a command's result goes: stdout or ``--output FILE``, as text or JSON.

A file is written atomically: the text goes to a temporary file in the same folder, which
then replaces ``FILE`` (``os.replace``), so a reader never sees half a result and an
interrupted or failed write leaves any earlier ``FILE`` as it was.  Paths that are not
regular files (``/dev/stdout``, a pipe) are written directly.
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

__all__ = ["emit", "write"]


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
        write(json.dumps(document, indent=2), args.output)
    else:
        write(text, args.output)
