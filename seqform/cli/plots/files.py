"""The picture files ``--plot FILE`` writes (``qre``, ``solve-many``): the name checked before
any work, the figure written under it.

matplotlib is an optional, heavy package, imported only when ``--plot`` is given; then
:func:`plot_format` imports it before the trace or the solves, so that a missing matplotlib
or a suffix naming no format it writes (``br.xyz``, or no suffix) is refused at once, naming
``--plot``, not after minutes of work.  The formats are matplotlib's own
(``FigureCanvasBase.get_supported_filetypes()``: png, svg, pdf, eps, jpeg, ...), chosen by
the file's suffix.  :func:`write_figure` writes atomically
(:func:`seqform.io.atomic.write_atomically`) and names the user's file when the write fails.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from seqform.cli.errors import EXIT_USAGE, CommandError
from seqform.io.atomic import write_atomically

__all__ = ["plot_format", "write_figure"]


def plot_format(path: str, command: str) -> str:
    """The format matplotlib writes ``path`` in: its suffix, in lower case (``.PNG`` →
    ``png``).  ``command`` names the command in the message of a missing matplotlib.

    Raises
    ------
    CommandError
        (exit 2) For a suffix that names no format matplotlib writes, or no suffix.
    ImportError
        If matplotlib is not installed (``pip install matplotlib``).
    """
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError as exc:
        raise ImportError(f"{command} --plot needs matplotlib: pip install matplotlib") from exc
    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    suffix = Path(path).suffix.lower().removeprefix(".")
    if suffix not in formats:
        raise CommandError(
            f"--plot {path}: name a file ending in a format matplotlib writes "
            f"({', '.join('.' + name for name in formats)})",
            EXIT_USAGE,
        )
    return suffix


def write_figure(figure: Any, path: str) -> None:
    """Write the matplotlib ``figure`` to ``path`` atomically, in the format of its suffix
    (checked before by :func:`plot_format`), and close it.

    Raises
    ------
    CommandError
        (exit 1) If the file cannot be written, naming ``path`` (not the temporary file
        beside it that the write goes through).
    """
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format=Path(path).suffix.lower().removeprefix("."))
    finally:
        plt.close(figure)
    try:
        write_atomically(path, buffer.getvalue())
    except OSError as exc:
        raise CommandError(f"--plot: cannot write {path!r}: {exc.strerror or exc}") from exc
