"""Every file seqform writes, written atomically: to a temporary file beside it, then renamed.

The new content goes to a temporary file in the same folder (created exclusively, flushed
and ``fsync``-ed), which ``os.replace`` then renames onto the target: on POSIX a rename
within one file system is atomic, so a reader sees either the old file or the complete new
one, never a truncated one, and a failed or interrupted write (disk full, a file-size
limit, Ctrl-C) leaves any earlier file as it was and no temporary file behind.

Targets that exist but are not regular files (``/dev/stdout``, a named pipe) cannot be
replaced; they are written directly.  Used by ``--output`` (:mod:`seqform.cli.output`),
``export`` (:mod:`seqform.io.export`), the benchmark results and figures (``benchmarks/``).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Literal

__all__ = ["replacing", "write_atomically"]


@contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a fresh temporary path beside ``path``; once the block has written it, rename
    it onto ``path``.  If the block raises, the temporary file is removed and ``path`` is
    untouched.

    The temporary name keeps ``path``'s suffix (``.x.mps`` → ``.x.mps.<hex>.tmp.mps``), for
    writers that choose the format by it (HiGHS).  A ``path`` that exists and is not a
    regular file is yielded as it is.
    """
    target = Path(path)
    if target.exists() and not target.is_file():
        yield target
        return
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp{target.suffix}")
    try:
        yield temporary
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_atomically(
    path: str | os.PathLike[str], content: str | bytes | Callable[[IO[bytes]], object]
) -> None:
    """Write ``content`` to ``path`` atomically (module docstring).

    Parameters
    ----------
    path
        The file to create or replace.
    content
        Text (written as UTF-8), bytes, or a function that writes to the open binary file
        it is given (``lambda handle: numpy.savez_compressed(handle, ...)``).

    Raises
    ------
    OSError
        If the folder is missing or not writable, or the write fails (``errno.EFBIG``
        past a file-size limit, ``ENOSPC`` on a full disk); ``path`` is then unchanged.
    """
    with replacing(path) as temporary:
        mode: Literal["wb", "xb"] = "wb" if temporary == Path(path) else "xb"
        with open(temporary, mode) as handle:
            if isinstance(content, str):
                handle.write(content.encode("utf-8"))
            elif isinstance(content, bytes):
                handle.write(content)
            else:
                content(handle)
            handle.flush()
            if mode == "xb":
                os.fsync(handle.fileno())
