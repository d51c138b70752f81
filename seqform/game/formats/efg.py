"""Gambit ``.efg`` files read, through pygambit (the format's own library).

Reading decodes the file as UTF-8 and runs a light pre-pass over its tokens
(:mod:`seqform.game.formats.efg_scan`: an undeclared player, text after the tree, bad chance
probabilities, undefined or redefined outcomes, information sets whose members disagree,
non-ASCII labels that pygambit refuses), parses it with pygambit and converts the game with
:func:`~seqform.game.formats.from_gambit.game_from_gambit` (whose module docstring gives the
conventions: payoffs summed along the path, information-set names, labels); writing is
:func:`seqform.io.export.write_efg` (atomic, like every file seqform writes).  Numbers stay
exact both ways.  This module adds what belongs to files: pygambit's parse
errors turned into :class:`~seqform.game.errors.GameFormatError` with the file's own line.

Any number of players and general-sum payoffs are read, for the commands that run them
(``iterate``, ``qre``); the LP routes refuse such a game at their entry, naming a terminal
node and its payoffs.  A game is refused here, with the reason, when it has fewer than two
players, is a strategic-form (table) game, or lacks perfect recall.
"""

from __future__ import annotations

import contextvars
import io
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pygambit

from seqform.base.collector import gc_paused
from seqform.base.interrupt import ThreadStartError, run_interruptibly
from seqform.base.limits import LIMITS
from seqform.base.progress import Step, report
from seqform.game.errors import GameFormatError, InvalidGameError
from seqform.game.formats.efg_depth import quick_depth
from seqform.game.formats.efg_scan import ScannedEfg, scan_efg
from seqform.game.formats.efg_tokens import decode
from seqform.game.formats.from_gambit import KeptLabels, game_from_gambit
from seqform.game.model import Game

__all__ = ["MAX_DEPTH", "MAX_EFG_BYTES", "read_efg"]

_T = TypeVar("_T")

# pygambit 16.7's reader recurses once per level of the tree and crashes the process when
# the stack runs out (a default 8 MiB stack lasts some ten thousand levels).  Deep files are
# read in a thread whose stack is sized for them: _STACK_PER_LEVEL rounds up the C stack a
# level takes (about 600 bytes; measurements in benchmarks/results/measurements.md).
MAX_DEPTH = LIMITS.efg_depth  # why: seqform.base.limits
MAX_EFG_BYTES = LIMITS.efg_bytes  # why: seqform.base.limits
_STACK_PER_LEVEL = 1024
_STACK_BASE = 32 << 20
_OWN_STACK_DEPTH = 1_000  # shallower trees are read in the calling thread
_NODE_BYTES = 5  # the shortest node, 't ""0' and a blank: a file's bytes bound its depth


_PARSE_PREFIX = "Parse error in game file:"
_POSITION = re.compile(r"^line (?P<line>\d+):(?P<column>\d+):\s*")


def _format_error(path: str, text: str, exc: ValueError) -> GameFormatError:
    """Turn pygambit's ``ValueError("Parse error in game file: line 7:16: ...")``."""
    reason = str(exc).strip()
    if reason.startswith(_PARSE_PREFIX):
        reason = reason[len(_PARSE_PREFIX) :].strip()
    match = _POSITION.match(reason)
    if match is None:
        return GameFormatError(path, reason or "pygambit could not parse it")
    line = _file_line(text, int(match["line"]))
    return GameFormatError(path, reason[match.end() :], line=line, column=int(match["column"]))


def _file_line(text: str, reported: int) -> int:
    """The line of the file where pygambit's reported line starts.

    pygambit 16.7's reader does not count line breaks inside quoted strings (a game's
    description often spans lines), so its line numbers run short after such a string.
    This counts them, following only the quoting of strings as Gambit's lexer does (a
    string ends at a ``"`` not preceded by ``\\``).
    """
    outside, actual = 1, 1
    in_string = after_slash = False
    for char in text:
        if outside >= reported:
            return actual
        if in_string:
            if char == '"' and not after_slash:
                in_string = False
            after_slash = char == "\\"
        elif char == '"':
            in_string = True
        if char == "\n":
            actual += 1
            if not in_string:
                outside += 1
    return actual + (reported - outside)


def read_efg(path: str | os.PathLike[str]) -> Game:
    """Read a Gambit ``.efg`` file into a seqform :class:`~seqform.game.Game`.

    Reading takes time linear in the file and reports its phases to the progress
    listener (:mod:`seqform.base.progress`).

    Parameters
    ----------
    path
        The file.  The game is named by its Gambit title, or by the file name when the
        title is blank.

    Returns
    -------
    Game
        The game, with exact probabilities and payoffs (see
        :mod:`seqform.game.formats.from_gambit` for how outcomes, information sets and labels
        are converted).

    Raises
    ------
    OSError
        If the file cannot be opened (missing, unreadable, a directory).
    GameFormatError
        If the file is larger than :data:`MAX_EFG_BYTES` (before it is read), its tree
        deeper than :data:`MAX_DEPTH` (found by a quick pass before the pre-pass, for a
        file large enough to be), not UTF-8,
        or the pre-pass (:func:`~seqform.game.formats.efg_scan.scan_efg`) or pygambit cannot
        parse it; the message gives the file, the reason and, when
        known, the line and column.  Chance probabilities that are negative or do not sum
        to exactly one are refused by the pre-pass, naming the line and the chance node.
    InvalidGameError
        If the game has fewer than two players, is a strategic-form game or lacks perfect
        recall; the message starts with the file name.
    """
    name = os.fspath(path)
    try:
        size = os.stat(name).st_size
        if size > MAX_EFG_BYTES:
            raise GameFormatError(
                name,
                f"the file is {size:,} bytes; seqform reads .efg files of at most "
                f"{MAX_EFG_BYTES:,} bytes (several million nodes)",
            )
        data = Path(name).read_bytes()
    except OSError as exc:
        raise type(exc)(exc.errno, f"cannot read Gambit file: {exc.strerror}", name) from exc
    if len(data) > _NODE_BYTES * MAX_DEPTH:  # deep enough to refuse: find out before the pre-pass
        report(Step(f"checking the depth of {name}"))
        depth = quick_depth(decode(name, data))
        if depth is not None and depth > MAX_DEPTH:
            raise _too_deep(name, depth)
    with gc_paused():  # a million tokens and labels, none in a cycle (measurements.md)
        return _read(name, data)


def _read(name: str, data: bytes) -> Game:
    """The pre-pass, then pygambit's parse and the conversion on a stack deep enough."""
    report(Step(f"reading {name}"))
    scanned = scan_efg(name, data)
    depth = scanned.depth
    if scanned.node_labels is None:  # the pre-pass stopped early: depth is a bound
        depth = min(depth, MAX_DEPTH)
    elif depth > MAX_DEPTH:
        raise _too_deep(name, depth)
    return _with_stack(depth, lambda: _convert(name, data, scanned))


def _too_deep(name: str, depth: int) -> GameFormatError:
    return GameFormatError(
        name,
        f"the game tree is {depth:,} levels deep; pygambit's reader recurses once per "
        f"level, and seqform lets it go {MAX_DEPTH:,} levels deep",
    )


def _convert(name: str, data: bytes, scanned: ScannedEfg) -> Game:
    """pygambit's parse of the prepared bytes, converted with the labels kept aside."""
    report(Step(f"parsing {name} with pygambit"))
    try:
        gambit_game = pygambit.read_efg(io.BytesIO(scanned.data))
    except ValueError as exc:
        raise _format_error(name, data.decode("utf-8-sig"), exc) from exc
    labels = KeptLabels(
        scanned.restore,
        scanned.node_labels,
        scanned.infoset_labels,
        scanned.outcomes,
        scanned.payoffs,
    )
    title = scanned.restore(gambit_game.title).strip()
    report(Step(f"converting {name}"))
    try:
        return game_from_gambit(gambit_game, name=title or Path(name).stem, labels=labels)
    except InvalidGameError as exc:
        raise InvalidGameError(f"{name}: {exc}") from exc


def _with_stack(depth: int, work: Callable[[], _T]) -> _T:
    """``work()``, run in a thread whose stack holds pygambit's recursion ``depth`` deep.

    The thread runs in a copy of the caller's context, so that its progress reaches the
    caller's listener (:mod:`seqform.base.progress`).  The calling thread waits for it as
    for a solver (:func:`~seqform.base.interrupt.run_interruptibly`), so Ctrl-C interrupts
    the wait at once; the reader, which has no interrupt hook, is left to end with the
    process.

    Raises
    ------
    MemoryError
        If no such thread can be started (e.g. under a limit on virtual memory).
    """
    if depth <= _OWN_STACK_DEPTH:
        return work()
    size = _STACK_BASE + depth * _STACK_PER_LEVEL
    context = contextvars.copy_context()
    try:
        return run_interruptibly(
            lambda: context.run(work), stack_size=size, name="seqform-efg-reader"
        )
    except ThreadStartError as exc:
        raise MemoryError(
            f"cannot start a thread with a {size >> 20} MiB stack to read a game tree "
            f"{depth:,} levels deep: {exc}"
        ) from exc
