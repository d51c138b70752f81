"""What the parser cannot say alone, settled on the parsed arguments before a command runs:
the tree-only commands' default solver, ``export``'s file given either way, the output
format taken from ``--output``'s suffix, and the files a command reads and writes
(:func:`check_files`: no output may replace an input or another output, and every output
must be writable, before any work).

:mod:`seqform.cli.parser` builds the parser; :mod:`seqform.cli.main` calls these on its
result, so that an error here is a usage error (exit 2) like the parser's own.
"""

from __future__ import annotations

import argparse
import os
import os.path
from pathlib import Path

from seqform.cli.errors import EXIT_ERROR, EXIT_USAGE, CommandError
from seqform.cli.output import output_format
from seqform.io.atomic import check_writable, written_directly
from seqform.routes.options import check_options

__all__ = [
    "INPUT_FILES",
    "NAMES_OR_FILES",
    "OUTPUT_FILES",
    "check_files",
    "csv_beside",
    "is_output",
    "resolve_export_file",
    "resolve_output_format",
    "resolve_solver",
]

INPUT_FILES: dict[str, str] = {
    "result": "RESULT",
    "strategy": "--strategy",
    "blueprint": "--blueprint",
    "fit": "--fit",
    "lock_file": "--lock-file",
    "fix_file": "--fix-file",
}
"""The options naming a file a command reads, by ``dest``: no output may be one of them."""

NAMES_OR_FILES: dict[str, str] = {"game": "GAME", "abstract": "--abstract", "auto": "--auto"}
"""The options naming a game (or ``play --auto``'s strategy) by its name or by a file, by
``dest``: an input where a file of that name exists (:func:`seqform.io.loader.load_game`
reads it), else a name."""

OUTPUT_FILES: dict[str, str] = {
    "output": "--output",
    "csv": "--csv",
    "plot": "--plot",
    "html": "--html",
    "file": "FILE",
}
"""The options naming a file a command writes, by ``dest`` (``export``'s ``FILE`` is
``--output``'s when given so: :func:`resolve_export_file`)."""


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
    given = getattr(args, "format", None)  # show writes text only and has no --format
    args.format = output_format(given, args.output, formats, args.command)


def check_files(args: argparse.Namespace) -> None:
    """Refuse, before any work, an output that would destroy an input or another output, or
    that cannot be written: a result thrown away after a long run, or a saved result or a
    game replaced by a report (``show r.json --output r.json``), is lost work.

    The inputs are :data:`INPUT_FILES`, a :data:`NAMES_OR_FILES` option naming an existing file,
    and ``solve-many``'s spot files (``DIR/*.toml``); the outputs are :data:`OUTPUT_FILES`.
    Two paths are the same file when their real paths (symbolic links followed) are equal
    or, both existing, :func:`os.path.samefile` says so (hard links).  A path written
    directly (``/dev/null``, ``/dev/stdout``, a pipe: :func:`seqform.io.atomic.written_directly`)
    replaces nothing and is not compared.

    Raises
    ------
    CommandError
        (usage) for an output naming an input or an earlier output, naming both options;
        (exit 1) for an output that cannot be written (:func:`seqform.io.atomic.check_writable`:
        a folder, a folder that does not exist or is not writable, a read-only file).
    """
    outputs = _outputs(args)
    named = _inputs(args)
    for option, path in outputs:
        for other, seen in named:
            if written_directly(path) or not _same_file(path, seen):
                continue
            if other in OUTPUT_FILES.values():
                raise CommandError(
                    f"{other} and {option} both name {path}: give each its own file", EXIT_USAGE
                )
            raise CommandError(
                f"{other} and {option} both name {path}: {args.command} reads {other}, and "
                "its output would replace it; give the output its own file",
                EXIT_USAGE,
            )
        named.append((option, path))
    for option, path in outputs:
        try:
            check_writable(path)
        except OSError as exc:
            raise CommandError(
                f"cannot write {path!r} ({option}): {exc.strerror or exc}", EXIT_ERROR
            ) from None


def is_output(path: str | os.PathLike[str], args: argparse.Namespace | None) -> bool:
    """Whether ``path`` (an ``OSError``'s file) names a file the command writes
    (:data:`OUTPUT_FILES`), so that an error about it is one of writing, not of reading;
    False without ``args`` (the command line not yet parsed)."""
    if args is None:
        return False
    name = os.fspath(path)
    return any(name == written or _same_file(name, written) for _, written in _outputs(args))


def csv_beside(args: argparse.Namespace) -> str | None:
    """The CSV that ``solve-many`` writes beside ``--output FILE`` (without ``--csv``): FILE
    with the suffix ``.csv``; none when FILE is itself the CSV report (``.csv`` or
    ``--format csv``) or is written in place (``/dev/null``, ``/dev/stdout``, a pipe: no
    ``/dev/null.csv`` beside it)."""
    output = getattr(args, "output", None)
    if args.command != "solve-many" or args.csv or output is None or args.format == "csv":
        return None
    beside = Path(output).with_suffix(".csv")
    return None if beside == Path(output) or written_directly(output) else str(beside)


def _outputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(option, path) of each file the command writes, ``solve-many``'s CSV beside
    ``--output`` included (:func:`csv_beside`)."""
    if getattr(args, "command", None) == "export":  # one file, given as FILE or --output
        return [("--output" if args.output is not None else "FILE", args.file)]
    found = [
        (option, path)
        for dest, option in OUTPUT_FILES.items()
        if isinstance(path := getattr(args, dest, None), str)
    ]
    beside = csv_beside(args)
    return found if beside is None else [*found, ("the CSV beside --output", beside)]


def _inputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(option, path) of each file the command reads (for ``solve-many``, DIR's spots)."""
    found = [
        (option, path)
        for dest, option in INPUT_FILES.items()
        if isinstance(path := getattr(args, dest, None), str)
    ]
    found += [
        (option, path)
        for dest, option in NAMES_OR_FILES.items()
        if isinstance(path := getattr(args, dest, None), str) and os.path.isfile(path)
    ]
    folder = getattr(args, "directory", None)
    if isinstance(folder, str) and os.path.isdir(folder):  # solve-many's DIR
        found += [("a spot file of DIR", str(spot)) for spot in sorted(Path(folder).glob("*.toml"))]
    return found


def _same_file(first: str, second: str) -> bool:
    """Whether the paths ``first`` and ``second`` name one file, as :func:`check_files`
    compares them."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:  # either does not exist (or cannot be looked at): not the same
        return False
