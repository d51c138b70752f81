"""``seqform solve-many DIR``: a folder of spot files solved in parallel, one report
(:mod:`seqform.routes.many`), and the aggregate report as CSV (``--csv FILE``, or beside
``--output FILE``: the same name ending in ``.csv``; or as the report itself, ``--format csv``
or ``--output FILE.csv``) and as a plot (``--plot FILE``), all rendered from the JSON
document and written atomically; each file written besides the report is said on stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from seqform.cli.errors import EXIT_ERROR, EXIT_OK, CommandError
from seqform.cli.output import emit, write
from seqform.cli.resolve import csv_beside
from seqform.cli.streams import terminal_text
from seqform.documents.spots.many import many_document
from seqform.documents.text.spots.many import many_csv, many_text
from seqform.io.atomic import write_atomically
from seqform.routes.many import ManySpots, solve_many

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Solve the folder where ``--dask``/``--ray`` say (locally by default); exit 1 if a
    spot failed.  ``--plot``'s suffix is checked before solving (a format matplotlib
    writes: :func:`~seqform.cli.plots.files.plot_format`)."""
    if args.plot:
        from seqform.cli.plots.files import plot_format

        plot_format(args.plot, "solve-many")
    executor, address = "local", None
    if args.dask is not None:
        executor, address = "dask", None if args.dask == "local" else args.dask
    elif args.ray is not None:
        executor, address = "ray", None if args.ray == "local" else args.ray
    try:
        report: ManySpots = solve_many(
            args.directory,
            executor=executor,
            workers=args.workers,
            address=address,
            exact=args.exact,
        )
    except ImportError as exc:
        package = "dask[distributed]" if executor == "dask" else "ray"
        raise ImportError(
            f'{exc}; --{executor} needs {package}: pip install "seqform[cluster]"'
        ) from exc
    document = many_document(report)
    if args.format == "csv":
        write(many_csv(document), args.output)
        csv_path = args.csv
    else:
        emit(document, lambda: many_text(document), args)
        csv_path = args.csv or csv_beside(args)
    if csv_path is not None:
        _write(csv_path, many_csv(document), f"{len(document['spots'])} spots")
    if args.plot:
        _plot(document, args.plot)
    return EXIT_ERROR if report.failed else EXIT_OK


def _write(path: str, content: str | bytes, what: str) -> None:
    try:
        write_atomically(path, content)
    except OSError as exc:
        raise CommandError(f"cannot write {path!r}: {exc.strerror or exc}") from exc
    print(terminal_text(f"seqform: wrote {path} ({what})"), file=sys.stderr)


def _plot(document: dict[str, Any], path: str) -> None:
    from seqform.cli.plots.many import plot_bet_frequency

    try:
        boards = plot_bet_frequency(document, path)
    except ValueError as exc:
        raise CommandError(f"--plot: {exc}") from None
    print(terminal_text(f"seqform: wrote {path} ({boards} boards)"), file=sys.stderr)
