"""Every file seqform writes, written atomically: to a temporary file beside it, then renamed.

The new content goes to a temporary file in the same folder (created exclusively, flushed
and ``fsync``-ed), which ``os.replace`` then renames onto the target: on POSIX a rename
within one file system is atomic, so a reader sees either the old file or the complete new
one, never a truncated one, and a failed or interrupted write (disk full, a file-size
limit, Ctrl-C) leaves any earlier file as it was and no temporary file behind.

What replacing a file keeps, and what it refuses:

* the mode: a file that exists keeps its permission bits (a ``0600`` result stays
  private); a new file gets the usual ``0666`` less the umask.  Its owner becomes the
  writer, and other hard links to the old file keep the old content (a rename makes a
  new file);
* a read-only file (no write permission for anyone, or none for this process) is
  refused with :class:`ReadOnlyTargetError` rather than replaced behind its owner's back;
* a symbolic link is written *through*: the file it points to is replaced (atomically, in
  that file's folder) and the link stays a link, as the shell's ``>`` and editors do; a
  link to nothing creates the file it names;
* a name ending in ``/`` is refused (:class:`NotADirectoryError`): it names a folder, and
  ``x.json/`` must not quietly write ``x.json``.

Targets that exist but are not regular files (``/dev/stdout``, a named pipe) cannot be
replaced; they are written directly.  Used by ``--output`` (:mod:`seqform.cli.output`),
``export`` (:mod:`seqform.io.export`), the benchmark results and figures (``benchmarks/``).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Literal

__all__ = [
    "ReadOnlyTargetError",
    "check_writable",
    "file_target",
    "replacing",
    "write_atomically",
    "written_directly",
]


class ReadOnlyTargetError(PermissionError):
    """The file to replace is read-only; seqform does not replace it."""


def file_target(path: str | os.PathLike[str]) -> Path:
    """The file that writing ``path`` replaces: ``path`` itself, or the file a symbolic
    link there points to (module docstring).  A path that exists and is not a regular file
    (``/dev/stdout``, a named pipe), or that is under ``/dev`` or ``/proc``, is returned as
    it is: it is written directly.

    Raises
    ------
    NotADirectoryError
        For a name that ends in a path separator (``x.json/``).
    ReadOnlyTargetError
        For an existing regular file that is read-only.
    """
    name = os.fspath(path)
    if name.endswith(os.sep) or (os.altsep is not None and name.endswith(os.altsep)):
        raise NotADirectoryError(
            errno.ENOTDIR, "a file name cannot end in '/' (that names a folder)", name
        )
    if written_directly(name):
        return Path(name)
    target = Path(os.path.realpath(name)) if os.path.islink(name) else Path(name)
    try:
        status = target.stat()
    except OSError:  # missing (created), or a folder that cannot be searched (fails later)
        return target
    if not status.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise ReadOnlyTargetError(
            errno.EACCES,
            f"the file is read-only (mode {stat.S_IMODE(status.st_mode):04o}); make it writable "
            "or choose another name",
            name,
        )
    return target


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise, before any work, what writing ``path`` later would raise for its name or its
    folder, so that a long run is not thrown away at the end for a mistyped folder.

    A path written directly (``/dev/null``, a named pipe: :func:`file_target`) is left to
    its write.  The folder checks are those of the temporary file: it is created in the
    folder of the file replaced (the file a symbolic link points to).

    Raises
    ------
    NotADirectoryError, ReadOnlyTargetError
        As :func:`file_target`: a name ending in ``/``, a read-only file.
    IsADirectoryError
        For a folder (``--output results``, meaning a file in it).
    FileNotFoundError
        When the folder to write in does not exist.
    NotADirectoryError
        When what should be the folder is a file.
    PermissionError
        When this process may not create files in the folder.
    """
    name = os.fspath(path)
    if os.path.isdir(name):
        raise IsADirectoryError(errno.EISDIR, "it is a folder; name a file in it", name)
    target = file_target(name)
    if written_directly(str(target)):
        return
    folder = target.absolute().parent
    if not folder.exists():
        raise FileNotFoundError(errno.ENOENT, f"there is no folder {str(folder)!r}", name)
    if not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"{str(folder)!r} is not a folder", name)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(
            errno.EACCES, f"the folder {str(folder)!r} is not writable by this user", name
        )


def written_directly(name: str) -> bool:
    """True for a path that is not replaced but written in place: one that exists and is
    either not a regular file or under ``/dev`` or ``/proc`` (``/dev/stdout`` links through
    ``/proc/self/fd/1`` to whatever stdout is, which only the process can open).  A missing
    path is created, atomically, wherever it is (``/dev/full.npz`` is a new file, not a
    device)."""
    absolute = os.path.abspath(name)
    try:
        mode = os.stat(absolute).st_mode
    except OSError:  # missing: created
        return False
    return absolute.startswith(("/dev/", "/proc/")) or not stat.S_ISREG(mode)


@contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a fresh temporary path beside ``path``; once the block has written it, give it
    the mode of the file it replaces and rename it onto ``path`` (onto the file a symbolic
    link there points to).  If the block raises, the temporary file is removed and ``path``
    is untouched; an ``OSError`` about the temporary file (its folder is missing) names
    ``path`` instead.

    The temporary name keeps ``path``'s suffix (``.x.mps`` → ``.x.mps.<hex>.tmp.mps``), for
    writers that choose the format by it (HiGHS).  A ``path`` that exists and is not a
    regular file is yielded as it is.

    Raises
    ------
    NotADirectoryError, ReadOnlyTargetError
        Before anything is written (:func:`file_target`).
    """
    target = file_target(path)
    if written_directly(str(target)):
        yield target
        return
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp{target.suffix}")
    try:
        yield temporary
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException as exc:
        temporary.unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename == str(temporary):
            exc.filename = os.fspath(path)  # the file the caller named, not our temporary one
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
        :class:`ReadOnlyTargetError` for a read-only file and :class:`NotADirectoryError`
        for a name ending in ``/``, before anything is written.
    """
    mode: Literal["wb", "xb"] = "wb" if written_directly(str(file_target(path))) else "xb"
    with replacing(path) as temporary, open(temporary, mode) as handle:
        if isinstance(content, str):
            handle.write(content.encode("utf-8"))
        elif isinstance(content, bytes):
            handle.write(content)
        else:
            content(handle)
        handle.flush()
        if mode == "xb":
            os.fsync(handle.fileno())
