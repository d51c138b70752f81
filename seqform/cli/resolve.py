"""What the parser cannot say alone, settled on the parsed arguments before a command runs:
the tree-only commands' default solver, ``export``'s file given either way, and the output
format taken from ``--output``'s suffix.

:mod:`seqform.cli.parser` builds the parser; :mod:`seqform.cli.main` calls these on its
result, so that an error here is a usage error (exit 2) like the parser's own.
"""

from __future__ import annotations

import argparse

from seqform.cli.errors import EXIT_USAGE, CommandError
from seqform.cli.output import output_format
from seqform.routes.options import check_options

__all__ = ["resolve_export_file", "resolve_output_format", "resolve_solver"]


def resolve_solver(args: argparse.Namespace) -> None:
    """``--solver``'s default on the commands that solve on the tree only (HiGHS simplex),
    after the library's check (:func:`seqform.routes.policy.check_options`); ``solve`` leaves
    the choice of route and solver to the library (:func:`~seqform.routes.policy.choose_route`).

    Raises
    ------
    OptionsError
        (usage) for ``--solver clarabel`` on a command that solves on the tree only.
    """
    if not hasattr(args, "solver") or hasattr(args, "method"):
        return
    check_options("tree", solver=args.solver, backend=getattr(args, "backend", "highs"))
    args.solver = args.solver or "simplex"


def resolve_export_file(args: argparse.Namespace) -> None:
    """``export``'s file, given as ``FILE`` or as ``--output FILE`` (exactly one), in
    ``args.file``.

    Raises
    ------
    CommandError
        (usage) for both or neither.
    """
    if getattr(args, "command", None) != "export":
        return
    if args.file is not None and args.output is not None:
        raise CommandError(
            f"export takes its file once: FILE ({args.file!r}) or --output FILE "
            f"({args.output!r}), not both",
            EXIT_USAGE,
        )
    if args.file is None and args.output is None:
        raise CommandError("export needs the file to write: FILE or --output FILE", EXIT_USAGE)
    args.file = args.file if args.file is not None else args.output


def resolve_output_format(args: argparse.Namespace) -> None:
    """``args.format`` settled for every command with ``--format`` and ``--output``: as given,
    else the one ``--output``'s suffix names, else text (:func:`~seqform.cli.output.output_format`).

    Raises
    ------
    CommandError
        (usage) for a ``--format`` that contradicts ``--output``'s suffix, or a suffix naming
        a format the command does not write.
    """
    formats = getattr(args, "output_formats", None)
    if formats is None:
        return
    args.format = output_format(args.format, args.output, formats, args.command)
