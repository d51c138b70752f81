"""Exit codes of the command line and the one exception the commands raise for them.

0 success; 1 bad input (an unreadable or invalid game file, a strategy file that does not
fit) or a solver that did not prove optimality; 2 usage errors: an option value out of range,
an unknown game, an unknown, unreadable or out-of-range game parameter (Liar's Dice's bids
limit too: :class:`~seqform.game.errors.ParameterLimitError`; a game refused by its size is
1); 3 an answer written
but not certified (``solve`` whose best-response certificate fails: exploitability above the
tolerance of the payoff range, or ``--exact`` giving bounds instead of a value; ``compare``
whose formulations' values disagree or one of whose LP answers is not certified;
``iterate`` whose certificate overflows the float range); 130 interrupted (Ctrl-C; 128 + n
for signal n: 143 SIGTERM, 129 SIGHUP); 141 the reader of a pipe closed it early
(``seqform solve leduc | head -1``; no message, see :mod:`seqform.cli.streams`).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "EXIT_CODES_HELP",
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_NOT_CERTIFIED",
    "EXIT_OK",
    "EXIT_PIPE_CLOSED",
    "EXIT_USAGE",
    "CommandError",
    "certified_exit",
    "refuse_unused",
]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_NOT_CERTIFIED = 3  # the result is written, but its certificate fails
EXIT_INTERRUPTED = 130  # 128 + SIGINT, the shell's code for Ctrl-C
EXIT_PIPE_CLOSED = 141  # 128 + SIGPIPE: the reader of stdout (or stderr) closed the pipe

EXIT_CODES_HELP = (
    f"exit codes: {EXIT_OK} success; {EXIT_ERROR} bad input or solver failure; "
    f"{EXIT_USAGE} usage error; {EXIT_NOT_CERTIFIED} answer written but not certified "
    f"(solve: exploitability above the tolerance, or --exact found only bounds; "
    f"compare: the values disagree, or an LP's exploitability is above the tolerance; "
    f"qre: the trace ended before its stop rule held); "
    f"{EXIT_PIPE_CLOSED} output pipe closed by its reader (silently); "
    f"{EXIT_INTERRUPTED} interrupted (128 + the signal: 143 SIGTERM, 129 SIGHUP)"
)
"""The exit codes in one line, for the ``--help`` epilog (and README's paragraph)."""


class CommandError(Exception):
    """A failure that the CLI reports in one line with an exit code."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


def certified_exit(why_not: str | None, what: str = "the answer") -> int:
    """:data:`EXIT_OK` for a certified answer (``why_not`` None); else raise
    :data:`EXIT_NOT_CERTIFIED` saying why ``what`` is not.  Called after the answer is
    written, so the report stays on stdout and the reason goes to stderr."""
    if why_not is None:
        return EXIT_OK
    raise CommandError(f"{what} is not certified: {why_not}", EXIT_NOT_CERTIFIED)


def refuse_unused(by: str, options: Sequence[str], why: str) -> None:
    """Refuse (:data:`EXIT_USAGE`) the ``options`` given (not at their defaults) that ``by``
    (a mode, ``--no-solve``) has no use for, rather than ignore them: one line,
    ``"{by} takes no --a, --b or --c ({why})"``; nothing when ``options`` is empty."""
    if not options:
        return
    listed = options[0] if len(options) == 1 else f"{', '.join(options[:-1])} or {options[-1]}"
    raise CommandError(f"{by} takes no {listed} ({why})", EXIT_USAGE)
