"""Exit codes of the command line and the one exception the commands raise for them.

0 success; 1 bad input (unreadable or invalid game, bad parameters) or a solver that did not
prove optimality; 2 usage errors, including an unknown game name; 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

__all__ = ["EXIT_ERROR", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "CommandError"]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, the shell's code for Ctrl-C


class CommandError(Exception):
    """A failure that the CLI reports in one line with an exit code."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code
