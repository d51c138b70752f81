"""A griffe extension for the API reference: docstrings written for readers of the source,
shown as Markdown.

The package's docstrings cross-reference in reST roles (``:class:`~seqform.game.Game```),
which Markdown would show as raw text: each role becomes a code span of its target, the
last component only where the role has ``~``.  The notes on a long function or module's
length (a paragraph starting ``Length:`` or ``Size:``, which tests/test_architecture.py asks
for) are for maintainers, and are left out.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):`(~?)([^`]+)`")
NOTE = re.compile(r"^\s*(?:Length|Size):")


def _role(match: re.Match[str]) -> str:
    target = match.group(2)
    if match.group(1):
        target = target.rsplit(".", 1)[-1]
    return f"`{target}`"


def plain(text: str) -> str:
    """``text`` with its reST roles as code spans and its length notes removed."""
    kept: list[str] = []
    in_note = False
    for line in text.splitlines():
        if NOTE.match(line):
            in_note = True
        elif in_note and not line.strip():
            in_note = False
            continue  # the blank line after the note
        if not in_note:
            kept.append(line)
    return ROLE.sub(_role, "\n".join(kept))


class PlainDocstrings(griffe.Extension):
    """Rewrites every object's docstring by :func:`plain` before it is parsed."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
