"""``seqform show RESULT.json``: reopen a saved result without solving.

The file is read and checked by :func:`seqform.io.spot_results.read_result_document` (a
wrong or corrupt file is one line naming the file and the field, exit 1).  A result that is
not a hold'em spot's (``solve leduc``, ``ranges``, ``qre``, ``compare``, ... ``--format
json``) prints the report the command printed
(:func:`seqform.documents.text.render.any_document_report`); the spot's options are
refused there (exit 2).  A spot's result is rebuilt on its game
(:func:`seqform.io.spot_results.saved_spot`).  Without ``--node`` or
``--grid`` the text is the report the saved document renders to
(:func:`seqform.documents.text.render.any_document_report`: what ``solve`` or ``iterate``
printed), then the ``--hand`` blocks and the list of decisions; with them, a two-line
header, then each decision's frequencies and grid
(:func:`seqform.documents.text.spots.spot.node_lines`) and the ``--hand`` blocks.  ``--html
FILE`` also writes the static HTML report (:func:`seqform.documents.spots.html.saved_spot_html`),
atomically, to a file named ``.html`` or ``.htm`` (another suffix is refused before any work:
``--html r.json`` would leave a page where a reader of JSON looks).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seqform.cli.errors import EXIT_OK, EXIT_USAGE, CommandError
from seqform.cli.hands import hand_text, hands_in_spot
from seqform.cli.output import write
from seqform.cli.streams import terminal_text
from seqform.io.atomic import written_directly

if TYPE_CHECKING:
    from seqform.io.spot_results import SavedSpot

__all__ = ["run"]

HTML_SUFFIXES = (".html", ".htm")
"""The suffixes ``--html FILE`` takes (case ignored)."""


def run(args: argparse.Namespace) -> int:
    """Reopen ``args.result`` and print what the options ask for."""
    if args.html:
        _check_html_file(args.html)
    from seqform.documents.layout.parts import header_of
    from seqform.documents.spots.spot import node_json
    from seqform.documents.text.render import any_document_report
    from seqform.documents.text.spots.spot import decisions_line, ev_text, node_lines
    from seqform.holdem import WHO, decision_histories, decision_mix
    from seqform.io.spot_results import is_spot_result, read_result_document, saved_spot

    document = read_result_document(args.result)
    if not is_spot_result(document):
        write(_report(args, document), args.output)
        return EXIT_OK
    saved = saved_spot(args.result, document)
    hands = hands_in_spot(saved.spot, args.hand)
    nodes = list(args.node) or ([""] if args.grid else [])
    views = []
    for history in nodes:
        try:
            views.append(node_json(decision_mix(saved.game, saved.strategies, history)))
        except ValueError as exc:
            raise CommandError(f"--node: {exc}", EXIT_USAGE) from None
    if views:
        spot = saved.document["spot"]
        lines = [header_of(saved.document["game"]), ev_text(spot)]
        for view in views:
            lines += ["", *node_lines(view, each_action=args.grid)]
        text = "\n".join(lines) + "\n"
    else:
        text = any_document_report(saved.document, args.strategies).rstrip("\n") + "\n"
    text += hand_text(saved.game, saved.strategies, hands)
    if not views:
        found = [(WHO[player], history) for player, history in decision_histories(saved.strategies)]
        text += "\n" + decisions_line(found) + "\n"
    if args.html:
        _write_html(saved, args.html, list(args.node))
    write(text, args.output)
    return EXIT_OK


SPOT_OPTIONS = ("hand", "node", "grid", "html")
"""The options of a spot's result only (``--hand``, ``--node``, ``--grid``, ``--html``)."""


def _report(args: argparse.Namespace, document: dict[str, Any]) -> str:
    """The text report of a result that is not a spot's, as the command that wrote it
    printed it; the spot's options are refused (exit 2), since it has no combos nor
    decisions by public history."""
    from seqform.documents.text.render import any_document_report, takes_strategies

    kind = document["schema"]
    if args.strategies != "auto" and not takes_strategies(kind):
        raise CommandError(
            f"--strategies {args.strategies}: the report of a {kind} document prints no strategies",
            EXIT_USAGE,
        )
    given = [f"--{name}" for name in SPOT_OPTIONS if getattr(args, name)]
    if given:
        raise CommandError(
            f"{' and '.join(given)}: {args.result} is a {kind} document, not a hold'em "
            f"spot's result; without {'them' if len(given) > 1 else 'it'} show prints its "
            "report",
            EXIT_USAGE,
        )
    try:
        text: str = any_document_report(document, args.strategies)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        # a document edited by hand, read without the jsonschema check (the dev extra)
        raise CommandError(
            f"{args.result!r}: the {kind} document lacks what its report needs ({exc!r})"
        ) from None
    return text


def _check_html_file(path: str) -> None:
    """Refuse (exit 2) an ``--html`` file whose suffix is not :data:`HTML_SUFFIXES`; a path
    written in place (``/dev/null``, a pipe: :func:`~seqform.io.atomic.written_directly`)
    has no suffix to keep."""
    if written_directly(path) or Path(path).suffix.lower() in HTML_SUFFIXES:
        return
    raise CommandError(
        f"--html {path}: the HTML report needs a file ending in .html or .htm", EXIT_USAGE
    )


def _write_html(saved: SavedSpot, path: str, histories: list[str]) -> None:
    """The HTML report of ``saved`` to ``path``, atomically; said on stderr."""
    from seqform.documents.spots.html import saved_spot_html
    from seqform.io.atomic import write_atomically

    html = saved_spot_html(saved, histories or None)
    try:
        write_atomically(path, html)
    except OSError as exc:
        raise CommandError(f"cannot write {path!r}: {exc.strerror or exc}") from exc
    size = len(html.encode("utf-8"))
    print(terminal_text(f"seqform: wrote {path} ({size:,} bytes)"), file=sys.stderr)
