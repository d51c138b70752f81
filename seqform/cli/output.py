"""Where a command's result goes: stdout or ``--output FILE``, as text or JSON.

A file is written atomically (:func:`seqform.io.atomic.write_atomically`): a reader never
sees half a result and an interrupted or failed write leaves any earlier ``FILE`` as it was.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from seqform.cli.errors import CommandError
from seqform.io.atomic import write_atomically

__all__ = ["emit", "write"]


def write(text: str, output: str | None) -> None:
    """Write ``text`` (ending in one newline) to stdout, or to the file ``output``."""
    if not text.endswith("\n"):
        text += "\n"
    if output is None:
        sys.stdout.write(text)
        return
    try:
        write_atomically(output, text)
    except OSError as exc:
        raise CommandError(f"cannot write {output!r}: {exc.strerror or exc}") from exc


def emit(document: dict[str, Any], text: str, args: argparse.Namespace) -> None:
    """Write the result as ``args.format`` asks: the JSON ``document`` or the ``text``."""
    if args.format == "json":
        write(json.dumps(document, indent=2), args.output)
    else:
        write(text, args.output)
