"""Where a command's result goes: stdout or ``--output FILE``, as text or JSON."""

from __future__ import annotations

import argparse
import json
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
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {output!r}: {exc.strerror or exc}") from exc


def emit(document: dict[str, Any], text: str, args: argparse.Namespace) -> None:
    """Write the result as ``args.format`` asks: the JSON ``document`` or the ``text``."""
    if args.format == "json":
        write(json.dumps(document, indent=2), args.output)
    else:
        write(text, args.output)
