"""``seqform solve-many DIR``: a folder of spot files solved in parallel, one report
(:mod:`seqform.routes.many`)."""

from __future__ import annotations

import argparse

from seqform.cli.errors import EXIT_ERROR, EXIT_OK
from seqform.cli.output import emit
from seqform.documents.many import many_document
from seqform.documents.text.many import many_text
from seqform.routes.many import ManySpots, solve_many

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Solve the folder where ``--dask``/``--ray`` say (locally by default); exit 1 if a
    spot failed."""
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
    emit(document, many_text(document), args)
    return EXIT_ERROR if report.failed else EXIT_OK
